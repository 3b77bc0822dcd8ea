"""Read a citation's DOI, and compare what the citation says (title, author, year) with its registered record.

A wrong DOI is the commonest way a fabricated or garbled citation still "resolves": the
DOI exists but belongs to another work. Titles are compared after folding case, accents,
markup, punctuation and ``&``/``and``, and with subtitles optional (``Main: subtitle`` matches
``Main``); the score is rapidfuzz's normalised Indel similarity of the best-matching pair of
forms. ``TITLE_MATCH_THRESHOLD`` was measured on real title pairs (``tests/eval/eval_doi_titles.py``;
the README gives the figures). Authors match when any registered family name (or an
organisation's name) occurs in the given author string; years when they differ by at most one.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable, Sequence
from urllib.parse import unquote, urlsplit

from rapidfuzz.distance import Indel

__all__ = [
    "CONCERN_TYPES",
    "CORRECTION_TYPES",
    "RETRACTED_MARKER",
    "RETRACTION_TYPES",
    "TITLE_MATCH_THRESHOLD",
    "author_matches",
    "doi_from_url",
    "fold",
    "normalise_doi",
    "title_forms",
    "title_score",
    "year_of",
    "years_match",
]

TITLE_MATCH_THRESHOLD = 0.80
"""Below this score a given title is reported as not the registered one (see the module docstring)."""

_MARKUP = re.compile(r"<[^>]+>")
RETRACTED_MARKER = re.compile(
    r"^\s*(?:retracted|withdrawn)(?:\s+(?:article|paper|chapter))?\s*[:.\-–—]\s*", re.IGNORECASE
)
"""Publishers mark a retracted work's title ("RETRACTED: ...", "Retracted article: ...")."""
RETRACTION_TYPES = frozenset({"retraction", "partial_retraction", "withdrawal", "removal"})
"""Crossref update types that take a work out of the record (Crossmark's vocabulary)."""
CORRECTION_TYPES = frozenset({"correction", "corrigendum", "erratum"})
CONCERN_TYPES = frozenset({"expression_of_concern"})
_SUBTITLE = re.compile(r"\s*(?::|\?|!|\s[-–—]\s|—|\.\s+(?=[A-Z]))\s*")
MIN_MAIN_WORDS = 2
"""A main title shorter than this ("Gout: ...") is too generic to stand for the whole title."""
_GERMAN = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
_YEAR = re.compile(r"(?<!\d)(1[5-9]\d\d|20\d\d)(?!\d)")
DOI_RE = re.compile(r"^10\.\d{4,9}/\S+$")
MAX_DOI_CHARS = 500
DOI_HOSTS = {"doi.org", "dx.doi.org", "www.doi.org"}


def normalise_doi(raw: str) -> str | None:
    """The bare DOI (``10.x/y``) from a DOI, a ``doi:`` form or a doi.org URL; None if it is not one.

    A URL's path is percent-decoded (``10.1000%2F182`` is ``10.1000/182``). Whitespace and
    control characters are never part of a DOI.
    """
    text = raw.strip()
    lowered = text.lower()
    if lowered.startswith("doi:"):
        text = text[4:].strip()
    elif lowered.startswith(("http://", "https://")):
        found = doi_from_url(text)
        if found is None:
            return None
        text = found
    if (
        len(text) > MAX_DOI_CHARS
        or not DOI_RE.match(text)
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in text)
    ):
        return None
    return text


def doi_from_url(url: str) -> str | None:
    """The DOI in a ``doi.org`` / ``dx.doi.org`` URL, or None for any other URL."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    if parts.scheme.lower() not in {"http", "https"} or (parts.hostname or "").lower() not in DOI_HOSTS:
        return None
    path = unquote(parts.path).lstrip("/")
    return path or None


def fold(text: str) -> str:
    """Lower case, no accents, no markup or punctuation, ``&`` as ``and``, single spaces."""
    text = html.unescape(_MARKUP.sub(" ", text))
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold()
    text = text.replace("&", " and ")
    text = re.sub(r"[^\w\s]|_", " ", text)
    return " ".join(text.split())


def title_forms(title: str) -> tuple[str, str | None]:
    """The folded title and, when it has a subtitle, its folded main title; a "RETRACTED:" marker is dropped.

    A subtitle follows ``:``, ``?``, ``!``, a spaced dash, an em dash or a full stop.
    """
    raw = RETRACTED_MARKER.sub("", html.unescape(_MARKUP.sub(" ", title)))
    parts = _SUBTITLE.split(raw, maxsplit=1)
    main = fold(parts[0]) if len(parts) == 2 and fold(parts[1]) else None
    if main is not None and len(main.split()) < MIN_MAIN_WORDS:
        main = None
    return fold(raw), main


def title_score(given: str, registered: str) -> float:
    """0-1: how well ``given`` names the work titled ``registered`` (1 = the same after folding).

    The best of: whole against whole, and — when only one side has a subtitle — its main title
    against the other whole. Two different subtitles under one main title are different works
    ("Industrial ecosystems and food webs: an expansion ..." is not "...: a mass flow analysis").
    """
    full_a, main_a = title_forms(given)
    full_b, main_b = title_forms(registered)
    if not full_a or not full_b:
        return 0.0
    best = Indel.normalized_similarity(full_a, full_b)
    if main_a and not main_b:
        best = max(best, Indel.normalized_similarity(main_a, full_b))
    if main_b and not main_a:
        best = max(best, Indel.normalized_similarity(full_a, main_b))
    return round(best, 3)


def _name_tokens(text: str) -> list[str]:
    return fold(text.translate(_GERMAN)).split() + [t for t in fold(text).split()]


def author_matches(given: str, registered: Sequence[str]) -> bool | None:
    """Whether any registered family (or organisation) name appears in ``given``; None if nothing to compare.

    ``Müller`` also matches ``Mueller``; particles count (``van der Berg`` must appear whole).
    """
    if not given.strip() or not registered:
        return None
    words = set(_name_tokens(given))
    for name in registered:
        for form in {fold(name), fold(name.translate(_GERMAN))}:
            tokens = form.split()
            if tokens and all(t in words for t in tokens):
                return True
    return False


def year_of(date: str) -> int | None:
    """The first plausible year (1500-2099) in a date string."""
    found = _YEAR.search(date)
    return int(found.group(1)) if found else None


def years_match(year: int, registered: Iterable[int]) -> bool | None:
    """True when ``year`` is within one of a registered year (print and online years differ)."""
    years = list(registered)
    if not years:
        return None
    return min(abs(year - y) for y in years) <= 1
