"""Where the parts of a converted paper start: the body (after the abstract), the reference list, the
appendix, and where the list ends.

Every search reads the classified blocks through one ``Layout`` (the blocks, their headings, a printed
table of contents to skip); ``sections`` assigns the parts from the boundaries found here. The
evidence each boundary rests on is described in ``sections``' docstring.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .section_blocks import (
    ABSTRACT_LABEL,
    ACK_TITLE,
    APPENDIX_TITLE,
    CONTENTS_TITLE,
    FIRST_LETTERED,
    FRONT_LINE,
    FRONT_TITLE,
    INTRO_TITLE,
    NUMBERED_TITLE,
    REF_NAMES,
    REFS_TITLE,
    SECTION_TITLE,
    STATEMENT_TITLE,
    TOC_LINE,
    is_float,
    is_prose,
    is_reference,
    is_toc_block,
    numbered_start,
    plain_first_line,
)
from .section_model import Block, TocEntry

__all__ = [
    "Layout",
    "appendix_start",
    "body_start",
    "contents_region",
    "find_heading",
    "references_end",
    "references_start",
]

_DIGITS = re.compile(r"\d+")


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@dataclass
class Layout:
    """Facts about the block list that every boundary search shares."""

    blocks: list[Block]
    headings: dict[int, str]  # block index -> heading text
    in_contents: set[int]  # blocks of a printed table of contents (or list of figures)


def contents_region(blocks: Sequence[Block], headings: dict[int, str]) -> set[int]:
    """Blocks of a printed table of contents: its title and the contents-like blocks after it."""
    region: set[int] = set()
    for i, text in headings.items():
        if not CONTENTS_TITLE.match(text):
            continue
        region.add(i)
        j = i + 1
        while j < len(blocks):
            block = blocks[j].text
            if is_toc_block(block) or (
                j in headings and j + 1 < len(blocks) and is_toc_block(blocks[j + 1].text)
            ):
                region.add(j)
                j += 1
                continue
            if j in headings and TOC_LINE.match(headings[j]):
                region.add(j)  # an entry the engine styled as a heading ("1 Introduction 3")
                j += 1
                continue
            break
    return region


def find_heading(layout: Layout, title: str, page: int, start: int = 0) -> int | None:
    """The block that prints an outline title, searched on the outline's page (1-based) first."""
    blocks = layout.blocks
    want = _fold(re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*|[IVX]+|[A-Z])\.?\s+", "", title)) or _fold(title)
    if not want:
        return None
    candidates = [i for i in range(start, len(blocks)) if blocks[i].page == page - 1]
    candidates += [i for i in range(start, len(blocks)) if blocks[i].page != page - 1]
    for i in candidates:
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if want in _fold(heading) and len(_fold(heading)) <= len(want) + 12:
            return i
    return None


def _opens_section(heading: str) -> bool:
    """A numbered section heading, or a short one such as "Introduction" (not a paper's title
    that merely starts with the word, "Introduction to tropical geometry")."""
    return bool(SECTION_TITLE.match(heading)) and (
        bool(re.match(r"^(?:\d|[IVX]+[.\s])", heading)) or len(heading.split()) <= 3
    )


@dataclass(frozen=True)
class _Abstract:
    """Where the abstract ends, and its paragraph when the converter read it after the next heading."""

    end: int
    displaced: int | None = None


def _abstract_end(layout: Layout, limit: int) -> _Abstract | None:
    """The abstract: its label (a heading, a bare line, or run into its paragraph) and paragraph.

    Searched on the first three pages, before any section heading.
    """
    blocks, headings = layout.blocks, layout.headings
    stop = min(limit, len(blocks))
    first_page = blocks[0].page if blocks else 0
    for i in range(stop):
        if blocks[i].page > first_page + 2:
            return None
        heading = headings.get(i)
        if heading is not None and i not in layout.in_contents and _opens_section(heading):
            return None
        text = blocks[i].text
        labelled = heading is not None and ABSTRACT_LABEL.match(heading)
        bare = heading is None and ABSTRACT_LABEL.match(text) and len(plain_first_line(text)) <= 12
        if labelled or (bare and "\n" not in text.strip()):
            # "## Abstract" (or a bare "Abstract" line) then its paragraph: the next text block.
            j = i + 1
            while j < stop and j not in headings and is_float(blocks[j].text):
                j += 1
            if j < stop and j not in headings:
                return _Abstract(j)
            # Two columns read out of order: "## Abstract", "## 1 Introduction", then the abstract.
            if (
                j < stop
                and SECTION_TITLE.match(headings[j])
                and j + 1 < stop
                and is_prose(blocks[j + 1].text)
            ):
                return _Abstract(i, displaced=j + 1)
            return _Abstract(i)
        if heading is None and ABSTRACT_LABEL.match(text):
            return _Abstract(i)  # "Abstract. This is ..." or "**Abstract**—The success ..." in one block
    return None


def _first_section(layout: Layout, start: int, end: int, after_abstract: bool) -> int | None:
    """The first heading in [start, end) that opens a section of the main text."""
    for i in range(start, end):
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if FRONT_TITLE.match(heading) or FRONT_LINE.match(heading) or REFS_TITLE.match(heading):
            continue
        if STATEMENT_TITLE.match(heading):
            continue  # acknowledgments and the like close a paper; they never open its main text
        if SECTION_TITLE.match(heading):
            return i
        if after_abstract and len(heading) < 120:
            return i  # any heading after the abstract ("Background", "Results", "Method")
    return None


def body_start(layout: Layout, toc: Sequence[TocEntry], end: int) -> tuple[int, int | None]:
    """Where the main text starts, and a displaced abstract paragraph (front) if there is one.

    ``end`` bounds the search (the reference list, when known).
    """
    found = _abstract_end(layout, end)
    abstract = found.end if found is not None else None
    displaced = found.displaced if found is not None else None
    search_from = abstract + 1 if abstract is not None else 0
    section = _first_section(layout, search_from, end, abstract is not None)
    if section is None:
        from_outline = _outline_body_start(layout, toc)
        if from_outline is not None and search_from <= from_outline < end:
            section = from_outline
    if abstract is None:
        if section is not None:
            return section, None
        # No abstract label and no section heading (a letter): its first paragraph is the
        # abstract, the next one opens the body.
        prose = [i for i in range(end) if i not in layout.in_contents and is_prose(layout.blocks[i].text)]
        return (prose[1] if len(prose) > 1 else 0), None
    # Prose right after the abstract (and its keyword / PACS / MSC lines), before a first heading
    # that is not an introduction: an introduction printed without a heading (letters, AMS papers).
    # Another front heading first (a second abstract, contents, a preface) means there is none.
    stop = section if section is not None else end
    more_front = any(
        FRONT_TITLE.match(h) and not STATEMENT_TITLE.match(h)
        for i, h in layout.headings.items()
        if abstract < i < stop
    )  # a second abstract, contents, a preface: what follows the abstract is still front matter
    if not more_front and (section is None or not INTRO_TITLE.match(layout.headings[section])):
        for i in range(abstract + 1, stop):
            if i not in layout.in_contents and is_prose(layout.blocks[i].text):
                return i, displaced
    return (section if section is not None else min(abstract + 1, len(layout.blocks))), displaced


def _outline_body_start(layout: Layout, toc: Sequence[TocEntry]) -> int | None:
    """The body start the PDF outline gives: its first entry that is a section, found in the text."""
    for entry in toc:
        title = entry.title.strip()
        if FRONT_TITLE.match(title) or REFS_TITLE.match(title):
            continue
        # The paper's own title as the outline root (REVTeX + hyperref) is not a section.
        is_root_title = entry is toc[0] and len(toc) > 1 and entry.page == 1
        if is_root_title and entry.level == min(e.level for e in toc) and not SECTION_TITLE.match(title):
            continue
        return find_heading(layout, title, entry.page)
    return None


def _reference_run_start(layout: Layout, start: int) -> int | None:
    """The first block opening a run of reference-shaped entries (a list printed without a title)."""
    blocks = layout.blocks
    for i in range(start, len(blocks)):
        if i in layout.in_contents or not is_reference(blocks[i].text):
            continue
        numbered = numbered_start(blocks[i].text)
        if not (numbered or REF_NAMES.match(blocks[i].text.strip())):
            continue
        # A numbered list that starts at 1 needs two more entries; an unnumbered one, three of four.
        following = [b for b in blocks[i + 1 : i + 10] if not is_float(b.text)][: 2 if numbered else 4]
        needed = 2 if numbered else 3
        if sum(is_reference(b.text) for b in following) >= needed:
            return i
    return None


def references_start(layout: Layout, toc: Sequence[TocEntry], start: int) -> int | None:
    blocks = layout.blocks
    for i in range(start, len(blocks)):
        heading = layout.headings.get(i)
        if heading is not None and i not in layout.in_contents and REFS_TITLE.match(heading):
            return i
    # An outline entry "References" with no printed heading (REVTeX): the list starts on that page.
    for entry in toc:
        if REFS_TITLE.match(entry.title.strip()):
            for i in range(start, len(blocks)):
                if blocks[i].page >= entry.page - 1 and numbered_start(blocks[i].text):
                    return i
    return _reference_run_start(layout, start)


def appendix_start(layout: Layout, start: int, limit: int) -> int | None:
    """The first appendix heading: one that says so, or the first lettered section after numbered ones.

    Many templates (ACL, NeurIPS, ICML) letter their appendices without the word ("A Alternative
    Prompts for ..."), and some print them before the references: a section lettered "A" (or
    "A.1") after sections numbered 1, 2, ... opens the appendix wherever it stands.
    """
    numbered = False
    for i in range(start, limit):
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if APPENDIX_TITLE.match(heading) or (numbered and FIRST_LETTERED.match(heading)):
            return i
        numbered = numbered or bool(NUMBERED_TITLE.match(heading))
    return None


def references_end(layout: Layout, refs_start: int) -> int:
    """The first heading after the list that opens something else (not a repeat of the list's title)."""
    title = _fold(_DIGITS.sub("", layout.headings.get(refs_start, "")))
    for i in range(refs_start + 1, len(layout.blocks)):
        heading = layout.headings.get(i)
        if heading is None or ACK_TITLE.match(heading):
            continue
        if title and _fold(_DIGITS.sub("", heading)) == title:
            continue  # a running head that repeats the list's title on each of its pages
        if REFS_TITLE.match(heading) and not title:
            continue
        return i
    return len(layout.blocks)
