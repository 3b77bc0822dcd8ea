"""query-paper answered from the local library over MCP (stdio): p50 and p95, target p50 < 50 ms.

Baseline, measured in the same process: a bare MCPServer tool that returns a string of the same
size, so the ratio shows what papers-mcp adds on top of the MCP round trip itself.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.arxiv_replay import serve_replay
from support.latency import BARE_SERVER, percentile, timed
from support.servers import child_environment, fixtures_dir, server_client

RUNS = 60
LEVELS = ("abstract", "body", "appendix", "all")


async def main() -> None:
    fixtures = fixtures_dir()
    if fixtures is None:
        print(
            "skipped: arXiv fixtures not found (set PAPERS_MCP_FIXTURES or put shared/ beside the repository)"
        )
        return
    with serve_replay(fixtures) as replay, tempfile.TemporaryDirectory() as home:
        async with server_client("papers_mcp", env=replay.papers_env(Path(home))) as papers:
            warm = await papers.call_tool("query-paper", {"arxivID": "1706.03762", "level": "body"})
            assert isinstance(warm.content[0], TextContent) and not warm.is_error
            size = len(warm.content[0].text)
            before = replay.count()

            async def library_call(i: int) -> None:
                result = await papers.call_tool(
                    "query-paper", {"arxivID": "1706.03762", "level": LEVELS[i % 4]}
                )
                assert not result.is_error

            lib = await timed(library_call, RUNS)
            assert replay.count() == before, "library answers must not reach arXiv"
    params = StdioServerParameters(
        command=sys.executable, args=["-c", BARE_SERVER, str(size)], env=child_environment()
    )
    async with Client(params) as bare:

        async def bare_call(i: int) -> None:
            await bare.call_tool("echo", {})

        base = await timed(bare_call, RUNS)
    lib50, lib95 = statistics.median(lib), percentile(lib, 0.95)
    base50, base95 = statistics.median(base), percentile(base, 0.95)
    print(f"bare MCPServer, {size} chars: p50 {base50:.1f} ms, p95 {base95:.1f} ms over {RUNS} calls")
    print(
        f"query-paper from the library (4 levels): p50 {lib50:.1f} ms, p95 {lib95:.1f} ms "
        f"(x{lib50 / base50:.2f} / x{lib95 / base95:.2f} vs bare; target p50 < 50 ms)"
    )


if __name__ == "__main__":
    anyio.run(main)
