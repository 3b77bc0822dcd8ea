"""PDF -> per-page markdown with pymupdf4llm, plus the PDF outline; pages in parallel processes.

PyMuPDF and pymupdf4llm are imported inside the functions: importing them costs about a
second, which the server should not pay at start-up or for tools that never read a PDF.

How pages are converted: pymupdf4llm's ``to_markdown`` is ``parse_document`` (per page: text
extraction, the layout model, reading order, tables) followed by ``ParsedDocument.to_markdown``.
The only state one page's conversion shares with another's is the set of heading font sizes,
which decides each heading's ``#`` depth. So we parse chunks of pages (here, or in helper
processes: ``convert_pool``), then set heading depths once from the font sizes of *all* pages
and render. The markdown is therefore the same whatever the chunks and however many processes
parsed them, and equal to one ``to_markdown`` call over the whole document (a heading's depth no
longer depends on which batch of pages it was converted with).

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

from .convert_pool import ChunkFailed, HelperDied, HelperPool
from .sections import ConvertedDocument, TocEntry

__all__ = ["PAGES_PER_TASK", "convert_pdf", "markdown_options"]

logger = logging.getLogger(__name__)

# Pages parsed per task: small enough for useful progress and for the processes to share the work
# evenly, large enough that the per-call set-up stays negligible (tests/bench/bench_papers_convert.py).
PAGES_PER_TASK = 2

# What MuPDF raises on damaged content streams and fonts (RuntimeError subclasses among them).
_DAMAGED = (RuntimeError, ValueError, IndexError, KeyError)

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


def _parse_options() -> dict[str, object]:
    """``parse_document`` arguments equal to what ``to_markdown(**markdown_options())`` passes it."""
    return {
        "use_ocr": False,
        "force_ocr": False,
        "force_text": True,
        "embed_images": False,
        "write_images": False,
    }


def _open_pdf(pdf_path: Path) -> Any:
    """Open a PDF for parsing (in this process or a helper), the engine loaded first."""
    _pymupdf4llm()
    import pymupdf

    # pymupdf.open is unannotated; typing it as Callable keeps mypy strict without an ignore.
    open_pdf: Callable[..., Any] = pymupdf.open
    return open_pdf(pdf_path, filetype="pdf")


def _parse_pages(doc: Any, pages: tuple[int, ...]) -> list[Any]:
    """Layout of ``pages`` (0-based): pymupdf4llm ``PageLayout`` objects, without their raw text dicts."""
    from pymupdf4llm.helpers import document_layout

    parsed = document_layout.parse_document(doc, pages=list(pages), **_parse_options())
    layouts: list[Any] = parsed.pages
    for layout in layouts:  # only used while parsing; dropping them keeps a page small to hold or send
        layout.fulltext = None
        layout.words = None
        layout.links = None
    return layouts


def _render(doc: Any, layouts: list[Any]) -> list[str]:
    """Markdown per page, heading depths set from the heading font sizes of all pages."""
    from pymupdf4llm.helpers import document_layout

    sizes = {
        box.max_fontsize
        for layout in layouts
        for box in layout.boxes
        if box.boxclass in ("title", "section-header")
    }
    if sizes:
        document_layout.update_header_tags(layouts, sizes)
    parsed = document_layout.ParsedDocument(
        filename=doc.name, page_count=doc.page_count, toc=doc.get_toc(simple=True), metadata=doc.metadata
    )
    parsed.pages = layouts
    chunks = parsed.to_markdown(header=True, footer=True, page_chunks=True)
    return [str(chunk["text"]) for chunk in chunks]


def convert_pdf(
    pdf_path: Path,
    progress: Callable[[int, int], None] | None = None,
    *,
    workers: int = 1,
    pages_per_task: int = PAGES_PER_TASK,
) -> ConvertedDocument:
    """Convert every page of a born-digital PDF to markdown, without OCR.

    ``workers`` processes parse pages at once, this one included (1: only this one); the result
    does not depend on it. ``progress(done_pages, total_pages)`` is called from this thread.

    Raises:
        ToolFailure: DATA_FORMAT_ERROR when the file is not a readable, complete, unencrypted
            PDF with at least one page, or when MuPDF fails on its content.
    """
    _check_bytes(pdf_path)
    # Helpers start loading the engine now, while this process opens the file.
    with HelperPool(pdf_path, _open_pdf, _parse_pages, helpers=workers - 1, expected=_DAMAGED) as pool:
        document = _convert(pdf_path, pool, progress, max(1, pages_per_task))
        if pool.peak_rss_kib:
            logger.info(
                "converted %s with %d helper process(es), peak RSS %s MiB",
                pdf_path.name,
                len(pool.peak_rss_kib),
                "/".join(str(kib // 1024) for kib in pool.peak_rss_kib),
            )
    return document


def _convert(
    pdf_path: Path,
    pool: HelperPool[Any, list[Any]],
    progress: Callable[[int, int], None] | None,
    pages_per_task: int,
) -> ConvertedDocument:
    import pymupdf

    name = pdf_path.name
    try:
        doc = _open_pdf(pdf_path)
    except (pymupdf.FileDataError, pymupdf.EmptyFileError, RuntimeError, ValueError) as exc:
        raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is not a readable PDF") from exc
    with doc:
        # Only a user password blocks reading; owner-password "copy protection" MuPDF opens as usual.
        if doc.needs_pass:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} is encrypted (a password is required)")
        total = int(doc.page_count)
        if total == 0:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} has no pages")
        chunks = [
            tuple(range(first, min(first + pages_per_task, total)))
            for first in range(0, total, pages_per_task)
        ]
        try:
            toc = tuple(
                TocEntry(level=int(lvl), title=str(title), page=int(page))
                for lvl, title, page, *_ in doc.get_toc()
            )
            if pool.granted == 0 or len(chunks) == 1:
                layouts: list[Any] = []
                for chunk in chunks:
                    layouts.extend(_parse_pages(doc, chunk))
                    if progress is not None:
                        progress(len(layouts), total)
            else:
                parts = pool.run(
                    chunks, doc, None if progress is None else lambda done: progress(done, total)
                )
                layouts = [layout for part in parts for layout in part]
            pages_md = _render(doc, layouts)
        except (*_DAMAGED, ChunkFailed) as exc:
            logger.warning("conversion of %s failed: %s", name, exc)
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{name} could not be converted: damaged PDF content"
            ) from exc
        except HelperDied as exc:
            logger.warning("conversion of %s failed: %s", name, exc)
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{name} could not be converted: {exc}") from exc
    logger.debug("converted %s: %d pages", name, total)
    return ConvertedDocument(pages_md=tuple(pages_md), toc=toc, pages=total)
