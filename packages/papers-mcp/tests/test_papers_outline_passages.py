"""The section tree and the passage index, on markdown shaped as the converters produce it.

The headings below are the fixture papers' own (shared/fixtures/arxiv), copied from their
converted markdown with the converter's ``#`` levels and bold marks, including its mistakes
(a 2.1 heading with fewer ``#`` than its parent, a sentence promoted to a heading); the
expected tree is the paper's numbering as printed. The MCP tests exercise the same code on
the real conversions.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.fulltext import PaperText
from papers_mcp.levels import passage_parts
from papers_mcp.library import Library
from papers_mcp.outline import build_outline
from papers_mcp.passages import (
    MAX_QUERY_CHARS,
    Passage,
    PassageIndex,
    check_query,
    chunk_paper,
    index_key,
    select_passages,
)
from papers_mcp.reading import check_request

# 1706.03762v5 (Attention Is All You Need): headings as converted, one real sentence each.
TRANSFORMER = PaperText(
    front="# **Abstract**\n\nThe dominant sequence transduction models are based on complex recurrent networks.",
    body="\n\n".join(
        [
            "# **1 Introduction**",
            "Recurrent neural networks, long short-term memory and gated recurrent neural networks in "
            "particular, have been firmly established as state of the art approaches.",
            "# **3 Model Architecture**",
            "Most competitive neural sequence transduction models have an encoder-decoder structure.",
            "## **3.1 Encoder and Decoder Stacks**",
            "We employ a residual connection around each of the two sub-layers, followed by layer normalization [1].",
            "## **3.2 Attention**",
            "An attention function can be described as mapping a query and a set of key-value pairs to an output.",
            "## **3.2.1 Scaled Dot-Product Attention**",
            'We call our particular attention "Scaled Dot-Product Attention".',
            "## **3.2.2 Multi-Head Attention**",
            "In this work we employ _h_ = 8 parallel attention layers, or heads.",
            "# **7 Conclusion**",
            "In this work, we presented the Transformer, the first sequence transduction model based entirely on attention.",
        ]
    ),
    references="# **References**\n\n"
    "- [1] Jimmy Lei Ba, Jamie Ryan Kiros, and Geoffrey E Hinton. Layer normalization. "
    "_arXiv preprint arXiv:1607.06450_, 2016.\n\n"
    "- [2] Dzmitry Bahdanau, Kyunghyun Cho, and Yoshua Bengio. Neural machine translation by jointly "
    "learning to align and translate. _CoRR_, abs/1409.0473, 2014.",
    appendix="# **Attention Visualizations**\n\nFigure 3: An example of the attention mechanism following "
    "long-distance dependencies in the encoder self-attention in layer 5 of 6.",
    pages=15,
)


def outline_of(body: str = "", appendix: str = "", references: str = "") -> list[tuple[str, str, int]]:
    tree = build_outline(PaperText("", body, references, appendix, 1))
    return [(s.number, s.title, s.depth) for s in tree.sections]


def test_numbers_give_the_hierarchy_and_paths() -> None:
    tree = build_outline(TRANSFORMER)
    assert [(s.part, s.number, s.depth) for s in tree.sections] == [
        ("body", "1", 1),
        ("body", "3", 1),
        ("body", "3.1", 2),
        ("body", "3.2", 2),
        ("body", "3.2.1", 3),
        ("body", "3.2.2", 3),
        ("body", "7", 1),
        ("references", "", 1),
        ("appendix", "", 1),
    ]
    multi_head = tree.find("3.2.2")
    assert multi_head is not None
    assert tree.path(multi_head) == "3 Model Architecture › 3.2 Attention › 3.2.2 Multi-Head Attention"
    attention = tree.find("3.2")
    assert attention is not None
    text = tree.markdown(attention)
    assert "mapping a query" in text and "8 parallel attention layers" in text  # subsections included
    assert "encoder-decoder structure" not in text and "presented the Transformer" not in text
    assert [s.number for s in tree.subtree(attention)] == ["3.2", "3.2.1", "3.2.2"]
    assert tree.tokens(attention) == round(len(text) / 3.2)


@pytest.mark.parametrize(
    ("spec", "number"),
    [
        ("3.2", "3.2"),
        ("3.2.", "3.2"),
        ("Section 3.2", "3.2"),
        ("§3.2.1", "3.2.1"),
        ("3.2 Attention", "3.2"),
        ("attention", "3.2"),  # the exact title beats the longer ones that contain the word
        ("multi-head attention", "3.2.2"),
        ("Conclusions", "7"),  # plural and case do not matter
        ("encoder decoder", "3.1"),
        ("3 › 3.2 › multi-head", "3.2.2"),
    ],
)
def test_a_section_is_found_by_number_title_words_or_path(spec: str, number: str) -> None:
    found = build_outline(TRANSFORMER).find(spec)
    assert found is not None and found.number == number


def test_unnumbered_sections_and_the_references_are_found_by_title() -> None:
    tree = build_outline(TRANSFORMER)
    visual = tree.find("attention visualizations")
    refs = tree.find("References")
    assert visual is not None and visual.part == "appendix" and visual.number == ""
    assert refs is not None and refs.part == "references" and "Layer normalization" in tree.markdown(refs)
    assert tree.find("3.2", parts=["appendix"]) is None
    assert tree.find("recurrent transformers zebra") is None
    assert tree.find("9") is None


def test_revtex_letters_sit_under_roman_sections() -> None:
    # 1111.2011v2: section III's heading was lost by the converter; IV follows II.
    body = "\n\n".join(
        [
            "## **I. INTRODUCTION**",
            "text",
            "## **II. SELF-CONSISTENT ACTION IN THE LARGE** _z_ **LIMIT**",
            "text",
            "## **A. Ordered Phase**",
            "text",
            "## **B. Disordered phase**",
            "text",
            "## **IV. CORRECTIONS AT FINITE N**",
            "text",
            "## **ACKNOWLEDGMENTS**",
            "text",
        ]
    )
    assert outline_of(body) == [
        ("I", "I. INTRODUCTION", 1),
        ("II", "II. SELF-CONSISTENT ACTION IN THE LARGE z LIMIT", 1),
        ("II.A", "A. Ordered Phase", 2),
        ("II.B", "B. Disordered phase", 2),
        ("IV", "IV. CORRECTIONS AT FINITE N", 1),
        ("", "ACKNOWLEDGMENTS", 1),
    ]
    tree = build_outline(PaperText("", body, "", "", 1))
    found = tree.find("B")  # only one section ends in .B
    assert found is not None and found.number == "II.B"


def test_appendices_numbered_by_letter_with_arabic_subsections() -> None:
    # 0801.0012v2's appendix, as converted (upper-case APPENDIX, an arabic subsection).
    appendix = "\n\n".join(
        [
            "# APPENDIX A: CTP PROPAGATOR FOR NON-RELATIVISTIC PARTICLES",
            "text",
            "# 2. Operator formalism",
            "text",
            "# APPENDIX B: SELF ENERGY",
            "text",
        ]
    )
    assert outline_of(appendix=appendix) == [
        ("A", "APPENDIX A: CTP PROPAGATOR FOR NON-RELATIVISTIC PARTICLES", 1),
        ("A.2", "2. Operator formalism", 2),
        ("B", "APPENDIX B: SELF ENERGY", 1),
    ]


def test_repeated_titles_get_a_path_that_finds_each_one() -> None:
    # 1512.03385v1's appendix: "MS COCO" and "PASCAL VOC" under both A and B.
    appendix = "\n\n".join(
        [
            "# **A. Object Detection Baselines**",
            "a",
            "## **PASCAL VOC**",
            "a voc",
            "## **MS COCO**",
            "a coco",
            "# **B. Object Detection Improvements**",
            "b",
            "## **MS COCO**",
            "b coco",
            "# **C. ImageNet Localization**",
            "c",
        ]
    )
    tree = build_outline(PaperText("", "", "", appendix, 1))
    cocos = [s for s in tree.sections if s.name == "MS COCO"]
    assert len(cocos) == 2 and cocos[0].selector != cocos[1].selector
    for section in tree.sections:
        assert tree.find(section.selector) is section, section.selector
    assert tree.markdown(cocos[1]).endswith("b coco")


def test_sentences_promoted_to_headings_stay_text() -> None:
    # 0801.0012v2 "# for the Coulomb field." and 1810.04805v2 "## • **Batch size**: 16, 32".
    body = "## I. INTRODUCTION\n\nWe compute the screening\n\n# for the Coulomb field.\n\n## • **Batch size**: 16, 32\n\nmore"
    tree = build_outline(PaperText("", body, "", "", 1))
    assert [s.title for s in tree.sections] == ["I. INTRODUCTION"]
    only = tree.sections[0]
    assert "for the Coulomb field." in tree.markdown(only) and "Batch size" in tree.markdown(only)


def test_html_style_headings_work_the_same() -> None:
    # LaTeXML's titles, with consistent levels: "1 Introduction", "Appendix A ...".
    body = "## 1 Introduction\n\nintro\n\n### 1.1 Setting\n\nsetting\n\n## 2 Results\n\nresults\n\n## Acknowledgements\n\nthanks"
    appendix = "## Appendix A Proof of Theorem 1\n\nproof\n\n### A.1 A lemma\n\nlemma"
    assert outline_of(body, appendix) == [
        ("1", "1 Introduction", 1),
        ("1.1", "1.1 Setting", 2),
        ("2", "2 Results", 1),
        ("", "Acknowledgements", 1),
        ("A", "Appendix A Proof of Theorem 1", 1),
        ("A.1", "A.1 A lemma", 2),
    ]


def test_latexml_roman_and_ieee_numbers() -> None:
    # Headings of arXiv HTML pages in shared/fixtures/arxiv-html: 2604.16990v1 and 2508.08468v6.
    body = "\n\n".join(
        [
            "## I Introduction",
            "x",
            "## II Proof of factorisation",
            "x",
            "### II.1 Preliminaries",
            "x",
            "### II.2 $\\det\\Delta\\neq 0\\Longrightarrow\\det\\mathcal{M}\\neq 0$",
            "x",
            "## IV Proposed Solution",
            "x",
            "### IV-A Model Architecture and Feature Fusion",
            "x",
            "#### Styling.",
            "x",
            "## VI CONCLUSION",
            "x",
        ]
    )
    assert [(n, d) for n, _, d in outline_of(body)] == [
        ("I", 1),
        ("II", 1),
        ("II.1", 2),
        ("II.2", 2),
        ("IV", 1),
        ("IV.A", 2),
        ("", 3),
        ("VI", 1),
    ]
    tree = build_outline(PaperText("", body, "", "", 0, source="html"))
    for spec in ("IV-A", "iv.a", "II.1", "vi"):
        assert tree.find(spec) is not None, spec
    found = tree.find("model architecture")
    assert found is not None and found.number == "IV.A"


def test_passages_never_cross_a_section_or_a_level() -> None:
    tree = build_outline(TRANSFORMER)
    chunks = chunk_paper(
        tree, "The dominant sequence transduction models are based on complex recurrent networks."
    )
    assert {c.part for c in chunks} == {"abstract", "body", "references", "appendix"}
    for chunk in chunks:
        if chunk.part == "abstract":
            continue
        section = tree.find(chunk.selector)
        assert section is not None and section.part == chunk.part
        assert chunk.path == tree.path(section)
        own = tree.markdown(section)
        assert chunk.text in own, f"{chunk.text[:40]!r} is not inside {chunk.path}"
        assert not chunk.text.startswith("#")


@pytest.fixture
def index(tmp_path: Path) -> PassageIndex:
    return PassageIndex(Library(tmp_path))


def test_a_body_query_never_returns_reference_entries(index: PassageIndex) -> None:
    tree = build_outline(TRANSFORMER)
    doc = index.build("k1", "1706.03762v5", chunk_paper(tree, ""))
    _, terms = check_query("layer normalization")
    everywhere = index.search(doc, terms, passage_parts("all"), 10)
    assert {p.part for p in everywhere} >= {"body", "references"}
    body_only = index.search(doc, terms, passage_parts("body"), 10)
    assert body_only and {p.part for p in body_only} == {"body"}
    assert all("arXiv:1607.06450" not in p.text for p in body_only)
    assert body_only[0].path == "3 Model Architecture › 3.1 Encoder and Decoder Stacks"


def test_a_new_conversion_replaces_the_old_index(index: PassageIndex, tmp_path: Path) -> None:
    tree = build_outline(TRANSFORMER)
    first = index.build("old", "1706.03762v5", chunk_paper(tree, ""))
    assert index.build("old", "1706.03762v5", []) == first  # same key: built once
    second = index.build("new", "1706.03762v5", chunk_paper(tree, ""))
    assert index.doc("old") is None and index.doc("new") == second
    with sqlite3.connect(tmp_path / "library.sqlite3") as conn:
        (rows,) = conn.execute("SELECT count(*) FROM passages_fts").fetchone()
    assert rows == len(chunk_paper(tree, ""))


def test_the_key_changes_with_the_text() -> None:
    assert index_key("1706.03762v5", "pdf", ["a", "b"]) != index_key("1706.03762v5", "pdf", ["a", "c"])
    assert index_key("1706.03762v5", "pdf", ["a"]) != index_key("1706.03762v5", "html", ["a"])


@pytest.mark.parametrize(
    "query", ['"unbalanced', "NEAR(a b)", "attention*", "a - b", "col:attention", "^x AND"]
)
def test_fts5_syntax_in_a_query_is_read_as_words(index: PassageIndex, query: str) -> None:
    doc = index.build("k", "p", chunk_paper(build_outline(TRANSFORMER), ""))
    _, terms = check_query(query)
    index.search(doc, terms, passage_parts("all"), 5)  # no sqlite3.OperationalError


def test_the_answer_keeps_to_the_passage_count_and_budget() -> None:
    ranked = [Passage("body", "p", "1", "x" * 1600, -float(10 - i)) for i in range(10)]
    chosen = select_passages(ranked, 5, 1500)
    assert len(chosen) == 3 and sum(p.tokens for p in chosen) <= 1500
    assert len(select_passages(ranked, 2, 1500)) == 2
    huge = [Passage("body", "p", "1", "x" * 8000, -1.0)]
    assert select_passages(huge, 5, 1500) == huge  # the best passage is always given


@pytest.mark.parametrize("query", ["", "   \n ", "x" * (MAX_QUERY_CHARS + 1), "?!…"])
def test_bad_queries_are_validation_errors(query: str) -> None:
    with pytest.raises(ToolFailure) as caught:
        check_query(query)
    assert caught.value.code == ErrorCode.VALIDATION_ERROR


def test_stop_words_are_dropped_unless_nothing_else_is_left() -> None:
    assert check_query("How many attention heads are there?")[1] == ["attention", "heads"]
    assert check_query("what is it")[1] == ["what", "is", "it"]


@pytest.mark.parametrize(
    ("level", "page", "query", "section", "given"),
    [
        ("body", 1, "heads", "3.2", True),
        ("abstract", 1, "heads", None, True),
        ("abstract", 1, None, "3.2", True),
        ("all", 2, "heads", None, True),
        ("body", 1, None, "   ", False),
        ("body", 1, None, "x" * 201, False),
    ],
)
def test_argument_combinations_that_are_validation_errors(
    level: str, page: int, query: str | None, section: str | None, given: bool
) -> None:
    with pytest.raises(ToolFailure) as caught:
        check_request(level, page, query, section, given)  # type: ignore[arg-type]
    assert caught.value.code == ErrorCode.VALIDATION_ERROR


def test_query_and_section_default_to_level_all_but_keep_a_level_given() -> None:
    assert check_request("body", 1, "heads", None, level_given=False).level == "all"
    assert check_request("body", 1, "heads", None, level_given=True).level == "body"
    assert check_request("body", 2, None, "3.2", level_given=False).level == "all"
    assert check_request("body", 3, None, None, level_given=False).level == "body"
