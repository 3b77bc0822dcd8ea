"""citation-validate's DOI check over stdio, against replayed Crossref and doi.org answers.

research-mcp runs as a user runs it; only the network edge is replaced, by a 127.0.0.1 server
replaying real recordings (``shared/fixtures/crossref``, see its MANIFEST.md). Expected values were
read from those recordings: the corrected PLoS ONE work (one correction notice from the publisher,
2012-05-08), the retracted Lancet work (a correction 2004-03-06 and a retraction 2010-02-06, both
recorded by Retraction Watch), the clean PLoS Computational Biology work, Crossref's and doi.org's
404s and doi.org's 302.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from support.crossref_replay import CrossrefReplay, crossref_fixtures_dir, serve_crossref_replay
from support.required import missing
from support.servers import server_client

pytestmark = pytest.mark.anyio

EMAIL = "tests@example.org"
RETRACTED = "10.1016/S0140-6736(97)11096-0"
CORRECTED = "10.1371/journal.pone.0033693"
CLEAN = "10.1371/journal.pcbi.1003285"
WAKEFIELD_TITLE = "Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children"
METHYLPHENIDATE_TITLE = "Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia in the Basal Ganglia of Mice"


@pytest.fixture(scope="module")
def crossref() -> Iterator[CrossrefReplay]:
    path = crossref_fixtures_dir()
    if path is None:
        message = "Crossref fixtures not found: put shared/ beside the repository"
        missing(message)
    with serve_crossref_replay(path) as replay:
        yield replay


@pytest.fixture(scope="module")
async def research(crossref: CrossrefReplay) -> AsyncIterator[Client]:
    env = {
        "RESEARCH_MCP_CROSSREF_URL": crossref.crossref_url,
        "RESEARCH_MCP_DOI_URL": crossref.doi_url,
        "RESEARCH_MCP_CONTACT_EMAIL": EMAIL,
        "RESEARCH_MCP_CROSSREF_CONCURRENCY": "2",
    }
    async with server_client("research_mcp", env=env) as client:
        yield client


def data(result: CallToolResult) -> dict[str, Any]:
    assert isinstance(result.content[0], TextContent)
    assert not result.is_error, result.content[0].text
    assert result.structured_content is not None
    return result.structured_content


async def validate(client: Client, *citations: dict[str, str]) -> dict[str, Any]:
    return data(
        await client.call_tool("citation-validate", {"citations": list(citations), "verify_urls": True})
    )


def doi_issues(result: dict[str, Any], index: int = 0) -> dict[str, dict[str, Any]]:
    return {x["issue"]: x for x in result["issues"] if x["citation_index"] == index and x["field"] == "doi"}


async def test_a_retracted_work_is_an_error_naming_the_retraction_notice(
    research: Client, crossref: CrossrefReplay
) -> None:
    result = await validate(
        research,
        {
            "claim": "The MMR vaccine causes autism.",
            "author": "Wakefield AJ, Murch SH, Anthony A, et al.",
            "date": "1998-02-28",
            "title": WAKEFIELD_TITLE,
            "doi": RETRACTED,
        },
    )
    check = result["citations"][0]["doi_check"]
    assert check["found"] is True and check["agency"] == "Crossref" and check["retracted"] is True
    assert check["title"] == f"RETRACTED: {WAKEFIELD_TITLE}" and check["container"] == "The Lancet"
    assert check["published"] == "1998-02"
    assert check["notices"] == [
        {"doi": "10.1016/s0140-6736(04)15715-2", "type": "correction", "source": "retraction-watch", "date": "2004-03-06"},
        {"doi": "10.1016/s0140-6736(10)60175-4", "type": "retraction", "source": "retraction-watch", "date": "2010-02-06"},
    ]  # fmt: skip
    assert check["title_match"] == 1.0, "the 'RETRACTED:' marker is not part of the title"
    assert check["author_match"] is True and check["date_match"] is True
    issues = doi_issues(result)
    assert issues["retracted"]["severity"] == "error"
    assert "10.1016/s0140-6736(10)60175-4" in issues["retracted"]["detail"]
    assert issues["corrected"]["severity"] == "warning"
    assert set(issues) == {"retracted", "corrected"}
    assert result["valid_citations"] == 0
    assert {"citation_index", "field", "issue", "severity"} <= set(issues["retracted"])
    assert crossref.requests[-1].user_agent.endswith(f"mailto:{EMAIL})"), (
        "polite pool: mailto in the User-Agent"
    )
    print(json.dumps({"doi_check": check, "issues": list(issues.values())}, indent=1))


async def test_a_corrected_work_is_a_warning(research: Client) -> None:
    result = await validate(
        research,
        {
            "claim": "Methylphenidate exposure caused dopamine neuron loss in mice.",
            "author": "Sadasivan S, Pond BB, Pani AK, Qu C, Jiao Y, Smeyne RJ",
            "date": "2012",
            "title": METHYLPHENIDATE_TITLE.lower(),
            "url": f"https://dx.doi.org/{CORRECTED}",
        },
    )
    detail = result["citations"][0]
    check = detail["doi_check"]
    assert (
        check["retracted"] is False
        and check["container"] == "PLoS ONE"
        and check["published"] == "2012-03-21"
    )
    assert check["notices"] == [
        {"doi": "10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda", "type": "correction", "source": "publisher", "date": "2012-05-08"}
    ]  # fmt: skip
    issues = doi_issues(result)
    assert set(issues) == {"corrected"} and issues["corrected"]["severity"] == "warning"
    assert result["valid_citations"] == 1, "a correction is a warning, not an error"
    assert detail["url_check"]["checked"] is False, "a DOI link is checked against the record, not fetched"
    print(json.dumps({"doi_check": check, "issues": list(issues.values())}, indent=1))


async def test_a_clean_work_in_doi_form_has_no_doi_issue(research: Client) -> None:
    result = await validate(
        research,
        {
            "claim": "Reproducible research needs recorded versions.",
            "author": "Sandve, Nekrutenko, Taylor, Hovig",
            "date": "October 2013",
            "title": "Ten simple rules for reproducible computational research",
            "url": f"doi:{CLEAN}",
        },
    )
    check = result["citations"][0]["doi_check"]
    assert check["found"] is True and check["retracted"] is False and check["notices"] == []
    assert check["title"] == "Ten Simple Rules for Reproducible Computational Research"
    assert {"type": "has-review", "id": "10.3410/f.720906062.793556792"} in check["relations"]
    assert check["title_match"] == 1.0 and check["author_match"] is True and check["date_match"] is True
    assert doi_issues(result) == {}


async def test_a_doi_of_another_work_gives_title_author_and_date_mismatches(research: Client) -> None:
    wrong = {
        "claim": "Reproducible research needs recorded versions.",
        "author": "Sandve GK, Nekrutenko A",
        "date": "2015",
        "title": "Ten Simple Rules for Reproducible Computational Research",
        "doi": CORRECTED,
    }
    result = await validate(research, wrong, {**wrong, "date": "2013"})
    issues = doi_issues(result)
    assert {"title_mismatch", "author_mismatch", "date_mismatch"} <= set(issues)
    assert all(
        issues[k]["severity"] == "warning" for k in ("title_mismatch", "author_mismatch", "date_mismatch")
    )
    assert METHYLPHENIDATE_TITLE in issues["title_mismatch"]["detail"]
    assert result["citations"][0]["doi_check"]["title_match"] < 0.5
    assert "date_mismatch" not in doi_issues(result, 1), (
        "2013 is one year from 2012: print and online years differ"
    )


async def test_a_doi_neither_service_knows_is_an_error(research: Client, crossref: CrossrefReplay) -> None:
    result = await validate(research, {"claim": "x", "doi": "doi:10.1371/notarealdoi"})
    check = result["citations"][0]["doi_check"]
    assert check["found"] is False
    assert doi_issues(result)["doi_not_found"]["severity"] == "error"
    assert (
        crossref.asked("crossref", "10.1371/notarealdoi") == 1
        and crossref.asked("doi", "10.1371/notarealdoi") == 1
    )


async def test_a_doi_only_the_resolver_knows_is_registered_without_following_the_redirect(
    research: Client, crossref: CrossrefReplay
) -> None:
    result = await validate(
        research,
        {"claim": "x", "title": "The structure of ordinary water", "doi": "10.1126/science.169.3946.635"},
    )
    check = result["citations"][0]["doi_check"]
    assert check["found"] is True and check["source"] == "doi.org" and check["agency"] is None
    assert (
        check["resolves_to"] == "https://api.crossref.org/v1/works/10.1126%2Fscience.169.3946.635/transform"
    )
    assert doi_issues(result) == {}, "no metadata to compare: no mismatch is claimed"
    assert crossref.asked("doi", "10.1126/science.169.3946.635") == 1


async def test_a_citation_of_a_retraction_notice_shows_what_it_retracts(research: Client) -> None:
    result = await validate(
        research, {"claim": "The Lancet retracted the paper.", "doi": "10.1016/S0140-6736(10)60175-4"}
    )
    check = result["citations"][0]["doi_check"]
    assert check["retracted"] is False
    assert check["updates"] == [
        {"doi": "10.1016/s0140-6736(97)11096-0", "type": "retraction", "source": "retraction-watch", "date": "2010-02-06"}
    ]  # fmt: skip


async def test_a_429_is_waited_out_and_retried(research: Client, crossref: CrossrefReplay) -> None:
    doi = "10.1038/srep16696"
    crossref.set_fault("http_429", times=1, retry_after="1")
    result = await validate(research, {"claim": "x", "doi": doi})
    assert result["citations"][0]["doi_check"]["found"] is True
    assert crossref.asked("crossref", doi) == 2, "one 429, then the answer"


async def test_a_long_retry_after_or_a_broken_connection_leave_the_doi_unverified_and_uncached(
    research: Client, crossref: CrossrefReplay
) -> None:
    citation = {"claim": "x", "doi": "10.1002/jor.1100150407"}
    crossref.set_fault("http_429", times=1, retry_after="120")
    first = await validate(research, citation)
    assert first["citations"][0]["doi_check"]["checked"] is False
    assert doi_issues(first)["doi_unverified"]["severity"] == "warning"
    assert first["valid_citations"] == 1, "an unverified DOI is not an error"
    crossref.set_fault("disconnect", times=1)
    second = await validate(research, citation)
    assert set(doi_issues(second)) == {"doi_unverified"}
    third = await validate(research, citation)
    assert third["citations"][0]["doi_check"]["found"] is True, "a failed lookup is not cached"


async def test_lookups_are_cached_per_doi_and_shared_with_the_batch_tool(
    research: Client, crossref: CrossrefReplay
) -> None:
    doi = "10.1016/j.neurobiolaging.2010.03.024"
    await validate(research, {"claim": "first claim", "doi": doi})
    assert crossref.asked("crossref", doi) == 1
    again = await validate(research, {"claim": "another claim citing the same work", "doi": doi})
    assert again["citations"][0]["doi_check"]["found"] is True
    before = data(await research.call_tool("cache-stats", {}))["citationCache"]["hits"]
    batch = data(
        await research.call_tool(
            "batch-citation-validate",
            {
                "items": [
                    {
                        "citations": [{"claim": "a third claim", "doi": f"https://doi.org/{doi}"}],
                        "verify_urls": True,
                    }
                ]
            },
        )
    )
    item = batch["results"][0]
    assert item["success"] and item["data"]["citations"][0]["doi_check"]["found"] is True
    assert crossref.asked("crossref", doi) == 1, "the second call and the batch item used the cached record"
    assert data(await research.call_tool("cache-stats", {}))["citationCache"]["hits"] > before


async def test_lookups_in_flight_stay_under_the_configured_cap(
    research: Client, crossref: CrossrefReplay
) -> None:
    dois = ["10.3892/ijo_00000353", "10.1109/icdcsw.2003.1203662", "10.1371/journal.pone.0020476", "10.1016/s0140-6736(04)15715-2", "10.5555/uncached.1"]  # fmt: skip
    crossref.delay, crossref.max_in_flight = 0.2, 0
    try:
        await validate(research, *({"claim": f"claim {i}", "doi": d} for i, d in enumerate(dois)))
    finally:
        crossref.delay = 0.0
    assert crossref.max_in_flight == 2, "RESEARCH_MCP_CROSSREF_CONCURRENCY=2"


def test_replay_serves_the_recorded_fixtures() -> None:
    """The recordings this module relies on are where MANIFEST.md says (a guard against a moved fixture)."""
    path = crossref_fixtures_dir()
    if path is None:
        missing("Crossref fixtures not found: put shared/ beside the repository")
    assert (path / "habanero_test_works_with_one_id.yaml").is_file()
    assert Path(path / "uws_crossref_work_wakefield1998.json").stat().st_size == 11287
