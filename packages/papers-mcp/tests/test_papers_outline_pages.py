"""The outline of a LaTeXML page comes from its structure, not from its headings' words.

``data/pages/1707.08043.html`` is a real LaTeXML page (PROVENANCE.md there); its expected sections
were read in its source. The other pages here are synthetic, and say so: minimal LaTeXML markup
written for a case no stored page shows, each heading shaped exactly as LaTeXML writes it
(``h2.ltx_title_section`` holding ``span.ltx_tag``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from papers_mcp.latexml import parse_page
from papers_mcp.outline import build_outline
from support.latexml_pages import latexml_page

PAGES = Path(__file__).parent / "data" / "pages"


def sections(page: bytes) -> list[tuple[str, str, str, int]]:
    text = parse_page(page, "html").text
    return [(s.part, s.number, s.title, s.depth) for s in build_outline(text).sections]


def test_a_real_page_keeps_an_unnumbered_lower_case_section() -> None:
    text = parse_page((PAGES / "1707.08043.html").read_bytes(), "html").text
    tree = build_outline(text)
    assert [(s.number, s.title, s.depth) for s in tree.in_parts(["body"])] == [
        ("", "Introduction", 1),
        ("1", "1. Preliminary facts", 1),
        ("2", "2. Main Result", 1),
        ("", "acknowledgements", 1),  # h2.ltx_title_section: a section, whatever its first letter
    ]
    found = tree.find("acknowledgements")
    assert found is not None and tree.markdown(found).startswith("## acknowledgements\n\n")
    assert tree.find("1") is not None and tree.find("Preliminary facts") is tree.find("1")


def test_the_markdown_alone_would_lose_that_section() -> None:
    """What the structure adds: read from its markdown only, the same text has no such section."""
    text = parse_page((PAGES / "1707.08043.html").read_bytes(), "html").text
    titles = [s.title for s in build_outline(replace(text, headings=None)).sections]
    assert "acknowledgements" not in titles


def test_classification_and_keywords_before_the_first_section_are_front_matter() -> None:
    text = parse_page((PAGES / "1707.08043.html").read_bytes(), "html").text
    assert "Mathematical Subject Classification (2010): 03C20, 03C98, 13B99, 11D72" in text.front
    assert "Keywords: Lefschetz" in text.front
    assert "This paper should be cited as follows" in text.front, "the keywords' footnote stays with them"
    assert text.body.startswith("## Introduction\n\n")


def _page(sections_html: str) -> bytes:
    """A minimal LaTeXML document around ``sections_html`` (synthetic)."""
    paragraph = '<div class="ltx_para"><p class="ltx_p">{}</p></div>'
    filler = paragraph.format("Text of the section. " * 20)
    body = sections_html.replace("{text}", filler)
    return latexml_page(body, "A Paper")


def test_a_number_is_read_from_the_tag_whatever_the_title_starts_with() -> None:
    """Synthetic: titles that start lower-case or with math, under LaTeXML's own tags."""
    page = _page(
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">'
        '<span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>{text}</section>'
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">'
        '<span class="ltx_tag ltx_tag_section">2 </span><math alttext="\\alpha">α</math>-stability</h2>{text}'
        '<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection">'
        '<span class="ltx_tag ltx_tag_subsection">2.1 </span>k-NN baselines</h3>{text}</section>'
        "</section>"
    )
    assert sections(page) == [
        ("body", "1", "1 Introduction", 1),
        ("body", "2", "2 $\\alpha$-stability", 1),
        ("body", "2.1", "2.1 k-NN baselines", 2),
    ]


def test_numbers_nest_sections_whose_markup_does_not() -> None:
    """Synthetic: after the references, an appendix whose subsections stand beside it in the markup,
    not inside it (as on arXiv's sample of 2308.06222v1, whose page we may not store), tagged A,
    A.1, A.2."""
    page = _page(
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">'
        '<span class="ltx_tag ltx_tag_section">1 </span>Introduction</h2>{text}</section>'
        '<section class="ltx_bibliography"><h2 class="ltx_title ltx_title_bibliography">References</h2>'
        '<ul class="ltx_biblist"><li class="ltx_bibitem">A. Author. A book. Publisher, 2020.</li></ul></section>'
        '<section class="ltx_appendix"><h2 class="ltx_title ltx_title_appendix">'
        '<span class="ltx_tag ltx_tag_appendix">Appendix A </span>Supplemental Material</h2></section>'
        '<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection">'
        '<span class="ltx_tag ltx_tag_subsection">A.1 </span>A. Details of the method</h3>{text}</section>'
        '<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection">'
        '<span class="ltx_tag ltx_tag_subsection">A.2 </span>B. Calculation</h3>{text}</section>'
    )
    got = sections(page)
    assert got[0] == ("body", "1", "1 Introduction", 1)
    assert ("appendix", "A", "Appendix A Supplemental Material", 1) in got
    assert [(n, d) for part, n, _, d in got if part != "body" and n.startswith("A.")] == [
        ("A.1", 2),
        ("A.2", 2),
    ]


def test_an_untagged_heading_keeps_the_number_its_author_typed() -> None:
    """Synthetic: a template that numbers nothing itself, its numbers typed into the titles (as on
    ar5iv's page of 2402.17785, whose licence does not let us store it): no ``ltx_tag`` anywhere."""
    page = _page(
        '<section class="ltx_section"><h2 class="ltx_title ltx_font_bold ltx_title_section">'
        "1.\u00a0\u00a0\u00a0Introduction</h2>{text}"
        '<section class="ltx_subsection"><h3 class="ltx_title ltx_title_subsection">'
        "1.1.\u00a0\u00a0\u00a0Prompt Design</h3>{text}</section></section>"
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">limitations</h2>{text}</section>'
    )
    assert sections(page) == [
        ("body", "1", "1. Introduction", 1),
        ("body", "1.1", "1.1. Prompt Design", 2),
        ("body", "", "limitations", 1),
    ]
