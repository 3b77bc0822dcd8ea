"""``research-mcp``: parse the command line, then build and run the server."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.metadata import version

from mcp_shared import serve

from .server import build_server
from .settings import Settings


def main(argv: Sequence[str] | None = None) -> None:
    serve(
        "research-mcp",
        version("research-mcp"),
        "Extract facts and entities, validate citations, rate sources, detect conflicting facts.",
        lambda: build_server(_settings()),
        argv,
        log_env_var="RESEARCH_MCP_LOG_LEVEL",
    )


def _settings() -> Settings:
    try:
        return Settings.from_env()
    except ValueError as exc:
        # a bad RESEARCH_MCP_* value: say which on stderr and stop, without a traceback
        sys.exit(f"research-mcp: {exc}")


if __name__ == "__main__":
    main()
