"""Issue 13's HTML figures: (a) first ``body`` read, cold, HTML route vs PDF route over MCP; (c) parse-and-render.

(a) Papers of similar length, one pair per line: a shared LaTeXML page read through the HTML route
    and a fixture PDF read through the PDF route (download + pymupdf4llm + split). Each read is cold:
    a fresh server process and an empty library, timed from the ``query-paper`` call to its answer
    (server start-up excluded). The replay arXiv runs with no politeness delay, so the figures are
    the servers' own work; on arXiv the PDF route also waits at the gate for the two HTML misses.
(c) ``parse_page`` on the largest shared page (the 1.35 MB ar5iv page), median of repeated runs,
    against lxml's parse alone in the same process (target: under 0.5 s).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

import anyio
from mcp.types import TextContent

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.arxiv_replay import Replay, serve_replay
from support.servers import fixtures_dir, server_client

# (HTML page, PDF of similar length): IEEE-style papers first, then physics papers.
PAIRS = [("2508.08468v6", "1608.03417v1"), ("2604.09739v1", "1503.02531v1")]
RENDER_RUNS = 15


async def cold_body(replay: Replay, arxiv_id: str) -> tuple[float, int, str]:
    """Seconds for the first body read in a fresh server with an empty library; words; source line."""
    with tempfile.TemporaryDirectory() as home:
        async with server_client("papers_mcp", env=replay.papers_env(Path(home))) as papers:
            start = time.perf_counter()
            result = await papers.call_tool("query-paper", {"arxivID": arxiv_id, "level": "body"})
            seconds = time.perf_counter() - start
    content = result.content[0]
    assert isinstance(content, TextContent) and not result.is_error, content
    source = next(line for line in content.text.splitlines() if line.startswith("- Source: "))
    body = content.text.split("\n## Abstract\n", 1)[1]
    return seconds, len(body.split()), source.removeprefix("- Source: ")


def render_figures(page: Path) -> None:
    import lxml.html
    from papers_mcp.latexml import parse_page

    raw = page.read_bytes()
    parse_page(raw, "ar5iv")  # warm imports
    render, parse = [], []
    for _ in range(RENDER_RUNS):
        start = time.perf_counter()
        lxml.html.document_fromstring(raw)
        parse.append(time.perf_counter() - start)
        start = time.perf_counter()
        parse_page(raw, "ar5iv")
        render.append(time.perf_counter() - start)
    r, p = statistics.median(render), statistics.median(parse)
    print(
        f"(c) parse_page, {page.name} ({len(raw) / 1e6:.2f} MB): median {r * 1000:.0f} ms over {RENDER_RUNS} runs "
        f"(min {min(render) * 1000:.0f} ms); lxml parse alone {p * 1000:.0f} ms, x{r / p:.2f}; target < 500 ms"
    )


async def main() -> None:
    fixtures = fixtures_dir()
    if fixtures is None or not (fixtures.parent / "arxiv-html" / "pages").is_dir():
        print("skipped: shared/fixtures/arxiv and arxiv-html not found (set PAPERS_MCP_FIXTURES)")
        return
    with serve_replay(fixtures) as replay:
        ratios = []
        for html_id, pdf_id in PAIRS:
            h_s, h_words, h_source = await cold_body(replay, html_id)
            p_s, p_words, p_source = await cold_body(replay, pdf_id)
            ratios.append(h_s / p_s)
            print(
                f"(a) cold first body read: {html_id} via {h_source}: {h_s:.2f} s ({h_words} words) | "
                f"{pdf_id} via {p_source}: {p_s:.2f} s ({p_words} words) | HTML/PDF x{h_s / p_s:.3f}"
            )
        print(
            f"(a) HTML/PDF time, geometric mean over {len(ratios)} pairs: x{statistics.geometric_mean(ratios):.3f}"
        )
    render_figures(fixtures.parent / "arxiv-html" / "pages" / "ar5iv_2303.17564.html")


if __name__ == "__main__":
    anyio.run(main)
