"""A bare JSON-RPC-over-stdio peer, for sending what no SDK client would send.

The SDK client validates what it sends; the hardening tests need to send malformed JSON,
non-object arguments, lone surrogates and absurd nesting, and see the server survive.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from support.servers import child_environment

HANDSHAKE_VERSION = "2025-06-18"


class RawPeer:
    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.proc = proc
        self._lines: queue.Queue[bytes] = queue.Queue()
        self._next_id = 1000
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)

    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.proc.stdin.flush()

    def send_request(self, method: str, params: Any, *, raw_params: str | None = None) -> int:
        """Send a request (params as JSON, or as a raw JSON text); return its id."""
        self._next_id += 1
        rid = self._next_id
        params_text = raw_params if raw_params is not None else json.dumps(params)
        self.send_raw(f'{{"jsonrpc":"2.0","id":{rid},"method":"{method}","params":{params_text}}}'.encode())
        return rid

    def request(self, method: str, params: Any, *, timeout: float = 60) -> dict[str, Any]:
        """Send a well-formed request and return its response."""
        rid = self.send_request(method, params)
        return self.responses_until(rid, timeout)[rid]

    def responses_until(self, rid: int, timeout: float = 60) -> dict[Any, dict[str, Any]]:
        """Every response read up to and including the one with id ``rid``, by id."""
        seen: dict[Any, dict[str, Any]] = {}
        while rid not in seen:
            message = json.loads(self._lines.get(timeout=timeout))
            if "id" in message and "method" not in message:
                seen[message["id"]] = message
        return seen


@contextmanager
def raw_server(
    package: str, env: Mapping[str, str] | None = None, cwd: Path | None = None
) -> Iterator[RawPeer]:
    proc = subprocess.Popen(
        [sys.executable, "-m", package],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=child_environment(env),
        cwd=cwd,
    )
    peer = RawPeer(proc)
    try:
        init = peer.request(
            "initialize",
            {
                "protocolVersion": HANDSHAKE_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "raw-peer", "version": "0"},
            },
        )
        assert "result" in init, init
        peer.send_raw(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        yield peer
    finally:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout:
            proc.stdout.close()
