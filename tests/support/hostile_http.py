"""A misbehaving HTTP server on 127.0.0.1 for the fault tests: one switchable mode at a time.

Modes cover what the replay arXiv does not: a connection reset mid-body, 429 with and
without Retry-After, truncated XML, an HTML page with status 200, an endless redirect loop,
a body far larger than any limit, a slow answer. ``proxy`` forwards to a real upstream (the
replay arXiv), so a test can check that the next good request succeeds in the same process.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Literal

import httpx

from support.servers import serve_in_thread

Mode = Literal[
    "proxy",
    "reset_mid_body",
    "http_429_retry_after",
    "http_429",
    "truncated_xml",
    "html_200",
    "redirect_loop",
    "huge_body",
    "slow",
    "ok_html_page",
]

TRUNCATED_ATOM = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
    b"<title>arXiv Query</title><entry><id>http://arxiv.org/abs/1706.03762v5</id><title>Attention Is"
)
HTML_PAGE = b"<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>"


@dataclass
class Hostile:
    base_url: str
    upstream: str = ""
    modes: dict[str, Mode] = field(default_factory=dict)
    """Mode by first path segment ("api", "pdf", "page"...); anything not listed is proxied."""
    hits: int = 0
    page_text: str = "Acme Corp revenue reached $3.2 billion in 2024."
    lock: threading.Lock = field(default_factory=threading.Lock)


def _handler(state: Hostile) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def _send(self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(body)

        def do_HEAD(self) -> None:
            self.do_GET()

        def do_GET(self) -> None:
            segment = self.path.lstrip("/").split("/", 1)[0].split("?", 1)[0]
            with state.lock:
                state.hits += 1
                mode = state.modes.get(segment, "proxy")
            if mode == "proxy":
                upstream = httpx.get(state.upstream + self.path, timeout=30)
                ctype = upstream.headers.get("content-type", "application/octet-stream")
                self._send(upstream.status_code, upstream.content, ctype)
            elif mode == "reset_mid_body":
                self.send_response(200)
                self.send_header("Content-Type", "application/atom+xml")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                self.wfile.write(b"%PDF-1.5\n" + b"x" * 5000)
                self.wfile.flush()
                self.connection.setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00"
                )
                self.connection.close()
            elif mode == "http_429_retry_after":
                self._send(429, b"Too Many Requests", "text/plain", {"Retry-After": "1"})
            elif mode == "http_429":
                self._send(429, b"Too Many Requests", "text/plain")
            elif mode == "truncated_xml":
                self._send(200, TRUNCATED_ATOM, "application/atom+xml")
            elif mode == "html_200":
                self._send(200, HTML_PAGE, "text/html")
            elif mode == "ok_html_page":
                body = f"<html><body><p>{state.page_text}</p></body></html>".encode()
                self._send(200, body, "text/html")
            elif mode == "redirect_loop":
                self._send(302, b"", "text/plain", {"Location": self.path})
            elif mode == "huge_body":
                self.send_response(200)
                self.send_header("Content-Type", "application/pdf")
                self.end_headers()
                chunk = b"%PDF-1.5\n" + b"0" * (1 << 20)
                try:
                    for _ in range(200):  # 200 MiB, streamed: a client must stop reading long before
                        self.wfile.write(chunk)
                except OSError:
                    pass
            elif mode == "slow":
                time.sleep(8)
                with suppress(OSError):
                    self._send(200, HTML_PAGE, "text/html")

    return Handler


@contextmanager
def serve_hostile(upstream: str = "") -> Iterator[Hostile]:
    """Serve on a free 127.0.0.1 port in a thread; set ``state.modes[...]`` to misbehave."""
    state = Hostile("", upstream=upstream)
    with serve_in_thread(_handler(state)) as base_url:
        state.base_url = base_url
        yield state
