"""Scholarly indexes as network services: Semantic Scholar's Graph API and OpenAlex, for paper-graph.

Each source has its own endpoint (``PAPERS_MCP_S2_URL``, ``PAPERS_MCP_OPENALEX_URL``; an empty URL
disables it) and its own polite gate (``RateGate`` in one process, mcp-shared's ``FleetGate`` in a
fleet), and arXiv's HTTP policy (``http_policy``): the same gated session (papers-mcp's
User-Agent, a timeout on every request, bounded redirects), the same retries with exponential
backoff on 429/5xx, timeouts and dropped connections, the same size cap on a body, and failures
translated here into ``ToolFailure``. A 429 waits for its ``Retry-After`` only when that is within
``PAPERS_MCP_SCHOLAR_MAX_RETRY_AFTER_SECONDS``; a longer one fails at once, so the caller can ask
the other index instead.

Semantic Scholar's key (``PAPERS_MCP_S2_API_KEY``) travels as its ``x-api-key`` header and is never
logged; OpenAlex gets ``PAPERS_MCP_CONTACT_EMAIL`` as ``mailto`` (its polite pool).

Synchronous (requests): callers run these in a worker thread.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote, urlsplit

import requests
from mcp_shared import ErrorCode, ToolFailure

from .http_policy import (
    RETRY_STATUSES,
    Exhausted,
    Gate,
    GatedSession,
    RateGate,
    Unavailable,
    capped_body,
    with_retries,
)
from .scholar_models import Direction, EdgeChunk, NotKnown, ScholarPaper, ScholarSource, arxiv_from
from .settings import Settings

__all__ = [
    "Direction",
    "EdgeChunk",
    "NotKnown",
    "OpenAlexClient",
    "S2Client",
    "ScholarPaper",
    "ScholarSource",
]

logger = logging.getLogger(__name__)

T = TypeVar("T")

# The fields paper-graph shows (resolve-paper-id's format): one request gives them all.
S2_FIELDS = "title,externalIds,authors,year,venue,journal,citationCount,publicationDate"
# Semantic Scholar's largest page for /references and /citations; OpenAlex's for a list.
S2_PAGE = 1000
OPENALEX_PAGE = 200


@dataclass
class _Json:
    """Requests to one index through its gate, with arXiv's retry, timeout, cap and error policy."""

    name: str
    base_url: str
    settings: Settings
    gate: Gate
    headers: dict[str, str] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._session = GatedSession(self.gate, self.settings.timeout_seconds, self.name)
        self._host = urlsplit(self.base_url).netloc or self.base_url

    def get(self, path: str, params: Mapping[str, str | int], what: str) -> Any:
        return self._retrying(what, lambda: self._once("GET", path, params, None, what))

    def post(self, path: str, params: Mapping[str, str | int], body: Any, what: str) -> Any:
        return self._retrying(what, lambda: self._once("POST", path, params, body, what))

    def _once(self, method: str, path: str, params: Mapping[str, str | int], body: Any, what: str) -> Any:
        url = f"{self.base_url}{path}"
        with self._session.request(
            method, url, params={**self.params, **params}, json=body, headers=self.headers, stream=True
        ) as response:
            status = response.status_code
            if status in RETRY_STATUSES:
                raise Unavailable(status, None, self.name)
            raw = capped_body(response, self.settings.max_pdf_bytes, what)
        if status == 404:
            raise NotKnown(what)
        if status != 200:
            raise self._refused(status, raw, what)
        try:
            return json.loads(raw)
        except ValueError as exc:
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{self.name} returned malformed JSON for {what}"
            ) from exc

    def _refused(self, status: int, raw: bytes, what: str) -> ToolFailure:
        try:
            data = json.loads(raw)
            said = str(data.get("message") or data.get("error") or "") if isinstance(data, dict) else ""
        except ValueError:
            said = ""
        said = f": {' '.join(said.split())[:200]}" if said else ""
        if status == 400:
            return ToolFailure(
                ErrorCode.VALIDATION_ERROR, f"{self.name} rejected the request for {what} (HTTP 400{said})"
            )
        if status in (401, 403):
            hint = " (check PAPERS_MCP_S2_API_KEY)" if self.name == "Semantic Scholar" else ""
            return ToolFailure(
                ErrorCode.RESOURCE_ERROR,
                f"{self.name} refused the request for {what} (HTTP {status}{said}){hint}",
            )
        return ToolFailure(ErrorCode.RESOURCE_ERROR, f"{self.name} answered HTTP {status} for {what}{said}")

    def _retrying(self, what: str, attempt: Callable[[], T]) -> T:
        """``attempt`` with backoff on transient failures; a long Retry-After fails at once."""
        try:
            return with_retries(
                what,
                attempt,
                tries=self.settings.max_retries + 1,
                backoff=self.settings.retry_backoff_seconds,
                transient=_transient,
                max_retry_after=self.settings.scholar_max_retry_after_seconds,
                long_wait_fails=True,
            )
        except Exhausted as done:
            raise self._final(what, done.failure, done.tries) from done.failure
        except requests.RequestException as exc:
            raise ToolFailure(
                ErrorCode.RESOURCE_ERROR,
                f"the request to {self.name} for {what} failed ({type(exc).__name__})",
            ) from exc

    def _final(self, what: str, exc: Exception, tries: int) -> ToolFailure:
        if isinstance(exc, Unavailable):
            wait = exc.retry_after
            if wait is not None and wait > self.settings.scholar_max_retry_after_seconds:
                return ToolFailure(
                    ErrorCode.RESOURCE_ERROR,
                    f"{self.name} is rate-limiting requests (HTTP {exc.status}; retry after {wait:g} s) for {what}",
                )
            reason = (
                f"{self.name} is rate-limiting requests"
                if exc.status == 429
                else f"{self.name} is unavailable (HTTP {exc.status})"
            )
        elif isinstance(exc, requests.Timeout):
            reason = f"{self.name} did not answer within {self.settings.timeout_seconds:g} s"
        else:
            reason = f"{self.name} could not be reached at {self._host}"
        return ToolFailure(ErrorCode.RESOURCE_ERROR, f"{reason} ({what}, {tries} attempts)")


def _transient(exc: Exception) -> bool:
    """An index's 429/5xx, a timeout or a cut connection may pass; anything else will not."""
    return isinstance(
        exc,
        Unavailable | requests.Timeout | requests.ConnectionError | requests.exceptions.ChunkedEncodingError,
    )


class S2Client(ScholarSource):
    """Semantic Scholar Graph API v1: ``/paper/{id}``, ``/paper/{id}/references|citations``, ``/paper/batch``."""

    name = "Semantic Scholar"

    def __init__(self, settings: Settings, gate: Gate | None = None) -> None:
        headers = {"x-api-key": settings.s2_api_key} if settings.s2_api_key else {}
        gate = gate or RateGate(settings.s2_min_interval_seconds)
        self._http = _Json(self.name, settings.s2_url, settings, gate, headers=headers)

    @staticmethod
    def paper_ref(arxiv_id: str | None = None, doi: str | None = None) -> str:
        """Semantic Scholar's id for a paper: ``ARXIV:<base id>`` or ``DOI:<doi>``."""
        if arxiv_id:
            return f"ARXIV:{arxiv_id}"
        return f"DOI:{doi}"

    def paper(self, ref: str) -> ScholarPaper:
        data = self._http.get(f"/paper/{quote(ref, safe=':/')}", {"fields": S2_FIELDS}, f"the paper {ref}")
        return _s2_paper(data)

    def edges(self, ref: str, direction: Direction, token: str | None) -> EdgeChunk:
        offset = int(token) if token else 0
        data = self._http.get(
            f"/paper/{quote(ref, safe=':/')}/{direction}",
            {"fields": S2_FIELDS, "offset": offset, "limit": S2_PAGE},
            f"the {direction} of {ref}",
        )
        if not isinstance(data, dict):
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{self.name} sent no list for the {direction} of {ref}"
            )
        key = "citedPaper" if direction == "references" else "citingPaper"
        papers = [_s2_paper(item.get(key) or {}) for item in data.get("data") or [] if isinstance(item, dict)]
        following = data.get("next")
        return EdgeChunk(papers, str(following) if isinstance(following, int) else None, source=self.name)

    def batch(self, refs: Sequence[str]) -> list[ScholarPaper | None]:
        """Many papers in one request (a null for each one the index does not know)."""
        data = self._http.post(
            "/paper/batch", {"fields": S2_FIELDS}, {"ids": list(refs)}, f"{len(refs)} papers"
        )
        if not isinstance(data, list):
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{self.name} sent no list for a batch")
        return [_s2_paper(item) if isinstance(item, dict) else None for item in data]


def _s2_paper(data: Mapping[str, Any]) -> ScholarPaper:
    ids = data.get("externalIds") or {}
    journal = data.get("journal") or {}
    venue = data.get("venue") or (journal.get("name") if isinstance(journal, dict) else None)
    count = data.get("citationCount")
    return ScholarPaper(
        title=" ".join(str(data.get("title") or "").split()),
        arxiv_id=arxiv_from(ids.get("ArXiv")),
        doi=ids.get("DOI") or None,
        authors=tuple(
            str(a.get("name")) for a in data.get("authors") or [] if isinstance(a, dict) and a.get("name")
        ),
        year=str(data["year"]) if data.get("year") else None,
        venue=str(venue) if venue else None,
        citation_count=count if isinstance(count, int) else None,
        index_id=data.get("paperId") or None,
    )


class OpenAlexClient(ScholarSource):
    """OpenAlex: ``/works/{id}`` and ``/works?filter=cites:|cited_by:`` with cursor paging."""

    name = "OpenAlex"

    def __init__(self, settings: Settings, gate: Gate | None = None) -> None:
        params = {"mailto": settings.contact_email} if settings.contact_email else {}
        gate = gate or RateGate(settings.openalex_min_interval_seconds)
        self._http = _Json(self.name, settings.openalex_url, settings, gate, params=params)

    @staticmethod
    def paper_ref(arxiv_id: str | None = None, doi: str | None = None) -> str:
        """OpenAlex resolves a DOI URL; an arXiv paper is known by its arXiv DOI."""
        return f"https://doi.org/{doi or f'10.48550/arXiv.{arxiv_id}'}"

    def paper(self, ref: str) -> ScholarPaper:
        path = ref if ref.startswith("W") else quote(ref, safe=":/")
        return _openalex_work(self._http.get(f"/works/{path}", {}, f"the work {ref}"))

    def edges(self, ref: str, direction: Direction, token: str | None) -> EdgeChunk:
        work = ref if ref.startswith("W") else (self.paper(ref).index_id or "")
        kind = "cited_by" if direction == "references" else "cites"
        data = self._http.get(
            "/works",
            {"cursor": token or "*", "filter": f"{kind}:{work}", "per-page": OPENALEX_PAGE},
            f"the {direction} of {ref}",
        )
        if not isinstance(data, dict):
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{self.name} sent no list for the {direction} of {ref}"
            )
        meta = data.get("meta") or {}
        results = data.get("results") or []
        following = meta.get("next_cursor") if results else None
        count = meta.get("count")
        return EdgeChunk(
            [_openalex_work(w) for w in results if isinstance(w, dict)],
            str(following) if following else None,
            count if isinstance(count, int) else None,
            source=self.name,
        )


def _openalex_work(data: Mapping[str, Any]) -> ScholarPaper:
    doi = str(data.get("doi") or "")
    doi = doi.split("doi.org/", 1)[1] if "doi.org/" in doi else doi
    arxiv = None
    for location in data.get("locations") or []:
        url = (location or {}).get("landing_page_url") or ""
        if "arxiv.org/abs/" in url:
            arxiv = arxiv_from(url)
            break
    if arxiv is None and doi.lower().startswith("10.48550/arxiv."):
        arxiv = arxiv_from(doi)
    primary = data.get("primary_location") or {}
    source = primary.get("source") or {} if isinstance(primary, dict) else {}
    count = data.get("cited_by_count")
    work_id = str(data.get("id") or "").rsplit("/", 1)[-1]
    return ScholarPaper(
        title=" ".join(str(data.get("display_name") or data.get("title") or "").split()),
        arxiv_id=arxiv,
        doi=doi or None,
        authors=tuple(
            str((a.get("author") or {}).get("display_name"))
            for a in data.get("authorships") or []
            if isinstance(a, dict) and (a.get("author") or {}).get("display_name")
        ),
        year=str(data["publication_year"]) if data.get("publication_year") else None,
        venue=str(source.get("display_name"))
        if isinstance(source, dict) and source.get("display_name")
        else None,
        citation_count=count if isinstance(count, int) else None,
        index_id=work_id or None,
    )
