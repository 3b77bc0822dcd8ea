"""arXiv as a network service: search, id lookup and PDF download at the configured endpoints.

Every request goes through one gate (arXiv asks for one request every three seconds): a
``RateGate`` for this process, or in a fleet the fleet-wide ``FleetGate`` from mcp-shared,
and one session that names papers-mcp in its User-Agent and always has a timeout. The ``arxiv``
client's own delay and retries are switched off so the gate is the only rate limiter and
``_retrying`` the only retry loop. Failures are translated here, at the boundary:

- HTTP 429/5xx, the soft throttle (HTTP 200 ``Rate exceeded.``), timeouts and connection
  errors are retried with exponential backoff, then become RESOURCE_ERROR;
- a malformed feed, or a PDF that is not a whole PDF, is DATA_FORMAT_ERROR;
- arXiv's error feed (HTTP 400, or an ``/api/errors`` entry) is never read as a paper.

Synchronous (the ``arxiv`` client uses requests): callers run these in a worker thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, BinaryIO, TypeVar
from urllib.parse import urljoin, urlsplit
from xml.parsers import expat

import arxiv
import requests
from mcp_shared import ErrorCode, ToolFailure

from .descriptions import NO_FULL_TEXT
from .http_policy import (
    CHUNK,
    MAX_REDIRECTS,
    RETRY_STATUSES,
    Exhausted,
    Gate,
    GatedSession,
    RateGate,
    Throttled,
    Unavailable,
    capped_body,
    with_retries,
)
from .ids import ArxivId
from .metadata import PaperMeta
from .settings import Settings

__all__ = ["ArxivClient", "Gate", "NoPdf", "RateGate"]

logger = logging.getLogger(__name__)

T = TypeVar("T")

_PDF_MAGIC = b"%PDF-"
_PDF_EOF = b"%%EOF"
_TAIL = 2048
# Honour a server's Retry-After, but never sleep longer than this inside one tool call.
_MAX_RETRY_AFTER_SECONDS = 30.0


class NoPdf(ToolFailure):
    """arXiv has no PDF for this paper (HTTP 404): not a transient failure, so its absence may be remembered."""


class _MalformedFeed(Exception):
    """The API answered 200 with something that is not well-formed XML."""


def _check_well_formed(content: bytes) -> None:
    """Reject a truncated or garbled feed that lxml's recovering parser would quietly half-read."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def no_doctype(*_: Any) -> None:
        raise _MalformedFeed("a DOCTYPE in an arXiv feed")

    parser.StartDoctypeDeclHandler = no_doctype
    try:
        parser.Parse(content, True)
    except expat.ExpatError as exc:
        raise _MalformedFeed(str(exc)) from exc


def _check_feed(body: bytes) -> None:
    """An API answer of 200 is a whole feed: not the soft throttle, not a truncated document."""
    if body.lstrip().startswith(b"Rate exceeded"):
        raise Throttled("arXiv answered 'Rate exceeded.'")
    _check_well_formed(body)


def _transient(exc: Exception) -> bool:
    """What arXiv may answer differently a moment later: throttling, 5xx, timeouts, a cut connection."""
    if isinstance(exc, arxiv.HTTPError):
        return exc.status in RETRY_STATUSES
    return isinstance(
        exc,
        Throttled
        | Unavailable
        | _MalformedFeed
        | arxiv.UnexpectedEmptyPageError
        | requests.Timeout
        | requests.ConnectionError
        | requests.exceptions.ChunkedEncodingError,
    )


def _meta(result: Any) -> PaperMeta:
    return PaperMeta(
        id=result.get_short_id(),
        title=" ".join(str(result.title).split()),
        authors=tuple(str(a.name) for a in result.authors),
        abstract=" ".join(str(result.summary or "").split()),
        published=result.published.isoformat(),
        updated=result.updated.isoformat(),
        primary_category=str(result.primary_category or ""),
        categories=tuple(str(c) for c in result.categories),
        comment=" ".join(str(result.comment).split()) if result.comment else None,
        journal_ref=" ".join(str(result.journal_ref).split()) if result.journal_ref else None,
        doi=str(result.doi) if result.doi else None,
    )


def _is_error_entry(result: Any) -> bool:
    return "/api/errors" in str(result.entry_id) or str(result.title) == "Error"


class ArxivClient:
    """Search, look up and download from arXiv politely; every failure is a ``ToolFailure``."""

    def __init__(self, settings: Settings, gate: Gate | None = None) -> None:
        self._settings = settings
        self._gate: Gate = gate or RateGate(settings.min_interval_seconds)
        self._api_session = GatedSession(self._gate, settings.timeout_seconds, check_body=_check_feed)
        self._pdf_session = GatedSession(self._gate, settings.timeout_seconds)
        self._host = urlsplit(settings.arxiv_api_url).netloc or settings.arxiv_api_url

    def _client(self, page_size: int) -> Any:
        client = arxiv.Client(page_size=page_size, delay_seconds=0.0, num_retries=0)
        client.query_url_format = self._settings.arxiv_api_url + "?{}"
        client._session = self._api_session  # the library has no public hook for its session
        return client

    def _retrying(self, what: str, attempt: Callable[[], T]) -> T:
        """Run ``attempt`` with backoff on transient failures; translate the final failure."""
        try:
            return with_retries(
                what,
                attempt,
                tries=self._settings.max_retries + 1,
                backoff=self._settings.retry_backoff_seconds,
                transient=_transient,
                max_retry_after=_MAX_RETRY_AFTER_SECONDS,
            )
        except Exhausted as done:
            raise self._final_failure(what, done.failure, done.tries) from done.failure
        except arxiv.HTTPError as exc:
            raise self._http_failure(what, exc.status) from exc
        except requests.RequestException as exc:  # too many redirects, invalid URL, ...: not transient
            raise ToolFailure(
                ErrorCode.RESOURCE_ERROR, f"the request to arXiv for {what} failed ({type(exc).__name__})"
            ) from exc

    def _http_failure(self, what: str, status: int) -> ToolFailure:
        if status == 400:
            return ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"arXiv rejected the request for {what} (HTTP 400): check the query syntax "
                "(field prefixes like ti:, au:, abs:, all:; AND/OR/ANDNOT; balanced quotes and parentheses)",
            )
        if status == 404:
            return ToolFailure(
                ErrorCode.RESOURCE_ERROR, f"arXiv has nothing at the address for {what} (HTTP 404)"
            )
        return ToolFailure(ErrorCode.RESOURCE_ERROR, f"arXiv answered HTTP {status} for {what}")

    def _final_failure(self, what: str, exc: Exception, tries: int) -> ToolFailure:
        if isinstance(exc, _MalformedFeed):
            return ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR,
                f"arXiv returned a malformed response for {what} ({tries} attempts); try again later",
            )
        if isinstance(exc, Throttled) or (
            isinstance(exc, Unavailable | arxiv.HTTPError) and exc.status == 429
        ):
            reason = "arXiv is rate-limiting requests"
        elif isinstance(exc, Unavailable | arxiv.HTTPError):
            reason = f"arXiv is unavailable (HTTP {exc.status})"
        elif isinstance(exc, requests.Timeout):
            reason = f"arXiv did not answer within {self._settings.timeout_seconds:g} s"
        elif isinstance(exc, requests.ConnectionError | requests.exceptions.ChunkedEncodingError):
            reason = f"arXiv could not be reached at {self._host}"
        else:
            reason = "arXiv returned an unexpectedly empty page"
        return ToolFailure(
            ErrorCode.RESOURCE_ERROR, f"{reason} ({what}, {tries} attempts); try again in a minute"
        )

    # -- the three operations --

    def search(self, query: str, max_results: int) -> list[PaperMeta]:
        """Run an arXiv ``search_query``; the results in arXiv's relevance order."""

        def attempt() -> list[PaperMeta]:
            search = arxiv.Search(query=query, max_results=max_results)
            return [_meta(r) for r in self._client(max_results).results(search) if not _is_error_entry(r)]

        return self._retrying(f"the search {query!r}", attempt)

    def lookup(self, aid: ArxivId) -> PaperMeta | None:
        """Metadata for one id (unversioned: the latest version), or None when arXiv has no such paper."""

        def attempt() -> PaperMeta | None:
            search = arxiv.Search(id_list=[aid.text], max_results=1)
            for result in self._client(1).results(search):
                if _is_error_entry(result):
                    raise ToolFailure(
                        ErrorCode.VALIDATION_ERROR, f"arXiv does not accept {aid.text!r} as an identifier"
                    )
                return _meta(result)
            return None

        return self._retrying(f"arxiv:{aid.text}", attempt)

    def download_pdf(
        self, aid: ArxivId, sink: BinaryIO, progress: Callable[[int, int | None], None] | None = None
    ) -> int:
        """Stream ``{PDF_URL}{id}`` into ``sink`` (size-capped); return the byte count.

        Raises:
            ToolFailure: RESOURCE_ERROR when arXiv cannot deliver it, DATA_FORMAT_ERROR when the
                body is not a whole PDF (a captcha page, a truncated file) or exceeds the cap.
        """
        url = f"{self._settings.pdf_url}{aid.text}"
        cap = self._settings.max_pdf_bytes

        def attempt() -> int:
            sink.seek(0)
            sink.truncate()
            with self._pdf_session.get(url, stream=True) as response:
                if response.status_code == 404:
                    raise NoPdf(ErrorCode.RESOURCE_ERROR, NO_FULL_TEXT)
                if response.status_code in RETRY_STATUSES:
                    raise arxiv.HTTPError(url, 0, response.status_code)
                if response.status_code != 200:
                    raise ToolFailure(
                        ErrorCode.RESOURCE_ERROR,
                        f"{NO_FULL_TEXT} (arXiv answered HTTP {response.status_code})",
                    )
                length = response.headers.get("Content-Length")
                total = int(length) if length and length.isdigit() else None
                if total is not None and total > cap:
                    raise ToolFailure(
                        ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} (the PDF exceeds {cap} bytes)"
                    )
                written, head, tail = 0, b"", b""
                for chunk in response.iter_content(CHUNK):
                    if written == 0 and chunk.lstrip().startswith(b"Rate exceeded"):
                        raise Throttled("arXiv answered 'Rate exceeded.'")
                    written += len(chunk)
                    if written > cap:
                        raise ToolFailure(
                            ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} (the PDF exceeds {cap} bytes)"
                        )
                    if len(head) < len(_PDF_MAGIC):
                        head += chunk[: len(_PDF_MAGIC)]
                        if not _PDF_MAGIC.startswith(head[: len(_PDF_MAGIC)]):
                            raise ToolFailure(
                                ErrorCode.DATA_FORMAT_ERROR,
                                f"{NO_FULL_TEXT} (arXiv sent something that is not a PDF)",
                            )
                    tail = (tail + chunk)[-_TAIL:]
                    sink.write(chunk)
                    if progress is not None:
                        progress(written, total)
            if not head.startswith(_PDF_MAGIC):
                raise ToolFailure(
                    ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} (arXiv sent something that is not a PDF)"
                )
            if _PDF_EOF not in tail:
                raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} (the PDF arrived truncated)")
            return written

        try:
            return self._retrying(f"the PDF of arxiv:{aid.text}", attempt)
        except ToolFailure as exc:
            if exc.message.startswith(NO_FULL_TEXT):
                raise
            # Seed 003: a PDF that cannot be had is always answered with its message; the reason follows.
            raise ToolFailure(exc.code, f"{NO_FULL_TEXT} ({exc.message})") from exc

    def fetch_html(self, url: str, what: str) -> bytes | None:
        """GET a LaTeXML page (arxiv.org/html or ar5iv): its bytes, or None when there is none.

        None for HTTP 404/410 and for a redirect that leaves the requested host (ar5iv sends a paper
        it has not rendered to arxiv.org/abs). Redirects within the host are followed, each through
        the gate. The body is size-capped like a PDF (``PAPERS_MCP_MAX_PDF_MB``).

        Raises:
            ToolFailure: RESOURCE_ERROR after retries (429/5xx, ``Rate exceeded.``, timeouts,
                connection errors) or for another status; DATA_FORMAT_ERROR for a body over the cap.
        """
        cap = self._settings.max_pdf_bytes
        host = urlsplit(url).netloc

        def attempt() -> bytes | None:
            target = url
            for _ in range(MAX_REDIRECTS + 1):
                with self._pdf_session.get(target, stream=True, allow_redirects=False) as response:
                    status = response.status_code
                    if status in (301, 302, 303, 307, 308):
                        target = urljoin(target, response.headers.get("Location", ""))
                        if urlsplit(target).netloc != host:
                            logger.info("%s: redirected off %s (to %s); taken as no HTML", what, host, target)
                            return None
                        continue
                    if status in (404, 410):
                        return None
                    if status in RETRY_STATUSES:
                        raise arxiv.HTTPError(target, 0, status)
                    if status != 200:
                        raise ToolFailure(
                            ErrorCode.RESOURCE_ERROR, f"arXiv answered HTTP {status} for {what}"
                        )
                    return capped_body(response, cap, what)
            raise ToolFailure(ErrorCode.RESOURCE_ERROR, f"too many redirects for {what}")

        return self._retrying(what, attempt)
