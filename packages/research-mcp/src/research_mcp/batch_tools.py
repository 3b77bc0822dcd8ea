"""The five batch-* tools of seed 004, all through ``mcp_shared.run_batch``.

Shape: ``{"items": [...], "options": {"maxConcurrency", "useCache", "stopOnError"}}``.

- ``items`` must be a non-empty list of at most ``max_batch_items``; otherwise the whole call
  is a VALIDATION_ERROR. Each item is validated on its own: a bad item fails *that item*
  (``success: false`` with ``VALIDATION_ERROR: ...``) and the others still run.
- An item is the corresponding core tool's input object; a bare string is accepted where the
  tool has one required string (text for fact/entity extraction, the URL for source-rate), a
  bare citation object for citation-validate, and a bare list of facts for conflict-detect.
- The extraction batches look every item up in the cache first, then parse all the misses
  with one ``nlp.pipe`` stream in a worker thread, then run the cheap per-item step.
- Progress notifications go out when the client sent a progress token: first while parsing,
  then per finished item.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from mcp_shared import (
    BatchOptions,
    ErrorCode,
    GuardedMCPServer,
    Lookup,
    ProgressFn,
    ToolFailure,
    client_progress,
    describe_validation_error,
    run_batch,
)
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr, ValidationError

from .conflicts import FactInput, Tolerance
from .entities import extract_entities, prepare_text
from .markup import mask_markup
from .models import BatchResult, CitationIn, SourceMetadata
from .runtime import Runtime, as_result

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["register_batch_tools"]


class FactItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: StrictStr
    source_url: StrictStr | None = None
    source_metadata: SourceMetadata | None = None


class EntityItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: StrictStr
    entity_types: list[StrictStr] | None = None
    extract_relations: StrictBool = True


class SourceItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    source_url: StrictStr
    source_type: StrictStr | None = None
    metadata: dict[str, Any] | None = None


class CitationItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    citations: list[CitationIn]
    verify_urls: StrictBool = False
    check_accuracy: StrictBool = False


class ConflictItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    facts: list[FactInput]
    tolerance: Tolerance | None = None


def _validate(model: type[BaseModel], raw: Any, index: int) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, f"item_{index} is not a valid input: {describe_validation_error(exc)}"
        ) from exc


def _fact_item(raw: Any, i: int) -> FactItem:
    return FactItem(text=raw) if isinstance(raw, str) else _validate(FactItem, raw, i)


def _entity_item(raw: Any, i: int) -> EntityItem:
    return EntityItem(text=raw) if isinstance(raw, str) else _validate(EntityItem, raw, i)


def _source_item(raw: Any, i: int) -> SourceItem:
    return SourceItem(source_url=raw) if isinstance(raw, str) else _validate(SourceItem, raw, i)


def _citation_item(raw: Any, i: int) -> CitationItem:
    if isinstance(raw, dict) and "citations" not in raw:
        return CitationItem(citations=[_validate(CitationIn, raw, i)])
    item: CitationItem = _validate(CitationItem, raw, i)
    return item


def _conflict_item(raw: Any, i: int) -> ConflictItem:
    if isinstance(raw, list):
        raw = {"facts": raw}
    item: ConflictItem = _validate(ConflictItem, raw, i)
    return item


class _Prepared:
    """Items validated one by one: each is its parsed model or the failure that item will report."""

    def __init__(self, items: Sequence[Any], parse: Callable[[Any, int], Any]) -> None:
        self.values: list[Any] = []
        for i, raw in enumerate(items):
            try:
                self.values.append(parse(raw, i))
            except ToolFailure as exc:
                self.values.append(exc)

    def get(self, index: int) -> Any:
        value = self.values[index]
        if isinstance(value, ToolFailure):
            raise value
        return value


def _progress_fn(ctx: Context | None) -> ProgressFn | None:
    return None if ctx is None else client_progress(ctx, "research-mcp")


def _offset(progress: ProgressFn | None, offset: int, total: int) -> ProgressFn | None:
    """Progress of the item phase, after ``offset`` parse steps, on one monotonic scale."""
    if progress is None:
        return None

    async def report(done: float, _total: float, message: str) -> None:
        await progress(offset + done, total, message)

    return report


ItemsArg = Annotated[list[Any], Field(description="The inputs, one per item (see the tool description).")]
OptionsArg = Annotated[
    BatchOptions | None,
    Field(
        description="maxConcurrency (1-64, default 5), useCache (default true), stopOnError (default false)."
    ),
]


def register_batch_tools(
    server: GuardedMCPServer, rt: Runtime, local: ToolAnnotations, open_world: ToolAnnotations
) -> None:
    """Declare batch-fact-extract, batch-entity-extract, batch-citation-validate, batch-source-rate, batch-conflict-detect."""

    def check_items(items: list[Any]) -> None:
        if not items:
            raise ToolFailure(ErrorCode.VALIDATION_ERROR, "items is empty: give at least one item")
        if len(items) > rt.settings.max_batch_items:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"{len(items)} items; the limit is {rt.settings.max_batch_items} per batch",
            )

    async def run_parsed_batch(
        tool: str,
        items: list[Any],
        options: BatchOptions | None,
        ctx: Context | None,
        cache_name: str,
        prepared: _Prepared,
        key_of: Callable[[Any], str],
        compute: Callable[[Any, Doc], dict[str, Any]],
        parser_text: Callable[[str], str] = str,
    ) -> dict[str, Any]:
        """Cache lookups first, one ``nlp.pipe`` over the misses, then ``run_batch`` over the items.

        ``parser_text`` turns an item's text into what the parser reads (same length).
        """
        opts = BatchOptions.parse(options)
        progress = _progress_fn(ctx)
        cache = rt.caches.registry[cache_name]
        keys: list[str | None] = []
        hits: dict[int, Any] = {}
        to_parse: dict[str, None] = {}
        for i, value in enumerate(prepared.values):
            if isinstance(value, ToolFailure):
                keys.append(None)
                continue
            try:
                rt.check_text(value.text)
                key = key_of(value)
            except ToolFailure as exc:
                prepared.values[i] = exc
                keys.append(None)
                continue
            keys.append(key)
            if opts.use_cache:
                found, cached = await cache.aget(key)
                if found:
                    hits[i] = cached
                    continue
            to_parse.setdefault(value.text)
        texts = list(to_parse)
        size = sum(len(t) for t in texts)
        if size > rt.settings.max_batch_chars:
            raise ToolFailure(
                ErrorCode.VALIDATION_ERROR,
                f"the texts to parse total {size:,} characters; the limit per batch is "
                f"{rt.settings.max_batch_chars:,} (split the batch)",
            )
        total = len(texts) + len(items)
        parsed = await rt.parse([parser_text(t) for t in texts], progress, total) if texts else []
        docs = dict(zip(texts, parsed, strict=True))

        async def run_item(index: int, use_cache: bool) -> Lookup[dict[str, Any]]:
            value = prepared.get(index)
            if index in hits:
                return Lookup(hits[index], True)
            result = await anyio.to_thread.run_sync(compute, value, docs[value.text])
            key = keys[index]
            if use_cache and key is not None:
                await cache.aput(key, result)
            return Lookup(result, False)

        return await run_batch(
            tool, list(range(len(items))), run_item, opts, _offset(progress, len(texts), total)
        )

    async def run_simple_batch(
        tool: str,
        items: list[Any],
        options: BatchOptions | None,
        ctx: Context | None,
        prepared: _Prepared,
        one: Callable[[Any, bool], Awaitable[Lookup[dict[str, Any]]]],
    ) -> dict[str, Any]:
        opts = BatchOptions.parse(options)

        async def run_item(index: int, use_cache: bool) -> Lookup[dict[str, Any]]:
            return await one(prepared.get(index), use_cache)

        return await run_batch(tool, list(range(len(items))), run_item, opts, _progress_fn(ctx))

    @server.tool(
        name="batch-fact-extract",
        description="Process multiple texts for fact extraction. items: [{text, source_url?, source_metadata?} or a "
        "string]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
        "(fact-extract output), error, processingTimeMs, cacheHit}], summary {total, successful, failed, "
        "totalTimeMs, avgTimeMs, cacheHitRate}}. A bad item fails only itself.",
        annotations=local,
    )
    async def batch_fact_extract(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        check_items(items)
        prepared = _Prepared(items, _fact_item)

        def meta(v: FactItem) -> dict[str, Any] | None:
            return v.source_metadata.model_dump(exclude_none=True) if v.source_metadata else None

        result = await run_parsed_batch(
            "batch-fact-extract",
            items,
            options,
            ctx,
            "factCache",
            prepared,
            lambda v: rt.fact_key(v.text, v.source_url, meta(v)),
            lambda v, doc: rt.facts_from_doc(doc, v.source_url, meta(v), v.text),
            parser_text=mask_markup,  # a paper's math and citations are not prose
        )
        return as_result(result)

    @server.tool(
        name="batch-entity-extract",
        description="Extract entities from multiple texts. items: [{text, entity_types?, extract_relations?} or a "
        "string]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
        "(entity-extract output), error, processingTimeMs, cacheHit}], summary}. A bad item fails only itself.",
        annotations=local,
    )
    async def batch_entity_extract(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        check_items(items)

        def parse(raw: Any, i: int) -> _EntityWork:
            item = _entity_item(raw, i)
            return _EntityWork(item.text, rt.entity_types(item.entity_types), item.extract_relations)

        wrapped = _Prepared(items, parse)
        result = await run_parsed_batch(
            "batch-entity-extract",
            items,
            options,
            ctx,
            "entityCache",
            wrapped,
            lambda w: rt.entity_key(w.source, w.types, w.extract_relations),
            lambda w, doc: extract_entities(doc, w.types, w.extract_relations, source_text=w.source),
        )
        return as_result(result)

    @server.tool(
        name="batch-citation-validate",
        description="Validate multiple citation sets. items: [{citations, verify_urls?, check_accuracy?} or one "
        "citation object]; options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, "
        "data (citation-validate output), error, processingTimeMs, cacheHit}], summary}.",
        annotations=open_world,
    )
    async def batch_citation_validate(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        check_items(items)
        prepared = _Prepared(items, _citation_item)

        async def one(v: CitationItem, use_cache: bool) -> Lookup[dict[str, Any]]:
            return await rt.citation_validate(v.citations, v.verify_urls, v.check_accuracy, use_cache)

        return as_result(
            await run_simple_batch("batch-citation-validate", items, options, ctx, prepared, one)
        )

    @server.tool(
        name="batch-source-rate",
        description="Rate multiple sources A-E. items: [{source_url, source_type?, metadata?} or a URL string]; "
        "options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
        "(source-rate output), error, processingTimeMs, cacheHit}], summary}.",
        annotations=local,
    )
    async def batch_source_rate(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        check_items(items)
        prepared = _Prepared(items, _source_item)

        async def one(v: SourceItem, use_cache: bool) -> Lookup[dict[str, Any]]:
            return await rt.source_rate(v.source_url, v.source_type, v.metadata, use_cache)

        return as_result(await run_simple_batch("batch-source-rate", items, options, ctx, prepared, one))

    @server.tool(
        name="batch-conflict-detect",
        description="Detect conflicts in multiple fact sets. items: [{facts, tolerance?} or a list of facts]; "
        "options: {maxConcurrency, useCache, stopOnError}. Output: {tool, results [{id, success, data "
        "(conflict-detect output), error, processingTimeMs, cacheHit}], summary}.",
        annotations=local,
    )
    async def batch_conflict_detect(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        check_items(items)
        prepared = _Prepared(items, _conflict_item)

        async def one(v: ConflictItem, use_cache: bool) -> Lookup[dict[str, Any]]:
            return await rt.conflict_detect(v.facts, v.tolerance, use_cache)

        return as_result(await run_simple_batch("batch-conflict-detect", items, options, ctx, prepared, one))


class _EntityWork:
    """An entity item with its entity types already checked."""

    __slots__ = ("extract_relations", "source", "text", "types")

    def __init__(self, source: str, types: tuple[str, ...], extract_relations: bool) -> None:
        self.source = source
        self.text = prepare_text(source)  # what the parser sees (same length)
        self.types = types
        self.extract_relations = extract_relations
