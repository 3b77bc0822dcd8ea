"""'Respectively' lists: the i-th value takes the i-th period and the i-th name.

"Depreciation was $510 million, $487 million and $442 million in fiscal 2019, 2018 and 2017,
respectively" names three values and three periods in the same order, and "Alpha, Beta and Gamma
reported net income of $5.7 million, $3.8 million and $3.1 million, respectively" three owners:
nearest-period and subject rules would give all three values the same year and the same owner.
Within a sentence that says "respectively", a list of values (joined by commas and "and") is paired
in order with a list of periods, and with a coordinated list of names, of the same length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..values import Period, Value

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["RespectiveList", "listed_names", "respectively_lists"]

_RESPECTIVELY_RE = re.compile(r"\brespectively\b", re.IGNORECASE)
_SENTENCE_END_RE = re.compile(r"[.!?](?:\s|$)|\n")
_LIST_GAP_RE = re.compile(r"^\s*(?:,|,?\s*and|,?\s*&)\s*$", re.IGNORECASE)
_NOT_NAMES = ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "QUANTITY", "ORDINAL")


@dataclass(frozen=True, slots=True)
class RespectiveList:
    """One "respectively" list: its values in order, the periods paired with them (or none), its sentence."""

    values: list[Value]
    periods: list[Period] | None
    start: int
    end: int


def respectively_lists(text: str, values: Sequence[Value], periods: Sequence[Period]) -> list[RespectiveList]:
    """The value list of each sentence that says "respectively", with periods when they line up one to one."""
    out: list[RespectiveList] = []
    for m in _RESPECTIVELY_RE.finditer(text):
        start = max((e.end() for e in _SENTENCE_END_RE.finditer(text, 0, m.start())), default=0)
        end_m = _SENTENCE_END_RE.search(text, m.end())
        end = end_m.start() if end_m else len(text)
        dated = [p for p in periods if start <= p.span[0] and p.span[1] <= end and p.year is not None]
        inside = [v for v in values if start <= v.start and v.end <= end and not v.year_like]
        runs = _value_lists(text, inside)
        if not runs:
            continue
        group = next((r for r in runs if len(r) == len(dated)), None) or max(runs, key=len)
        out.append(RespectiveList(group, dated if len(dated) == len(group) else None, start, end))
    return out


def listed_names(doc: Doc, start: int, end: int, n: int) -> list[str] | None:
    """The first coordinated list of exactly ``n`` nouns or names in ``doc.text[start:end]`` ("Alpha, Beta and Gamma")."""
    span = doc.char_span(start, end, alignment_mode="expand")
    if span is None:
        return None
    for t in span:
        if t.dep_ == "conj" or not _name_like(t):
            continue
        chain = [t]
        while len(chain) <= n:
            nxt = next((c for c in chain[-1].children if c.dep_ == "conj"), None)
            if nxt is None or not _name_like(nxt):
                break
            chain.append(nxt)
        if len(chain) == n:
            return [_name(x) for x in chain]
    return None


def _name_like(t: Token) -> bool:
    return t.pos_ in ("NOUN", "PROPN") and not t.like_num and t.ent_type_ not in _NOT_NAMES


def _name(t: Token) -> str:
    left = [x for x in t.lefts if x.dep_ in ("compound", "amod") and x.i == t.i - 1]
    return " ".join([*(x.text for x in left), t.text])


def _value_lists(text: str, values: list[Value]) -> list[list[Value]]:
    """Runs of two or more values of one kind separated only by commas and "and"."""
    runs: list[list[Value]] = []
    for v in values:
        if runs and runs[-1][-1].kind == v.kind and _LIST_GAP_RE.match(text[runs[-1][-1].end : v.start]):
            runs[-1].append(v)
        else:
            runs.append([v])
    return [r for r in runs if len(r) >= 2]
