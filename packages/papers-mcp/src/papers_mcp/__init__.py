"""papers-mcp: Find arXiv papers and read them as clean markdown."""

from .server import build_server
from .settings import Settings

__all__ = ["Settings", "build_server"]
