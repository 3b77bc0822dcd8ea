"""Fractions before a unit: ``2 1/2 in``, ``1/4 inch``, ``½ tbsp``, ``2½ miles``.

A slash between two numbers is usually a date, a ratio or a score ("3/4", "24/7"), so ``amounts``
never reads one as a value; here a fraction counts only when a unit follows it, which settles it.
"""

from __future__ import annotations

from .lazy import lazy_re
from .model import Value
from .units import unit_after

__all__ = ["find_fractions"]

_VULGAR = {"½": 1 / 2, "⅓": 1 / 3, "⅔": 2 / 3, "¼": 1 / 4, "¾": 3 / 4, "⅕": 1 / 5, "⅖": 2 / 5, "⅗": 3 / 5,
           "⅘": 4 / 5, "⅙": 1 / 6, "⅚": 5 / 6, "⅛": 1 / 8, "⅜": 3 / 8, "⅝": 5 / 8, "⅞": 7 / 8}  # fmt: skip
_FRACTION_RE = lazy_re(
    r"(?<![\w./\\,-])(?:(?P<whole>\d{1,4})(?:[ \u00a0]|(?=[" + "".join(_VULGAR) + r"])))?"
    r"(?:(?P<num>\d{1,3})/(?P<den>\d{1,3})(?![\d/])|(?P<vulgar>[" + "".join(_VULGAR) + r"]))"
)
_GATE_RE = lazy_re(r"\d/\d|[" + "".join(_VULGAR) + r"]")


def find_fractions(text: str) -> list[Value]:
    """Every fraction followed by a unit in ``text`` (``2 1/2 in`` is 2.5 inches)."""
    if _GATE_RE.search(text) is None:
        return []
    out: list[Value] = []
    for m in _FRACTION_RE.finditer(text):
        if m.group("vulgar"):
            part = _VULGAR[m.group("vulgar")]
        else:
            num, den = int(m.group("num")), int(m.group("den"))
            if den == 0 or num >= den:
                continue  # "3/2", "24/7": not a proper fraction
            part = num / den
        found = unit_after(text, m.end())
        if found is None:
            continue
        unit, end = found
        whole = int(m.group("whole")) if m.group("whole") else 0
        out.append(Value.quantity(text, m.start(), end, round(whole + part, 6), unit.symbol))
    return out
