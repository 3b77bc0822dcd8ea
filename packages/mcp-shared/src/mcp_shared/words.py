"""Word lists both servers read, each kept once as a data file with its source (``mcp_shared/data``)."""

from __future__ import annotations

from functools import cache
from importlib.resources import files

__all__ = ["name_particles"]


def _lines(name: str) -> frozenset[str]:
    text = files("mcp_shared").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(s for line in text.splitlines() if (s := line.strip()) and not s.startswith("#"))


@cache
def name_particles() -> frozenset[str]:
    """Lower-case particles inside personal names ("de", "van", "bin"): part of a surname, not a word."""
    return _lines("name_particles.txt")
