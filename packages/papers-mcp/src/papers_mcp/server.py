"""Build the papers-mcp server: tool declarations only, each a thin adapter over ``PapersService``."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import version
from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from mcp_shared import GuardedMCPServer, client_progress, structured_result
from pydantic import Field

from .descriptions import (
    ARXIV_ID_PARAM,
    DIRECTION_PARAM,
    GRAPH_PAGE_PARAM,
    INSTRUCTIONS,
    LEVEL_PARAM,
    MAX_RESULTS_PARAM,
    PAGE_PARAM,
    PAPER_GRAPH,
    PAPER_PARAM,
    QUERY_PAPER,
    QUERY_PARAM,
    RESOLVE_PAPER_ID,
    RESOLVE_QUERY_PARAM,
    SECTION_PARAM,
)
from .fleet import connect_fleet
from .graph import GraphResult, PaperGraph
from .passages import MAX_QUERY_CHARS
from .reading import MAX_SECTION_CHARS
from .results import QueryPaperResult, ResolvePaperResult
from .service import PapersService
from .settings import Settings

__all__ = ["build_server"]

# Both tools only read, and both reach arXiv (an open world); repeating a call is harmless.
ARXIV_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True)

MAX_PAGE = 10_000


def build_server(settings: Settings) -> GuardedMCPServer:
    """A fresh server over ``settings``; nothing touches arXiv or the disk until a tool runs.

    Raises:
        SettingsError: ``redis_url`` is set and Redis cannot be reached (CONFIGURATION_ERROR).
    """
    fleet = connect_fleet(settings)
    service = PapersService(settings, fleet)
    server = GuardedMCPServer("papers-mcp", version=version("papers-mcp"), instructions=INSTRUCTIONS)
    if fleet is not None:
        server.readiness_checks["redis"] = fleet.store.ping

    @server.tool(name="resolve-paper-id", description=RESOLVE_PAPER_ID, annotations=ARXIV_READ_ONLY)
    async def resolve_paper_id(
        query: Annotated[str, Field(description=RESOLVE_QUERY_PARAM, strict=True)],
        max_results: Annotated[int, Field(description=MAX_RESULTS_PARAM, ge=1, le=50, strict=True)] = 10,
    ) -> Annotated[CallToolResult, ResolvePaperResult]:
        answer = await service.resolve(query, max_results)
        return structured_result(answer.text, answer.data)

    @server.tool(name="query-paper", description=QUERY_PAPER, annotations=ARXIV_READ_ONLY)
    async def query_paper(
        ctx: Context,
        arxivID: Annotated[str, Field(description=ARXIV_ID_PARAM, strict=True)],  # seed 003 names it arxivID
        level: Annotated[
            Literal["abstract", "body", "appendix", "all"], Field(description=LEVEL_PARAM)
        ] = "body",
        page: Annotated[int, Field(description=PAGE_PARAM, ge=1, le=MAX_PAGE, strict=True)] = 1,
        query: Annotated[
            str | None, Field(description=QUERY_PARAM, min_length=1, max_length=MAX_QUERY_CHARS, strict=True)
        ] = None,
        section: Annotated[
            str | None,
            Field(description=SECTION_PARAM, min_length=1, max_length=MAX_SECTION_CHARS, strict=True),
        ] = None,
    ) -> Annotated[CallToolResult, QueryPaperResult]:
        answer = await service.query(
            arxivID,
            level,
            page,
            client_progress(ctx, "papers-mcp"),
            question=query,
            section=section,
            level_given=_argument_given(ctx, "level"),
        )
        return structured_result(answer.text, answer.data)

    graph = PaperGraph(service)

    @server.tool(name="paper-graph", description=PAPER_GRAPH, annotations=ARXIV_READ_ONLY)
    async def paper_graph(
        ctx: Context,
        paper: Annotated[str, Field(description=PAPER_PARAM, min_length=1, max_length=300, strict=True)],
        direction: Annotated[
            Literal["references", "citations"], Field(description=DIRECTION_PARAM)
        ] = "references",
        page: Annotated[int, Field(description=GRAPH_PAGE_PARAM, ge=1, le=MAX_PAGE, strict=True)] = 1,
    ) -> Annotated[CallToolResult, GraphResult]:
        answer = await graph.answer(paper, direction, page, client_progress(ctx, "papers-mcp"))
        return structured_result(answer.text, answer.data)

    return server


def _argument_given(ctx: Context, name: str) -> bool:
    """Whether the caller sent ``name`` itself (the schema's default cannot say: a query searches "all")."""
    params = ctx.request_context.params
    arguments = params.get("arguments") if params is not None else None
    return not isinstance(arguments, Mapping) or name in arguments
