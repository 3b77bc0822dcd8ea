"""papers-mcp: Find arXiv papers and read them as clean markdown.

``build_server`` and ``Settings`` are loaded on first use: a PDF conversion helper process imports
``papers_mcp.pdf_pages`` and must not pay for the MCP server stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import build_server
    from .settings import Settings

__all__ = ["Settings", "build_server"]


def __getattr__(name: str) -> Any:
    if name == "build_server":
        from .server import build_server

        return build_server
    if name == "Settings":
        from .settings import Settings

        return Settings
    raise AttributeError(f"module 'papers_mcp' has no attribute {name!r}")
