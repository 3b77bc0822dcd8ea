"""Authenticated HTTP, over a real server process: bearer tokens through the SDK, Host allow-list, /healthz.

Expected behaviour is the issue's contract and RFC 6750: a request to /mcp without a valid
bearer token gets 401 with ``WWW-Authenticate: Bearer``; the health endpoints need none; a
non-loopback bind without tokens refuses to start; tokens never reach the logs.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import LATEST_PROTOCOL_VERSION
from support.fleet import Replica
from support.servers import child_environment, free_port

pytestmark = pytest.mark.anyio


async def aget(url: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as http:
        return await http.get(url)


GOOD = "good-token-0123456789abcdef"
OTHER = "second-token-fedcba9876543210"
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": LATEST_PROTOCOL_VERSION,
        "capabilities": {},
        "clientInfo": {"name": "auth-test", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def post(url: str, token: str | None = None, host: str | None = None) -> httpx.Response:
    headers = dict(MCP_HEADERS)
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    if host is not None:
        headers["Host"] = host
    return httpx.post(url, json=INITIALIZE, headers=headers, timeout=30)


async def test_tokens_are_required_on_mcp_and_never_logged(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"# the team's tokens\n{GOOD}\n\n{OTHER}\n")
    tokens.chmod(0o600)
    log = tmp_path / "server.log"
    args = ["--auth-tokens-file", str(tokens), "--allowed-host", "mcp.example.org", "-vv"]
    server = Replica("research_mcp", {}, args, log=log)
    server.start()
    try:
        server.wait_ready()
        denied = post(server.url)
        assert denied.status_code == 401
        assert denied.headers["WWW-Authenticate"].startswith("Bearer ")
        assert 'error="invalid_token"' in denied.headers["WWW-Authenticate"]
        assert post(server.url, token="wrong-token-0123456789abcdef").status_code == 401
        assert post(server.url, token=GOOD[:-1]).status_code == 401, "a prefix of a token is not the token"

        for token in (GOOD, OTHER):
            http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
            async with http, Client(streamable_http_client(server.url, http_client=http)) as client:
                assert len((await client.list_tools()).tools) == 12
                rated = await client.call_tool("source-rate", {"source_url": "https://www.nature.com/x"})
                assert rated.structured_content is not None
                assert rated.structured_content["quality_rating"] == "A"

        # DNS-rebinding protection: the allowed name passes, any other Host is refused (421).
        assert post(server.url, token=GOOD, host="mcp.example.org").status_code == 200
        assert post(server.url, token=GOOD, host="evil.example").status_code == 421

        # Health needs no token: liveness, and readiness (no Redis configured: no checks to fail).
        alive = await aget(f"{server.base}/healthz")
        assert alive.status_code == 200 and alive.json()["status"] == "ok"
        ready = await aget(f"{server.base}/healthz/ready")
        assert ready.status_code == 200 and ready.json()["checks"] == {}
    finally:
        server.stop()
    logged = log.read_text()
    assert GOOD not in logged and OTHER not in logged and "wrong-token" not in logged
    assert "bearer-token authentication on /mcp (2 token(s))" in logged


def test_refusals_at_start_up(tmp_path: Path) -> None:
    """Each misconfiguration stops start-up with one line naming the problem, before any port is bound."""
    weak = tmp_path / "weak"
    weak.write_text(f"{GOOD}\nshort\n")
    closed = free_port()
    cases = {
        "open bind": (["--transport", "http", "--host", "0.0.0.0", "--port", str(free_port())], "--no-auth"),
        "weak token": (
            ["--transport", "http", "--port", str(free_port()), "--auth-tokens-file", str(weak)],
            "line 2",
        ),
        "no redis": (
            ["--redis-url", f"redis://:hunter2-password@127.0.0.1:{closed}/0"],
            f"CONFIGURATION_ERROR: RESEARCH_MCP_REDIS_URL=redis://***@127.0.0.1:{closed}/0",
        ),
    }
    procs = {
        name: subprocess.Popen(
            [sys.executable, "-m", "research_mcp", *args],
            env=child_environment(),
            stdin=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, (args, _) in cases.items()
    }
    for name, proc in procs.items():
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 1, f"{name}: exit {proc.returncode}; {err}"
        assert cases[name][1] in err, f"{name}: {err}"
        assert "Traceback" not in err and "hunter2" not in err and "short" not in err.replace("shortly", "")
