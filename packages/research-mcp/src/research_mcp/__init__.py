"""research-mcp: Extract facts and entities, validate citations, rate sources, detect conflicting facts."""

from .server import build_server
from .settings import Settings

__all__ = ["Settings", "build_server"]
