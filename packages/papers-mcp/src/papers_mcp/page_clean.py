"""A converted PDF's pages, cleaned before they are split: text normalised, page furniture removed.

What is removed is documented and checkable (``CleanedDocument.removed``): page numbers, running heads
and feet (a short line at the top or bottom of a page whose text, digits aside, recurs at the edges of
several pages), and arXiv's sideways stamp. Ligatures and TeX's detached accents are folded into plain
letters. ``sections`` splits what is kept.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["CleanedDocument", "RemovedBlock", "clean_document", "clean_pages"]

_HEADING = re.compile(r"^#{1,6}\s+\S")

# The sideways stamp arXiv prints in the left margin: "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017",
# "arXiv:quant-ph/9508027v2 25 Jan 1996" (old ids have no [category]).
_ARXIV_STAMP = re.compile(
    r"arXiv:\s*(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})v\d+\s*(?:\[[^\]\n]{1,40}\]\s*)?"
    r"\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}"
)
_BLANK_SPLIT = re.compile(r"\n[ \t]*\n+")
_MD_NOISE = re.compile(r"[#*_`>|\-\s]+")
_DIGITS = re.compile(r"\d+")
# "12", "Page 12", "**12**", and the roman numbers of a thesis's front pages ("iv").
_PAGE_NUMBER = re.compile(r"^[#*_\s]*(?:page\s+)?(?:\d{1,4}|[ivxlc]{1,7})[*_\s]*$", re.IGNORECASE)
_EDGE_BLOCKS = 3  # running heads and feet live in the first and last few blocks of a page
_EDGE_MAX_CHARS = 200
_HEAD_MIN_PAGES, _HEAD_MAX_PAGES = 2, 5  # a running head recurs on this many pages at least (scaled)

# TeX fonts without precomposed glyphs print an accent as a spacing character *before* its letter
# ("L´opez", "Teˇsanovi´c", "Introdu¸c˜ao", "˚Akesson", "F´ısica" with a dotless i); NFKC alone would
# leave "L ́opez". Rejoin them as combining marks first. (The grave accent is left alone: a backtick
# is also markdown's code mark.)
_SPACING_ACCENTS = {
    "´": "\u0301",
    "ˇ": "\u030c",
    "¨": "\u0308",
    "˜": "\u0303",
    "ˆ": "\u0302",
    "¸": "\u0327",
    "˚": "\u030a",
    "˘": "\u0306",
    "˙": "\u0307",
}
_ACCENT_BEFORE_LETTER = re.compile("([´ˇ¨˜ˆ¸˚˘˙])([A-Za-zıȷ])")
_DOTLESS_WITH_MARK = re.compile("([ıȷ])([\u0300-\u036f])")

# pymupdf4llm puts a space after every emphasis span: "**B** idirectional", "**59** , 803".
_BOLD_INITIAL_SPACE = re.compile(r"(\*\*[A-Za-z]\*\*) (?=[a-z])")
_SPACE_BEFORE_PUNCT = re.compile(r"(\*\*|(?<=\w)_) (?=[,.;:)])")


@dataclass(frozen=True)
class RemovedBlock:
    """A block ``clean_document`` dropped, where, and why: "page number" or "running head"."""

    text: str
    page: int
    reason: str


@dataclass(frozen=True)
class CleanedDocument:
    """Blocks kept per page, and every block removed with its reason."""

    pages: list[list[str]]
    removed: list[RemovedBlock] = field(default_factory=list)


# An underscore that the PDF draws as a rule under monospace text ("TARGET_ID") reaches the converter as
# a line through the letters after it, which it writes as a strikethrough splitting the word
# ("TARGET ~~I~~ D"). A struck-out run of one to three letters inside a word is never a deletion an author
# meant (a real strikethrough covers words, with spaces around it): it is that underscore.
_UNDERSCORE_AS_STRIKE = re.compile(r"(?<=[A-Za-z0-9]) ?~~([A-Za-z0-9]{1,3})~~ ?(?=[A-Za-z0-9])")


def _normalize_text(text: str) -> str:
    """Fold ligatures (ﬁ, ﬂ, ﬀ, ﬃ) and detached accents into plain letters; drop the arXiv stamp; an
    underscore read as a strikethrough is an underscore again."""
    text = _ACCENT_BEFORE_LETTER.sub(lambda m: m.group(2) + _SPACING_ACCENTS[m.group(1)], text)
    text = _DOTLESS_WITH_MARK.sub(lambda m: {"ı": "i", "ȷ": "j"}[m.group(1)] + m.group(2), text)
    text = unicodedata.normalize("NFKC", text)
    text = _BOLD_INITIAL_SPACE.sub(r"\1", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    text = _UNDERSCORE_AS_STRIKE.sub(r"_\1", text)
    return _ARXIV_STAMP.sub("", text)


def _edge_key(block: str) -> str:
    """A block's identity as a running head: no markup, no digits (page numbers change)."""
    return _DIGITS.sub("", _MD_NOISE.sub(" ", block)).strip().lower()


def _page_blocks(page_md: str) -> list[str]:
    return [b.strip() for b in _BLANK_SPLIT.split(page_md) if b.strip()]


def _edges(blocks: list[str]) -> list[str]:
    if len(blocks) <= 2 * _EDGE_BLOCKS:
        return list(blocks)
    return blocks[:_EDGE_BLOCKS] + blocks[-_EDGE_BLOCKS:]


def _head_threshold(pages: int) -> int:
    """On how many pages a short edge line must recur to be a running head: 2, up to 5 in long papers.

    Capped so that a chapter's own running head in a thesis (a few pages long) still counts.
    """
    return max(_HEAD_MIN_PAGES, min(_HEAD_MAX_PAGES, (pages - 1) // 4))


def _outermost(blocks: list[str]) -> set[int]:
    """Ids of the first and last blocks of a page that are not bare page numbers."""
    text = [b for b in blocks if not _PAGE_NUMBER.match(b)]
    return {id(text[0]), id(text[-1])} if text else set()


def _head_candidates(blocks: list[str]) -> list[str]:
    """Blocks of a page that may be a running head: short plain blocks near an edge, and a heading
    only at the very top or bottom (the engine sometimes styles a running head as a heading; a
    section title a few blocks down the page never is one)."""
    outer = _outermost(blocks)
    return [
        b
        for b in _edges(blocks)
        if len(b) < _EDGE_MAX_CHARS
        and (not _HEADING.match(b) or id(b) in outer)
        and not _PAGE_NUMBER.match(b)
    ]


def clean_document(pages_md: Sequence[str]) -> CleanedDocument:
    """Normalise each page, then drop page numbers and running heads and feet, recording each.

    A running head is a short block near the top or bottom of a page whose text, digits ignored,
    recurs at the edges of several pages (``_head_threshold``). Page 1 keeps such blocks except
    bare page numbers, because a paper's title is often also its running head.
    """
    pages = [_page_blocks(_normalize_text(md)) for md in pages_md]
    plain: Counter[str] = Counter()
    styled: Counter[str] = Counter()
    first_seen: dict[str, int] = {}  # key -> id of its first occurrence, in page order
    for blocks in pages[1:]:
        candidates = _head_candidates(blocks)
        plain.update({k for b in candidates if not _HEADING.match(b) and (k := _edge_key(b))})
        styled.update({k for b in candidates if _HEADING.match(b) and (k := _edge_key(b))})
        for b in candidates:
            first_seen.setdefault(_edge_key(b), id(b))
    threshold = _head_threshold(len(pages))
    # A line is a running head when it recurs as plain text; a heading whose text only recurs once
    # elsewhere (a contents line "1 Introduction 5" and the chapter title) is a real heading.
    repeated = {key for key, n in plain.items() if n >= threshold}
    repeated |= {key for key, n in styled.items() if n >= threshold}
    kept_pages: list[list[str]] = []
    removed: list[RemovedBlock] = []
    for index, blocks in enumerate(pages):
        edge_ids = {id(b) for b in _edges(blocks)}
        head_ids = {id(b) for b in _head_candidates(blocks)} if index > 0 else set()
        kept = []
        for block in blocks:
            if id(block) in edge_ids and _PAGE_NUMBER.match(block):
                removed.append(RemovedBlock(block, index, "page number"))
            elif (
                id(block) in head_ids
                and _edge_key(block) in repeated
                # A section title at the top of its first page, then repeated as the running head
                # of the pages after it ("A The ATLAS Collaboration"): the title itself stays.
                and not (_HEADING.match(block) and first_seen.get(_edge_key(block)) == id(block))
            ):
                removed.append(RemovedBlock(block, index, "running head"))
            else:
                kept.append(block)
        kept_pages.append(kept)
    return CleanedDocument(pages=kept_pages, removed=removed)


def clean_pages(pages_md: Sequence[str]) -> list[list[str]]:
    """The blocks ``clean_document`` keeps, per page."""
    return clean_document(pages_md).pages
