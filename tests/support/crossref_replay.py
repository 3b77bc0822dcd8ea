"""A replay Crossref REST API and DOI resolver on 127.0.0.1, from the real recordings in ``shared/fixtures/crossref``.

research-mcp is pointed at it with ``RESEARCH_MCP_CROSSREF_URL=<base>/crossref`` and
``RESEARCH_MCP_DOI_URL=<base>/doi/``; its HTTP client, parsing and checks then run for real.

- ``/crossref/works/<doi>`` (the DOI percent-decoded, case-insensitive): the recorded body, status and
  content type of that DOI (habanero's vcrpy cassettes, gzip-decompressed, and the raw Crossref bodies
  of the ``uws_*`` files); the two notices of the retracted work are served from the recorded
  ``filter=updates:`` work-list, one work each. A DOI nobody recorded gets Crossref's recorded 404
  ("Resource not found.").
- ``/doi/<doi>``: doi.org's recorded 302 for 10.1126/science.169.3946.635; any other DOI gets doi.org's
  recorded 404 page.

Faults a test switches on with ``replay.set_fault(kind, times=n)``: ``http_429`` (HTTP 429 with
``Retry-After: <retry_after>``), ``disconnect`` (the connection is closed without an answer); each
for the next ``times`` requests to ``target`` ("crossref", "doi" or "any"). ``replay.requests`` lists
what was asked (service, DOI, User-Agent); with ``replay.delay`` set, ``max_in_flight`` shows how many
requests were open at once.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit

import yaml

from support.servers import REPO_ROOT, serve_in_thread

__all__ = ["CrossrefReplay", "crossref_fixtures_dir", "serve_crossref_replay"]

Service = Literal["crossref", "doi", "any"]
FaultKind = Literal["http_429", "disconnect"]


@dataclass(frozen=True)
class Recorded:
    status: int
    content_type: str
    body: bytes
    location: str | None = None


@dataclass(frozen=True)
class Asked:
    service: str
    doi: str
    user_agent: str


@dataclass
class _Fault:
    kind: FaultKind
    target: Service
    remaining: int
    retry_after: str


def crossref_fixtures_dir() -> Path | None:
    """``shared/fixtures/crossref`` beside the repository, or None when it is not on this machine."""
    candidate = REPO_ROOT.parent / "shared" / "fixtures" / "crossref"
    return candidate if (candidate / "MANIFEST.md").is_file() else None


def _body(response: dict[str, Any]) -> bytes:
    raw = response["body"].get("string", b"")
    data = raw.encode() if isinstance(raw, str) else bytes(raw)
    return gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data


def _header(response: dict[str, Any], name: str) -> str | None:
    values = response["headers"].get(name) or response["headers"].get(name.lower())
    return values[0] if values else None


@dataclass
class CrossrefReplay:
    """The running replay: base URL, recorded answers, the requests it got, fault switches."""

    fixtures: Path
    base_url: str = ""
    works: dict[str, Recorded] = field(default_factory=dict)
    resolver: dict[str, Recorded] = field(default_factory=dict)
    crossref_404: Recorded | None = None
    resolver_404: Recorded | None = None
    requests: list[Asked] = field(default_factory=list)
    delay: float = 0.0
    """Seconds each answer waits (to see how many lookups the server keeps in flight at once)."""
    in_flight: int = 0
    max_in_flight: int = 0
    _faults: list[_Fault] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def crossref_url(self) -> str:
        return f"{self.base_url}/crossref"

    @property
    def doi_url(self) -> str:
        return f"{self.base_url}/doi/"

    def load(self) -> None:
        for cassette in sorted(self.fixtures.glob("habanero_*.yaml")):
            for interaction in yaml.safe_load(cassette.read_text(encoding="utf-8"))["interactions"]:
                request, response = interaction["request"], interaction["response"]
                url = urlsplit(request["uri"])
                answer = Recorded(
                    response["status"]["code"],
                    _header(response, "Content-Type") or "application/octet-stream",
                    _body(response),
                    _header(response, "Location"),
                )
                if url.hostname == "api.crossref.org" and url.path.startswith("/works/"):
                    doi = unquote(url.path.removeprefix("/works/")).lower()
                    if doi.startswith("10.") and not doi.endswith("/agency"):
                        self.works[doi] = answer
                        if answer.status == 404:
                            self.crossref_404 = answer
                elif url.hostname == "doi.org":
                    doi = unquote(url.path.lstrip("/")).lower()
                    self.resolver[doi] = answer
                    if answer.status == 404:
                        self.resolver_404 = answer
        for name in ("uws_crossref_work_wakefield1998.json", "uws_crossref_work_sandve2013.json"):
            body = (self.fixtures / name).read_bytes()
            self.works[json.loads(body)["message"]["DOI"].lower()] = Recorded(200, "application/json", body)
        notices = json.loads((self.fixtures / "uws_crossref_updates_wakefield1998.json").read_bytes())
        for item in notices["message"]["items"]:
            work = {"status": "ok", "message-type": "work", "message-version": "1.0.0", "message": item}
            self.works[item["DOI"].lower()] = Recorded(200, "application/json", json.dumps(work).encode())

    def set_fault(
        self, kind: FaultKind, *, times: int = 1, target: Service = "crossref", retry_after: str = "1"
    ) -> None:
        with self._lock:
            self._faults.append(_Fault(kind, target, times, retry_after))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def asked(self, service: str | None = None, doi: str | None = None) -> int:
        """How many requests (to ``service``, for ``doi``) arrived so far."""
        with self._lock:
            return sum(
                1
                for r in self.requests
                if (service is None or r.service == service) and (doi is None or r.doi == doi.lower())
            )

    def take_fault(self, service: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.target in ("any", service) and fault.remaining > 0:
                    fault.remaining -= 1
                    return fault
        return None

    def answer(self, path: str, user_agent: str) -> tuple[str, Recorded | None]:
        """The service asked and its recorded answer (None: not a path this replay serves)."""
        if path.startswith("/crossref/works/"):
            service, doi = "crossref", unquote(path.removeprefix("/crossref/works/")).lower()
            found = self.works.get(doi, self.crossref_404)
        elif path.startswith("/doi/"):
            service, doi = "doi", unquote(path.removeprefix("/doi/")).lower()
            found = self.resolver.get(doi, self.resolver_404)
        else:
            return "none", None
        with self._lock:
            self.requests.append(Asked(service, doi, user_agent))
        return service, found


def _handler(replay: CrossrefReplay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            with replay._lock:
                replay.in_flight += 1
                replay.max_in_flight = max(replay.max_in_flight, replay.in_flight)
            try:
                if replay.delay:
                    time.sleep(replay.delay)
                self._answer()
            finally:
                with replay._lock:
                    replay.in_flight -= 1

        def _answer(self) -> None:
            path = urlsplit(self.path).path
            service, found = replay.answer(path, self.headers.get("User-Agent", ""))
            fault = replay.take_fault(service) if found is not None else None
            if fault is not None and fault.kind == "disconnect":
                self.close_connection = True
                self.connection.close()
                return
            if fault is not None:
                self.send_response(429)
                self.send_header("Retry-After", fault.retry_after)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if found is None:
                found = Recorded(404, "text/plain", b"not served by this replay")
            self.send_response(found.status)
            self.send_header("Content-Type", found.content_type)
            if found.location:
                self.send_header("Location", found.location)
            self.send_header("Content-Length", str(len(found.body)))
            self.end_headers()
            self.wfile.write(found.body)

    return Handler


@contextmanager
def serve_crossref_replay(fixtures: Path) -> Iterator[CrossrefReplay]:
    """Serve the replay on 127.0.0.1 (a free port) in a thread until the block exits."""
    replay = CrossrefReplay(fixtures)
    replay.load()
    with serve_in_thread(_handler(replay)) as base_url:
        replay.base_url = base_url
        yield replay
