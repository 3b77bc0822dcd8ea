"""Build the research-mcp server: the 12 tools of seed 004, each a thin adapter over ``Runtime``.

Nothing heavy is imported here: spaCy and its model load on the first tool call that needs
them (``nlp.py``), tldextract on the first rating, httpx on the first URL check.
"""

from importlib.metadata import version
from typing import Annotated, Any

from mcp.types import CallToolResult, ToolAnnotations
from mcp_shared import GuardedMCPServer, RedisStore
from pydantic import Field

from .batch_tools import register_batch_tools
from .conflicts import FactInput, Tolerance
from .models import (
    CacheClearResult,
    CacheStatsResult,
    CitationIn,
    CitationValidateResult,
    ConflictDetectResult,
    EntityExtractResult,
    FactExtractResult,
    SourceMetadata,
    SourceRateResult,
)
from .runtime import Runtime, as_result
from .settings import Settings

__all__ = ["INSTRUCTIONS", "build_server"]

LOCAL_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
OPEN_WORLD_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True)
CACHE_WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)

INSTRUCTIONS = """\
Research data tools. Typical flow for a report: fact-extract each source text (numbers with \
entity, attribute, period and confidence), entity-extract for who/what and relations \
(acquires, invests_in, partners_with, founded_by, ...), source-rate each source URL (A-E), \
citation-validate the report's citations, then conflict-detect over the facts gathered from \
different sources. For more than a few inputs use the batch-* variant (one call, shared cache, \
per-item errors). Results are cached (cache-stats, cache-clear). Errors read \
"Error: <CODE>: <message>"; VALIDATION_ERROR means fix the arguments and retry.\
"""

FACT_EXTRACT = """\
Extract atomic facts (numbers, money, percentages, dates) from text with source attribution.
Input: text (required), source_url, source_metadata {title, author, date}.
Output: facts [{entity, attribute, value, value_type, confidence (High/Medium/Low), source {url, title}, \
numeric_value, period, sentence, metric and dataset for a paper's results (tables and prose), found_by, ...}], \
extraction_quality (0-10), metadata {total_facts, processing_time_ms}.\
"""
ENTITY_EXTRACT = """\
Extract named entities and relationships from text.
Input: text (required), entity_types (any of company, person, technology, location, organization, \
product, event, method, dataset, metric, task; default all), extract_relations (default true).
Output: entities [{name, type, aliases, description, mentions, confidence}], edges [{source, target, \
relation (acquires, invests_in, partners_with, competes_with, founded_by, develops, evaluated_on, \
outperforms, uses, ...), confidence, \
evidence (the sentence), evidence_start, evidence_end}], metadata {total_entities, total_relationships}. \
Negated, hedged or planned statements give no edge.\
"""
CITATION_VALIDATE = """\
Validate citations for completeness (claim, author, date, title, url) and validity (impossible dates, \
malformed URLs/DOIs, a title that is only a URL), and rate each URL's source A-E.
Input: citations [{claim (required), author, date, title, url, doi}], verify_urls (fetch each URL: \
status, redirects; look each DOI up at Crossref/doi.org: registered, retracted, corrected, and whether the \
title, author and year are the registered ones), check_accuracy (fetch the page and check the claim's \
numbers and names appear in it).
Output: total_citations, complete_citations, quality_distribution {A..E}, issues [{citation_index, \
field, issue, severity, detail}], valid_citations, citations [per-citation details].\
"""
SOURCE_RATE = """\
Rate a source's quality on an A-E scale from its registered domain: A peer-reviewed/academic/government \
(.edu, .ac.uk, .gov, nature.com...), B preprints, industry reports, official company sites, C established \
news, D blogs/personal/user-generated sites, E unknown, bare IPs and look-alike domains.
Input: source_url (required), source_type (academic|industry|news|blog|official; informs, never overrides), metadata.
Output: quality_rating, justification, credibility_indicators, domain, category, confidence.\
"""
CONFLICT_DETECT = """\
Detect conflicts between facts from different sources (same entity and attribute, different values).
Input: facts [{entity, attribute, value, value_type, source}] (fact-extract's facts work as they are), \
tolerance {numerical_threshold} (default 0.1 = 10%).
Output: total_conflicts, conflicts [{entity, attribute, type, severity, values, sources, \
difference_percentage, possible_explanation}], severity_summary {critical, moderate, minor}.\
"""
CACHE_STATS = """\
Get cache statistics for all tool caches.
Output: factCache, entityCache, citationCache, sourceRatingCache, conflictCache, each {size, hits, misses, \
hitRate, maxSize, ttlSeconds}.\
"""
CACHE_CLEAR = 'Clear all tool caches. Output: {"success": true, "message": "All caches cleared"}.'


def build_server(settings: Settings) -> GuardedMCPServer:
    """A fresh server with its own caches (or a fleet's, in Redis); the spaCy model is loaded on first use.

    Raises:
        SettingsError: ``redis_url`` is set and Redis cannot be reached (CONFIGURATION_ERROR).
    """
    server = GuardedMCPServer("research-mcp", version=version("research-mcp"), instructions=INSTRUCTIONS)
    store = None
    if settings.redis_url:
        # The version is part of the namespace: during a rolling upgrade, replicas of two
        # versions never serve each other's cached answers.
        store = RedisStore.connect(
            settings.redis_url,
            f"research-mcp:{version('research-mcp')}:",
            variable="RESEARCH_MCP_REDIS_URL",
            timeout=settings.redis_timeout_seconds,
        )
        server.readiness_checks["redis"] = store.ping
    rt = Runtime(settings, store)

    @server.tool(name="fact-extract", description=FACT_EXTRACT, annotations=LOCAL_READ_ONLY)
    async def fact_extract(
        text: Annotated[
            str, Field(description=f"The text to read (at most {settings.max_text_chars:,} characters).")
        ],
        source_url: Annotated[str | None, Field(description="Where the text comes from.")] = None,
        source_metadata: Annotated[
            SourceMetadata | None, Field(description="title, author, date of the source.")
        ] = None,
    ) -> Annotated[CallToolResult, FactExtractResult]:
        meta = source_metadata.model_dump(exclude_none=True) if source_metadata else None
        found = await rt.fact_extract(text, source_url, meta)
        return as_result(found.value)

    @server.tool(name="entity-extract", description=ENTITY_EXTRACT, annotations=LOCAL_READ_ONLY)
    async def entity_extract(
        text: Annotated[
            str, Field(description=f"The text to read (at most {settings.max_text_chars:,} characters).")
        ],
        entity_types: Annotated[
            list[str] | None,
            Field(
                description="Types to return: company, person, technology, location, organization, product, event, "
                "method, dataset, metric, task."
            ),
        ] = None,
        extract_relations: Annotated[bool, Field(description="Also return relation edges.")] = True,
    ) -> Annotated[CallToolResult, EntityExtractResult]:
        found = await rt.entity_extract(text, entity_types, extract_relations)
        return as_result(found.value)

    @server.tool(name="citation-validate", description=CITATION_VALIDATE, annotations=OPEN_WORLD_READ_ONLY)
    async def citation_validate(
        citations: Annotated[
            list[CitationIn],
            Field(description=f"1-{settings.max_citations} citations, each with at least a claim."),
        ],
        verify_urls: Annotated[
            bool, Field(description="Fetch each URL and report status and redirects.")
        ] = False,
        check_accuracy: Annotated[
            bool, Field(description="Fetch each page and check the claim's numbers and names appear in it.")
        ] = False,
    ) -> Annotated[CallToolResult, CitationValidateResult]:
        found = await rt.citation_validate(citations, verify_urls, check_accuracy)
        return as_result(found.value)

    @server.tool(name="source-rate", description=SOURCE_RATE, annotations=LOCAL_READ_ONLY)
    async def source_rate(
        source_url: Annotated[
            str, Field(description="URL or domain of the source, e.g. https://www.nature.com/articles/x.")
        ],
        source_type: Annotated[
            str | None,
            Field(description="What the caller believes it is: academic, industry, news, blog or official."),
        ] = None,
        metadata: Annotated[
            dict[str, Any] | None, Field(description="Anything else known about the source.")
        ] = None,
    ) -> Annotated[CallToolResult, SourceRateResult]:
        found = await rt.source_rate(source_url, source_type, metadata)
        return as_result(found.value)

    @server.tool(name="conflict-detect", description=CONFLICT_DETECT, annotations=LOCAL_READ_ONLY)
    async def conflict_detect(
        facts: Annotated[
            list[FactInput], Field(description=f"The facts to compare (at most {settings.max_facts}).")
        ],
        tolerance: Annotated[
            Tolerance | None,
            Field(description="numerical_threshold: relative difference still treated as agreement."),
        ] = None,
    ) -> Annotated[CallToolResult, ConflictDetectResult]:
        found = await rt.conflict_detect(facts, tolerance)
        return as_result(found.value)

    register_batch_tools(server, rt, LOCAL_READ_ONLY, OPEN_WORLD_READ_ONLY)

    @server.tool(name="cache-stats", description=CACHE_STATS, annotations=LOCAL_READ_ONLY)
    async def cache_stats() -> Annotated[CallToolResult, CacheStatsResult]:
        return as_result(await rt.caches.stats())

    @server.tool(name="cache-clear", description=CACHE_CLEAR, annotations=CACHE_WRITE)
    async def cache_clear() -> Annotated[CallToolResult, CacheClearResult]:
        return as_result(await rt.caches.clear())

    return server
