"""Tell the client how long work is going: MCP progress, plus the same words as an MCP log message.

Progress notifications drive a client's progress bar; the log message is what a client
shows in its log pane (and what a handshake-era client receives without asking). The
logging capability is deprecated from protocol 2026-07-28 on, where a client opts in per
request; the SDK then drops the message unless the client asked for it.
"""

from __future__ import annotations

import warnings

from mcp import MCPDeprecationWarning
from mcp.server.mcpserver import Context

from .batch import ProgressFn

__all__ = ["client_progress"]

# Deliberate: handshake-era clients (most clients today) get log messages only through this
# capability. Say so once here instead of a warning on stderr for every message sent.
warnings.filterwarnings(
    "ignore", message="The logging capability is deprecated", category=MCPDeprecationWarning
)


def client_progress(ctx: Context, logger_name: str) -> ProgressFn:
    """A ``ProgressFn`` that reports to the client of this request, as progress and as an info log entry."""

    async def report(done: float, total: float, message: str) -> None:
        await ctx.report_progress(done, total, message)
        await ctx.log("info", message, logger_name=logger_name)

    return report
