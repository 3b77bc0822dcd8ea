"""Named TTL caches with statistics, canonical keys and single-flight computation.

Why not a bare ``cachetools.TTLCache``: tools need to report hits, misses and hit
rate (seed 004's ``cache-stats``), two identical concurrent calls must compute once,
and the same arguments in another key order must find the same entry.

``TTLStatsCache`` is the embedded default, in the process's memory. ``RedisTTLCache``
(``mcp_shared.fleet``) has the same methods over Redis, for a fleet; ``StatsCache`` is what
both offer, and a ``CacheRegistry`` makes its caches with a ``CacheFactory``: in memory by
default, in Redis with ``mcp_shared.fleet.redis_caches(store)``. So this module never imports the
fleet, and a server installed without the ``fleet`` extra never imports ``redis``.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from cachetools import TTLCache

__all__ = [
    "CacheFactory",
    "CacheRegistry",
    "CacheStats",
    "Lookup",
    "StatsCache",
    "TTLStatsCache",
    "cache_key",
]

T = TypeVar("T")


def cache_key(**params: Any) -> str:
    """A canonical key for a call: every parameter, keys sorted at every depth.

    ``None``-valued parameters are kept, so ``f(x=None)`` and ``f()`` share a key only
    when the caller passes them the same way; callers pass the full, defaulted set.
    """
    return json.dumps(params, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


@dataclass(frozen=True)
class Lookup(Generic[T]):
    """A value and whether it came from the cache (a batch counts its own hit rate from these)."""

    value: T
    cache_hit: bool


@dataclass(frozen=True)
class CacheStats:
    """One cache's counters, as seed 004's ``cache-stats`` reports them."""

    size: int
    hits: int
    misses: int
    max_size: int
    ttl_seconds: float

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return round(self.hits / total, 4) if total else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "hits": self.hits,
            "misses": self.misses,
            "hitRate": self.hit_rate,
            "maxSize": self.max_size,
            "ttlSeconds": self.ttl_seconds,
        }


class StatsCache(Protocol):
    """What every cache offers: blocking calls for worker threads, async ones for the event loop."""

    name: str
    max_size: int
    ttl_seconds: float

    def get(self, key: str) -> tuple[bool, Any]: ...
    def put(self, key: str, value: Any) -> None: ...
    def stats(self) -> CacheStats: ...
    def clear(self) -> None: ...
    async def aget(self, key: str) -> tuple[bool, Any]: ...
    async def aput(self, key: str, value: Any) -> None: ...
    async def astats(self) -> CacheStats: ...
    async def aclear(self) -> None: ...
    async def get_or_compute(self, key: str, compute: Callable[[], Awaitable[T]]) -> Lookup[T]: ...


class TTLStatsCache:
    """A TTL + max-size cache that counts hits and misses and computes each key once at a time.

    Safe for use from the event loop and from worker threads: the store is guarded by a
    lock, and concurrent ``get_or_compute`` calls for one key share one computation.
    """

    def __init__(
        self, name: str, *, max_size: int, ttl_seconds: float, timer: Callable[[], float] = time.monotonic
    ) -> None:
        if max_size < 1 or ttl_seconds <= 0:
            raise ValueError(f"cache {name!r} needs max_size >= 1 and ttl_seconds > 0")
        self.name = name
        self.max_size = max_size
        self.ttl_seconds = ttl_seconds
        self._store: TTLCache[str, Any] = TTLCache(maxsize=max_size, ttl=ttl_seconds, timer=timer)
        self._lock = threading.Lock()
        self._in_flight: dict[str, asyncio.Future[Any]] = {}
        self._hits = 0
        self._misses = 0

    def get(self, key: str) -> tuple[bool, Any]:
        """Return ``(found, value)`` and count the hit or miss."""
        with self._lock:
            try:
                value = self._store[key]
            except KeyError:
                self._misses += 1
                return False, None
            self._hits += 1
            return True, value

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._store[key] = value

    async def get_or_compute(self, key: str, compute: Callable[[], Awaitable[T]]) -> Lookup[T]:
        """Return the cached value, or compute it once even when many callers ask at the same time.

        A caller that waits on another caller's computation counts as a hit: it did not compute.
        A failed computation is not cached; every waiter sees the same exception.
        """
        found, value = self.get(key)
        if found:
            return Lookup(value, True)
        pending = self._in_flight.get(key)
        if pending is not None:
            with self._lock:
                self._misses -= 1
                self._hits += 1
            return Lookup(await asyncio.shield(pending), True)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            result = await compute()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it, nobody else needs it
            raise
        else:
            self.put(key, result)
            future.set_result(result)
            return Lookup(result, False)
        finally:
            self._in_flight.pop(key, None)

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        with self._lock:
            self._store.clear()
            self._hits = 0
            self._misses = 0

    def stats(self) -> CacheStats:
        with self._lock:
            self._store.expire()
            return CacheStats(len(self._store), self._hits, self._misses, self.max_size, self.ttl_seconds)

    # The async forms, so callers need not know which kind of cache they hold.

    async def aget(self, key: str) -> tuple[bool, Any]:
        return self.get(key)

    async def aput(self, key: str, value: Any) -> None:
        self.put(key, value)

    async def astats(self) -> CacheStats:
        return self.stats()

    async def aclear(self) -> None:
        self.clear()


class CacheFactory(Protocol):
    """Makes one named cache: ``TTLStatsCache`` (the default) or a fleet's ``RedisTTLCache``."""

    def __call__(self, name: str, *, max_size: int, ttl_seconds: float) -> StatsCache: ...


class CacheRegistry(Mapping[str, StatsCache]):
    """The caches of one server, by name, so it can report and clear them all.

    ``factory`` makes each cache: ``TTLStatsCache``s in this process by default, or
    ``mcp_shared.fleet.redis_caches(store)`` for caches shared by every replica using that Redis.
    """

    def __init__(self, factory: CacheFactory | None = None) -> None:
        self._factory: CacheFactory = factory or TTLStatsCache
        self._caches: dict[str, StatsCache] = {}

    def create(self, name: str, *, max_size: int, ttl_seconds: float) -> StatsCache:
        if name in self._caches:
            raise ValueError(f"cache {name!r} already exists")
        cache = self._factory(name, max_size=max_size, ttl_seconds=ttl_seconds)
        self._caches[name] = cache
        return cache

    def __getitem__(self, name: str) -> StatsCache:
        return self._caches[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._caches)

    def __len__(self) -> int:
        return len(self._caches)

    def stats(self) -> dict[str, dict[str, Any]]:
        return {name: cache.stats().as_dict() for name, cache in self._caches.items()}

    def clear_all(self) -> None:
        for cache in self._caches.values():
            cache.clear()

    async def astats(self) -> dict[str, dict[str, Any]]:
        """``stats`` from the event loop (Redis caches: the fleet's; raises ``RedisUnavailable``)."""
        return {name: (await cache.astats()).as_dict() for name, cache in self._caches.items()}

    async def aclear_all(self) -> None:
        for cache in self._caches.values():
            await cache.aclear()
