"""papers-mcp's word lists, kept as data (``papers_mcp/data/stopwords.json``, with its source)."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Literal

__all__ = ["stop_words"]


@cache
def stop_words(use: Literal["passage_query", "search_terms", "citation_key"]) -> frozenset[str]:
    """The function words dropped from a question (``passage_query``), from arXiv search terms, or from
    the title words of a BibTeX key (``citation_key``)."""
    data = json.loads(files("papers_mcp").joinpath("data", "stopwords.json").read_text(encoding="utf-8"))
    return frozenset(data[use])
