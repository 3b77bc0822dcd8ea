"""The degraded-conversion rule (html_quality) at its thresholds, and on the shared pages' own marks.

Expected values: the rule as written in html_quality's docstring and the README, and the counts of
shared/fixtures/arxiv-html/MANIFEST.md (bibliography entries, missing citations, ltx_ERROR spans).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from papers_mcp.html_quality import HtmlSignals, degraded_reasons
from papers_mcp.latexml import parse_page
from support.required import missing

PAGES = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "arxiv-html" / "pages"


def signals(**changes: int) -> HtmlSignals:
    sound = {
        "bib_entries": 30,
        "missing_citations": 0,
        "resolved_citations": 40,
        "error_spans": 0,
        "paragraphs": 90,
        "paragraphs_with_errors": 0,
        "sections": 8,
        "words": 6000,
    }
    return HtmlSignals(**{**sound, **changes})


def test_a_sound_conversion_is_not_degraded() -> None:
    assert degraded_reasons(signals()) == []


def test_unresolved_citations_degrade_once_they_are_the_majority() -> None:
    assert degraded_reasons(signals(missing_citations=2, resolved_citations=40)) == []
    assert degraded_reasons(signals(missing_citations=39, resolved_citations=40)) == []
    assert degraded_reasons(signals(missing_citations=40, resolved_citations=40))
    assert degraded_reasons(signals(missing_citations=65, resolved_citations=0, bib_entries=0))


def test_error_spans_degrade_past_a_third_of_the_paragraphs() -> None:
    assert degraded_reasons(signals(error_spans=40, paragraphs_with_errors=30)) == []  # exactly a third
    assert degraded_reasons(signals(error_spans=40, paragraphs_with_errors=31))


def test_a_long_text_without_sections_is_degraded_and_a_letter_is_not() -> None:
    assert degraded_reasons(signals(sections=0, words=3750)) == []  # a Physical Review Letter
    assert degraded_reasons(signals(sections=0, words=7500)) == []
    assert degraded_reasons(signals(sections=0, words=7501))
    assert degraded_reasons(signals(sections=1, words=50_000)) == []


# MANIFEST.md: bib entries, missing citations, ltx_ERROR spans; and the one page it calls DEGRADED.
MANIFEST = {
    "2604.16990v1.html": (9, 0, 0, False),
    "2604.06120v1.html": (19, 0, 0, False),
    "2604.09739v1.html": (55, 0, 32, False),  # "a conversion with errors that is still readable"
    "2604.11951v1.html": (0, 65, 0, True),
    "2604.22394v2.html": (28, 0, 0, False),
    "2508.08468v6.html": (13, 0, 0, False),
    "ar5iv_2303.17564.html": (141, 0, 0, False),
}


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_the_shared_pages_signals_match_their_manifest(name: str) -> None:
    if not PAGES.is_dir():
        missing("shared/fixtures/arxiv-html is not on this machine")
    bib, unresolved, errors, degraded = MANIFEST[name]
    page = parse_page((PAGES / name).read_bytes(), "html")
    assert (page.signals.bib_entries, page.signals.missing_citations, page.signals.error_spans) == (
        bib,
        unresolved,
        errors,
    )
    assert bool(degraded_reasons(page.signals)) is degraded


@pytest.mark.parametrize(
    "page",
    [
        b"",  # an empty 200 (a proxy, a truncated answer)
        b"   \n",
        b"<html><body>No HTML is available for this paper.</body></html>",  # a stub page
        b'<html><div class="ltx_page_main">No content available</div></html>',  # ar5iv's page for an unconverted paper
    ],
)
def test_a_page_that_is_not_a_latexml_rendering_is_refused_as_such(page: bytes) -> None:
    """The route then tries the next source (ar5iv, the PDF), as for a 404: never a failed call."""
    with pytest.raises(ValueError, match=r"empty|no LaTeXML document"):
        parse_page(page, "html")
