"""Protocol-test fixtures: each server runs as a real subprocess and is driven by the mcp SDK's Client.

Helpers that several test files (and ``make demo``/``make bench``) use live in
``tests/support/``; this file makes them importable and exposes fixtures over them.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest
from mcp import Client

sys.path.insert(0, str(Path(__file__).parent))

from support.arxiv_replay import Replay, serve_replay
from support.fleet import INSTALL_HINT, RedisServer, missing_binaries, redis_server
from support.required import missing
from support.servers import fixtures_dir, server_client


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def arxiv_fixtures() -> Path:
    """The real arXiv PDFs and feeds: ``$PAPERS_MCP_FIXTURES`` or ``../shared/fixtures/arxiv``.

    Under CI a missing directory fails loudly; elsewhere the tests that need it are reported as skipped.
    """
    path = fixtures_dir()
    if path is None:
        message = "arXiv fixtures not found: set PAPERS_MCP_FIXTURES or put shared/ beside the repository"
        missing(message)
    return path


@pytest.fixture(scope="module")
def replay(arxiv_fixtures: Path) -> Iterator[Replay]:
    """The replay arXiv on 127.0.0.1 (real HTTP, real recorded data), one per test module."""
    with serve_replay(arxiv_fixtures) as running:
        yield running


@pytest.fixture(scope="session")
def fleet_binaries() -> None:
    """The system binaries the fleet tests run for real: redis-server and haproxy.

    Missing: under CI the tests fail; elsewhere they are reported as skipped, with the reason, at the end of
    ``make test`` (never a silent pass).
    """
    absent = missing_binaries()
    if absent:
        message = f"{' and '.join(absent)} not found: the fleet tests need a real one; {INSTALL_HINT}"
        missing(message)


@pytest.fixture
def redis(fleet_binaries: None) -> Iterator[RedisServer]:
    """A real redis-server on a free 127.0.0.1 port, empty, stopped after the test."""
    with redis_server() as server:
        yield server


ClientFactory = Callable[..., AbstractAsyncContextManager[Client]]


@pytest.fixture
def spawn_server() -> ClientFactory:
    """``async with spawn_server("papers_mcp", env={...}) as client``: a stdio subprocess and a real client."""
    return server_client


@pytest.fixture
async def papers_stdio(tmp_path: Path) -> AsyncIterator[Client]:
    """papers-mcp over stdio with its own empty home."""
    async with server_client("papers_mcp", env={"PAPERS_MCP_HOME": str(tmp_path / "home")}) as client:
        yield client


@pytest.fixture
async def research_stdio() -> AsyncIterator[Client]:
    """research-mcp over stdio."""
    async with server_client("research_mcp") as client:
        yield client
