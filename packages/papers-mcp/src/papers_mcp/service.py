"""The two tools' logic, without MCP: resolve a query to papers, and read a paper at a level.

The order of work in ``query`` is what keeps repeated calls cheap and bad input harmless:
parse the id (nothing fetched or written before this passes), metadata from the library or
arXiv, then the text from the library, else from the routes in order:

1. arXiv's HTML (``{PAPERS_MCP_HTML_URL}{versioned id}``, LaTeXML);
2. ar5iv (``{PAPERS_MCP_AR5IV_URL}{bare id}``) when arXiv has no HTML for the paper;
3. the PDF (the stored one, else a download), converted with pymupdf4llm.

An HTML conversion that LaTeXML itself marks as degraded (``html_quality``) gives way to the PDF;
it is kept when the PDF cannot be had or converted. The ``arxiv`` client (requests, lxml) and the
HTML renderer are imported on first use, not at start-up.

In a fleet (``fleet.SharedLibrary``) the library and the gate are shared: metadata and text
come from this replica's library, else the fleet's, else arXiv through the fleet-wide gate;
one replica reads a paper (HTML or PDF) under a lease while the others wait for its text.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp_shared import ErrorCode, ToolFailure, TTLStatsCache, cache_key
from mcp_shared.fleet import LeaseWaitTimeout, RedisUnavailable, produce_once

from .descriptions import NO_FULL_TEXT, NO_RESULTS
from .fulltext import EXTRACTOR_VERSIONS, SOURCES, PaperText, extract_paper_text
from .html_quality import degraded_reasons
from .ids import ArxivId, canonical_id
from .library import Library
from .metadata import PaperMeta
from .queries import PlannedQuery, plan_query, rerank
from .reading import Answer, Reader, check_request
from .render import Level, paper_header, render_paper, render_results
from .results import resolve_result
from .settings import Settings
from .versions import VersionNotes

if TYPE_CHECKING:
    from .arxiv_api import ArxivClient
    from .fleet import SharedLibrary
    from .latexml import LatexmlPage

__all__ = ["PapersService", "Progress"]

logger = logging.getLogger(__name__)

Progress = Callable[[float, float, str], Coroutine[Any, Any, None]]
"""``(done, total, message)``, as ``Context.report_progress`` takes it."""

_FREE_TEXT_CANDIDATES = 25
_SEARCH_CACHE_SIZE = 256
_SEARCH_CACHE_SECONDS = 600.0
_MAX_RESULTS = 50
# Progress scale for one query-paper call: metadata, HTML pages (META+1..+3), download, conversion, done.
_P_META, _P_DOWNLOAD, _P_CONVERT, _P_DONE = 5.0, 55.0, 95.0, 100.0


async def _no_progress(done: float, total: float, message: str) -> None:
    return None


def _increasing(report: Progress) -> Progress:
    """MCP requires each progress value to exceed the last: drop a report that would not."""
    last = [-1.0]

    async def forward(done: float, total: float, message: str) -> None:
        if done <= last[0]:
            return
        last[0] = done
        await report(done, total, message)

    return forward


class PapersService:
    """resolve-paper-id and query-paper over one arXiv client and one local library."""

    def __init__(self, settings: Settings, fleet: SharedLibrary | None = None) -> None:
        self.settings = settings
        self.library = Library(settings.home)
        self.fleet = fleet
        self._arxiv: ArxivClient | None = None
        self._arxiv_lock = threading.Lock()
        # Agents repeat searches; arXiv asks for restraint. Failures are never cached.
        self._searches = TTLStatsCache(
            "resolve", max_size=_SEARCH_CACHE_SIZE, ttl_seconds=_SEARCH_CACHE_SECONDS
        )
        self._paper_locks: defaultdict[str, anyio.Lock] = defaultdict(anyio.Lock)
        self.reader = Reader(self.library, settings)
        self.versions = VersionNotes(self)

    def arxiv(self) -> ArxivClient:
        """The process's one arXiv client (and so its one rate gate), created on first use."""
        with self._arxiv_lock:  # first calls may race from worker threads; one client means one gate
            if self._arxiv is None:
                from .arxiv_api import ArxivClient  # lazy: requests + lxml cost start-up time

                self._arxiv = ArxivClient(self.settings, self.fleet.gate if self.fleet is not None else None)
            return self._arxiv

    # -- resolve-paper-id --

    async def resolve(self, query: str, max_results: int = 10) -> Answer:
        """The "Available Papers:" block for ``query`` (or the seed's no-match message), and the papers as data."""
        plan = plan_query(query)
        logger.info("resolve-paper-id (%s): %s", plan.kind, plan.search_query or plan.arxiv_id)
        key = cache_key(kind=plan.kind, q=plan.search_query, id=str(plan.arxiv_id), n=max_results)
        try:
            lookup = await self._searches.get_or_compute(
                key, partial(anyio.to_thread.run_sync, self._search_online, plan, max_results)
            )
            papers = lookup.value
        except ToolFailure as exc:
            if exc.code != ErrorCode.RESOURCE_ERROR:
                raise
            papers = await anyio.to_thread.run_sync(self._search_library, plan, max_results)
            if not papers:
                raise ToolFailure(
                    ErrorCode.RESOURCE_ERROR,
                    f"{exc.message}. The local library has no matching paper either.",
                ) from exc
            logger.warning("arXiv unreachable; answering %r from the local library", query)
            note = (
                f"Note: arXiv could not be reached ({exc.message}). These results come from the local "
                f"library (papers seen earlier), not from a live arXiv search."
            )
            return Answer(render_results(papers, note), resolve_result(papers, note))
        return Answer(render_results(papers) if papers else NO_RESULTS, resolve_result(papers))

    def _search_online(self, plan: PlannedQuery, max_results: int) -> list[PaperMeta]:
        client = self.arxiv()
        if plan.kind == "id":
            assert plan.arxiv_id is not None
            meta = client.lookup(plan.arxiv_id)
            papers = [meta] if meta is not None else []
        elif plan.kind == "raw":
            papers = client.search(plan.search_query, max_results)
        else:
            wanted = min(_MAX_RESULTS, max(max_results, _FREE_TEXT_CANDIDATES))
            papers = rerank(client.search(plan.search_query, wanted), plan.words)[:max_results]
        if plan.kind != "id" or (plan.arxiv_id is not None and plan.arxiv_id.version is None):
            self.versions.saw_latest(papers)  # a search or a bare-id lookup describes the latest versions
        try:
            self.library.remember(papers)
        except (ToolFailure, sqlite3.Error):
            # arXiv answered; a library that cannot record it must not hide the answer.
            logger.warning("could not record search results in the local library", exc_info=True)
        if self.fleet is not None:
            self.fleet.remember(papers)
        return papers

    def _search_library(self, plan: PlannedQuery, max_results: int) -> list[PaperMeta]:
        if plan.kind == "id":
            assert plan.arxiv_id is not None
            meta = self.library.meta(plan.arxiv_id)
            return [meta] if meta is not None else []
        found = self.library.search(" ".join(plan.words), max(max_results, _FREE_TEXT_CANDIDATES))
        return rerank(found, plan.words)[:max_results]

    # -- query-paper --

    async def query(
        self,
        raw_id: str,
        level: Level = "body",
        page: int = 1,
        progress: Progress | None = None,
        *,
        question: str | None = None,
        section: str | None = None,
        level_given: bool = True,
    ) -> Answer:
        """One page of the paper at ``level``, one ``section``, or the passages for ``question``.

        The header names the exact version used. With ``question`` or ``section`` the level
        defaults to "all" (``level_given`` says whether the caller chose one).
        """
        aid = canonical_id(raw_id)
        request = check_request(level, page, question, section, level_given)
        level = request.level
        logger.info("query-paper arxiv:%s level=%s page=%d", aid.text, level, page)
        report = _increasing(progress) if progress is not None else _no_progress
        meta = await self._metadata(aid)
        vid = meta.arxiv_id
        text = None
        if level != "abstract":
            await report(_P_META / 2, _P_DONE, f"arxiv:{vid.text}: metadata ready")
            text = await self._full_text(vid, report)
        version = await self.versions.line(meta, asked_version=aid.version is not None)
        header = paper_header(meta, level, text.source_label if text is not None else None, version)
        if text is not None and request.query is not None:
            answer = await anyio.to_thread.run_sync(self.reader.query_answer, meta, request, header, text)
        elif text is not None and request.section is not None:
            answer = await anyio.to_thread.run_sync(self.reader.section_answer, meta, request, header, text)
        else:
            stored = text if text is not None else await anyio.to_thread.run_sync(self._cached_text, vid)
            document = render_paper(meta, level, text)
            answer = await anyio.to_thread.run_sync(
                self.reader.level_answer, meta, request, header, document, stored
            )
        if level != "abstract":
            await report(_P_DONE, _P_DONE, f"arxiv:{vid.text}: done")
        from .bibtex import with_citation  # BibTeX ends the abstract level; every answer carries CSL-JSON

        plain_abstract = level == "abstract" and request.query is None and request.section is None
        return Answer(*with_citation(answer.text, answer.data, meta, bibtex=plain_abstract))

    async def paper(self, aid: ArxivId, progress: Progress | None = None) -> tuple[PaperMeta, PaperText]:
        """A paper's metadata and full text, from the library or read as query-paper reads it (paper-graph)."""
        report = _increasing(progress) if progress is not None else _no_progress
        meta = await self._metadata(aid)
        return meta, await self._full_text(meta.arxiv_id, report)

    async def _metadata(self, aid: ArxivId) -> PaperMeta:
        meta = await anyio.to_thread.run_sync(self.library.meta, aid)
        if meta is not None and meta.arxiv_id.version is not None:
            return meta
        if self.fleet is not None:
            shared = await anyio.to_thread.run_sync(self.fleet.meta, aid)
            if shared is not None and shared.arxiv_id.version is not None:
                await anyio.to_thread.run_sync(self.library.remember, [shared])
                return shared
        meta = await anyio.to_thread.run_sync(self.arxiv().lookup, aid)
        if meta is None:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"arXiv has no paper arxiv:{aid.text}; check the id or find it with resolve-paper-id",
            )
        if meta.arxiv_id.version is None:
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"arXiv sent no version for arxiv:{aid.text}")
        if aid.version is None:
            self.versions.saw_latest([meta])
        await anyio.to_thread.run_sync(self.library.remember, [meta])
        if self.fleet is not None:
            await anyio.to_thread.run_sync(self.fleet.remember, [meta])
        return meta

    async def _full_text(self, vid: ArxivId, report: Progress) -> PaperText:
        async with self._paper_locks[vid.text]:
            cached = await anyio.to_thread.run_sync(self._cached_text, vid)
            if cached is not None:
                return cached
            if self.fleet is not None:
                shared = await self._fleet_text(self.fleet, vid, report)
                if shared is not None:
                    return shared
            return await self._read_paper(vid, report)

    async def _read_paper(self, vid: ArxivId, report: Progress) -> PaperText:
        """Read the paper from its routes (HTML, ar5iv, PDF) and store it (caller holds the paper lock)."""
        page = await self._html_text(vid, report)
        if page is None:
            return await self._pdf_text(vid, report)
        reasons = degraded_reasons(page.signals)
        if not reasons:
            await self._store(vid, page.text)
            await report(_P_CONVERT, _P_DONE, f"arxiv:{vid.text}: read the {page.text.source_label} page")
            return page.text
        why = "; ".join(reasons)
        logger.warning(
            "arxiv:%s: the %s conversion is degraded (%s); trying the PDF",
            vid.text,
            page.text.source_label,
            why,
        )
        await report(
            _P_META + 3,
            _P_DONE,
            f"arxiv:{vid.text}: the HTML conversion is degraded ({why}); reading the PDF",
        )
        try:
            return await self._pdf_text(vid, report)
        except ToolFailure as exc:
            if exc.code not in (ErrorCode.RESOURCE_ERROR, ErrorCode.DATA_FORMAT_ERROR):
                raise
            from .arxiv_api import NoPdf

            logger.warning("arxiv:%s: keeping the degraded HTML, the PDF failed: %s", vid.text, exc.message)
            if isinstance(exc, NoPdf) or exc.code == ErrorCode.DATA_FORMAT_ERROR:
                await self._store(vid, page.text)  # no PDF to come back for; a transient failure is retried
            return page.text

    async def _fleet_text(self, fleet: SharedLibrary, vid: ArxivId, report: Progress) -> PaperText | None:
        """The fleet's text of ``vid``, read by exactly one replica (this one, or another it waits for).

        None when Redis cannot coordinate: the caller reads the paper here (arXiv requests then
        need the fleet's gate, and fail with its RESOURCE_ERROR; a PDF in the local library converts).
        """
        version = _shared_version()

        async def read_shared() -> PaperText | None:
            data = await anyio.to_thread.run_sync(fleet.read_text, vid, version)
            if data is None:
                return None
            try:
                text = PaperText.from_dict(data)
            except ValueError:
                return None
            await self._store(vid, text)  # this replica's own copy
            return text

        async def produce() -> PaperText:
            text = await self._read_paper(vid, report)
            # Share only what this replica kept: a degraded page kept after a transient PDF failure is
            # not stored (the next call tries the PDF again), so it is not shared either.
            if await anyio.to_thread.run_sync(self._cached_text, vid) is not None:
                await anyio.to_thread.run_sync(fleet.write_text, vid, version, text.to_dict())
            return text

        async def on_wait() -> None:
            await report(_P_META, _P_DONE, f"arxiv:{vid.text}: another replica is reading it; waiting")

        try:
            text, produced = await produce_once(
                fleet.lease(vid),
                read_shared,
                produce,
                max_wait=self.settings.lease_wait_seconds,
                on_wait=on_wait,
            )
        except LeaseWaitTimeout as exc:
            raise ToolFailure(
                ErrorCode.RESOURCE_ERROR,
                f"another replica has been reading arxiv:{vid.text} for over "
                f"{self.settings.lease_wait_seconds:g} s; try again in a few minutes",
            ) from exc
        except RedisUnavailable:
            logger.warning(
                "arxiv:%s: the fleet cannot coordinate (Redis unavailable); working alone", vid.text
            )
            return None
        logger.info("arxiv:%s: %s", vid.text, "read here" if produced else "read by another replica")
        return text

    def _cached_text(self, vid: ArxivId) -> PaperText | None:
        """The stored text from the first route that has one, at its extractor's current version."""
        for source, version in EXTRACTOR_VERSIONS.items():
            data = self.library.read_text(vid, source, version)
            if data is None:
                continue
            try:
                return PaperText.from_dict({**data, "source": source})
            except ValueError:
                logger.warning("arxiv:%s: ignoring its stored %s text: it is malformed", vid.text, source)
        return None

    async def _store(self, vid: ArxivId, text: PaperText) -> None:
        version = EXTRACTOR_VERSIONS[text.source]
        await anyio.to_thread.run_sync(self.library.write_text, vid, text.source, version, text.to_dict())

    async def _html_text(self, vid: ArxivId, report: Progress) -> LatexmlPage | None:
        """The paper read from arXiv's HTML, else from ar5iv; None when neither has a usable page."""
        routes = [("html", f"{self.settings.html_url}{vid.text}")]
        if self.settings.ar5iv_url:
            routes.append(("ar5iv", f"{self.settings.ar5iv_url}{vid.base}"))
        for step, (source, url) in enumerate(routes):
            label = SOURCES[source]
            await report(_P_META + 1 + step, _P_DONE, f"arxiv:{vid.text}: fetching the {label} page")
            try:
                raw = await anyio.to_thread.run_sync(
                    self.arxiv().fetch_html, url, f"the {label} page of arxiv:{vid.text}"
                )
            except ToolFailure as exc:
                logger.warning("arxiv:%s: the %s page could not be had: %s", vid.text, label, exc.message)
                if source == "html" and exc.code == ErrorCode.RESOURCE_ERROR:
                    return None  # arXiv itself is not answering: go straight to the PDF route
                continue
            if raw is None:
                logger.info("arxiv:%s: no %s page", vid.text, label)
                continue
            from .latexml import parse_page

            try:
                page = await anyio.to_thread.run_sync(parse_page, raw, source)
            except ValueError as exc:
                logger.warning("arxiv:%s: the %s page is not a LaTeXML document: %s", vid.text, label, exc)
                continue
            if page.text.body.strip() or page.text.appendix.strip():
                from .bibliography import store_bibliography  # li.ltx_bibitem, kept for paper-graph

                await anyio.to_thread.run_sync(store_bibliography, self.library, vid, source, raw)
                return page
            logger.warning("arxiv:%s: the %s page holds no text", vid.text, label)
        return None

    async def _pdf_text(self, vid: ArxivId, report: Progress) -> PaperText:
        """The paper read from its PDF: the stored file, else a download; converted and stored."""
        pdf = self.library.pdf_path(vid)
        if not pdf.is_file():
            await report(_P_META + 4, _P_DONE, f"arxiv:{vid.text}: downloading the PDF")
            await anyio.to_thread.run_sync(
                self._download, vid, report if report is not _no_progress else None
            )
        await report(_P_DOWNLOAD + 1, _P_DONE, f"arxiv:{vid.text}: converting the PDF to markdown")
        try:
            text = await anyio.to_thread.run_sync(
                partial(
                    extract_paper_text,
                    pdf,
                    progress=_page_progress(report, vid),
                    workers=self.settings.convert_workers,
                )
            )
        except ToolFailure as exc:
            if exc.code != ErrorCode.DATA_FORMAT_ERROR:
                raise
            pdf.unlink(missing_ok=True)  # never serve an unreadable PDF again; the next call re-downloads
            raise ToolFailure(ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} ({exc.message})") from exc
        if not (text.body.strip() or text.appendix.strip() or text.references.strip()):
            raise ToolFailure(
                ErrorCode.DATA_FORMAT_ERROR, f"{NO_FULL_TEXT} (no text could be extracted from the PDF)"
            )
        await self._store(vid, text)
        await report(_P_CONVERT, _P_DONE, f"arxiv:{vid.text}: converted {text.pages} pages")
        return text

    def _download(self, vid: ArxivId, report: Progress | None) -> None:
        """Runs in a worker thread: stream the PDF into the library, renamed into place only when whole."""
        last = [-1]

        def on_bytes(done: int, total: int | None) -> None:
            if report is None or not total:
                return
            step = int(10 * done / total)
            if step != last[0]:
                last[0] = step
                value = _P_META + (_P_DOWNLOAD - _P_META) * min(done / total, 1.0)
                message = f"arxiv:{vid.text}: downloaded {done // 1024} of {total // 1024} KiB"
                anyio.from_thread.run(report, value, _P_DONE, message)

        with self.library.atomic_file(self.library.pdf_path(vid)) as sink:
            size = self.arxiv().download_pdf(vid, sink, on_bytes)
        logger.info("stored the PDF of arxiv:%s (%d bytes)", vid.text, size)


def _shared_version() -> str:
    """The version of a shared text: both extractors' versions, so a change to either re-reads the paper."""
    return f"{EXTRACTOR_VERSIONS['pdf']}-{EXTRACTOR_VERSIONS['html']}"


def _page_progress(report: Progress, vid: ArxivId) -> Callable[[int, int], None] | None:
    if report is _no_progress:
        return None

    def on_pages(done: int, total: int) -> None:
        value = _P_DOWNLOAD + 1 + (_P_CONVERT - _P_DOWNLOAD - 2) * (done / total if total else 1.0)
        anyio.from_thread.run(report, value, _P_DONE, f"arxiv:{vid.text}: converted {done} of {total} pages")

    return on_pages
