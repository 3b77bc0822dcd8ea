"""What the scholarly indexes answered, kept in the library (``library.sqlite3``) with a time to live.

References hardly change once a paper is out, so they live long (``PAPERS_MCP_REFERENCES_TTL_SECONDS``,
30 days); citations grow, so they are asked again after ``PAPERS_MCP_CITATIONS_TTL_SECONDS`` (a day).
Failures are never stored. A cache that cannot be read or written is skipped, never fatal.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from contextlib import closing
from typing import Any

from mcp_shared import ToolFailure

from .library import Library

__all__ = ["ScholarCache"]

logger = logging.getLogger(__name__)

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS scholar (key TEXT PRIMARY KEY, data TEXT NOT NULL, fetched REAL NOT NULL)"
)


class ScholarCache:
    """Index answers by key (source, paper, direction, page token), each with the time it was fetched."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self._ready = False

    def _connect(self) -> sqlite3.Connection:
        conn = self._library.connect()
        if not self._ready:
            with conn:
                conn.execute(_SCHEMA)
            self._ready = True
        return conn

    def get(self, key: str, ttl_seconds: float) -> dict[str, Any] | None:
        """The stored answer when it is younger than ``ttl_seconds``, else None."""
        try:
            with closing(self._connect()) as conn:
                row = conn.execute("SELECT data, fetched FROM scholar WHERE key = ?", (key,)).fetchone()
        except (sqlite3.Error, ToolFailure):
            logger.warning("the scholarly cache cannot be read", exc_info=True)
            return None
        if row is None or time.time() - float(row[1]) > ttl_seconds:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def put(self, key: str, data: dict[str, Any]) -> None:
        try:
            with closing(self._connect()) as conn, conn:
                conn.execute(
                    "INSERT OR REPLACE INTO scholar (key, data, fetched) VALUES (?, ?, ?)",
                    (key, json.dumps(data, ensure_ascii=False), time.time()),
                )
        except (sqlite3.Error, ToolFailure):
            logger.warning("the scholarly cache cannot be written", exc_info=True)
