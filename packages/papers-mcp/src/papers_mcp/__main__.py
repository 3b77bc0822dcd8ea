"""``papers-mcp``: parse the command line, then build and run the server."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from mcp_shared.hosting import serve

from .server import build_server
from .settings import Settings


def main(argv: Sequence[str] | None = None) -> None:
    serve(
        "papers-mcp",
        version("papers-mcp"),
        "Find arXiv papers and read them as clean markdown.",
        lambda env: build_server(Settings.from_env(env)),
        argv,
        log_env_var="PAPERS_MCP_LOG_LEVEL",
    )


if __name__ == "__main__":
    main()
