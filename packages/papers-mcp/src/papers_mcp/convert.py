"""PDF -> per-page markdown with pymupdf4llm, plus the PDF outline.

PyMuPDF and pymupdf4llm are imported inside the functions: importing them costs about a
second, which the server should not pay at start-up or for tools that never read a PDF.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp_shared import ErrorCode, ToolFailure

from .sections import ConvertedDocument, TocEntry

__all__ = ["convert_pdf"]

logger = logging.getLogger(__name__)


def convert_pdf(pdf_path: Path, progress: Callable[[int, int], None] | None = None) -> ConvertedDocument:
    """Convert every page of a born-digital PDF to markdown, without OCR.

    Raises:
        ToolFailure: DATA_FORMAT_ERROR when the file is not a readable, unencrypted PDF with pages.
    """
    import pymupdf
    import pymupdf4llm

    # pymupdf.open is unannotated; typing it as Callable keeps mypy strict without an ignore.
    open_pdf: Callable[..., Any] = pymupdf.open
    name = pdf_path.name
    try:
        doc = open_pdf(pdf_path, filetype="pdf")
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, RuntimeError, ValueError) as exc:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is not a readable PDF") from exc
    with doc:
        if doc.needs_pass or doc.is_encrypted:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is encrypted")
        total = doc.page_count
        if total == 0:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} has no pages")
        toc = tuple(TocEntry(level=lvl, title=title, page=page) for lvl, title, page, *_ in doc.get_toc())
        pymupdf4llm.use_layout(False)
        chunks = pymupdf4llm.to_markdown(doc, page_chunks=True)
        if progress is not None:
            progress(total, total)
        return ConvertedDocument(pages_md=tuple(str(c["text"]) for c in chunks), toc=toc, pages=total)
