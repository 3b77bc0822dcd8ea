"""papers-mcp as a user runs it: ``python -m papers_mcp`` over stdio, a real MCP client, a replay arXiv.

One server process and one library home serve the whole module, so each fixture PDF used here
is downloaded and converted once; later tests check that the library answers without arXiv.
Expected values come from seed 003, SPEC.md and the fixture MANIFEST/metadata (read by eye).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode
from papers_mcp.descriptions import NO_RESULTS, RESULT_SEPARATOR, RESULTS_HEADER
from papers_mcp.fulltext import EXTRACTOR_VERSION
from support.arxiv_replay import Replay, serve_replay
from support.servers import free_port, http_server, server_client

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def replay(arxiv_fixtures: Path) -> Iterator[Replay]:
    with serve_replay(arxiv_fixtures) as running:
        yield running


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("papers-home")


@pytest.fixture(scope="module")
async def papers(replay: Replay, home: Path) -> AsyncIterator[Client]:
    async with server_client("papers_mcp", env=replay.papers_env(home)) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def entries(answer: str) -> list[dict[str, str]]:
    """Parse the "Available Papers:" block back into dicts, one per paper."""
    assert answer.startswith(RESULTS_HEADER) or "\n\n" + RESULTS_HEADER in answer
    out = []
    for block in answer.split(RESULT_SEPARATOR)[1:]:
        fields = dict(line[2:].split(": ", 1) for line in block.strip().splitlines())
        out.append(fields)
    return out


def files_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


async def resolve(client: Client, query: str, **extra: object) -> CallToolResult:
    return await client.call_tool("resolve-paper-id", {"query": query, **extra})


async def query(client: Client, arxiv_id: str, level: str | None = None, **extra: object) -> CallToolResult:
    args: dict[str, object] = {"arxivID": arxiv_id, **extra}
    if level is not None:
        args["level"] = level
    return await client.call_tool("query-paper", args)


# --- resolve-paper-id ---


async def test_a_title_finds_the_paper_first_in_the_seed_format(papers: Client) -> None:
    result = await resolve(papers, "attention is all you need")
    assert not result.is_error
    first = entries(text_of(result))[0]
    # Values from metadata.json / the PDF's first page; layout from seed 003's example.
    assert first == {
        "Title": "Attention Is All You Need",
        "Arxiv ID": "arxiv:1706.03762",
        "Authors": "Vaswani, Shazeer, Parmar, et al.",
        "Year": "2017",
        "Category": "cs.CL",
        "Comment": "N/A",
        "Journal/DOI": "N/A",
        "Abstract": first["Abstract"],
    }
    assert first["Abstract"].startswith("The dominant sequence transduction models are based on complex")
    assert first["Abstract"].endswith("...")


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        (
            "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding",
            "arxiv:1810.04805",
        ),
        ("deep residual learning for image recognition", "arxiv:1512.03385"),
        ("Distilling the Knowledge in a Neural Network", "arxiv:1503.02531"),
        ("on proof and progress in mathematics", "arxiv:math/9404236"),
    ],
)
async def test_titles_rank_their_paper_first(papers: Client, title: str, expected: str) -> None:
    # Titles and ids from metadata.json / MANIFEST.md.
    assert entries(text_of(await resolve(papers, title)))[0]["Arxiv ID"] == expected


async def test_an_author_name_with_a_topic_word_finds_the_paper(papers: Client) -> None:
    result = await resolve(papers, "vaswani attention")
    assert entries(text_of(result))[0]["Arxiv ID"] == "arxiv:1706.03762"


async def test_free_text_never_matches_an_author_name_alone(papers: Client) -> None:
    """The MoE rule: a bare word must not hit an author. Adrian Del Maestro wrote 1111.2011."""
    result = await resolve(papers, "Maestro")
    assert not result.is_error
    assert text_of(result) == NO_RESULTS  # seed 003's message, verbatim
    by_field = await resolve(papers, "au:maestro")
    assert entries(text_of(by_field))[0]["Arxiv ID"] == "arxiv:1111.2011"


async def test_present_fields_are_shown_and_missing_ones_are_na(papers: Client) -> None:
    fields = entries(text_of(await resolve(papers, "arXiv:1111.2011v2")))
    # From feeds/legacy2016_idlist_1111.2011v2.xml (via metadata.json), read by eye.
    assert fields == [
        {
            "Title": "Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
            "Arxiv ID": "arxiv:1111.2011",
            "Authors": "Murray, Del Maestro, Tesanovic",
            "Year": "2011",
            "Category": "cond-mat.str-el",
            "Comment": "8 pages, 3 figures. Published version",
            "Journal/DOI": "Phys. Rev. B 85, 115117 (2012); DOI: 10.1103/PhysRevB.85.115117",
            "Abstract": fields[0]["Abstract"],
        }
    ]


async def test_a_raw_boolean_query_reaches_arxiv_unchanged(papers: Client, replay: Replay) -> None:
    result = await resolve(papers, "au:del_maestro AND ti:checkerboard", max_results=10)
    found = entries(text_of(result))
    # The recorded feed legacy2016_search_au-del_maestro_AND_ti-checkerboard.xml holds exactly this paper.
    assert [e["Arxiv ID"] for e in found] == ["arxiv:cond-mat/0603029"]
    assert found[0]["Title"].startswith("From stripe to checkerboard order on the square lattice")
    assert replay.requests[-1].params["search_query"] == "au:del_maestro AND ti:checkerboard"


async def test_a_submitted_date_range_is_sent_as_typed(papers: Client, replay: Replay) -> None:
    query_text = "cat:cs.CL AND submittedDate:[201701010000 TO 201712312359]"
    result = await resolve(papers, query_text)
    # Of the two cs.CL fixtures, only 1706.03762v5 (2017-12-06) falls in 2017; BERT v2 is 2019.
    assert [e["Arxiv ID"] for e in entries(text_of(result))] == ["arxiv:1706.03762"]
    assert replay.requests[-1].params["search_query"] == query_text


@pytest.mark.parametrize(
    ("form", "expected"),
    [
        ("1706.03762", "arxiv:1706.03762"),
        ("1706.03762v5", "arxiv:1706.03762"),
        ("arxiv:1706.03762", "arxiv:1706.03762"),
        ("arXiv:1706.03762v5", "arxiv:1706.03762"),
        ("https://arxiv.org/abs/1706.03762", "arxiv:1706.03762"),
        ("https://arxiv.org/pdf/1706.03762v5.pdf", "arxiv:1706.03762"),
        ("10.48550/arXiv.1706.03762", "arxiv:1706.03762"),
        ("quant-ph/9508027", "arxiv:quant-ph/9508027"),
        ("math.HO/9404236v1", "arxiv:math/9404236"),
    ],
)
async def test_every_identifier_form_is_an_id_lookup(
    papers: Client, replay: Replay, form: str, expected: str
) -> None:
    result = await resolve(papers, form)
    assert [e["Arxiv ID"] for e in entries(text_of(result))] == [expected]
    last = replay.requests[-1]
    assert last.params["id_list"] and not last.params["search_query"], "an id must not become a text search"


@pytest.mark.parametrize(
    ("form", "sent"), [("hep-th/9901001", "hep-th/9901001"), ("math.GT/0309136v1", "math/0309136v1")]
)
async def test_old_style_spec_forms_are_looked_up_canonically(
    papers: Client, replay: Replay, form: str, sent: str
) -> None:
    result = await resolve(papers, form)
    assert text_of(result) == NO_RESULTS and not result.is_error  # not among the replay's papers
    assert replay.requests[-1].params["id_list"] == sent


# --- query-paper ---


@pytest.mark.parametrize(
    "form",
    [
        "1706.03762",
        "1706.03762v5",
        "arxiv:1706.03762",
        "arXiv:1706.03762v5",
        "https://arxiv.org/abs/1706.03762",
        "https://arxiv.org/pdf/1706.03762v5.pdf",
        "10.48550/arXiv.1706.03762",
    ],
)
async def test_abstract_level_needs_no_pdf_and_names_the_version(
    papers: Client, replay: Replay, form: str
) -> None:
    pdf_requests = replay.count("pdf")
    answer = text_of(await query(papers, form, "abstract"))
    assert answer.startswith("# Attention Is All You Need\n")
    assert "- Arxiv ID: arxiv:1706.03762v5\n" in answer  # the fixture's version, named exactly
    assert "- Authors: Ashish Vaswani, Noam Shazeer, Niki Parmar" in answer
    assert "## Abstract\n\nThe dominant sequence transduction models" in answer
    assert replay.count("pdf") == pdf_requests


async def test_old_style_ids_read_too(papers: Client) -> None:
    answer = text_of(await query(papers, "quant-ph/9508027", "abstract"))
    assert "- Arxiv ID: arxiv:quant-ph/9508027v2" in answer
    assert "Polynomial-Time Algorithms for Prime Factorization" in answer


def stored_text(home: Path, stem: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (home / "text" / f"{stem}.pdf.x{EXTRACTOR_VERSION}.json").read_text(encoding="utf-8")
    )
    return data


def a_paragraph(markdown: object) -> str:
    """A distinctive line of a stored part, to look for in an answer."""
    assert isinstance(markdown, str)
    lines = [ln.strip() for ln in markdown.splitlines() if len(ln.strip()) > 60]
    assert lines, "the stored part has no long line"
    return lines[len(lines) // 2]


async def test_body_downloads_converts_reports_progress_and_stores(
    papers: Client, replay: Replay, home: Path
) -> None:
    events: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append((progress, total, message))

    before = {kind: replay.count(kind) for kind in ("pdf", "html", "ar5iv")}
    result = await papers.call_tool(
        "query-paper", {"arxivID": "arxiv:1706.03762"}, progress_callback=on_progress
    )
    answer = text_of(result)
    assert not result.is_error, answer
    assert replay.count("pdf") == before["pdf"] + 1
    # The replay has no HTML for the fixture PDFs (HTTP 404 at both): arXiv HTML, then ar5iv, then the PDF.
    assert replay.count("html") == before["html"] + 1 and replay.count("ar5iv") == before["ar5iv"] + 1
    assert "\n- Source: PDF (pymupdf4llm)\n" in answer
    assert "- Level: body" in answer and "- Arxiv ID: arxiv:1706.03762v5" in answer
    values = [e[0] for e in events]
    assert values == sorted(set(values)), "progress must strictly increase"
    messages = " ".join(e[2] or "" for e in events)
    assert "download" in messages and "convert" in messages
    assert values[-1] == events[-1][1]  # the last report is the total
    stored = stored_text(home, "1706.03762v5")
    assert a_paragraph(stored["body"]) in answer
    if stored["references"]:
        assert a_paragraph(stored["references"]) not in answer, "body must not include the references"
    assert (home / "pdf" / "1706.03762v5.pdf").read_bytes() == (
        replay.fixtures / "pdfs" / "1706.03762v5.pdf"
    ).read_bytes()


async def test_other_levels_come_from_the_library(papers: Client, replay: Replay, home: Path) -> None:
    stored = stored_text(home, "1706.03762v5")
    before = replay.count()
    everything = text_of(await query(papers, "1706.03762v5", "all"))
    appendix = text_of(await query(papers, "https://arxiv.org/abs/1706.03762", "appendix"))
    body_again = text_of(await query(papers, "arXiv:1706.03762v5", "body"))
    abstract_again = text_of(await query(papers, "1706.03762", "abstract"))
    assert replay.count() == before, "a second query-paper must not reach arXiv"
    assert "- Level: all" in everything and "## Abstract" in everything
    for part in ("body", "references"):
        if stored[part]:
            assert a_paragraph(stored[part]) in everything
    if stored["appendix"]:
        assert a_paragraph(stored["appendix"]) in appendix
        assert a_paragraph(stored["appendix"]) in everything
        assert a_paragraph(stored["body"]) not in appendix
    else:
        assert "This paper has no appendix" in appendix
    assert "- Level: body" in body_again and "- Level: abstract" in abstract_again


async def test_a_paper_without_an_appendix_says_so(papers: Client, home: Path) -> None:
    answer = text_of(await query(papers, "1503.02531", "appendix"))
    stored = stored_text(home, "1503.02531v1")
    assert "- Arxiv ID: arxiv:1503.02531v1" in answer
    if stored["appendix"]:
        assert a_paragraph(stored["appendix"]) in answer
    else:
        assert "This paper has no appendix" in answer


async def test_long_answers_come_in_pages_that_lose_nothing(replay: Replay, home: Path) -> None:
    """A second process on the same library, with a small budget: pages, and no arXiv request."""
    before = replay.count()
    async with server_client("papers_mcp", env=replay.papers_env(home, MAX_ANSWER_TOKENS="2000")) as small:
        first = text_of(await query(small, "1706.03762", "all"))
        match = re.search(r"\[Page 1 of (\d+)\.", first)
        assert match, first[-400:]
        total = int(match.group(1))
        assert total > 1
        assert 'arxivID="arxiv:1706.03762v5", level="all", page=2' in first
        pages = [first] + [
            text_of(await query(small, "1706.03762", "all", page=n)) for n in range(2, total + 1)
        ]
        assert f"[Page {total} of {total}: the last page of this answer.]" in pages[-1]
        for page in pages:
            assert len(page) <= 2000 * 3.2 + 200, "each page stays near the token budget"
        beyond = await query(small, "1706.03762", "all", page=total + 1)
        assert beyond.is_error and text_of(beyond).startswith(f"Error: {ErrorCode.VALIDATION_ERROR}: page ")
    async with server_client("papers_mcp", env=replay.papers_env(home)) as large:
        whole = text_of(await query(large, "1706.03762", "all"))
    assert replay.count() == before
    assert "[Page" not in whole

    def content(page: str) -> list[str]:
        body = page.split("\n- Level: all\n", 1)[1]
        body = re.sub(r"^- Page: \d+ of \d+\n", "", body)
        body = re.sub(r"\n---\n\[Page \d+ of \d+[^\]]*\]$", "", body)
        return body.split()

    assert [w for page in pages for w in content(page)] == content(whole)


# --- bad input ---


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("query-paper", {"arxivID": "../../etc/passwd"}),
        ("query-paper", {"arxivID": "1706.03762/../../x"}),
        ("query-paper", {"arxivID": "/etc/passwd"}),
        ("query-paper", {"arxivID": ""}),
        ("query-paper", {"arxivID": "attention is all you need"}),
        ("query-paper", {"arxivID": "1706.03762", "level": "everything"}),
        ("query-paper", {"arxivID": "1706.03762", "page": 0}),
        ("query-paper", {"arxivID": "1706.03762", "page": "two"}),
        ("query-paper", {"arxivID": 1706.03762}),
        ("query-paper", {}),
        ("query-paper", {"arxivID": "1706.03762", "format": "pdf"}),
        ("resolve-paper-id", {"query": ""}),
        ("resolve-paper-id", {"query": "   "}),
        ("resolve-paper-id", {"query": "attention " * 500}),
        ("resolve-paper-id", {"query": 'ti:"unbalanced'}),
        ("resolve-paper-id", {"query": "attention", "max_results": 0}),
        ("resolve-paper-id", {"query": "attention", "max_results": 51}),
        ("resolve-paper-id", {"query": ["attention"]}),
        ("resolve-paper-id", {}),
    ],
)
async def test_bad_input_is_a_validation_error_and_touches_nothing(
    papers: Client, replay: Replay, home: Path, tool: str, arguments: dict[str, object]
) -> None:
    before_requests, before_files = replay.count(), files_under(home)
    result = await papers.call_tool(tool, arguments)
    assert result.is_error
    assert text_of(result).startswith(f"Error: {ErrorCode.VALIDATION_ERROR}: ")
    assert replay.count() == before_requests, "nothing may be fetched for bad input"
    assert files_under(home) == before_files, "nothing may be written for bad input"


async def test_the_server_keeps_serving_after_bad_input(papers: Client) -> None:
    await papers.call_tool("query-paper", {"arxivID": "../../etc/passwd"})
    assert not (await query(papers, "1706.03762", "abstract")).is_error


async def test_an_unknown_well_formed_id_is_reported(papers: Client) -> None:
    result = await query(papers, "0808.05394", "abstract")  # feeds/empty_idlist_0808.05394.xml: no entry
    assert result.is_error and "arXiv has no paper arxiv:0808.05394" in text_of(result)


# --- offline ---


async def test_without_arxiv_resolve_searches_the_library_and_says_so(replay: Replay, home: Path) -> None:
    """arXiv unreachable (nothing listens on the port): the library answers, and says where from."""
    dead = f"http://127.0.0.1:{free_port()}"
    env = replay.papers_env(home, ARXIV_API_URL=f"{dead}/api/query", PDF_URL=f"{dead}/pdf/", MAX_RETRIES="0")
    async with server_client("papers_mcp", env=env) as offline:
        result = await resolve(offline, "attention is all you need")
        answer = text_of(result)
        assert not result.is_error, answer
        assert answer.startswith("Note: arXiv could not be reached")
        assert "local library" in answer.split("\n\n", 1)[0]
        assert entries(answer)[0]["Arxiv ID"] == "arxiv:1706.03762"
        by_id = entries(text_of(await resolve(offline, "arxiv:1111.2011")))
        assert by_id[0]["Arxiv ID"] == "arxiv:1111.2011"
        body = await query(offline, "1706.03762", "body")
        assert not body.is_error and "- Arxiv ID: arxiv:1706.03762v5" in text_of(body)
        missing = await resolve(offline, "zebrafish neurons")
        assert missing.is_error and text_of(missing).startswith(f"Error: {ErrorCode.RESOURCE_ERROR}: ")
        unseen = await query(offline, "2301.00001", "abstract")  # never seen by this library
        assert unseen.is_error and text_of(unseen).startswith(f"Error: {ErrorCode.RESOURCE_ERROR}: ")


# --- streamable HTTP ---


async def test_the_tools_answer_over_streamable_http(replay: Replay, home: Path) -> None:
    with http_server("papers_mcp", replay.papers_env(home)) as url:
        async with Client(url) as client:
            answer = text_of(await query(client, "arxiv:1706.03762", "abstract"))
    assert "- Arxiv ID: arxiv:1706.03762v5" in answer
