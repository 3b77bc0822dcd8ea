"""What replicas of papers-mcp share in Redis: the arXiv gate, paper metadata, converted text, conversion leases.

Without ``PAPERS_MCP_REDIS_URL`` none of this exists and each process keeps its own gate
and library, exactly as before. With it:

- the arXiv gate is mcp-shared's ``FleetGate``: one request per ``PAPERS_MCP_MIN_INTERVAL_SECONDS``
  across every replica (searches, lookups and downloads alike), with a bounded wait;
- metadata (``meta:<versioned id>``, ``latest:<base id>``) and converted text
  (``text:<versioned id>:x<extractor version>``) are shared, so a paper seen or converted by one
  replica is served by all without asking arXiv again; each replica also keeps what it reads in its
  own local library;
- one download and conversion per paper per fleet: a ``LeaseLock`` on ``convert:<versioned id>``,
  renewed while its holder works; the other replicas wait for the shared text, and take over if
  the holder dies (its lease lapses after ``PAPERS_MCP_LEASE_SECONDS``).

Reads that fail because Redis is down count as "not shared": the replica answers from its own
library when it can; anything that needs arXiv then fails at the gate with a RESOURCE_ERROR, so
a replica never calls arXiv outside the fleet-wide limit.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from mcp_shared.fleet import FleetGate, LeaseLock, RedisStore, RedisUnavailable, connect_store

from .ids import ArxivId
from .metadata import PaperMeta
from .settings import Settings

__all__ = ["SharedLibrary", "connect_fleet"]

logger = logging.getLogger(__name__)

NAMESPACE = "papers-mcp:"

# KEYS: latest:<base>; ARGV: versioned id, version, ttl_ms. Keeps the highest version seen.
_LATEST = """
local current = redis.call('HGET', KEYS[1], 'version')
if (not current) or tonumber(ARGV[2]) >= tonumber(current) then
    redis.call('HSET', KEYS[1], 'id', ARGV[1], 'version', ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""


class SharedLibrary:
    """The fleet's shared papers: blocking methods, called from worker threads like ``Library``'s."""

    def __init__(self, store: RedisStore, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.gate = FleetGate(
            store, "arxiv", settings.min_interval_seconds, settings.gate_max_wait_seconds, service="arXiv"
        )
        self._ttl_ms = int(settings.shared_ttl_seconds * 1000)
        self._latest = store.client.register_script(_LATEST)

    def lease(self, vid: ArxivId) -> LeaseLock:
        """The lease on downloading and converting one version of one paper."""
        return LeaseLock(self.store, f"convert:{vid.text}", self.settings.lease_seconds)

    # -- metadata --

    def meta(self, aid: ArxivId) -> PaperMeta | None:
        """Shared metadata: the exact version, or for an unversioned id the latest version seen. Never raises."""
        client = self.store.client
        try:
            key = aid.text
            if aid.version is None:
                latest = self.store.call(lambda: client.hget(self.store.key("latest", aid.base), "id"))
                if latest is None:
                    return None
                key = latest.decode() if isinstance(latest, bytes) else str(latest)
            raw = self.store.call(lambda: client.get(self.store.key("meta", key)))
        except RedisUnavailable:
            return None
        if raw is None:
            return None
        try:
            return PaperMeta.from_dict(json.loads(raw))
        except (ValueError, KeyError, TypeError):
            logger.warning("ignoring a corrupt shared metadata record for arxiv:%s", key)
            return None

    def remember(self, papers: Sequence[PaperMeta]) -> None:
        """Share what arXiv said about these papers (best effort: an outage shares nothing)."""
        if not papers:
            return

        def write() -> None:
            with self.store.client.pipeline(transaction=False) as pipe:
                for paper in papers:
                    aid = paper.arxiv_id
                    data = json.dumps(paper.to_dict(), ensure_ascii=False)
                    pipe.set(self.store.key("meta", aid.text), data, px=self._ttl_ms)
                    if aid.version is not None:
                        self._latest(
                            keys=[self.store.key("latest", aid.base)],
                            args=[aid.text, aid.version, self._ttl_ms],
                            client=pipe,
                        )
                pipe.execute()

        try:
            self.store.call(write)
        except RedisUnavailable:
            logger.debug("metadata not shared: Redis unavailable")

    # -- converted text --

    def _text_key(self, vid: ArxivId, extractor_version: str) -> str:
        return self.store.key("text", f"{vid.text}:x{extractor_version}")

    def read_text(self, vid: ArxivId, extractor_version: str) -> dict[str, Any] | None:
        """The shared conversion, or None.

        Raises:
            RedisUnavailable: Redis cannot be asked (the caller must not treat this as "not converted").
        """
        raw = self.store.call(lambda: self.store.client.get(self._text_key(vid, extractor_version)))
        if raw is None:
            return None
        try:
            data = json.loads(raw)
        except ValueError:
            logger.warning("ignoring an unreadable shared conversion of arxiv:%s", vid.text)
            return None
        return data if isinstance(data, dict) else None

    def write_text(self, vid: ArxivId, extractor_version: str, data: Mapping[str, Any]) -> None:
        """Share a conversion (best effort: the converting replica answers from its own copy anyway)."""
        encoded = json.dumps(data, ensure_ascii=False)
        try:
            self.store.call(
                lambda: self.store.client.set(
                    self._text_key(vid, extractor_version), encoded, px=self._ttl_ms
                )
            )
        except RedisUnavailable:
            logger.warning("the conversion of arxiv:%s could not be shared: Redis unavailable", vid.text)


def connect_fleet(settings: Settings) -> SharedLibrary | None:
    """The shared library when ``settings.redis_url`` is set (else None: the embedded default).

    Raises:
        SettingsError: Redis cannot be reached at start-up (CONFIGURATION_ERROR naming the URL).
    """
    store = connect_store(
        settings.redis_url,
        NAMESPACE,
        variable="PAPERS_MCP_REDIS_URL",
        timeout=settings.redis_timeout_seconds,
        extra="papers-mcp[fleet]",
    )
    return SharedLibrary(store, settings) if store else None
