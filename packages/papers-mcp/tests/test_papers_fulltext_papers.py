"""The split of the 12 real arXiv PDFs into front / body / references / appendix.

Every expected phrase was read by eye in the PDF (page text via PyMuPDF ``page.get_text()``),
never taken from our own output; each assertion message says where. Phrases avoid words that
the PDF hyphenates across lines. Matching ignores whitespace and markdown emphasis (``*``/``_``),
since the converter may bold or italicise a phrase.

Each PDF is converted once per session (conversion is slow on a 2-core machine).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from papers_mcp.convert import convert_pdf
from papers_mcp.fulltext import PaperText, paper_text
from papers_mcp.sections import ConvertedDocument, Sections, clean_document, unaccounted_words
from support.required import missing

pytestmark = pytest.mark.slow

# A phrase and where it was read in the PDF.
Phrase = tuple[str, str]


@dataclass(frozen=True)
class Expected:
    """What a reader sees in one paper."""

    front: list[Phrase]  # the abstract's first words (or the essay's opening)
    body: list[Phrase]  # an early, a middle and a conclusion phrase, at least
    references: list[Phrase]  # two or more entries; [] when the paper has none
    appendix: list[Phrase]  # appendix text; [] when the paper has none
    pages: int
    body_extra: list[Phrase] = field(default_factory=list)  # other text that must land in the body


PAPERS: dict[str, Expected] = {
    "0801.0012v2": Expected(
        front=[
            (
                "The contribution of different modes of the Coulomb field to decoherence",
                "p1 abstract, first words",
            )
        ],
        body=[
            ("Any attempt to bridge the gap between quantum and classical physics", "p1 §I first sentence"),
            (
                "The transition from the quantum to the classical regime is supposed to be driven",
                "p5 §III first sentence",
            ),
            (
                "Finally, the strategy of the renormalization group seems to be well suited",
                "p10 §V last sentence",
            ),
        ],
        references=[
            ("S. Tomonaga, Prog. Theor. Phys. 1, 27 (1946)", "p13 ref [1], no heading"),
            ("R. P. Feynman, F. L. Vernon, Ann. Phys. 24, 118 (1963)", "p13 ref [20], the last"),
        ],
        appendix=[
            (
                "CTP PROPAGATOR FOR NON-RELATIVISTIC PARTICLES",
                "p10 'APPENDIX A:' heading, before the references",
            ),
            (
                "Let us consider free non-relativistic particles with exchange statistics",
                "p10 App. A first sentence",
            ),
            ("Straightforward integration yields Eq. (19)", "p13 App. B, just above the references"),
        ],
        body_extra=[("It is pleasure to thank Janos Hajdu", "p10 Acknowledgments, before App. A")],
        pages=13,
    ),
    "1001.0012v2": Expected(
        front=[
            (
                "If both the day-side and night-side effective temperatures of a planet",
                "p1 ABSTRACT first words",
            )
        ],
        body=[
            ("Short-period exoplanets are expected to have atmospheric compositions", "p1 §1 first sentence"),
            ("For each planet, we use thermal observations", "p6 §4.1 first sentence"),
            ("A possible improvement to this study would be to", "p9 §5, last paragraphs"),
        ],
        references=[
            ("Agol, E., Cowan, N. B., Knutson, H. A.", "p9 REFERENCES, first entry"),
            ("Seager, S., & Deming, D. 2009, ApJ, 703, 1884", "p10 REFERENCES"),
        ],
        appendix=[],
        # Decision: emulateapj defers TABLE 1 to after the references; it is body material.
        body_extra=[
            ("Secondary Eclipses & Phase Variations of Exoplanets", "p11 TABLE 1 title, after the references")
        ],
        pages=12,
    ),
    "1111.2011v2": Expected(
        front=[
            ("Theoretical description of anisotropic systems, such as layered superconductors", "p1 abstract")
        ],
        body=[
            ("It is often the case that the relevent degrees of freedom", "p1 §I first sentence (sic)"),
            ("With the results of the preceding section in place", "p5 §III first sentence"),
            ("We have presented a self-consistent, analytical treatment", "p8 §V first sentence"),
        ],
        references=[
            ("D. C. Johnston, Adv. Phys.", "p8 ref 1, REVTeX list without a heading"),
            ("H. A. Bethe, Proc. Roy. Soc. London A", "p8 ref 4"),
            ("A. M. Polyakov", "p8 ref 19, right column"),
        ],
        appendix=[],
        body_extra=[
            # p8 prints the reference list under both columns; these come after ref 1-11 in reading order.
            ("One can imagine many possible extensions to the work presented here", "p8 §V right column"),
            ("We would like to thank Predrag Nikolic", "p8 ACKNOWLEDGMENTS, right column"),
        ],
        pages=8,
    ),
    "1311.2542v3": Expected(
        front=[("be a sparse Johnson-Lindenstrauss transform", "p1 Abstract first sentence")],
        body=[
            (
                "Dimensionality reduction is a ubiquitous tool across a wide array of disciplines",
                "p2 §1 first words",
            ),
            ("we now prove the main theorem of this work", "p27 §7 first paragraph"),
            (
                "We have provided a general theorem which captures sparse dimensionality",
                "p44 §9 first sentence",
            ),
        ],
        references=[
            ("Nir Ailon and Bernard Chazelle", "p45 References, [AC09]"),
            ("Noga Alon. Problems and results in extremal combinatorics", "p45 References, [Alo03]"),
        ],
        appendix=[
            ("We collect some useful tools from probability theory", "p50 Appendix A first sentence"),
            (
                "In this appendix we study sketching of least squares programs",
                "p54 Appendix C first sentence",
            ),
        ],
        pages=60,
    ),
    "1503.02531v1": Expected(
        front=[
            (
                "A very simple way to improve the performance of almost any machine learning",
                "p1 Abstract first words",
            )
        ],
        body=[
            (
                "Many insects have a larval form that is optimized for extracting energy",
                "p1 §1 first sentence",
            ),
            (
                "Training an ensemble of models is a very simple way to take advantage of parallel",
                "p5 §5 first words",
            ),
            ("We have shown that distilling works very well for transferring knowledge", "p8 §8 Discussion"),
        ],
        references=[
            ("T. G. Dietterich. Ensemble methods in machine learning", "p9 References [3]"),
            ("R. A. Jacobs, M. I. Jordan, S. J. Nowlan, and G. E. Hinton", "p9 References [6]"),
        ],
        appendix=[],
        pages=9,
    ),
    "1512.03385v1": Expected(
        front=[("Deeper neural networks are more difficult to train", "p1 Abstract first sentence")],
        body=[
            ("have led to a series of breakthroughs for image classification", "p1 §1 first sentence"),
            ("We argue that this optimization difficulty is unlikely to", "p5 §4.1"),
            ("Based on deep residual nets, we won the 1st places in", "p8 §4.3 last paragraph"),
        ],
        references=[
            ("Y. Bengio, P. Simard, and P. Frasconi", "p9 References [1]"),
            ("A. Vedaldi and B. Fulkerson. VLFeat", "p9 References [48]"),
        ],
        appendix=[
            ("Object Detection Baselines", "p10 section 'A.' heading, no word 'Appendix'"),
            ("In this section we introduce our detection method based", "p10 §A first sentence"),
            ("requires to classify and localize the objects", "p12 §C first sentence"),
        ],
        pages=12,
    ),
    "1608.03417v1": Expected(
        front=[("Many biological monitoring projects rely on acoustic", "p1 ABSTRACT first words")],
        body=[
            ("Monitoring birds by their sound is important for many", "p1 §1 first sentence"),
            ("The most common methods for detection are based on", "p3 §3.1 first sentence"),
            ("This survey has described current approaches to automatic", "p6 §7 CONCLUSIONS"),
        ],
        references=[
            ("T. A. Marques et al.", "p6 '8. REFERENCES' [1]"),
            ("Y. LeCun, Y. Bengio, and G. Hinton", "p7 References [36]"),
        ],
        appendix=[],
        pages=7,
    ),
    "1704.01689v1": Expected(
        front=[
            ("We investigate the existence and stability of timelike and null circular orbits", "p1 abstract")
        ],
        body=[
            ("Axisymmetric spacetimes are of special interests in", "p1 §I first sentence"),
            ("In the end of last section, we see that there indeed exist", "p4 §IV first sentence"),
            ("In our previous work [20], the existence and stability", "p7 §VII first sentence"),
        ],
        references=[
            ("L. Del Zanna, E. Amato, and N. Bucciantini", "p10 ref [1], no heading, after the appendices"),
            ("E. M. Izhikevich, Dynamical systems in neuroscience", "p11 ref [30]"),
        ],
        appendix=[
            ("Sufficient conditions for (in-)stabilities", "p8 'Appendix A:' heading, before the references"),
            ("To prove the theorem, we define a", "p10 Appendix B first sentence"),
        ],
        pages=11,
    ),
    "1706.03762v5": Expected(
        front=[
            (
                "The dominant sequence transduction models are based on complex recurrent",
                "p1 Abstract first words",
            )
        ],
        body=[
            (
                "have been firmly established as state of the art approaches in sequence modeling",
                "p1 §1 first sentence",
            ),
            ("In this section we compare various aspects of self-attention layers", "p6 §4 first sentence"),
            (
                "In this work, we presented the Transformer, the first sequence transduction model",
                "p10 §7 Conclusion",
            ),
        ],
        references=[
            ("Rico Sennrich, Barry Haddow, and Alexandra Birch", "p12 References [31]"),
            ("Jie Zhou, Ying Cao, Xuguang Wang, Peng Li, and Wei Xu", "p12 References [39]"),
        ],
        appendix=[
            ("Attention Visualizations", "p13 heading of the figure pages after the references"),
            (
                "An example of the attention mechanism following long-distance dependencies",
                "p13 Figure 3 caption",
            ),
        ],
        pages=15,
    ),
    "1810.04805v2": Expected(
        front=[
            (
                "which stands for Bidirectional Encoder Representations from Transformers",
                "p1 Abstract first sentence",
            )
        ],
        body=[
            (
                "Language model pre-training has been shown to be effective for improving",
                "p1 §1 first sentence",
            ),
            ("is a collection of 100k", "p6 §4.2 SQuAD v1.1, first sentence"),
            (
                "Recent empirical improvements due to transfer learning with language models",
                "p9 §6 Conclusion",
            ),
        ],
        references=[
            ("Alan Akbik, Duncan Blythe, and Roland Vollgraf", "p10 References, first entry"),
            ("Rowan Zellers, Yonatan Bisk, Roy Schwartz, and Yejin Choi", "p12 References, next to last"),
        ],
        appendix=[
            ("We organize the appendix into three sections", "p12 'Appendix for BERT' first sentence"),
            ("To generate each training input sequence", "p13 §A.2 first sentence"),
        ],
        pages=16,
    ),
    "math_9404236v1": Expected(
        # An essay without an abstract: its opening paragraphs, before section 1, are the front.
        front=[
            (
                "This essay on the nature of proof and progress in mathematics was stimulated",
                "p1 first sentence",
            )
        ],
        body=[
            ("There are many issues buried in this question", "p1 §1, first paragraph"),
            ("I think this pattern varies quite a bit from field to field", "p9"),
            ("I do think that my actions have done well in stimulating mathematics", "p17, last sentence"),
        ],
        references=[],
        appendix=[],
        pages=17,
    ),
    "quant-ph_9508027v2": Expected(
        front=[
            ("A digital computer is generally believed to be an efficient universal computing", "p1 Abstract")
        ],
        body=[
            ("One of the first results in the mathematics of computation", "p2 §1 first sentence"),
            ("work needs to be done on the best way of implementing elementary arithmetic", "p13"),
            ("There are some weak indications that quantum computers are not powerful", "p25 last section"),
        ],
        references=[
            ("L. M. Adleman (1994), Algorithmic number theory", "p25 REFERENCES, first entry"),
            ("A. Yao (1993), Quantum circuit complexity", "p28 REFERENCES, last entry"),
        ],
        appendix=[],
        pages=28,
    ),
}


def _flat(text: str) -> str:
    """Whitespace collapsed and markdown emphasis removed, for phrase matching."""
    return " ".join(re.sub(r"[*_]", "", text).split())


def _has(haystack: str, phrase: str) -> bool:
    return _flat(phrase) in _flat(haystack)


def _fixtures_dir() -> Path | None:
    env = os.environ.get("PAPERS_MCP_FIXTURES")
    path = Path(env) if env else Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "arxiv"
    return path if (path / "pdfs").is_dir() else None


@pytest.fixture(scope="session")
def arxiv_pdfs() -> Path:
    """The real PDFs: ``$PAPERS_MCP_FIXTURES/pdfs`` or ``<repo>/../shared/fixtures/arxiv/pdfs``."""
    path = _fixtures_dir()
    if path is None:
        message = "arXiv fixtures not found: set PAPERS_MCP_FIXTURES or put shared/ beside the repository"
        missing(message)
    return path / "pdfs"


class _Converted:
    """Converts each fixture PDF on first use and keeps the conversion and its split for the session."""

    def __init__(self, pdfs: Path) -> None:
        self._pdfs = pdfs
        self._documents: dict[str, ConvertedDocument] = {}

    def document(self, name: str) -> ConvertedDocument:
        if name not in self._documents:
            self._documents[name] = convert_pdf(self._pdfs / f"{name}.pdf")
        return self._documents[name]

    def __call__(self, name: str) -> PaperText:
        return paper_text(self.document(name))


@pytest.fixture(scope="session")
def converted(arxiv_pdfs: Path) -> _Converted:
    return _Converted(arxiv_pdfs)


NAMES = sorted(PAPERS)


@pytest.mark.parametrize("name", NAMES)
def test_front_holds_the_abstract(converted: _Converted, name: str) -> None:
    paper, expected = converted(name), PAPERS[name]
    assert paper.pages == expected.pages, f"{name}: page count from MANIFEST.md"
    for phrase, where in expected.front:
        assert _has(paper.front, phrase), f"{name}: front lacks {phrase!r} ({where})"
        assert not _has(paper.body, phrase), f"{name}: body repeats the front's {phrase!r} ({where})"


@pytest.mark.parametrize("name", NAMES)
def test_body_holds_the_main_text_and_nothing_else(converted: _Converted, name: str) -> None:
    paper, expected = converted(name), PAPERS[name]
    for phrase, where in expected.body + expected.body_extra:
        assert _has(paper.body, phrase), f"{name}: body lacks {phrase!r} ({where})"
    for phrase, where in expected.references:
        assert not _has(paper.body, phrase), f"{name}: body holds reference entry {phrase!r} ({where})"
    for phrase, where in expected.appendix:
        assert not _has(paper.body, phrase), f"{name}: body holds appendix text {phrase!r} ({where})"


@pytest.mark.parametrize("name", NAMES)
def test_references_hold_the_entries(converted: _Converted, name: str) -> None:
    paper, expected = converted(name), PAPERS[name]
    if not expected.references:
        assert paper.references == "", f"{name}: MANIFEST.md says this essay has no reference list"
        return
    for phrase, where in expected.references:
        assert _has(paper.references, phrase), f"{name}: references lack {phrase!r} ({where})"
    for phrase, where in expected.body + expected.appendix:
        assert not _has(paper.references, phrase), f"{name}: references hold {phrase!r} ({where})"


@pytest.mark.parametrize("name", NAMES)
def test_appendix_holds_only_appendix_text(converted: _Converted, name: str) -> None:
    paper, expected = converted(name), PAPERS[name]
    if not expected.appendix:
        assert paper.appendix == "", f"{name}: MANIFEST.md lists no appendix"
        return
    for phrase, where in expected.appendix:
        assert _has(paper.appendix, phrase), f"{name}: appendix lacks {phrase!r} ({where})"
    for phrase, where in expected.body + expected.body_extra + expected.references:
        assert not _has(paper.appendix, phrase), f"{name}: appendix holds {phrase!r} ({where})"


_STAMP = re.compile(
    r"arXiv:\s*(?:[a-z-]+(?:\.[A-Z]{2})?/)?\d{4}\.?\d{3,5}v\d+\s*(?:\[[^\]]*\]\s*)?\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}"
)


@pytest.mark.parametrize("name", NAMES)
def test_no_margin_stamp_ligatures_or_page_numbers(converted: _Converted, name: str) -> None:
    paper = converted(name)
    text = "\n".join((paper.front, paper.body, paper.references, paper.appendix))
    # Every PDF's p1 left margin carries "arXiv:<id> [cat] <date>" (MANIFEST.md checked them all).
    assert not _STAMP.search(text), f"{name}: the sideways arXiv stamp leaked: {_STAMP.search(text)}"
    for ligature in ("ﬁ", "ﬂ", "ﬀ", "ﬃ", "ﬄ"):
        assert ligature not in text, f"{name}: ligature {ligature!r} survived NFKC"


def test_running_headers_are_dropped(converted: _Converted) -> None:
    paper = converted("1001.0012v2")
    # p2, p4, ... print "Cowan & Agol" and p3, p5, ... "Albedo and Heat Recirculation on Hot Exoplanets"
    # as running heads; the words appear nowhere else as a line of their own.
    lines = {_flat(line).strip("# ").lower() for line in paper.body.splitlines()}
    assert "cowan & agol" not in lines, "1001.0012v2: even-page running head 'Cowan & Agol' kept"
    assert "albedo and heat recirculation on hot exoplanets" not in lines, (
        "1001.0012v2: odd-page running head kept"
    )


def test_table_of_contents_is_not_taken_for_the_real_headings(converted: _Converted) -> None:
    paper = converted("1311.2542v3")
    # p1 prints a table of contents listing "References 45" and "Appendix A. ... 50"; the real
    # references start on p45 with [ABTZ13] and the body runs from p2 to p45.
    assert _has(paper.references, "Haim Avron, Christos Boutsidis, Sivan Toledo"), "p45 first entry [ABTZ13]"
    assert len(paper.body) > 60_000, (
        "1311.2542v3: the body spans p2-p45; a split at the p1 contents would be short"
    )


# --- nothing is lost ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_word_lands_in_exactly_one_part(converted: _Converted, name: str) -> None:
    """front + body + references + appendix hold exactly the words of the cleaned conversion."""
    paper = converted(name)
    parts = Sections(paper.front, paper.body, paper.references, paper.appendix)
    missing, extra = unaccounted_words(converted.document(name), parts)
    assert not missing, f"{name}: words lost from every part: {list(missing.items())[:12]}"
    assert not extra, f"{name}: words in more than one part or invented: {list(extra.items())[:12]}"


@pytest.mark.parametrize("name", NAMES)
def test_only_page_numbers_and_repeated_edge_lines_are_removed(converted: _Converted, name: str) -> None:
    cleaned = clean_document(converted.document(name).pages_md)
    keys = Counter(_line_key(r.text) for r in cleaned.removed if r.reason == "running head")
    for removed in cleaned.removed:
        if removed.reason == "page number":
            assert re.fullmatch(r"[#*_\s]*(?:page\s+)?\d{1,4}[*_\s]*", removed.text, re.IGNORECASE), removed
        else:
            assert removed.reason == "running head", removed
            assert len(removed.text) < 200 and "\n\n" not in removed.text, removed
            # The same line, page numbers aside, was removed from at least two pages.
            assert keys[_line_key(removed.text)] >= 2, f"{name}: {removed.text!r} removed but seen once"
            assert removed.page > 0, "page 1 keeps its lines (the title is often the running head)"


def _line_key(text: str) -> str:
    return re.sub(r"[\d\W_]+", " ", text).strip().lower()


# Entries of each reference list, read from the PDFs (how each was counted: test_papers_bibliography.py).
REFERENCE_COUNTS = {
    "0801.0012v2": 20,
    "1001.0012v2": 87,
    "1111.2011v2": 20,
    "1311.2542v3": 101,
    "1503.02531v1": 9,
    "1512.03385v1": 50,
    "1608.03417v1": 36,
    "1704.01689v1": 31,
    "1706.03762v5": 40,
    "1810.04805v2": 56,
    "math_9404236v1": 0,
    "quant-ph_9508027v2": 75,
}


@pytest.mark.parametrize("name", NAMES)
def test_the_reference_list_splits_into_as_many_entries_as_printed(converted: _Converted, name: str) -> None:
    """bibliography.py's PDF route: one entry per printed reference, none lost or merged."""
    from papers_mcp.bibliography import references_from_markdown

    assert len(references_from_markdown(converted(name).references)) == REFERENCE_COUNTS[name]
