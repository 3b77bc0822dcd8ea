"""The command line both servers share: transport, host, port, verbosity, ``--version``, and the fleet options.

Fleet options (``--redis-url``, ``--auth-tokens-file``, ``--no-auth``, ``--allowed-host``):
``--redis-url`` overrides ``<PREFIX>_REDIS_URL`` in the environment ``build`` receives. Over
HTTP, a tokens file turns on the SDK's bearer-token authentication for ``/mcp``; a bind to a
non-loopback address without one refuses to start unless ``--no-auth`` says something in
front of the server authenticates. ``/healthz`` (liveness) and ``/healthz/ready`` (readiness:
every check the server registered, Redis among them, answers) need no token.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import anyio
import anyio.to_thread
import uvicorn
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..env import SettingsError
from ..logging import configure_logging
from .http_auth import StaticTokenVerifier, allowed_hosts_security, is_loopback, token_auth_settings
from .stdio import LoopStdin, claimed_stdin

__all__ = ["serve"]

logger = logging.getLogger(__name__)

HTTP_GRACEFUL_SHUTDOWN_SECONDS = 3
"""How long open HTTP streams (a client's GET event stream) may delay an HTTP shutdown."""

SHUTDOWN_GRACE_SECONDS = 5.0
"""After a shutdown request, how long in-flight tool work may run before the process exits anyway."""

_READ_CHUNK = 65536


def _parser(prog: str, version: str, description: str, env_prefix: str) -> argparse.ArgumentParser:
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
    fleet = parser.add_argument_group(
        "fleet and HTTP security", f"--redis-url needs the fleet extra: pip install '{prog}[fleet]'"
    )
    fleet.add_argument(
        "--redis-url",
        metavar="URL",
        help=f"share state with the other replicas through this Redis (overrides ${env_prefix}_REDIS_URL)",
    )
    fleet.add_argument(
        "--auth-tokens-file",
        metavar="PATH",
        type=Path,
        help="HTTP: require 'Authorization: Bearer <token>' on /mcp, with the tokens in PATH (one per line)",
    )
    fleet.add_argument(
        "--no-auth",
        action="store_true",
        help="HTTP: serve a non-loopback address without tokens (only behind something that authenticates)",
    )
    fleet.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="HOST[:PORT]",
        help="HTTP: a Host/Origin the server is reached by (repeatable); others are refused (DNS rebinding)",
    )
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


@dataclass(frozen=True)
class _HttpOptions:
    host: str
    port: int
    stateless: bool
    verbosity: int
    verifier: StaticTokenVerifier | None = None
    allowed_hosts: Sequence[str] = field(default_factory=list)


def _health_routes(server: MCPServer[Any]) -> list[Route]:
    """``/healthz``: the process serves. ``/healthz/ready``: and every readiness check passes (503 if not)."""
    checks: Mapping[str, Callable[[], bool]] = getattr(server, "readiness_checks", {})

    async def alive(request: Request) -> Response:
        return JSONResponse({"status": "ok", "server": server.name})

    async def ready(request: Request) -> Response:
        results = {}
        for name, check in checks.items():
            ok = await anyio.to_thread.run_sync(check)
            results[name] = "ok" if ok else "unavailable"
        good = all(v == "ok" for v in results.values())
        body = {"status": "ready" if good else "not ready", "server": server.name, "checks": results}
        return JSONResponse(body, status_code=200 if good else 503)

    return [Route("/healthz", alive, methods=["GET"]), Route("/healthz/ready", ready, methods=["GET"])]


async def _serve_http(server: MCPServer[Any], options: _HttpOptions) -> None:
    host, port = options.host, options.port
    # The lowlevel server's app builder takes the auth settings and token verifier explicitly;
    # MCPServer's reads them from its constructor, which runs before the command line is known.
    app = server._lowlevel_server.streamable_http_app(
        stateless_http=options.stateless,
        host=host,
        transport_security=allowed_hosts_security(host, options.allowed_hosts),
        auth=token_auth_settings(host, port) if options.verifier is not None else None,
        token_verifier=options.verifier,
        custom_starlette_routes=[*_health_routes(server), *server._custom_starlette_routes],
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level={0: logging.WARNING, 1: logging.INFO}.get(options.verbosity, logging.DEBUG),
        log_config=None,  # keep our stderr handler; do not let uvicorn install its own
        timeout_graceful_shutdown=HTTP_GRACEFUL_SHUTDOWN_SECONDS,
    )
    http = _HTTPServer(config)
    async with anyio.create_task_group() as tg:
        if _is_pipe(0):
            tg.start_soon(_stop_when_stdin_closes, http)
        await http.serve()
        tg.cancel_scope.cancel()


def _http_options(prog: str, args: argparse.Namespace) -> _HttpOptions:
    """Check the HTTP security options before anything is built.

    Raises:
        SettingsError: an unreadable tokens file, a bad ``--allowed-host``, or a non-loopback
            bind with neither tokens nor ``--no-auth``.
    """
    verifier = None
    if args.auth_tokens_file is not None:
        if args.no_auth:
            raise SettingsError("--auth-tokens-file and --no-auth contradict each other: give one")
        verifier = StaticTokenVerifier.from_file(args.auth_tokens_file)
    elif not is_loopback(args.host) and not args.no_auth:
        raise SettingsError(
            f"refusing to serve HTTP on {args.host} without authentication: give --auth-tokens-file PATH "
            "(one bearer token per line), or --no-auth if a proxy in front of the server authenticates"
        )
    allowed_hosts_security(args.host, args.allowed_host)  # validates the values now
    options = _HttpOptions(args.host, args.port, args.stateless, args.verbose, verifier, args.allowed_host)
    if verifier is not None:
        logger.info("%s: bearer-token authentication on /mcp (%d token(s))", prog, len(verifier))
    elif args.no_auth:
        logger.warning("%s: serving %s without authentication (--no-auth)", prog, args.host)
    return options


def serve(
    prog: str,
    version: str,
    description: str,
    build: Callable[[Mapping[str, str]], MCPServer],
    argv: Sequence[str] | None = None,
    *,
    log_env_var: str | None = None,
    env_prefix: str | None = None,
) -> None:
    """Parse ``argv``, configure stderr logging, build the server and run it until stopped.

    ``build`` gets the environment with the command line's overrides applied (``--redis-url``
    becomes ``<env_prefix>_REDIS_URL``); ``env_prefix`` defaults to ``prog`` in upper case.
    """
    prefix = env_prefix or prog.upper().replace("-", "_")
    args = _parser(prog, version, description, prefix).parse_args(argv)
    configure_logging(args.verbose, env_var=log_env_var)
    signal.signal(signal.SIGTERM, _exit_on_signal)
    env = dict(os.environ)
    if args.redis_url:
        env[f"{prefix}_REDIS_URL"] = args.redis_url
    try:
        try:
            http = _http_options(prog, args) if args.transport == "http" else None
            server = build(env)
        except SettingsError as exc:
            sys.exit(f"{prog}: {exc}")  # a bad setting: one line on stderr (code and message), no traceback
        if http is None:
            if args.auth_tokens_file is not None or args.no_auth or args.allowed_host:
                logger.warning(
                    "%s: --auth-tokens-file, --no-auth and --allowed-host apply to --transport http only",
                    prog,
                )
            anyio.run(_serve_stdio, server)
        else:
            if env.get(f"{prefix}_REDIS_URL") and not args.stateless:
                logger.warning(
                    "%s: sessions live in one replica; behind a load balancer without sticky sessions use --stateless",
                    prog,
                )
            for signum in (signal.SIGTERM, signal.SIGINT):
                signal.signal(signum, _ignore_signal)
            logger.info("%s serving streamable HTTP on http://%s:%d/mcp", prog, args.host, args.port)
            anyio.run(_serve_http, server, http)
    except KeyboardInterrupt:
        pass  # Ctrl-C before the event loop took over the signal
    logger.info("%s stopped", prog)
