"""The five named caches of seed 004, built from the settings; cache-stats and cache-clear read them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcp_shared import CacheRegistry, TTLStatsCache

from .settings import Settings

__all__ = ["CACHE_NAMES", "Caches"]

CACHE_NAMES = ("factCache", "entityCache", "citationCache", "sourceRatingCache", "conflictCache")


@dataclass(frozen=True)
class Caches:
    """One server's caches; single calls and batch items share them, so a batch warms single calls."""

    registry: CacheRegistry
    facts: TTLStatsCache
    entities: TTLStatsCache
    citations: TTLStatsCache
    sources: TTLStatsCache
    conflicts: TTLStatsCache

    @classmethod
    def from_settings(cls, settings: Settings) -> Caches:
        registry = CacheRegistry()
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

    def stats(self) -> dict[str, dict[str, Any]]:
        """seed 004's cache-stats: size, hits, misses, hitRate (plus maxSize, ttlSeconds) per cache."""
        return self.registry.stats()

    def clear(self) -> dict[str, Any]:
        self.registry.clear_all()
        return {"success": True, "message": "All caches cleared"}
