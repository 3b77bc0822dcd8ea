"""Where a value sits (its tokens, sentence, line and clause) and what it is about: the records fact-extract passes around."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span


@dataclass(frozen=True, slots=True)
class About:
    """What a value is about, and how the answer was found (the anchor drives confidence)."""

    entity: str
    attribute: str | None
    anchor: (
        str  # subject|object|label|of_noun|relative|prior|apposition|list|coreference|nearest_chunk|measured
    )


@dataclass(frozen=True, slots=True)
class Where:
    """A value's place in the text: its tokens, sentence, line and clause (segment) bounds."""

    text: str
    span: Span
    sent: Span
    line_start: int
    line_end: int
    seg_start: int
    seg_end: int
    this_year: int
    """The year of the request the fact is judged in (a target year from then on is a projection)."""


class NounChunks:
    """The document's noun chunks, computed once and only when a value needs the proximity fallback.

    ``Span.noun_chunks`` re-runs the iterator over the whole document on every call, so a long text
    with many values would pay for it once per value.
    """

    def __init__(self, doc: Doc) -> None:
        self._doc = doc
        self._chunks: list[Span] | None = None
        self._starts: list[int] = []

    def between(self, start: int, end: int) -> list[Span]:
        if self._chunks is None:
            self._chunks = list(self._doc.noun_chunks)
            self._starts = [c.start_char for c in self._chunks]
        i = bisect.bisect_left(self._starts, start)
        out: list[Span] = []
        while i < len(self._chunks) and self._chunks[i].start_char < end:
            if self._chunks[i].end_char <= end:
                out.append(self._chunks[i])
            i += 1
        return out
