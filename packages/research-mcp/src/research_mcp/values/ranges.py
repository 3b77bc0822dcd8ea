"""Joining two values into one range (``$10-12 billion``, ``between 5% and 7%``, ``-18 °C to -34 °C``), and a
unit written once for a list or range given to each number in it (``45 and 50 mg``, ``9 or 4.8 months``)."""

from __future__ import annotations

import re

from . import lexicon
from .lazy import lazy_re
from .model import Value

__all__ = ["carry_units", "merge_ranges"]

# "8- to 16-meter": a suspended hyphen before the joiner leaves the unit to the second number
_RANGE_GAP_RE = lazy_re(r"^(?:-\s+(?=to\b|and\b))?\s*(?:to|and|-|–|—|through)\s*$", re.IGNORECASE)
_RANGE_LEAD_RE = lazy_re(r"(?i:\b(from|between)\s+(?:about\s+|around\s+|roughly\s+)?)$")


_CHANGE_BEFORE_RE = lazy_re(
    r"(?i:\b(?:rose|rise[sn]?|rising|grew|grow[sn]?|growing|increas(?:e[sd]?|ing)|fell|fall(?:s|en|ing)?|"
    r"declin(?:e[sd]?|ing)|drop(?:ped|s|ping)?|jump(?:ed|s)?|climb(?:ed|s|ing)?|gain(?:ed|s)?|up|down|by|"
    r"add(?:ed|s)?|lost|los(?:e|es|ing)|cut|rais(?:e|ed|es)|lower(?:ed|s)?|widen(?:ed|s)?|narrow(?:ed|s)?|"
    r"expand(?:ed|s)?|shr[au]nk|shrinks?|surg(?:e[sd]?|ing)|soar(?:ed|s)?|plung(?:e[sd]?)|slipp?(?:ed|s)?|"
    r"went|moved?|chang(?:e[sd]?)|improv(?:e[sd]?)|reduc(?:e[sd]?)|boost(?:ed|s)?|doubl(?:e[sd]?)|"
    r"tripl(?:e[sd]?)|eased?|edged|ticked|swung)\s+(?:\w+\s+){0,2})$"
)


_LIST_JOINER_RE = lazy_re(r"^\s*(?:,\s*(?:and|or)?|and|or|to|through|-|–|—)\s*$", re.IGNORECASE)


def carry_units(values: list[Value], text: str) -> None:
    """A bare number joined to the next value by a list word takes that value's unit (in place).

    "45 and 50 mg", "3, 4 or 5 km", "9 or 4.8 months", "5 and 7%", "5 or 6 Kč": the unit (a physical
    unit, ``%``, or a currency written after the number) is stated once for the list. A year, a
    number with its own unit and a number before a scaled amount ("5 and 6 million euros") keep theirs.
    """
    for i in range(len(values) - 2, -1, -1):
        v, w = values[i], values[i + 1]
        if v.kind != "number" or v.unit is not None or v.year_like or v.scale or v.extras.get("spelled"):
            continue
        joiner = _LIST_JOINER_RE.match(text[v.end : w.start])
        if w.scale or w.low is not None or joiner is None:
            continue
        if joiner.group(0).strip() == "," and not w.extras.get("unit_carried"):
            continue  # "odds ratio 2.30, 95% CI": a comma alone makes no list; "3, 4 or 5 km" does
        if w.kind == "number" and w.unit is not None and not w.extras.get("spelled"):
            v.unit = w.unit
        elif w.kind == "percentage":
            v.kind, v.unit = "percentage", w.unit
        elif w.kind == "currency" and w.text[:1].isdigit():
            v.kind, v.unit, v.currency = "currency", w.unit, w.currency
        else:
            continue
        v.extras["unit_carried"] = True


def merge_ranges(values: list[Value], text: str) -> list[Value]:
    """Join ``X-Y``, ``between X and Y`` and ``from X to Y`` into one value with low/high.

    Y's scale and currency apply to X ("$10-12 billion"). After a change verb, ``from X to Y`` is a
    change, not a range ("grew from 4,000 to 5,500"): the two values stay apart and X is marked
    ``prior``.
    """
    out: list[Value] = []
    i = 0
    while i < len(values):
        v = values[i]
        if i + 1 < len(values):
            w = values[i + 1]
            _dash_is_a_joiner(v, w, text)
            merged = _range_of(v, w, text)
            if merged is not None:
                out.append(merged)
                i += 2
                continue
        out.append(v)
        i += 1
    return out


def _dash_is_a_joiner(v: Value, w: Value, text: str) -> None:
    """A dash between two values ("5%-7%") joins them; it is not ``w``'s minus sign (dropped in place)."""
    if w.start == v.end and text[w.start : w.start + 1] in ("-", "–", "—") and w.numeric_value < 0:
        w.numeric_value, w.start, w.text = -w.numeric_value, w.start + 1, w.text[1:].lstrip()


def _range_of(v: Value, w: Value, text: str) -> Value | None:
    """The range ``v`` and ``w`` make, or ``None``; ``from X to Y`` after a change verb is no range,
    and marks ``v`` as the prior value instead (in place)."""
    gap = text[v.end : w.start]
    if _RANGE_GAP_RE.match(gap) is None or v.low is not None or w.low is not None:
        return None  # nothing but a joiner between two values makes a range (most pairs stop here)
    window = max(0, v.start - 30)
    lead = _RANGE_LEAD_RE.search(text[window : v.start])
    lead_word = lead.group(1).lower() if lead else None
    same_kind = v.kind == w.kind or (v.kind == "number" and w.kind in ("currency", "percentage"))
    currency_ok = v.currency in (None, w.currency) and v.unit in (None, w.unit)  # not "44 ml to 50 mg"
    joiner = re.sub(r"^-\s+", "", gap.strip()).lower()
    before = text[max(0, v.start - 40) : (lead.start() + window) if lead else v.start]
    after_change = _CHANGE_BEFORE_RE.search(before) is not None
    joinable = (
        _RANGE_GAP_RE.match(gap) is not None and same_kind and currency_ok and v.low is None and w.low is None
    )
    if joinable and lead_word == "from" and joiner in ("to", "-", "–", "—") and after_change:
        v.extras["prior"] = True  # "grew from 4,000 to 5,500": a change, not a range
        if not v.explicit_scale and w.scale:
            v.numeric_value *= lexicon.FACTORS[w.scale]
            v.scale = w.scale
        return None
    if joinable and (
        (lead_word == "between" and joiner in ("and", "to", "-", "–", "—"))  # "between 44 mg to 50 mg"
        or (lead_word == "from" and joiner in ("to", "-", "–", "—", "through"))
        or (lead_word is None and joiner in ("-", "–", "—"))
        or (lead_word is None and joiner == "to" and not after_change)
    ):
        return _range_value(v, w, text, lead.start() + window if lead else v.start, joiner)
    return None


def _range_value(v: Value, w: Value, text: str, start: int, joiner: str) -> Value | None:
    """``v`` to ``w`` as one value from ``start``, with ``w``'s scale, currency and unit; ``None`` where
    the low end is above the high one."""
    lo, hi = v.numeric_value, w.numeric_value
    if not v.explicit_scale and w.scale:
        lo *= lexicon.FACTORS[w.scale]
    if lo > hi and joiner in ("to", "and", "through") and (v.unit is not None or hi < 0):
        lo, hi = hi, lo  # "from -18 °C to -34 °C": a range written from its top, in words
    if lo > hi:
        return None
    return Value(
        text=" ".join(text[start : w.end].split()),
        start=start,
        end=w.end,
        kind=w.kind,
        numeric_value=(lo + hi) / 2.0,
        currency=w.currency,
        scale=w.scale,
        unit=w.unit,
        low=lo,
        high=hi,
        explicit_scale=w.explicit_scale,
    )
