"""pymupdf4llm's layout engine, page by page: what a conversion helper process needs, and no more.

PyMuPDF and pymupdf4llm are imported inside the functions: importing them costs seconds, which
the server should not pay at start-up or for tools that never read a PDF. This module imports
nothing of the MCP stack either, so a helper process (``convert_pool``) starts with the engine only.

How a page becomes markdown: pymupdf4llm's ``to_markdown`` is ``parse_document`` (per page: text
extraction, the layout model, reading order, tables) followed by ``ParsedDocument.to_markdown``.
The only state one page's conversion shares with another's is the set of heading font sizes,
which decides each heading's ``#`` depth. So pages are parsed in chunks (in any process), then
heading depths are set once from the font sizes of *all* pages and the document is rendered. The
markdown is therefore the same whatever the chunks and however many processes parsed them, and
equal to one ``to_markdown`` call over the whole document (tested, and checked on the 12 fixture
papers by ``tests/bench/bench_papers_convert.py``). These functions use pymupdf4llm's
``document_layout`` module, which ``to_markdown`` itself calls; its version is pinned in uv.lock.

Engine: pymupdf4llm's layout engine (``use_layout(True)``), chosen over the older rule-based one
on the 12 fixture papers (README, "Full-text extraction"): it finds section headings in REVTeX
and emulateapj papers where the old engine finds none, and it was not slower. OCR is off (the
papers are born-digital). Running headers/footers are kept here and removed by ``sections``,
because the engine's own header filter also drops paper titles.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["load_engine", "markdown_options", "open_pdf", "parse_pages", "render"]


def markdown_options() -> dict[str, object]:
    """The keyword arguments we pass to ``pymupdf4llm.to_markdown`` (also used by the bench)."""
    return {"page_chunks": True, "use_ocr": False, "force_ocr": False, "header": True, "footer": True}


_ENGINE: list[ModuleType] = []
_ENGINE_LOCK = threading.Lock()


def _pymupdf4llm(threads: int | None = None) -> ModuleType:
    """Import pymupdf4llm once and select the layout engine (a process-wide switch).

    The layout model's ONNX Runtime sessions are created by this import, with spin-waiting off
    and ``threads`` intra-op threads (None: ONNX Runtime's default, one per core). The first call
    in a process decides; nothing else in this package imports PyMuPDF before it.
    """
    with _ENGINE_LOCK:
        if not _ENGINE:
            with _sessions_that_sleep(threads):
                import pymupdf4llm

                pymupdf4llm.use_layout(True)
            _ENGINE.append(pymupdf4llm)
        return _ENGINE[0]


def load_engine(threads: int | None = None) -> None:
    """Load PyMuPDF and the layout model now (before any other ``import pymupdf``)."""
    _pymupdf4llm(threads)


@contextmanager
def _sessions_that_sleep(threads: int | None) -> Iterator[None]:
    """While the layout model loads: ONNX Runtime sessions whose idle threads sleep, not spin.

    ONNX Runtime's default keeps its thread pool spinning between operators. On a busy machine,
    and beside conversion helpers, the spinning threads take CPU from the work: converting 16
    pages of 1311.2542v3 took 12.7-13.5 s of CPU with spinning and 10.1-10.3 s without, with the
    same output byte for byte. With helpers, each process gets ``threads`` = CPUs / workers
    intra-op threads, so that the processes do not oversubscribe the cores (README, "Parallel
    conversion"); the output is the same for any thread count (checked on the 12 fixture papers).
    Without onnxruntime, nothing is changed.
    """
    try:
        import onnxruntime
    except ImportError:
        yield
        return
    original = onnxruntime.InferenceSession

    class _Session(original):  # type: ignore[misc,valid-type]
        def __init__(self, path_or_bytes: Any, sess_options: Any = None, *args: Any, **kwargs: Any) -> None:
            options = sess_options if sess_options is not None else onnxruntime.SessionOptions()
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.add_session_config_entry("session.inter_op.allow_spinning", "0")
            if threads is not None:
                options.intra_op_num_threads = threads
            super().__init__(path_or_bytes, options, *args, **kwargs)

    onnxruntime.InferenceSession = _Session
    try:
        yield
    finally:
        onnxruntime.InferenceSession = original


def _parse_options() -> dict[str, object]:
    """``parse_document`` arguments equal to what ``to_markdown(**markdown_options())`` passes it."""
    return {
        "use_ocr": False,
        "force_ocr": False,
        "force_text": True,
        "embed_images": False,
        "write_images": False,
    }


def open_pdf(pdf_path: Path, threads: int | None = None) -> Any:
    """Open a PDF for parsing (in this process or a helper), the engine loaded first."""
    _pymupdf4llm(threads)
    import pymupdf

    # pymupdf.open is unannotated; typing it as Callable keeps mypy strict without an ignore.
    open_pdf: Callable[..., Any] = pymupdf.open
    return open_pdf(pdf_path, filetype="pdf")


def parse_pages(doc: Any, pages: tuple[int, ...]) -> list[Any]:
    """Layout of ``pages`` (0-based): pymupdf4llm ``PageLayout`` objects, without their raw text dicts."""
    from pymupdf4llm.helpers import document_layout

    parsed = document_layout.parse_document(doc, pages=list(pages), **_parse_options())
    layouts: list[Any] = parsed.pages
    for layout in layouts:  # only used while parsing; dropping them keeps a page small to hold or send
        layout.fulltext = None
        layout.words = None
        layout.links = None
    return layouts


def render(doc: Any, layouts: list[Any]) -> list[str]:
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
