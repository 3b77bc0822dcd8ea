"""The ready-to-paste client configurations in ``examples/`` mount both servers, and each launch line works.

Every config is read the way its client reads it (``mcpServers`` for Claude Desktop, Claude
Code and Cursor; ``servers`` for VS Code), placeholders are replaced the way a user or the
client would (the clone path, ``${workspaceFolder}``, ``${VAR:-default}``), and each distinct
command line is started and asked for its tools over stdio with the real MCP client.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, StdioServerParameters
from support.servers import REPO_ROOT, child_environment

pytestmark = pytest.mark.anyio

EXAMPLES = REPO_ROOT / "examples"
SERVERS = {"papers-mcp", "research-mcp"}
CONFIGS = {
    "claude-desktop/claude_desktop_config.json": "mcpServers",
    "claude-desktop/claude_desktop_config.from-clone.json": "mcpServers",
    "claude-code/.mcp.json": "mcpServers",
    "claude-code/.mcp.from-clone.json": "mcpServers",
    "cursor/.cursor/mcp.json": "mcpServers",
    "cursor/mcp.from-clone.json": "mcpServers",
    "vscode/.vscode/mcp.json": "servers",
    "vscode/mcp.from-clone.json": "servers",
}
CLONE_PLACEHOLDER = "/ABSOLUTE/PATH/TO/CLONE"


def entries(relative: str) -> dict[str, dict[str, Any]]:
    data = json.loads((EXAMPLES / relative).read_text())
    servers: dict[str, dict[str, Any]] = data[CONFIGS[relative]]
    return servers


def substitute(text: str) -> str:
    """What the user (clone path) or the client (``${workspaceFolder}``, ``${VAR:-default}``) fills in."""
    text = re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", text)
    return text.replace("${workspaceFolder}", str(REPO_ROOT)).replace(CLONE_PLACEHOLDER, str(REPO_ROOT))


def launch_line(entry: dict[str, Any]) -> tuple[str, ...]:
    """The command line a client would run, with the installed console scripts taken from this workspace."""
    command = substitute(entry["command"])
    args = [substitute(a) for a in entry.get("args", [])]
    if (
        command in SERVERS
    ):  # the `uv tool install` form: the same console script, here from the workspace venv
        script = Path(sys.executable).parent / command
        return (str(script), *args)
    if command == "uv":
        uv = shutil.which("uv")
        return (uv, *args) if uv else (sys.executable, "-m", "uv", *args)
    return (command, *args)


def test_every_config_mounts_both_servers() -> None:
    for relative in CONFIGS:
        servers = entries(relative)
        assert set(servers) == SERVERS, f"{relative} mounts {sorted(servers)}"
        for name, entry in servers.items():
            assert entry.get("type", "stdio") == "stdio", f"{relative} {name}"
            line = " ".join([entry["command"], *entry.get("args", [])])
            assert name in line, f"{relative}: {name} starts {line!r}"
            if name == "papers-mcp":
                assert "PAPERS_MCP_HOME" in entry.get("env", {}), (
                    f"{relative}: say where the paper library lives"
                )


def test_each_client_has_an_installed_and_a_from_clone_config() -> None:
    for client in ("claude-desktop", "claude-code", "cursor", "vscode"):
        commands = {
            entry["command"]
            for relative in CONFIGS
            if relative.startswith(client)
            for entry in entries(relative).values()
        }
        assert commands == {"papers-mcp", "research-mcp", "uv"}, f"{client}: {commands}"


def test_claude_mcp_add_lines_match_the_project_mcp_json() -> None:
    script = (EXAMPLES / "claude-code" / "claude-mcp-add.sh").read_text()
    added: dict[str, list[str]] = {}
    for line in script.splitlines():
        if line.startswith("claude mcp add"):
            words = shlex.split(line)
            command = words[words.index("--") + 1 :]
            added[words[words.index("--") - 1]] = command
    project = entries("claude-code/.mcp.json")
    assert set(added) == SERVERS
    for name, command in added.items():
        assert command == [project[name]["command"], *project[name]["args"]], name


LAUNCHES = sorted(
    {(name, launch_line(entry)) for relative in CONFIGS for name, entry in entries(relative).items()}
)


@pytest.mark.parametrize(("name", "line"), LAUNCHES, ids=[f"{n}:{Path(cmd[0]).name}" for n, cmd in LAUNCHES])
async def test_config_launch_line_serves_mcp(name: str, line: tuple[str, ...], tmp_path: Path) -> None:
    params = StdioServerParameters(
        command=line[0], args=list(line[1:]), env=child_environment({"PAPERS_MCP_HOME": str(tmp_path)})
    )
    async with Client(params, read_timeout_seconds=120) as client:
        assert client.server_info is not None and client.server_info.name == name
        tools = (await client.list_tools()).tools
        assert tools, f"{' '.join(line)} serves no tools"
