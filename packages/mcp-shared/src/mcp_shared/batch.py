"""Run one async item function over a list, the way seed 004's batch-* tools describe.

Concurrency is bounded by a semaphore, not processed in waves, so one slow item never
holds back the items behind it. Results come back in input order with per-item timing;
with ``stopOnError`` the items that were never started are reported as skipped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, Generic, TypeVar

import anyio
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from .cache import Lookup
from .errors import ErrorCode, ToolFailure
from .validation import describe_validation_error

__all__ = ["BatchOptions", "ProgressFn", "run_batch"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

MAX_CONCURRENCY_LIMIT = 64

ProgressFn = Callable[[float, float, str], Coroutine[Any, Any, None]]
"""``(done, total, message)``: reports progress as items finish."""


class BatchOptions(BaseModel):
    """Seed 004's batch options, camelCase on the wire."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    max_concurrency: StrictInt = Field(
        default=5,
        alias="maxConcurrency",
        ge=1,
        le=MAX_CONCURRENCY_LIMIT,
        description="How many items run at once (1-64).",
    )
    use_cache: StrictBool = Field(
        default=True, alias="useCache", description="Serve repeated items from the tool's cache."
    )
    stop_on_error: StrictBool = Field(
        default=False,
        alias="stopOnError",
        description="After the first failure, start no more items; they are reported as skipped.",
    )

    @classmethod
    def parse(cls, raw: Any) -> BatchOptions:
        """Validate raw options; anything wrong is a VALIDATION_ERROR."""
        if raw is None:
            return cls()
        if isinstance(raw, BatchOptions):
            return raw
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR, f"invalid batch options: {describe_validation_error(exc)}"
            ) from exc


class _Item(Generic[T]):
    __slots__ = ("cache_hit", "data", "error", "ms", "state")

    def __init__(self) -> None:
        self.state = "skipped"
        self.data: Any = None
        self.error: str | None = None
        self.ms = 0.0
        self.cache_hit = False


def _failure_text(exc: Exception) -> str:
    if isinstance(exc, ToolFailure):
        return str(exc)
    logger.exception("batch item failed unexpectedly")
    return f"{ErrorCode.PROCESSING_ERROR}: {type(exc).__name__}: {exc}"


async def run_batch(
    tool: str,
    items: Sequence[T],
    run_item: Callable[[T, bool], Awaitable[Any]],
    options: BatchOptions,
    progress: ProgressFn | None = None,
) -> dict[str, Any]:
    """Run ``run_item(item, use_cache)`` over ``items`` and build seed 004's batch result.

    ``run_item`` returns the item's data, or a ``Lookup`` so the batch can count its own
    cache hits. A ``ToolFailure`` fails that item with its code; any other exception fails
    it as PROCESSING_ERROR. Neither stops the batch unless ``stopOnError`` is set.
    """
    slots = [_Item[T]() for _ in items]
    limiter = anyio.Semaphore(options.max_concurrency)
    stop = anyio.Event()
    done = 0
    started = time.perf_counter()

    async def one(index: int, item: T) -> None:
        nonlocal done
        async with limiter:
            if stop.is_set():
                return
            slot = slots[index]
            t0 = time.perf_counter()
            try:
                outcome = await run_item(item, options.use_cache)
            except Exception as exc:
                slot.state, slot.error = "failed", _failure_text(exc)
                if options.stop_on_error:
                    stop.set()
            else:
                if isinstance(outcome, Lookup):
                    slot.data, slot.cache_hit = outcome.value, outcome.cache_hit
                else:
                    slot.data = outcome
                slot.state = "ok"
            slot.ms = (time.perf_counter() - t0) * 1000
            done += 1
            if progress is not None:
                await progress(done, len(items), f"{tool}: {done}/{len(items)} items done")

    async with anyio.create_task_group() as tg:
        for index, item in enumerate(items):
            tg.start_soon(one, index, item)

    total_ms = (time.perf_counter() - started) * 1000
    results: list[dict[str, Any]] = []
    for index, slot in enumerate(slots):
        entry: dict[str, Any] = {
            "id": f"item_{index}",
            "success": slot.state == "ok",
            "data": slot.data,
            "error": slot.error,
            "processingTimeMs": round(slot.ms, 2),
            "cacheHit": slot.cache_hit,
        }
        if slot.state == "skipped":
            entry["skipped"] = True
            entry["error"] = "skipped: an earlier item failed and stopOnError is set"
        results.append(entry)
    ran = [s for s in slots if s.state != "skipped"]
    successful = sum(1 for s in slots if s.state == "ok")
    hits = sum(1 for s in slots if s.state == "ok" and s.cache_hit)
    summary = {
        "total": len(items),
        "successful": successful,
        "failed": len(items) - successful,
        "skipped": len(items) - len(ran),
        "totalTimeMs": round(total_ms, 2),
        "avgTimeMs": round(sum(s.ms for s in ran) / len(ran), 2) if ran else 0.0,
        "cacheHitRate": round(hits / len(items), 4) if items else 0.0,
    }
    return {"tool": tool, "results": results, "summary": summary}
