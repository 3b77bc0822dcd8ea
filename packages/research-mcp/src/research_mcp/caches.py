"""The five named caches of seed 004, built from the settings; cache-stats and cache-clear read them.

Embedded default: in this process (``TTLStatsCache``). Given a ``RedisStore`` (a fleet):
in Redis (``RedisTTLCache``), so every replica shares entries, counters and single flight, and
cache-stats / cache-clear report and clear the fleet's caches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_shared import CacheRegistry, StatsCache
from mcp_shared.fleet import RedisStore, redis_caches

from .settings import Settings

__all__ = ["CACHE_NAMES", "Caches"]

CACHE_NAMES = ("factCache", "entityCache", "citationCache", "sourceRatingCache", "conflictCache")


@dataclass(frozen=True)
class Caches:
    """One server's caches; single calls and batch items share them, so a batch warms single calls."""

    registry: CacheRegistry
    facts: StatsCache
    entities: StatsCache
    citations: StatsCache
    sources: StatsCache
    conflicts: StatsCache

    @classmethod
    def from_settings(cls, settings: Settings, store: RedisStore | None = None) -> Caches:
        registry = CacheRegistry(redis_caches(store) if store else None)
        made = {
            name: registry.create(
                name,
                max_size=settings.caches[name].max_size,
                ttl_seconds=settings.caches[name].ttl_seconds,
            )
            for name in CACHE_NAMES
        }
        return cls(
            registry,
            made["factCache"],
            made["entityCache"],
            made["citationCache"],
            made["sourceRatingCache"],
            made["conflictCache"],
        )

    async def stats(self) -> dict[str, dict[str, Any]]:
        """seed 004's cache-stats: size, hits, misses, hitRate (plus maxSize, ttlSeconds) per cache.

        Raises:
            RedisUnavailable: a fleet's Redis cannot be reached (RESOURCE_ERROR).
        """
        return await self.registry.astats()

    async def clear(self) -> dict[str, Any]:
        await self.registry.aclear_all()
        return {"success": True, "message": "All caches cleared"}
