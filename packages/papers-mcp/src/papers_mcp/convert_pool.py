"""Work through chunks of one file in helper processes while the calling thread works on them too.

Why not ``concurrent.futures.ProcessPoolExecutor``:

- a helper needs seconds to start (import PyMuPDF, load the layout model). Helpers are started
  first, so they load while this process opens the file (and, on the first conversion, loads the
  engine itself); this thread then works from its first second instead of waiting for them;
- a helper that has not answered when nothing else is left has its chunk done here as well
  (whichever copy finishes first is used: ``work`` gives the same result in any process), so a
  slow or still-starting helper never makes a run slower than working alone;
- a helper that crashes (MuPDF on a damaged file) fails the run instead of the server;
- at most ``limit`` helpers exist in the whole process, however many runs there are at once
  (``_SLOTS``), so memory stays bounded; helpers live for one run only.

Helpers are started with ``spawn`` (never ``fork``: the server runs threads, and the layout
engine's ONNX thread pool does not survive a fork). Each helper sends its stdout to stderr
(stdout may be the MCP wire), and exits at once when its parent goes away, however it goes
(SIGTERM ending the server with ``os._exit``, a crash): a helper never outlives its parent.
A script that uses helpers must guard its entry point with ``if __name__ == "__main__":``
(``spawn`` imports the main module in each helper).
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, TypeVar

__all__ = ["ChunkFailed", "HelperDied", "HelperPool"]

logger = logging.getLogger(__name__)

State = TypeVar("State")
Result = TypeVar("Result")
Chunk = tuple[int, ...]

_READY, _DONE, _FAILED = "ready", "done", "failed"
_JOIN_SECONDS = 2.0


class ChunkFailed(Exception):
    """A helper's ``work`` raised one of the expected errors; ``message`` is what it said."""

    def __init__(self, chunk: Chunk, message: str) -> None:
        super().__init__(message)
        self.chunk = chunk
        self.message = message


class HelperDied(Exception):
    """A helper process ended while working on ``chunk`` (a crash in native code, or a kill)."""

    def __init__(self, chunk: Chunk, exitcode: int | None) -> None:
        super().__init__(f"a conversion process ended with status {exitcode} on pages {_pages_text(chunk)}")
        self.chunk = chunk
        self.exitcode = exitcode


def _pages_text(chunk: Chunk) -> str:
    return f"{chunk[0] + 1}-{chunk[-1] + 1}" if len(chunk) > 1 else f"{chunk[0] + 1}"


class _HelperSlots:
    """How many helper processes exist in this process, so that concurrent runs share one limit."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._in_use = 0

    def acquire(self, wanted: int, limit: int) -> int:
        with self._lock:
            granted = max(0, min(wanted, limit - self._in_use))
            self._in_use += granted
            return granted

    def release(self, count: int) -> None:
        with self._lock:
            self._in_use -= count


_SLOTS = _HelperSlots()


# --- the helper process -------------------------------------------------------------------------


def _exit_with_parent() -> None:
    """A daemon thread that ends this helper as soon as its parent process is gone."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _helper_main(
    conn: Connection,
    path: str,
    opener: Callable[[Path], Any],
    work: Callable[[Any, Chunk], Any],
    expected: tuple[type[BaseException], ...],
) -> None:
    """Open ``path`` once, then answer each chunk received with ``work(state, chunk)`` until told to stop."""
    os.dup2(2, 1)  # nothing a library prints may reach the parent's stdout
    sys.stdout = sys.stderr
    _exit_with_parent()
    try:
        state = opener(Path(path))
    except Exception as exc:  # reported to the parent, which then works without this helper
        conn.send((_FAILED, f"{type(exc).__name__}: {exc}"))
        return
    conn.send((_READY, None))
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        try:
            conn.send((_DONE, work(state, chunk)))
        except expected as exc:
            conn.send((_FAILED, str(exc)))


def _peak_rss_kib(pid: int | None) -> int | None:
    """A live process's peak resident set (VmHWM) on Linux; None elsewhere."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            return next((int(line.split()[1]) for line in status if line.startswith("VmHWM:")), None)
    except (OSError, ValueError):
        return None


# --- the calling side -----------------------------------------------------------------------------


class HelperPool(Generic[State, Result]):
    """Helpers for one run: ``with HelperPool(...) as pool: results = pool.run(chunks, state)``.

    ``opener`` and ``work`` must be module-level functions (a helper imports them by name), and
    ``work(opener(path), chunk)`` must give the same result in any process. Helpers start when
    the ``with`` block is entered and are stopped when it ends.
    """

    def __init__(
        self,
        path: Path,
        opener: Callable[[Path], State],
        work: Callable[[State, Chunk], Result],
        *,
        helpers: int,
        limit: int | None = None,
        expected: tuple[type[BaseException], ...] = (),
    ) -> None:
        self.path = path
        self.opener = opener
        self.work = work
        self.expected = expected
        self.wanted = max(0, helpers)
        self.limit = self.wanted if limit is None else limit
        self.granted = 0
        self.cond = threading.Condition()
        self.chunks: list[Chunk] = []
        self.pending: deque[int] = deque()
        self.started = False  # run() has published the chunks
        self.running: dict[int, float] = {}  # chunk index -> when a helper took it
        self.stolen: set[int] = set()
        self.results: dict[int, Result] = {}
        self.failure: Exception | None = None
        self.closed = False
        self.processes: list[BaseProcess] = []
        self.threads: list[threading.Thread] = []
        self.peaks: dict[int, int] = {}  # helper pid -> its peak RSS in KiB, read before it ends (Linux)

    def __enter__(self) -> HelperPool[State, Result]:
        self.granted = _SLOTS.acquire(self.wanted, self.limit)
        for index in range(self.granted):
            thread = threading.Thread(target=self._feed, name=f"convert-helper-{index}", daemon=True)
            self.threads.append(thread)
            thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # helper threads: one per helper process, feeding it chunks and collecting its answers

    def _feed(self) -> None:
        try:
            context = multiprocessing.get_context("spawn")
            parent_conn, child_conn = context.Pipe()
            process = context.Process(
                target=_helper_main,
                args=(child_conn, str(self.path), self.opener, self.work, self.expected),
                daemon=True,
            )
            with self.cond:
                if self.closed:
                    return
                process.start()
                self.processes.append(process)
            child_conn.close()
            try:
                self._serve(process, parent_conn)
            finally:
                self._note_peak(process)  # still alive: it ends when this pipe closes
                parent_conn.close()
        except Exception:  # a helper that cannot start or talk: the calling thread does the work
            logger.warning("a conversion helper process failed; converting without it", exc_info=True)

    def _serve(self, process: BaseProcess, conn: Connection) -> None:
        hello = self._receive(process, conn)
        if hello is None or hello[0] != _READY:
            if not self.closed:
                logger.warning("a conversion helper did not start (%s); converting without it", hello)
            return
        while True:
            with self.cond:
                while not self.started and not self.closed:
                    self.cond.wait()
                if self.closed or self.failure is not None or not self.pending:
                    return
                index = self.pending.popleft()
                self.running[index] = time.monotonic()
            conn.send(self.chunks[index])
            answer = self._receive(process, conn)
            if answer is None:
                process.join(_JOIN_SECONDS)  # reap it, so that its exit status is known
            with self.cond:
                self.running.pop(index, None)
                if index not in self.results and not self.closed:
                    if answer is None:
                        self.failure = HelperDied(self.chunks[index], process.exitcode)
                    elif answer[0] == _DONE:
                        self.results[index] = answer[1]
                    else:
                        self.failure = ChunkFailed(self.chunks[index], str(answer[1]))
                self.cond.notify_all()
            if answer is None or answer[0] != _DONE:
                return

    @staticmethod
    def _receive(process: BaseProcess, conn: Connection) -> tuple[str, Any] | None:
        """The helper's next message, or None when it ended first."""
        ready = multiprocessing.connection.wait([conn, process.sentinel])
        if conn not in ready and not conn.poll():
            return None
        try:
            message: tuple[str, Any] = conn.recv()
        except (EOFError, OSError):
            return None
        return message

    # the calling thread: works through the queue, then on chunks that helpers still hold

    def run(
        self,
        chunks: Sequence[Chunk],
        state: State,
        progress: Callable[[int], None] | None = None,
    ) -> list[Result]:
        """``[work(state, chunk) for chunk in chunks]``, shared with the helpers; call once.

        ``progress(items_done)`` is called from this thread as chunks complete.

        Raises:
            ChunkFailed: a helper's ``work`` raised one of ``expected``, with its message.
            HelperDied: a helper process ended while working on a chunk.
            Whatever ``work`` raises in this thread.
        """
        with self.cond:
            self.chunks = list(chunks)
            self.pending = deque(range(len(self.chunks)))
            self.started = True
            self.cond.notify_all()
        reported = 0
        while True:
            with self.cond:
                if self.failure is not None:
                    raise self.failure
                index = None if len(self.results) == len(self.chunks) else self._next_here()
                if index is None and len(self.results) < len(self.chunks):
                    self.cond.wait(0.5)
                done = sorted(self.results)
            if progress is not None and len(done) > reported:
                reported = len(done)
                progress(sum(len(self.chunks[i]) for i in done))
            if len(done) == len(self.chunks):
                return [self.results[i] for i in range(len(self.chunks))]
            if index is not None:
                result = self.work(state, self.chunks[index])
                with self.cond:
                    self.results.setdefault(index, result)
                    self.cond.notify_all()

    def _next_here(self) -> int | None:
        """A chunk for the calling thread: the next pending one, else the one a helper took last."""
        if self.pending:
            return self.pending.popleft()
        candidates = [i for i in self.running if i not in self.stolen and i not in self.results]
        if not candidates:
            return None
        index = max(candidates, key=lambda i: self.running[i])
        self.stolen.add(index)
        return index

    def close(self) -> None:
        """Stop every helper now (one still busy is working on a chunk already done here)."""
        with self.cond:
            if self.closed:
                return
            self.closed = True
            self.cond.notify_all()
            processes = list(self.processes)
        try:
            for process in processes:
                if process.is_alive():
                    self._note_peak(process)
                    process.terminate()
            deadline = time.monotonic() + _JOIN_SECONDS
            for process in processes:
                process.join(max(0.0, deadline - time.monotonic()))
                if process.is_alive():
                    process.kill()
                    process.join(_JOIN_SECONDS)
            for thread in self.threads:
                thread.join(_JOIN_SECONDS)
        finally:
            _SLOTS.release(self.granted)
        if self.peaks:
            logger.debug("conversion helpers' peak RSS: %s MiB", [kib // 1024 for kib in self.peak_rss_kib])

    @property
    def peak_rss_kib(self) -> list[int]:
        """Each helper's peak resident set in KiB (Linux), as read just before it ended."""
        return list(self.peaks.values())

    def _note_peak(self, process: BaseProcess) -> None:
        peak = _peak_rss_kib(process.pid)
        if peak is not None and process.pid is not None:
            with self.cond:
                self.peaks[process.pid] = max(peak, self.peaks.get(process.pid, 0))
