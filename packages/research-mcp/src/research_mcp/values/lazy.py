"""Regular expressions compiled on first use, so importing ``research_mcp.values`` compiles nothing.

The servers import this package at start-up (conflict-detect's argument models name its types); its
patterns, the currency tries above all, cost tens of milliseconds to compile, paid now only by the
first call that reads a value. After that first use the stand-in holds the compiled pattern's own
bound methods, so a call costs what a call on the compiled pattern costs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, cast

__all__ = ["lazy_re"]

_METHODS = (
    "match",
    "search",
    "fullmatch",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "pattern",
    "flags",
    "groupindex",
)


class _LazyPattern:
    def __init__(self, source: str | Callable[[], str], flags: int) -> None:
        self._source = source
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in ("_source", "_flags"):
            raise AttributeError(name)
        source = self._source() if callable(self._source) else self._source
        compiled = re.compile(source, self._flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


def lazy_re(source: str | Callable[[], str], flags: int = 0) -> re.Pattern[str]:
    """``re.compile(source, flags)`` on first use; ``source`` may be a function that builds the pattern."""
    return cast("re.Pattern[str]", _LazyPattern(source, flags))
