"""Build the research-mcp server: the 12 tools of seed 004, each core tool made from its spec
(``tools.py``) as a single tool and a batch-* tool (``batching.py``), plus the two cache tools.

Nothing heavy is imported here: spaCy and its model load on the first tool call that needs
them (``nlp.py``), tldextract on the first rating, httpx on the first URL check.
"""

from importlib.metadata import version
from typing import Annotated

from mcp.types import CallToolResult, ToolAnnotations
from mcp_shared import GuardedMCPServer
from mcp_shared.fleet import connect_store

from .batching import batch_tool, single_tool
from .descriptions import CACHE_CLEAR, CACHE_STATS, INSTRUCTIONS
from .models import CacheClearResult, CacheStatsResult
from .runtime import Runtime, as_result
from .settings import Settings
from .tools import LOCAL_READ_ONLY, SPECS

__all__ = ["INSTRUCTIONS", "build_server"]

CACHE_WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)


def build_server(settings: Settings) -> GuardedMCPServer:
    """A fresh server with its own caches (or a fleet's, in Redis); the spaCy model is loaded on first use.

    Raises:
        SettingsError: ``redis_url`` is set and Redis cannot be reached (CONFIGURATION_ERROR).
    """
    server = GuardedMCPServer("research-mcp", version=version("research-mcp"), instructions=INSTRUCTIONS)
    # The version is part of the namespace: during a rolling upgrade, replicas of two
    # versions never serve each other's cached answers.
    store = connect_store(
        settings.redis_url,
        f"research-mcp:{version('research-mcp')}:",
        variable="RESEARCH_MCP_REDIS_URL",
        timeout=settings.redis_timeout_seconds,
        extra="research-mcp[fleet]",
    )
    if store is not None:
        server.readiness_checks["redis"] = store.ping
    rt = Runtime(settings, store)

    for spec in SPECS:
        server.tool(name=spec.name, description=spec.description, annotations=spec.annotations)(
            single_tool(spec, rt)
        )
    for spec in SPECS:
        server.tool(name=spec.batch_name, description=spec.batch_description, annotations=spec.annotations)(
            batch_tool(spec, rt)
        )

    @server.tool(name="cache-stats", description=CACHE_STATS, annotations=LOCAL_READ_ONLY)
    async def cache_stats() -> Annotated[CallToolResult, CacheStatsResult]:
        return as_result(await rt.caches.stats())

    @server.tool(name="cache-clear", description=CACHE_CLEAR, annotations=CACHE_WRITE)
    async def cache_clear() -> Annotated[CallToolResult, CacheClearResult]:
        return as_result(await rt.caches.clear())

    return server
