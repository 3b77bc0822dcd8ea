"""A successful tool result with both faces: the text the model reads and the data an application reads.

Both servers declare their tools as returning ``Annotated[CallToolResult, Model]``: the SDK
publishes ``Model``'s JSON Schema as the tool's ``outputSchema`` and validates
``structured_content`` against it, while the text content is whatever the tool chooses
(papers-mcp keeps seed 003's markdown; research-mcp sends compact JSON).
"""

from __future__ import annotations

from typing import Any

from mcp.types import CallToolResult, TextContent

__all__ = ["structured_result"]


def structured_result(text: str, structured: dict[str, Any]) -> CallToolResult:
    """One text block plus ``structured`` as the result's ``structuredContent``."""
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=structured)
