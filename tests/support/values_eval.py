"""Scoring fact-extract's values against third-party labels (``tests/eval/data/values/cases.jsonl``).

Shared by ``tests/eval/eval_values.py`` (all cases, with a baseline) and the pytest slice. A labelled
value is found when a prediction overlaps its span and reads it right: the same category, the same
number (0.5 % tolerance), the same currency or unit, the same ends for a range. Cases whose labels are
partial (TAT-QA labels only the values its questions ask about) count a prediction as a false
positive only where it overlaps a labelled value and reads it wrong; complete cases count every
prediction of a category they label completely.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "eval" / "data" / "values"
CATEGORIES = ("money", "percent", "quantity", "count", "range")


@dataclass
class Pred:
    start: int
    end: int
    cat: str
    value: float | None = None
    currency: str | None = None
    unit: str | None = None
    low: float | None = None
    high: float | None = None
    period_year: int | None = None


@dataclass
class Tally:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    misses: list[str] = field(default_factory=list)

    def p(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    def r(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    def f1(self) -> float:
        p, r = self.p(), self.r()
        return 2 * p * r / (p + r) if p + r else 0.0


def load_cases(path: Path = DATA / "cases.jsonl") -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# ----------------------------------------------------------------------------- units


def _unit_aliases() -> dict[str, str]:
    """Surface or symbol -> canonical unit name, from the units table research-mcp ships (quantulum3's names)."""
    table = json.loads(
        (
            Path(__file__).resolve().parents[2] / "packages/research-mcp/src/research_mcp/data/units.json"
        ).read_text(encoding="utf-8")
    )
    # durations: fact-extract reports "3 years" with the unit "years" (time words are not in the units table)
    out: dict[str, str] = {w: w for w in ("year", "month", "week", "day", "hour", "minute", "second")}
    # case-sensitive symbols first ("gal" is the gallon, "Gal" the galileo), then names and words, then any case
    for u in table["units"]:
        for s in u.get("symbols", []):
            out.setdefault(s, u["name"])
    for u in table["units"]:
        for s in [u["name"], u["symbol"], *u.get("words", [])]:
            out.setdefault(s, u["name"])
    for u in table["units"]:
        for s in [u["name"], u["symbol"], *u.get("words", []), *u.get("symbols", [])]:
            out.setdefault(s.lower(), u["name"])
    return out


_ALIASES: dict[str, str] | None = None


def canonical_unit(unit: str | None) -> str | None:
    global _ALIASES
    if unit is None:
        return None
    if _ALIASES is None:
        _ALIASES = _unit_aliases()
    u = unit.strip().rstrip(".")
    for cand in (u, u.lower(), re.sub(r"s$", "", u.lower()), re.sub(r"es$", "", u.lower())):
        if cand in _ALIASES:
            return _ALIASES[cand]
    power = re.fullmatch(r"(.+?)\^?([23²³])", u)
    if power and canonical_unit(power.group(1)) is not None:  # "km2", "m^3": the square or cubic unit
        square = "square" if power.group(2) in "2²" else "cubic"
        return (
            canonical_unit(f"{square} {canonical_unit(power.group(1))}")
            or f"{square} {canonical_unit(power.group(1))}"
        )
    parts = re.split(r"\s*/\s*|\s+per\s+", u)
    if len(parts) > 1:  # a compound unit: "l/km" and "litre per kilometre" are one unit
        names = [canonical_unit(x) for x in parts]
        return None if None in names else " per ".join(n for n in names if n)
    return None


# ----------------------------------------------------------------------------- predictions


def preds_from_facts(result: dict[str, Any]) -> list[Pred]:
    """fact-extract's facts as predictions (dated-event facts are dates, not values, and are left out)."""
    out: list[Pred] = []
    for f in result["facts"]:
        if f["value_type"] == "date":
            continue
        s, e = f["value_span"]
        unit = f.get("unit")
        kind = f.get("value_kind")
        if f.get("currency"):
            cat = "money"
        elif unit in ("%", "percentage points") or kind in ("percentage", "percentage_points"):
            cat = "percent"
        elif canonical_unit(unit) is not None:
            cat = "quantity"
        else:
            cat = "count"
        rng = f.get("range")
        period = f.get("period") or {}
        p = Pred(s, e, cat, f.get("numeric_value"), f.get("currency"), unit, period_year=period.get("year"))
        if rng:
            p.low, p.high = rng["low"], rng["high"]
            p.cat = "range"
            p.value = None
            p.unit = unit if cat == "quantity" else None
        out.append(p)
    return out


_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "bn": 1e9, "m": 1e6, "k": 1e3}
_SYMBOLS = {"US$": "USD", "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR"}
_WORDS = {"dollar": "USD", "euro": "EUR", "pound": "GBP", "yen": "JPY", "yuan": "CNY", "rupee": "INR"}
_NUM = re.compile(r"(-|−)?\d[\d,]*(?:\.\d+)?")
_MONEY_RE = re.compile(
    r"(?:US\$|[A-Z]{1,2}\$|\$|€|£|¥)\s?-?\d[\d,]*(?:\.\d+)?(?:\s?(?:thousand|million|billion|trillion|bn|m|k)\b)?"
)


def _crude_number(text: str) -> float | None:
    m = _NUM.search(text)
    if m is None:
        return None
    try:
        value = float(m.group(0).replace(",", "").replace("−", "-"))
    except ValueError:
        return None
    scale = re.search(r"\b(thousand|million|billion|trillion|bn)\b|\d\s?([mk])\b", text[m.end() :][:12])
    if scale:
        value *= _SCALE[(scale.group(1) or scale.group(2)).lower()]
    return value


def _crude_currency(text: str) -> str | None:
    for sym, code in _SYMBOLS.items():
        if sym in text:
            return code
    m = re.search(r"\b([A-Z]{3})\b", text)
    if m:
        return m.group(1)
    low = text.lower()
    return next((code for word, code in _WORDS.items() if word in low), None)


def preds_baseline(doc: Any) -> list[Pred]:
    """Bare spaCy labels (MONEY, PERCENT, QUANTITY, CARDINAL) plus one money regex; the nearest DATE in the sentence."""
    out: list[Pred] = []
    kinds = {"MONEY": "money", "PERCENT": "percent", "QUANTITY": "quantity", "CARDINAL": "count"}
    spans: list[tuple[int, int, str, str]] = [
        (e.start_char, e.end_char, kinds[e.label_], e.text) for e in doc.ents if e.label_ in kinds
    ]
    for m in _MONEY_RE.finditer(doc.text):
        if not any(s < m.end() and m.start() < e for s, e, _, _ in spans):
            spans.append((m.start(), m.end(), "money", m.group(0)))
    dates = [e for e in doc.ents if e.label_ == "DATE"]
    for s, e, cat, text in spans:
        nums = _NUM.findall(text)
        p = Pred(s, e, cat, _crude_number(text))
        if cat == "money":
            p.currency = _crude_currency(text)
        if cat == "quantity":
            m = re.search(r"\d\s*([^\d\s][^\d]*)$", text)
            p.unit = m.group(1).strip() if m else None
        if len(nums) == 2 and re.search(r"\d\s*(?:to|-|–|and)\s*[-−]?\S*\d", text):
            lo, hi = (float(x.replace(",", "").replace("−", "-")) for x in _numbers(text))
            p.cat, p.low, p.high, p.value = "range", lo, hi, None
            if cat == "quantity":
                m = re.search(r"\d\s*([^\d\s][^\d]*)$", text)
                p.unit = m.group(1).strip() if m else None
        sent = doc.char_span(s, e, alignment_mode="expand")
        if sent is not None:
            sent_span = sent.sent
            near = [d for d in dates if sent_span.start_char <= d.start_char < sent_span.end_char]
            near.sort(key=lambda d: abs(d.start_char - s))
            for d in near:
                years = re.findall(r"(?:19|20)\d\d", d.text)
                if years:
                    p.period_year = int(years[-1])
                    break
        out.append(p)
    return out


def _numbers(text: str) -> list[str]:
    return [m.group(0) for m in _NUM.finditer(text)]


# ----------------------------------------------------------------------------- scoring


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return False
    return abs(a - b) <= max(1e-9, 0.005 * max(abs(a), abs(b)))


def correct(p: Pred, g: dict[str, Any]) -> bool:
    if p.cat != g["cat"]:
        return False
    if g["cat"] == "range":
        ok = _close(p.low, g["low"]) and _close(p.high, g["high"])
        if g.get("currency"):
            ok = ok and p.currency == g["currency"]
        if g.get("kind") == "quantity" and g.get("unit"):
            ok = ok and canonical_unit(p.unit) == canonical_unit(g["unit"])
        return ok
    if not _close(p.value, g["value"]):
        return False
    if g["cat"] == "money":
        return g["currency"] == "*" or p.currency == g["currency"]
    if g["cat"] == "quantity":
        return canonical_unit(p.unit) is not None and canonical_unit(p.unit) == canonical_unit(g["unit"])
    return True


def _overlaps(p: Pred, span: list[int]) -> bool:
    return p.start < span[1] and span[0] < p.end


def score(
    cases: Iterable[dict[str, Any]], preds: Iterable[list[Pred]]
) -> tuple[dict[str, Tally], Tally, dict[str, Tally]]:
    """Per-category tallies, the period tally, and per-source tallies (all categories together)."""
    cats: dict[str, Tally] = defaultdict(Tally)
    period = Tally()
    sources: dict[str, Tally] = defaultdict(Tally)
    for case, ps in zip(cases, preds, strict=True):
        golds = [g for g in case["values"] if g["cat"] != "ignore"]
        ignored = [g["span"] for g in case["values"] if g["cat"] == "ignore"]
        used: set[int] = set()
        for g in golds:
            hit = next(
                (i for i, p in enumerate(ps) if i not in used and _overlaps(p, g["span"]) and correct(p, g)),
                None,
            )
            if hit is not None:
                used.add(hit)
                cats[g["cat"]].tp += 1
                sources[case["source"]].tp += 1
            else:
                cats[g["cat"]].fn += 1
                sources[case["source"]].fn += 1
                cats[g["cat"]].misses.append(f"{case['id']}: {g['text']!r} in {case['text'][:140]!r}")
            if "period_year" in g:
                near = next((p for p in ps if _overlaps(p, g["span"])), None)
                if near is not None and near.period_year == g["period_year"]:
                    period.tp += 1
                else:
                    period.fn += 1
                    period.misses.append(
                        f"{case['id']}: {g['text']!r} -> {near.period_year if near else None}, want {g['period_year']}"
                    )
                    if near is not None and near.period_year is not None:
                        period.fp += 1
        complete = set(case.get("complete", []))
        for i, p in enumerate(ps):
            if i in used or any(_overlaps(p, span) for span in ignored):
                continue
            on_gold = any(_overlaps(p, g["span"]) for g in golds)
            kind = p.cat
            counted = (
                on_gold
                or kind in complete
                or (kind == "range" and complete & {"quantity", "percent", "money"})
            )
            if counted:
                cats[kind].fp += 1
                sources[case["source"]].fp += 1
                cats[kind].misses.append(f"{case['id']}: FP {case['text'][p.start : p.end]!r} as {kind}")
    return dict(cats), period, dict(sources)
