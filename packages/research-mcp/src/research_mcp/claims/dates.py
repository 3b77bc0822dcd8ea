"""A claim's dates compared with the evidence passage's, through research-mcp's period parser.

"on Jan 12, 2019" and "March 12, 2019" are two days of the same year: different. "in 2019" and
"December 2019" overlap: equal (the claim is the coarser). Month names are read in any case
("jan 12, 2019"), since claims are often written in lower case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..values import Period, find_periods
from .numbers import ABSENT, DIFFERENT, EQUAL

__all__ = ["DateCheck", "compare_dates", "periods_in"]

MONTH_RE = re.compile(
    r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|"
    r"august|september|october|november|december)\b(?=\.?\s+\d)"
)


def periods_in(text: str, start: int = 0, end: int | None = None) -> list[Period]:
    """The calendar dates and periods in ``text[start:end]`` (spans into ``text``); month names in any case."""
    part = MONTH_RE.sub(lambda m: m.group(0).capitalize(), text[start:end])
    out = []
    for p in find_periods(part):
        if p.start is None or p.end is None:
            continue  # a fiscal period or a bare month: no calendar dates to compare
        out.append(
            Period(p.text, p.type, p.start, p.end, p.year, (p.span[0] + start, p.span[1] + start), p.fiscal)
        )
    return out


@dataclass
class DateCheck:
    """One date of the claim and the passage's date it was compared with."""

    claim: Period
    status: str
    source: Period | None = None

    def to_dict(self) -> dict[str, Any]:
        def read(p: Period) -> dict[str, Any]:
            return {"text": p.text, "value": p.key, "kind": "date", "start_date": p.start, "end_date": p.end}

        item: dict[str, Any] = {"claim": read(self.claim), "status": self.status, "source": None}
        if self.source is not None:
            item["source"] = {**read(self.source), "start": self.source.span[0], "end": self.source.span[1]}
        return item


def _overlap(a: Period, b: Period) -> bool:
    assert a.start and a.end and b.start and b.end
    return a.start <= b.end and b.start <= a.end


def compare_dates(claim: list[Period], passage: list[Period]) -> list[DateCheck]:
    """``equal``: a passage date overlaps the claim's; ``different``: the passage dates a thing at the
    same precision (day, month, quarter...) and none overlaps; ``absent``: neither."""
    checks = []
    for cp in claim:
        match = next((p for p in passage if _overlap(cp, p)), None)
        if match is not None:
            checks.append(DateCheck(cp, EQUAL, match))
            continue
        same = [p for p in passage if p.type == cp.type]
        checks.append(DateCheck(cp, DIFFERENT, same[0]) if same else DateCheck(cp, ABSENT))
    return checks
