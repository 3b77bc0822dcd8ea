"""Work functions for ``convert_pool`` tests: module-level, so a spawned helper can import them.

Each takes the "state" the opener returns (the path, as text) and a chunk of item numbers. What a
function does in a helper process (``multiprocessing.parent_process()`` is set there) may differ
from what it does in the calling process: that is how the tests make only helpers slow, crash,
fail or refuse to start.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

Chunk = tuple[int, ...]


def in_helper() -> bool:
    return multiprocessing.parent_process() is not None


def open_text(path: Path) -> str:
    return str(path)


def open_refused_in_helper(path: Path) -> str:
    if in_helper():
        raise RuntimeError("this helper cannot open the file")
    return str(path)


def squares(state: str, chunk: Chunk) -> list[int]:
    time.sleep(0.05)
    return [n * n for n in chunk]


def squares_shared(state: str, chunk: Chunk) -> list[int]:
    """Helpers mark each chunk they compute; the calling thread's first chunk waits for one mark."""
    if in_helper():
        (Path(state) / f"by-helper-{chunk[0]}").write_text("yes")
    elif chunk[0] == 0:
        deadline = time.monotonic() + 120
        while not list(Path(state).glob("by-helper-*")) and time.monotonic() < deadline:
            time.sleep(0.05)
    return [n * n for n in chunk]


def squares_slow_in_helper(state: str, chunk: Chunk) -> list[int]:
    if in_helper():
        time.sleep(60)
    return [n * n for n in chunk]


def _helper_acted(state: str) -> None:
    (Path(state) / "helper-acted").write_text("yes")


def _wait_for_helper(state: str) -> None:
    """In the calling process: do not finish before a helper has taken (and botched) a chunk."""
    deadline = time.monotonic() + 120
    while not (Path(state) / "helper-acted").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)  # and has had time to report it


def squares_crash_in_helper(state: str, chunk: Chunk) -> list[int]:
    if in_helper():
        _helper_acted(state)
        os._exit(3)  # what a segmentation fault in native code looks like from outside
    _wait_for_helper(state)
    return [n * n for n in chunk]


def squares_fail_in_helper(state: str, chunk: Chunk) -> list[int]:
    if in_helper():
        _helper_acted(state)
        raise ValueError(f"damaged chunk {chunk[0]}")
    _wait_for_helper(state)
    return [n * n for n in chunk]


def record_pid_then_sleep(state: str, chunk: Chunk) -> list[int]:
    """In a helper: write its pid into the directory ``state`` names, then work for a long time."""
    if in_helper():
        (Path(state) / f"helper-{os.getpid()}.pid").write_text(str(os.getpid()))
        time.sleep(120)
    time.sleep(120)
    return list(chunk)


def parse_pages_of(path: Path, pages: tuple[int, ...]) -> list[object]:
    """``pdf_pages.parse_pages`` in whatever process runs this (a spawned child in the tests)."""
    from papers_mcp import pdf_pages

    with pdf_pages.open_pdf(path) as doc:
        return pdf_pages.parse_pages(doc, pages)
