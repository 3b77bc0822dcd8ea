"""conflict-detect: find facts from different sources that contradict each other.

Facts are grouped by normalised entity and attribute (case, whitespace, punctuation, articles,
simple plurals) and, where known, period; then like is compared with like: currency with the
same currency, percentage with percentage, counts with counts, dates with dates, text with text.
Values that differ only because they are about different periods or in different currencies
are not contradictions: they are listed under ``explained_differences`` with the reason in
``possible_explanation``, and never counted in ``total_conflicts``.

Numbers are compared by relative difference (see ``difference_percentage``)::

    difference_percentage = 100 * (high - low) / min(|high|, |low|)

where ``low``/``high`` are the smallest and largest values of the group (for ranges: the
closest ends of the two furthest-apart ranges; overlapping ranges agree). When the smaller
magnitude is zero the larger one is the base instead (``0`` vs ``5`` -> 100.0), so there is
never a division by zero. A group conflicts when ``difference_percentage / 100`` exceeds
``tolerance.numerical_threshold`` (``0`` flags any difference at all).

Bounds are open ranges: "more than $20 billion" agrees with $25 billion, "up to 10%" with 8%.

Severity: critical when the difference is >= 50 %, or the values disagree in sign, or one is
zero and another is not; moderate when >= 20 %; minor below that. For percentages the rating
is the lower of that and one on the gap in points (critical >= 10 pp, moderate >= 3 pp), so
2 % vs 3 % (50 % apart but one point) is minor; a sign flip stays critical. Text and date
contradictions are moderate.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .conflict_inputs import FactInput, FactSource, Tolerance
from .science.names import canonical_metric, known_metric, result_key
from .values import Period, Value, lexicon, parse_period_text, parse_value_string

__all__ = ["FactInput", "FactSource", "Tolerance", "detect_conflicts", "normalize_key"]

CRITICAL_PERCENT = 50.0
MODERATE_PERCENT = 20.0
CRITICAL_POINTS = 10.0
MODERATE_POINTS = 3.0
_SEVERITY_RANK = {"critical": 0, "moderate": 1, "minor": 2}


_ARTICLES = {"the", "a", "an"}
_NO_SINGULAR = ("ss", "us", "is", "ics", "news", "series", "species")


def _singular(word: str) -> str:
    if len(word) <= 3 or not word.endswith("s") or word.endswith(_NO_SINGULAR):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    return word[:-1]


def normalize_key(text: str) -> str:
    """Grouping key for entities and attributes: case, whitespace, punctuation, articles, simple plurals."""
    s = text.casefold().replace("’", "'")
    s = re.sub(r"'s\b", "", s)
    s = re.sub(r"[^\w%$€£¥]+", " ", s)
    words = [w for w in s.split() if w not in _ARTICLES]
    return " ".join(_singular(w) for w in words)


_GENERIC_ATTRIBUTES = {"value", "amount", "figure", "number"}


def _group_key(fact: FactInput) -> str:
    """Entity and attribute as one key, a generic attribute dropped: ("Apple", "revenue") = ("Apple revenue", "value").

    A result (a metric, given or named by the attribute) is keyed by method, metric and dataset, each
    normalised: "BLEU score" and "BLEU", "Acc." and "accuracy", "EN-DE" and "English-to-German" agree.
    """
    metric = fact.metric or known_metric(fact.attribute)
    if metric:
        return result_key(fact.entity, canonical_metric(metric) or metric, fact.dataset)
    entity, attribute = normalize_key(fact.entity), normalize_key(fact.attribute)
    return entity if attribute in _GENERIC_ATTRIBUTES or not attribute else f"{entity} {attribute}"


def _norm_text(value: str) -> str:
    s = value.casefold().replace("’", "'")
    s = re.sub(r"[^\w]+", " ", s)
    words = [w for w in s.split() if w not in _ARTICLES]
    return " ".join(words)


# ----------------------------------------------------------------------------- parsed facts


@dataclass(slots=True)
class _Parsed:
    index: int
    fact: FactInput
    category: str  # numeric | text | date
    kind: str = "number"  # currency | percentage | percentage_points | count | number
    number: float | None = None
    low: float | None = None
    high: float | None = None
    currency: str | None = None
    unit: str | None = None
    explicit_scale: bool = True
    period: Period | None = None
    period_key: str | None = None
    date: Period | None = None
    text: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def source_label(self) -> str:
        src = self.fact.source
        if isinstance(src, str) and src.strip():
            return src.strip()
        if isinstance(src, FactSource):
            name = (src.model_extra or {}).get("name")
            return (
                src.title or src.url or (name if isinstance(name, str) else None) or f"fact {self.index}"
            ).strip()
        return f"fact {self.index}"


def _period_of(fact: FactInput) -> tuple[Period | None, str | None]:
    p = fact.period
    if p is None:
        return None, None
    if isinstance(p, int):
        p = str(p)  # "period": 2024
    if isinstance(p, dict):
        key = p.get("key")
        text = p.get("text")
        parsed = parse_period_text(str(text)) if isinstance(text, str) else None
        if isinstance(key, str) and key.strip():
            return parsed, key.strip().upper()
        if parsed is not None:
            return parsed, parsed.key.upper()
        return None, (str(text).strip().upper() if text else None)
    parsed = parse_period_text(p)
    if parsed is not None:
        return parsed, parsed.key.upper()
    return None, (p.strip().upper() or None)


def _parse_fact(index: int, fact: FactInput) -> _Parsed:
    period, period_key = _period_of(fact)
    if period_key is None and fact.comparison == "prior":
        period_key = (
            "PRIOR PERIOD"  # "down from £6.9bn a year earlier": never the same period as the current value
        )
    raw = fact.value
    vt = fact.value_type
    if isinstance(raw, bool):  # pragma: no cover - StrictInt already rejects booleans
        raw = str(raw)
    if vt == "text":
        return _Parsed(index, fact, "text", period=period, period_key=period_key, text=str(raw))
    if vt == "date":
        d = parse_period_text(str(raw))
        if d is not None:
            return _Parsed(index, fact, "date", period=period, period_key=period_key, date=d, text=str(raw))
        return _Parsed(index, fact, "text", period=period, period_key=period_key, text=str(raw))
    parsed: Value | None
    if isinstance(raw, int | float):
        parsed = Value(
            text=str(raw), start=0, end=0, kind="number", numeric_value=float(raw), explicit_scale=False
        )
    else:
        parsed = parse_value_string(raw)
        if parsed is not None and parsed.year_like and vt is None:
            d = parse_period_text(raw)
            if d is not None:
                return _Parsed(index, fact, "date", period=period, period_key=period_key, date=d, text=raw)
    if parsed is None and fact.numeric_value is not None:
        parsed = Value(text=str(raw), start=0, end=0, kind="number", numeric_value=float(fact.numeric_value))
    if parsed is None:
        if vt is None:
            d = parse_period_text(str(raw))
            if d is not None and d.span == (0, len(str(raw).strip())):
                return _Parsed(
                    index, fact, "date", period=period, period_key=period_key, date=d, text=str(raw)
                )
        return _Parsed(index, fact, "text", period=period, period_key=period_key, text=str(raw))
    embedded = parsed.extras.get("period")
    if period_key is None and isinstance(embedded, Period):
        period, period_key = embedded, embedded.key.upper()  # "€1.2 billion (2023)"
    kind = parsed.kind
    currency = parsed.currency or (fact.currency.upper() if fact.currency else None)
    if fact.value_kind == "percentage_points" or kind == "percentage_points":
        kind = "percentage_points"
    elif kind == "percentage" or vt == "percentage":
        kind = "percentage"
    elif kind == "currency" or vt == "currency" or currency:
        kind = "currency"
    elif kind == "count" or (fact.unit and fact.value_kind == "count"):
        kind = "count"
    unit = parsed.unit if kind == "count" else (fact.unit if kind == "count" else None)
    if kind == "count" and not unit and fact.unit:
        unit = fact.unit
    number = parsed.numeric_value
    low, high = (parsed.low, parsed.high) if parsed.low is not None else (number, number)
    bound = parsed.extras.get("bound") or _bound_of(fact.qualifier)
    if bound == "lower":
        high = math.inf  # "more than $20 billion" agrees with $25 billion
    elif bound == "upper":
        low = -math.inf
    return _Parsed(
        index,
        fact,
        "numeric",
        kind=kind,
        number=number,
        low=low,
        high=high,
        currency=currency,
        unit=normalize_key(unit) if unit else None,
        explicit_scale=parsed.explicit_scale or abs(number) >= 1000,
        period=period,
        period_key=period_key,
        text=str(raw),
    )


def _bound_of(qualifier: str | None) -> str | None:
    q = (qualifier or "").strip().lower()
    if q in ("more than", "over", "at least", "above", "exceeding", "in excess of", "upwards of"):
        return "lower"
    if q in ("less than", "under", "up to", "below", "at most", "no more than", "as much as", "as many as"):
        return "upper"
    return None


# ----------------------------------------------------------------------------- comparison


def _infer_scales(items: list[_Parsed]) -> None:
    """Give unscaled numbers ("22.4") the scale that brings them closest to the group's scaled ones ("$28.5 billion")."""
    scaled = [p for p in items if p.explicit_scale and p.number]
    if not scaled:
        return
    ref = sorted(abs(p.number or 0.0) for p in scaled)[len(scaled) // 2]
    for p in items:
        if p.explicit_scale or not p.number or p.kind not in ("currency", "number", "count"):
            continue
        best_name, best_dist = None, math.inf
        for name, factor in lexicon.SCALES.items():
            dist = abs(math.log10(abs(p.number) * factor) - math.log10(ref))
            if dist < best_dist:
                best_name, best_dist = name, dist
        if best_name is None or best_dist > 1.0:
            continue  # nothing plausible: leave it as written
        factor = lexicon.SCALES[best_name]
        p.number *= factor
        p.low = (p.low or 0.0) * factor
        p.high = (p.high or 0.0) * factor
        p.notes.append(f"'{p.text}' has no scale; read as {best_name}s like the other figures")


def _relative_difference(items: list[_Parsed]) -> tuple[float, float, float]:
    """(difference_percentage, low, high): the gap between the furthest-apart values, relative to the smaller.

    For ranges, ``low`` is the smallest upper end and ``high`` the largest lower end; when
    ``high <= low`` every range overlaps the others and the values agree.
    """
    low = min(p.high for p in items if p.high is not None)
    high = max(p.low for p in items if p.low is not None)
    if high <= low or math.isclose(low, high, rel_tol=1e-9, abs_tol=1e-12):
        return 0.0, low, high
    base = min(abs(low), abs(high))
    if base == 0.0:
        base = max(abs(low), abs(high))
    return 100.0 * (high - low) / base, low, high


def _severity(diff: float, low: float, high: float, kind: str) -> str:
    if (low < 0 < high) or (low == 0.0) != (high == 0.0):
        return "critical"
    rating = "critical" if diff >= CRITICAL_PERCENT else "moderate" if diff >= MODERATE_PERCENT else "minor"
    if kind in ("percentage", "percentage_points"):
        gap = high - low
        points = "critical" if gap >= CRITICAL_POINTS else "moderate" if gap >= MODERATE_POINTS else "minor"
        rating = max(rating, points, key=lambda r: _SEVERITY_RANK[r])
    return rating


def _explain_numeric(items: list[_Parsed], low: float, high: float) -> str:
    reasons: list[str] = []
    if low < 0 < high:
        reasons.append("sources disagree on the sign (growth vs decline, profit vs loss)")
    if (low == 0.0) != (high == 0.0):
        reasons.append("one source reports zero; the difference is taken relative to the non-zero value")
    if 0 < low < high and math.isfinite(high):
        ratio = math.log10(high / low) if high / low < math.inf else math.inf
        if 2.5 < ratio < 13 and abs(ratio - round(ratio / 3) * 3) < 0.05:
            reasons.append(
                "the figures differ by a factor of about 1,000: a scale mix-up (thousand/million/billion) is likely"
            )
    if any(p.fact.is_projection for p in items):
        reasons.append("at least one figure is a projection or estimate")
    if any(p.period_key is None for p in items) and any(p.period_key for p in items):
        reasons.append("not every source states the period, so the figures may refer to different dates")
    if any(p.low != p.high for p in items):
        reasons.append("a source gives a range")
    if any(p.kind == "currency" and p.currency is None for p in items) and any(p.currency for p in items):
        reasons.append("not every source states the currency")
    for p in items:
        reasons.extend(p.notes)
    if not reasons:
        reasons.append("different measurement methodologies, market definitions or dates of estimate")
    text = "; ".join(reasons)
    return text[0].upper() + text[1:]


def _conflict(
    items: list[_Parsed],
    kind: str,
    severity: str | None,
    difference: float | None,
    explanation: str,
    **extra: Any,
) -> dict[str, Any]:
    """One entry in the seed's field order, then our additions."""
    first = items[0].fact
    periods = sorted({p.period_key for p in items if p.period_key})
    out: dict[str, Any] = {"entity": first.entity.strip(), "attribute": first.attribute.strip(), "type": kind}
    if severity is not None:
        out["severity"] = severity
    out |= {
        "values": [p.text for p in items],
        "sources": [p.source_label for p in items],
        "difference_percentage": difference,
        "possible_explanation": explanation,
        **extra,
        "fact_indices": [p.index for p in items],
        "period": periods[0] if len(periods) == 1 else None,
    }
    return out


def _numeric_conflict(items: list[_Parsed], threshold: float) -> dict[str, Any] | None:
    _infer_scales(items)
    diff, low, high = _relative_difference(items)
    if diff == 0.0 or diff / 100.0 <= threshold:
        return None
    kind = items[0].kind
    severity = _severity(diff, low, high, kind)
    explanation = _explain_numeric(items, low, high)
    if not math.isfinite(diff):
        explanation = f"The values are too far apart to express as a percentage; {explanation[0].lower()}{explanation[1:]}"
    out = _conflict(
        items,
        "numerical",
        severity,
        round(diff, 1) if math.isfinite(diff) else None,
        explanation,
        value_kind=kind,
        currency=next((p.currency for p in items if p.currency), None),
        normalized_values=[p.number for p in items],
    )
    if kind in ("percentage", "percentage_points") and math.isfinite(high - low):
        out["difference_points"] = round(high - low, 4)
    return out


def _text_conflict(items: list[_Parsed]) -> dict[str, Any] | None:
    norms = [_norm_text(p.text) for p in items]
    distinct: list[str] = []
    for n in norms:
        if any(n == d or _contains(n, d) or _contains(d, n) for d in distinct):
            continue
        distinct.append(n)
    if len(distinct) < 2:
        return None
    return _conflict(
        items,
        "text",
        "moderate",
        None,
        "Sources name different values; one may be outdated (a move, a rename, an acquisition) "
        "or simply wrong: check the primary source",
    )


def _contains(a: str, b: str) -> bool:
    """Whole-word containment: "london" in "london uk" (same place, more detail)."""
    return bool(b) and re.search(rf"(?:^| ){re.escape(b)}(?: |$)", a) is not None


def _date_conflict(items: list[_Parsed]) -> dict[str, Any] | None:
    dated = [p for p in items if p.date is not None and p.date.start and p.date.end]
    if len(dated) < 2:
        return None
    starts = [p.date.start for p in dated if p.date and p.date.start]
    ends = [p.date.end for p in dated if p.date and p.date.end]
    if max(starts) <= min(ends):
        return None  # "2024" and "March 2024" overlap: consistent at different precision
    return _conflict(
        items,
        "date",
        "moderate",
        None,
        "Sources give different dates; one may use an announcement date and the other a completion date",
    )


def _explained(items: list[_Parsed], reason: str, explanation: str) -> dict[str, Any]:
    out = _conflict(items, "explained", None, None, explanation, reason=reason)
    out.pop("period")
    out.pop("difference_percentage")
    out["periods"] = [p.period_key for p in items]
    return out


def _numeric_partitions(items: list[_Parsed]) -> tuple[list[list[_Parsed]], list[dict[str, Any]]]:
    """Split numeric facts into comparable partitions; report kinds and currencies that cannot be compared."""
    notes: list[dict[str, Any]] = []
    by_kind: dict[str, list[_Parsed]] = {}
    for p in items:
        family = "number" if p.kind == "count" else p.kind
        by_kind.setdefault(family, []).append(p)
    if len(by_kind) > 1:
        for family, members in list(by_kind.items()):
            if family == "number" and "currency" in by_kind:
                # "22.4" next to "$28.5 billion": the seed's bare numbers are amounts of the same thing
                by_kind["currency"].extend(members)
                del by_kind["number"]
        if len(by_kind) > 1:
            kinds = sorted(by_kind)
            notes.append(
                _explained(
                    items,
                    "different_value_types",
                    f"Values of different kinds ({', '.join(kinds)}) describe different measures; not a contradiction",
                )
            )
    partitions: list[list[_Parsed]] = []
    for family, members in by_kind.items():
        if family != "currency":
            partitions.append(members)
            continue
        codes = sorted({p.currency for p in members if p.currency})
        if len(codes) <= 1:
            partitions.append(members)
            continue
        notes.append(
            _explained(
                members,
                "different_currencies",
                f"Values are in different currencies ({', '.join(codes)}); amounts are not converted, "
                "so this is not a contradiction",
            )
        )
        for code in codes:
            same = [p for p in members if p.currency == code]
            if len(same) > 1:
                partitions.append(same)
    return partitions, notes


def _split_periods(items: list[_Parsed]) -> tuple[list[list[_Parsed]], list[dict[str, Any]]]:
    """Facts about different known periods are not compared; facts without a period join the only known one."""
    known = sorted({p.period_key for p in items if p.period_key})
    if len(known) <= 1:
        return [items], []
    groups: list[list[_Parsed]] = []
    for key in known:
        groups.append([p for p in items if p.period_key == key])
    unknown = [p for p in items if p.period_key is None]
    if len(unknown) > 1:
        groups.append(unknown)
    firsts = [g[0] for g in groups if g and g[0].period_key]
    distinct_values = {(_norm_text(p.text)) for p in firsts}
    notes = []
    if len(distinct_values) > 1:
        notes.append(
            _explained(
                firsts,
                "different_periods",
                f"Values refer to different periods ({', '.join(known)}); a change over time is not a contradiction",
            )
        )
    return groups, notes


def detect_conflicts(facts: Sequence[FactInput], tolerance: Tolerance) -> dict[str, Any]:
    """Seed output: ``{"total_conflicts", "conflicts": [...], "severity_summary": {"critical","moderate","minor"}}``.

    Adds ``explained_differences`` (values that differ for a stated reason, such as period or
    currency, and so are not conflicts) and, per conflict, ``fact_indices`` and normalised values.
    """
    threshold = tolerance.numerical_threshold
    groups: dict[str, list[_Parsed]] = {}
    for i, fact in enumerate(facts):
        groups.setdefault(_group_key(fact), []).append(_parse_fact(i, fact))
    conflicts: list[dict[str, Any]] = []
    explained: list[dict[str, Any]] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        period_groups, notes = _split_periods(members)
        explained.extend(notes)
        for group in period_groups:
            if len(group) < 2:
                continue
            numeric = [p for p in group if p.category == "numeric"]
            texts = [p for p in group if p.category == "text"]
            dates = [p for p in group if p.category == "date"]
            partitions, kind_notes = _numeric_partitions(numeric) if len(numeric) > 1 else ([], [])
            explained.extend(kind_notes)
            for part in partitions:
                if len(part) > 1 and (c := _numeric_conflict(part, threshold)) is not None:
                    conflicts.append(c)
            if len(texts) > 1 and (c := _text_conflict(texts)) is not None:
                conflicts.append(c)
            if len(dates) > 1 and (c := _date_conflict(dates)) is not None:
                conflicts.append(c)
    conflicts.sort(key=lambda c: (_SEVERITY_RANK[c["severity"]], c["fact_indices"][0]))
    summary = {"critical": 0, "moderate": 0, "minor": 0}
    for c in conflicts:
        summary[c["severity"]] += 1
    return {
        "total_conflicts": len(conflicts),
        "conflicts": conflicts,
        "severity_summary": summary,
        "explained_differences": explained,
    }
