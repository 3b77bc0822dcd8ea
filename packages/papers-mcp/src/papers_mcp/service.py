"""The two tools' logic, without MCP: resolve a query to papers, and read a paper at a level.

The order of work in ``query`` is what keeps repeated calls cheap and bad input harmless:
parse the id (nothing fetched or written before this passes), metadata from the library or
arXiv, then the text (``paper_text.PaperTexts``: the library, the fleet, else the routes in
order: arXiv's HTML, ar5iv, the PDF). The ``arxiv`` client (requests, lxml) is imported on
first use, not at start-up.

In a fleet (``fleet.SharedLibrary``) the library and the gate are shared: metadata comes from
this replica's library, else the fleet's, else arXiv through the fleet-wide gate.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from functools import partial
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
from mcp_shared import ErrorCode, ToolFailure, TTLStatsCache, cache_key

from .descriptions import NO_RESULTS
from .fulltext import PaperText
from .ids import ArxivId, canonical_id
from .library import Library
from .metadata import PaperMeta
from .paper_text import P_DONE, P_META, PaperTexts, Progress, increasing, no_progress
from .queries import PlannedQuery, plan_query, rerank
from .reading import Answer, Reader, check_request
from .render import Level, paper_header, render_paper, render_results
from .results import resolve_result
from .settings import Settings
from .versions import VersionNotes

if TYPE_CHECKING:
    from .arxiv_api import ArxivClient
    from .fleet import SharedLibrary

__all__ = ["PapersService", "Progress"]

logger = logging.getLogger(__name__)

_FREE_TEXT_CANDIDATES = 25
_SEARCH_CACHE_SIZE = 256
_SEARCH_CACHE_SECONDS = 600.0
_MAX_RESULTS = 50


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
        self.texts = PaperTexts(settings, self.library, self.arxiv, fleet)
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
        report = increasing(progress) if progress is not None else no_progress
        meta = await self._metadata(aid)
        vid = meta.arxiv_id
        text = None
        if level != "abstract":
            await report(P_META / 2, P_DONE, f"arxiv:{vid.text}: metadata ready")
            text = await self.texts.get(vid, report)
        version = await self.versions.line(meta, asked_version=aid.version is not None)
        header = paper_header(meta, level, text.source_label if text is not None else None, version)
        if text is not None and request.query is not None:
            answer = await anyio.to_thread.run_sync(self.reader.query_answer, meta, request, header, text)
        elif text is not None and request.section is not None:
            answer = await anyio.to_thread.run_sync(self.reader.section_answer, meta, request, header, text)
        else:
            stored = text if text is not None else await anyio.to_thread.run_sync(self.texts.cached, vid)
            document = render_paper(meta, level, text)
            answer = await anyio.to_thread.run_sync(
                self.reader.level_answer, meta, request, header, document, stored
            )
        if level != "abstract":
            await report(P_DONE, P_DONE, f"arxiv:{vid.text}: done")
        from .bibtex import with_citation  # BibTeX ends the abstract level; every answer carries CSL-JSON

        plain_abstract = level == "abstract" and request.query is None and request.section is None
        return Answer(*with_citation(answer.text, answer.data, meta, bibtex=plain_abstract))

    async def paper(self, aid: ArxivId, progress: Progress | None = None) -> tuple[PaperMeta, PaperText]:
        """A paper's metadata and full text, from the library or read as query-paper reads it (paper-graph)."""
        report = increasing(progress) if progress is not None else no_progress
        meta = await self._metadata(aid)
        return meta, await self.texts.get(meta.arxiv_id, report)

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
