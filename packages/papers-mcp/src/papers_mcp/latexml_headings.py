"""What a LaTeXML page says of a heading: its number (``span.ltx_tag``) and its nesting.

LaTeXML prints a section's number in an ``ltx_tag`` span inside the heading ("3.2 ", "Appendix A ",
"II ") and nests each ``section`` element in its parent's, so both are read from the page rather
than guessed from the heading's text (only an untagged heading's number is read from its words). The renderer writes the heading's markdown line as a
``headings.HeadingLine`` carrying them.
"""

from __future__ import annotations

import re

from lxml.etree import _Element

from .headings import HeadingLine
from .latexml_nodes import class_set

__all__ = ["heading_line", "nesting", "tag_number"]

_TAG_CLASS = "ltx_tag"
# "Appendix A", "Chapter 3", "Part II", "§3", "IV-A": the number is the last word, its trailing dot dropped.
_NUMBER = re.compile(r"([0-9A-Za-z]+(?:[.\-][0-9A-Za-z]+)*)[.:)]?\s*$")


def tag_number(heading: _Element) -> str | None:
    """The number a heading's ``ltx_tag`` prints ("3.2", "A", "II"); None when it has no tag.

    An untagged heading may still print a number its author typed ("1. Introduction" in a
    template that numbers nothing itself): the outline reads that one from the title.
    """
    for span in heading.iter("span"):
        if _TAG_CLASS in class_set(span) and _own(span, heading):
            text = " ".join("".join(span.itertext()).split())
            match = _NUMBER.search(text)
            return match[1].replace("-", ".") if match else ""  # IEEE's "IV-A" is "IV.A"
    return None


def _own(span: _Element, heading: _Element) -> bool:
    """Whether a tag belongs to the heading itself, not to a footnote or a reference inside it."""
    for ancestor in span.iterancestors():
        if ancestor is heading:
            return True
        if ancestor.tag == "a" or "ltx_note" in class_set(ancestor):
            return False
    return True


def nesting(heading: _Element) -> int:
    """How many ``section`` elements enclose the heading (1 for a top-level section)."""
    return sum(1 for _ in heading.iterancestors("section"))


def heading_line(heading: _Element, title: str) -> HeadingLine:
    """The heading's markdown line (``#`` per level of nesting, at least two, at most six)."""
    depth = nesting(heading)
    hashes = "#" * max(2, min(6, 1 + depth))
    return HeadingLine(f"{hashes} {title}", title, tag_number(heading), depth)
