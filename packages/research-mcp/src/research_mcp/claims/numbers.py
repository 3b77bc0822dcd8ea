"""A claim's numbers compared with the source's by value, through research-mcp's own value parser.

"$1.2 billion" and "1,200 million dollars" are both 1.2e9 USD, so they are equal; "12%" and "21%"
are two percentages, so they differ; "12%" and "12 percentage points" are different kinds and are
never compared. A claim's rounded number matches the source's precise one ("43,000" vs "43,044",
"about 5%" vs "4.9%"); a value inside a range matches the range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..values import Value, find_values

__all__ = ["NumberCheck", "compare_numbers", "values_in"]

HEDGE_RE = re.compile(
    r"(?i)\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|over|more than|less than|"
    r"fewer than|under|up to|at least|some|estimated|close to|~)\s*$"
)
MULTIPLIERS = {"x", "×", "fold", "-fold", "times"}  # "80x" and "80×" are the same factor
EQUAL = "equal"
DIFFERENT = "different"
ABSENT = "absent"


def values_in(
    text: str, start: int = 0, end: int | None = None, dates: list[tuple[int, int]] | None = None
) -> list[Value]:
    """The values written in ``text[start:end]``, with offsets into ``text``; a year, or a number inside
    one of the ``dates`` spans (offsets into ``text``), is a date, not a value (dates.py)."""
    part = text[start:end]
    exclude = [(a - start, b - start) for a, b in dates or []]
    found = [v for v in find_values(part, exclude=exclude, spelled_counts=True) if not v.year_like]
    for v in found:
        v.start += start
        v.end += start
    return found


def _kind(v: Value) -> str:
    if v.currency:
        return f"currency:{v.currency}"
    if v.kind in ("percentage", "percentage_points"):
        return v.kind
    if v.unit and v.unit.lower() not in MULTIPLIERS:
        return f"unit:{v.unit}"
    return "number"


def _digits_tolerance(v: Value) -> float:
    """Half a unit of the claim's last written digit: "43,000" covers 42,500..43,500."""
    m = re.search(r"\d[\d,]*(?:\.(\d+))?", v.text)
    if not m:
        return 0.0
    if m.group(1):
        step = 10.0 ** -len(m.group(1))
    else:
        digits = m.group(0).replace(",", "")
        zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
        step = 10.0**zeros
    number = float(m.group(0).replace(",", "")) or 1.0
    return abs(v.numeric_value / number) * step / 2


def same_value(claim: Value, found: Value, hedged: bool) -> bool:
    """Whether ``found`` states the claim's value (within the claim's precision, or 10% when hedged)."""
    a, b = claim.numeric_value, found.numeric_value
    if found.low is not None and found.high is not None and claim.low is None:
        return found.low - 1e-9 <= a <= found.high + 1e-9
    if claim.low is not None and claim.high is not None:
        if found.low is not None and found.high is not None:
            return abs(claim.low - found.low) <= 1e-9 * max(1.0, abs(found.low)) and abs(
                claim.high - found.high
            ) <= 1e-9 * max(1.0, abs(found.high))
        return claim.low - 1e-9 <= b <= claim.high + 1e-9
    tol = max(_digits_tolerance(claim), 1e-9 * max(abs(a), abs(b), 1.0))
    if hedged:
        tol = max(tol, 0.1 * abs(a))
    return abs(a - b) <= tol


@dataclass
class NumberCheck:
    """One number of the claim: how it was read, and the source value it was compared with."""

    claim: Value
    status: str  # equal | different | absent
    source: Value | None = None

    def to_dict(self) -> dict[str, Any]:
        def read(v: Value) -> dict[str, Any]:
            out: dict[str, Any] = {"text": v.text, "value": v.numeric_value, "kind": v.kind}
            if v.currency:
                out["currency"] = v.currency
            if v.unit and v.kind not in ("percentage", "percentage_points"):
                out["unit"] = v.unit
            if v.low is not None:
                out["low"], out["high"] = v.low, v.high
            return out

        item: dict[str, Any] = {"claim": read(self.claim), "status": self.status, "source": None}
        if self.source is not None:
            item["source"] = {**read(self.source), "start": self.source.start, "end": self.source.end}
        return item


def _compatible(claim: Value, found: Value) -> bool:
    """Same kind, or the claim left out a unit the source gives ("aged 16 to 24" vs "16-24 years")."""
    a, b = _kind(claim), _kind(found)
    return a == b or (a == "number" and b.startswith("unit:"))


def _context(text: str, v: Value) -> set[str]:
    """The content words just around a value: what it counts ("63 local infections")."""
    from .passages import content_stems

    before = text[max(0, v.start - 60) : v.start].split()[-4:]
    after = text[v.end : v.end + 60].split()[:4]
    return set(content_stems(" ".join(before + after)))


def compare_numbers(
    claim: str, claim_values: list[Value], passage: list[Value], page: list[Value], page_text: str = ""
) -> list[NumberCheck]:
    """Each claim value against the evidence passage's values, then the nearby passages'.

    ``equal``: the passage (or, failing that, a nearby one) states it; ``different``: the passage states
    a value of the same kind about the same thing (a content word around both) and none equal;
    ``absent``: neither does.
    """
    checks: list[NumberCheck] = []
    for cv in claim_values:
        hedged = bool(HEDGE_RE.search(claim[: cv.start]))
        same_kind = [v for v in passage if _compatible(cv, v)]
        match = next((v for v in same_kind if same_value(cv, v, hedged)), None)
        if match is None:
            match = next((v for v in page if _compatible(cv, v) and same_value(cv, v, hedged)), None)
        if match is not None:
            checks.append(NumberCheck(cv, EQUAL, match))
            continue
        around = _context(claim, cv)
        about_it = [v for v in same_kind if not page_text or around & _context(page_text, v)]
        if about_it:
            nearest = min(about_it, key=lambda v: abs(v.numeric_value - cv.numeric_value))
            checks.append(NumberCheck(cv, DIFFERENT, nearest))
        else:
            checks.append(NumberCheck(cv, ABSENT))
    return checks
