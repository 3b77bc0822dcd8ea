"""query-paper's levels and the parts of a paper each one shows: the one table for all readers.

Rendering a level (``render.render_paper``), finding a level's sections (``reading``) and
searching a level's passages (``passages``) all read ``LEVEL_PARTS``, so a new level or a new
part is one row here. The parts, in the order an answer shows them: ``abstract`` (arXiv's
abstract), ``front`` (the paper's own front matter), ``body``, ``references``, ``appendix``.
"""

from __future__ import annotations

from typing import Literal

__all__ = ["LEVEL_PARTS", "Level", "passage_parts", "section_parts"]

Level = Literal["abstract", "body", "appendix", "all"]

LEVEL_PARTS: dict[str, tuple[str, ...]] = {
    "abstract": ("abstract",),
    "body": ("abstract", "body"),
    "appendix": ("appendix",),
    "all": ("abstract", "front", "body", "references", "appendix"),
}

_SECTIONED = ("body", "references", "appendix")  # the parts an outline has sections in
_INDEXED = ("abstract", "body", "references", "appendix")  # the parts passages are cut from


def section_parts(level: str) -> tuple[str, ...]:
    """The parts whose sections a level offers; a level without any (``abstract``) offers them all."""
    return tuple(p for p in LEVEL_PARTS[level] if p in _SECTIONED) or _SECTIONED


def passage_parts(level: str) -> tuple[str, ...]:
    """The parts a level's passages come from (the front matter is not indexed)."""
    return tuple(p for p in LEVEL_PARTS[level] if p in _INDEXED)
