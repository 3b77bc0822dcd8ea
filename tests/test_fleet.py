"""Both servers as a fleet: real redis-server, replicas as subprocesses on 127.0.0.1, a real HAProxy in front.

What each test pins comes from the issue: caches shared and statistics equal across replicas
(one computation per distinct call for the whole fleet); one download per paper per fleet;
the arXiv gate's spacing seen at the replay arXiv; a conversion lease taken over after its
holder is killed; Redis stopped under load gives clear errors and never a wrong answer.
Loads are small here; ``make bench`` runs the big ones.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp import Client
from mcp.types import TextContent
from support.arxiv_replay import Replay
from support.fleet import LoadBalancer, RedisServer, Replica, load_balancer, redis_server, replicas
from support.load import Call, expected_answers, normalise, run_load

pytestmark = pytest.mark.anyio


async def aget(url: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as http:
        return await http.get(url)


async def wait_until_ready(replicas: list[Replica], polls: int = 300) -> None:
    """Until each replica's ``/healthz/ready`` answers 200 (Redis answers it again: its cool-down after a
    failure is over), polled every 50 ms for at most 15 s, instead of sleeping as long as the cool-down is
    thought to last."""
    for _ in range(polls):
        statuses = [(await aget(f"{replica.base}/healthz/ready")).status_code for replica in replicas]
        if statuses == [200] * len(replicas):
            return
        await anyio.sleep(0.05)
    raise AssertionError(f"replicas not ready after {polls * 0.05:.0f} s: {statuses}")


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
                    {
                        "entity": "AI market",
                        "attribute": "size",
                        "value": v1,
                        "value_type": "number",
                        "source": "A",
                    },
                    {
                        "entity": "AI market",
                        "attribute": "size",
                        "value": v2,
                        "value_type": "number",
                        "source": "B",
                    },
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
    report = await run_load(
        lb.url, RESEARCH_CALLS, expected, sessions=SESSIONS, rounds=ROUNDS, time_limit=120
    )
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
    assert (await aget(f"{first.base}/healthz")).status_code == 200, "alive"
    not_ready = await aget(f"{first.base}/healthz/ready")
    assert not_ready.status_code == 503 and not_ready.json()["checks"] == {"redis": "unavailable"}

    await anyio.to_thread.run_sync(redis.start)
    await wait_until_ready(research_fleet[0])
    assert (await call(first.url, "cache-stats"))["sourceRatingCache"]["size"] == 0
    assert (await aget(f"{first.base}/healthz/ready")).status_code == 200
    tool, args = RESEARCH_CALLS[0]
    async with Client(lb.url) as client:
        again = await client.call_tool(tool, args)
    assert normalise(again) == expected[json.dumps([tool, args], sort_keys=True)]


# ---------------------------------------------------------------- papers-mcp

LEASE_SECONDS = 1.0
INTERVAL = 0.3


@pytest.fixture(scope="module")
def papers_fleet(
    fleet_redis: RedisServer, replay: Replay, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Replica]]:
    """Two papers-mcp replicas, each with its own home, sharing Redis; the replay arXiv behind them."""
    envs = [
        replay.papers_env(
            tmp_path_factory.mktemp(f"papers-home-{i}"),
            REDIS_URL=fleet_redis.url,
            MIN_INTERVAL_SECONDS=str(INTERVAL),
            LEASE_SECONDS=str(LEASE_SECONDS),
        )
        for i in range(2)
    ]
    with replicas("papers_mcp", envs) as started:
        yield started


async def text_of(url: str, tool: str, args: dict[str, Any]) -> tuple[bool, str]:
    async with Client(url) as client:
        result = await client.call_tool(tool, args)
    assert isinstance(result.content[0], TextContent)
    return bool(result.is_error), result.content[0].text


async def test_a_paper_is_downloaded_once_per_fleet_and_arxiv_sees_the_fleet_wide_spacing(
    papers_fleet: list[Replica], replay: Replay
) -> None:
    first, second = papers_fleet
    seen = len(replay.requests)
    answers: dict[str, tuple[bool, str]] = {}

    async def ask(replica: Replica) -> None:
        answers[replica.url] = await text_of(
            replica.url, "query-paper", {"arxivID": "1503.02531", "level": "body"}
        )

    async def resolve(replica: Replica, query: str) -> None:
        await text_of(replica.url, "resolve-paper-id", {"query": query, "max_results": 3})

    async with anyio.create_task_group() as tg:
        for replica in papers_fleet:
            tg.start_soon(ask, replica)
        for index, query in enumerate(("ti:knowledge", "ti:neural", "ti:quantum", "ti:residual")):
            tg.start_soon(resolve, papers_fleet[index % 2], query)
    (error_a, text_a), (error_b, text_b) = answers[first.url], answers[second.url]
    assert not error_a and "arxiv:1503.02531v1" in text_a, text_a[:300]
    assert (error_b, text_b) == (error_a, text_a), "both replicas answer the same text"
    ours = replay.requests[seen:]
    assert [r.path for r in ours if r.kind == "pdf"] == ["/pdf/1503.02531v1"], "one download for the fleet"
    times = sorted(r.at for r in ours)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    shown = f"arXiv saw gaps {[round(g, 3) for g in gaps]}"
    # The replay stamps a request when its handler thread runs; on a busy machine that thread can start
    # late, which shortens the next gap by as much: allow 0.1 s of that, and none on the average.
    assert len(times) >= 6 and min(gaps) >= INTERVAL - 0.1, shown
    assert (times[-1] - times[0]) / len(gaps) >= INTERVAL, shown

    # Metadata one replica fetched is served by the other without asking arXiv.
    await text_of(first.url, "resolve-paper-id", {"query": "1706.03762"})
    before = replay.count("api")
    error, abstract = await text_of(second.url, "query-paper", {"arxivID": "1706.03762", "level": "abstract"})
    assert not error and "Attention Is All You Need" in abstract
    assert replay.count("api") == before, "the second replica found the metadata in the fleet's library"


async def test_papers_without_redis_serve_the_local_library_and_refuse_arxiv_clearly(
    papers_fleet: list[Replica], fleet_redis: RedisServer
) -> None:
    first, _ = papers_fleet
    _, known = await text_of(first.url, "query-paper", {"arxivID": "1503.02531", "level": "body"})
    await anyio.to_thread.run_sync(fleet_redis.stop)
    try:
        assert await text_of(first.url, "query-paper", {"arxivID": "1503.02531", "level": "body"}) == (
            False,
            known,
        )
        error, text = await text_of(first.url, "query-paper", {"arxivID": "1810.04805", "level": "abstract"})
        assert error and text.startswith("Error: RESOURCE_ERROR: ") and f":{fleet_redis.port}" in text, text
    finally:
        await anyio.to_thread.run_sync(fleet_redis.start)
    await wait_until_ready(papers_fleet)


async def test_a_killed_lease_holder_is_taken_over_by_another_replica(
    papers_fleet: list[Replica], replay: Replay
) -> None:
    """Runs last in the module: it kills a replica."""
    holder, other = papers_fleet
    paper = {"arxivID": "math/9404236", "level": "body"}
    seen = len(replay.requests)
    replay.stalled.clear()
    replay.set_fault("stall_pdf", times=1, seconds=60)  # the holder's download stops half-way
    results: list[tuple[bool, str]] = []

    async def ask_holder() -> None:
        with pytest.raises(Exception):  # noqa: B017, PT011 - its process is killed mid-call
            await text_of(holder.url, "query-paper", paper)

    async def ask_other() -> None:
        results.append(await text_of(other.url, "query-paper", paper))

    try:
        async with anyio.create_task_group() as tg:
            tg.start_soon(ask_holder)
            assert await anyio.to_thread.run_sync(replay.stalled.wait, 60), "the holder started its download"
            tg.start_soon(ask_other)
            await anyio.sleep(0.5)  # the other replica is now waiting on the holder's lease
            await anyio.to_thread.run_sync(holder.kill9)
    finally:
        replay.clear_faults()
    ((error, text),) = results
    assert not error and "arxiv:math/9404236v1" in text, text[:300]
    downloads = [r.path for r in replay.requests[seen:] if r.kind == "pdf"]
    assert downloads == ["/pdf/math/9404236v1", "/pdf/math/9404236v1"], "the other replica did the work again"
