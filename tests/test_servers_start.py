"""Both servers start as a user runs them and answer the MCP handshake over stdio and HTTP."""

from __future__ import annotations

import subprocess
import sys

import pytest
from mcp import Client
from support.servers import child_environment, http_server, server_client

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("package", "name"), [("papers_mcp", "papers-mcp"), ("research_mcp", "research-mcp")]
)
async def test_server_answers_initialize_and_tools_list_over_stdio(package: str, name: str, tmp_path) -> None:
    async with server_client(package, env={"PAPERS_MCP_HOME": str(tmp_path)}) as client:
        assert client.server_info is not None and client.server_info.name == name
        tools = await client.list_tools()
        assert all(t.input_schema.get("type") == "object" for t in tools.tools)


@pytest.mark.parametrize("package", ["papers_mcp", "research_mcp"])
async def test_server_answers_over_streamable_http(package: str, tmp_path) -> None:
    with http_server(package, env={"PAPERS_MCP_HOME": str(tmp_path)}) as url:
        async with Client(url) as client:
            tools = await client.list_tools()
    names = {t.name for t in tools.tools}
    assert ("query-paper" if package == "papers_mcp" else "fact-extract") in names, names  # the seeds' tools


@pytest.mark.parametrize(
    ("package", "name"), [("papers_mcp", "papers-mcp"), ("research_mcp", "research-mcp")]
)
def test_version_and_help_answer(package: str, name: str) -> None:
    out = subprocess.run(
        [sys.executable, "-m", package, "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith(f"{name} 0.")
    out = subprocess.run(
        [sys.executable, "-m", package, "--help"], capture_output=True, text=True, check=True
    )
    assert "--transport" in out.stdout


@pytest.mark.parametrize(
    ("package", "variable", "value"),
    [
        ("papers_mcp", "PAPERS_MCP_TIMEOUT_SECONDS", "soon"),
        ("research_mcp", "RESEARCH_MCP_HTTP_TIMEOUT", "0"),
    ],
)
def test_a_malformed_setting_stops_start_up_with_one_line(package: str, variable: str, value: str) -> None:
    env = child_environment({variable: value})
    out = subprocess.run(
        [sys.executable, "-m", package],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert out.returncode == 1
    assert variable in out.stderr and "Traceback" not in out.stderr, out.stderr
