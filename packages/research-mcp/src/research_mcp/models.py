"""Input and result models: the seed's field names (snake_case results, camelCase batch fields).

Result models give each tool an output schema; the seed's fields are required, extra
fields that make a result more useful are declared too, and the fact and conflict models
allow more fields than they list (their logic adds some).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr, field_validator

__all__ = [
    "BatchItemResult",
    "BatchResult",
    "BatchSummary",
    "CacheClearResult",
    "CacheStatsEntry",
    "CacheStatsResult",
    "CitationIn",
    "CitationValidateResult",
    "ConflictDetectResult",
    "DoiCheck",
    "DoiNotice",
    "EntityExtractResult",
    "FactExtractResult",
    "SourceMetadata",
    "SourceRateResult",
]

Grade = Literal["A", "B", "C", "D", "E"]


# ----------------------------------------------------------------------------- inputs


class SourceMetadata(BaseModel):
    """Where a text came from (all optional); copied into each fact's ``source``."""

    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)

    title: str | None = Field(default=None, description="Title of the source document.")
    author: str | None = Field(default=None, description="Author(s) of the source document.")
    date: str | None = Field(
        default=None, description="Publication date, e.g. 2024-03-05 (a year as a number is fine)."
    )


class CitationIn(BaseModel):
    """One citation: the claim it supports and where it comes from."""

    model_config = ConfigDict(extra="forbid")

    claim: Annotated[
        StrictStr, Field(min_length=1, max_length=5_000, description="The statement the citation supports.")
    ]
    author: StrictStr | None = Field(default=None, description="Author(s), e.g. 'Vaswani et al.'.")
    date: StrictStr | None = Field(
        default=None, description="Publication date, e.g. 2017-06-12 or 'June 2017'."
    )
    title: StrictStr | None = Field(default=None, description="Title of the cited work.")
    url: StrictStr | None = Field(
        default=None, description="http(s) URL of the cited work (or doi:10.xxx/yyy)."
    )
    doi: StrictStr | None = Field(default=None, description="Optional DOI, e.g. 10.48550/arXiv.1706.03762.")
    source_text: Annotated[StrictStr, Field(max_length=2_000_000)] | None = Field(
        default=None,
        description="Optional text of the source the caller already holds (e.g. a query-paper passage): "
        "check_accuracy reads it instead of fetching url.",
    )

    @field_validator("claim")
    @classmethod
    def _claim_not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


# ----------------------------------------------------------------------------- results


class FactOut(BaseModel):
    """One atomic fact: the seed's fields, plus numeric_value, currency, unit, period, is_projection,
    qualifier, sentence, value_span, confidence_features, ... (kept schema-light: a cached call is
    dominated by the client validating the output schema)."""

    model_config = ConfigDict(extra="allow")

    entity: str
    attribute: str
    value: str
    value_type: str = Field(description="number, currency, percentage, date or text.")
    confidence: str = Field(description="High, Medium or Low.")
    source: dict[str, Any] = Field(description="{url, title} (plus author, date when given).")
    metric: str | None = Field(default=None, description="A result's metric, e.g. BLEU (papers).")
    dataset: str | None = Field(default=None, description="A result's dataset, e.g. WMT 2014 English-German.")
    task: str | None = Field(default=None, description="A result's task, when the text names it.")
    found_by: str | None = Field(default=None, description="table, prose or parse: how the fact was found.")


class FactMetadata(BaseModel):
    model_config = ConfigDict(extra="allow")

    total_facts: int
    processing_time_ms: float


class FactExtractResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    facts: list[FactOut]
    extraction_quality: float = Field(description="0-10: how well the facts are anchored, typed and dated.")
    metadata: FactMetadata


class EntityOut(BaseModel):
    name: str
    type: str = Field(
        description="company, person, technology, location, organization, product, event, method, dataset, "
        "metric or task."
    )
    aliases: list[str] = Field(description="Other names for the same entity in the text.")
    description: str | None = None
    mentions: int = Field(description="How many times the entity is mentioned.")
    confidence: float = Field(description="0-1: how sure the name and type are.")
    spacy_labels: list[str] = Field(description="The NER labels (or LEXICON/PROPN) behind the entity.")
    offsets: list[list[int]] = Field(description="[start, end) character offsets of the first mentions.")


class EdgeOut(BaseModel):
    source: str
    target: str
    relation: str = Field(
        description="acquires, invests_in, partners_with, competes_with, founded_by, develops, ..., "
        "evaluated_on, outperforms, uses."
    )
    confidence: float = Field(description="0-1, from the dependency pattern that matched.")
    evidence: str = Field(description="The sentence that states the relation.")
    evidence_start: int = Field(description="Character offset of the evidence sentence in the text.")
    evidence_end: int
    pattern: str = Field(description="active_dobj, active_prep, passive_agent, sold_to, reciprocal_subjects.")
    modality: str = Field(description="asserted, future ('will acquire') or agreed ('agreed to acquire').")
    occurrences: int
    metric: str | None = Field(default=None, description="outperforms: the metric the sentence names.")


class EntityMetadata(BaseModel):
    total_entities: int
    total_relationships: int
    entity_types: list[str]
    relations_extracted: bool
    processing_time_ms: float


class EntityExtractResult(BaseModel):
    entities: list[EntityOut]
    edges: list[EdgeOut]
    metadata: EntityMetadata


class CitationIssue(BaseModel):
    citation_index: int
    field: str
    issue: str = Field(
        description="missing, malformed_url, malformed_doi, impossible_date, future_date, retracted, "
        "doi_not_found, corrected, title_mismatch, ..."
    )
    severity: Literal["error", "warning"]
    detail: str


class DoiNotice(BaseModel):
    """A registered update of a work: a correction, retraction, expression of concern, ..."""

    model_config = ConfigDict(extra="allow")

    doi: str | None = Field(description="DOI of the notice.")
    type: str | None = Field(
        description="Crossref update type: retraction, correction, expression_of_concern, erratum, withdrawal, ..."
    )
    source: str | None = Field(description="Who recorded it: publisher or retraction-watch.")
    date: str | None = Field(description="When it was issued (YYYY-MM-DD).")


class DoiCheck(BaseModel):
    """What the scholarly record says about a citation's DOI (verify_urls)."""

    model_config = ConfigDict(extra="allow")

    checked: bool = Field(description="False when there was no DOI, or no service answered (see reason).")
    doi: str | None = None
    reason: str | None = None
    found: bool | None = Field(
        default=None, description="Registered (Crossref, or another agency via doi.org)."
    )
    source: str | None = Field(
        default=None, description="crossref, doi.org, or crossref+doi.org when not found."
    )
    agency: str | None = Field(default=None, description="Crossref; null when only doi.org knows the DOI.")
    title: str | None = Field(default=None, description="The registered title.")
    container: str | None = Field(default=None, description="Journal, book or proceedings title.")
    published: str | None = Field(default=None, description="Registered publication date (YYYY[-MM[-DD]]).")
    retracted: bool | None = Field(default=None, description="A retraction (or withdrawal) is registered.")
    notices: list[DoiNotice] | None = Field(default=None, description="Registered updates (updated-by).")
    updates: list[DoiNotice] | None = Field(
        default=None, description="Works this DOI is itself a notice about (update-to)."
    )
    title_match: float | None = Field(
        default=None, description="0-1 similarity of the given and registered titles."
    )
    author_match: bool | None = Field(
        default=None, description="A registered author's family name is in author."
    )
    date_match: bool | None = Field(
        default=None, description="The given year is within one of the registered one."
    )


class CitationDetail(BaseModel):
    model_config = ConfigDict(extra="allow")

    index: int
    quality_rating: Grade
    complete: bool
    missing_fields: list[str]
    errors: int
    warnings: int
    doi_check: DoiCheck | None = None


class CitationValidateResult(BaseModel):
    total_citations: int
    complete_citations: int = Field(description="All of claim, author, date, title, url present and valid.")
    quality_distribution: dict[str, int] = Field(description="Counts of A-E over the citations' URLs.")
    issues: list[CitationIssue]
    valid_citations: int = Field(description="Citations without any error-level issue.")
    citations: list[CitationDetail]
    checks: dict[str, bool]


class SourceRateResult(BaseModel):
    quality_rating: Grade
    justification: str
    credibility_indicators: list[str]
    domain: str = Field(description="The registered domain the rating is based on.")
    host: str
    category: str = Field(
        description="academic, government, publisher, institution, preprint, industry, company, news, blog, "
        "unknown, ip_address or lookalike."
    )
    confidence: float = Field(description="0-1: how sure the rating is.")
    source_type: str | None = None
    metadata_considered: list[str] | None = None


class ConflictOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    entity: str
    attribute: str
    type: str
    severity: str
    values: list[str]
    sources: list[str | None]


class ConflictDetectResult(BaseModel):
    model_config = ConfigDict(extra="allow")

    total_conflicts: int
    conflicts: list[ConflictOut]
    severity_summary: dict[str, int]


class BatchItemResult(BaseModel):
    id: str
    success: bool
    data: dict[str, Any] | None
    error: str | None
    processingTimeMs: float
    cacheHit: bool = False
    skipped: bool | None = None


class BatchSummary(BaseModel):
    total: int
    successful: int
    failed: int
    skipped: int = 0
    totalTimeMs: float
    avgTimeMs: float
    cacheHitRate: float


class BatchResult(BaseModel):
    tool: str
    results: list[BatchItemResult]
    summary: BatchSummary


class CacheStatsEntry(BaseModel):
    size: int
    hits: int
    misses: int
    hitRate: float
    maxSize: int
    ttlSeconds: float


class CacheStatsResult(BaseModel):
    factCache: CacheStatsEntry
    entityCache: CacheStatsEntry
    citationCache: CacheStatsEntry
    sourceRatingCache: CacheStatsEntry
    conflictCache: CacheStatsEntry


class CacheClearResult(BaseModel):
    success: bool
    message: str
