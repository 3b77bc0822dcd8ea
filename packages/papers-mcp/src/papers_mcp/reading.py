"""query-paper's answers once the paper's text is at hand: a level, a section, or passages for a query.

``PapersService`` fetches (metadata, conversion) and this module answers, so that fetching
and answering can change apart. Each answer is the seed's markdown text plus the structured
content that ``results.QueryPaperResult`` describes. Arguments are checked here before anything
is fetched: a bad ``query``, ``section`` or combination costs nothing and writes nothing.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mcp_shared import ErrorCode, ToolFailure

from .answers import outline_block, passage_entries, passages_block, section_entries, section_entry
from .fulltext import PaperText
from .headings import PARTS, Part
from .levels import LEVEL_PARTS, passage_parts, section_parts
from .library import Library
from .metadata import PaperMeta
from .outline import Outline, build_outline
from .passages import (
    PassageIndex,
    candidates_for,
    check_query,
    chunk_paper,
    index_key,
    select_passages,
)
from .render import CHARS_PER_TOKEN, Level, paginate, render_page
from .results import QueryPaperResult
from .settings import Settings

__all__ = ["MAX_SECTION_CHARS", "Answer", "Reader", "Request", "check_request"]

logger = logging.getLogger(__name__)

MAX_SECTION_CHARS = 200
PASSAGE_BUDGET_TOKENS = 1500
_PAGE_HEADER_ALLOWANCE = 1500
_OUTLINES_KEPT = 16
# Each level's outline parts, read from the one level table (``levels``).
_LEVEL_SECTIONS: dict[str, tuple[Part, ...]] = {
    level: tuple(p for p in PARTS if p in section_parts(level)) for level in LEVEL_PARTS
}


@dataclass(frozen=True)
class Request:
    """A checked query-paper call: the level to use and at most one of ``query`` / ``section``."""

    level: Level
    page: int = 1
    query: str | None = None
    terms: tuple[str, ...] = ()
    section: str | None = None

    @property
    def reads_text(self) -> bool:
        return self.level != "abstract"


@dataclass(frozen=True)
class Answer:
    """The text content (seed markdown) and the structured content of one answer."""

    text: str
    data: dict[str, Any] = field(default_factory=dict)


def check_request(
    level: Level, page: int, query: str | None, section: str | None, level_given: bool = True
) -> Request:
    """Validate the arguments together; ``level`` defaults to "all" for a query or a section.

    Raises:
        ToolFailure: VALIDATION_ERROR for an empty or over-long query or section, both given,
            either with level "abstract", or a query with a page other than 1.
    """
    if query is not None and section is not None:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            "give either query (to find passages) or section (to read one section), not both",
        )
    if query is None and section is None:
        return Request(level, page)
    chosen: Level = level if level_given else "all"
    if chosen == "abstract":
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            'query and section read the full text: use level "body", "appendix" or "all", or leave level out',
        )
    if query is not None:
        text, terms = check_query(query)
        if page != 1:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR, f"page {page} is out of range: a query answer has 1 page"
            )
        return Request(chosen, 1, query=text, terms=tuple(terms))
    assert section is not None
    spec = " ".join(section.split())
    if not spec:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, 'section is empty: give a number ("3.2", "A") or words of a title'
        )
    if len(spec) > MAX_SECTION_CHARS:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"section is {len(spec)} characters long; give a number or a few title words (at most {MAX_SECTION_CHARS})",
        )
    return Request(chosen, page, section=spec)


class Reader:
    """Answers from a paper's text: outlines are kept per text, passages indexed in the library."""

    def __init__(self, library: Library, settings: Settings) -> None:
        self.settings = settings
        self.index = PassageIndex(library)
        self._outlines: OrderedDict[str, Outline] = OrderedDict()
        self._lock = threading.Lock()

    # -- shared pieces --

    @staticmethod
    def key(meta: PaperMeta, text: PaperText) -> str:
        # The headings too: the outline, and so each passage's section, is built from them.
        headings = json.dumps([h.to_dict() for h in text.headings or ()])
        return index_key(
            meta.arxiv_id.text, text.source, (text.front, text.body, text.references, text.appendix, headings)
        )

    def outline(self, meta: PaperMeta, text: PaperText) -> Outline:
        """The section tree of ``text``, built once per text and kept for the next calls."""
        key = self.key(meta, text)
        with self._lock:
            found = self._outlines.get(key)
            if found is not None:
                self._outlines.move_to_end(key)
                return found
        outline = build_outline(text)
        with self._lock:
            self._outlines[key] = outline
            while len(self._outlines) > _OUTLINES_KEPT:
                self._outlines.popitem(last=False)
        return outline

    def _page_budget(self, header: str) -> int:
        return max(
            int(self.settings.max_answer_tokens * CHARS_PER_TOKEN) - len(header) - _PAGE_HEADER_ALLOWANCE,
            1000,
        )

    @staticmethod
    def _base(meta: PaperMeta, request: Request, source: str | None, page: int, pages: int) -> dict[str, Any]:
        aid = meta.arxiv_id
        return {
            "arxiv_id": f"arxiv:{aid.base}",
            "version": aid.version,
            "title": meta.title,
            "source": source,
            "level": request.level,
            "page": page,
            "pages": pages,
            "query": request.query,
        }

    def _paged(
        self,
        meta: PaperMeta,
        request: Request,
        header: str,
        document: str,
        what: str,
        source: str | None,
        extra_args: str = "",
    ) -> tuple[str, dict[str, Any]]:
        """The requested page of ``document`` under ``header``: the rendered answer and its structured data."""
        pages = paginate(document, self._page_budget(header))
        page = self._page_in_range(request, pages, what, meta)
        rendered = render_page(
            header,
            pages,
            page,
            meta.arxiv_id.text,
            request.level,
            self.settings.max_answer_tokens,
            extra_args=extra_args,
        )
        data = self._base(meta, request, source, page, len(pages))
        data["markdown"] = pages[page - 1]
        return rendered, data

    @staticmethod
    def _checked(data: dict[str, Any]) -> dict[str, Any]:
        """Validate against the published schema here, so a mismatch is our bug, caught in tests."""
        return QueryPaperResult.model_validate(data).model_dump(mode="json")

    # -- the three kinds of answer --

    def level_answer(
        self, meta: PaperMeta, request: Request, header: str, document: str, text: PaperText | None
    ) -> Answer:
        """One page of a whole level; the abstract level ends with the outline when the text is known."""
        outline = self.outline(meta, text) if text is not None else None
        if request.level == "abstract" and outline is not None:
            block = outline_block(outline, meta.arxiv_id.text)
            document = f"{document}\n\n{block}" if block else document
        source = text.source if text is not None else None
        rendered, data = self._paged(meta, request, header, document, f"level {request.level!r}", source)
        if outline is not None:
            parts = _LEVEL_SECTIONS[request.level]
            data["sections"] = section_entries(outline, outline.in_parts(parts), meta.arxiv_id.text)
        return Answer(rendered, self._checked(data))

    def section_answer(self, meta: PaperMeta, request: Request, header: str, text: PaperText) -> Answer:
        """One section with its subsections, paged like a level."""
        assert request.section is not None
        vid = meta.arxiv_id.text
        outline = self.outline(meta, text)
        parts = _LEVEL_SECTIONS[request.level]
        found = outline.find(request.section, parts)
        if found is None:
            where = "" if request.level == "all" else f' at level "{request.level}"'
            listing = outline.listing(parts)
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"arxiv:{vid} has no section matching {request.section!r}{where}. "
                + (
                    f"Its sections: {listing}. "
                    if listing
                    else "No section headings were found in its text. "
                )
                + 'Give a number ("3.2", "A") or words of a title.',
            )
        head = f"{header}\n- Section: {outline.path(found)} ({outline.tokens(found):,} tokens, subsections included)"
        rendered, data = self._paged(
            meta,
            request,
            head,
            outline.markdown(found),
            f"section {found.selector!r}",
            text.source,
            extra_args=f", section={json.dumps(found.selector, ensure_ascii=False)}",
        )
        data["section"] = section_entry(outline, found, vid).model_dump(mode="json")
        data["sections"] = section_entries(outline, outline.subtree(found), vid)
        return Answer(rendered, self._checked(data))

    def query_answer(self, meta: PaperMeta, request: Request, header: str, text: PaperText) -> Answer:
        """The passages that best answer ``request.query``, within its level, under the passage budget."""
        assert request.query is not None
        vid = meta.arxiv_id.text
        key = self.key(meta, text)
        doc = self.index.doc(key)
        if doc is None:
            chunks = chunk_paper(self.outline(meta, text), meta.abstract or text.front)
            doc = self.index.build(key, vid, chunks)
            logger.info("indexed %d passages of arxiv:%s", len(chunks), vid)
        limit = self.settings.max_passages
        ranked = self.index.search(doc, request.terms, passage_parts(request.level), candidates_for(limit))
        chosen = select_passages(ranked, limit, PASSAGE_BUDGET_TOKENS)
        block = passages_block(chosen, vid, request.level)
        rendered = f"{header}\n- Query: {request.query}\n\n{block}"
        data = self._base(meta, request, text.source, 1, 1)
        data["passages"] = passage_entries(chosen, vid)
        data["markdown"] = block
        return Answer(rendered, self._checked(data))

    @staticmethod
    def _page_in_range(request: Request, pages: Sequence[str], what: str, meta: PaperMeta) -> int:
        if request.page > len(pages):
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"page {request.page} is out of range: {what} of arxiv:{meta.arxiv_id.text} has {len(pages)} page(s)",
            )
        return request.page
