"""Long work reaches the client twice: as progress notifications and as MCP log messages."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import LoggingMessageNotificationParams
from support.arxiv_replay import serve_replay
from support.servers import child_environment

pytestmark = pytest.mark.anyio


def params(package: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", package], env=child_environment(env))


async def test_batch_progress_arrives_as_log_messages_too() -> None:
    logs: list[LoggingMessageNotificationParams] = []
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_log(message: LoggingMessageNotificationParams) -> None:
        logs.append(message)

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    items: list[dict[str, Any]] = [{"source_url": f"https://www.nature.com/articles/{i}"} for i in range(4)]
    async with Client(params("research_mcp"), logging_callback=on_log, log_level="info") as client:
        result = await client.call_tool("batch-source-rate", {"items": items}, progress_callback=on_progress)
    assert not result.is_error
    assert len(progress) == 4, progress
    assert [m.level for m in logs] == ["info"] * 4
    assert {m.logger for m in logs} == {"research-mcp"}
    assert [m.data for m in logs] == [p[2] for p in progress], "the log says what the progress says"


async def test_query_paper_logs_download_and_conversion(arxiv_fixtures: Path, tmp_path: Path) -> None:
    logs: list[str] = []

    async def on_log(message: LoggingMessageNotificationParams) -> None:
        logs.append(str(message.data))

    with serve_replay(arxiv_fixtures) as replay:
        env = replay.papers_env(tmp_path / "home")
        async with Client(params("papers_mcp", env), logging_callback=on_log, log_level="info") as client:
            result = await client.call_tool(
                "query-paper", {"arxivID": "1503.02531", "level": "body"}, progress_callback=None
            )
    assert not result.is_error
    assert any("1503.02531" in line for line in logs), logs
    assert len(logs) >= 3, f"metadata, download and conversion steps should each be told: {logs}"
