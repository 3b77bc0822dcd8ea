"""Structured content for both tools: the models behind their output schemas.

The text content stays seed 003's (it is written for the model); these models describe the same
answer as data for the application. Each tool returns ``Annotated[CallToolResult, Model]``, as
research-mcp's tools do: the SDK publishes the model's JSON Schema as the tool's
``outputSchema`` and checks every structured result against it, while the text is ours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from .metadata import PaperMeta

__all__ = [
    "PaperEntry",
    "PassageEntry",
    "QueryPaperResult",
    "ReadCall",
    "ResolvePaperResult",
    "SectionEntry",
    "paper_entry",
    "resolve_result",
]


class PaperEntry(BaseModel):
    """One paper of a resolve-paper-id answer, with every field arXiv gave."""

    arxiv_id: str = Field(description="arxiv:XXXX.XXXXX, the id to pass to query-paper")
    version: int | None = Field(
        description="The version arXiv described (the latest when none was asked for)"
    )
    title: str
    authors: list[str]
    year: str
    published: str = Field(description="First version, ISO 8601")
    updated: str = Field(description="This version, ISO 8601")
    primary_category: str
    categories: list[str]
    comment: str | None
    journal_ref: str | None
    doi: str | None
    abstract: str


class ResolvePaperResult(BaseModel):
    """The papers a resolve-paper-id call found, best first (an empty list when none matched)."""

    papers: list[PaperEntry]
    note: str | None = Field(
        default=None, description="Set when arXiv could not be reached and the local library answered"
    )


class ReadCall(BaseModel):
    """The query-paper arguments that read a whole section (or the abstract)."""

    arxivID: str  # the seed's parameter name
    section: str | None = None
    level: str | None = None


class SectionEntry(BaseModel):
    """One section of the paper's outline."""

    number: str = Field(description='The section number ("3.2", "A", "II.A"); "" when unnumbered')
    title: str = Field(description="The heading as printed")
    path: str = Field(description='The section under its ancestors: "3 Model Architecture › 3.2 Attention"')
    part: str = Field(description="body, references or appendix")
    depth: int
    tokens: int = Field(description="About how many tokens the section has, with its subsections")
    call: ReadCall = Field(description="The query-paper arguments that read this section")


class PassageEntry(BaseModel):
    """One passage of a query answer, best first."""

    rank: int
    part: str = Field(description="abstract, body, references or appendix")
    path: str = Field(description="The section path the passage comes from")
    text: str
    tokens: int
    score: float = Field(description="BM25 relevance (higher is better)")
    call: ReadCall = Field(description="The query-paper arguments that read the whole section")


class QueryPaperResult(BaseModel):
    """What a query-paper answer holds, beside its markdown text."""

    arxiv_id: str = Field(description="arxiv:XXXX.XXXXX")
    version: int = Field(description="The exact version the answer was built from")
    title: str
    source: str | None = Field(
        description="Where the full text came from (pdf); null for metadata-only answers"
    )
    level: str
    page: int
    pages: int = Field(description="How many pages this answer has")
    query: str | None = None
    section: SectionEntry | None = Field(default=None, description="The section read, when one was asked for")
    passages: list[PassageEntry] = Field(default_factory=list, description="The passages found for the query")
    sections: list[SectionEntry] = Field(
        default_factory=list,
        description="The sections this answer covers: the outline (abstract level), the level's sections, "
        "or the section read and its subsections",
    )
    markdown: str = Field(description="This page's markdown, without the header (the text content has both)")
    csl_json: dict[str, Any] | None = Field(default=None, description="The paper as a CSL-JSON item")
    bibtex: str | None = Field(
        default=None,
        description="The paper's BibTeX entry (arXiv's style), on the abstract level's last page",
    )


def paper_entry(meta: PaperMeta) -> dict[str, Any]:
    """A ``PaperEntry`` as a JSON-ready dict."""
    aid = meta.arxiv_id
    return PaperEntry(
        arxiv_id=f"arxiv:{aid.base}",
        version=aid.version,
        title=meta.title,
        authors=list(meta.authors),
        year=meta.year,
        published=meta.published,
        updated=meta.updated,
        primary_category=meta.primary_category,
        categories=list(meta.categories),
        comment=meta.comment,
        journal_ref=meta.journal_ref,
        doi=meta.doi,
        abstract=meta.abstract,
    ).model_dump(mode="json")


def resolve_result(papers: Sequence[PaperMeta], note: str | None = None) -> dict[str, Any]:
    """The structured twin of the "Available Papers:" block."""
    return ResolvePaperResult.model_validate(
        {"papers": [paper_entry(p) for p in papers], "note": note}
    ).model_dump(mode="json")
