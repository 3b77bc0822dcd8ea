"""research-mcp on what papers-mcp serves: a real paper's markdown, with its math and citation markers.

The text is arXiv's HTML for 2604.09739v1 (../shared/fixtures/arxiv-html), rendered by papers-mcp's
own renderer, as an agent mounting both servers would pass it on. Read by eye, its numbers are
equation numbers, citation markers ("[23, 24, 25]"), unresolved references ("Eq. eq:25") and TeX;
none of them is a fact, and no formula is an entity.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from papers_mcp.latexml import parse_page
from support.servers import server_client

pytestmark = pytest.mark.anyio

PAGE = (
    Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "arxiv-html" / "pages" / "2604.09739v1.html"
)
# Independent of the code under test: any $...$ or $$...$$, any [...], any "(n)" after a display formula.
MARKUP = re.compile(r"\$\$.+?\$\$(?:\s*\(\d+\))?|\$[^$\n]+\$|\[[^\]\n]*\]|Eqs?\. eq:\d+", re.DOTALL)


@pytest.fixture(scope="module")
def body() -> str:
    text = parse_page(PAGE.read_bytes(), "html").text.body
    return text[:20_000]


@pytest.fixture(scope="module")
async def research() -> AsyncIterator[Client]:
    async with server_client("research_mcp") as client:
        yield client


def _structured(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    return dict(result.structured_content)


async def test_no_fact_comes_from_math_or_a_citation_marker(research: Client, body: str) -> None:
    assert body.count("$") > 50 and "[23, 24, 25]" in body  # the shapes this test is about are there
    markup = [m.span() for m in MARKUP.finditer(body)]
    facts = _structured(await research.call_tool("fact-extract", {"text": body}))["facts"]
    for fact in facts:
        start, end = fact["value_span"]
        assert not any(s < end and start < e for s, e in markup), (fact["value"], fact["sentence"])
        assert fact["currency"] is None, fact  # "$" here is TeX, never dollars
        assert fact["sentence"] in body  # evidence is the caller's text, math included


async def test_the_batch_tool_reads_it_the_same_way(research: Client, body: str) -> None:
    single = _structured(await research.call_tool("fact-extract", {"text": body}))["facts"]
    batch = _structured(
        await research.call_tool("batch-fact-extract", {"items": [body], "options": {"useCache": False}})
    )
    (item,) = batch["results"]
    assert item["success"] and [f["value_span"] for f in item["data"]["facts"]] == [
        f["value_span"] for f in single
    ]


async def test_no_formula_or_reference_is_an_entity(research: Client, body: str) -> None:
    entities = _structured(await research.call_tool("entity-extract", {"text": body}))["entities"]
    names = {e["name"] for e in entities}
    assert {"Ted Jacobson", "Albert Einstein"} <= names
    bad = [n for n in names if re.search(r"[$\\{}^]|\beq:|^Eqs?$", n)]
    assert not bad, bad
