"""The PDF route's headings: the blocks the splitter reads as headings, placed in the parts' text.

The splitter classifies every block once (``section_blocks.heading_text``: ``#`` lines, bold
lines, an unstyled "References"); those blocks, less a printed table of contents, are the
paper's headings. Their levels come from the PDF's own outline (bookmarks: ``hyperref`` writes one
from the LaTeX sectioning) where an entry is found in the text; a PDF without an outline gives
none, and the outline reads the nesting from the printed numbers (see ``outline``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .headings import BLOCK_SEPARATOR, PARTS, Heading, HeadingLine, locate
from .section_bounds import Layout, find_heading
from .section_model import TocEntry

__all__ = ["outline_levels", "part_texts"]


def outline_levels(layout: Layout, toc: Sequence[TocEntry]) -> dict[int, int]:
    """Block index -> the level (1 = the outline's top) of each outline entry found in the text.

    Entries are found in order, each after the last one found, so a title printed twice (in a
    running head, in the abstract) is not taken for a later section's heading.
    """
    if not toc:
        return {}
    top = min(entry.level for entry in toc)
    levels: dict[int, int] = {}
    after = 0
    for entry in toc:
        found = find_heading(layout, entry.title.strip(), entry.page, after)
        if found is None or found in levels:
            continue
        levels[found] = entry.level - top + 1
        after = found + 1
    return levels


_MARKS = re.compile(r"^#{1,6}[ \t]+|[ \t]+#+[ \t]*$")


def _line_title(block: str) -> str:
    """A heading block's first line without its ``#`` marks (emphasis is the outline's to drop)."""
    return _MARKS.sub("", block.split("\n", 1)[0]).strip()


def part_texts(
    layout: Layout, parts: Sequence[str], levels: dict[int, int]
) -> tuple[dict[str, str], tuple[Heading, ...]]:
    """Each part's markdown (its blocks in order, joined) and the headings of the sectioned parts."""
    front = [b.text for b, part in zip(layout.blocks, parts, strict=True) if part == "front"]
    texts = {"front": BLOCK_SEPARATOR.join(front).strip()}
    found: list[Heading] = []
    for name in PARTS:
        blocks: list[str] = []
        for index, (block, part) in enumerate(zip(layout.blocks, parts, strict=True)):
            if part != name:
                continue
            if index in layout.headings and index not in layout.in_contents:
                blocks.append(HeadingLine(block.text, _line_title(block.text), None, levels.get(index, 0)))
            else:
                blocks.append(block.text)
        joined, headings = locate(name, blocks)
        texts[name] = joined.strip()
        lead = len(joined) - len(joined.lstrip())  # the part is stripped: its offsets move with it
        found.extend(Heading(h.part, h.start - lead, h.title, h.number, h.depth) for h in headings)
    return texts, tuple(h for h in found if h.start >= 0)
