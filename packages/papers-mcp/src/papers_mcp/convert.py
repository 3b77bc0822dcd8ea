"""PDF -> per-page markdown with pymupdf4llm, plus the PDF outline.

PyMuPDF and pymupdf4llm are imported inside the functions: importing them costs about a
second, which the server should not pay at start-up or for tools that never read a PDF.

Engine: pymupdf4llm's layout engine (``use_layout(True)``), chosen over the older rule-based one
on the 12 fixture papers (README, "Full-text extraction"): it finds section headings in REVTeX
and emulateapj papers where the old engine finds none, and it was not slower. OCR is off (the
papers are born-digital). Running headers/footers are kept here and removed by ``sections``,
because the engine's own header filter also drops paper titles.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from mcp_shared import ErrorCode, ToolFailure

from .sections import ConvertedDocument, TocEntry

__all__ = ["PAGES_PER_CALL", "convert_pdf", "markdown_options"]

logger = logging.getLogger(__name__)

# Pages converted per pymupdf4llm call: small enough for useful progress, large enough that the
# per-call set-up stays negligible (measured in tests/bench/bench_papers_convert.py).
PAGES_PER_CALL = 8

_PDF_MAGIC = b"%PDF-"
_EOF_MARKER = b"%%EOF"


def markdown_options() -> dict[str, object]:
    """The keyword arguments we pass to ``pymupdf4llm.to_markdown`` (also used by the bench)."""
    return {"page_chunks": True, "use_ocr": False, "force_ocr": False, "header": True, "footer": True}


@functools.cache
def _pymupdf4llm() -> ModuleType:
    """Import pymupdf4llm once and select the layout engine (a process-wide switch)."""
    import pymupdf4llm

    pymupdf4llm.use_layout(True)
    module: ModuleType = pymupdf4llm
    return module


def _check_bytes(pdf_path: Path) -> None:
    """Reject what is plainly not a complete PDF before MuPDF tries to repair it.

    MuPDF silently rebuilds a truncated file from whatever objects survive, which would give
    a paper with its end missing; a PDF always ends with ``%%EOF`` (a trailing newline or an
    incremental update's may follow), so its absence in the last kilobyte means truncation.
    """
    name = pdf_path.name
    try:
        with pdf_path.open("rb") as handle:
            head = handle.read(1024)
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - 1024))
            tail = handle.read()
    except OSError as exc:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} cannot be read") from exc
    if _PDF_MAGIC not in head:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is not a PDF")
    if _EOF_MARKER not in tail:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is truncated (no %%EOF at the end)")


def convert_pdf(pdf_path: Path, progress: Callable[[int, int], None] | None = None) -> ConvertedDocument:
    """Convert every page of a born-digital PDF to markdown, without OCR.

    Raises:
        ToolFailure: DATA_FORMAT_ERROR when the file is not a readable, complete, unencrypted
            PDF with at least one page, or when MuPDF fails on its content.
    """
    _check_bytes(pdf_path)
    import pymupdf

    engine = _pymupdf4llm()
    # pymupdf.open is unannotated; typing it as Callable keeps mypy strict without an ignore.
    open_pdf: Callable[..., Any] = pymupdf.open
    name = pdf_path.name
    try:
        doc = open_pdf(pdf_path, filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, RuntimeError, ValueError) as exc:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is not a readable PDF") from exc
    with doc:
        # Only a user password blocks reading; owner-password "copy protection" MuPDF opens as usual.
        if doc.needs_pass:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is encrypted (a password is required)")
        total = int(doc.page_count)
        if total == 0:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} has no pages")
        try:
            toc = tuple(
                TocEntry(level=int(lvl), title=str(title), page=int(page))
                for lvl, title, page, *_ in doc.get_toc()
            )
            pages_md: list[str] = []
            options = markdown_options()
            for first in range(0, total, PAGES_PER_CALL):
                batch = list(range(first, min(first + PAGES_PER_CALL, total)))
                chunks = engine.to_markdown(doc, pages=batch, **options)
                pages_md.extend(str(chunk["text"]) for chunk in chunks)
                if progress is not None:
                    progress(len(pages_md), total)
        except (RuntimeError, ValueError, IndexError, KeyError) as exc:
            # MuPDF reports damaged content streams and fonts as RuntimeError subclasses.
            logger.warning("conversion of %s failed: %s", name, exc)
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{name} could not be converted: damaged PDF content"
            ) from exc
    logger.debug("converted %s: %d pages", name, total)
    return ConvertedDocument(pages_md=tuple(pages_md), toc=toc, pages=total)
