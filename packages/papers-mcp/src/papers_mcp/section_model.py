"""The records the PDF splitter reads and returns: the converted document, its outline, the four parts.

``sections`` splits a ``ConvertedDocument`` into ``Sections``; a ``Block`` is one paragraph of it
with its page, the unit every classifier and boundary search works on.
"""

from __future__ import annotations

from dataclasses import dataclass

from .headings import Heading

__all__ = ["Block", "ConvertedDocument", "Sections", "TocEntry"]


@dataclass(frozen=True)
class TocEntry:
    """One PDF outline entry (``doc.get_toc()``): level, title, 1-based page."""

    level: int
    title: str
    page: int


@dataclass(frozen=True)
class ConvertedDocument:
    """What ``convert`` hands to the splitter: markdown per page and the PDF outline."""

    pages_md: tuple[str, ...]
    toc: tuple[TocEntry, ...]
    pages: int


@dataclass(frozen=True)
class Sections:
    """The four parts of a paper, as markdown, and the headings found in them."""

    front: str
    body: str
    references: str
    appendix: str
    headings: tuple[Heading, ...] = ()


@dataclass(frozen=True)
class Block:
    """A markdown paragraph (text between blank lines) and the 0-based page it came from."""

    text: str
    page: int
