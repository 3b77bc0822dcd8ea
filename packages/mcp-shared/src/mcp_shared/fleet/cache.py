"""``RedisTTLCache``: ``TTLStatsCache``'s API over Redis, so every replica of a fleet shares one cache.

Keys, for a cache named N under the store's namespace (``<ns>``)::

    <ns>cache:N:e:<sha256 of the key>   the value (JSON), with the cache's TTL (PX), set when stored
    <ns>cache:N:lru                     sorted set: entry -> last use (a counter, ``cache:N:seq``)
    <ns>cache:N:exp                     sorted set: entry -> expiry (ms, Redis clock)
    <ns>cache:N:stats                   hash: hits, misses (the fleet's counters)
    <ns>lease:cache:N:<sha256>          the single-flight lease of a key being computed

How the size limit is enforced: each store is one Lua script, atomic in Redis. It drops the
entries whose TTL has passed (from ``exp``), writes the value with its TTL, records it in
``lru`` and ``exp``, and while ``lru`` holds more than ``max_size`` entries deletes the least
recently used one (``ZPOPMIN`` on ``lru``, its value and its ``exp`` member with it). A hit
refreshes the entry's place in ``lru`` (not its TTL, as in ``cachetools.TTLCache``). So the
cache never holds more than ``max_size`` live entries, evicts least recently used first, and
``size`` (``ZCARD lru`` after dropping the expired) counts live entries only. Redis's own
``maxmemory`` policy is not relied on; give Redis memory for the sum of the caches' sizes.

Single flight across replicas: the first replica to miss takes a lease on the key
(``LeaseLock``) and computes; the others poll for the value (a waiter that gets it counts a
hit, as in ``TTLStatsCache``). A computation that fails stores nothing: a waiter then takes
the lease and computes itself.

When Redis fails during service the cache is bypassed, never consulted half-way: each call
computes its own answer (``cache_hit`` false, nothing counted), and ``astats``/``aclear``
raise ``RedisUnavailable`` (a RESOURCE_ERROR naming the URL). As soon as Redis answers again
the shared cache is used again. Values are stored as JSON: a computed value is returned as it
will be read back from Redis, so a hit and a miss always give the same answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..cache import CacheFactory, CacheStats, Lookup, StatsCache
from .lease import LeaseLock, LeaseWaitTimeout, produce_once
from .store import RedisStore, RedisUnavailable

__all__ = ["RedisTTLCache", "redis_caches"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_LEASE_SECONDS = 10.0
"""A computing replica renews its lease every third of this; a dead one's lapses after it."""
DEFAULT_MAX_WAIT_SECONDS = 120.0
"""A waiter computes itself after waiting this long for another replica's computation."""

_PRUNE = """
local function prune(lru, exp, prefix, now)
    local dead = redis.call('ZRANGEBYSCORE', exp, '-inf', now)
    for _, h in ipairs(dead) do
        redis.call('ZREM', lru, h)
        redis.call('DEL', prefix .. h)
    end
    redis.call('ZREMRANGEBYSCORE', exp, '-inf', now)
end
local function now_ms()
    local t = redis.call('TIME')
    return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
"""
# KEYS: entry, lru, exp, seq; ARGV: hash, value, ttl_ms, max_size, entry prefix
_PUT = (
    _PRUNE
    + """
local now = now_ms()
prune(KEYS[2], KEYS[3], ARGV[5], now)
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[3]), ARGV[1])
local over = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[4])
while over > 0 do
    local victim = redis.call('ZPOPMIN', KEYS[2])[1]
    redis.call('ZREM', KEYS[3], victim)
    redis.call('DEL', ARGV[5] .. victim)
    over = over - 1
end
return 1
"""
)
# KEYS: entry, lru, stats, seq; ARGV: hash, count (1 or 0)
_GET = """
local value = redis.call('GET', KEYS[1])
if value then
    redis.call('ZADD', KEYS[2], 'XX', redis.call('INCR', KEYS[4]), ARGV[1])
end
if ARGV[2] == '1' then
    redis.call('HINCRBY', KEYS[3], value and 'hits' or 'misses', 1)
end
return value
"""
# KEYS: lru, exp, stats; ARGV: entry prefix
_STATS = (
    _PRUNE
    + """
prune(KEYS[1], KEYS[2], ARGV[1], now_ms())
local counts = redis.call('HMGET', KEYS[3], 'hits', 'misses')
return {redis.call('ZCARD', KEYS[1]), tonumber(counts[1] or '0'), tonumber(counts[2] or '0')}
"""
)
# KEYS: lru, exp, stats, seq; ARGV: entry prefix
_CLEAR = """
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
for _, h in ipairs(members) do
    redis.call('DEL', ARGV[1] .. h)
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return #members
"""


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _encode(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class RedisTTLCache:
    """A TTL + max-size cache in Redis with fleet-wide hit/miss counters and single flight.

    The same methods as ``TTLStatsCache``: blocking ``get``/``put``/``stats``/``clear`` (for
    worker threads) and their async forms ``aget``/``aput``/``astats``/``aclear`` plus
    ``get_or_compute`` (for the event loop). Values must be JSON-serialisable.
    """

    def __init__(
        self,
        store: RedisStore,
        name: str,
        *,
        max_size: int,
        ttl_seconds: float,
        lease_seconds: float = DEFAULT_LEASE_SECONDS,
        max_wait_seconds: float = DEFAULT_MAX_WAIT_SECONDS,
    ) -> None:
        if max_size < 1 or ttl_seconds <= 0:
            raise ValueError(f"cache {name!r} needs max_size >= 1 and ttl_seconds > 0")
        self.name = name
        self.max_size = max_size
        self.ttl_seconds = ttl_seconds
        self.store = store
        self.lease_seconds = lease_seconds
        self.max_wait_seconds = max_wait_seconds
        self._prefix = store.key("cache", name, "e", "")
        self._lru = store.key("cache", name, "lru")
        self._exp = store.key("cache", name, "exp")
        self._stats = store.key("cache", name, "stats")
        self._seq = store.key("cache", name, "seq")
        self._ttl_ms = max(1, int(ttl_seconds * 1000))
        client = store.client
        self._put_script = client.register_script(_PUT)
        self._get_script = client.register_script(_GET)
        self._stats_script = client.register_script(_STATS)
        self._clear_script = client.register_script(_CLEAR)
        self._in_flight: dict[str, asyncio.Future[Any]] = {}

    # -- blocking API (raises RedisUnavailable) --

    def _read(self, digest: str, count: bool) -> tuple[bool, Any]:
        raw = self.store.call(
            lambda: self._get_script(
                keys=[self._prefix + digest, self._lru, self._stats, self._seq],
                args=[digest, "1" if count else "0"],
            )
        )
        if raw is None:
            return False, None
        return True, json.loads(raw)

    def _write(self, digest: str, encoded: str) -> None:
        self.store.call(
            lambda: self._put_script(
                keys=[self._prefix + digest, self._lru, self._exp, self._seq],
                args=[digest, encoded, self._ttl_ms, self.max_size, self._prefix],
            )
        )

    def _count_wait_as_hit(self) -> None:
        def adjust() -> None:
            with self.store.client.pipeline(transaction=True) as pipe:
                pipe.hincrby(self._stats, "misses", -1)
                pipe.hincrby(self._stats, "hits", 1)
                pipe.execute()

        self.store.call(adjust)

    def _count_hit(self) -> None:
        self.store.call(lambda: self.store.client.hincrby(self._stats, "hits", 1))

    def get(self, key: str) -> tuple[bool, Any]:
        """Return ``(found, value)`` and count the hit or miss fleet-wide."""
        return self._read(_digest(key), True)

    def put(self, key: str, value: Any) -> None:
        self._write(_digest(key), _encode(value))

    def stats(self) -> CacheStats:
        size, hits, misses = self.store.call(
            lambda: self._stats_script(keys=[self._lru, self._exp, self._stats], args=[self._prefix])
        )
        return CacheStats(int(size), int(hits), int(misses), self.max_size, self.ttl_seconds)

    def clear(self) -> None:
        """Drop every entry and reset the counters, for the whole fleet."""
        self.store.call(
            lambda: self._clear_script(
                keys=[self._lru, self._exp, self._stats, self._seq], args=[self._prefix]
            )
        )

    # -- async API --

    async def aget(self, key: str) -> tuple[bool, Any]:
        """``get``; a Redis failure reads as an uncounted miss (the caller computes)."""
        try:
            return await self.store.run(lambda: self.get(key))
        except RedisUnavailable:
            return False, None

    async def aput(self, key: str, value: Any) -> None:
        """``put``; a Redis failure stores nothing."""
        try:
            await self.store.run(lambda: self.put(key, value))
        except RedisUnavailable:
            return

    async def astats(self) -> CacheStats:
        """Raises ``RedisUnavailable``: the fleet's counters cannot be guessed."""
        return await self.store.run(self.stats)

    async def aclear(self) -> None:
        """Raises ``RedisUnavailable``: a clear that did not happen must not be reported."""
        await self.store.run(self.clear)

    async def get_or_compute(self, key: str, compute: Callable[[], Awaitable[T]]) -> Lookup[T]:
        """The cached value, or one computation per key across the fleet (see the module docstring)."""
        pending = self._in_flight.get(key)
        if pending is not None:  # the same key already on its way in this replica
            value = await asyncio.shield(pending)
            with contextlib.suppress(RedisUnavailable):
                await self.store.run(self._count_hit)
            return Lookup(value, True)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._in_flight[key] = future
        try:
            lookup = await self._fleet_lookup(key, compute)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved: waiters re-raise it, nobody else needs it
            raise
        else:
            future.set_result(lookup.value)
            return lookup
        finally:
            self._in_flight.pop(key, None)

    async def _fleet_lookup(self, key: str, compute: Callable[[], Awaitable[T]]) -> Lookup[T]:
        digest = _digest(key)
        try:
            found, value = await self.store.run(lambda: self._read(digest, True))
        except RedisUnavailable:
            return Lookup(await compute(), False)
        if found:
            return Lookup(value, True)

        async def read_shared() -> tuple[Any] | None:
            hit, cached = await self.store.run(lambda: self._read(digest, False))
            return (cached,) if hit else None

        async def produce() -> tuple[Any]:
            encoded = _encode(await compute())
            with contextlib.suppress(RedisUnavailable):
                await self.store.run(lambda: self._write(digest, encoded))
            return (json.loads(encoded),)

        lease = LeaseLock(self.store, f"cache:{self.name}:{digest}", self.lease_seconds)
        try:
            (result,), produced = await produce_once(
                lease, read_shared, produce, max_wait=self.max_wait_seconds
            )
        except (RedisUnavailable, LeaseWaitTimeout) as exc:
            logger.warning("cache %s: computing without the shared cache (%s)", self.name, exc)
            return Lookup(await compute(), False)
        if not produced:
            with contextlib.suppress(RedisUnavailable):
                await self.store.run(self._count_wait_as_hit)
        return Lookup(result, not produced)


def redis_caches(store: RedisStore) -> CacheFactory:
    """The ``CacheRegistry`` factory of a fleet: every cache it makes lives in ``store``'s Redis."""

    def make(name: str, *, max_size: int, ttl_seconds: float) -> StatsCache:
        return RedisTTLCache(store, name, max_size=max_size, ttl_seconds=ttl_seconds)

    return make
