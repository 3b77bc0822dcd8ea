"""query-paper ``query`` on a paper in the library, over MCP (stdio): p50 and p95, target p50 < 50 ms.

The paper (1706.03762v5, 15 pages) is downloaded from the replay arXiv and converted once; the
first query then builds its passage index (timed on its own), and the timed calls cycle through
the paper's questions in ``tests/eval/data/passages.json``. Baselines, measured in the same run:
the same server answering ``section="3.2"`` (an answer read from the library without search), and
a bare MCPServer tool that returns a string of the same size as the passage answers, so the ratios
show what the search adds to reading, and what papers-mcp adds to the MCP round trip itself.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.arxiv_replay import serve_replay
from support.latency import BARE_SERVER, once, percentile, timed
from support.servers import child_environment, fixtures_dir, server_client

RUNS = 60
PAPER = "1706.03762"


def text_of(result: CallToolResult) -> str:
    assert not result.is_error and isinstance(result.content[0], TextContent), result
    return result.content[0].text


def line(label: str, values: list[float], base: list[float] | None = None) -> str:
    p50, p95 = statistics.median(values), percentile(values, 0.95)
    ratio = f" (x{p50 / statistics.median(base):.2f} / x{p95 / percentile(base, 0.95):.2f})" if base else ""
    return f"{label}: p50 {p50:.1f} ms, p95 {p95:.1f} ms over {len(values)} calls{ratio}"


async def main() -> None:
    fixtures = fixtures_dir()
    if fixtures is None:
        print(
            "skipped: arXiv fixtures not found (set PAPERS_MCP_FIXTURES or put shared/ beside the repository)"
        )
        return
    cases = json.loads(
        (Path(__file__).parents[1] / "eval" / "data" / "passages.json").read_text(encoding="utf-8")
    )
    questions = [c["question"] for c in cases["cases"] if c["paper"].startswith(PAPER)]
    with serve_replay(fixtures) as replay, tempfile.TemporaryDirectory() as home:
        async with server_client("papers_mcp", env=replay.papers_env(Path(home))) as papers:
            text_of(await papers.call_tool("query-paper", {"arxivID": PAPER, "level": "abstract"}))
            text_of(await papers.call_tool("query-paper", {"arxivID": PAPER, "section": "1"}))  # converts
            start = time.perf_counter()
            text_of(await papers.call_tool("query-paper", {"arxivID": PAPER, "query": questions[0]}))
            first = (time.perf_counter() - start) * 1000
            before = replay.count()
            sizes: list[int] = []

            async def passage_call(i: int) -> None:
                answer = await papers.call_tool(
                    "query-paper", {"arxivID": PAPER, "query": questions[i % len(questions)]}
                )
                sizes.append(len(text_of(answer)))

            async def section_call(i: int) -> None:
                text_of(await papers.call_tool("query-paper", {"arxivID": PAPER, "section": "3.2"}))

            search: list[float] = []
            section: list[float] = []
            for i in range(RUNS):  # interleaved, so load on the machine falls on both alike
                search.append(await once(passage_call, i))
                section.append(await once(section_call, i))
            assert replay.count() == before, "library answers must not reach arXiv"
    size = int(statistics.median(sizes))
    params = StdioServerParameters(
        command=sys.executable, args=["-c", BARE_SERVER, str(size)], env=child_environment()
    )
    async with Client(params) as bare:

        async def bare_call(i: int) -> None:
            await bare.call_tool("echo", {})

        base = await timed(bare_call, RUNS)
    print(line(f"bare MCPServer, {size} chars", base))
    print(line('query-paper section="3.2" from the library', section, base))
    print(
        line(f"query-paper query (passages, {len(questions)} questions)", search, base)
        + "; target p50 < 50 ms"
    )
    print(f"first query on the paper (builds its passage index): {first:.1f} ms")


if __name__ == "__main__":
    anyio.run(main)
