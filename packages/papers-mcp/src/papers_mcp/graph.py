"""paper-graph: a paper's references or its citations, in pages, each item in resolve-paper-id's format.

References of an arXiv paper are its own bibliography (``bibliography.py``, offline, from the
library), each entry enriched where a scholarly index lists it among the paper's references
(matched by arXiv id, DOI or title). Citations, and the references of a paper known only by its
DOI, come from the indexes alone. Semantic Scholar is asked first and OpenAlex when it fails,
rate-limits or does not know the paper (either may be disabled); their answers are cached in the
library (``scholar_cache.py``). When no index can be had, references still come from the paper
and the answer says so; citations then fail with a message that says why.
"""

from __future__ import annotations

import math
import re
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio.to_thread
from mcp_shared import ErrorCode, ToolFailure
from mcp_shared.fleet import FleetGate
from pydantic import BaseModel, Field

from .bibliography import Reference, load_bibliography
from .descriptions import RESULT_SEPARATOR
from .ids import ArxivId, parse_arxiv_id
from .reading import Answer
from .render import authors_short, na
from .scholar_cache import ScholarCache
from .scholar_models import Direction, EdgeChunk, NotKnown, ScholarPaper, ScholarSource

if TYPE_CHECKING:
    from .service import PapersService, Progress

__all__ = ["PAGE_SIZE", "GraphResult", "PaperGraph"]

PAGE_SIZE = 20
# At most this many index pages are read for one answer (S2: 1,000 papers each; OpenAlex: 200).
_MAX_CHUNKS = 10
_DOI = re.compile(r"^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)?(10\.\d{4,9}/\S{1,200})$", re.IGNORECASE)
_ENTRY_CHARS = 300
_BATCH = 500  # Semantic Scholar's most ids in one /paper/batch


def _s2_ref(arxiv_base: str | None, doi: str | None) -> str:
    """Semantic Scholar's id for a paper (as ``S2Client.paper_ref``, without importing the client)."""
    return f"ARXIV:{arxiv_base}" if arxiv_base else f"DOI:{doi}"


class GraphItem(BaseModel):
    """One reference or citing paper."""

    position: int = Field(description="1-based place in the list")
    title: str | None
    arxiv_id: str | None = Field(
        description="arxiv:XXXX.XXXXX when the paper is on arXiv: pass it to query-paper"
    )
    doi: str | None
    authors: list[str]
    year: str | None
    venue: str | None
    citation_count: int | None
    label: str | None = Field(default=None, description="The entry's label in the paper's bibliography")
    entry: str | None = Field(default=None, description="The bibliography entry as printed (references)")
    resolved_by: str | None = Field(default=None, description="The index that matched this entry, if any")


class GraphResult(BaseModel):
    """A page of a paper's references or citations."""

    paper: str = Field(description="The paper asked about: arxiv:<versioned id> or doi:<DOI>")
    title: str | None
    direction: str
    total: int | None = Field(description="How many references or citations there are (when known)")
    page: int
    pages: int
    sources: list[str] = Field(description="Where the list came from: the paper itself and/or an index")
    note: str | None = Field(default=None, description="Set when an index could not be asked")
    items: list[GraphItem]


@dataclass(frozen=True)
class _Target:
    aid: ArxivId | None
    doi: str | None

    @property
    def shown(self) -> str:
        return f"arxiv:{self.aid.text}" if self.aid is not None else f"doi:{self.doi}"


class _IndexFailed(Exception):
    def __init__(self, reasons: list[str], unknown_only: bool) -> None:
        super().__init__("; ".join(reasons) or "no scholarly index is configured")
        self.reasons = reasons
        self.unknown_only = unknown_only  # every index answered, none knows the paper


def parse_target(raw: str) -> _Target:
    """An arXiv id (any form) or a DOI; anything else is a VALIDATION_ERROR before anything is fetched."""
    aid = parse_arxiv_id(raw)
    if aid is not None:
        return _Target(aid, None)
    match = _DOI.match(raw.strip())
    if match and not re.search(r"[\s\"<>]", match[1]):
        return _Target(None, match[1].rstrip("."))
    shown = raw if len(raw) <= 80 else raw[:77] + "..."
    raise ToolFailure(
        ErrorCode.VALIDATION_ERROR,
        f"not an arXiv identifier or DOI: {shown!r}. Use a form like 'arxiv:1706.03762' or "
        "'doi:10.1145/3174781.3174785' (call resolve-paper-id to find one).",
    )


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.findall(r"[a-z0-9]+", text))


class PaperGraph:
    """The tool's logic over the papers service (library, fleet, arXiv) and the two indexes."""

    def __init__(self, service: PapersService) -> None:
        self.service = service
        self.settings = service.settings
        self.cache = ScholarCache(service.library)
        self._sources: list[ScholarSource] | None = None
        self._lock = threading.Lock()

    def sources(self) -> list[ScholarSource]:
        """The enabled indexes, Semantic Scholar first, created on first use (one gate each)."""
        with self._lock:
            if self._sources is None:
                settings, fleet = self.settings, self.service.fleet
                from .scholar_api import (  # lazy: requests and arxiv cost start-up time
                    OpenAlexClient,
                    S2Client,
                )

                found: list[ScholarSource] = []
                if settings.s2_url:
                    gate = (
                        FleetGate(
                            fleet.store,
                            "s2",
                            settings.s2_min_interval_seconds,
                            settings.gate_max_wait_seconds,
                            service="Semantic Scholar",
                        )
                        if fleet is not None
                        else None
                    )
                    found.append(S2Client(settings, gate))
                if settings.openalex_url:
                    gate = (
                        FleetGate(
                            fleet.store,
                            "openalex",
                            settings.openalex_min_interval_seconds,
                            settings.gate_max_wait_seconds,
                            service="OpenAlex",
                        )
                        if fleet is not None
                        else None
                    )
                    found.append(OpenAlexClient(settings, gate))
                self._sources = found
            return self._sources

    # -- the indexes, with fallback and cache (worker thread) --

    def _chunk(self, source: ScholarSource, ref: str, direction: Direction, token: str | None) -> EdgeChunk:
        key = f"{source.name}|{ref}|{direction}|{token or ''}"
        ttl = (
            self.settings.citations_ttl_seconds
            if direction == "citations"
            else self.settings.references_ttl_seconds
        )
        cached = self.cache.get(key, ttl)
        if cached is not None:
            try:
                return EdgeChunk.from_dict(cached)
            except (KeyError, TypeError, ValueError):
                pass
        chunk = source.edges(ref, direction, token)
        self.cache.put(key, chunk.to_dict())
        return chunk

    def _collect(
        self, source: ScholarSource, ref: str, direction: Direction, need: int
    ) -> tuple[list[ScholarPaper], int | None]:
        papers: list[ScholarPaper] = []
        token: str | None = None
        total: int | None = None
        for _ in range(_MAX_CHUNKS):
            chunk = self._chunk(source, ref, direction, token)
            papers.extend(chunk.papers)
            total = chunk.total if chunk.total is not None else total
            token = chunk.next_token
            if token is None:
                return papers, total if total is not None else len(papers)
            if len(papers) >= need:
                break
        if total is None and direction == "citations":
            total = self._paper(source, ref).citation_count
        return papers, total

    def _paper(self, source: ScholarSource, ref: str) -> ScholarPaper:
        key = f"{source.name}|{ref}|paper"
        cached = self.cache.get(key, self.settings.citations_ttl_seconds)
        if cached is not None:
            return ScholarPaper.from_dict(cached)
        paper = source.paper(ref)
        self.cache.put(key, paper.to_dict())
        return paper

    def index_list(
        self, target: _Target, direction: Direction, need: int
    ) -> tuple[list[ScholarPaper], int | None, str]:
        """The first index's list that can be had; ``_IndexFailed`` with every reason when none can."""
        reasons: list[str] = []
        failed = False
        for source in self.sources():
            base = target.aid.base if target.aid is not None else None
            ref = source.paper_ref(arxiv_id=base, doi=target.doi)
            try:
                papers, total = self._collect(source, ref, direction, need)
            except NotKnown:
                reasons.append(f"{source.name} does not know {target.shown}")
                continue
            except ToolFailure as exc:
                reasons.append(exc.message)
                failed = True
                continue
            return papers, total, source.name
        raise _IndexFailed(reasons, unknown_only=bool(reasons) and not failed)

    def batch_resolve(
        self, entries: Sequence[Reference], matched: dict[int, tuple[ScholarPaper, str]]
    ) -> dict[int, tuple[ScholarPaper, str]]:
        """Entries the paper's list left unmatched but that name an arXiv id or DOI: Semantic Scholar's
        ``/paper/batch``, 500 ids a request, each answer (a null too) cached like a paper record."""
        s2 = next((s for s in self.sources() if s.name == "Semantic Scholar"), None)
        wanted: dict[int, str] = {}
        for index, entry in enumerate(entries):
            if index in matched or not (entry.arxiv_id or entry.doi):
                continue
            aid = parse_arxiv_id(entry.arxiv_id) if entry.arxiv_id else None
            wanted[index] = _s2_ref(aid.base if aid else None, entry.doi)
        if s2 is None or not wanted:
            return {}
        ttl = self.settings.references_ttl_seconds
        known: dict[str, ScholarPaper | None] = {}
        for ref in set(wanted.values()):
            cached = self.cache.get(f"{s2.name}|{ref}|paper", ttl)
            if cached is not None:
                known[ref] = ScholarPaper.from_dict(cached) if cached.get("title") is not None else None
        missing = sorted(set(wanted.values()) - set(known))
        for start in range(0, len(missing), _BATCH):
            chunk = missing[start : start + _BATCH]
            try:
                answers = s2.batch(chunk)
            except (ToolFailure, NotKnown):
                break  # the entries keep what they print; the answer is not failed for this
            for ref, paper in zip(chunk, answers, strict=False):
                known[ref] = paper
                self.cache.put(f"{s2.name}|{ref}|paper", paper.to_dict() if paper else {"title": None})
        return {i: (p, s2.name) for i, ref in wanted.items() if (p := known.get(ref)) is not None}

    # -- the tool --

    async def answer(
        self, raw: str, direction: Direction, page: int, progress: Progress | None = None
    ) -> Answer:
        target = parse_target(raw)
        if direction == "references" and target.aid is not None:
            meta, text = await self.service.paper(target.aid, progress)
            vid = meta.arxiv_id
            entries = await anyio.to_thread.run_sync(
                load_bibliography, self.service.library, vid, text.source, text.references
            )
            shown = _Target(vid, None)
            note: str | None = None
            matched: dict[int, tuple[ScholarPaper, str]] = {}
            try:
                listed, _, name = await anyio.to_thread.run_sync(self.index_list, shown, direction, 100_000)
                matched = _match(entries, listed, name)
            except _IndexFailed as exc:
                why = (
                    "No scholarly index lists this paper"
                    if exc.unknown_only
                    else "The scholarly indexes could not be asked"
                )
                note = (
                    f"{why} ({exc}); these are the paper's own entries, with the identifiers printed in them."
                )
            if note is None or not note.startswith("The scholarly indexes could not"):
                found = await anyio.to_thread.run_sync(self.batch_resolve, entries, matched)
                matched.update(found)
            items = [_entry_item(i + 1, e, matched.get(i)) for i, e in enumerate(entries)]
            sources = [
                f"the paper's bibliography ({text.source_label})",
                *sorted({n for _, n in matched.values()}),
            ]
            return _render(shown, meta.title, direction, items, len(items), page, sources, note)
        # A reference list is read whole (its length is its total); citations only as far as the page.
        need = page * PAGE_SIZE if direction == "citations" else 100_000
        try:
            listed, total, name = await anyio.to_thread.run_sync(self.index_list, target, direction, need)
        except _IndexFailed as exc:
            raise ToolFailure(
                ErrorCode.RESOURCE_ERROR,
                f"The {direction} of {target.shown} could not be fetched: {exc}. "
                + (
                    'Its references can still be read from the paper itself (direction="references").'
                    if target.aid is not None
                    else "Try again later."
                ),
            ) from exc
        items = [_paper_item(i + 1, p) for i, p in enumerate(listed)]
        title = None
        if target.aid is not None:
            known = await anyio.to_thread.run_sync(self.service.library.meta, target.aid)
            title = known.title if known is not None else None
        return _render(
            target, title, direction, items, total if total is not None else len(items), page, [name], None
        )


def _match(
    entries: Sequence[Reference], listed: Sequence[ScholarPaper], name: str
) -> dict[int, tuple[ScholarPaper, str]]:
    """Each bibliography entry's paper in the index's list, by arXiv id, DOI, then title."""
    by_arxiv: dict[str, ScholarPaper] = {}
    for paper in listed:
        parsed = parse_arxiv_id(paper.arxiv_id) if paper.arxiv_id else None
        if parsed is not None:
            by_arxiv[parsed.base] = paper
    by_doi = {p.doi.lower(): p for p in listed if p.doi}
    by_title = {_fold(p.title): p for p in listed if len(_fold(p.title)) >= 12}
    out: dict[int, tuple[ScholarPaper, str]] = {}
    for index, entry in enumerate(entries):
        aid = parse_arxiv_id(entry.arxiv_id) if entry.arxiv_id else None
        found = (by_arxiv.get(aid.base) if aid else None) or (
            by_doi.get(entry.doi.lower()) if entry.doi else None
        )
        if found is None:
            folded = _fold(entry.text)
            found = next((p for t, p in by_title.items() if t in folded), None)
        if found is not None:
            out[index] = (found, name)
    return out


def _entry_item(position: int, entry: Reference, match: tuple[ScholarPaper, str] | None) -> GraphItem:
    paper, name = match if match is not None else (None, None)
    arxiv = entry.arxiv_id or (paper.arxiv_id if paper else None)
    aid = parse_arxiv_id(arxiv) if arxiv else None
    return GraphItem(
        position=position,
        title=(paper.title if paper and paper.title else entry.title),
        arxiv_id=f"arxiv:{aid.base}" if aid else None,
        doi=entry.doi or (paper.doi if paper else None),
        authors=list(paper.authors) if paper else [],
        year=entry.year or (paper.year if paper else None),
        venue=paper.venue if paper else None,
        citation_count=paper.citation_count if paper else None,
        label=entry.label or None,
        entry=entry.text,
        resolved_by=name,
    )


def _paper_item(position: int, paper: ScholarPaper) -> GraphItem:
    aid = parse_arxiv_id(paper.arxiv_id) if paper.arxiv_id else None
    return GraphItem(
        position=position,
        title=paper.title or None,
        arxiv_id=f"arxiv:{aid.base}" if aid else None,
        doi=paper.doi,
        authors=list(paper.authors),
        year=paper.year,
        venue=paper.venue,
        citation_count=paper.citation_count,
    )


def _block(item: GraphItem) -> str:
    lines = [
        f"- Title: {na(item.title)}",
        f"- Arxiv ID: {item.arxiv_id or 'N/A'}",
        f"- DOI: {na(item.doi)}",
        f"- Authors: {authors_short(item.authors)}",
        f"- Year: {na(item.year)}",
        f"- Venue: {na(item.venue)}",
        f"- Citations: {item.citation_count if item.citation_count is not None else 'N/A'}",
    ]
    if item.entry is not None:
        entry = item.entry if len(item.entry) <= _ENTRY_CHARS else item.entry[: _ENTRY_CHARS - 3] + "..."
        label = f"[{item.label}] " if item.label else ""
        lines.append(f"- Entry: {label}{entry}")
    return "\n".join(lines)


def _render(
    target: _Target,
    title: str | None,
    direction: Direction,
    items: list[GraphItem],
    total: int,
    page: int,
    sources: list[str],
    note: str | None,
) -> Answer:
    pages = max(1, math.ceil(max(total, len(items)) / PAGE_SIZE))
    if page > pages:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, f"page {page} is past the last page ({pages}) of this list"
        )
    shown = items[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    noun = "entries" if direction == "references" else "citing papers"
    head = [
        f"# {direction.capitalize()} of {target.shown}" + (f": {title}" if title else ""),
        "",
        f"- Total: {total} {noun}",
        f"- From: {'; '.join(sources)}",
    ]
    if any(i.entry is not None for i in items):
        on_arxiv = sum(1 for i in items if i.arxiv_id)
        resolved = sum(1 for i in items if i.resolved_by)
        head.append(f"- Resolved: {on_arxiv} with an arXiv id, {resolved} matched in an index")
    first = (page - 1) * PAGE_SIZE + 1
    head.append(
        f"- Page: {page} of {pages}" + (f" (items {first}-{first + len(shown) - 1})" if shown else "")
    )
    blocks = ["\n".join(head)]
    if note:
        blocks.append(f"Note: {note}")
    blocks.extend(_block(i) for i in shown)
    if not shown:
        blocks.append(
            "This paper has no reference list."
            if direction == "references"
            else "No citing papers are known."
        )
    text = f"\n\n{RESULT_SEPARATOR}\n\n".join(blocks)
    if page < pages:
        text += (
            f'\n\n[Page {page} of {pages}. For the next, call paper-graph with paper="{target.shown}", '
            f'direction="{direction}", page={page + 1}.]'
        )
    data: dict[str, Any] = GraphResult(
        paper=target.shown,
        title=title,
        direction=direction,
        total=total,
        page=page,
        pages=pages,
        sources=sources,
        note=note,
        items=shown,
    ).model_dump(mode="json")
    return Answer(text, data)
