"""The two things value parsing returns: a ``Value`` (an amount, with its kind, currency or unit) and a ``Period``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Period", "Value"]


@dataclass(frozen=True, slots=True)
class Period:
    """A date or period with its precision: what a value is about in time.

    ``type`` is one of year, half, quarter, month, day, fiscal_year, fiscal_half, fiscal_quarter,
    year_range. ``start``/``end`` are ISO dates for calendar periods; fiscal periods leave them
    ``None`` (a fiscal year's months depend on the company) and keep ``fiscal_year``.
    """

    text: str
    type: str
    start: str | None
    end: str | None
    year: int | None
    span: tuple[int, int]
    fiscal: bool = False
    as_of: bool = False
    target: bool = False
    index: int | None = None  # which quarter (1-4) or half (1-2)

    @property
    def key(self) -> str:
        """A canonical label used to group facts by period (``2024``, ``2024-Q3``, ``FY2024``)."""
        return _period_key(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "type": self.type,
            "key": self.key,
            "start": self.start,
            "end": self.end,
            "year": self.year,
            "fiscal": self.fiscal,
            "as_of": self.as_of,
            "target": self.target,
        }

    def marked(self, *, as_of: bool = False, target: bool = False) -> Period:
        return Period(
            self.text,
            self.type,
            self.start,
            self.end,
            self.year,
            self.span,
            self.fiscal,
            as_of,
            target,
            self.index,
        )


@dataclass(slots=True)
class Value:
    """One value found in text, normalised.

    ``kind`` refines the seed's ``value_type``: currency, percentage, percentage_points, count,
    number, range (any of those given as low/high keeps its own kind and sets ``low``/``high``).
    """

    text: str
    start: int
    end: int
    kind: str
    numeric_value: float
    currency: str | None = None
    scale: str | None = None
    unit: str | None = None
    low: float | None = None
    high: float | None = None
    year_like: bool = False
    explicit_scale: bool = False
    extras: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def quantity(cls, text: str, start: int, end: int, number: float, unit: str | None) -> Value:
        """A plain number (with its unit, if any) written at ``text[start:end]``, whitespace folded."""
        return cls(
            text=" ".join(text[start:end].split()),
            start=start,
            end=end,
            kind="number",
            numeric_value=number,
            unit=unit,
        )

    @property
    def value_type(self) -> str:
        """The seed's vocabulary: number|currency|percentage|date|text."""
        if self.kind == "currency":
            return "currency"
        if self.kind in ("percentage", "percentage_points"):
            return "percentage"
        return "number"


def _period_key(p: Period) -> str:
    fy = "FY" if p.fiscal else ""
    if p.type == "year":
        return str(p.year)
    if p.type == "fiscal_year":
        return f"FY{p.year}"
    if p.type.endswith(("quarter", "half")):
        label = f"{'Q' if p.type.endswith('quarter') else 'H'}{p.index}"
        return f"{fy}{p.year}-{label}" if p.year else f"{fy}{label}"
    if p.type == "year_range" and p.start and p.end:
        return f"{p.start[:4]}-{p.end[:4]}"
    if p.type == "day" and p.start:
        return p.start
    if p.type == "month" and p.start:
        return p.start[:7]
    if p.type == "month" and p.index:
        return f"M{p.index:02d}"
    return p.text.lower()
