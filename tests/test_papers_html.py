"""The HTML route over a real MCP transport, on the 7 real LaTeXML pages in shared/fixtures/arxiv-html.

One server and one library serve the module. Expected values come from the pages themselves,
read by eye in a browser and in their source, and from the fixture MANIFEST (its sections /
appendices / bibliography counts): never from this code's output.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from support.arxiv_replay import Replay, serve_replay
from support.required import missing
from support.servers import server_client

pytestmark = pytest.mark.anyio

HTML_SOURCE = "\n- Source: arXiv HTML (LaTeXML)\n"
AR5IV_SOURCE = "\n- Source: ar5iv HTML\n"
PDF_SOURCE = "\n- Source: PDF (pymupdf4llm)\n"
# Page chrome of both templates, as it reads on the pages (arXiv header and footer, ar5iv's buttons).
CHROME = (
    "Report Issue",
    "Report GitHub Issue",
    "Back to Abstract",
    "Download PDF",
    "Why HTML?",
    "Instructions for reporting errors",
    "License: CC",
    "Generated on",
    "Privacy Policy",
    "View original",
    "Feeling lucky",
    "Experimental support",
    "BETA",
)


@dataclass(frozen=True)
class Page:
    """A shared page and what reading it by eye gives (counts: its MANIFEST row)."""

    arxiv_id: str
    sections: int
    appendices: int
    bib_entries: int
    body_phrases: tuple[str, ...]
    appendix_phrases: tuple[str, ...] = ()
    reference_phrases: tuple[str, ...] = ()
    source: str = HTML_SOURCE


PAGES = [
    Page(
        "2604.16990v1",
        6,
        0,
        9,
        (
            "## I Introduction",
            # A citation and inline math stay inside their sentence.
            "and ensures self-consistency [3, 1].",
            "neglects relations of the form, $\\gamma_{a}(q,p)=0$, which cannot be inferred",
            "$$\\det\\mathcal{M}\\approx\\pm(\\det\\Delta)^{2}\\det C,$$ (1)",
            "### II.2 $\\det\\Delta\\neq 0\\Longrightarrow\\det\\mathcal{M}\\neq 0$",
        ),
        reference_phrases=("- [1] M. Henneaux and C. Teitelboim, Quantization of Gauge Systems",),
    ),
    Page(
        "2604.06120v1",
        7,
        1,
        19,
        (
            "## III Geodesics in $1+1$ dimensions",
            "Figure 1: Scale factor as a function of conformal time for the three benchmark cosmologies",
        ),
        appendix_phrases=("## Appendix A General $1+1$ conformal factor $f(\\eta,x)$",),
        # arXiv's bibliography links a DOI as the word "Document"; the "Cited by: §I" back-links go.
        reference_phrases=("doi:10.1111/j.1365-2966.2012.20560.x",),
    ),
    Page(
        "2604.09739v1",
        7,
        0,
        55,
        (
            "## II Jacobson’s Model",
            "we examine this possibility by extending the Clausius relation",
        ),
    ),
    Page(
        "2604.11951v1",
        4,
        2,
        0,
        (
            "## III Strong Field Limit and Lensing Observables",
            # Unresolved citations keep their keys, in brackets, inside the sentence.
            "the potential emergence of Cauchy horizons [Poisson:1990eh; Maeda:2005yd], such as",
        ),
        appendix_phrases=(
            "## Appendix A Bardeen-like Black Holes",
            "## Appendix B The Einstein Ring of Galaxy ESO 325-G004",
        ),
    ),
    Page(
        "2604.22394v2",
        6,
        2,
        28,
        (
            "## 1. Introduction",
            "### 2.1. Assumptions and conventions",
            "#### 3.2.1. Lie algebroid submersions",
            "**Theorem 1.1.** Multiplicative Ehresmann connections always exist for:",
            "*Proof.* The analogous statement for vector bundles is standard",
        ),
        appendix_phrases=("## Appendix A Lie groupoid fibrations",),
    ),
    Page(
        "2508.08468v6",
        7,
        0,
        13,
        (
            "## IV Proposed Solution",
            "TABLE I: AVSE Multimedia Profile Configurations",
            "| Profile | Category | Video FPS | Resolution | JPEG Quality | Audio Frame (ms) | Bandwidth Class |",
            "| 1A | Low-bandwidth | 3 | 160$\\times$120 | 60 | 20 | Very low |",
        ),
    ),
    Page(
        "2303.17564v1",
        9,
        3,
        141,
        (
            "## 2 Dataset",
            "#### 2.1.1 Web (298B tokens – 42.01% of training)",
            "trained exclusively on domain-specific data sources (Luo et al., 2022; Bolton et al., 2023; "
            "Taylor et al., 2022), or adapt",
            # A footnote: its mark in the sentence, its text after the paragraph.
            "(assuming just one pass through the data).[^1] While we can increase",
            "[^1]: The scaling law derived by Chinchilla is tokenizer-specific.",
            "| Date | Bloomberg | Filings | News | Press | Web | Total |",
        ),
        appendix_phrases=("## Appendix A Architecture", "## Appendix C Training Chronicles"),
        reference_phrases=(
            "Dogu Araci. Finbert: Financial sentiment analysis with pre-trained language models.",
        ),
        source=AR5IV_SOURCE,
    ),
]
BY_ID = {p.arxiv_id: p for p in PAGES}


@pytest.fixture(scope="module")
def replay(arxiv_fixtures: Path) -> Iterator[Replay]:
    with serve_replay(arxiv_fixtures) as running:
        if not running.html_pages.is_dir():
            missing("shared/fixtures/arxiv-html is not on this machine")
        yield running


@pytest.fixture(scope="module")
async def papers(replay: Replay, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    home = tmp_path_factory.mktemp("html-home")
    # One page per answer, so each level is checked whole.
    env = replay.papers_env(home, MAX_ANSWER_TOKENS="400000")
    async with server_client("papers_mcp", env=env) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


async def read(client: Client, arxiv_id: str, level: str) -> str:
    result = await client.call_tool("query-paper", {"arxivID": arxiv_id, "level": level})
    answer = text_of(result)
    assert not result.is_error, answer[:500]
    assert "- Page:" not in answer and "[Page 1 of" not in answer, "one page per answer in this module"
    return answer


def headings(text: str, prefix: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(prefix)]


def references_part(everything: str) -> str:
    """The reference list of a level-"all" answer: from its heading to the first appendix heading."""
    start = everything.index("\n## References\n")
    end = everything.find("\n## Appendix", start)
    return everything[start : end if end != -1 else len(everything)]


@pytest.mark.parametrize("page", PAGES, ids=[p.arxiv_id for p in PAGES])
async def test_each_level_holds_exactly_its_part(papers: Client, page: Page) -> None:
    body = await read(papers, page.arxiv_id, "body")
    appendix = await read(papers, page.arxiv_id, "appendix")
    everything = await read(papers, page.arxiv_id, "all")
    for answer in (body, appendix, everything):
        assert page.source in answer, answer[:600]
    assert f"- Arxiv ID: arxiv:{page.arxiv_id}" in body

    # body: the numbered and unnumbered sections (MANIFEST), nothing of the appendix or references.
    body_text = body.split("\n## Abstract\n", 1)[1]
    top = [h for h in headings(body_text, "## ")]
    assert len(top) == page.sections, top
    assert not [h for h in top if h.startswith(("## Appendix", "## References"))], top
    for phrase in page.body_phrases:
        assert phrase in body, phrase
    for phrase in page.appendix_phrases + page.reference_phrases:
        assert phrase not in body, phrase

    # appendix: exactly the ltx_appendix sections, wherever they stand.
    if page.appendices:
        tops = headings(appendix, "## ")
        assert [h for h in tops if h.startswith("## Appendix")] == tops[-page.appendices :], tops
        assert len([h for h in tops if h.startswith("## Appendix")]) == page.appendices
        for phrase in page.appendix_phrases:
            assert phrase in appendix, phrase
        assert page.body_phrases[0] not in appendix
    else:
        assert "This paper has no appendix" in appendix

    # references: one entry per bibliography item; none when the list is empty (2604.11951v1).
    if page.bib_entries:
        refs = references_part(everything)
        assert len(headings(refs, "- ")) == page.bib_entries
        for phrase in page.reference_phrases:
            assert phrase in refs, phrase
        assert "Cited by:" not in refs
    else:
        assert "(This paper has no reference list.)" in everything
    for phrase in (*page.body_phrases, *page.appendix_phrases):
        assert phrase in everything, phrase


@pytest.mark.parametrize("page", PAGES, ids=[p.arxiv_id for p in PAGES])
async def test_no_chrome_no_error_text_and_math_written_once(papers: Client, page: Page) -> None:
    answer = await read(papers, page.arxiv_id, "all")
    for chrome in CHROME:
        assert chrome not in answer, chrome
    # The full text, without the abstract (that comes from the replay's metadata, not from the route).
    after_abstract = answer.split("\n## Abstract\n", 1)[1]
    everything = after_abstract[after_abstract.index("\n## ") :]
    assert "\\eqref" not in everything, "LaTeXML's error spans are never read as prose"
    # MathML's own characters never stand beside the TeX: these are the MathML renderings that a
    # text extraction prints before each formula's TeX (read in the pages' source).
    for doubled in ("1+11+1", "f​(η,x)f(\\eta,x)", "detΔ≠0⟹detℳ≠0", "Δ={σa,γb}"):
        assert doubled not in everything, doubled
    # Every formula is TeX between dollars, and dollars pair up on every line.
    for line in everything.splitlines():
        assert line.count("$") % 2 == 0, line[:200]


async def test_paragraphs_flow_rather_than_one_fragment_per_line(papers: Client) -> None:
    body = await read(papers, "2604.16990v1", "body")
    # The abstract's page paragraph: one line from "Every gauge theory" to its closing citation.
    line = next(ln for ln in body.splitlines() if ln.startswith("Every gauge theory of physical interest"))
    assert line.endswith("and ensures self-consistency [3, 1].")
    assert "$\\gamma_{a}(q,p)=0$" in line


async def test_the_degraded_page_keeps_its_html_when_there_is_no_pdf(papers: Client, replay: Replay) -> None:
    """2604.11951v1: 65 unresolved citations over an empty list; arXiv has no PDF of it here (404)."""
    body = await read(papers, "2604.11951v1", "body")
    assert HTML_SOURCE in body
    assert "## I Introduction" in body
    tried = [r for r in replay.requests if r.kind == "pdf" and "2604.11951" in r.path]
    assert tried, "the degraded conversion sent the server to the PDF first"


async def test_the_degraded_page_is_read_from_the_pdf_when_one_exists(replay: Replay, tmp_path: Path) -> None:
    """The same page with a PDF at its address: the PDF route answers and says so.

    No PDF of 2604.11951v1 is in the fixtures, so the replay serves the 7-page fixture 1608.03417v1
    at its address; the test checks the route taken, and that the text is that PDF's.
    """
    pdf = tmp_path / "stand-in.pdf"
    shutil.copyfile(replay.fixtures / "pdfs" / "1608.03417v1.pdf", pdf)
    replay.serve_pdf_as("2604.11951v1", pdf)
    try:
        async with server_client("papers_mcp", env=replay.papers_env(tmp_path / "home")) as client:
            result = await client.call_tool("query-paper", {"arxivID": "2604.11951", "level": "body"})
    finally:
        replay.serve_pdf_as("2604.11951v1", None)
    answer = text_of(result)
    assert not result.is_error, answer[:500]
    assert PDF_SOURCE in answer
    assert re.search(r"bird", answer, re.IGNORECASE), "the stand-in PDF (a bird-detection survey) was read"
    assert list((tmp_path / "home" / "text").glob("2604.11951v1.pdf.x*.json")), "cached under its source"
    assert not list((tmp_path / "home" / "text").glob("2604.11951v1.html.*")), (
        "the degraded HTML is not cached"
    )


async def test_an_empty_ar5iv_url_disables_ar5iv(replay: Replay, tmp_path: Path) -> None:
    """BloombergGPT has only an ar5iv page here: without ar5iv it goes to the PDF route (404 here)."""
    env = replay.papers_env(tmp_path / "home", AR5IV_URL="")
    before = replay.count("ar5iv")
    async with server_client("papers_mcp", env=env) as client:
        result = await client.call_tool("query-paper", {"arxivID": "2303.17564", "level": "body"})
    assert result.is_error
    assert "Full text is not available" in text_of(result)
    assert replay.count("ar5iv") == before


async def test_a_second_read_comes_from_the_library(papers: Client, replay: Replay) -> None:
    await read(papers, "2604.06120v1", "body")
    before = replay.count()
    answer = await read(papers, "2604.06120v1", "appendix")
    assert replay.count() == before
    assert HTML_SOURCE in answer
