"""Concurrent load over streamable HTTP on 127.0.0.1: many sessions, zero protocol errors, zero wrong answers.

Every concurrent answer is compared with the single-client answer for the same arguments;
cache statistics must add up to the calls made; memory must be flat after the load.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from support.figures import record_figure
from support.load import Call, expected_answers, run_load
from support.servers import HttpServer, http_server_process, rss_bytes

pytestmark = pytest.mark.anyio

SESSIONS = int(os.environ.get("LOAD_SESSIONS", "50"))
ROUNDS = int(os.environ.get("LOAD_ROUNDS", "20"))
TIME_LIMIT = float(os.environ.get("LOAD_TIME_LIMIT", "300"))

SENTENCES = [
    "Acme Corp. reported revenue of $3.2bn in Q3 2024, up 12% year over year.",
    "The global AI market could reach $1.3 trillion by 2030, analysts expect.",
    "Microsoft invested in OpenAI in 2023.",
    "Unemployment fell 0.4 percentage points to 3.7% in March 2024.",
    "Siemens and Bosch partnered with Infineon on chips.",
]
URLS = [
    "https://www.nature.com/articles/s41586-020-2649-2",
    "https://cs.stanford.edu/people/x",
    "https://www.reuters.com/technology/x",
    "https://someone.github.io/post",
    "https://stanford.edu.evil.io/paper",
    "https://arxiv.org/abs/1706.03762",
    "https://www.gov.uk/guidance/x",
    "http://203.0.113.7/page",
]
RESEARCH_CALLS: list[Call] = (
    [("source-rate", {"source_url": u}) for u in URLS]
    + [("fact-extract", {"text": s}) for s in SENTENCES]
    + [("entity-extract", {"text": s}) for s in SENTENCES[2:]]
    + [
        (
            "conflict-detect",
            {
                "facts": [
                    {
                        "entity": "AI Market",
                        "attribute": "Size 2024",
                        "value": "22.4",
                        "value_type": "number",
                        "source": "A",
                    },
                    {
                        "entity": "AI market",
                        "attribute": "size 2024",
                        "value": "28.5",
                        "value_type": "number",
                        "source": "B",
                    },
                ]
            },
        ),
        (
            "citation-validate",
            {"citations": [{"claim": "GDP grew 3%", "url": "https://www.imf.org/x", "date": "2024-02-30"}]},
        ),
    ]
)


@pytest.fixture(scope="module")
def research_http() -> Iterator[HttpServer]:
    with http_server_process("research_mcp") as server:
        yield server


async def cache_counts(url: str) -> dict[str, Any]:
    async with Client(url) as client:
        result = await client.call_tool("cache-stats", {})
        assert result.structured_content is not None
        return result.structured_content


async def test_research_under_concurrent_load(research_http: HttpServer) -> None:
    url = research_http.url
    expected = await expected_answers(url, RESEARCH_CALLS)
    # A short warm-up load, so the memory baseline includes what the first calls allocate.
    await run_load(url, RESEARCH_CALLS, expected, sessions=10, rounds=5, time_limit=TIME_LIMIT)
    async with Client(url) as client:
        await client.call_tool("cache-clear", {})
    rss_before = rss_bytes(research_http.pid)

    report = await run_load(
        url, RESEARCH_CALLS, expected, sessions=SESSIONS, rounds=ROUNDS, time_limit=TIME_LIMIT
    )
    rss_after_first = rss_bytes(research_http.pid)
    second = await run_load(
        url, RESEARCH_CALLS, expected, sessions=SESSIONS, rounds=ROUNDS, time_limit=TIME_LIMIT
    )
    rss_after_second = rss_bytes(research_http.pid)

    summary = report.summary()
    record_figure(
        "load",
        {
            "server": "research_mcp",
            "sessions": SESSIONS,
            **summary,
            "rss_mb": [round(x / 2**20, 1) for x in (rss_before, rss_after_first, rss_after_second)],
        },
    )
    print(f"research-mcp load: {summary}")
    assert report.protocol_errors == [], report.protocol_errors[:5]
    assert report.wrong_answers == [], report.wrong_answers[:5]
    assert second.protocol_errors == [] and second.wrong_answers == []
    assert report.calls == SESSIONS * ROUNDS

    stats = await cache_counts(url)
    made = {"sourceRatingCache": 0, "factCache": 0, "entityCache": 0, "conflictCache": 0, "citationCache": 0}
    cache_of = {
        "source-rate": "sourceRatingCache",
        "fact-extract": "factCache",
        "entity-extract": "entityCache",
        "conflict-detect": "conflictCache",
        "citation-validate": "citationCache",
    }
    for index in range(SESSIONS):
        for r in range(ROUNDS):
            made[cache_of[RESEARCH_CALLS[(index * 7 + r) % len(RESEARCH_CALLS)][0]]] += (
                2  # two identical loads
            )
    for name, count in made.items():
        counted = stats[name]["hits"] + stats[name]["misses"]
        assert counted == count, f"{name}: {counted} lookups counted for {count} calls"
        distinct = len({repr(a) for t, a in RESEARCH_CALLS if cache_of[t] == name})
        assert stats[name]["misses"] == distinct, f"{name}: each distinct call misses once, then hits"

    # Memory is flat: a second identical load adds (almost) nothing.
    growth = rss_after_second - rss_after_first
    assert growth < 30 * 2**20, f"RSS grew {growth / 2**20:.1f} MiB during an identical second load"


@pytest.fixture(scope="module")
def papers_http(tmp_path_factory: pytest.TempPathFactory, arxiv_fixtures: Path) -> Iterator[HttpServer]:
    from support.arxiv_replay import serve_replay

    with (
        serve_replay(arxiv_fixtures) as replay,
        http_server_process("papers_mcp", replay.papers_env(tmp_path_factory.mktemp("load-home"))) as server,
    ):
        yield server


async def test_papers_under_concurrent_load(papers_http: HttpServer) -> None:
    calls: list[Call] = [
        ("query-paper", {"arxivID": "1706.03762", "level": "abstract"}),
        ("query-paper", {"arxivID": "arXiv:1810.04805v2", "level": "abstract"}),
        ("resolve-paper-id", {"query": "1512.03385"}),
        ("query-paper", {"arxivID": "../../etc/passwd"}),
    ]
    url = papers_http.url
    expected = await expected_answers(url, calls)
    report = await run_load(
        url, calls, expected, sessions=SESSIONS, rounds=max(1, ROUNDS // 3), time_limit=TIME_LIMIT
    )
    summary = report.summary()
    record_figure("load", {"server": "papers_mcp", "sessions": SESSIONS, **summary})
    print(f"papers-mcp load: {summary}")
    assert report.protocol_errors == [], report.protocol_errors[:5]
    assert report.wrong_answers == [], report.wrong_answers[:5]
