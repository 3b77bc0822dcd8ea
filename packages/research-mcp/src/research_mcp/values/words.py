"""Amounts written in words: "two million users", "five percent", "a billion dollars", "three indicators"."""

from __future__ import annotations

from . import lexicon
from .lazy import lazy_re
from .model import Value
from .units import money_near, time_window, unit_after

__all__ = ["word_quantities", "word_values"]

_UNITS_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]  # fmt: skip
_TENS_WORDS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_NUMBERS: dict[str, int] = {w: i for i, w in enumerate(_UNITS_WORDS)} | {
    w: 10 * (i + 2) for i, w in enumerate(_TENS_WORDS)
}
_WORD_NUM_RE = lazy_re(
    r"(?i)\b(?=[aotfsenz])(?P<w>a|an|"
    + "|".join(_UNITS_WORDS + _TENS_WORDS)
    + r")(?:[-\s](?P<w2>"
    + "|".join(_UNITS_WORDS[1:10])
    + r"))?"
    r"(?:\s+(?P<hundred>hundred))?"
    r"(?:\s+(?P<scale>thousand|million|billion|trillion)(?:\s+(?P<cur>dollars|euros|pounds|yen))?"
    r"|\s+(?P<pct>percent|per\s+cent)|\s+(?P<pp>percentage\s+points?))?\b"
)
# After a bare number word: a fraction ("two thirds"), a compound adjective ("two-fold", "three-dimensional").
_NOT_A_COUNT_AFTER_RE = lazy_re(
    r"(?i:[-‐]|\s+(?:halves|halfs?|thirds?|quarters?|fourths?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)\b)"
)


def word_values(text: str, *, spelled_counts: bool = False) -> list[Value]:
    """Amounts written in words: "two million users", "five percent", "a billion dollars".

    ``spelled_counts``: also numbers with no scale or percent after them ("three indicators").
    """
    out: list[Value] = []
    for m in _WORD_NUM_RE.finditer(text):
        w = m.group("w").lower()
        bare = not (m.group("scale") or m.group("pct") or m.group("pp"))
        if bare and (
            not spelled_counts
            or (w in ("a", "an", "one", "zero") and not m.group("hundred"))
            or _NOT_A_COUNT_AFTER_RE.match(text, m.end())
            or text[m.start() - 1 : m.start()] in ("-", "‐")
        ):
            continue  # "one of", "two-thirds", "three-dimensional": not a count
        if w in ("a", "an"):
            if not m.group("scale") or m.group("w2") or m.group("hundred"):
                continue
            n = 1.0
        else:
            n = float(_WORD_NUMBERS[w] + (_WORD_NUMBERS[m.group("w2").lower()] if m.group("w2") else 0))
        if m.group("hundred"):
            n *= 100
        currency = {"dollars": "USD", "euros": "EUR", "pounds": "GBP", "yen": "JPY"}.get(
            (m.group("cur") or "").lower()
        )
        scale = m.group("scale").lower() if m.group("scale") else None
        value = n * (lexicon.SCALES[scale] if scale else 1.0)
        if m.group("pct"):
            kind, unit = "percentage", "%"
        elif m.group("pp"):
            kind, unit = "percentage_points", "percentage points"
        elif currency:
            kind, unit = "currency", currency
        else:
            kind, unit = "number", None
        v = Value(
            text=" ".join(m.group(0).split()),
            start=m.start(),
            end=m.end(),
            kind=kind,
            numeric_value=value,
            currency=currency,
            scale=scale,
            unit=unit,
            explicit_scale=scale is not None,
        )
        if bare:
            v.extras["spelled"] = True  # "two cores": a count only with the noun it counts (fact-extract)
        out.append(v)
    return out


_WORD_QUANTITY_RE = lazy_re(
    r"(?i)\b(?=[otfsen])(?P<w>"
    + "|".join(_UNITS_WORDS[1:] + _TENS_WORDS)
    + r")(?:-(?P<w2>"
    + "|".join(_UNITS_WORDS[1:10])
    + r"))?(?=[\s-])"
)


def word_quantities(text: str) -> list[Value]:
    """A number in words before a unit word: "two meters", "six gallons", "a twenty-pound bag" (never a symbol)."""
    out: list[Value] = []
    for m in _WORD_QUANTITY_RE.finditer(text):
        found = unit_after(text, m.end())
        if found is None:
            continue
        unit, end = found
        if text[m.end() : end].strip(" -") in lexicon.UNIT_SYMBOLS:
            continue  # "two in my car": a symbol after a number in words is not a unit
        if unit.dimension == "time" and time_window(text, m.start(), end):
            continue  # "the past five years", "the three months ended June 30": a period
        if unit.name == "pound-mass" and money_near(text, m.start(), end):
            continue  # "five pounds" for a ticket: money, read by word_values' currency words
        n = _WORD_NUMBERS[m.group("w").lower()] + (
            _WORD_NUMBERS[m.group("w2").lower()] if m.group("w2") else 0
        )
        out.append(Value.quantity(text, m.start(), end, float(n), unit.symbol))
    return out
