"""The local library under ``PAPERS_MCP_HOME``: metadata, PDFs and converted text, reused across calls.

Layout (every name built from a parsed ``ArxivId``, never from user text, and checked to stay
inside the home)::

    library.sqlite3                     metadata of every paper seen, an FTS5 index for offline search,
                                        and the latest known version of each unversioned id
    pdf/<id with / as _>v<N>.pdf        the PDF as arXiv sent it
    text/<id>v<N>.<source>.x<EXTRACTOR>.json
                                        the split markdown (``PaperText.to_dict``), keyed by where it came
                                        from (html, ar5iv, pdf) and that extractor's version

Files are written to a ``.part`` temp file in the same directory, flushed, fsynced and renamed
over the target, so a killed process leaves at most a ``.part`` file that nothing ever reads
(and that the next start removes). SQLite gives the metadata the same guarantee by transactions.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sqlite3
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from mcp_shared import ErrorCode, ToolFailure

from .ids import ArxivId
from .metadata import PaperMeta

__all__ = ["Library"]

logger = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS papers (
    id TEXT PRIMARY KEY, base TEXT NOT NULL, version INTEGER, data TEXT NOT NULL, seen REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS latest (base TEXT PRIMARY KEY, id TEXT NOT NULL, version INTEGER NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS papers_fts USING fts5(
    id UNINDEXED, title, authors, abstract, tokenize = 'porter unicode61'
);
"""
_STALE_PART_SECONDS = 3600.0
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


class Library:
    """Files and metadata under one home directory; safe to share between threads and processes."""

    def __init__(self, home: Path) -> None:
        self.home = home.expanduser()
        self._root = self.home.resolve()
        self._db = self.home / "library.sqlite3"
        self._init_lock = threading.Lock()
        self._ready = False

    # -- setup and paths --

    def _ensure(self) -> None:
        """Create the layout on first use (not at start-up: a read-only listing needs no home)."""
        with self._init_lock:
            if self._ready:
                return
            try:
                for sub in ("pdf", "text"):
                    (self.home / sub).mkdir(parents=True, exist_ok=True)
                with closing(self._connect()) as conn, conn:
                    conn.executescript(_SCHEMA)
            except (OSError, sqlite3.Error) as exc:
                raise ToolFailure(
                    ErrorCode.CONFIGURATION_ERROR,
                    f"the library at PAPERS_MCP_HOME={self.home} cannot be used: {exc}",
                ) from exc
            self._remove_stale_parts()
            self._ready = True

    def _remove_stale_parts(self) -> None:
        cutoff = time.time() - _STALE_PART_SECONDS
        for sub in ("pdf", "text"):
            for part in (self.home / sub).glob(".*.part"):
                try:
                    if part.stat().st_mtime < cutoff:
                        part.unlink()
                except OSError:
                    logger.debug("could not remove %s", part)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self._db, timeout=30)

    def connect(self) -> sqlite3.Connection:
        """A connection to ``library.sqlite3`` (layout created first) for indexes kept beside the metadata."""
        self._ensure()
        return self._connect()

    def _inside(self, sub: str, name: str) -> Path:
        path = (self.home / sub / name).resolve()
        if not path.is_relative_to(self._root):
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, f"refusing a library path outside {self.home}")
        return path

    @staticmethod
    def _versioned(aid: ArxivId) -> ArxivId:
        if aid.version is None:
            raise ValueError(f"the library stores versioned ids only, got {aid.text!r}")
        return aid

    def pdf_path(self, aid: ArxivId) -> Path:
        return self._inside("pdf", f"{self._versioned(aid).file_stem}.pdf")

    def text_path(self, aid: ArxivId, source: str, extractor_version: str) -> Path:
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,32}", extractor_version):
            raise ValueError(f"unexpected extractor version {extractor_version!r}")
        if not re.fullmatch(r"[a-z0-9]{1,16}", source):
            raise ValueError(f"unexpected text source {source!r}")
        return self._inside("text", f"{self._versioned(aid).file_stem}.{source}.x{extractor_version}.json")

    # -- atomic files --

    @contextmanager
    def atomic_file(self, target: Path) -> Iterator[BinaryIO]:
        """Write to a temp file beside ``target``; rename it over ``target`` only if the block succeeds."""
        self._ensure()
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "w+b") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise

    def has_pdf(self, aid: ArxivId) -> bool:
        return self.pdf_path(aid).is_file()

    def read_text(self, aid: ArxivId, source: str, extractor_version: str) -> dict[str, Any] | None:
        """The stored conversion, or None (also for an unreadable file, which is then converted again)."""
        path = self.text_path(aid, source, extractor_version)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError):
            logger.warning("ignoring an unreadable cached conversion %s", path.name)
            return None
        return data if isinstance(data, dict) else None

    def write_text(self, aid: ArxivId, source: str, extractor_version: str, data: Mapping[str, Any]) -> None:
        target = self.text_path(aid, source, extractor_version)
        with self.atomic_file(target) as handle:
            handle.write(json.dumps(data, ensure_ascii=False).encode("utf-8"))

    # -- metadata --

    def remember(self, papers: Sequence[PaperMeta]) -> None:
        """Store (or refresh) the metadata of every paper arXiv described, for reuse and offline search."""
        if not papers:
            return
        self._ensure()
        now = time.time()
        with closing(self._connect()) as conn, conn:
            for paper in papers:
                aid = paper.arxiv_id
                conn.execute(
                    "INSERT OR REPLACE INTO papers (id, base, version, data, seen) VALUES (?, ?, ?, ?, ?)",
                    (aid.text, aid.base, aid.version, json.dumps(paper.to_dict(), ensure_ascii=False), now),
                )
                conn.execute("DELETE FROM papers_fts WHERE id = ?", (aid.text,))
                conn.execute(
                    "INSERT INTO papers_fts (id, title, authors, abstract) VALUES (?, ?, ?, ?)",
                    (aid.text, paper.title, " ; ".join(paper.authors), paper.abstract),
                )
                if aid.version is not None:
                    conn.execute(
                        "INSERT INTO latest (base, id, version) VALUES (?, ?, ?) "
                        "ON CONFLICT(base) DO UPDATE SET id = excluded.id, version = excluded.version "
                        "WHERE excluded.version >= latest.version",
                        (aid.base, aid.text, aid.version),
                    )

    def meta(self, aid: ArxivId) -> PaperMeta | None:
        """Stored metadata: the exact version, or for an unversioned id the latest version seen."""
        if not self._db.is_file():
            return None
        self._ensure()
        with closing(self._connect()) as conn:
            if aid.version is None:
                row = conn.execute(
                    "SELECT p.data FROM latest l JOIN papers p ON p.id = l.id WHERE l.base = ?", (aid.base,)
                ).fetchone()
            else:
                row = conn.execute("SELECT data FROM papers WHERE id = ?", (aid.text,)).fetchone()
        return self._decode(row[0]) if row else None

    def search(self, text: str, limit: int) -> list[PaperMeta]:
        """Full-text search of the stored metadata (title above authors above abstract)."""
        if not self._db.is_file():
            return []
        words = [w for w in _WORD.findall(text) if w.upper() not in {"AND", "OR", "NOT", "ANDNOT", "TO"}]
        words = [w for w in words if w.lower() not in _FIELD_NAMES]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words[:32])
        self._ensure()
        with closing(self._connect()) as conn:
            rows = conn.execute(
                "SELECT p.data FROM papers_fts f JOIN papers p ON p.id = f.id "
                "WHERE papers_fts MATCH ? ORDER BY bm25(papers_fts, 0.0, 10.0, 3.0, 1.0) LIMIT ?",
                (match, limit),
            ).fetchall()
        return [m for (data,) in rows if (m := self._decode(data)) is not None]

    def count(self) -> int:
        if not self._db.is_file():
            return 0
        self._ensure()
        with closing(self._connect()) as conn:
            (n,) = conn.execute("SELECT count(*) FROM papers").fetchone()
        return int(n)

    @staticmethod
    def _decode(data: str) -> PaperMeta | None:
        try:
            return PaperMeta.from_dict(json.loads(data))
        except (ValueError, KeyError, TypeError):
            logger.warning("ignoring a corrupt metadata record in the library")
            return None


_FIELD_NAMES = {"ti", "au", "abs", "co", "jr", "cat", "rn", "id", "all", "submitteddate"}
