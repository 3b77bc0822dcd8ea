"""What else a fact says: direction, projection, period, confidence and attribute."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..values import Period, Value
from .context import About
from .vocabulary import (
    DECLINE_LEMMAS,
    GROWTH_LEMMAS,
    PROJECTION_LEMMAS,
    PROJECTION_WORDS_RE,
    RELATIVE_CLAUSE_RE,
    STRONG_ANCHORS,
)

if TYPE_CHECKING:
    from spacy.tokens import Span


def direction_of(span: Span, text: str, seg_start: int) -> str | None:
    """'up'/'down' when the value is a change governed by a growth or decline word."""
    before = text[max(seg_start, span.start_char - 24) : span.start_char].lower()
    if re.search(r"\b(?:up|higher|increase of|growth of|gain of|rise of)\s*(?:by\s*)?$", before):
        return "up"
    if re.search(r"\b(?:down|lower|decrease of|decline of|drop of|fall of)\s*(?:by\s*)?$", before):
        return "down"
    t = span.root
    for _ in range(4):
        lemma = t.lemma_.lower()
        if lemma in GROWTH_LEMMAS:
            return "up"
        if lemma in DECLINE_LEMMAS:
            return "down"
        if t.head is t:
            break
        t = t.head
    return None


def looks_projected(span: Span, sent_text_before: str, period: Period | None, this_year: int) -> bool:
    """A forecast or estimate: future/modal auxiliaries, forecasting verbs, or a target year ("by 2030")."""
    if period is not None and period.target and (period.year or 0) >= this_year:
        return True  # "by 2030"; "by 2020" is history
    t = span.root
    for _ in range(6):
        if t.pos_ in ("VERB", "AUX"):
            if t.lemma_.lower() in PROJECTION_LEMMAS:
                return True
            for c in t.children:
                if c.dep_ == "aux" and c.lemma_.lower() in PROJECTION_LEMMAS:
                    return True
        if t.head is t:
            break
        t = t.head
    clause = RELATIVE_CLAUSE_RE.sub(" ", sent_text_before[-120:])  # ", which will be reported next week,"
    return PROJECTION_WORDS_RE.search(clause[-80:]) is not None


def choose_period(
    periods: list[Period], lo: int, hi: int, value: Value, text: str = "", others: Sequence[Value] = ()
) -> Period | None:
    """The period between ``lo`` and ``hi`` closest to the value (one after it wins a near tie).

    A period inside brackets that hold another value and not this one is that value's own
    ("£13.0 million (2018: £12.4 million)": 2018 is the £12.4 million's period).
    """
    best: tuple[int, Period] | None = None
    for p in periods:
        ps, pe = p.span
        if ps < lo or pe > hi or (ps < value.end and value.start < pe):
            continue
        if others and _owned_by_other(text, p, value, others, lo, hi):
            continue
        dist = ps - value.end if ps >= value.end else (value.start - pe) + 3
        if best is None or dist < best[0]:
            best = (dist, p)
    return best[1] if best else None


def _owned_by_other(text: str, p: Period, value: Value, others: Sequence[Value], lo: int, hi: int) -> bool:
    """Whether ``p`` sits in a bracket pair that holds another value but not ``value``."""
    ps = p.span[0]
    opening = text.rfind("(", lo, ps)
    if opening == -1 or text.rfind(")", opening, ps) != -1:
        return False
    closing = text.find(")", p.span[1], hi)
    if closing == -1 or opening <= value.start < closing:
        return False
    return any(opening < o.start and o.end <= closing for o in others if o is not value)


def confidence_of(anchor: str, typed: bool, projection: bool, hedged: bool) -> str:
    strong = anchor in STRONG_ANCHORS
    if projection or (not strong and not typed) or anchor == "nearest_chunk":
        return "Low"
    if strong and typed and not hedged:
        return "High"
    return "Medium"


def attribute_of(about: About, value_kind: str, direction: str | None, sentence: str, kind: str) -> str:
    """A short label for what is measured: growth, change, a counted noun, or ``value``."""
    if value_kind == "growth":
        if about.attribute == "cagr":
            return "CAGR"
        return "growth" if direction != "down" else "decline"
    if kind == "percentage_points":
        return "change"
    if about.attribute:
        return about.attribute
    if kind == "percentage":
        return "share" if "share" in sentence.lower() else "percentage"
    return "value"
