"""mcp-shared's fleet state against a real redis-server: the Redis cache, the fleet gate, the lease lock.

Two ``RedisStore`` connections stand for two replicas. Expected values come from the
issue's contract (the seed's counters, one computation per key, one request per interval)
and from TTLStatsCache's own behaviour, which the Redis cache must match.
"""

from __future__ import annotations

import itertools
import threading
import time

import anyio
import pytest
from mcp_shared import CacheRegistry, ErrorCode, SettingsError, ToolFailure, TTLStatsCache
from mcp_shared.fleet import (
    FleetGate,
    LeaseLock,
    RedisStore,
    RedisTTLCache,
    RedisUnavailable,
    produce_once,
    redact_url,
    redis_caches,
)
from support.fleet import RedisServer, redis_server

pytestmark = pytest.mark.anyio


def stores(redis: RedisServer, n: int = 2) -> list[RedisStore]:
    return [RedisStore.connect(redis.url, "test:") for _ in range(n)]


async def test_redis_cache_counts_like_the_local_cache(redis: RedisServer) -> None:
    a, b = stores(redis)
    local = TTLStatsCache("c", max_size=10, ttl_seconds=60)
    on_a = RedisTTLCache(a, "c", max_size=10, ttl_seconds=60)
    on_b = RedisTTLCache(b, "c", max_size=10, ttl_seconds=60)

    async def compute() -> dict[str, int]:
        return {"answer": 42}

    for cache in (local, on_a):
        first = await cache.get_or_compute("k", compute)
        second = await cache.get_or_compute("k", compute)
        assert (first.value, first.cache_hit, second.value, second.cache_hit) == (
            {"answer": 42},
            False,
            {"answer": 42},
            True,
        )
    # The other replica finds the entry, and both read the fleet's counters.
    third = await on_b.get_or_compute("k", compute)
    assert third.cache_hit and third.value == {"answer": 42}
    assert (await on_a.astats()).as_dict() == (await on_b.astats()).as_dict()
    stats = await on_b.astats()
    assert (stats.size, stats.hits, stats.misses, stats.hit_rate) == (1, 2, 1, round(2 / 3, 4))
    await on_b.aclear()
    assert (await on_a.astats()).as_dict() == {
        **stats.as_dict(),
        "size": 0,
        "hits": 0,
        "misses": 0,
        "hitRate": 0.0,
    }


async def test_size_limit_evicts_least_recently_used_and_ttl_expires(redis: RedisServer) -> None:
    (store,) = stores(redis, 1)
    cache = RedisTTLCache(store, "lru", max_size=3, ttl_seconds=60)
    for key in ("a", "b", "c"):
        await cache.aput(key, key)
    assert await cache.aget("a") == (True, "a")  # "a" used last: "b" is now the least recently used
    await cache.aput("d", "d")
    assert (await cache.astats()).size == 3
    assert await cache.aget("b") == (False, None)
    assert [await cache.aget(k) for k in ("a", "c", "d")] == [(True, "a"), (True, "c"), (True, "d")]
    raw_keys = store.client.keys("test:cache:lru:e:*")
    assert len(raw_keys) == 3, "an evicted entry's value is deleted, not only unlisted"

    short = RedisTTLCache(store, "ttl", max_size=10, ttl_seconds=0.3)
    await short.aput("k", 1)
    assert await short.aget("k") == (True, 1)
    await anyio.sleep(0.45)
    assert await short.aget("k") == (False, None)
    assert (await short.astats()).size == 0


async def test_one_computation_per_key_across_replicas(redis: RedisServer) -> None:
    a, b = stores(redis)
    caches = [RedisTTLCache(s, "sf", max_size=10, ttl_seconds=60) for s in (a, b, a, b)]
    calls = 0
    started = anyio.Event()
    release = anyio.Event()

    async def compute() -> str:
        nonlocal calls
        calls += 1
        started.set()
        await release.wait()
        return "value"

    results = []

    async def ask(cache: RedisTTLCache) -> None:
        results.append(await cache.get_or_compute("same", compute))

    async with anyio.create_task_group() as tg:
        tg.start_soon(ask, caches[0])
        await started.wait()
        for cache in caches[1:]:
            tg.start_soon(ask, cache)
        await anyio.sleep(0.3)  # the others are now waiting on the lease
        release.set()
    assert calls == 1
    assert sorted(r.cache_hit for r in results) == [False, True, True, True]
    assert all(r.value == "value" for r in results)
    stats = await caches[1].astats()
    assert (stats.hits, stats.misses) == (3, 1), "a waiter counts a hit, as in TTLStatsCache"


async def test_a_dead_holder_is_taken_over_after_its_lease(redis: RedisServer) -> None:
    a, b = stores(redis)
    dead = LeaseLock(a, "work", lease_seconds=0.4)
    assert dead.acquire()  # then "dies": never renews, never releases
    live = LeaseLock(b, "work", lease_seconds=0.4)
    assert not live.acquire()
    produced: list[str] = []

    async def read() -> str | None:
        return produced[0] if produced else None

    async def produce() -> str:
        produced.append("done by b")
        return "done by b"

    t0 = time.monotonic()
    value, here = await produce_once(live, read, produce, max_wait=5)
    waited = time.monotonic() - t0
    assert (value, here) == ("done by b", True)
    assert 0.2 < waited < 2.0, f"took over after {waited:.2f} s (lease 0.4 s)"
    assert not live.holder_alive(), "the lease is released when the work is done"


async def test_a_renewed_lease_is_not_taken_while_its_holder_works(redis: RedisServer) -> None:
    a, b = stores(redis)
    holder = LeaseLock(a, "long", lease_seconds=0.3)
    assert await holder.aacquire()
    async with holder.renewing():
        await anyio.sleep(1.0)  # three lease lengths
        assert not await LeaseLock(b, "long", lease_seconds=0.3).aacquire()
    assert await LeaseLock(b, "long", lease_seconds=0.3).aacquire()


def test_the_gate_spaces_requests_across_replicas_first_come_first_served(redis: RedisServer) -> None:
    a, b = stores(redis)
    gates = [FleetGate(s, "svc", interval=0.2, max_wait=10, service="svc") for s in (a, b, a, b)]
    times: list[float] = []
    lock = threading.Lock()

    def request(gate: FleetGate) -> None:
        for _ in range(2):
            gate.wait()
            with lock:
                times.append(time.monotonic())

    threads = [threading.Thread(target=request, args=(g,)) for g in gates]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    times.sort()
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) == 8
    assert min(gaps) >= 0.2 - 0.01, f"gaps {[round(g, 3) for g in gaps]}"
    assert times[-1] - times[0] < 7 * 0.2 + 1.0, "slots are consecutive: nobody waits longer than the queue"


def test_the_gate_refuses_a_wait_beyond_its_bound(redis: RedisServer) -> None:
    (store,) = stores(redis, 1)
    gate = FleetGate(store, "busy", interval=5, max_wait=1, service="arXiv")
    gate.wait()  # takes the free slot; the next is 5 s away
    t0 = time.monotonic()
    with pytest.raises(ToolFailure) as info:
        gate.wait()
    assert time.monotonic() - t0 < 0.5, "refused at once, not after waiting"
    assert info.value.code is ErrorCode.RESOURCE_ERROR and "arXiv" in info.value.message


def test_unreachable_redis_at_start_is_a_configuration_error_without_the_password(redis: RedisServer) -> None:
    url = f"redis://:s3cret-pass@127.0.0.1:{redis.port + 1 if redis.port < 65535 else 1}/0"
    with pytest.raises(SettingsError) as info:
        RedisStore.connect(url, "x:", variable="RESEARCH_MCP_REDIS_URL", timeout=1)
    assert info.value.code is ErrorCode.CONFIGURATION_ERROR
    assert "RESEARCH_MCP_REDIS_URL=redis://***@127.0.0.1:" in info.value.message
    assert "s3cret" not in str(info.value)
    assert redact_url("redis://user:pw@host:6380/2") == "redis://***@host:6380/2"
    assert redact_url("redis://host:6379") == "redis://host:6379"


async def test_redis_lost_during_service_bypasses_the_cache_and_never_hangs(fleet_binaries: None) -> None:
    with redis_server(password="fleet-password-1234") as server:
        store = RedisStore.connect(server.url, "t:", timeout=1)
        registry = CacheRegistry(redis_caches(store))
        cache = registry.create("factCache", max_size=10, ttl_seconds=60)
        computed = 0

        async def compute() -> dict[str, str]:
            nonlocal computed
            computed += 1
            return {"fact": "x"}

        assert not (await cache.get_or_compute("k", compute)).cache_hit
        assert (await cache.get_or_compute("k", compute)).cache_hit
        server.stop()
        t0 = time.monotonic()
        for _ in range(20):
            found = await cache.get_or_compute("k", compute)
            assert found.value == {"fact": "x"} and not found.cache_hit
        assert time.monotonic() - t0 < 3, "an outage costs a call at most one timeout, not one each"
        with pytest.raises(RedisUnavailable) as info:
            await registry.astats()
        assert info.value.code is ErrorCode.RESOURCE_ERROR
        assert "127.0.0.1" in info.value.message and "fleet-password" not in info.value.message
        with pytest.raises(RedisUnavailable):
            FleetGate(store, "g", interval=1, max_wait=1, service="arXiv").wait()

        server.start()  # back: the shared cache is used again after the cool-down
        await anyio.sleep(1.1)
        assert (await cache.get_or_compute("k2", compute)).cache_hit is False
        assert (await cache.get_or_compute("k2", compute)).cache_hit is True
        assert (await registry.astats())["factCache"]["size"] == 1
