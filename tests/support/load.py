"""Concurrent load over streamable HTTP: many client sessions at once, each call checked.

Used by ``test_hardening_load.py`` (bounded, in ``make test``) and ``make figures`` (larger).
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from mcp import Client
from mcp.types import CallToolResult

TIMING_KEYS = {
    "processing_time_ms",
    "processingTimeMs",
    "totalTimeMs",
    "avgTimeMs",
    "cacheHit",
    "cacheHitRate",
}

Call = tuple[str, dict[str, Any]]


def normalise(result: CallToolResult) -> str:
    """The answer without timing and cache-provenance fields, as canonical JSON."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in TIMING_KEYS}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    if result.structured_content is not None:
        body: Any = strip(result.structured_content)
    else:
        body = [getattr(c, "text", None) for c in result.content]
    return json.dumps({"error": bool(result.is_error), "body": body}, sort_keys=True)


@dataclass
class LoadReport:
    calls: int = 0
    protocol_errors: list[str] = field(default_factory=list)
    wrong_answers: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def percentile(self, q: float) -> float:
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def summary(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "seconds": round(self.seconds, 2),
            "calls_per_second": round(self.calls / self.seconds, 1) if self.seconds else 0.0,
            "p50_ms": round(self.percentile(0.50) * 1000, 1),
            "p95_ms": round(self.percentile(0.95) * 1000, 1),
            "p99_ms": round(self.percentile(0.99) * 1000, 1),
            "mean_ms": round(statistics.fmean(self.latencies) * 1000, 1) if self.latencies else 0.0,
            "protocol_errors": len(self.protocol_errors),
            "wrong_answers": len(self.wrong_answers),
        }


async def expected_answers(url: str, calls: Sequence[Call]) -> dict[str, str]:
    """Each distinct call answered once by a single client: what every concurrent answer must equal."""
    expected: dict[str, str] = {}
    async with Client(url) as client:
        for tool, args in calls:
            key = json.dumps([tool, args], sort_keys=True)
            if key not in expected:
                expected[key] = normalise(await client.call_tool(tool, args))
    return expected


async def run_load(
    url: str,
    calls: Sequence[Call],
    expected: dict[str, str],
    *,
    sessions: int,
    rounds: int,
    time_limit: float,
) -> LoadReport:
    """``sessions`` clients at once, each making ``rounds`` calls drawn round-robin from ``calls``."""
    report = LoadReport()

    async def session(index: int) -> None:
        try:
            async with Client(url) as client:
                for r in range(rounds):
                    tool, args = calls[(index * 7 + r) % len(calls)]
                    key = json.dumps([tool, args], sort_keys=True)
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, args)
                    report.latencies.append(time.perf_counter() - t0)
                    report.calls += 1
                    if normalise(result) != expected[key]:
                        report.wrong_answers.append(f"{tool} {args}: {normalise(result)[:300]}")
        except Exception as exc:  # every failure of a session is a protocol error to count, not to hide
            report.protocol_errors.append(f"session {index}: {type(exc).__name__}: {exc}")

    start = time.perf_counter()
    with anyio.fail_after(time_limit):
        async with anyio.create_task_group() as tg:
            for index in range(sessions):
                tg.start_soon(session, index)
    report.seconds = time.perf_counter() - start
    return report
