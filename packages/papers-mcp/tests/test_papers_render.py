"""The result block of seed 003, the level answers, and paging that never drops text."""

from __future__ import annotations

import re

from papers_mcp.descriptions import RESULT_SEPARATOR, RESULTS_HEADER
from papers_mcp.fulltext import PaperText
from papers_mcp.metadata import PaperMeta
from papers_mcp.render import (
    authors_short,
    brief,
    paginate,
    paper_header,
    render_page,
    render_paper,
    render_results,
)

VASWANI = PaperMeta(
    id="1706.03762v5",
    title="Attention Is All You Need",
    authors=(
        "Ashish Vaswani",
        "Noam Shazeer",
        "Niki Parmar",
        "Jakob Uszkoreit",
        "Llion Jones",
        "Aidan N. Gomez",
        "Łukasz Kaiser",
        "Illia Polosukhin",
    ),
    abstract="The dominant sequence transduction models are based on complex recurrent or convolutional "
    "neural networks that include an encoder and a decoder. " * 3,
    published="2017-06-12T17:57:34+00:00",
    updated="2017-12-06T03:30:32+00:00",
    primary_category="cs.CL",
)
MURRAY = PaperMeta(
    id="1111.2011v2",
    title="Quantum Criticality for Extended Nodes on a Bethe Lattice in the Large Connectivity Limit",
    authors=("James M. Murray", "Adrian Del Maestro", "Zlatko Tesanovic"),
    abstract="Theoretical description of anisotropic systems.",
    published="2011-11-08T18:48:36+00:00",
    updated="2012-04-02T12:38:54+00:00",
    primary_category="cond-mat.str-el",
    comment="8 pages, 3 figures. Published version",
    journal_ref="Phys. Rev. B 85, 115117 (2012)",
    doi="10.1103/PhysRevB.85.115117",
)


def test_authors_follow_the_seed_example() -> None:
    # seed 003: "- Authors: Vaswani, Shazeer, Parmar, et al."
    assert authors_short(VASWANI.authors) == "Vaswani, Shazeer, Parmar, et al."
    assert authors_short(MURRAY.authors) == "Murray, Del Maestro, Tesanovic"
    assert authors_short(()) == "N/A"


def test_the_result_block_has_the_seed_layout() -> None:
    text = render_results([VASWANI, MURRAY])
    assert text.startswith(RESULTS_HEADER + f"\n\n{RESULT_SEPARATOR}\n\n- Title: Attention Is All You Need\n")
    assert text.count(RESULT_SEPARATOR) == 2
    first = text.split(RESULT_SEPARATOR)[1].strip().splitlines()
    assert [line.split(":", 1)[0] for line in first] == [
        "- Title",
        "- Arxiv ID",
        "- Authors",
        "- Year",
        "- Category",
        "- Comment",
        "- Journal/DOI",
        "- Abstract",
    ]
    assert "- Arxiv ID: arxiv:1706.03762\n" in text  # seed: arxiv:XXXX.XXXXX, no version
    assert "- Year: 2017\n" in text
    assert "- Comment: N/A\n- Journal/DOI: N/A\n" in text  # missing fields are N/A, never omitted or None
    assert "- Journal/DOI: Phys. Rev. B 85, 115117 (2012); DOI: 10.1103/PhysRevB.85.115117" in text
    assert "None" not in text


def test_the_abstract_is_brief_and_cut_at_a_word() -> None:
    short = brief(VASWANI.abstract)
    assert short.endswith("...") and len(short) <= 303
    assert VASWANI.abstract.startswith(short[:-3])
    assert brief("Short.") == "Short."


def _text(body: str, appendix: str = "", references: str = "[1] A. Ref.") -> PaperText:
    return PaperText(front="front", body=body, references=references, appendix=appendix, pages=9)


def test_levels_select_their_parts() -> None:
    text = _text(
        "## 1 Introduction\n\nMain text.", appendix="## A Proofs\n\nLemma.", references="[1] Ref one."
    )
    body = render_paper(MURRAY, "body", text)
    assert "Theoretical description" in body and "Main text." in body
    assert "Ref one" not in body and "Lemma." not in body
    appendix = render_paper(MURRAY, "appendix", text)
    assert "Lemma." in appendix and "Main text." not in appendix and "Ref one" not in appendix
    everything = render_paper(MURRAY, "all", text)
    order = [everything.index(s) for s in ("Theoretical description", "Main text.", "Ref one.", "Lemma.")]
    assert order == sorted(order)
    abstract = render_paper(MURRAY, "abstract", None)
    assert "Theoretical description" in abstract and "Main text." not in abstract


def test_a_part_keeps_its_own_heading_and_gets_one_when_it_has_none() -> None:
    text = _text(
        "Main.", appendix="# APPENDIX A: CTP PROPAGATOR\n\nLet us consider.", references="- [1] Ref."
    )
    everything = render_paper(MURRAY, "all", text)
    assert "## Appendix" not in everything and "# APPENDIX A: CTP PROPAGATOR" in everything
    assert "## References\n\n- [1] Ref." in everything


def test_no_appendix_is_said_plainly() -> None:
    assert "has no appendix" in render_paper(MURRAY, "appendix", _text("Main."))


def test_the_header_names_the_exact_version() -> None:
    header = paper_header(VASWANI, "body")
    assert "- Arxiv ID: arxiv:1706.03762v5" in header
    assert "- Level: body" in header


def _document() -> str:
    sections = []
    for n in range(1, 9):
        paras = [f"Paragraph {n}.{k} " + "word " * (40 + 13 * k) for k in range(1, 7)]
        sections.append(f"## {n} Section {n}\n\n" + "\n\n".join(paras))
    return "\n\n".join(sections)


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def test_pages_stay_under_the_budget_and_lose_nothing() -> None:
    document = _document()
    for limit in (900, 2500, 6000):
        pages = paginate(document, limit)
        assert len(pages) > 1
        assert all(len(p) <= limit for p in pages), limit
        assert _words("\n\n".join(pages)) == _words(document)


def test_pages_prefer_to_start_at_a_heading() -> None:
    pages = paginate(_document(), 6000)
    starts = [p.lstrip().startswith("## ") for p in pages[1:]]
    assert sum(starts) >= len(starts) - 1


def test_an_oversized_paragraph_is_cut_without_loss() -> None:
    giant = "Sentence number one is here. " * 400
    pages = paginate(giant, 1000)
    assert all(len(p) <= 1000 for p in pages)
    assert _words(" ".join(pages)) == _words(giant)


def test_every_page_but_the_last_says_how_to_get_the_next() -> None:
    pages = ["one", "two", "three"]
    first = render_page("# T", pages, 1, "1706.03762v5", "all", 20000)
    assert 'arxivID="arxiv:1706.03762v5", level="all", page=2' in first
    last = render_page("# T", pages, 3, "1706.03762v5", "all", 20000)
    assert "Page 3 of 3" in last and "page=4" not in last
    assert render_page("# T", ["only"], 1, "1706.03762v5", "all", 20000) == "# T\n\nonly"


def test_all_holds_every_part_the_front_matter_included() -> None:
    # Issue 13: level "all" is front + body + references + appendix, so nothing the splitter put in
    # the front (a keywords line, a printed contents list, an unlabelled first paragraph) is lost.
    text = PaperText(
        front="# Title\n\nKeywords: tilings.",
        body="Main.",
        references="- [1] Ref.",
        appendix="A. Lemma.",
        pages=3,
    )
    everything = render_paper(MURRAY, "all", text)
    order = [
        everything.index(s) for s in ("## Abstract", "Keywords: tilings.", "Main.", "[1] Ref.", "A. Lemma.")
    ]
    assert order == sorted(order), everything
    assert "Keywords: tilings." not in render_paper(MURRAY, "body", text)
