"""In a fleet the scholarly indexes' gates are fleet-wide: two replicas together keep one index's pace.

A real redis-server, two PapersService instances (two replicas) on it, and the Semantic Scholar replay
of the real recordings: requests from both arrive at least one interval apart.
"""

from __future__ import annotations

import itertools
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_shared.fleet import FleetGate
from papers_mcp.fleet import connect_fleet
from papers_mcp.graph import PaperGraph
from papers_mcp.service import PapersService
from papers_mcp.settings import Settings
from support.fleet import RedisServer
from support.scholar_replay import ScholarReplay, scholar_fixtures_dir, serve_scholar_replay

INTERVAL = 0.4


@pytest.fixture
def scholar() -> Iterator[ScholarReplay]:
    path = scholar_fixtures_dir()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("shared/fixtures/scholar not found")
        pytest.skip("shared/fixtures/scholar not found")
    with serve_scholar_replay(path) as running:
        yield running


def replica(redis: RedisServer, scholar: ScholarReplay, home: Path) -> PaperGraph:
    settings = Settings(
        home=home,
        redis_url=redis.url,
        s2_url=scholar.s2_url,
        openalex_url="",
        s2_min_interval_seconds=INTERVAL,
        max_retries=0,
    )
    return PaperGraph(PapersService(settings, connect_fleet(settings)))


def test_two_replicas_share_one_semantic_scholar_gate(
    redis: RedisServer, scholar: ScholarReplay, tmp_path: Path
) -> None:
    graphs = [replica(redis, scholar, tmp_path / name) for name in ("a", "b")]
    sources = [g.sources()[0] for g in graphs]
    assert all(isinstance(s._http.gate, FleetGate) for s in sources)  # type: ignore[attr-defined]

    def ask(index: int) -> None:
        for _ in range(3):
            sources[index].paper("DOI:10.1016/J.COMPOSITESB.2018.01.027")

    threads = [threading.Thread(target=ask, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    times = sorted(a.at for a in scholar.asked("s2"))
    assert len(times) == 6
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert min(gaps) >= INTERVAL * 0.9, gaps
