"""run_batch: bounded concurrency without waves, input order, stopOnError, per-batch hit rate."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp_shared import BatchOptions, ErrorCode, Lookup, ToolFailure, TTLStatsCache, run_batch

pytestmark = pytest.mark.anyio


async def test_results_keep_input_order_with_ids_and_timing() -> None:
    async def double(item: int, use_cache: bool) -> int:
        await anyio.sleep(0.001 * (5 - item))
        return item * 2

    out = await run_batch("batch-x", [1, 2, 3, 4], double, BatchOptions())
    assert out["tool"] == "batch-x"
    assert [r["id"] for r in out["results"]] == ["item_0", "item_1", "item_2", "item_3"]
    assert [r["data"] for r in out["results"]] == [2, 4, 6, 8]
    assert all(r["success"] and r["error"] is None and r["processingTimeMs"] >= 0 for r in out["results"])
    summary = out["summary"]
    assert (summary["total"], summary["successful"], summary["failed"]) == (4, 4, 0)
    assert set(summary) >= {"total", "successful", "failed", "totalTimeMs", "avgTimeMs", "cacheHitRate"}


async def test_one_slow_item_does_not_hold_back_the_others() -> None:
    """A wave scheduler would finish item 1 only after slow item 0; a semaphore lets 1..4 go first."""
    finished: list[int] = []
    gate = anyio.Event()

    async def work(item: int, use_cache: bool) -> int:
        if item == 0:
            await gate.wait()
        finished.append(item)
        if len(finished) == 4:
            gate.set()
        return item

    with anyio.fail_after(5):
        await run_batch("b", [0, 1, 2, 3, 4], work, BatchOptions(maxConcurrency=2))
    assert finished[-1] == 0, finished
    assert finished[:4] == [1, 2, 3, 4]


async def test_concurrency_never_exceeds_max() -> None:
    running = peak = 0

    async def work(item: int, use_cache: bool) -> int:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await anyio.sleep(0.005)
        running -= 1
        return item

    await run_batch("b", list(range(12)), work, BatchOptions(maxConcurrency=3))
    assert peak == 3


async def test_failures_are_reported_per_item_without_stopping() -> None:
    async def work(item: int, use_cache: bool) -> int:
        if item == 1:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "text is empty")
        if item == 2:
            raise RuntimeError("boom")
        return item

    out = await run_batch("b", [0, 1, 2, 3], work, BatchOptions())
    res = out["results"]
    assert [r["success"] for r in res] == [True, False, False, True]
    assert res[1]["error"] == "VALIDATION_ERROR: text is empty"
    assert res[2]["error"].startswith("PROCESSING_ERROR:")
    assert (out["summary"]["successful"], out["summary"]["failed"]) == (2, 2)


async def test_stop_on_error_reports_unrun_items_as_skipped() -> None:
    ran: list[int] = []

    async def work(item: int, use_cache: bool) -> int:
        ran.append(item)
        if item == 1:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "bad item")
        return item

    out = await run_batch("b", list(range(6)), work, BatchOptions(maxConcurrency=1, stopOnError=True))
    res = out["results"]
    assert len(res) == 6, "no item may be dropped"
    assert ran == [0, 1]
    assert [r["success"] for r in res] == [True, False, False, False, False, False]
    assert all(r.get("skipped") for r in res[2:])
    assert all("skipped" in r["error"] for r in res[2:])
    assert out["summary"]["total"] == 6 and out["summary"]["failed"] == 5


async def test_hit_rate_counts_this_batch_only() -> None:
    cache = TTLStatsCache("c", max_size=100, ttl_seconds=60)

    async def work(item: str, use_cache: bool) -> Lookup[str]:
        async def compute() -> str:
            return item.upper()

        return await cache.get_or_compute(item, compute)

    # An earlier batch fills the cache's lifetime counters with hits.
    await run_batch("b", ["a", "a", "a", "a"], work, BatchOptions(maxConcurrency=1))
    assert cache.stats().hits == 3
    out = await run_batch("b", ["a", "x", "y"], work, BatchOptions(maxConcurrency=1))
    assert out["summary"]["cacheHitRate"] == pytest.approx(1 / 3, abs=0.01)
    assert [r["cacheHit"] for r in out["results"]] == [True, False, False]


async def test_use_cache_flag_reaches_the_item_function() -> None:
    seen: list[bool] = []

    async def work(item: int, use_cache: bool) -> int:
        seen.append(use_cache)
        return item

    await run_batch("b", [1, 2], work, BatchOptions(useCache=False))
    assert seen == [False, False]


async def test_progress_is_reported_as_items_finish() -> None:
    reports: list[tuple[float, float]] = []

    async def progress(done: float, total: float, message: str) -> None:
        reports.append((done, total))

    async def work(item: int, use_cache: bool) -> int:
        return item

    await run_batch("b", [1, 2, 3], work, BatchOptions(), progress)
    assert reports == [(1, 3), (2, 3), (3, 3)]


@pytest.mark.parametrize(
    "raw",
    [
        {"maxConcurrency": 0},
        {"maxConcurrency": -3},
        {"maxConcurrency": 2.5},
        {"maxConcurrency": "5"},
        {"maxConcurrency": True},
        {"useCache": "yes"},
        {"parallel": 4},
        "fast",
    ],
)
def test_invalid_options_are_a_validation_error(raw: Any) -> None:
    with pytest.raises(ToolFailure) as info:
        BatchOptions.parse(raw)
    assert info.value.code == ErrorCode.VALIDATION_ERROR


def test_options_default_as_the_seed_says() -> None:
    options = BatchOptions.parse(None)
    assert (options.max_concurrency, options.use_cache, options.stop_on_error) == (5, True, False)
    assert BatchOptions.parse({"maxConcurrency": 2}).max_concurrency == 2
