"""The fleet under load: HAProxy in front of 1, 2 and 3 replicas sharing one real redis-server.

Each row is a load of concurrent MCP client sessions through the load balancer, every answer
checked against the single-client answer (wrong answers are counted, not hidden). Baseline,
in the same run: one replica alone, embedded (no Redis, no load balancer).

1. research-mcp, the hardening load's mix (source-rate, fact/entity extraction, conflict,
   citation): after the warm-up every call is a cache hit, so this is the servers' own CPU
   (MCP protocol, JSON, Redis round trips). On a 2-core machine that cannot scale past two
   processes, and the load generator shares those cores.
2. research-mcp, CPU-bound and uncached: fact-extract on a text never seen before, each call
   a spaCy parse. Same limit.
3. papers-mcp, I/O-bound: resolve-paper-id with a query never asked before, so each call is a
   request to the replay arXiv, which answers after ``LATENCY`` seconds (no politeness interval:
   the replay is ours). A replica makes its blocking arXiv calls in anyio's worker threads, at
   most 40 at once, so with ``IO_SESSIONS`` (120) calls in flight one replica queues them in
   waves and each replica adds 40 more: here replicas should scale, the wait is not CPU. An
   answer is wrong unless it lists exactly the ids the replay itself returns for that query.

Run: ``make bench`` (all benchmarks) or ``uv run --frozen python tests/bench/bench_fleet.py``.
Needs redis-server and haproxy (``apt-get install -y redis-server haproxy``).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from contextlib import ExitStack, contextmanager
from multiprocessing.connection import Connection
from pathlib import Path

import anyio
from mcp import Client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.arxiv_replay import Replay, serve_replay
from support.fleet import Replica, load_balancer, missing_binaries, redis_server, replicas
from support.load import Call, LoadReport, expected_answers, run_load
from support.servers import fixtures_dir
from test_hardening_load import RESEARCH_CALLS

SESSIONS = int(os.environ.get("FLEET_BENCH_SESSIONS", "40"))
ROUNDS = int(os.environ.get("FLEET_BENCH_ROUNDS", "10"))
LATENCY = float(os.environ.get("FLEET_BENCH_LATENCY", "10.0"))
IO_SESSIONS = int(os.environ.get("FLEET_BENCH_IO_SESSIONS", "120"))
ONLY = os.environ.get("FLEET_BENCH_ONLY", "cached,cpu,io").split(",")
REPLICA_COUNTS = (1, 2, 3)
_ID = re.compile(r"Arxiv ID: arxiv:(\S+)")


def row(label: str, report: LoadReport, baseline: float | None) -> str:
    s = report.summary()
    ratio = f"{s['calls_per_second'] / baseline:.2f}x" if baseline else "1.00x"
    return (
        f"| {label:<34} | {s['calls']:>5} | {s['calls_per_second']:>7.1f} | {s['p50_ms']:>7.1f} | "
        f"{s['p95_ms']:>7.1f} | {s['wrong_answers']:>5} | {s['protocol_errors']:>6} | {ratio:>6} |"
    )


HEADER = (
    "| setup                              | calls | calls/s |  p50 ms |  p95 ms | wrong | errors |  ratio |\n"
    "|------------------------------------|-------|---------|---------|---------|-------|--------|--------|"
)


@contextmanager
def fleet(
    package: str, env: Mapping[str, str], n: int, redis_url: str | None
) -> Iterator[tuple[str, list[Replica]]]:
    """``n`` replicas (behind HAProxy when ``redis_url`` is given); yields the URL clients use, and the replicas."""
    envs = []
    for i in range(n):
        e = dict(env)
        if "PAPERS_MCP_HOME" in e:
            e["PAPERS_MCP_HOME"] = f"{e['PAPERS_MCP_HOME']}-{n}-{i}"
        if redis_url:
            e[f"{package.upper()}_REDIS_URL"] = redis_url
        envs.append(e)
    with replicas(package, envs) as started:
        if redis_url is None:
            yield started[0].url, started
            return
        with load_balancer(started) as lb:
            yield lb.url, started


async def flush(url: str) -> None:
    async with Client(url) as client:
        await client.call_tool("cache-clear", {})


def research_cached(redis_url: str) -> None:
    print(f"\n### research-mcp, cached mix ({SESSIONS} sessions x {ROUNDS} calls; warm cache)\n")
    print(HEADER)
    baseline = None
    for n, shared in [(1, None), *[(k, redis_url) for k in REPLICA_COUNTS]]:
        with fleet("research_mcp", {}, n, shared) as (url, _):
            expected = anyio.run(expected_answers, url, RESEARCH_CALLS)
            report = anyio.run(
                lambda u=url, e=expected: run_load(
                    u, RESEARCH_CALLS, e, sessions=SESSIONS, rounds=ROUNDS, time_limit=600
                )
            )
            if shared:
                anyio.run(flush, url)
        label = "1 replica, embedded (baseline)" if shared is None else f"{n} replica(s) + Redis + HAProxy"
        print(row(label, report, baseline), flush=True)
        baseline = baseline or report.summary()["calls_per_second"]


def research_uncached(redis_url: str) -> None:
    sessions, rounds = 8, 5
    print(f"\n### research-mcp, CPU-bound: fact-extract of a new text each call ({sessions} x {rounds})\n")
    print(HEADER)
    baseline = None
    run_id = [0]
    for n, shared in [(1, None), *[(k, redis_url) for k in REPLICA_COUNTS]]:
        run_id[0] += 1
        calls: list[Call] = [
            (
                "fact-extract",
                {
                    "text": f"Acme Corp {run_id[0]}-{i} reported revenue of ${i}.{n} billion in {2000 + i}, up {i % 40}%."
                },
            )
            for i in range(sessions * rounds)
        ]
        with fleet("research_mcp", {}, n, shared) as (url, started):
            warm: list[Call] = [("fact-extract", {"text": f"Warm-up {run_id[0]}: Acme earned $1 billion."})]
            for replica in started:  # each replica loads spaCy before the clock starts
                anyio.run(expected_answers, replica.url, warm)
            report = anyio.run(lambda u=url, c=calls: run_unique(u, c, sessions, rounds))
        label = "1 replica, embedded (baseline)" if shared is None else f"{n} replica(s) + Redis + HAProxy"
        print(row(label, report, baseline), flush=True)
        baseline = baseline or report.summary()["calls_per_second"]


async def run_unique(url: str, calls: list[Call], sessions: int, rounds: int) -> LoadReport:
    """Each session sends its own calls once; an answer is wrong unless its facts carry the call's own numbers."""
    report = LoadReport()

    async def session(index: int) -> None:
        try:
            async with Client(url) as client:
                for r in range(rounds):
                    tool, args = calls[index * rounds + r]
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, args)
                    report.latencies.append(time.perf_counter() - t0)
                    report.calls += 1
                    body = result.structured_content or {}
                    money, year = re.search(r"(\$[\d.]+ billion) in (\d{4})", args["text"]).groups()  # type: ignore[union-attr]
                    if result.is_error or not any(
                        f.get("value") == money and (f.get("period") or {}).get("year") == int(year)
                        for f in body.get("facts", [])
                    ):
                        report.wrong_answers.append(f"{args}: {str(body)[:200]}")
        except Exception as exc:
            report.protocol_errors.append(f"session {index}: {type(exc).__name__}: {exc}")

    start = time.perf_counter()
    with anyio.fail_after(600):
        async with anyio.create_task_group() as tg:
            for index in range(sessions):
                tg.start_soon(session, index)
    report.seconds = time.perf_counter() - start
    return report


def _replay_process(fixtures: str, latency: float, conn: Connection) -> None:
    """The replay arXiv in its own process, every answer ``latency`` seconds late, until told to stop."""
    with serve_replay(Path(fixtures)) as replay:
        replay.set_fault("slow", seconds=latency)
        conn.send(replay.base_url)
        conn.recv()


@contextmanager
def replay_elsewhere(fixtures: Path, latency: float) -> Iterator[Replay]:
    """A slow replay arXiv in a child process (so it does not share this process's CPU with the clients),
    and a local ``Replay`` over the same fixtures that knows its URLs and computes the expected answers."""
    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_replay_process, args=(str(fixtures), latency, child), daemon=True)
    proc.start()
    try:
        local = Replay(fixtures)
        local.load()
        local.base_url = parent.recv()
        yield local
    finally:
        parent.send("stop")
        proc.join(timeout=10)
        if proc.is_alive():
            proc.kill()


def papers_io_bound(redis_url: str, replay: Replay, home: Path) -> None:
    print(
        f"\n### papers-mcp, I/O-bound: resolve-paper-id, a new query each call, {LATENCY:g} s latency at the "
        f"replay arXiv ({IO_SESSIONS} sessions x 1 call)\n"
    )
    print(HEADER)
    words = sorted(
        {
            w
            for p in replay.paper_ids
            for w in re.findall(r"[a-z]{6,}", json.dumps(replay._papers[p].meta["title"]).lower())
        }
    )[:12]
    baseline = None
    for run_id, (n, shared) in enumerate([(1, None), *[(k, redis_url) for k in REPLICA_COUNTS]], start=1):
        calls: list[Call] = [
            (
                "resolve-paper-id",
                {"query": f"ti:{words[i % len(words)]} ANDNOT ti:zq{run_id}x{i}", "max_results": 5},
            )
            for i in range(IO_SESSIONS)
        ]
        env = replay.papers_env(home / f"run{run_id}")
        with fleet("papers_mcp", env, n, shared) as (url, _):
            report = anyio.run(lambda u=url, c=calls: run_resolves(u, c, replay, IO_SESSIONS, 1))
        label = "1 replica, embedded (baseline)" if shared is None else f"{n} replica(s) + Redis + HAProxy"
        print(row(label, report, baseline), flush=True)
        baseline = baseline or report.summary()["calls_per_second"]


def expected_ids(replay: Replay, query: str, n: int) -> set[str]:
    """The ids the replay arXiv itself returns for ``query`` (the independent answer key)."""
    _, _, feed = replay.answer_api({"search_query": query, "start": "0", "max_results": str(n)})
    return {
        re.sub(r"v\d+$", "", i) for i in re.findall(r"<id>http://arxiv.org/abs/([^<]+)</id>", feed.decode())
    }


async def run_resolves(url: str, calls: list[Call], replay: Replay, sessions: int, rounds: int) -> LoadReport:
    report = LoadReport()
    wanted = [
        expected_ids(replay, args["query"], args["max_results"]) for _, args in calls
    ]  # before the clock

    async def session(index: int) -> None:
        try:
            async with Client(url) as client:
                for r in range(rounds):
                    tool, args = calls[index * rounds + r]
                    t0 = time.perf_counter()
                    result = await client.call_tool(tool, args)
                    report.latencies.append(time.perf_counter() - t0)
                    report.calls += 1
                    text = getattr(result.content[0], "text", "") if result.content else ""
                    want = wanted[index * rounds + r]
                    got = {re.sub(r"v\d+$", "", i) for i in _ID.findall(text)}
                    if result.is_error or not want or want != got:
                        report.wrong_answers.append(f"{args['query']}: want {sorted(want)}, got {text[:200]}")
        except Exception as exc:
            report.protocol_errors.append(f"session {index}: {type(exc).__name__}: {exc}")

    start = time.perf_counter()
    with anyio.fail_after(600):
        async with anyio.create_task_group() as tg:
            for index in range(sessions):
                tg.start_soon(session, index)
    report.seconds = time.perf_counter() - start
    return report


def main() -> int:
    missing = missing_binaries()
    if missing:
        print(
            f"bench_fleet: skipped: {' and '.join(missing)} not found (apt-get install -y redis-server haproxy)"
        )
        return 0
    print(f"machine: {os.cpu_count()} cores; load generator in this process, on the same cores")
    with ExitStack() as stack:
        redis = stack.enter_context(redis_server())
        if "cached" in ONLY:
            research_cached(redis.url)
        if "cpu" in ONLY:
            research_uncached(redis.url)
        if "io" not in ONLY:
            return 0
        fixtures = fixtures_dir()
        if fixtures is None:
            print("\n(papers-mcp I/O-bound case skipped: no arXiv fixtures)")
            return 0
        replay = stack.enter_context(replay_elsewhere(fixtures, LATENCY))
        home = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-fleet-")))
        papers_io_bound(redis.url, replay, home)
    return 0


if __name__ == "__main__":
    sys.exit(main())
