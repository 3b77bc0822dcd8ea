"""paper-graph over the real MCP transport: ``python -m papers_mcp`` over stdio, a real client, replay
arXiv and replay Semantic Scholar / OpenAlex serving the real recordings of shared/fixtures.

Expected values come from the documents and the recordings, read by eye: 1706.03762v5's 40 printed
references (22 of them name an arXiv id: [1] arXiv:1607.06450, [2] CoRR abs/1409.0473, ...),
2604.16990v1's 9 (arXiv:1608.00071 in [2]), the 502 citing papers recorded for Semantic Scholar
paper 22d840026482e82dce65c5d0f91eb72b7b7bba1e (its DOI 10.1016/J.COMPOSITESB.2018.01.027, 7 of them
on arXiv), the 50 + 17 references recorded for DOI 10.2139/ssrn.2250500, and the 26 works OpenAlex
recorded as citing W2785752813 (DOI 10.1145/3174781.3174785). A 429 has no recording: its body in
the replay is synthetic (support/scholar_replay.py says so).
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.scholar_models import NotKnown
from support.arxiv_replay import Replay, serve_replay
from support.scholar_replay import ScholarReplay, scholar_fixtures_dir, serve_scholar_replay
from support.servers import free_port, server_client

pytestmark = pytest.mark.anyio

API_KEY = "s2-test-key-0123456789"
BOOKWORM_DOI = "10.1016/J.COMPOSITESB.2018.01.027"


@pytest.fixture(scope="module")
def scholar() -> Iterator[ScholarReplay]:
    path = scholar_fixtures_dir()
    if path is None:
        message = "shared/fixtures/scholar not found: put shared/ beside the repository"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    with serve_scholar_replay(path) as running:
        yield running


@pytest.fixture(scope="module")
def replay(arxiv_fixtures: Path) -> Iterator[Replay]:
    with serve_replay(arxiv_fixtures) as running:
        yield running


@pytest.fixture(autouse=True)
def no_faults(scholar: ScholarReplay) -> Iterator[None]:
    yield
    scholar.clear_faults()


def env_for(replay: Replay, scholar: ScholarReplay, home: Path, **overrides: str) -> dict[str, str]:
    settings = {
        "S2_URL": scholar.s2_url,
        "OPENALEX_URL": scholar.openalex_url,
        "S2_API_KEY": API_KEY,
        "CONTACT_EMAIL": "papers-mcp-tests@example.org",
        "S2_MIN_INTERVAL_SECONDS": "0",
        "OPENALEX_MIN_INTERVAL_SECONDS": "0",
    }
    return replay.papers_env(home, **{**settings, **overrides})


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("graph-home")


@pytest.fixture(scope="module")
def errlog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("graph-log") / "stderr.log"


@pytest.fixture(scope="module")
async def papers(replay: Replay, scholar: ScholarReplay, home: Path, errlog: Path) -> AsyncIterator[Client]:
    with errlog.open("w", encoding="utf-8") as log:
        env = env_for(replay, scholar, home, LOG_LEVEL="DEBUG")
        async with server_client("papers_mcp", env=env, errlog=log) as client:
            yield client


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def items(answer: str) -> list[dict[str, str]]:
    blocks = answer.split("\n\n----------\n\n")[1:]
    out = []
    for block in blocks:
        if not block.startswith("- Title:"):
            continue
        block = block.split("\n\n[Page ")[0]
        out.append(dict(line[2:].split(": ", 1) for line in block.splitlines()))
    return out


async def graph(
    client: Client, paper: str, direction: str | None = None, page: int | None = None
) -> CallToolResult:
    args: dict[str, object] = {"paper": paper}
    if direction is not None:
        args["direction"] = direction
    if page is not None:
        args["page"] = page
    return await client.call_tool("paper-graph", args)


async def test_the_tool_is_listed_with_an_output_schema(papers: Client) -> None:
    tools = {t.name: t for t in (await papers.list_tools()).tools}
    tool = tools["paper-graph"]
    assert tool.output_schema is not None and "items" in tool.output_schema["properties"]
    assert set(tool.input_schema["properties"]) == {"paper", "direction", "page"}
    assert tool.annotations is not None and tool.annotations.read_only_hint


async def test_references_of_a_pdf_paper_are_its_own_entries_with_their_arxiv_ids(
    papers: Client, scholar: ScholarReplay
) -> None:
    result = await graph(papers, "arxiv:1706.03762")
    assert not result.is_error, text_of(result)
    text = text_of(result)
    assert text.startswith("# References of arxiv:1706.03762v5: Attention Is All You Need")
    assert "- Total: 40 entries" in text
    assert "- Resolved: 22 with an arXiv id, 0 matched in an index" in text
    # Neither index knows this paper in the recordings: the answer says so and still lists the entries.
    assert (
        "Note: No scholarly index lists this paper (Semantic Scholar does not know arxiv:1706.03762v5" in text
    )
    assert "OpenAlex does not know arxiv:1706.03762v5" in text
    first = items(text)
    assert len(first) == 20
    assert first[0]["Arxiv ID"] == "arxiv:1607.06450" and first[0]["Title"] == "Layer normalization"
    assert first[1]["Arxiv ID"] == "arxiv:1409.0473"
    assert first[0]["Entry"].startswith("[1] Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E Hinton.")
    data = result.structured_content
    assert data is not None and data["total"] == 40 and data["pages"] == 2 and len(data["items"]) == 20
    asked = [a.path for a in scholar.asked("s2")]
    assert "/s2/paper/ARXIV:1706.03762/references" in asked
    assert "/s2/paper/batch" in asked  # the 22 entries with an arXiv id, asked about in one batch
    last = await graph(papers, "1706.03762", "references", 2)
    assert [i["Entry"].split("]")[0] for i in items(text_of(last))][-1] == "[40"


async def test_references_of_an_html_paper_come_from_its_bibitems(papers: Client) -> None:
    result = await graph(papers, "arxiv:2604.16990v1")
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data is not None and data["total"] == 9
    assert [i["label"] for i in data["items"]] == [str(n) for n in range(1, 10)]
    assert data["items"][1]["arxiv_id"] == "arxiv:1608.00071"
    assert data["sources"][0].startswith("the paper's bibliography (arXiv HTML")


async def test_citations_come_from_semantic_scholar_in_pages_and_are_cached(
    papers: Client, scholar: ScholarReplay
) -> None:
    recorded = json.loads(
        (
            scholar.fixtures
            / "semanticscholar"
            / "citations_22d840026482e82dce65c5d0f91eb72b7b7bba1e_limit1000.json"
        ).read_bytes()
    )
    titles = [" ".join(d["citingPaper"]["title"].split()) for d in recorded["data"]]
    result = await graph(papers, f"doi:{BOOKWORM_DOI}", "citations")
    assert not result.is_error, text_of(result)
    text = text_of(result)
    assert "- Total: 502 citing papers" in text and "- From: Semantic Scholar" in text
    assert [i["Title"] for i in items(text)] == titles[:20]
    asked = len(scholar.asked("s2"))
    last = await graph(papers, f"doi:{BOOKWORM_DOI}", "citations", 26)
    data = last.structured_content
    assert data is not None and data["page"] == 26 and data["pages"] == 26
    assert [i["title"] for i in data["items"]] == titles[500:]
    assert len(scholar.asked("s2")) == asked  # the library's cache answered page 26
    key_headers = {a.headers.get("x-api-key") for a in scholar.asked("s2")}
    assert key_headers == {API_KEY}


async def test_references_by_doi_follow_semantic_scholars_next_offset(
    papers: Client, scholar: ScholarReplay
) -> None:
    result = await graph(papers, "doi:10.2139/ssrn.2250500", "references")
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data is not None and data["total"] == 67 and data["pages"] == 4
    offsets = [a.query.get("offset") for a in scholar.asked("s2") if "ssrn.2250500" in a.path]
    assert offsets == ["0", "50"]


async def test_a_rate_limited_semantic_scholar_gives_way_to_openalex(
    papers: Client, scholar: ScholarReplay
) -> None:
    """The 429's body is synthetic (no 429 was ever recorded); its Retry-After is over the bound, so no wait."""
    scholar.set_fault("http_429", "s2", times=10, retry_after="120")
    result = await graph(papers, "doi:10.1145/3174781.3174785", "citations")
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data is not None and data["sources"] == ["OpenAlex"] and data["total"] == 26
    recorded = json.loads(
        (scholar.fixtures / "openalex" / "works_filter-cites-W2785752813_cursor-start.json").read_bytes()
    )
    assert [i["title"] for i in data["items"]] == [
        " ".join(w["display_name"].split()) for w in recorded["results"][:20]
    ]
    assert len([a for a in scholar.asked("s2") if "3174781" in a.path]) == 1  # Retry-After 120 s: no retry
    second = await graph(papers, "doi:10.1145/3174781.3174785", "citations", 2)
    assert second.structured_content is not None
    assert [i["title"] for i in second.structured_content["items"]] == [
        " ".join(w["display_name"].split()) for w in recorded["results"][20:]
    ]
    lists = [a for a in scholar.asked("openalex") if a.path == "/openalex/works"]
    assert [a.query["cursor"] for a in lists] == [
        "*",
        recorded["meta"]["next_cursor"],
    ]  # the first page cached
    assert all(a.query.get("mailto") == "papers-mcp-tests@example.org" for a in scholar.asked("openalex"))


async def test_a_short_retry_after_is_waited_for(replay: Replay, scholar: ScholarReplay) -> None:
    """One synthetic 429 with Retry-After: 1 (within the bound): the same index is asked again after it."""
    scholar.set_fault("http_429", "s2", times=1, retry_after="1")
    with tempfile.TemporaryDirectory() as tmp:
        async with server_client("papers_mcp", env=env_for(replay, scholar, Path(tmp))) as client:
            started = time.monotonic()
            result = await graph(client, f"doi:{BOOKWORM_DOI.lower()}", "citations")
            waited = time.monotonic() - started
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data is not None and data["sources"] == ["Semantic Scholar"] and data["total"] == 502
    asked = [a.path for a in scholar.asked("s2") if a.path.endswith(f"{BOOKWORM_DOI.lower()}/citations")]
    assert len(asked) == 2 and waited >= 1.0


async def test_a_bad_id_is_a_validation_error_and_fetches_nothing(
    papers: Client, scholar: ScholarReplay
) -> None:
    before = len(scholar.requests)
    result = await graph(papers, "not a paper at all")
    assert result.is_error and text_of(result).startswith(f"Error: {ErrorCode.VALIDATION_ERROR}:")
    assert len(scholar.requests) == before


async def test_the_api_key_is_never_logged(papers: Client, errlog: Path) -> None:
    await graph(papers, "doi:10.1016/J.COMPOSITESB.2018.01.027", "citations")
    logged = await anyio.Path(errlog).read_text(encoding="utf-8")
    assert "papers_mcp" in logged and API_KEY not in logged


async def test_without_network_references_still_come_and_citations_say_why(
    replay: Replay, scholar: ScholarReplay
) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    with tempfile.TemporaryDirectory() as tmp:
        env = env_for(replay, scholar, Path(tmp), S2_URL=dead, OPENALEX_URL=dead, TIMEOUT_SECONDS="2")
        async with server_client("papers_mcp", env=env) as client:
            refs = await graph(client, "arxiv:2604.16990v1")
            assert not refs.is_error, text_of(refs)
            assert "Note: The scholarly indexes could not be asked" in text_of(refs)
            assert refs.structured_content is not None and refs.structured_content["total"] == 9
            cites = await graph(client, "arxiv:2604.16990v1", "citations")
            assert cites.is_error
            message = text_of(cites)
            assert message.startswith(
                f"Error: {ErrorCode.RESOURCE_ERROR}: The citations of arxiv:2604.16990v1 could not be fetched"
            )
            assert "could not be reached" in message and 'direction="references"' in message


async def test_the_abstract_level_names_the_version_and_ends_with_bibtex(papers: Client) -> None:
    """1706.03762v5 is the fixture's (and arXiv's) latest version, dated 2017-12-06; "Łukasz Kaiser" as the
    fixture's metadata spells him becomes {\\L}ukasz in BibTeX."""
    result = await papers.call_tool("query-paper", {"arxivID": "arxiv:1706.03762", "level": "abstract"})
    text = text_of(result)
    assert "\n- Version: v5 of 5 (the latest, 2017-12-06)\n" in text
    assert text.endswith(
        "## BibTeX\n\n```bibtex\n@misc{vaswani2017attentionneed,\n      title={Attention Is All You Need},\n"
        "      author={Ashish Vaswani and Noam Shazeer and Niki Parmar and Jakob Uszkoreit and Llion Jones and "
        "Aidan N. Gomez and {\\L}ukasz Kaiser and Illia Polosukhin},\n      year={2017},\n      eprint={1706.03762},\n"
        "      archivePrefix={arXiv},\n      primaryClass={cs.CL},\n      url={https://arxiv.org/abs/1706.03762},\n}\n```"
    )
    data = result.structured_content
    assert data is not None and data["csl_json"]["id"] == "arxiv:1706.03762"
    assert data["csl_json"]["author"][0] == {"family": "Vaswani", "given": "Ashish"}
    assert data["bibtex"].startswith("@misc{vaswani2017attentionneed,")
    body = await papers.call_tool(
        "query-paper", {"arxivID": "arxiv:1706.03762v5", "level": "body", "page": 1}
    )
    assert "## BibTeX" not in text_of(body) and body.structured_content is not None
    assert body.structured_content["csl_json"]["DOI"] == "10.48550/arXiv.1706.03762"


def test_the_batch_client_reads_a_null_for_an_unknown_id(scholar: ScholarReplay) -> None:
    """The recorded POST /paper/batch: CorpusId:211530585 unknown (null), then three papers."""
    from papers_mcp.scholar_api import S2Client
    from papers_mcp.settings import Settings

    recorded = json.loads(
        (scholar.fixtures / "semanticscholar" / "paper-batch_POST_with-null-for-unknown-id.json").read_bytes()
    )
    client = S2Client(Settings(s2_url=scholar.s2_url, s2_min_interval_seconds=0, max_retries=0))
    ids = [
        "CorpusId:211530585",
        "CorpusId:470667",
        "10.2139/ssrn.2250500",
        "0f40b1f08821e22e859c6050916cec3667778613",
    ]
    papers = client.batch(ids)
    assert papers[0] is None
    assert [p.title if p else None for p in papers[1:]] == [
        " ".join(r["title"].split()) for r in recorded[1:]
    ]
    assert [p.index_id if p else None for p in papers[1:]] == [r["paperId"] for r in recorded[1:]]


def test_recorded_error_bodies_are_translated(scholar: ScholarReplay) -> None:
    """The recorded 400/403/504 answers: the service's own words reach the message; 5xx is retried first."""
    from papers_mcp.scholar_api import OpenAlexClient, S2Client
    from papers_mcp.settings import Settings

    settings = Settings(
        s2_url=scholar.s2_url,
        openalex_url=scholar.openalex_url,
        s2_min_interval_seconds=0,
        openalex_min_interval_seconds=0,
        max_retries=1,
        retry_backoff_seconds=0.01,
    )
    s2, openalex = S2Client(settings), OpenAlexClient(settings)
    with pytest.raises(ToolFailure) as bad_fields:
        s2._http.get("/paper/10.1093/mind/lix.236.433", {"fields": "unknown"}, "a paper")
    assert bad_fields.value.code == ErrorCode.VALIDATION_ERROR
    assert "(HTTP 400: Unrecognized or unsupported fields: [unknown])" in bad_fields.value.message
    timed_out = "contexts,intents,isInfluential,abstract,authors,citationCount,corpusId,externalIds,fieldsOfStudy,influentialCitationCount,isOpenAccess,journal,openAccessPdf,paperId,publicationDate,publicationTypes,publicationVenue,referenceCount,s2FieldsOfStudy,title,url,venue,year"
    before = len(scholar.asked("s2"))
    with pytest.raises(ToolFailure) as gateway:
        s2._http.get(
            "/paper/CorpusID:49313245/citations",
            {"fields": timed_out, "offset": 0, "limit": 1000},
            "citations",
        )
    assert gateway.value.code == ErrorCode.RESOURCE_ERROR
    assert gateway.value.message.startswith("Semantic Scholar is unavailable (HTTP 504)")
    assert len(scholar.asked("s2")) == before + 2  # one retry
    scholar.set_fault("http_403", "s2", times=1)
    with pytest.raises(ToolFailure) as forbidden:
        s2.paper("DOI:10.1016/J.COMPOSITESB.2018.01.027")
    assert "(HTTP 403: Forbidden) (check PAPERS_MCP_S2_API_KEY)" in forbidden.value.message
    with pytest.raises(ToolFailure) as bad_filter:
        openalex._http.get("/works", {"filter": "DOESNTEXIST:1"}, "a list")
    assert bad_filter.value.code == ErrorCode.VALIDATION_ERROR
    assert "DOESNTEXIST is not a valid field" in bad_filter.value.message
    with pytest.raises(ToolFailure) as bad_id:
        openalex._http.get(
            "/works", {"cursor": "*", "filter": "cited_by:10.1145/3174781.3174785", "per-page": 200}, "a list"
        )
    assert "Invalid OpenAlex ID in cited_by or related_to filter." in bad_id.value.message
    with pytest.raises(NotKnown):
        openalex.paper("https://doi.org/10.1046/j.1365-2699.2003.00795")  # the recorded 404 page (HTML)
