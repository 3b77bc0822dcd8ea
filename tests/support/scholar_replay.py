"""A replay Semantic Scholar Graph API and OpenAlex on 127.0.0.1, from the real recordings in ``shared/fixtures/scholar``.

papers-mcp is pointed at it with ``PAPERS_MCP_S2_URL=<base>/s2`` and ``PAPERS_MCP_OPENALEX_URL=<base>/openalex``;
its clients, gates, retries, paging, caching and fallback then run for real.

Which recording answers which request is read from MANIFEST.md (each row's request URL), so nothing
here is typed in by hand:

- Semantic Scholar ``/paper/{id}``: a recorded paper record, found by any of its ids (paperId,
  ``CorpusId:``, ``DOI:`` or a bare DOI, ``ARXIV:``, all case-insensitive) taken from the recorded
  records themselves (paper, batch and search bodies); ``/paper/{id}/references`` and ``/citations``:
  the recorded page for that paper and ``offset`` (``limit`` and ``fields`` are not matched: the
  recorded page is what the service sent for that offset); ``POST /paper/batch``: the recorded body
  for the recorded list of ids. A paper nobody recorded gets Semantic Scholar's recorded 404 body.
- OpenAlex ``/works/{id}``: a recorded work by its W-id or DOI URL; ``/works?filter=cites:|cited_by:``:
  the recorded page for that filter and ``cursor``. A work nobody recorded gets OpenAlex's recorded 404 page.
- The recorded 400, 403 and 504 answers to GET requests are served, with their status, at the request
  they were recorded for (``mailto`` aside); the recorded 403 of a batch is the ``http_403`` fault.

Faults a test switches on with ``replay.set_fault(kind, target, times=n)``: ``http_429`` (HTTP 429
with ``Retry-After``; its body is SYNTHETIC, ``{"message": "Too Many Requests"}``: no 429 was ever
recorded), ``http_504`` and ``http_403`` (the recorded 504 and 403 bodies), ``disconnect``. ``requests``
lists what was asked (service, path, query, headers).
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qsl, unquote, urlsplit

from support.servers import REPO_ROOT, serve_in_thread

__all__ = ["ScholarReplay", "scholar_fixtures_dir", "serve_scholar_replay"]

Service = Literal["s2", "openalex"]
FaultKind = Literal["http_429", "http_504", "http_403", "disconnect"]
SYNTHETIC_429_BODY = b'{"message": "Too Many Requests"}'


@dataclass(frozen=True)
class Recorded:
    status: int
    content_type: str
    body: bytes


@dataclass(frozen=True)
class Asked:
    service: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    at: float = field(default_factory=time.monotonic)


@dataclass
class _Fault:
    kind: FaultKind
    target: Service
    remaining: int
    retry_after: str


def scholar_fixtures_dir() -> Path | None:
    """``shared/fixtures/scholar`` beside the repository, or None when it is not on this machine."""
    candidate = REPO_ROOT.parent / "shared" / "fixtures" / "scholar"
    return candidate if (candidate / "MANIFEST.md").is_file() else None


def _manifest_rows(fixtures: Path) -> list[tuple[str, str, str, int]]:
    """(file, method, recorded URL, recorded status) of every MANIFEST.md row."""
    rows = []
    for line in (fixtures / "MANIFEST.md").read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `([^`]+)` \|[^|]*: `(GET|POST) (https://[^`]+)` \| (\d{3}) \|", line)
        if match:
            rows.append((match[1], match[2], match[3], int(match[4])))
    return rows


@dataclass
class ScholarReplay:
    """The running replay: base URL, recorded answers, the requests it got, fault switches."""

    fixtures: Path
    base_url: str = ""
    s2_papers: dict[str, bytes] = field(default_factory=dict)  # canonical id -> paper record
    s2_alias: dict[str, str] = field(default_factory=dict)  # any id (lowercase) -> canonical id
    s2_edges: dict[tuple[str, str, int], bytes] = field(default_factory=dict)  # (id, direction, offset)
    s2_batch: dict[tuple[str, ...], bytes] = field(default_factory=dict)
    works: dict[str, bytes] = field(default_factory=dict)  # W-id or DOI URL (lowercase) -> work
    work_lists: dict[tuple[str, str], bytes] = field(default_factory=dict)  # (filter, cursor)
    errors: dict[tuple[str, str, tuple[tuple[str, str], ...]], Recorded] = field(default_factory=dict)
    requests: list[Asked] = field(default_factory=list)
    _faults: list[_Fault] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def s2_url(self) -> str:
        return f"{self.base_url}/s2"

    @property
    def openalex_url(self) -> str:
        return f"{self.base_url}/openalex"

    def _read(self, name: str) -> bytes:
        return (self.fixtures / name).read_bytes()

    def _learn_s2(self, record: Any) -> str | None:
        if not isinstance(record, dict) or not record.get("paperId"):
            return None
        pid = str(record["paperId"]).lower()
        self.s2_alias[pid] = pid
        for kind, value in (record.get("externalIds") or {}).items():
            value = str(value).lower()
            if kind == "DOI":
                self.s2_alias[value] = pid
                self.s2_alias[f"doi:{value}"] = pid
            elif kind in ("CorpusId", "ArXiv"):
                self.s2_alias[f"{kind.lower()}:{value}"] = pid
                if kind == "ArXiv":
                    self.s2_alias[f"doi:10.48550/arxiv.{value}"] = pid
        return pid

    def canonical(self, raw: str) -> str:
        key = unquote(raw).lower()
        return self.s2_alias.get(key, key)

    def load(self) -> None:
        rows = _manifest_rows(self.fixtures)
        for name, method, _, _ in rows:  # first every record, so edge lists can be keyed by canonical id
            if name.startswith("semanticscholar/") and name.endswith(".json"):
                data = json.loads(self._read(name))
                if name.startswith("semanticscholar/paper_"):
                    pid = self._learn_s2(data)
                    if pid and (pid not in self.s2_papers or "all-fields" in name):
                        self.s2_papers[pid] = self._read(name)
                elif method == "POST" or name.startswith("semanticscholar/search-match"):
                    for record in data if isinstance(data, list) else data.get("data") or []:
                        self._learn_s2(record)
        for name, method, url, status in rows:
            parts = urlsplit(url)
            query = dict(parse_qsl(parts.query))
            if status != 200 and "error-404" not in name and method == "GET":  # 400/403/504 at their request
                service = "s2" if name.startswith("semanticscholar/") else "openalex"
                path = parts.path.removeprefix("/graph/v1")
                kind = "text/html" if name.endswith(".html") else "application/json"
                self.errors[(service, path, tuple(sorted(query.items())))] = Recorded(
                    status, kind, self._read(name)
                )
                continue
            if name.startswith("semanticscholar/"):
                path = parts.path.removeprefix("/graph/v1")
                edge = re.fullmatch(r"/paper/(.+)/(references|citations)", path)
                if edge:
                    key = (self.canonical(edge[1]), edge[2], int(query.get("offset", "0")))
                    self.s2_edges[key] = self._read(name)
            elif name.startswith("openalex/"):
                if parts.path.startswith("/works/") and name.startswith("openalex/work_"):
                    work = json.loads(self._read(name))
                    self.works[unquote(parts.path.removeprefix("/works/")).lower()] = self._read(name)
                    self.works[str(work.get("id", "")).rsplit("/", 1)[-1].lower()] = self._read(name)
                elif parts.path == "/works" and "filter" in query and name.startswith("openalex/works_"):
                    self.work_lists[(query["filter"], query.get("cursor", ""))] = self._read(name)
        batch = self._read("semanticscholar/paper-batch_POST_with-null-for-unknown-id.json")
        ids = (
            "CorpusId:211530585",
            "CorpusId:470667",
            "10.2139/ssrn.2250500",
            "0f40b1f08821e22e859c6050916cec3667778613",
        )
        self.s2_batch[ids] = batch  # the request body MANIFEST.md gives for that row

    # -- faults and bookkeeping --

    def set_fault(self, kind: FaultKind, target: Service, *, times: int = 1, retry_after: str = "1") -> None:
        with self._lock:
            self._faults.append(_Fault(kind, target, times, retry_after))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def take_fault(self, service: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                if fault.target == service and fault.remaining > 0:
                    fault.remaining -= 1
                    return fault
        return None

    def asked(self, service: str) -> list[Asked]:
        with self._lock:
            return [r for r in self.requests if r.service == service]

    # -- answers --

    def answer(
        self, method: str, path: str, query: dict[str, str], body: bytes
    ) -> tuple[str, Recorded | None]:
        for service in ("s2", "openalex"):
            if path.startswith(f"/{service}/"):
                asked = tuple(sorted((k, v) for k, v in query.items() if k != "mailto"))
                recorded = self.errors.get((service, path.removeprefix(f"/{service}"), asked))
                if recorded is not None:
                    return service, recorded
        if path.startswith("/s2/"):
            return "s2", self._s2(method, path.removeprefix("/s2"), query, body)
        if path.startswith("/openalex/"):
            return "openalex", self._openalex(path.removeprefix("/openalex"), query)
        return "none", None

    def _s2(self, method: str, path: str, query: dict[str, str], body: bytes) -> Recorded:
        not_found = Recorded(
            404, "application/json", self._read("semanticscholar/error-404_paper-id-0-not-found.json")
        )
        if method == "POST" and path == "/paper/batch":
            try:
                ids = tuple(json.loads(body)["ids"])
            except (ValueError, KeyError, TypeError):
                return Recorded(400, "text/plain", b"not a batch request")
            found = self.s2_batch.get(ids)
            return (
                Recorded(200, "application/json", found)
                if found
                else Recorded(404, "text/plain", b"not recorded")
            )
        edge = re.fullmatch(r"/paper/(.+)/(references|citations)", path)
        if edge:
            key = (self.canonical(edge[1]), edge[2], int(query.get("offset", "0") or 0))
            page = self.s2_edges.get(key)
            return Recorded(200, "application/json", page) if page is not None else not_found
        paper = re.fullmatch(r"/paper/(.+)", path)
        if paper:
            record = self.s2_papers.get(self.canonical(paper[1]))
            return Recorded(200, "application/json", record) if record is not None else not_found
        return Recorded(404, "text/plain", b"not served by this replay")

    def _openalex(self, path: str, query: dict[str, str]) -> Recorded:
        not_found = Recorded(404, "text/html", self._read("openalex/error-404_work-not-found_html.html"))
        if path.startswith("/works/"):
            work = self.works.get(unquote(path.removeprefix("/works/")).lower())
            return Recorded(200, "application/json", work) if work is not None else not_found
        if path == "/works":
            page = self.work_lists.get((query.get("filter", ""), query.get("cursor", "")))
            return Recorded(200, "application/json", page) if page is not None else not_found
        return Recorded(404, "text/plain", b"not served by this replay")


def _handler(replay: ScholarReplay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            self._serve("GET", b"")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self._serve("POST", self.rfile.read(length) if length else b"")

        def _serve(self, method: str, body: bytes) -> None:
            # The raw path, so a DOI URL in it (/works/https://doi.org/...) stays as the client sent it.
            raw_path, _, raw_query = self.path.partition("?")
            query = dict(parse_qsl(raw_query))
            service, found = replay.answer(method, raw_path, query, body)
            with replay._lock:
                replay.requests.append(
                    Asked(service, raw_path, query, {k.lower(): v for k, v in self.headers.items()})
                )
            fault = replay.take_fault(service) if found is not None else None
            if fault is not None and fault.kind == "disconnect":
                self.close_connection = True
                self.connection.close()
                return
            extra: dict[str, str] = {}
            if fault is not None and fault.kind == "http_429":
                found = Recorded(429, "application/json", SYNTHETIC_429_BODY)
                extra["Retry-After"] = fault.retry_after
            elif fault is not None and fault.kind == "http_504":
                found = Recorded(
                    504,
                    "application/json",
                    replay._read("semanticscholar/error-504_citations_endpoint-request-timed-out.json"),
                )
            elif fault is not None and fault.kind == "http_403":
                found = Recorded(
                    403,
                    "application/json",
                    replay._read("semanticscholar/error-403_paper-batch_forbidden.json"),
                )
            if found is None:
                found = Recorded(404, "text/plain", b"not served by this replay")
            self.send_response(found.status)
            self.send_header("Content-Type", found.content_type)
            for name, value in extra.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(found.body)))
            self.end_headers()
            self.wfile.write(found.body)

    return Handler


@contextmanager
def serve_scholar_replay(fixtures: Path) -> Iterator[ScholarReplay]:
    """Serve the replay on 127.0.0.1 (a free port) in a thread until the block exits."""
    replay = ScholarReplay(fixtures)
    replay.load()
    with serve_in_thread(_handler(replay)) as base_url:
        replay.base_url = base_url
        yield replay
