"""When arXiv's HTML is worse than its PDF: the degraded-conversion rule.

LaTeXML marks its own failures in the page, so the rule reads those marks instead of guessing
from the text. A conversion is *degraded* when one of these holds:

1. **Citations unresolved.** More ``\\cite``s are ``ltx_missing_citation`` than resolve to a
   bibliography entry (and at least one is missing). Then the reader cannot follow most of the
   paper's citations and, typically, the bibliography list is empty: LaTeXML did not get the
   ``.bbl`` file, and the PDF has the printed list. Half is the point where unresolved citations
   are the rule rather than the exception (a stray typo'd key leaves a paper readable).
2. **Errors throughout.** ``ltx_ERROR`` spans (raw TeX of a macro LaTeXML could not expand) touch
   more than a third of the paragraphs. One error is a local loss (an equation number, a symbol);
   when they reach a large share of the paragraphs, a package the paper relies on failed to
   convert and the losses are systematic. A third keeps a page such as 2604.09739v1 (undefined
   ``\\eqref`` in 20 of 100 paragraphs, still readable) on the HTML route.
3. **Structure lost.** No section at all in a text of more than 7,500 words. A letter (Physical
   Review Letters allows about 3,750 words) legitimately has no sections; a text twice that long
   without any has lost its sectioning (custom heading macros LaTeXML did not understand), and
   its levels cannot be told apart, whereas the PDF route finds headings in the text.

A conversion that **failed** is no paper at all and is never served: arXiv still serves a page for
a TeX source LaTeXML could not convert ("Untitled Document": no title, no section, a paragraph or
two of raw TeX between ``ltx_ERROR`` spans). The rule: no title, no section, no bibliography
entry, and errors in every paragraph (or no paragraph at all). The route moves on (ar5iv, the PDF)
as for a missing page.

A degraded conversion is replaced by the PDF when the PDF can be had and converted; when it
cannot, the HTML is kept (it is still the paper's text).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .latexml_nodes import class_set

if TYPE_CHECKING:
    from lxml.etree import _Element

__all__ = [
    "MAX_ERROR_PARAGRAPH_SHARE",
    "MIN_WORDS_WITHOUT_SECTIONS",
    "SECTIONING",
    "HtmlSignals",
    "count_signals",
    "degraded_reasons",
    "failed_conversion",
]

MAX_ERROR_PARAGRAPH_SHARE = 1 / 3
MIN_WORDS_WITHOUT_SECTIONS = 7_500

SECTIONING = ("ltx_part", "ltx_chapter", "ltx_section", "ltx_subsection", "ltx_subsubsection")
_SIGNAL_CLASSES = frozenset(
    {"ltx_bibitem", "ltx_missing_citation", "ltx_ERROR", "ltx_p", *SECTIONING, "ltx_appendix"}
)


@dataclass(frozen=True)
class HtmlSignals:
    """What LaTeXML itself says about a conversion, counted in the page."""

    bib_entries: int  # li.ltx_bibitem
    missing_citations: int  # .ltx_missing_citation: a \cite whose key LaTeXML could not resolve
    resolved_citations: int  # citation links that point at a bibliography entry
    error_spans: int  # .ltx_ERROR
    paragraphs: int  # p.ltx_p
    paragraphs_with_errors: int
    sections: int  # part / chapter / section / subsection / subsubsection / appendix elements
    words: int  # words of the rendered body and appendix
    titled: bool = True  # the page has a title (h1.ltx_title_document)


def degraded_reasons(signals: HtmlSignals) -> list[str]:
    """Why this conversion is degraded, one phrase per rule that holds; empty when it is sound."""
    reasons = []
    if signals.missing_citations and signals.missing_citations >= signals.resolved_citations:
        reasons.append(
            f"{signals.missing_citations} of {signals.missing_citations + signals.resolved_citations} "
            f"citations unresolved, {signals.bib_entries} bibliography entries"
        )
    if signals.paragraphs and signals.paragraphs_with_errors > MAX_ERROR_PARAGRAPH_SHARE * signals.paragraphs:
        reasons.append(
            f"conversion errors in {signals.paragraphs_with_errors} of {signals.paragraphs} paragraphs"
        )
    if signals.sections == 0 and signals.words > MIN_WORDS_WITHOUT_SECTIONS:
        reasons.append(f"no sections in {signals.words} words")
    return reasons


def failed_conversion(signals: HtmlSignals) -> str | None:
    """Why this page is a failed conversion and no paper at all (see the module docstring), or None."""
    if signals.titled or signals.sections or signals.bib_entries:
        return None
    if signals.paragraphs_with_errors < signals.paragraphs:
        return None
    return (
        f"a failed conversion: no title, no section, errors in {signals.paragraphs_with_errors} "
        f"of {signals.paragraphs} paragraphs"
    )


def count_signals(article: _Element, words: int) -> HtmlSignals:
    """Count LaTeXML's own quality marks in one pass over the elements that carry them."""
    counts: Counter[str] = Counter()
    with_errors: dict[int, _Element] = {}  # holding the element keeps its id() unique
    for element in article.iter("li", "span", "p", "section", "merror"):
        classes = class_set(element)
        if not classes:
            continue
        counts.update(classes & _SIGNAL_CLASSES)
        if "ltx_ERROR" in classes:
            paragraph = next(element.iterancestors("p"), None)
            if paragraph is not None:
                with_errors[id(paragraph)] = paragraph
    return HtmlSignals(
        bib_entries=counts["ltx_bibitem"],
        missing_citations=counts["ltx_missing_citation"],
        resolved_citations=len(article.xpath(".//cite//a[starts-with(@href, '#bib')]")),
        error_spans=counts["ltx_ERROR"],
        paragraphs=counts["ltx_p"],
        paragraphs_with_errors=len(with_errors),
        sections=sum(counts[name] for name in (*SECTIONING, "ltx_appendix")),
        words=words,
    )
