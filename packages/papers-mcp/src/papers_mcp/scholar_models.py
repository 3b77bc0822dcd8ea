"""What the scholarly indexes answer, as plain data: kept apart from ``scholar_api`` (requests, the
``arxiv`` client) so the server starts without them and the cache reads without the network code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from .ids import parse_arxiv_id

__all__ = ["Direction", "EdgeChunk", "NotKnown", "ScholarPaper", "ScholarSource", "arxiv_from"]

Direction = Literal["references", "citations"]


class NotKnown(Exception):
    """The index has no such paper (HTTP 404): not a failure, so the other index may be asked."""


@dataclass(frozen=True)
class ScholarPaper:
    """One paper as an index describes it, in resolve-paper-id's fields."""

    title: str
    arxiv_id: str | None = None
    doi: str | None = None
    authors: tuple[str, ...] = ()
    year: str | None = None
    venue: str | None = None
    citation_count: int | None = None
    index_id: str | None = None  # S2 paperId or OpenAlex W-id

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["authors"] = list(self.authors)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScholarPaper:
        count = data.get("citation_count")
        return cls(
            title=str(data.get("title") or ""),
            arxiv_id=data.get("arxiv_id") or None,
            doi=data.get("doi") or None,
            authors=tuple(str(a) for a in data.get("authors") or ()),
            year=str(data["year"]) if data.get("year") else None,
            venue=data.get("venue") or None,
            citation_count=int(count) if isinstance(count, int) else None,
            index_id=data.get("index_id") or None,
        )


@dataclass(frozen=True)
class EdgeChunk:
    """One page of an index's list: its papers, where the next page starts (None: the end), the total."""

    papers: list[ScholarPaper]
    next_token: str | None
    total: int | None = None
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "papers": [p.to_dict() for p in self.papers],
            "next_token": self.next_token,
            "total": self.total,
            "source": self.source,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EdgeChunk:
        return cls(
            papers=[ScholarPaper.from_dict(p) for p in data["papers"]],
            next_token=data.get("next_token"),
            total=data.get("total"),
            source=str(data.get("source") or ""),
        )


def arxiv_from(value: str | None) -> str | None:
    parsed = parse_arxiv_id(value) if value else None
    return parsed.text if parsed is not None else None


class ScholarSource:
    """What paper-graph asks an index: one paper, and its references or citations a chunk at a time."""

    name: str

    @staticmethod
    def paper_ref(arxiv_id: str | None = None, doi: str | None = None) -> str:
        """How this index names a paper given its arXiv id (base) or DOI."""
        raise NotImplementedError

    def paper(self, ref: str) -> ScholarPaper:
        raise NotImplementedError

    def edges(self, ref: str, direction: Direction, token: str | None) -> EdgeChunk:
        raise NotImplementedError

    def batch(self, refs: Sequence[str]) -> list[ScholarPaper | None]:
        """Many papers at once (a None for each one unknown); an index without it says so with NotKnown."""
        raise NotKnown("no batch lookup")
