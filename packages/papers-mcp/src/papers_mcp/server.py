"""Build the papers-mcp server: tool declarations only, each a thin adapter."""

from __future__ import annotations

from importlib.metadata import version

from mcp_shared import GuardedMCPServer

from .settings import Settings


def build_server(settings: Settings) -> GuardedMCPServer:
    server = GuardedMCPServer("papers-mcp", version=version("papers-mcp"))
    return server
