"""Latency measurement shared by the MCP benchmarks: a bare MCPServer to compare with, timed calls, percentiles."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

# A bare MCPServer whose one tool returns a payload of the size given as argv[1]: the round trip of
# the transport and the SDK alone, for a ratio against our server's answer of the same size.
BARE_SERVER = """
import sys
from mcp.server.mcpserver import MCPServer
payload = "x" * int(sys.argv[1])
server = MCPServer("bare")
@server.tool(structured_output=False)
def echo() -> str:
    return payload
server.run("stdio")
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def once(call: Callable[[int], Awaitable[None]], i: int) -> float:
    """Milliseconds of one ``call(i)``."""
    start = time.perf_counter()
    await call(i)
    return (time.perf_counter() - start) * 1000


async def timed(call: Callable[[int], Awaitable[None]], runs: int) -> list[float]:
    """Milliseconds of ``call(i)`` for i in range(runs), one after another."""
    return [await once(call, i) for i in range(runs)]
