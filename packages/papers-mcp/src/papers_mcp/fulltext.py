"""The full text of a paper: PDF -> markdown -> front / body / references / appendix.

This is the public entry point the server and the local library use. It imports no
PyMuPDF itself (``convert`` does, lazily), so importing it keeps server start-up fast.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from . import convert, sections
from .headings import Heading, headings_from_data

__all__ = [
    "EXTRACTOR_VERSION",
    "EXTRACTOR_VERSIONS",
    "SOURCES",
    "PaperText",
    "extract_paper_text",
    "paper_text",
]

# The one table of extractor versions, per source: bump a route's version whenever its text for the
# same paper changes; the local library and the fleet key cached text by it, so old text is re-made.
EXTRACTOR_VERSIONS = {"html": "3", "ar5iv": "3", "pdf": "6"}
EXTRACTOR_VERSION = EXTRACTOR_VERSIONS["pdf"]  # the PDF route's (its historical name)

_TEXT_FIELDS = ("front", "body", "references", "appendix")

# Where a paper's text came from, and how an answer's header names it.
SOURCES = {"html": "arXiv HTML (LaTeXML)", "ar5iv": "ar5iv HTML", "pdf": "PDF (pymupdf4llm)"}


@dataclass(frozen=True)
class PaperText:
    """A paper's markdown, split so an agent can read only the part it needs."""

    front: str  # what precedes the main text: title, authors, abstract
    body: str  # first section after the abstract up to the references; no references, no appendix
    references: str  # the reference list ("" when the paper has none)
    appendix: str  # appendix sections only ("" when none); also material after the references
    pages: int  # PDF pages; 0 for a text read from HTML, which has none
    source: str = "pdf"  # a key of SOURCES
    # The headings the route found (``headings``), the outline's structure; None for a text made
    # without a route (by hand), whose outline is read from its markdown headings.
    headings: tuple[Heading, ...] | None = None

    @property
    def source_label(self) -> str:
        """The source as the answer's header names it: ``arXiv HTML (LaTeXML)``, ``PDF (pymupdf4llm)``..."""
        return SOURCES[self.source]

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict, the form the local library stores."""
        data: dict[str, object] = {name: getattr(self, name) for name in _TEXT_FIELDS}
        data.update(pages=self.pages, source=self.source)
        data["headings"] = None if self.headings is None else [h.to_dict() for h in self.headings]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> PaperText:
        """Rebuild from ``to_dict`` output; raises ``ValueError`` on a malformed mapping (a corrupt cache)."""
        texts: dict[str, str] = {}
        for name in _TEXT_FIELDS:
            value = data.get(name)
            if not isinstance(value, str):
                raise ValueError(f"PaperText field {name!r} must be a string, got {type(value).__name__}")
            texts[name] = value
        pages = data.get("pages")
        if not isinstance(pages, int) or isinstance(pages, bool) or pages < 0:
            raise ValueError(f"PaperText field 'pages' must be a non-negative int, got {pages!r}")
        source = data.get("source", "pdf")
        if source not in SOURCES:
            raise ValueError(f"PaperText field 'source' must be one of {sorted(SOURCES)}, got {source!r}")
        headings = headings_from_data(data.get("headings"), texts)
        return cls(pages=pages, source=str(source), headings=headings, **texts)


def extract_paper_text(
    pdf_path: Path, progress: Callable[[int, int], None] | None = None, *, workers: int = 1
) -> PaperText:
    """Convert a born-digital PDF and split it into front, body, references and appendix.

    Synchronous and CPU-bound: the server calls it in a worker thread. ``progress(done_pages,
    total_pages)`` is called from that thread as pages are converted, if given. ``workers``
    processes convert pages at once (this one included); the text does not depend on it.

    Raises:
        ToolFailure: DATA_FORMAT_ERROR when the file is not a readable PDF (not a PDF,
            truncated, encrypted, zero pages). Nothing else is raised for a bad file.
    """
    return paper_text(convert.convert_pdf(pdf_path, progress, workers=workers))


def paper_text(document: sections.ConvertedDocument) -> PaperText:
    """Split a converted PDF into the four parts (``extract_paper_text`` without the conversion)."""
    parts = sections.split_document(document)
    return PaperText(
        front=parts.front,
        body=parts.body,
        references=parts.references,
        appendix=parts.appendix,
        pages=document.pages,
        headings=parts.headings,
    )
