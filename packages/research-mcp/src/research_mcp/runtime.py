"""One server's state (settings, caches, the spaCy pipeline) and the core of each tool.

Each tool's spec (``tools.py``) calls these methods, and ``batching.py`` makes the single and the
batch tool from the spec, so an item of a batch and a single call give the same result and share a
cache entry. spaCy work runs in a worker thread, one parse at a time (``nlp`` objects are not
meant to be used from several threads at once); batches parse all their texts through
``nlp.pipe`` in chunks.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
from mcp.types import CallToolResult
from mcp_shared import ErrorCode, Lookup, ProgressFn, ToolFailure, cache_key, structured_result
from mcp_shared.fleet import RedisStore

from .caches import Caches
from .citations import has_transient_failures, validate_citations
from .conflicts import FactInput, Tolerance, detect_conflicts
from .entities import normalise_entity_types
from .facts import extract_from_doc
from .models import CitationIn
from .nlp import load_nlp
from .settings import Settings
from .sources import SOURCE_TYPES, rate_source
from .urls import UrlError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from .crossref import DoiResolver

__all__ = ["PIPE_CHUNK", "Runtime", "as_result"]

T = TypeVar("T")

SOURCE_TYPE_SYNONYMS = {
    "government": "official", "gov": "official", "company": "official", "corporate": "official",
    "preprint": "academic", "journal": "academic", "research": "academic", "scientific": "academic",
    "report": "industry", "analyst": "industry", "media": "news", "press": "news",
    "personal": "blog", "social": "blog", "forum": "blog", "unknown": "", "other": "",
}  # fmt: skip
"""Other words callers use for the seed's five source types ("" means no claim)."""

CLAIM_ENTITY_LABELS = {"ORG", "PERSON", "GPE", "LOC", "FAC", "PRODUCT", "EVENT", "NORP", "WORK_OF_ART", "LAW"}

PIPE_CHUNK = 32
"""Texts per ``nlp.pipe`` call in a batch: big enough for spaCy's batching, small enough for progress."""


def as_result(value: dict[str, Any]) -> CallToolResult:
    """The tool result: compact JSON as text, the same object as structured content.

    The SDK validates the structured content against the tool's output model; building the
    result here avoids a second model round trip and the SDK's indented text on every call.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    return structured_result(text, value)


class _Uncached(Exception):
    """Carries a result out of a cache computation without storing it (the cache keeps no failures)."""

    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__("uncached result")
        self.result = result


class Runtime:
    """Settings, caches and the lazily loaded model of one server."""

    def __init__(self, settings: Settings, store: RedisStore | None = None) -> None:
        self.settings = settings
        self.caches = Caches.from_settings(settings, store)
        self._nlp_lock = threading.Lock()
        self._doi_resolver: DoiResolver | None = None

    def doi_resolver(self) -> DoiResolver:
        """The process's DOI lookups (cap, back-off, per-DOI entries in citationCache), made on first use."""
        if self._doi_resolver is None:
            from .crossref import DoiResolver  # httpx loads on the first lookup, not at start-up

            self._doi_resolver = DoiResolver(self.settings, self.caches.citations)
        return self._doi_resolver

    # ------------------------------------------------------------------ spaCy

    def nlp(self) -> Language:
        """The pipeline, loaded on first use (CONFIGURATION_ERROR if no model is installed)."""
        return load_nlp(self.settings.model)

    def _parse_sync(self, texts: Sequence[str]) -> list[Doc]:
        nlp = self.nlp()
        with self._nlp_lock:
            if len(texts) == 1:
                return [nlp(texts[0])]
            return list(nlp.pipe(texts, batch_size=PIPE_CHUNK))

    async def parse(
        self, texts: Sequence[str], progress: ProgressFn | None = None, total: int = 0
    ) -> list[Doc]:
        """Parse ``texts`` in a worker thread through ``nlp.pipe``, reporting progress per chunk."""
        docs: list[Doc] = []
        for start in range(0, len(texts), PIPE_CHUNK):
            chunk = texts[start : start + PIPE_CHUNK]
            docs.extend(await anyio.to_thread.run_sync(self._parse_sync, chunk))
            if progress is not None:
                await progress(len(docs), total or len(texts), f"parsed {len(docs)}/{len(texts)} texts")
        return docs

    async def cached(
        self, cache_name: str, key: str, compute: Callable[[], Awaitable[T]], use_cache: bool
    ) -> Lookup[T]:
        if not use_cache:
            return Lookup(await compute(), False)
        cache = self.caches.registry[cache_name]
        return await cache.get_or_compute(key, compute)

    # ------------------------------------------------------------------ input checks

    def check_text(self, text: str, field: str = "text") -> str:
        """Non-empty text within the size limit.

        Raises:
            ToolFailure: VALIDATION_ERROR otherwise.
        """
        if not text.strip():
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, f"{field} is empty")
        if len(text) > self.settings.max_text_chars:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"{field} has {len(text):,} characters; the limit is {self.settings.max_text_chars:,} "
                "(split it, or use the batch tool)",
            )
        return text

    # ------------------------------------------------------------------ fact-extract

    @staticmethod
    def fact_key(text: str, source_url: str | None, source_metadata: Mapping[str, Any] | None) -> str:
        return cache_key(
            tool="fact-extract", text=text, source_url=source_url, source_metadata=source_metadata
        )

    @staticmethod
    def facts_from_doc(
        doc: Doc,
        source_url: str | None,
        source_metadata: Mapping[str, Any] | None,
        source_text: str,
        today: date,
    ) -> dict[str, Any]:
        return extract_from_doc(
            doc, source_url=source_url, source_metadata=source_metadata, source_text=source_text, today=today
        )

    # ------------------------------------------------------------------ entity-extract

    @staticmethod
    def entity_types(raw: Sequence[str] | None) -> tuple[str, ...]:
        try:
            return normalise_entity_types(raw)
        except ValueError as exc:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, str(exc)) from exc

    @staticmethod
    def entity_key(text: str, types: Sequence[str], extract_relations: bool) -> str:
        return cache_key(
            tool="entity-extract", text=text, entity_types=sorted(types), extract_relations=extract_relations
        )

    # ------------------------------------------------------------------ source-rate

    @staticmethod
    def source_type(raw: str | None) -> str | None:
        if raw is None:
            return None
        value = raw.strip().lower()
        value = SOURCE_TYPE_SYNONYMS.get(value, value)
        if value == "":
            return None
        if value not in SOURCE_TYPES:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR, f"source_type {raw!r} is not one of {', '.join(SOURCE_TYPES)}"
            )
        return value

    async def source_rate(
        self,
        source_url: str,
        source_type: str | None,
        metadata: Mapping[str, Any] | None,
        use_cache: bool = True,
    ) -> Lookup[dict[str, Any]]:
        kind = self.source_type(source_type)
        url = source_url.strip()
        if not url:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "source_url is empty")
        if len(url) > 4096:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "source_url is longer than 4096 characters")

        async def compute() -> dict[str, Any]:
            try:
                return rate_source(url, kind, dict(metadata) if metadata else None)
            except UrlError as exc:
                raise ToolFailure(
                    ErrorCode.VALIDATION_ERROR, f"source_url {url!r} is not a usable URL: {exc}"
                ) from exc

        key = cache_key(tool="source-rate", source_url=url, source_type=kind, metadata=metadata)
        return await self.cached("sourceRatingCache", key, compute, use_cache)

    # ------------------------------------------------------------------ citation-validate

    async def citation_validate(
        self, citations: Sequence[CitationIn], verify_urls: bool, check_accuracy: bool, use_cache: bool = True
    ) -> Lookup[dict[str, Any]]:
        if not citations:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "citations is empty: give at least one citation")
        if len(citations) > self.settings.max_citations:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"{len(citations)} citations; the limit is {self.settings.max_citations} per call (use batch-citation-validate)",
            )

        async def compute() -> dict[str, Any]:
            entities = await self.claim_entities([c.claim for c in citations]) if check_accuracy else None
            result = await validate_citations(
                citations,
                self.settings,
                verify_urls=verify_urls,
                check_accuracy=check_accuracy,
                claim_entities=entities,
                doi_resolver=self.doi_resolver() if verify_urls else None,
            )
            if has_transient_failures(result):
                raise _Uncached(result)  # a DOI left unverified may be verifiable in a minute
            return result

        key = cache_key(
            tool="citation-validate",
            citations=[c.model_dump() for c in citations],
            verify_urls=verify_urls,
            check_accuracy=check_accuracy,
        )
        try:
            return await self.cached("citationCache", key, compute, use_cache)
        except _Uncached as uncached:
            return Lookup(uncached.result, False)

    async def claim_entities(self, claims: Sequence[str]) -> list[list[str]]:
        """The named entities of each claim (one ``nlp.pipe`` pass), for check_accuracy."""
        docs = await self.parse(claims)
        return [
            [ent.text.strip() for ent in doc.ents if ent.label_ in CLAIM_ENTITY_LABELS and ent.text.strip()]
            for doc in docs
        ]

    # ------------------------------------------------------------------ conflict-detect

    async def conflict_detect(
        self, facts: Sequence[FactInput], tolerance: Tolerance | None, use_cache: bool = True
    ) -> Lookup[dict[str, Any]]:
        if not facts:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR, "facts is empty: give at least two facts to compare"
            )
        if len(facts) > self.settings.max_facts:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"{len(facts)} facts; the limit is {self.settings.max_facts} per call",
            )
        tol = tolerance or Tolerance()

        async def compute() -> dict[str, Any]:
            return await anyio.to_thread.run_sync(detect_conflicts, list(facts), tol)

        key = cache_key(
            tool="conflict-detect",
            facts=[f.model_dump(mode="json") for f in facts],
            tolerance=tol.model_dump(mode="json"),
        )
        return await self.cached("conflictCache", key, compute, use_cache)
