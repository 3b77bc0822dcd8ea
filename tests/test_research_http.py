"""research-mcp over streamable HTTP on 127.0.0.1: the same tools and error format as over stdio."""

from __future__ import annotations

import pytest
from mcp import Client
from mcp.types import TextContent
from support.servers import http_server

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("stateless", [False, True])
async def test_tools_answer_over_streamable_http(stateless: bool) -> None:
    with http_server("research_mcp", stateless=stateless) as url:
        async with Client(url) as client:
            assert len((await client.list_tools()).tools) == 12
            rated = await client.call_tool("source-rate", {"source_url": "https://www.nature.com/articles/x"})
            assert not rated.is_error and rated.structured_content is not None
            assert rated.structured_content["quality_rating"] == "A", (
                "nature.com is a peer-reviewed publisher (seed: A)"
            )
            entities = await client.call_tool("entity-extract", {"text": "Figma was acquired by Adobe."})
            assert entities.structured_content is not None
            edges = {(e["source"], e["relation"], e["target"]) for e in entities.structured_content["edges"]}
            assert ("Adobe", "acquires", "Figma") in edges
            bad = await client.call_tool("batch-source-rate", {"items": []})
            assert bad.is_error and isinstance(bad.content[0], TextContent)
            assert bad.content[0].text.startswith("Error: VALIDATION_ERROR: ")
