"""The headings a route found in a paper, kept with its text so the outline is read from structure.

A route knows more about a heading than its markdown line says: LaTeXML nests each heading in its
``section`` elements and prints its number in an ``ltx_tag``; the PDF splitter decides which blocks
are headings (``#`` lines and bold lines alike) and the PDF's own outline (bookmarks) may give their
levels. Each route records that here as it writes the text, ``PaperText.headings`` keeps it (and the
library stores it), and ``outline.build_outline`` builds the section tree from it, so the tree does
not depend on re-reading the markdown with patterns.

``HeadingLine`` is how a renderer hands a heading on without changing its types: a markdown block
(a ``str``) that remembers what the route knew; ``locate`` turns a part's blocks into ``Heading``
records with offsets once the part is joined.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "BLOCK_SEPARATOR",
    "PARTS",
    "Heading",
    "HeadingLine",
    "Part",
    "headings_from_data",
    "in_part",
    "locate",
]

Part = Literal["body", "references", "appendix"]
PARTS: tuple[Part, ...] = ("body", "references", "appendix")

BLOCK_SEPARATOR = "\n\n"  # how every route joins a part's blocks


@dataclass(frozen=True)
class Heading:
    """One heading of a part, as the route found it.

    ``start`` is the offset of the heading's line in the part's markdown. ``number`` is the number
    the source marks ("3.2", "A", "II"; "" when it marks none), or None when the source does not
    mark numbers apart from the title (the PDF, an untagged LaTeXML heading): the outline then reads
    it from the title. ``depth`` is the nesting the source gives (1 = a top-level section of the
    part), 0 when it gives none; a heading with a depth is one the source is sure of.
    """

    part: Part
    start: int
    title: str
    number: str | None = None
    depth: int = 0

    def to_dict(self) -> dict[str, object]:
        return {
            "part": self.part,
            "start": self.start,
            "title": self.title,
            "number": self.number,
            "depth": self.depth,
        }


class HeadingLine(str):
    """A heading's markdown block that carries what the route knew of it (see ``Heading``)."""

    heading_text: str
    number: str | None
    depth: int

    def __new__(cls, markdown: str, title: str, number: str | None = None, depth: int = 0) -> HeadingLine:
        line = super().__new__(cls, markdown)
        line.heading_text = title
        line.number = number
        line.depth = depth
        return line


def locate(part: Part, blocks: Sequence[str]) -> tuple[str, list[Heading]]:
    """A part's markdown (its blocks joined, as every route joins them) and the headings among them."""
    headings: list[Heading] = []
    offset = 0
    for block in blocks:
        if isinstance(block, HeadingLine):
            headings.append(Heading(part, offset, block.heading_text, block.number, block.depth))
        offset += len(block) + len(BLOCK_SEPARATOR)
    return BLOCK_SEPARATOR.join(blocks), headings


def _int(item: Mapping[str, object], name: str) -> int:
    value = item.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"a heading's {name!r} must be an int, got {value!r}")
    return value


def _str(item: Mapping[str, object], name: str) -> str:
    value = item.get(name)
    if not isinstance(value, str):
        raise ValueError(f"a heading's {name!r} must be a string, got {value!r}")
    return value


def headings_from_data(data: object, texts: Mapping[str, str]) -> tuple[Heading, ...] | None:
    """``PaperText.headings`` from its stored form; raises ``ValueError`` when it is malformed.

    None stays None (text from before headings were kept, or built by hand); every heading must
    start inside its part's text.
    """
    if data is None:
        return None
    if not isinstance(data, list | tuple):
        raise ValueError(f"PaperText field 'headings' must be a list, got {type(data).__name__}")
    out: list[Heading] = []
    for item in data:
        if not isinstance(item, Mapping):
            raise ValueError("each of PaperText's headings must be a mapping")
        part = next((p for p in PARTS if p == item.get("part")), None)
        if part is None:
            raise ValueError(f"a heading's part must be one of {list(PARTS)}, got {item.get('part')!r}")
        number = None if item.get("number") is None else _str(item, "number")
        heading = Heading(part, _int(item, "start"), _str(item, "title"), number, _int(item, "depth"))
        if not 0 <= heading.start < len(texts[heading.part]) or heading.depth < 0:
            raise ValueError(f"a heading lies outside its part: {heading}")
        out.append(heading)
    return tuple(out)


def in_part(headings: Iterable[Heading], part: Part) -> list[Heading]:
    """The headings of one part, in reading order."""
    return sorted((h for h in headings if h.part == part), key=lambda h: h.start)
