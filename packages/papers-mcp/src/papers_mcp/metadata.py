"""A paper's arXiv metadata as plain data: what the library stores and the renderer shows.

Kept apart from ``arxiv_api`` so the library and the renderer never import the ``arxiv``
client (and with it requests and lxml): start-up stays fast and offline answers need no network code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .ids import ArxivId, parse_arxiv_id

__all__ = ["PaperMeta"]


@dataclass(frozen=True)
class PaperMeta:
    """One version of one paper, as arXiv's API describes it."""

    id: str  # versioned when arXiv said so: "1706.03762v5", "quant-ph/9508027v2"
    title: str
    authors: tuple[str, ...]
    abstract: str
    published: str  # ISO 8601, first version
    updated: str  # ISO 8601, this version
    primary_category: str
    categories: tuple[str, ...] = field(default=())
    comment: str | None = None
    journal_ref: str | None = None
    doi: str | None = None

    @property
    def arxiv_id(self) -> ArxivId:
        parsed = parse_arxiv_id(self.id)
        if parsed is None:  # only ids arXiv itself sent reach here; guard the library anyway
            raise ValueError(f"metadata carries a malformed arXiv id: {self.id!r}")
        return parsed

    @property
    def year(self) -> str:
        return self.published[:4] if self.published[:4].isdigit() else "N/A"

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["authors"] = list(self.authors)
        data["categories"] = list(self.categories)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PaperMeta:
        """Rebuild from ``to_dict``; raises ``ValueError``/``KeyError``/``TypeError`` on a corrupt record."""
        return cls(
            id=str(data["id"]),
            title=str(data["title"]),
            authors=tuple(str(a) for a in data["authors"]),
            abstract=str(data["abstract"]),
            published=str(data["published"]),
            updated=str(data["updated"]),
            primary_category=str(data["primary_category"]),
            categories=tuple(str(c) for c in data.get("categories") or ()),
            comment=data.get("comment") or None,
            journal_ref=data.get("journal_ref") or None,
            doi=data.get("doi") or None,
        )
