"""The command line both servers share: transport, host, port, verbosity, ``--version``.

``build`` is called only after the arguments are parsed, so ``--help`` and ``--version``
answer without importing anything heavy.
"""

from __future__ import annotations

import argparse
import logging
import signal
from collections.abc import Callable, Sequence
from types import FrameType

from mcp.server.mcpserver import MCPServer

from .logging import configure_logging

__all__ = ["serve"]

logger = logging.getLogger(__name__)


def _parser(prog: str, version: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {version}")
    parser.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default, for MCP clients that start the server) or http (streamable HTTP)",
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    parser.add_argument(
        "--stateless",
        action="store_true",
        help="HTTP without server-side sessions, so several replicas can sit behind a load balancer",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="-v for INFO logs, -vv for DEBUG")
    return parser


def _exit_on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve(
    prog: str,
    version: str,
    description: str,
    build: Callable[[], MCPServer],
    argv: Sequence[str] | None = None,
    *,
    log_env_var: str | None = None,
) -> None:
    """Parse ``argv``, configure stderr logging, build the server and run it until stopped."""
    args = _parser(prog, version, description).parse_args(argv)
    configure_logging(args.verbose, env_var=log_env_var)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    server = build()
    try:
        if args.transport == "stdio":
            server.run("stdio")
        else:
            logger.info("%s serving streamable HTTP on http://%s:%d/mcp", prog, args.host, args.port)
            server.run("streamable-http", host=args.host, port=args.port, stateless_http=args.stateless)
    except KeyboardInterrupt:
        pass
