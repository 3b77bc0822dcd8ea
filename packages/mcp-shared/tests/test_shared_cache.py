"""TTLStatsCache and CacheRegistry: canonical keys, counters, expiry, single flight."""

from __future__ import annotations

import anyio
import pytest
from mcp_shared import CacheRegistry, TTLStatsCache, cache_key

pytestmark = pytest.mark.anyio


def test_key_does_not_depend_on_argument_order() -> None:
    a = cache_key(text="x", options={"b": 1, "a": [1, {"y": 2, "x": 1}]}, source_type="news")
    b = cache_key(source_type="news", options={"a": [1, {"x": 1, "y": 2}], "b": 1}, text="x")
    assert a == b


def test_key_includes_every_parameter() -> None:
    assert cache_key(url="https://a.org", source_type="news") != cache_key(
        url="https://a.org", source_type="blog"
    )
    assert cache_key(url="https://a.org", source_type=None) != cache_key(url="https://a.org")


async def test_hits_misses_and_hit_rate_are_counted() -> None:
    cache = TTLStatsCache("facts", max_size=10, ttl_seconds=60)
    calls = 0

    async def compute() -> int:
        nonlocal calls
        calls += 1
        return 42

    first = await cache.get_or_compute("k", compute)
    second = await cache.get_or_compute("k", compute)
    assert (first.value, first.cache_hit) == (42, False)
    assert (second.value, second.cache_hit) == (42, True)
    stats = cache.stats()
    assert (stats.size, stats.hits, stats.misses, stats.hit_rate) == (1, 1, 1, 0.5)
    assert calls == 1


async def test_entries_expire_after_ttl() -> None:
    now = [0.0]
    cache = TTLStatsCache("c", max_size=10, ttl_seconds=5, timer=lambda: now[0])
    cache.put("k", 1)
    assert cache.get("k") == (True, 1)
    now[0] = 6.0
    assert cache.get("k") == (False, None)
    assert cache.stats().size == 0


def test_max_size_evicts() -> None:
    cache = TTLStatsCache("c", max_size=2, ttl_seconds=60)
    for i in range(5):
        cache.put(str(i), i)
    assert cache.stats().size == 2


async def test_two_identical_concurrent_calls_compute_once() -> None:
    cache = TTLStatsCache("c", max_size=10, ttl_seconds=60)
    calls = 0
    release = anyio.Event()

    async def compute() -> str:
        nonlocal calls
        calls += 1
        await release.wait()
        return "value"

    results = []

    async def ask() -> None:
        results.append(await cache.get_or_compute("same", compute))

    async with anyio.create_task_group() as tg:
        tg.start_soon(ask)
        tg.start_soon(ask)
        tg.start_soon(ask)
        await anyio.wait_all_tasks_blocked()
        release.set()
    assert calls == 1
    assert sorted(r.cache_hit for r in results) == [False, True, True]
    assert all(r.value == "value" for r in results)


async def test_a_failed_computation_is_not_cached() -> None:
    cache = TTLStatsCache("c", max_size=10, ttl_seconds=60)

    async def boom() -> int:
        raise ValueError("nope")

    async def ok() -> int:
        return 7

    with pytest.raises(ValueError, match="nope"):
        await cache.get_or_compute("k", boom)
    assert (await cache.get_or_compute("k", ok)).value == 7


def test_registry_reports_and_clears_every_cache() -> None:
    registry = CacheRegistry()
    facts = registry.create("factCache", max_size=500, ttl_seconds=600)
    entities = registry.create("entityCache", max_size=500, ttl_seconds=600)
    facts.put("a", 1)
    facts.get("a")
    entities.get("missing")
    stats = registry.stats()
    assert set(stats) == {"factCache", "entityCache"}
    assert stats["factCache"]["size"] == 1 and stats["factCache"]["hits"] == 1
    assert stats["entityCache"]["misses"] == 1 and stats["entityCache"]["hitRate"] == 0.0
    registry.clear_all()
    assert registry.stats()["factCache"] == {**stats["factCache"], "size": 0, "hits": 0, "hitRate": 0.0}
    with pytest.raises(ValueError, match="already exists"):
        registry.create("factCache", max_size=1, ttl_seconds=1)
