"""PDF -> per-page markdown plus the PDF outline: file checks, errors, and pages in parallel.

The engine itself (pymupdf4llm: parse pages, render markdown) is in ``pdf_pages``; the helper
processes (``convert_pool``) import only that, not the MCP stack, so that they start fast.
Pages are parsed in chunks, here and in ``workers - 1`` helpers, and rendered once: the markdown
is the same whatever the number of workers (see ``pdf_pages`` for why).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mcp_shared import ErrorCode, ToolFailure

from .convert_pool import ChunkFailed, HelperDied, HelperPool
from .pdf_pages import load_engine, markdown_options, open_pdf, parse_pages, render
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
    threads = _threads_per_process(workers)
    opener = functools.partial(open_pdf, threads=threads)
    # Helpers start loading the engine now, while this process opens the file.
    with HelperPool(pdf_path, opener, parse_pages, helpers=workers - 1, expected=_DAMAGED) as pool:
        document = _convert(pdf_path, pool, progress, max(1, pages_per_task), threads)
    if pool.peak_rss_kib:  # read as the helpers stopped
        logger.info(
            "converted %s with %d helper process(es), peak RSS %s MiB",
            pdf_path.name,
            len(pool.peak_rss_kib),
            "/".join(str(kib // 1024) for kib in pool.peak_rss_kib),
        )
    return document


def _threads_per_process(workers: int) -> int | None:
    """ONNX threads per converting process: the CPUs shared out among the workers (None: default)."""
    if workers <= 1:
        return None
    affinity = getattr(os, "sched_getaffinity", None)
    cpus = len(affinity(0)) if affinity is not None else (os.cpu_count() or 1)
    return max(1, cpus // workers)


def _convert(
    pdf_path: Path,
    pool: HelperPool[Any, list[Any]],
    progress: Callable[[int, int], None] | None,
    pages_per_task: int,
    threads: int | None,
) -> ConvertedDocument:
    load_engine(threads)  # first: the first import of PyMuPDF in this process (the first call decides)
    import pymupdf

    name = pdf_path.name
    try:
        doc = open_pdf(pdf_path)
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
                    layouts.extend(parse_pages(doc, chunk))
                    if progress is not None:
                        progress(len(layouts), total)
            else:
                parts = pool.run(
                    chunks, doc, None if progress is None else lambda done: progress(done, total)
                )
                layouts = [layout for part in parts for layout in part]
            pages_md = render(doc, layouts)
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
