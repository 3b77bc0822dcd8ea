"""A replay arXiv on 127.0.0.1, built from the real recorded data in ``shared/fixtures/arxiv``.

Tests, ``make bench`` and the offline ``make demo`` point papers-mcp at it through
``PAPERS_MCP_ARXIV_API_URL`` / ``PAPERS_MCP_PDF_URL``; the ``arxiv`` client, the download and
the conversion then run for real, and only the network edge is replaced.

It answers, in this order:
- a request whose parsed query parameters match a recorded feed (``feeds/index.json``): that
  feed's bytes and recorded HTTP status (the HTTP 400 error feed included);
- an ``id_list`` lookup of a fixture paper: an entry built from ``metadata.json`` in the current
  Atom format (copied from a recorded current-format feed); an unversioned id gets the
  fixture's version; a well-formed unknown id gets an empty feed; a malformed one the 400 error feed;
- any other ``search_query``: a small evaluator of arXiv's query syntax (field prefixes,
  quoted phrases, AND/OR/ANDNOT, parentheses, ``submittedDate:[A TO B]``) over the fixture
  metadata, ranked by weighted term counts (title above abstract), so ranking is testable;
- ``/pdf/<id>``: the fixture PDF (or one a test assigned to that id with ``serve_pdf_as``);
- ``/html/<versioned id>`` and ``/ar5iv/html/<bare id>``: the real LaTeXML pages of
  ``shared/fixtures/arxiv-html/pages`` (arXiv's HTML and ar5iv) and ``…/arxiv-html/oxide``
  (arXiv's LaTeXML-oxide pages since August 2026), HTTP 404 for every other paper,
  so the fixture PDFs keep exercising the PDF route. Those pages' ``metadata.json`` joins the id
  lookups (an ar5iv page has no version: it is served as v1, dated by the month its id encodes).

Faults a test switches on with ``replay.set_fault(...)``: ``slow``, ``http_429``, ``http_503``,
``http_404``, ``rate_exceeded`` (HTTP 200 with ``Rate exceeded.``), ``malformed_xml``,
``truncated_pdf``, ``not_pdf``, ``stall_pdf`` (half the PDF, then silence: a download to kill
mid-way; ``replay.stalled`` is set when it happens); each for the next ``times`` requests or until cleared.

Usage::

    with serve_replay(fixtures_dir) as replay:
        env = {"PAPERS_MCP_ARXIV_API_URL": replay.api_url, "PAPERS_MCP_PDF_URL": replay.pdf_url}
        replay.set_fault("http_503", times=2)
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode, urlsplit
from xml.sax.saxutils import escape, quoteattr

from support.servers import serve_in_thread

__all__ = ["FaultKind", "Replay", "ReplayRequest", "serve_replay"]

FaultKind = Literal[
    "slow",
    "http_429",
    "http_503",
    "http_404",
    "rate_exceeded",
    "malformed_xml",
    "truncated_pdf",
    "not_pdf",
    "stall_pdf",
]
Target = Literal["api", "pdf", "html", "any"]

_NEW_ID = re.compile(r"^(\d{4}\.\d{4,5})(?:v(\d+))?$")
_OLD_ID = re.compile(r"^([a-z-]+(?:\.[A-Za-z-]+)?/\d{7})(?:v(\d+))?$")
_FIELDS = {"ti", "au", "abs", "co", "jr", "cat", "rn", "id", "all", "submitteddate"}
_TITLE_WEIGHT = 3.0


@dataclass(frozen=True)
class ReplayRequest:
    """One request the replay answered: ``kind`` is "api", "pdf", "html" or "ar5iv"."""

    kind: str
    path: str
    params: dict[str, str]
    user_agent: str = ""
    at: float = 0.0  # time.monotonic() on arrival


@dataclass
class _Fault:
    kind: FaultKind
    target: Target
    remaining: int | None
    seconds: float


@dataclass(frozen=True)
class _Paper:
    """A fixture paper's metadata, as the feed builder and the search need it."""

    versioned: str
    base: str
    version: int
    meta: dict[str, Any]
    pdf: Path

    @property
    def primary_category(self) -> str:
        """From metadata; a 1990s stamp shows none, and then the old-style id's archive is the category."""
        category: str = self.meta.get("primary_category") or self.base.split("/")[0]
        return category

    @property
    def abstract(self) -> str:
        """From metadata; an essay without an abstract has none (served as an empty summary)."""
        return str(self.meta.get("abstract") or "")

    @property
    def fields(self) -> dict[str, str]:
        m = self.meta
        cats = [self.primary_category, *(m.get("categories") or [])]
        return {
            "ti": m["title"],
            "au": " ; ".join(m["authors"]),
            "abs": self.abstract,
            "co": m.get("comment") or "",
            "jr": m.get("journal_ref") or "",
            "cat": " ".join(c for c in cats if c),
            "rn": "",
            "id": f"{self.versioned} {self.base}",
        }


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _same_word(a: str, b: str) -> bool:
    return a == b or (len(a) > 3 and len(b) > 3 and a.rstrip("s") == b.rstrip("s"))


def _count(tokens: list[str], words: list[str], prefix: bool) -> int:
    if not words:
        return 0
    if prefix and len(words) == 1:
        return sum(1 for t in tokens if t.startswith(words[0]))
    n = len(words)
    return sum(
        1 for i in range(len(tokens) - n + 1) if all(_same_word(tokens[i + k], words[k]) for k in range(n))
    )


# --- a small evaluator of arXiv's search_query syntax over the fixture metadata ---

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<lpar>\() | (?P<rpar>\)) |
        (?P<date>submittedDate:\[\s*(?P<d1>\d{8,14})\s+TO\s+(?P<d2>\d{8,14})\s*\]) |
        (?P<field>[A-Za-z]+):(?:"(?P<fphrase>[^"]*)"|(?P<fterm>[^\s()"]+)) |
        "(?P<phrase>[^"]*)" |
        (?P<word>[^\s()"]+)
    )""",
    re.VERBOSE,
)


class _QueryError(ValueError):
    pass


Node = tuple[Any, ...]


def _lex(query: str) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos = 0
    query = query.strip()
    while pos < len(query):
        m = _TOKEN.match(query, pos)
        if m is None or m.end() == pos:
            raise _QueryError(f"cannot parse query at {query[pos:]!r}")
        pos = m.end()
        if m["lpar"]:
            out.append(("(", None))
        elif m["rpar"]:
            out.append((")", None))
        elif m["date"]:
            out.append(("term", ("date", m["d1"], m["d2"])))
        elif m["field"]:
            name = m["field"].lower()
            if name not in _FIELDS:
                raise _QueryError(f"unknown field {m['field']!r}")
            text = m["fphrase"] if m["fphrase"] is not None else m["fterm"]
            out.append(("term", ("match", name, text)))
        elif m["phrase"] is not None:
            out.append(("term", ("match", "all", m["phrase"])))
        elif m["word"] in {"AND", "OR", "ANDNOT"}:
            out.append((m["word"], None))
        else:
            out.append(("term", ("match", "all", m["word"])))
    return out


def _parse(tokens: list[tuple[str, Any]]) -> Node:
    pos = 0

    def peek() -> str | None:
        return tokens[pos][0] if pos < len(tokens) else None

    def unary() -> Node:
        nonlocal pos
        kind = peek()
        if kind == "(":
            pos += 1
            node = expr()
            if peek() != ")":
                raise _QueryError("unbalanced parentheses")
            pos += 1
            return node
        if kind == "term":
            pos += 1
            term: Node = tokens[pos - 1][1]
            return term
        raise _QueryError(f"unexpected {kind!r}")

    def conj() -> Node:
        nonlocal pos
        node = unary()
        while peek() in {"AND", "ANDNOT", "term", "("}:
            op = peek()
            if op in {"AND", "ANDNOT"}:
                pos += 1
            node = ("andnot" if op == "ANDNOT" else "and", node, unary())
        return node

    def expr() -> Node:
        nonlocal pos
        node = conj()
        while peek() == "OR":
            pos += 1
            node = ("or", node, conj())
        return node

    node = expr()
    if pos != len(tokens):
        raise _QueryError("trailing tokens")
    return node


def _score(node: Node, paper: _Paper) -> float:
    kind = node[0]
    if kind == "and":
        left, right = _score(node[1], paper), _score(node[2], paper)
        return left + right if left and right else 0.0
    if kind == "andnot":
        left = _score(node[1], paper)
        return left if left and not _score(node[2], paper) else 0.0
    if kind == "or":
        return _score(node[1], paper) + _score(node[2], paper)
    if kind == "date":
        stamp = paper.meta["version_date"].replace("-", "") + "0000"
        return 1.0 if node[1][:12].ljust(12, "0") <= stamp <= node[2][:12].ljust(12, "9") else 0.0
    _, name, text = node
    prefix = text.endswith("*")
    words = _tokens(text.replace("_", " ").rstrip("*"))
    fields = paper.fields
    if name == "all":
        score = _TITLE_WEIGHT * _count(_tokens(fields["ti"]), words, prefix)
        for key in ("au", "abs", "co", "jr", "cat", "id"):
            score += _count(_tokens(fields[key]), words, prefix)
        return score
    weight = _TITLE_WEIGHT if name == "ti" else 1.0
    return weight * _count(_tokens(fields.get(name, "")), words, prefix)


# --- the feed builder: the current Atom format, as in feeds/idlist_1707.08567.xml ---


def _stamp(date: str) -> str:
    return date if "T" in date else f"{date}T00:00:00Z"


def _entry(paper: _Paper) -> str:
    m = paper.meta
    updated = _stamp(m.get("updated", m["version_date"]))
    published = _stamp(m.get("published", m["version_date"]))
    lines = [
        "  <entry>",
        f"    <id>http://arxiv.org/abs/{paper.versioned}</id>",
        f"    <title>{escape(m['title'])}</title>",
        f"    <updated>{updated}</updated>",
        f'    <link href="https://arxiv.org/abs/{paper.versioned}" rel="alternate" type="text/html"/>',
        f'    <link href="https://arxiv.org/pdf/{paper.versioned}" rel="related" type="application/pdf" title="pdf"/>',
        f"    <summary>{escape(paper.abstract)}</summary>",
    ]
    primary = paper.primary_category
    categories = [primary, *[c for c in m.get("categories") or [] if c != primary]]
    lines += [
        f'    <category term={quoteattr(c)} scheme="http://arxiv.org/schemas/atom"/>' for c in categories
    ]
    lines.append(f"    <published>{published}</published>")
    if m.get("comment"):
        lines.append(f"    <arxiv:comment>{escape(m['comment'])}</arxiv:comment>")
    lines.append(f"    <arxiv:primary_category term={quoteattr(primary)}/>")
    if m.get("journal_ref"):
        lines.append(f"    <arxiv:journal_ref>{escape(m['journal_ref'])}</arxiv:journal_ref>")
    for name in m["authors"]:
        lines += ["    <author>", f"      <name>{escape(name)}</name>", "    </author>"]
    if m.get("doi"):
        lines.append(f"    <arxiv:doi>{escape(m['doi'])}</arxiv:doi>")
        lines.append(f'    <link rel="related" href="https://doi.org/{escape(m["doi"])}" title="doi"/>')
    lines.append("  </entry>")
    return "\n".join(lines)


def _feed(params: dict[str, str], entries: list[str], total: int) -> bytes:
    shown = {k: params.get(k, "") for k in ("search_query", "id_list", "start", "max_results")}
    title = "&".join(f"{k}={v}" for k, v in shown.items())
    digest = hashlib.sha1(title.encode(), usedforsecurity=False).hexdigest()[:27]
    head = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">',
        f"  <id>https://arxiv.org/api/{digest}</id>",
        f"  <title>arXiv Query: {escape(title)}</title>",
        f"  <updated>{datetime.now(UTC).strftime('%Y-%m-%dT%H:%M:%SZ')}</updated>",
        f'  <link href={quoteattr("https://arxiv.org/api/query?" + urlencode(shown))} type="application/atom+xml"/>',
        f"  <opensearch:itemsPerPage>{params.get('max_results', '10')}</opensearch:itemsPerPage>",
        f"  <opensearch:totalResults>{total}</opensearch:totalResults>",
        f"  <opensearch:startIndex>{params.get('start', '0')}</opensearch:startIndex>",
    ]
    return ("\n".join([*head, *entries, "</feed>"]) + "\n").encode()


def _error_feed(bad_id: str) -> bytes:
    """The error feed arXiv sends with HTTP 400, as in feeds/error_idlist_abc_http400.xml."""
    slug = re.sub(r"[^A-Za-z0-9._-]", "_", bad_id)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return (
        "<?xml version='1.0' encoding='UTF-8'?>\n"
        '<feed xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns="http://www.w3.org/2005/Atom">\n'
        "  <id>https://arxiv.org/</id>\n  <title>arXiv Search Results</title>\n"
        f"  <updated>{now}</updated>\n"
        "  <opensearch:itemsPerPage>1</opensearch:itemsPerPage>\n"
        "  <opensearch:totalResults>1</opensearch:totalResults>\n"
        "  <opensearch:startIndex>0</opensearch:startIndex>\n"
        "  <entry>\n"
        f"    <id>https://arxiv.org/api/errors#incorrect_id_format_for_{slug}</id>\n"
        "    <title>Error</title>\n"
        f"    <updated>{now}</updated>\n"
        f"    <summary>incorrect id format for {escape(bad_id)}</summary>\n"
        "    <author>\n      <name>arXiv api core</name>\n    </author>\n"
        "  </entry>\n</feed>\n"
    ).encode()


def _params(query: str) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(query, keep_blank_values=True).items()}


@dataclass
class Replay:
    """The running replay: its URLs, the requests it answered, and its fault switches."""

    fixtures: Path
    base_url: str = ""
    requests: list[ReplayRequest] = field(default_factory=list)
    _papers: dict[str, _Paper] = field(default_factory=dict)
    _recorded: list[tuple[dict[str, str], int, bytes]] = field(default_factory=list)
    _faults: list[_Fault] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _release: threading.Event = field(default_factory=threading.Event)
    _pdf_override: dict[str, Path] = field(default_factory=dict)
    stalled: threading.Event = field(default_factory=threading.Event)

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/query"

    @property
    def pdf_url(self) -> str:
        return f"{self.base_url}/pdf/"

    @property
    def html_url(self) -> str:
        return f"{self.base_url}/html/"

    @property
    def ar5iv_url(self) -> str:
        return f"{self.base_url}/ar5iv/html/"

    @property
    def html_pages(self) -> Path:
        return self.fixtures.parent / "arxiv-html" / "pages"

    @property
    def oxide_pages(self) -> Path:
        return self.fixtures.parent / "arxiv-html" / "oxide"

    def serve_pdf_as(self, versioned: str, pdf: Path | None) -> None:
        """Serve ``pdf`` at ``/pdf/<versioned>`` (None: back to the fixture's own PDF, or 404)."""
        with self._lock:
            if pdf is None:
                self._pdf_override.pop(versioned, None)
            else:
                self._pdf_override[versioned] = pdf

    def papers_env(self, home: Path, **overrides: str) -> dict[str, str]:
        """The ``PAPERS_MCP_*`` variables that point papers-mcp here, with no politeness delay.

        ``overrides`` take ``PAPERS_MCP_`` names without the prefix: ``papers_env(home, TIMEOUT_SECONDS="1")``.
        """
        env = {
            "PAPERS_MCP_ARXIV_API_URL": self.api_url,
            "PAPERS_MCP_PDF_URL": self.pdf_url,
            "PAPERS_MCP_HTML_URL": self.html_url,
            "PAPERS_MCP_AR5IV_URL": self.ar5iv_url,
            "PAPERS_MCP_HOME": str(home),
            "PAPERS_MCP_MIN_INTERVAL_SECONDS": "0",
            "PAPERS_MCP_RETRY_BACKOFF_SECONDS": "0.01",
            "PAPERS_MCP_MAX_RETRIES": "2",
        }
        env.update({f"PAPERS_MCP_{key}": value for key, value in overrides.items()})
        return env

    @property
    def paper_ids(self) -> list[str]:
        """The versioned ids of the fixture papers."""
        return sorted(self._papers)

    def load(self) -> None:
        metadata = json.loads((self.fixtures / "metadata.json").read_text(encoding="utf-8"))
        for versioned, meta in metadata.items():
            base, _, version = versioned.rpartition("v")
            pdf = self.fixtures / "pdfs" / f"{versioned.replace('/', '_')}.pdf"
            self._papers[versioned] = _Paper(versioned, base, int(version), meta, pdf)
        for html_meta in (self.html_pages.parent / "metadata.json", self.oxide_pages / "metadata.json"):
            if html_meta.is_file():
                for name, meta in json.loads(html_meta.read_text(encoding="utf-8")).items():
                    paper = _html_paper(name, meta, self.fixtures / "pdfs")
                    self._papers[paper.versioned] = paper
        for row in json.loads((self.fixtures / "feeds" / "index.json").read_text(encoding="utf-8")):
            body = (self.fixtures / "feeds" / row["file"]).read_bytes()
            self._recorded.append((_params(urlsplit(row["request_url"]).query), row["http_status"], body))

    # -- faults and bookkeeping --

    def set_fault(
        self, kind: FaultKind, *, times: int | None = None, target: Target = "any", seconds: float = 5.0
    ) -> None:
        """Answer the next ``times`` matching requests (all, when None) with ``kind``."""
        with self._lock:
            self._release.clear()
            self._faults.append(_Fault(kind, target, times, seconds))

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()
            self._release.set()

    def count(self, kind: str | None = None) -> int:
        """How many requests (of ``kind``: "api" or "pdf") were answered so far."""
        with self._lock:
            return sum(1 for r in self.requests if kind is None or r.kind == kind)

    def _take_fault(self, kind: str) -> _Fault | None:
        with self._lock:
            for fault in self._faults:
                # An HTML page takes only faults aimed at it: tests written before the HTML route
                # count their "any" faults on API and PDF requests.
                if kind in ("html", "ar5iv"):
                    if fault.target != "html":
                        continue
                elif fault.target not in ("any", kind):
                    continue
                if fault.kind in ("malformed_xml",) and kind != "api":
                    continue
                if fault.kind in ("truncated_pdf", "not_pdf", "stall_pdf") and kind != "pdf":
                    continue
                if fault.remaining is not None:
                    fault.remaining -= 1
                    if fault.remaining <= 0:
                        self._faults.remove(fault)
                return fault
        return None

    def _log(self, kind: str, path: str, params: dict[str, str], user_agent: str) -> None:
        with self._lock:
            self.requests.append(ReplayRequest(kind, path, params, user_agent, time.monotonic()))

    # -- answers --

    def _lookup(self, raw: str) -> _Paper | None:
        raw = raw.strip()
        for pattern in (_NEW_ID, _OLD_ID):
            m = pattern.match(raw)
            if m is None:
                continue
            base = m[1]
            if "/" in base and "." in base.split("/")[0]:
                base = base.split(".")[0] + "/" + base.split("/")[1]
            for paper in self._papers.values():
                if paper.base == base and (m[2] is None or int(m[2]) == paper.version):
                    return paper
        return None

    def answer_api(self, params: dict[str, str]) -> tuple[int, str, bytes]:
        for recorded, status, body in self._recorded:
            extra = set(params) - set(recorded) - {"sortBy", "sortOrder"}
            if not extra and all(
                " ".join(params.get(k, "").split()) == " ".join(v.split()) for k, v in recorded.items()
            ):
                return status, "application/atom+xml; charset=utf-8", body
        start = int(params.get("start") or 0)
        size = int(params.get("max_results") or 10)
        ids = [i for i in params.get("id_list", "").split(",") if i.strip()]
        query = params.get("search_query", "").strip()
        if ids:
            found: list[_Paper] = []
            for raw in ids:
                if not (_NEW_ID.match(raw.strip()) or _OLD_ID.match(raw.strip())):
                    return 400, "application/atom+xml; charset=utf-8", _error_feed(raw)
                paper = self._lookup(raw)
                if paper is not None:
                    found.append(paper)
            if query:
                try:
                    tree = _parse(_lex(query))
                except _QueryError:
                    return 400, "application/atom+xml; charset=utf-8", _error_feed(query)
                found = [p for p in found if _score(tree, p) > 0]
            page = found[start : start + size]
            return (
                200,
                "application/atom+xml; charset=utf-8",
                _feed(params, [_entry(p) for p in page], len(found)),
            )
        if not query:
            return 200, "application/atom+xml; charset=utf-8", _feed(params, [], 0)
        try:
            tree = _parse(_lex(query))
        except _QueryError:
            return 400, "application/atom+xml; charset=utf-8", _error_feed(query)
        scored = [(s, p) for p in self._papers.values() if (s := _score(tree, p)) > 0]
        scored.sort(key=lambda sp: (-sp[0], sp[1].versioned))
        page = [p for _, p in scored[start : start + size]]
        return (
            200,
            "application/atom+xml; charset=utf-8",
            _feed(params, [_entry(p) for p in page], len(scored)),
        )

    def answer_pdf(self, raw_id: str) -> tuple[int, str, bytes]:
        paper = self._lookup(raw_id.removesuffix(".pdf"))
        if paper is None:
            return 404, "text/plain", b"Not Found"
        with self._lock:
            pdf = self._pdf_override.get(paper.versioned, paper.pdf)
        if not pdf.is_file():
            return 404, "text/plain", b"Not Found"
        return 200, "application/pdf", pdf.read_bytes()

    def answer_html(self, kind: str, raw_id: str) -> tuple[int, str, bytes]:
        """arXiv's HTML wants the versioned id, ar5iv the bare one; anything else is a 404, as on arXiv."""
        if kind == "html":
            m = _NEW_ID.match(raw_id) or _OLD_ID.match(raw_id)
            name = raw_id.replace("/", "_") if m is not None and m[2] is not None else ""
        else:
            m = _NEW_ID.match(raw_id) or _OLD_ID.match(raw_id)
            name = "ar5iv_" + raw_id.replace("/", "_") if m is not None and m[2] is None else ""
        page = self.html_pages / f"{name}.html"
        if name and not page.is_file():
            page = self.oxide_pages / f"{name}.html"
        if not name or not page.is_file():
            return 404, "text/html; charset=utf-8", b"<html><body>No HTML for this paper</body></html>"
        return 200, "text/html; charset=utf-8", page.read_bytes()


def _handler(replay: Replay) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
            return

        def handle(self) -> None:
            try:
                super().handle()
            except (BrokenPipeError, ConnectionResetError):
                return  # the client went away (a killed server, a timeout test): nothing to answer

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            try:
                self._get()
            except (BrokenPipeError, ConnectionResetError):
                return  # the client gave up (a timeout test); nothing to answer

        def _get(self) -> None:
            url = urlsplit(self.path)
            params = _params(url.query)
            if url.path.startswith("/api/query"):
                kind = "api"
            elif url.path.startswith("/pdf/"):
                kind = "pdf"
            elif url.path.startswith(("/html/", "/ar5iv/html/")):
                kind = "html" if url.path.startswith("/html/") else "ar5iv"
            else:
                self._send(404, "text/plain", b"Not Found")
                return
            replay._log(kind, url.path, params, self.headers.get("User-Agent", ""))
            fault = replay._take_fault(kind)
            if fault is not None and fault.kind == "slow":
                replay._release.wait(fault.seconds)
                fault = None
            if fault is not None:
                if fault.kind in ("http_429", "http_503", "http_404"):
                    self._send(int(fault.kind[-3:]), "text/plain", b"Service Unavailable")
                    return
                if fault.kind == "rate_exceeded":
                    self._send(200, "text/plain", b"Rate exceeded.")
                    return
            if kind in ("html", "ar5iv"):
                raw_id = url.path.removeprefix("/html/").removeprefix("/ar5iv/html/")
                self._send(*replay.answer_html(kind, raw_id))
                return
            if kind == "api":
                status, content_type, body = replay.answer_api(params)
                if fault is not None and fault.kind == "malformed_xml":
                    body = body[: len(body) // 2] + b"<entry><title>broken"
                self._send(status, content_type, body)
                return
            status, content_type, body = replay.answer_pdf(url.path.removeprefix("/pdf/"))
            if fault is not None and status == 200:
                if fault.kind == "stall_pdf":
                    self.send_response(200)
                    self.send_header("Content-Type", content_type)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body[: len(body) // 2])
                    self.wfile.flush()
                    replay.stalled.set()
                    replay._release.wait(fault.seconds)
                    self.close_connection = True
                    return
                if fault.kind == "truncated_pdf":
                    body = body[: len(body) // 3]
                elif fault.kind == "not_pdf":
                    content_type, body = "text/html", b"<html><body>Please solve this CAPTCHA</body></html>"
            self._send(status, content_type, body)

    return Handler


def _html_paper(name: str, meta: dict[str, Any], pdfs: Path) -> _Paper:
    """A paper of the HTML fixtures as the feed builder needs it (their metadata lists no authors)."""
    versioned = meta["id"]
    if _NEW_ID.match(versioned)[2] is None:  # type: ignore[index]
        versioned += "v1"  # an ar5iv page carries no version
    base, _, version = versioned.rpartition("v")
    date = meta.get("version_date") or f"20{base[:2]}-{base[2:4]}-01"  # the month a new-style id encodes
    # A failed conversion's page gives no title or abstract (null in its metadata): served empty.
    given = {key: value for key, value in meta.items() if value is not None}
    full = {"authors": [], "title": "", "abstract": "", **given, "version_date": date}
    return _Paper(versioned, base, int(version), full, pdfs / f"{versioned.replace('/', '_')}.pdf")


@contextmanager
def serve_replay(fixtures: Path) -> Iterator[Replay]:
    """Serve the replay arXiv on 127.0.0.1 (a free port) in a thread until the block exits."""
    replay = Replay(fixtures)
    replay.load()
    with serve_in_thread(_handler(replay)) as base_url:
        replay.base_url = base_url
        try:
            yield replay
        finally:
            replay.clear_faults()
