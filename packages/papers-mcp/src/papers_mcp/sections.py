"""Split a converted paper into front matter, body, references and appendix."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ConvertedDocument", "Sections", "TocEntry", "split_document"]


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
    front: str
    body: str
    references: str
    appendix: str


_REFS = re.compile(r"^#+\s*(?:\d+\.?\s*)?\**(references|bibliography)\**\s*$", re.IGNORECASE | re.MULTILINE)
_INTRO = re.compile(r"^#+\s*.*(introduction)", re.IGNORECASE | re.MULTILINE)
_APPX = re.compile(r"^#+\s*\**(appendix|appendices)", re.IGNORECASE | re.MULTILINE)


def split_document(document: ConvertedDocument) -> Sections:
    """Naive first version: split at Introduction, References and Appendix headings."""
    text = "\n\n".join(document.pages_md)
    intro = _INTRO.search(text)
    start = intro.start() if intro else 0
    refs = _REFS.search(text, start)
    end = refs.start() if refs else len(text)
    appx = _APPX.search(text, end)
    refs_end = appx.start() if appx else len(text)
    return Sections(
        front=text[:start].strip(),
        body=text[start:end].strip(),
        references=text[end:refs_end].strip() if refs else "",
        appendix=text[refs_end:].strip() if appx else "",
    )
