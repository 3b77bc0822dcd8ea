"""``research-mcp``: parse the command line, then build and run the server."""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import version

from mcp_shared.hosting import serve

from .server import build_server
from .settings import Settings


def main(argv: Sequence[str] | None = None) -> None:
    serve(
        "research-mcp",
        version("research-mcp"),
        "Extract facts and entities, validate citations, rate sources, detect conflicting facts.",
        lambda env: build_server(Settings.from_env(env)),
        argv,
        log_env_var="RESEARCH_MCP_LOG_LEVEL",
    )


if __name__ == "__main__":
    main()
