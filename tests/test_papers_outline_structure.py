"""query-paper's outline on arXiv's HTML is the page's own structure, over a real MCP transport.

Every LaTeXML page carries a table of contents (``nav.ltx_TOC``, the first on the page: arXiv's side
bar, or the paper's printed contents on ar5iv): one ``li.ltx_tocentry_<kind>`` per section, nested as
the sections are, each with its printed number. That table is the expected value here, read from the
page with lxml in this test (never from papers-mcp's output): the outline the level "all" returns
must hold every section it lists, in order, with the same number and depth, and no numbered
section it does not list. (The table stops at a depth of the page's choosing and may leave out
unnumbered sections; the outline also has the paragraph-level headings below it.)
The pages are every page of shared/fixtures/arxiv-html (Perl LaTeXML, ar5iv and LaTeXML-oxide)
that has a table of contents with sections.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from mcp import Client
from support.arxiv_replay import Replay
from support.required import missing
from support.servers import fixtures_dir, server_client

pytestmark = pytest.mark.anyio

# The kinds of entry that are sections of the text (the abstract, bibliography and index are
# listed too, but they are not sections of the outline, nor is the acknowledgements environment:
# its heading is the paragraph's run-in label).
SECTION_KINDS = ("part", "chapter", "section", "subsection", "subsubsection", "paragraph", "appendix")


def page_files() -> list[Path]:
    arxiv = fixtures_dir()
    if arxiv is None:
        return []
    html = arxiv.parent / "arxiv-html"
    return sorted(html.glob("pages/*.html")) + sorted(html.glob("oxide/*.html"))


def arxiv_id(page: Path) -> str:
    return page.stem.replace("ar5iv_", "")


def toc_entries(page: Path) -> list[tuple[str, int, str]]:
    """(number, depth, title words) of each section the page's table of contents lists, in order."""
    root = lxml.html.fromstring(page.read_bytes())
    tables = root.xpath("//nav[contains(@class, 'ltx_TOC')]")
    if not tables:
        return []
    for math in tables[0].xpath(".//math"):
        math.drop_tree()  # MathML's characters; the outline writes the TeX
    entries = []
    for item in tables[0].xpath(".//li[contains(@class, 'ltx_tocentry')]"):
        kinds = {c.removeprefix("ltx_tocentry_") for c in item.get("class", "").split()}
        if not kinds & set(SECTION_KINDS):
            continue
        depth = len(item.xpath("ancestor::li[contains(@class, 'ltx_tocentry')]")) + 1
        link = item.xpath("./a")[0]
        tag = link.xpath(".//span[contains(@class, 'ltx_tag')]")
        printed = " ".join(tag[0].text_content().split()) if tag else ""
        # The number as a `section` argument takes it: "Appendix A" is "A", "1." is "1", "IV-A" is "IV.A".
        number = printed.removeprefix("Appendix ").rstrip(".").replace("-", ".")
        title = link.text_content().replace(tag[0].text_content(), "", 1) if tag else link.text_content()
        entries.append((number, depth, words(title)))
    return entries


def words(text: str) -> str:
    """The first letters-only words of a title, math left out (the outline writes it as TeX)."""
    return " ".join(re.findall(r"[A-Za-z]{3,}", re.sub(r"\$[^$]*\$", " ", text))[:4]).lower()


def name_words(title: str, number: str) -> str:
    """A section entry's title without "Appendix" and its number, as ``words`` reads it."""
    head, _, rest = title.removeprefix("Appendix ").partition(" ")
    printed = head.rstrip(".:").replace("-", ".")
    return words(rest if number and (printed == number or number.endswith("." + printed)) else title)


PAGES = [p for p in page_files() if toc_entries(p)]


@pytest.fixture(scope="module")
async def papers(replay: Replay, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    env = replay.papers_env(tmp_path_factory.mktemp("outline-home"))
    async with server_client("papers_mcp", env=env) as client:
        yield client


async def outline_of(client: Client, paper: str) -> list[dict[str, Any]]:
    result = await client.call_tool("query-paper", {"arxivID": paper, "level": "all"})
    assert not result.is_error, result.content
    assert result.structured_content is not None
    assert result.structured_content["source"] in ("html", "ar5iv")  # read from the page, not a PDF
    return [
        s
        for s in result.structured_content["sections"]
        if s["part"] in ("body", "appendix") and s["title"] != "Untitled opening"
    ]


@pytest.mark.parametrize("page", PAGES or [None], ids=[p.stem for p in PAGES] or ["no-pages"])
async def test_the_outline_is_the_pages_table_of_contents(papers: Client, page: Path | None) -> None:
    if page is None:
        missing("shared/fixtures/arxiv-html is missing: no page to read")
        return
    expected = toc_entries(page)
    sections = await outline_of(papers, arxiv_id(page))
    got = [(s["number"], s["depth"], name_words(s["title"], s["number"])) for s in sections]
    found = iter(got)
    for entry in expected:  # in order: each entry is found after the one before
        assert entry in found, (entry, got)
    listed = {number for number, _, _ in expected}
    assert [s for s in got if s[0] and s[0] not in listed] == []


async def test_each_section_of_the_contents_is_read_by_its_number(papers: Client) -> None:
    """Every numbered entry of every page's contents, passed as `section`, reads that section."""
    for page in PAGES:
        for number, _, title in toc_entries(page):
            if not number:
                continue
            result = await papers.call_tool("query-paper", {"arxivID": arxiv_id(page), "section": number})
            assert not result.is_error, (page.stem, number, result.content)
            assert result.structured_content is not None
            read = result.structured_content["sections"][0]
            assert (read["number"], name_words(read["title"], number)) == (number, title)
