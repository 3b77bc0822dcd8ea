"""Both servers as a fleet: real redis-server, replicas as subprocesses on 127.0.0.1, a real HAProxy in front.

What each test pins comes from the issue: caches shared and statistics equal across replicas
(one computation per distinct call for the whole fleet); one download per paper per fleet;
the arXiv gate's spacing seen at the replay arXiv; a conversion lease taken over after its
holder is killed; Redis stopped under load gives clear errors and never a wrong answer.
Loads are small here; ``make bench`` runs the big ones.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.types import TextContent
from support.fleet import LoadBalancer, RedisServer, Replica, load_balancer, redis_server, replicas
from support.load import Call, expected_answers, normalise, run_load

pytestmark = pytest.mark.anyio

RESEARCH_CALLS: list[Call] = [
    *[
        ("source-rate", {"source_url": url})
        for url in (
            "https://www.nature.com/articles/s41586-020-2649-2",
            "https://www.reuters.com/technology/x",
            "https://someone.github.io/post",
            "https://stanford.edu.evil.io/paper",
            "https://arxiv.org/abs/1706.03762",
            "http://203.0.113.7/page",
        )
    ],
    *[
        (
            "conflict-detect",
            {
                "facts": [
                    {"entity": "AI market", "attribute": "size", "value": v1, "value_type": "number", "source": "A"},
                    {"entity": "AI market", "attribute": "size", "value": v2, "value_type": "number", "source": "B"},
                ]
            },
        )
        for v1, v2 in (("22.4", "28.5"), ("100", "101"))
    ],
]
CACHE_OF = {"source-rate": "sourceRatingCache", "conflict-detect": "conflictCache"}
SESSIONS, ROUNDS = 6, 8


@pytest.fixture(scope="module")
def fleet_redis(fleet_binaries: None) -> Iterator[RedisServer]:
    """One redis-server for the module (a test that stops it starts it again)."""
    with redis_server() as server:
        yield server


@pytest.fixture(scope="module")
def research_fleet(fleet_redis: RedisServer) -> Iterator[tuple[list[Replica], LoadBalancer]]:
    """Two research-mcp replicas sharing one Redis, behind HAProxy."""
    env = {"RESEARCH_MCP_REDIS_URL": fleet_redis.url}
    with replicas("research_mcp", [env, env]) as started, load_balancer(started) as lb:
        yield started, lb


async def call(url: str, tool: str, args: dict[str, Any] | None = None) -> Any:
    async with Client(url) as client:
        result = await client.call_tool(tool, args or {})
    if result.is_error:
        assert isinstance(result.content[0], TextContent)
        return result.content[0].text
    return result.structured_content


async def test_replicas_share_caches_and_report_the_same_statistics(
    research_fleet: tuple[list[Replica], LoadBalancer],
) -> None:
    (first, second), lb = research_fleet
    await call(lb.url, "cache-clear")
    expected = await expected_answers(lb.url, RESEARCH_CALLS)
    report = await run_load(lb.url, RESEARCH_CALLS, expected, sessions=SESSIONS, rounds=ROUNDS, time_limit=120)
    assert report.protocol_errors == [], report.protocol_errors[:3]
    assert report.wrong_answers == [], report.wrong_answers[:3]
    served = lb.served()
    assert min(served.values()) > 0.3 * sum(served.values()), f"the balancer spread the load: {served}"

    stats = [await call(r.url, "cache-stats") for r in (first, second)]
    assert stats[0] == stats[1], "every replica reports the fleet's caches"
    for name in ("sourceRatingCache", "conflictCache"):
        distinct = sum(1 for tool, _ in RESEARCH_CALLS if CACHE_OF[tool] == name)
        made = distinct + sum(
            1
            for index in range(SESSIONS)
            for r in range(ROUNDS)
            if CACHE_OF[RESEARCH_CALLS[(index * 7 + r) % len(RESEARCH_CALLS)][0]] == name
        )
        assert stats[0][name]["misses"] == distinct, f"{name}: one computation per distinct call, fleet-wide"
        assert stats[0][name]["hits"] + stats[0][name]["misses"] == made
        assert stats[0][name]["size"] == distinct
    assert stats[0]["factCache"]["hits"] == stats[0]["factCache"]["misses"] == 0

    cleared = await call(second.url, "cache-clear")
    assert cleared == {"success": True, "message": "All caches cleared"}
    after = await call(first.url, "cache-stats")
    assert after["sourceRatingCache"] | {"ttlSeconds": 0} == {
        "size": 0,
        "hits": 0,
        "misses": 0,
        "hitRate": 0.0,
        "maxSize": 1000,
        "ttlSeconds": 0,
    }


async def test_redis_stopped_under_load_gives_clear_errors_and_no_wrong_answer(
    fleet_redis: RedisServer, research_fleet: tuple[list[Replica], LoadBalancer]
) -> None:
    redis = fleet_redis
    (first, _), lb = research_fleet
    expected = await expected_answers(lb.url, RESEARCH_CALLS)
    reports = []

    async def load() -> None:
        reports.append(
            await run_load(lb.url, RESEARCH_CALLS, expected, sessions=SESSIONS, rounds=ROUNDS, time_limit=60)
        )

    async with anyio.create_task_group() as tg:
        tg.start_soon(load)
        await anyio.sleep(0.5)
        await anyio.to_thread.run_sync(redis.stop)
    (report,) = reports
    assert report.protocol_errors == [], report.protocol_errors[:3]
    assert report.wrong_answers == [], "answers computed without the cache are the same answers"
    assert report.calls == SESSIONS * ROUNDS

    stats = await call(lb.url, "cache-stats")
    assert isinstance(stats, str) and stats.startswith("Error: RESOURCE_ERROR: ")
    assert f"127.0.0.1:{redis.port}" in stats
    assert httpx.get(f"{first.base}/healthz", timeout=10).status_code == 200, "alive"
    not_ready = httpx.get(f"{first.base}/healthz/ready", timeout=10)
    assert not_ready.status_code == 503 and not_ready.json()["checks"] == {"redis": "unavailable"}

    await anyio.to_thread.run_sync(redis.start)
    await anyio.sleep(1.2)  # the replicas' cool-down after a failure
    assert (await call(first.url, "cache-stats"))["sourceRatingCache"]["size"] == 0
    assert httpx.get(f"{first.base}/healthz/ready", timeout=10).status_code == 200
    tool, args = RESEARCH_CALLS[0]
    async with Client(lb.url) as client:
        again = await client.call_tool(tool, args)
    assert normalise(again) == expected[json.dumps([tool, args], sort_keys=True)]
