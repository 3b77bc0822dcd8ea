"""One spec per core tool: its arguments, result, cache and compute step, from which ``server.py`` makes
both the single tool and its batch-* tool.

An argument model is the tool's input schema and a batch item's schema alike (strict types, unknown
fields refused), so a batch item and a single call are validated by the same rules and share a cache
entry. A tool that reads text through spaCy (``work``) says what the parser reads and how a parsed
text becomes the answer; the batch runner then parses all of a batch's texts in one ``nlp.pipe``
stream, and a single call parses its one text the same way. The other tools (``call``) compute from
their arguments directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any

from mcp.types import ToolAnnotations
from mcp_shared import Lookup
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from . import descriptions as text
from .conflicts import FactInput, Tolerance
from .entities import extract_entities, prepare_text
from .markup import mask_markup
from .models import (
    CitationIn,
    CitationValidateResult,
    ConflictDetectResult,
    EntityExtractResult,
    FactExtractResult,
    SourceMetadata,
    SourceRateResult,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from .runtime import Runtime

__all__ = ["SPECS", "ParsedWork", "ToolSpec"]

LOCAL_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
OPEN_WORLD_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True)

_TEXT = "The text to read (at most {max_text_chars:,} characters)."


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FactArgs(_Args):
    text: Annotated[StrictStr, Field(description=_TEXT)]
    source_url: Annotated[StrictStr | None, Field(description="Where the text comes from.")] = None
    source_metadata: Annotated[
        SourceMetadata | None, Field(description="title, author, date of the source.")
    ] = None

    def metadata(self) -> dict[str, Any] | None:
        return self.source_metadata.model_dump(exclude_none=True) if self.source_metadata else None


class EntityArgs(_Args):
    text: Annotated[StrictStr, Field(description=_TEXT)]
    entity_types: Annotated[
        list[StrictStr] | None,
        Field(
            description="Types to return: company, person, technology, location, organization, product, event, "
            "method, dataset, metric, task."
        ),
    ] = None
    extract_relations: Annotated[StrictBool, Field(description="Also return relation edges.")] = True


class CitationArgs(_Args):
    citations: Annotated[
        list[CitationIn], Field(description="1-{max_citations} citations, each with at least a claim.")
    ]
    verify_urls: Annotated[
        StrictBool, Field(description="Fetch each URL and report status and redirects.")
    ] = False
    check_accuracy: Annotated[
        StrictBool,
        Field(
            description="Read each page (or source_text) and judge the claim: supported, contradicted, "
            "not_found or unverifiable, with evidence passages."
        ),
    ] = False


class SourceArgs(_Args):
    source_url: Annotated[
        StrictStr, Field(description="URL or domain of the source, e.g. https://www.nature.com/articles/x.")
    ]
    source_type: Annotated[
        StrictStr | None,
        Field(description="What the caller believes it is: academic, industry, news, blog or official."),
    ] = None
    metadata: Annotated[dict[str, Any] | None, Field(description="Anything else known about the source.")] = (
        None
    )


class ConflictArgs(_Args):
    facts: Annotated[list[FactInput], Field(description="The facts to compare (at most {max_facts}).")]
    tolerance: Annotated[
        Tolerance | None,
        Field(description="numerical_threshold: relative difference still treated as agreement."),
    ] = None


@dataclass(frozen=True)
class ParsedWork:
    """One text-reading call, checked and ready: its cache key, what the parser reads, what makes the answer."""

    text: str
    """The caller's text (evidence offsets point into it)."""
    key: str
    compute: Callable[[Doc], dict[str, Any]]
    reader: Callable[[str], str]
    """Turns the text into what spaCy reads (same length, markup blanked out)."""

    @cached_property
    def parse_text(self) -> str:
        """What spaCy reads; made only on a cache miss (a hit never pays for it)."""
        return self.reader(self.text)


@dataclass(frozen=True)
class ToolSpec:
    """A core tool, declared once."""

    name: str
    args: type[_Args]
    result: type[BaseModel]
    description: str
    annotations: ToolAnnotations
    cache: str
    shorthand: Callable[[Any], Any]
    """A batch item's short form (a bare string, a bare list) as the argument object."""
    work: Callable[[Runtime, Any], ParsedWork] | None = None
    call: Callable[[Runtime, Any, bool], Awaitable[Lookup[dict[str, Any]]]] | None = None

    @property
    def batch_name(self) -> str:
        return f"batch-{self.name}"

    @property
    def batch_description(self) -> str:
        return text.BATCH_DESCRIPTIONS[self.name]


def _fact_work(rt: Runtime, args: FactArgs) -> ParsedWork:
    source = rt.check_text(args.text)
    meta = args.metadata()
    today = date.today()  # the request's date: whether a year is past or to come is judged against it
    return ParsedWork(
        source,
        rt.fact_key(source, args.source_url, meta),
        lambda doc: rt.facts_from_doc(doc, args.source_url, meta, source, today),
        mask_markup,  # a paper's math and citations are not prose
    )


def _entity_work(rt: Runtime, args: EntityArgs) -> ParsedWork:
    source = rt.check_text(args.text)
    types = rt.entity_types(args.entity_types)
    relations = args.extract_relations
    return ParsedWork(
        source,
        rt.entity_key(source, types, relations),
        lambda doc: extract_entities(doc, types, relations, source_text=source),
        prepare_text,
    )


def _citation_call(rt: Runtime, args: CitationArgs, use_cache: bool) -> Awaitable[Lookup[dict[str, Any]]]:
    return rt.citation_validate(args.citations, args.verify_urls, args.check_accuracy, use_cache)


def _source_call(rt: Runtime, args: SourceArgs, use_cache: bool) -> Awaitable[Lookup[dict[str, Any]]]:
    return rt.source_rate(args.source_url, args.source_type, args.metadata, use_cache)


def _conflict_call(rt: Runtime, args: ConflictArgs, use_cache: bool) -> Awaitable[Lookup[dict[str, Any]]]:
    return rt.conflict_detect(args.facts, args.tolerance, use_cache)


def _text_item(raw: Any) -> Any:
    return {"text": raw} if isinstance(raw, str) else raw


def _citation_item(raw: Any) -> Any:
    return {"citations": [raw]} if isinstance(raw, dict) and "citations" not in raw else raw


SPECS: tuple[ToolSpec, ...] = (
    ToolSpec(
        "fact-extract", FactArgs, FactExtractResult, text.FACT_EXTRACT, LOCAL_READ_ONLY, "factCache",
        _text_item, work=_fact_work,
    ),
    ToolSpec(
        "entity-extract", EntityArgs, EntityExtractResult, text.ENTITY_EXTRACT, LOCAL_READ_ONLY, "entityCache",
        _text_item, work=_entity_work,
    ),
    ToolSpec(
        "citation-validate", CitationArgs, CitationValidateResult, text.CITATION_VALIDATE, OPEN_WORLD_READ_ONLY,
        "citationCache", _citation_item, call=_citation_call,
    ),
    ToolSpec(
        "source-rate", SourceArgs, SourceRateResult, text.SOURCE_RATE, LOCAL_READ_ONLY, "sourceRatingCache",
        lambda raw: {"source_url": raw} if isinstance(raw, str) else raw, call=_source_call,
    ),
    ToolSpec(
        "conflict-detect", ConflictArgs, ConflictDetectResult, text.CONFLICT_DETECT, LOCAL_READ_ONLY,
        "conflictCache", lambda raw: {"facts": raw} if isinstance(raw, list) else raw, call=_conflict_call,
    ),
)  # fmt: skip
"""The five core tools of seed 004, in its order."""
