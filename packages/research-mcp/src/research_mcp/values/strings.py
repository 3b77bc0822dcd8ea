"""One fact's value string (``"$22.4 billion"``, ``"more than 20%"``) parsed on its own, for conflict-detect."""

from __future__ import annotations

from .amounts import NUM, find_values
from .lazy import lazy_re
from .model import Value
from .periods import find_periods

__all__ = ["parse_value_string"]

_PLAIN_NUMBER_RE = lazy_re(r"^\s*[-−]?\s*(?:" + NUM + r")\s*$")


# Words before a value string: approximations (no bound), lower bounds and upper bounds.
_APPROX_WORDS = (
    "approximately",
    "approx.",
    "approx",
    "about",
    "around",
    "roughly",
    "nearly",
    "almost",
    "some",
)
_LOWER_WORDS = (
    "more than",
    "over",
    "at least",
    "above",
    "exceeding",
    "in excess of",
    "upwards of",
    ">=",
    "≥",
    ">",
)
_UPPER_WORDS = ("less than", "under", "up to", "below", "at most", "no more than", "<=", "≤", "<")
_QUALIFIERS: tuple[tuple[str, str | None], ...] = (
    *((w, None) for w in (*_APPROX_WORDS, "est.", "estimated", "c.", "~", "≈")),
    *((w, "lower") for w in _LOWER_WORDS),
    *((w, "upper") for w in _UPPER_WORDS),
)


def parse_value_string(raw: str) -> Value | None:
    """Parse one fact's value string (``"22.4"``, ``"$22.4 billion"``, ``"22.4billion"``, ``"22,400 million"``).

    Returns ``None`` when the string is not one number (text such as ``"Paris"``, or two numbers).
    A value followed only by a trailing word ("1.2 million users") still parses; the word becomes the unit.
    """
    s = " ".join(raw.split())
    if not s:
        return None
    if s.lower() in ("zero", "nil", "none"):
        return Value(text=s, start=0, end=len(s), kind="number", numeric_value=0.0)
    periods = [
        p for p in find_periods(s) if p.span[0] > 0
    ]  # "€1.2 billion (2023)": the period is not the value
    values = [
        v
        for v in find_values(s, exclude=[p.span for p in periods])
        if not (v.year_like and _PLAIN_NUMBER_RE.match(s) is None)
    ]
    if len(values) != 1:
        return None
    v = values[0]
    if len(periods) == 1:
        v.extras["period"] = periods[0]
    rest = s[: v.start] + " " + s[v.end :]
    for p in periods:
        rest = rest.replace(p.text, " ")
    rest = rest.strip(" .,;:()[]")
    rest_l = rest.lower()
    for word, bound in _QUALIFIERS:
        if rest_l.startswith(word):
            rest = rest[len(word) :].strip()
            rest_l = rest.lower()
            if bound:
                v.extras["bound"] = bound
            break
    if rest_l.endswith("+") or s.endswith("+"):
        rest = rest.rstrip("+ ")
        rest_l = rest.lower()
        v.extras["bound"] = "lower"
    if rest:
        if len(rest.split()) > 3 or any(ch.isdigit() for ch in rest):
            return None
        if v.kind == "number" and v.unit is None:
            v.kind = "count"
            v.unit = rest_l
    v.year_like = v.year_like and not rest
    return v
