"""The command line both servers share: transport, host, port, verbosity, ``--version``.

``build`` is called only after the arguments are parsed, so ``--help`` and ``--version``
answer without importing anything heavy.

Shutdown is part of the contract with MCP clients: a client ends a stdio server by
closing its stdin or by sending SIGTERM, and a supervisor ends an HTTP server with
SIGTERM. Each ends the process promptly with exit status 0. The SDK reads stdin in a
worker thread that cancellation cannot interrupt, so on POSIX the stdio transport gets a
stdin reader that waits on the event loop instead; an HTTP server whose stdin is a pipe
also stops when that pipe closes (its parent went away), so it never outlives the
client that started it.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

import anyio
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server

from .env import SettingsError
from .logging import configure_logging
from .stdio import LoopStdin, claimed_stdin

__all__ = ["serve"]

logger = logging.getLogger(__name__)

HTTP_GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long open HTTP streams (a client's GET event stream) may delay an HTTP shutdown."""

SHUTDOWN_GRACE_SECONDS = 5.0
"""After a shutdown request, how long in-flight tool work may run before the process exits anyway."""

_READ_CHUNK = 65536


def _parser(prog: str, version: str, description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"{prog} {version}")
    parser.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default, for MCP clients that start the server) or http (streamable HTTP on /mcp)",
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


def _fd_mode(fd: int) -> int:
    try:
        return os.fstat(fd).st_mode
    except OSError:
        return 0


def _watchable(fd: int) -> bool:
    """Whether the event loop can wait on ``fd``: a pipe, socket or terminal (not a file, not /dev/null)."""
    if sys.platform == "win32":
        return False
    mode = _fd_mode(fd)
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or (stat.S_ISCHR(mode) and os.isatty(fd))


def _is_pipe(fd: int) -> bool:
    return sys.platform != "win32" and stat.S_ISFIFO(_fd_mode(fd))


_watchdog_started = threading.Event()


def _exit_after_grace() -> None:
    """Bound the shutdown: tool work in worker threads (PDF conversion, spaCy) cannot be cancelled.

    The event loop cancels in-flight calls at once, but a call running in a thread finishes
    first; a client that asked the server to stop should not wait for it (or have to kill it).
    Library writes are atomic, so ending mid-conversion leaves no partial files behind.
    """
    if _watchdog_started.is_set():
        return
    _watchdog_started.set()

    def force_exit() -> None:
        logger.warning("still busy %.0f s after the shutdown request: exiting now", SHUTDOWN_GRACE_SECONDS)
        logging.shutdown()
        os._exit(0)

    timer = threading.Timer(SHUTDOWN_GRACE_SECONDS, force_exit)
    timer.daemon = True
    timer.start()


async def _cancel_on_signal(scope: anyio.CancelScope) -> None:
    with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
        async for signum in signals:
            logger.info("%s received: shutting down", signal.Signals(signum).name)
            _exit_after_grace()
            scope.cancel()
            return


async def _serve_stdio(server: MCPServer[Any]) -> None:
    """Serve stdio until stdin closes or SIGTERM/SIGINT arrives."""
    async with anyio.create_task_group() as tg:
        if sys.platform != "win32":  # the event loop cannot receive signals there; SIGTERM ends the process
            tg.start_soon(_cancel_on_signal, tg.cancel_scope)
        if _watchable(0):
            with claimed_stdin() as fd:
                stdin = LoopStdin(fd, on_eof=_exit_after_grace)
                async with stdio_server(stdin=stdin) as (read_stream, write_stream):
                    stdin.answer_unreadable_on(write_stream)
                    # What run_stdio_async() does, with our reader: the public method hard-wires the thread one.
                    lowlevel = server._lowlevel_server
                    await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
        else:
            await server.run_stdio_async()
        tg.cancel_scope.cancel()


async def _stop_when_stdin_closes(http: uvicorn.Server) -> None:
    """Stop the HTTP server once its parent closes our stdin pipe (the parent is gone)."""
    while True:
        await anyio.wait_readable(0)
        try:
            if os.read(0, _READ_CHUNK):
                continue
        except BlockingIOError:
            continue
        logger.info("stdin closed: shutting down")
        _exit_after_grace()
        http.should_exit = True
        return


def _exit_on_signal(signum: int, frame: FrameType | None) -> None:
    """Until the event loop runs (imports, building the server), SIGTERM simply ends the process."""
    raise SystemExit(0)


def _ignore_signal(signum: int, frame: FrameType | None) -> None:
    """uvicorn handles SIGTERM/SIGINT while serving and re-raises them after; by then we are done."""


class _HTTPServer(uvicorn.Server):
    """uvicorn's server, with the shutdown bounded like the stdio one."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        _exit_after_grace()
        super().handle_exit(sig, frame)


async def _serve_http(server: MCPServer[Any], host: str, port: int, stateless: bool, verbosity: int) -> None:
    app = server.streamable_http_app(stateless_http=stateless, host=host)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level={0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG),
        log_config=None,  # keep our stderr handler; do not let uvicorn install its own
        timeout_graceful_shutdown=HTTP_GRACEFUL_SHUTDOWN_SECONDS,
    )
    http = _HTTPServer(config)
    async with anyio.create_task_group() as tg:
        if _is_pipe(0):
            tg.start_soon(_stop_when_stdin_closes, http)
        await http.serve()
        tg.cancel_scope.cancel()


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
    signal.signal(signal.SIGTERM, _exit_on_signal)
    try:
        try:
            server = build()
        except SettingsError as exc:
            sys.exit(f"{prog}: {exc.message}")  # a malformed setting: one line on stderr, no traceback
        if args.transport == "stdio":
            anyio.run(_serve_stdio, server)
        else:
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, _ignore_signal)
            logger.info("%s serving streamable HTTP on http://%s:%d/mcp", prog, args.host, args.port)
            anyio.run(_serve_http, server, args.host, args.port, args.stateless, args.verbose)
    except KeyboardInterrupt:
        pass  # Ctrl-C before the event loop took over the signal
    logger.info("%s stopped", prog)
