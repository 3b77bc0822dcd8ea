"""Start a server of this workspace as a subprocess and connect the mcp SDK's Client to it.

Used by the protocol tests, ``make demo`` and ``make bench``: the servers run exactly as an
MCP client would start them (``python -m <package>`` over stdio, or over streamable HTTP).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import IO

import httpx
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

REPO_ROOT = Path(__file__).resolve().parents[2]


def fixtures_dir() -> Path | None:
    """The arXiv fixture directory, or None when it is not on this machine."""
    explicit = os.environ.get("PAPERS_MCP_FIXTURES")
    candidate = Path(explicit) if explicit else REPO_ROOT.parent / "shared" / "fixtures" / "arxiv"
    return candidate if (candidate / "MANIFEST.md").is_file() else None


def child_environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The SDK's safe environment subset, plus the variables the servers read, plus ``env``.

    Proxy variables are dropped and the scholarly indexes are off unless ``env`` names them: every
    request the tests make goes to 127.0.0.1.
    """
    base = get_default_environment()
    for key, value in os.environ.items():
        if key.startswith(("PAPERS_MCP_", "RESEARCH_MCP_")) or key in {"COVERAGE_PROCESS_START"}:
            base[key] = value
    # The scholarly indexes (paper-graph) stay off unless a test points them at its replay.
    base.setdefault("PAPERS_MCP_S2_URL", "")
    base.setdefault("PAPERS_MCP_OPENALEX_URL", "")
    for key in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        base.pop(key, None)
    base.update(env or {})
    return base


@asynccontextmanager
async def server_client(
    package: str,
    env: Mapping[str, str] | None = None,
    *,
    args: list[str] | None = None,
    errlog: IO[str] | None = None,
    read_timeout_seconds: float | None = 120,
    cwd: Path | None = None,
) -> AsyncIterator[Client]:
    """``python -m <package>`` over stdio, with a connected, initialised ``Client``."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", package, *(args or [])], env=child_environment(env), cwd=cwd
    )
    if errlog is not None:
        from mcp.client.stdio import stdio_client

        transport = stdio_client(params, errlog=errlog)
        async with Client(transport, read_timeout_seconds=read_timeout_seconds) as client:
            yield client
    else:
        async with Client(params, read_timeout_seconds=read_timeout_seconds) as client:
            yield client


@contextmanager
def serve_in_thread(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """Serve ``handler`` on a free 127.0.0.1 port in a daemon thread; yield the base URL; stop on exit."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    server.block_on_close = False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class HttpServer:
    url: str
    pid: int


@contextmanager
def http_server_process(
    package: str, env: Mapping[str, str] | None = None, *, stateless: bool = False, timeout: float = 60
) -> Iterator[HttpServer]:
    """Run ``python -m <package> --transport http`` on a free 127.0.0.1 port; yield its MCP URL and pid."""
    port = free_port()
    args = [sys.executable, "-m", package, "--transport", "http", "--port", str(port)]
    if stateless:
        args.append("--stateless")
    proc = subprocess.Popen(args, env=child_environment(env), stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"{package} exited with {proc.returncode} before serving HTTP")
            try:
                httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        yield HttpServer(f"http://127.0.0.1:{port}/mcp", proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def http_server(
    package: str, env: Mapping[str, str] | None = None, *, stateless: bool = False, timeout: float = 60
) -> Iterator[str]:
    """Run ``python -m <package> --transport http`` on a free 127.0.0.1 port; yield its MCP URL."""
    with http_server_process(package, env, stateless=stateless, timeout=timeout) as server:
        yield server.url


def rss_bytes(pid: int) -> int:
    """Resident set size of a process, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for pid {pid}")
