"""One home for a paper's text: its routes, the download, storage in the library and fleet sharing.

``PaperTexts.get`` answers from the local library, else the fleet's, else reads the paper from
the first route that has it (progress is reported at each step):

1. arXiv's HTML (``{PAPERS_MCP_HTML_URL}{versioned id}``, LaTeXML);
2. ar5iv (``{PAPERS_MCP_AR5IV_URL}{bare id}``) when arXiv has no HTML for the paper;
3. the PDF (the stored one, else a download), converted with pymupdf4llm.

An HTML conversion that LaTeXML itself marks as degraded (``html_quality``) gives way to the PDF;
it is kept when the PDF cannot be had or converted. A page's ``li.ltx_bibitem`` entries are kept
for paper-graph. Text is stored per route at that route's version (``fulltext.EXTRACTOR_VERSIONS``),
so a new route is one entry in ``html_routes`` or one step of ``PaperTexts._read`` here, and its version there.

In a fleet (``fleet.SharedLibrary``) one replica reads a paper under a lease while the others wait
for its text. The ``arxiv`` client, the HTML parser and the PDF converter are imported on first use.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable, Coroutine
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from mcp_shared import ErrorCode, ToolFailure
from mcp_shared.fleet import LeaseWaitTimeout, RedisUnavailable, produce_once

from .descriptions import NO_FULL_TEXT
from .fulltext import EXTRACTOR_VERSIONS, SOURCES, PaperText, extract_paper_text
from .html_quality import degraded_reasons
from .ids import ArxivId
from .library import Library
from .settings import Settings

if TYPE_CHECKING:
    from .arxiv_api import ArxivClient
    from .fleet import SharedLibrary
    from .latexml import LatexmlPage

__all__ = [
    "P_DONE",
    "P_META",
    "PaperTexts",
    "Progress",
    "html_routes",
    "increasing",
    "no_progress",
    "shared_version",
]

logger = logging.getLogger(__name__)

Progress = Callable[[float, float, str], Coroutine[Any, Any, None]]
"""``(done, total, message)``, as ``Context.report_progress`` takes it."""

# Progress scale for one query-paper call: metadata, HTML pages (META+1..+3), download, conversion, done.
P_META, P_DOWNLOAD, P_CONVERT, P_DONE = 5.0, 55.0, 95.0, 100.0


async def no_progress(done: float, total: float, message: str) -> None:
    """The reporter of a call whose client asked for no progress."""
    return None


def increasing(report: Progress) -> Progress:
    """MCP requires each progress value to exceed the last: drop a report that would not."""
    last = [-1.0]

    async def forward(done: float, total: float, message: str) -> None:
        if done <= last[0]:
            return
        last[0] = done
        await report(done, total, message)

    return forward


def html_routes(settings: Settings, vid: ArxivId) -> list[tuple[str, str]]:
    """The HTML routes of ``vid`` in the order they are tried, as (source, url)."""
    routes = [("html", f"{settings.html_url}{vid.text}")]
    if settings.ar5iv_url:
        routes.append(("ar5iv", f"{settings.ar5iv_url}{vid.base}"))
    return routes


def shared_version() -> str:
    """The version of a shared text: both extractors' versions, so a change to either re-reads the paper."""
    return f"{EXTRACTOR_VERSIONS['pdf']}-{EXTRACTOR_VERSIONS['html']}"


class PaperTexts:
    """A paper's full text: stored, shared or read from its routes, one reader per paper at a time."""

    def __init__(
        self,
        settings: Settings,
        library: Library,
        arxiv: Callable[[], ArxivClient],
        fleet: SharedLibrary | None = None,
    ) -> None:
        self.settings = settings
        self.library = library
        self.fleet = fleet
        self._arxiv = arxiv  # the service's one client (and so its one rate gate), made on first use
        self._paper_locks: defaultdict[str, anyio.Lock] = defaultdict(anyio.Lock)

    async def get(self, vid: ArxivId, report: Progress) -> PaperText:
        """The text of ``vid``: the library's, else the fleet's, else read from its routes and stored."""
        async with self._paper_locks[vid.text]:
            cached = await anyio.to_thread.run_sync(self.cached, vid)
            if cached is not None:
                return cached
            if self.fleet is not None:
                shared = await self._fleet_text(self.fleet, vid, report)
                if shared is not None:
                    return shared
            return await self._read(vid, report)

    def cached(self, vid: ArxivId) -> PaperText | None:
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

    async def _read(self, vid: ArxivId, report: Progress) -> PaperText:
        """Read the paper from its routes (HTML, ar5iv, PDF) and store it (caller holds the paper lock)."""
        page = await self._html_page(vid, report)
        if page is None:
            return await self._pdf_text(vid, report)
        reasons = degraded_reasons(page.signals)
        if not reasons:
            await self._store(vid, page.text)
            await report(P_CONVERT, P_DONE, f"arxiv:{vid.text}: read the {page.text.source_label} page")
            return page.text
        why = "; ".join(reasons)
        logger.warning(
            "arxiv:%s: the %s conversion is degraded (%s); trying the PDF",
            vid.text,
            page.text.source_label,
            why,
        )
        await report(
            P_META + 3,
            P_DONE,
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
        version = shared_version()

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
            text = await self._read(vid, report)
            # Share only what this replica kept: a degraded page kept after a transient PDF failure is
            # not stored (the next call tries the PDF again), so it is not shared either.
            if await anyio.to_thread.run_sync(self.cached, vid) is not None:
                await anyio.to_thread.run_sync(fleet.write_text, vid, version, text.to_dict())
            return text

        async def on_wait() -> None:
            await report(P_META, P_DONE, f"arxiv:{vid.text}: another replica is reading it; waiting")

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

    async def _html_page(self, vid: ArxivId, report: Progress) -> LatexmlPage | None:
        """The paper read from arXiv's HTML, else from ar5iv; None when neither has a usable page."""
        for step, (source, url) in enumerate(html_routes(self.settings, vid)):
            label = SOURCES[source]
            await report(P_META + 1 + step, P_DONE, f"arxiv:{vid.text}: fetching the {label} page")
            try:
                raw = await anyio.to_thread.run_sync(
                    self._arxiv().fetch_html, url, f"the {label} page of arxiv:{vid.text}"
                )
            except ToolFailure as exc:
                logger.warning("arxiv:%s: the %s page could not be had: %s", vid.text, label, exc.message)
                if source == "html" and exc.code == ErrorCode.RESOURCE_ERROR:
                    return None  # arXiv itself is not answering: go straight to the PDF route
                continue
            if raw is None:
                logger.info("arxiv:%s: no %s page", vid.text, label)
                continue
            page = await self._parse_html(vid, source, raw)
            if page is not None:
                return page
        return None

    async def _parse_html(self, vid: ArxivId, source: str, raw: bytes) -> LatexmlPage | None:
        """A fetched page as text, its bibliography stored; None when it is not LaTeXML or holds no text."""
        from .latexml import parse_page

        label = SOURCES[source]
        try:
            page = await anyio.to_thread.run_sync(parse_page, raw, source)
        except ValueError as exc:
            logger.warning("arxiv:%s: the %s page is not a LaTeXML document: %s", vid.text, label, exc)
            return None
        if not (page.text.body.strip() or page.text.appendix.strip()):
            logger.warning("arxiv:%s: the %s page holds no text", vid.text, label)
            return None
        from .bibliography import store_bibliography  # li.ltx_bibitem, kept for paper-graph

        await anyio.to_thread.run_sync(store_bibliography, self.library, vid, source, raw)
        return page

    async def _pdf_text(self, vid: ArxivId, report: Progress) -> PaperText:
        """The paper read from its PDF: the stored file, else a download; converted and stored."""
        pdf = self.library.pdf_path(vid)
        if not pdf.is_file():
            await report(P_META + 4, P_DONE, f"arxiv:{vid.text}: downloading the PDF")
            await anyio.to_thread.run_sync(self._download, vid, report if report is not no_progress else None)
        await report(P_DOWNLOAD + 1, P_DONE, f"arxiv:{vid.text}: converting the PDF to markdown")
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
        await report(P_CONVERT, P_DONE, f"arxiv:{vid.text}: converted {text.pages} pages")
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
                value = P_META + (P_DOWNLOAD - P_META) * min(done / total, 1.0)
                message = f"arxiv:{vid.text}: downloaded {done // 1024} of {total // 1024} KiB"
                anyio.from_thread.run(report, value, P_DONE, message)

        with self.library.atomic_file(self.library.pdf_path(vid)) as sink:
            size = self._arxiv().download_pdf(vid, sink, on_bytes)
        logger.info("stored the PDF of arxiv:%s (%d bytes)", vid.text, size)


def _page_progress(report: Progress, vid: ArxivId) -> Callable[[int, int], None] | None:
    if report is no_progress:
        return None

    def on_pages(done: int, total: int) -> None:
        value = P_DOWNLOAD + 1 + (P_CONVERT - P_DOWNLOAD - 2) * (done / total if total else 1.0)
        anyio.from_thread.run(report, value, P_DONE, f"arxiv:{vid.text}: converted {done} of {total} pages")

    return on_pages
