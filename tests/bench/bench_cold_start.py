"""Cold start: process spawn to the first tools/list answer, each server vs a bare MCPServer with one tool."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.servers import child_environment

BARE = """
from mcp.server.mcpserver import MCPServer
server = MCPServer("bare")
@server.tool()
def ping() -> str:
    return "pong"
server.run("stdio")
"""
RUNS = 5


async def time_to_tools_list(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    params = StdioServerParameters(command=sys.executable, args=args, env=child_environment(env))
    async with Client(params) as client:
        await client.list_tools()
        return time.perf_counter() - start


async def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        env = {"PAPERS_MCP_HOME": home}
        bare = [await time_to_tools_list(["-c", BARE], env) for _ in range(RUNS)]
        base = statistics.median(bare)
        print(f"bare MCPServer: median {base:.3f} s over {RUNS} runs")
        for package in ("papers_mcp", "research_mcp"):
            runs = [await time_to_tools_list(["-m", package], env) for _ in range(RUNS)]
            med = statistics.median(runs)
            print(
                f"{package}: median {med:.3f} s  (+{med - base:.3f} s, x{med / base:.2f} vs bare; target <= +0.3 s)"
            )


if __name__ == "__main__":
    anyio.run(main)
