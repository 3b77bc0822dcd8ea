"""Each core tool's spec made into its single tool and its batch-* tool (seed 004), written once.

Batch shape: ``{"items": [...], "options": {"maxConcurrency", "useCache", "stopOnError"}}``.

- ``items`` must be a non-empty list of at most ``max_batch_items``; otherwise the whole call
  is a VALIDATION_ERROR. Each item is validated on its own, by the single tool's argument model: a
  bad item fails *that item* (``success: false`` with ``VALIDATION_ERROR: ...``) and the others run.
- An item is the core tool's input object, or its short form (``ToolSpec.shorthand``): a bare string
  where the tool has one required string, a bare citation object, a bare list of facts.
- The text-reading tools look every item up in the cache first, then parse all the misses with one
  ``nlp.pipe`` stream in a worker thread, then run the cheap per-item step; a single call goes
  through the same steps with one text, so both share cache entries and answers.
- Progress notifications go out when the client sent a progress token: first while parsing,
  then per finished item.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from mcp_shared import (
    BatchOptions,
    ErrorCode,
    Lookup,
    ProgressFn,
    ToolFailure,
    client_progress,
    describe_validation_error,
    run_batch,
)
from pydantic import Field, ValidationError

from .descriptions import ITEMS_PARAM, OPTIONS_PARAM
from .models import BatchResult
from .runtime import Runtime, as_result
from .tools import ParsedWork, ToolSpec

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["batch_tool", "run_one", "single_tool"]

ItemsArg = Annotated[list[Any], Field(description=ITEMS_PARAM)]
OptionsArg = Annotated[BatchOptions | None, Field(description=OPTIONS_PARAM)]


def single_tool(spec: ToolSpec, rt: Runtime) -> Callable[..., Any]:
    """The single tool: its parameters are the fields of ``spec.args``, texts filled from the settings."""
    limits = {
        "max_text_chars": rt.settings.max_text_chars,
        "max_citations": rt.settings.max_citations,
        "max_facts": rt.settings.max_facts,
    }
    parameters = []
    for name, field in spec.args.model_fields.items():
        described = Field(description=(field.description or "").format(**limits))
        annotation: Any = Annotated.__class_getitem__((field.annotation, *field.metadata, described))  # type: ignore[attr-defined]
        default = inspect.Parameter.empty if field.is_required() else field.default
        parameters.append(
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
        )

    async def tool(**arguments: Any) -> CallToolResult:
        # The SDK validated the arguments against these same fields (the signature): build, don't re-check.
        found = await run_one(rt, spec, spec.args.model_construct(**arguments), True)
        return as_result(found.value)

    tool.__name__ = spec.name.replace("-", "_")
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        parameters, return_annotation=Annotated[CallToolResult, spec.result]
    )
    return tool


def batch_tool(spec: ToolSpec, rt: Runtime) -> Callable[..., Any]:
    """The batch-* tool of ``spec``."""

    async def batch(
        items: ItemsArg, options: OptionsArg = None, ctx: Context | None = None
    ) -> Annotated[CallToolResult, BatchResult]:
        return as_result(await run_items(rt, spec, items, options, ctx))

    batch.__name__ = spec.batch_name.replace("-", "_")
    return batch


async def run_one(rt: Runtime, spec: ToolSpec, args: Any, use_cache: bool) -> Lookup[dict[str, Any]]:
    """One call of a core tool, cached in its cache."""
    if spec.call is not None:
        return await spec.call(rt, args, use_cache)
    assert spec.work is not None
    work = spec.work(rt, args)

    async def compute() -> dict[str, Any]:
        docs = await rt.parse([work.parse_text])
        return await anyio.to_thread.run_sync(work.compute, docs[0])

    return await rt.cached(spec.cache, work.key, compute, use_cache)


def _item(spec: ToolSpec, rt: Runtime, raw: Any, index: int) -> Any:
    """The item's arguments (or, for a text-reading tool, its checked work); raises its own failure."""
    try:
        args = spec.args.model_validate(spec.shorthand(raw))
    except ValidationError as exc:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, f"item_{index} is not a valid input: {describe_validation_error(exc)}"
        ) from exc
    return spec.work(rt, args) if spec.work is not None else args


def _check_items(rt: Runtime, items: Sequence[Any]) -> None:
    if not items:
        raise ToolFailure(ErrorCode.VALIDATION_ERROR, "items is empty: give at least one item")
    if len(items) > rt.settings.max_batch_items:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"{len(items)} items; the limit is {rt.settings.max_batch_items} per batch",
        )


async def run_items(
    rt: Runtime, spec: ToolSpec, items: list[Any], options: BatchOptions | None, ctx: Context | None
) -> dict[str, Any]:
    """A batch: every item validated on its own, then run through ``run_batch``."""
    _check_items(rt, items)
    prepared: list[Any] = []
    for index, raw in enumerate(items):
        try:
            prepared.append(_item(spec, rt, raw, index))
        except ToolFailure as exc:
            prepared.append(exc)
    opts = BatchOptions.parse(options)
    progress = None if ctx is None else client_progress(ctx, "research-mcp")
    if spec.work is None:

        async def run_item(index: int, use_cache: bool) -> Lookup[dict[str, Any]]:
            return await run_one(rt, spec, _value(prepared, index), use_cache)

        return await run_batch(spec.batch_name, list(range(len(items))), run_item, opts, progress)
    return await _run_parsed(rt, spec, prepared, opts, progress)


def _value(prepared: Sequence[Any], index: int) -> Any:
    value = prepared[index]
    if isinstance(value, ToolFailure):
        raise value
    return value


async def _run_parsed(
    rt: Runtime, spec: ToolSpec, prepared: list[Any], opts: BatchOptions, progress: ProgressFn | None
) -> dict[str, Any]:
    """Cache lookups first, one ``nlp.pipe`` over the misses, then ``run_batch`` over the items."""
    cache = rt.caches.registry[spec.cache]
    hits: dict[int, Any] = {}
    to_parse: dict[str, None] = {}
    for index, work in enumerate(prepared):
        if isinstance(work, ToolFailure):
            continue
        if opts.use_cache:
            found, cached = await cache.aget(work.key)
            if found:
                hits[index] = cached
                continue
        to_parse.setdefault(work.parse_text)
    texts = list(to_parse)
    size = sum(len(t) for t in texts)
    if size > rt.settings.max_batch_chars:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"the texts to parse total {size:,} characters; the limit per batch is "
            f"{rt.settings.max_batch_chars:,} (split the batch)",
        )
    total = len(texts) + len(prepared)
    parsed = await rt.parse(texts, progress, total) if texts else []
    docs: Mapping[str, Doc] = dict(zip(texts, parsed, strict=True))

    async def run_item(index: int, use_cache: bool) -> Lookup[dict[str, Any]]:
        work: ParsedWork = _value(prepared, index)
        if index in hits:
            return Lookup(hits[index], True)
        result = await anyio.to_thread.run_sync(work.compute, docs[work.parse_text])
        if use_cache:
            await cache.aput(work.key, result)
        return Lookup(result, False)

    return await run_batch(
        spec.batch_name, list(range(len(prepared))), run_item, opts, _offset(progress, len(texts), total)
    )


def _offset(progress: ProgressFn | None, offset: int, total: int) -> ProgressFn | None:
    """Progress of the item phase, after ``offset`` parse steps, on one monotonic scale."""
    if progress is None:
        return None

    async def report(done: float, _total: float, message: str) -> None:
        await progress(offset + done, total, message)

    return report
