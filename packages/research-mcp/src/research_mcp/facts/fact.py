"""A fact while fact-extract builds it: one typed record, refined by named steps, turned into the seed's
dict once, at the end (``to_dict``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..values import Period

__all__ = ["Fact"]


@dataclass(frozen=True, slots=True)
class Fact:
    """One (entity, attribute, value) fact with its place in the text and the features behind its confidence.

    Frozen: a step that refines a fact (a "respectively" owner, an interval's estimate) makes a new one
    with ``dataclasses.replace``.
    """

    entity: str
    attribute: str | None
    value: str
    value_type: str
    confidence: str
    numeric_value: float | None
    value_kind: str
    currency: str | None
    unit: str | None
    scale: str | None
    low: float | None  # a range's bounds; ``None`` for a single value
    high: float | None
    direction: str | None
    period: Period | None
    is_projection: bool
    comparison: str | None  # "prior" for an earlier value of the same measure ("down from £6.9bn")
    qualifier: str | None  # the hedge word ("about", "nearly"), lower case
    value_span: tuple[int, int]
    sentence_span: tuple[int, int]
    sentence: str
    anchor: str  # how the owner was found: see ``About.anchor``
    typed_value: bool
    has_period: bool  # whether a period was found when the fact was made (a later step may lend it one)

    def to_dict(self, source: Mapping[str, Any]) -> dict[str, Any]:
        """The seed's fact object, with its own copy of ``source``."""
        return {
            "entity": self.entity,
            "attribute": self.attribute,
            "value": self.value,
            "value_type": self.value_type,
            "confidence": self.confidence,
            "source": dict(source),
            "numeric_value": self.numeric_value,
            "value_kind": self.value_kind,
            "currency": self.currency,
            "unit": self.unit,
            "scale": self.scale,
            "range": {"low": self.low, "high": self.high} if self.low is not None else None,
            "direction": self.direction,
            "period": self.period.to_dict() if self.period else None,
            "is_projection": self.is_projection,
            "comparison": self.comparison,
            "qualifier": self.qualifier,
            "value_span": list(self.value_span),
            "sentence_span": list(self.sentence_span),
            "sentence": self.sentence,
            "confidence_features": {
                "entity_anchor": self.anchor,
                "typed_value": self.typed_value,
                "has_period": self.has_period,
                "projection": self.is_projection,
                "hedged": self.qualifier is not None,
            },
        }
