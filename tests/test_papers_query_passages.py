"""query-paper's ``query`` and ``section``, the outline, and both tools' structured content, over stdio.

One server and one library serve the module; the only PDF conversion is 1503.02531v1 (9 pages,
the smallest fixture with numbered sections, subsections and an unnumbered heading). The
questions and the sentences that answer them are the 1503.02531v1 cases of
``tests/eval/data/passages.json`` (sentences read in the paper); the section numbers and titles
are the paper's own. The HTML route is checked on 2604.16990v1 (shared/fixtures/arxiv-html),
whose sentences and headings were read on the page.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode
from papers_mcp import descriptions
from support.arxiv_replay import Replay, serve_replay
from support.servers import server_client

pytestmark = pytest.mark.anyio

PAPER = "1503.02531"
CASES = [
    c
    for c in json.loads(
        (Path(__file__).parent / "eval" / "data" / "passages.json").read_text(encoding="utf-8")
    )["cases"]
    if c["paper"] == f"{PAPER}v1"
]
# The reference entry a body query must never return (p9 of the PDF, reference [1]).
REFERENCE_ONE = "Model compression. In Proceedings of the 12th ACM SIGKDD"


@pytest.fixture(scope="module")
def replay(arxiv_fixtures: Path) -> Iterator[Replay]:
    with serve_replay(arxiv_fixtures) as running:
        yield running


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("passages-home")


@pytest.fixture(scope="module")
async def papers(replay: Replay, home: Path) -> AsyncIterator[Client]:
    async with server_client("papers_mcp", env=replay.papers_env(home)) as client:
        yield client


@pytest.fixture(scope="module")
async def schemas(papers: Client) -> dict[str, dict[str, Any]]:
    tools = (await papers.list_tools()).tools
    return {t.name: t.output_schema or {} for t in tools}


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def flat(text: str) -> str:
    return " ".join(re.sub(r"<[^<>\n]{1,40}>|[*_]", "", text).split())


def files_under(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


async def call(client: Client, **arguments: object) -> CallToolResult:
    return await client.call_tool("query-paper", {"arxivID": PAPER, **arguments})


def structured(result: CallToolResult, schema: dict[str, Any]) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict)
    assert schema, "the tool publishes no output schema"
    # The SDK's Client has already checked ``data`` against the published outputSchema (it raises
    # RuntimeError on a mismatch), as a strict MCP client does.
    return data


async def test_query_and_section_are_described_for_the_model(papers: Client) -> None:
    tool = next(t for t in (await papers.list_tools()).tools if t.name == "query-paper")
    properties = tool.input_schema["properties"]
    assert properties["query"]["description"] == descriptions.QUERY_PARAM
    assert properties["section"]["description"] == descriptions.SECTION_PARAM
    assert tool.input_schema["required"] == ["arxivID"]  # both stay optional, as the seed's level
    assert properties["level"]["default"] == "body"  # the seed's default is unchanged


async def test_both_tools_publish_an_output_schema(schemas: dict[str, dict[str, Any]]) -> None:
    resolve, query = schemas["resolve-paper-id"], schemas["query-paper"]
    assert resolve["type"] == "object" and "papers" in resolve["properties"]
    assert query["type"] == "object"
    for field in ("arxiv_id", "version", "source", "level", "page", "pages", "passages", "sections"):
        assert field in query["properties"], field


async def test_the_first_query_downloads_converts_with_progress_and_finds_the_sentences(
    papers: Client, replay: Replay, schemas: dict[str, dict[str, Any]]
) -> None:
    events: list[tuple[float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append((progress, message))

    first, *rest = CASES
    result = await papers.call_tool(
        "query-paper", {"arxivID": PAPER, "query": first["question"]}, progress_callback=on_progress
    )
    assert replay.count("pdf") == 1
    messages = " ".join(m or "" for _, m in events)
    assert "download" in messages and "convert" in messages
    values = [v for v, _ in events]
    assert values == sorted(set(values))
    for case in [first, *rest]:
        result = result if case is first else await call(papers, query=case["question"])
        answer = text_of(result)
        data = structured(result, schemas["query-paper"])
        assert flat(case["expect"]) in flat(answer), (
            f"{case['question']!r}: the sentence is not in the passages"
        )
        assert any(flat(case["expect"]) in flat(p["text"]) for p in data["passages"])
        assert data["level"] == "all" and data["query"] == case["question"]
        assert (data["arxiv_id"], data["version"], data["source"]) == ("arxiv:1503.02531", 1, "pdf")
        assert 1 <= len(data["passages"]) <= 5 and sum(p["tokens"] for p in data["passages"]) <= 1500
    assert replay.count("pdf") == 1, "later queries must come from the library"


async def test_each_passage_names_its_section_and_the_call_that_reads_it(
    papers: Client, schemas: dict[str, dict[str, Any]]
) -> None:
    result = await call(papers, query="how big is the JFT dataset")
    answer = text_of(result)
    data = structured(result, schemas["query-paper"])
    best = data["passages"][0]
    assert best["path"] == "5 Training ensembles of specialists on very big datasets › 5.1 The JFT dataset"
    assert best["call"] == {"arxivID": "arxiv:1503.02531v1", "section": "5.1", "level": None}
    assert f"## Passage 1: {best['path']}" in answer
    assert '[Whole section: query-paper with arxivID="arxiv:1503.02531v1", section="5.1"]' in answer
    section = await call(papers, section=best["call"]["section"])  # the call works as printed
    assert best["text"][:200] in text_of(section)


async def test_a_body_query_returns_no_reference_entries(
    papers: Client, schemas: dict[str, dict[str, Any]]
) -> None:
    question = "Caruana model compression"  # the title of reference [1], also discussed in the body
    all_levels = await call(papers, query=question)
    everywhere = structured(all_levels, schemas["query-paper"])
    assert any(p["part"] == "references" for p in everywhere["passages"])
    assert flat(REFERENCE_ONE) in flat(text_of(all_levels))
    result = await call(papers, query=question, level="body")
    body = structured(result, schemas["query-paper"])
    assert body["level"] == "body" and body["passages"]
    assert {p["part"] for p in body["passages"]} <= {"abstract", "body"}
    assert flat(REFERENCE_ONE) not in flat(text_of(result))


async def test_a_level_without_matches_says_so(papers: Client) -> None:
    result = await call(papers, query="distillation", level="appendix")  # this paper has no appendix
    assert not result.is_error
    assert 'No passage at level "appendix" matches this query.' in text_of(result)


@pytest.mark.parametrize(
    ("spec", "path", "inside", "outside"),
    [
        ("2.1", "2 Distillation › 2.1 Matching logits is a special case of distillation",
         "So in the high temperature limit, distillation is equivalent to minimizing", "Preliminary experiments"),
        ("2", "2 Distillation", "where T is a temperature that is normally set to 1",
         "To see how well distillation works"),
        ("specialist models", "5 Training ensembles of specialists on very big datasets › 5.2 Specialist Models",
         "each specialist model is initialized with the weights of the generalist model", "JFT is an internal"),
        ("Acknowledgments", "Acknowledgments",
         "We thank Yangqing Jia for assistance", "We have shown that distilling works very well"),
        ("references", "References", "Model compression", "We thank Yangqing Jia"),
    ],
)  # fmt: skip
async def test_a_section_is_read_by_number_or_title(
    papers: Client, schemas: dict[str, dict[str, Any]], spec: str, path: str, inside: str, outside: str
) -> None:
    result = await call(papers, section=spec)
    answer = text_of(result)
    data = structured(result, schemas["query-paper"])
    # An unnumbered heading sits where its font puts it: only the end of its path is the paper's.
    assert re.search(rf"\n- Section: (.* › )?{re.escape(path)} \(", answer)
    assert flat(inside) in flat(answer) and flat(outside) not in flat(answer)
    assert data["section"]["path"].endswith(path) and data["sections"][0]["path"] == data["section"]["path"]
    assert data["level"] == "all" and data["page"] == 1


async def test_a_section_includes_its_subsections(papers: Client, schemas: dict[str, dict[str, Any]]) -> None:
    data = structured(await call(papers, section="5"), schemas["query-paper"])
    assert [s["number"] for s in data["sections"]] == ["5", "5.1", "5.2", "5.3", "5.4", "5.5"]


async def test_the_abstract_level_ends_with_the_outline_once_the_paper_is_in_the_library(
    papers: Client, schemas: dict[str, dict[str, Any]]
) -> None:
    result = await call(papers, level="abstract")
    answer = text_of(result)
    data = structured(result, schemas["query-paper"])
    outline = answer.split("\n## Outline\n", 1)[1]
    for line in (
        "- 2 Distillation (",
        "  - 2.1 Matching logits is a special case of distillation (",
        "  - 5.2 Specialist Models (",
        "- 8 Discussion (",
        "- Acknowledgments (",
        "- References (",
    ):
        assert f"{line}" in outline, line
    assert "tokens)" in outline
    sizes = {s["number"] or s["title"]: s["tokens"] for s in data["sections"]}
    assert sizes["5"] > sizes["5.1"] + sizes["5.2"] > 0
    assert answer.index("## Abstract") < answer.index("## Outline")


async def test_the_outline_has_the_levels_of_the_pdfs_own_outline(
    papers: Client, replay: Replay, schemas: dict[str, dict[str, Any]]
) -> None:
    """The PDF's bookmarks (its outline, read here with PyMuPDF) are the expected sections and depths."""
    with pymupdf.open(replay.fixtures / "pdfs" / f"{PAPER}v1.pdf") as pdf:
        bookmarks = [(title, level) for level, title, _ in pdf.get_toc()]
    assert len(bookmarks) == 16  # 8 sections, 8 subsections
    data = structured(await call(papers, level="all"), schemas["query-paper"])
    numbered = [(s["title"], s["depth"]) for s in data["sections"] if s["number"]]
    assert numbered == bookmarks


async def test_no_outline_before_the_paper_is_converted(papers: Client, replay: Replay) -> None:
    before = replay.count("pdf")
    result = await papers.call_tool("query-paper", {"arxivID": "1608.03417", "level": "abstract"})
    assert "## Outline" not in text_of(result) and replay.count("pdf") == before
    assert result.structured_content is not None and result.structured_content["sections"] == []


async def test_an_unknown_section_lists_the_papers_sections(papers: Client) -> None:
    result = await call(papers, section="9.4")
    assert result.is_error
    message = text_of(result)
    assert message.startswith(
        f"Error: {ErrorCode.VALIDATION_ERROR}: arxiv:1503.02531v1 has no section matching '9.4'"
    )
    for title in (
        "1 Introduction",
        "2.1 Matching logits is a special case of distillation",
        "Acknowledgments",
        "References",
    ):
        assert title in message


@pytest.mark.parametrize(
    "arguments",
    [
        {"query": ""},
        {"query": "   "},
        {"query": "x" * 501},
        {"query": "?!"},
        {"section": ""},
        {"query": "temperature", "section": "2"},
        {"query": "temperature", "level": "abstract"},
        {"query": "temperature", "page": 2},
        {"query": 42},
    ],
)
async def test_bad_query_and_section_arguments_are_validation_errors_and_fetch_nothing(
    papers: Client, replay: Replay, home: Path, arguments: dict[str, object]
) -> None:
    before_requests, before_files = replay.count(), files_under(home)
    # 1111.2011 is not in this library: anything fetched or written would show.
    result = await papers.call_tool("query-paper", {"arxivID": "1111.2011", **arguments})
    assert result.is_error and text_of(result).startswith(f"Error: {ErrorCode.VALIDATION_ERROR}: ")
    assert replay.count() == before_requests and files_under(home) == before_files


async def test_resolve_paper_id_returns_the_papers_as_data(
    papers: Client, schemas: dict[str, dict[str, Any]]
) -> None:
    result = await papers.call_tool(
        "resolve-paper-id", {"query": "distilling the knowledge in a neural network"}
    )
    data = structured(result, schemas["resolve-paper-id"])
    first = data["papers"][0]
    # metadata.json of the fixture; the text block shows the same paper first.
    assert first["arxiv_id"] == "arxiv:1503.02531" and first["version"] == 1
    assert first["title"] == "Distilling the Knowledge in a Neural Network"
    assert first["authors"][:1] == ["Geoffrey Hinton"] and first["year"] == "2015"
    assert "- Arxiv ID: arxiv:1503.02531\n" in text_of(result)
    assert text_of(result).startswith("Available Papers:")
    empty = await papers.call_tool("resolve-paper-id", {"query": "Maestro"})
    assert structured(empty, schemas["resolve-paper-id"])["papers"] == []


async def test_long_sections_come_in_pages_and_the_passage_count_follows_the_setting(
    replay: Replay, home: Path
) -> None:
    env = replay.papers_env(home, MAX_ANSWER_TOKENS="900", MAX_PASSAGES="2")
    async with server_client("papers_mcp", env=env) as small:
        first = await call(small, section="5")
        match = re.search(r"\[Page 1 of (\d+)\.", text_of(first))
        assert match, text_of(first)[-300:]
        total = int(match.group(1))
        assert 'arxivID="arxiv:1503.02531v1", level="all", section="5", page=2' in text_of(first)
        pages = [first] + [await call(small, section="5", page=n) for n in range(2, total + 1)]
        assert all(p.structured_content and p.structured_content["pages"] == total for p in pages)
        beyond = await call(small, section="5", page=total + 1)
        assert beyond.is_error and text_of(beyond).startswith(f"Error: {ErrorCode.VALIDATION_ERROR}: page ")
        whole = "".join(str(p.structured_content["markdown"]) for p in pages if p.structured_content)
        assert "JFT is an internal Google dataset" in whole and "5.5 Results" in whole
        few = await call(small, query="temperature of the softmax")
        assert few.structured_content is not None and len(few.structured_content["passages"]) == 2


# 2604.16990v1 on arXiv's HTML route: sections "I Introduction" ... "V Discussion", "II.1 Preliminaries",
# an unnumbered "Acknowledgements" (read on the page).
HTML_PAPER = "2604.16990"


async def test_the_html_route_answers_queries_and_sections_the_same_way(
    papers: Client, replay: Replay, schemas: dict[str, dict[str, Any]]
) -> None:
    before = replay.count("pdf")
    result = await papers.call_tool(
        "query-paper", {"arxivID": HTML_PAPER, "query": "which limitations of the result should be noted"}
    )
    answer = text_of(result)
    data = structured(result, schemas["query-paper"])
    assert "\n- Source: arXiv HTML (LaTeXML)\n" in answer and data["source"] == "html"
    assert "First, the result assumes regularity of all constraints" in answer
    assert data["passages"][0]["path"] == "V Discussion"
    assert replay.count("pdf") == before, "the HTML page is enough"
    for spec, path, inside in (
        ("II.1", "II Proof of factorisation › II.1 Preliminaries", None),
        ("discussion", "V Discussion", "Two limitations should be noted."),
        ("Acknowledgements", "Acknowledgements", "The author acknowledges the assistance"),
    ):
        read = await papers.call_tool("query-paper", {"arxivID": HTML_PAPER, "section": spec})
        section = structured(read, schemas["query-paper"])
        assert section["section"]["path"] == path and f"\n- Section: {path} (" in text_of(read)
        if inside:
            assert inside in text_of(read)
    outline = text_of(await papers.call_tool("query-paper", {"arxivID": HTML_PAPER, "level": "abstract"}))
    assert "\n- II Proof of factorisation (" in outline and "\n  - II.1 Preliminaries (" in outline
