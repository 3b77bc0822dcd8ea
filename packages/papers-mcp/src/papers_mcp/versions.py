"""Which version of a paper an answer was read from, and whether arXiv has a newer one.

An answer names the version it read and the latest one known: "v2 of 5; latest v5, 2017-12-06",
or "v5 of 5 (the latest, 2017-12-06)". The latest comes from what arXiv said (a lookup of the bare
id or a search, both of which describe the latest version) or, when a version was asked for and
nothing has checked the paper for a day, one lookup of the bare id (an unversioned id reads the
latest known, so it is not checked again); checks are remembered in the library (table
``version_checks``), so other processes on it do not ask again. When arXiv cannot be asked the answer says the check was not
made (it is not tried again for ten minutes), and nothing fails.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Sequence
from contextlib import closing
from typing import TYPE_CHECKING

import anyio.to_thread
from mcp_shared import ToolFailure

from .ids import ArxivId
from .metadata import PaperMeta

if TYPE_CHECKING:
    from .service import PapersService

__all__ = ["VersionNotes"]

logger = logging.getLogger(__name__)

_CHECK_SECONDS = 24 * 3600.0
_RETRY_CHECK_SECONDS = 600.0
_SCHEMA = "CREATE TABLE IF NOT EXISTS version_checks (base TEXT PRIMARY KEY, checked REAL NOT NULL)"


def _date(meta: PaperMeta) -> str:
    return meta.updated[:10] or meta.published[:10] or "N/A"


class VersionNotes:
    """Remembers when arXiv last told this process a paper's latest version; words the header line."""

    def __init__(self, service: PapersService) -> None:
        self._service = service
        self._checked: dict[str, float] = {}
        self._lock = threading.Lock()

    def saw_latest(self, papers: Sequence[PaperMeta]) -> None:
        """arXiv just described these papers' latest versions (a bare-id lookup, a search)."""
        now = time.monotonic()
        with self._lock:
            for paper in papers:
                self._checked[paper.arxiv_id.base] = now

    def _fresh(self, base: str) -> bool:
        """Checked within a day, by this process or (through the library) by any other on the same home."""
        with self._lock:
            at = self._checked.get(base)
        now, wall = time.monotonic(), time.time()
        try:
            with closing(self._service.library.connect()) as conn, conn:
                conn.execute(_SCHEMA)
                if at is not None:  # share this process's check with the others on the library
                    conn.execute(
                        "INSERT OR REPLACE INTO version_checks (base, checked) VALUES (?, ?)",
                        (base, wall - (now - at)),
                    )
                    return now - at < _CHECK_SECONDS
                row = conn.execute("SELECT checked FROM version_checks WHERE base = ?", (base,)).fetchone()
        except (sqlite3.Error, ToolFailure):
            return at is not None and now - at < _CHECK_SECONDS
        return row is not None and wall - float(row[0]) < _CHECK_SECONDS

    async def line(self, meta: PaperMeta, asked_version: bool = True) -> str:
        """``- Version: ...`` for the header of an answer read from ``meta``'s version.

        ``asked_version``: the caller named a version. Without one the latest known was read (the
        library's, the fleet's or arXiv's), so arXiv is not asked again.
        """
        vid = meta.arxiv_id
        version = vid.version or 1
        library = self._service.library
        latest = await anyio.to_thread.run_sync(library.meta, ArxivId(vid.base))
        known = latest.arxiv_id.version if latest is not None and latest.arxiv_id.version else version
        unchecked = False
        if asked_version and known <= version and not await anyio.to_thread.run_sync(self._fresh, vid.base):
            try:
                found = await anyio.to_thread.run_sync(self._service.arxiv().lookup, ArxivId(vid.base))
            except ToolFailure as exc:
                logger.info("arxiv:%s: newer versions not checked: %s", vid.base, exc.message)
                unchecked = True
                with self._lock:  # not again for a while: an unreachable arXiv must not slow every answer
                    self._checked[vid.base] = time.monotonic() - _CHECK_SECONDS + _RETRY_CHECK_SECONDS
            else:
                if found is not None and found.arxiv_id.version is not None:
                    await anyio.to_thread.run_sync(library.remember, [found])
                    self.saw_latest([found])
                    latest, known = found, found.arxiv_id.version
        if unchecked and known <= version:
            return (
                f"- Version: v{version}, {_date(meta)} (newer versions not checked: arXiv could not be asked)"
            )
        if latest is None or known <= version:
            return f"- Version: v{version} of {version} (the latest, {_date(meta)})"
        return f"- Version: v{version} of {known}; latest v{known}, {_date(latest)}"
