"""fact-extract itself: one fact per value, with its owner, period and confidence, in the seed's shape."""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from ..science.results import science_facts
from ..values import Period, Value, find_periods, find_values, parse_period_text, unit_dimension
from .about import find_about
from .context import About, NounChunks, Where
from .events import date_facts
from .fact import Fact
from .intervals import attach_intervals
from .labels import table_header
from .respectively import listed_names, respectively_lists
from .signals import attribute_of, choose_period, confidence_of, direction_of, looks_projected
from .vocabulary import (
    APPOSITION_RE,
    BY_RE,
    CHANGE_NOUNS,
    DIMENSION_ATTRIBUTES,
    GROWTH_CONTEXT_RE,
    HEDGE_WORDS_RE,
    MEASURE_NOUNS,
    METRIC_AFTER_RE,
    PRIOR_AHEAD_RE,
    PRIOR_RE,
    SEGMENT_SEPARATORS,
    STRONG_ANCHORS,
    TIME_NOUNS,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

__all__ = ["extract_from_doc", "source_attribution"]


def source_attribution(source_url: str | None, source_metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """The seed's ``{"url", "title"}`` object, plus author and date when the caller gave them."""
    meta = source_metadata or {}
    out: dict[str, Any] = {"url": source_url, "title": _str_or_none(meta.get("title"))}
    for key in ("author", "date"):
        val = _str_or_none(meta.get(key))
        if val is not None:
            out[key] = val
    return out


def _str_or_none(x: Any) -> str | None:
    if x is None:
        return None
    s = str(x).strip()
    return s or None


def _in_callers_words(facts: list[dict[str, Any]], text: str, original: str) -> list[dict[str, Any]]:
    """Each fact's sentence cut from the caller's text (the parser read it with markup blanked out)."""
    if original is not text:
        for fact in facts:
            start, end = fact["sentence_span"]
            fact["sentence"] = original[start:end].strip()
    return facts


def _respectively(
    doc: Doc, text: str, values: Sequence[Value], periods: Sequence[Period]
) -> tuple[dict[int, Period], dict[int, tuple[str, list[str]]]]:
    """ "A, B and C rose 5%, 6% and 7% respectively": each value's own period and owner, by its start."""
    respective: dict[int, Period] = {}
    names: dict[int, tuple[str, list[str]]] = {}
    for group in respectively_lists(text, values, periods):
        if group.periods is not None:
            respective.update({v.start: p for v, p in zip(group.values, group.periods, strict=True)})
        listed = listed_names(doc, group.start, group.end, len(group.values))
        if listed is not None:
            names.update({v.start: (name, listed) for v, name in zip(group.values, listed, strict=True)})
    return respective, names


def _where(text: str, span: Span, sent: Span, v: Value, this_year: int) -> Where:
    """A value's sentence, line (within the sentence) and clause segment (within the line)."""
    line_start = max(text.rfind("\n", 0, v.start) + 1, sent.start_char)
    nl = text.find("\n", v.end)
    line_end = min(nl if nl != -1 else len(text), sent.end_char)
    seg_start = max([line_start] + [text.rfind(c, line_start, v.start) + 1 for c in SEGMENT_SEPARATORS])
    seg_end = min([line_end] + [i for c in SEGMENT_SEPARATORS if (i := text.find(c, v.end, line_end)) != -1])
    return Where(text, span, sent, line_start, line_end, seg_start, seg_end, this_year)


def extract_from_doc(
    doc: Doc,
    *,
    source_url: str | None = None,
    source_metadata: Mapping[str, Any] | None = None,
    source_text: str | None = None,
    today: date | None = None,
) -> dict[str, Any]:
    """Seed output: ``{"facts": [...], "extraction_quality": float, "metadata": {"total_facts", "processing_time_ms"}}``.

    ``doc`` may be the parse of ``mask_markup(source_text)``; each fact's ``sentence`` is then cut
    from ``source_text``, the caller's own text. ``today`` is the request's date: whether a year is
    past or to come is judged against it (the rules never read the clock).
    """
    started = time.perf_counter()
    this_year = (today or date.today()).year
    text = doc.text
    source = source_attribution(source_url, source_metadata)
    periods = find_periods(text)
    values = find_values(text, exclude=[p.span for p in periods], spelled_counts=True)
    period_starts = [p.span[0] for p in periods]
    facts: list[Fact] = []
    scores: list[float] = []
    last_entity: str | None = None
    sents = list(doc.sents) if values or periods else []
    sent_starts = [x.start_char for x in sents]
    chunks = NounChunks(doc)
    respective, names = _respectively(doc, text, values, periods)
    for v in values:
        if v.year_like:
            continue
        span = doc.char_span(v.start, v.end, alignment_mode="expand")
        if span is None or len(span) == 0 or _identifier(span, v):
            continue
        w = _where(text, span, sents[bisect.bisect_right(sent_starts, span[0].idx) - 1], v, this_year)
        local = periods[
            bisect.bisect_left(period_starts, w.line_start) : bisect.bisect_right(period_starts, w.line_end)
        ]
        fact, score = _fact(w, v, local, facts, last_entity, chunks, values, respective.get(v.start))
        if fact is None:
            continue
        facts.append(fact)
        scores.append(score)
        if fact.anchor != "coreference":
            last_entity = fact.entity
    facts = attach_intervals([_refined(fact, names.get(fact.value_span[0])) for fact in facts], text)
    dated = date_facts(doc, periods, {fact.value_span[0] for fact in facts})
    scores.extend(1.0 for _ in dated)  # anchored, typed, dated, certain (projections are not kept)
    if dated:
        facts = sorted(facts + dated, key=lambda fact: fact.value_span[0])
    seed_facts = [fact.to_dict(source) for fact in facts]
    original = source_text if source_text is not None and len(source_text) == len(text) else text
    seed_facts = _in_callers_words(science_facts(seed_facts, text, original, source), text, original)
    quality = round(10.0 * sum(scores) / len(scores), 1) if scores else 0.0
    elapsed = (time.perf_counter() - started) * 1000.0
    return {
        "facts": seed_facts,
        "extraction_quality": quality,
        "metadata": {"total_facts": len(seed_facts), "processing_time_ms": round(elapsed)},
    }


def _identifier(span: Span, v: Value) -> bool:
    """A plain integer right after a name or a singular noun names a thing: "clone 23", "OMRON HEM 907",
    "LEO 1525", "Boeing 737", "Resolution 2254". Counts come before their noun; "age 65" is a measure."""
    if v.kind != "number" or v.unit or v.scale or v.low is not None or not re.fullmatch(r"\d+", v.text):
        return False
    if span.start == 0:
        return False
    before = span.doc[span.start - 1]
    if before.whitespace_ == "" or (not before.is_alpha and not re.fullmatch(r"[A-Za-z]+\d*", before.text)):
        return False  # "(3", "x3": not a word and a space before the number
    if before.lower_ in MEASURE_NOUNS or before.ent_type_ in (
        "DATE",
        "TIME",
        "MONEY",
        "PERCENT",
        "QUANTITY",
    ):
        return False
    root = span.root
    if root.head.i >= span.end and root.head.tag_ in ("NNS", "NNPS"):
        return False  # "10 native tree species", "14 times": the number counts the nouns after it
    if before.is_sent_start and before.is_title:
        return False  # "Whilst 10 ...": a capital at the start of a sentence names nothing
    return (
        before.pos_ == "PROPN" or (before.pos_ == "NOUN" and before.tag_ in ("NN", "NNP")) or before.is_upper
    )


def _refined(fact: Fact, respective: tuple[str, list[str]] | None) -> Fact:
    """The steps that refine a fact once its line has been read: its "respectively" owner, the measure its
    unit names, and a count of its own subject."""
    if respective is not None:
        fact = _respective_owner(fact, *respective)
    return _count_of_itself(_name_by_dimension(fact))


def _respective_owner(fact: Fact, name: str, listed: Sequence[str]) -> Fact:
    """The i-th name of a "respectively" list owns the i-th value; what the clause measured becomes the attribute.

    "Revenue for Alpha, Beta and Gamma was ..." -> (Beta, revenue); "Alpha, Beta and Gamma reported net
    income of ..." -> (Beta, net income): the other names are taken out of the clause's owner.
    """
    measured = re.split(r"\s+(?:for|of|at|in|from)\s+", fact.entity, maxsplit=1)[0]
    drop = {word.lower() for listed_name in listed for word in listed_name.split()} | {"and", "&"}
    rest = " ".join(word for word in measured.split() if word.lower() not in drop).strip().lower()
    if rest and fact.attribute in ("value", None):
        return replace(fact, entity=name, attribute=rest)
    return replace(fact, entity=name)


def _name_by_dimension(fact: Fact) -> Fact:
    """A quantity whose sentence names no measure is named by its unit: "took 3.5 days" -> duration.

    Only the generic ``value`` is replaced, only for a unit of one dimension ("km per h" stays), and
    not where the entity already names the measure ("Winter temperatures ... -18 °C", "a span of 12 m").
    """
    unit = fact.unit
    if fact.attribute != "value" or not unit or fact.currency or fact.value_kind == "count":
        return fact
    if fact.anchor == "of_noun":
        return fact  # "a height of 330 metres": the noun the value completes is the measure
    attribute = DIMENSION_ATTRIBUTES.get(unit_dimension(unit) or "")
    if attribute is not None and attribute not in (fact.entity or "").lower():
        return replace(fact, attribute=attribute)
    return fact


_COMPLEMENT_END_RE = re.compile(r"(?i)^(?P<owner>.+?)\s+(?:on|of|in|for|from|with|across|among|at)$")


def _count_of_itself(fact: Fact) -> Fact:
    """A number that counts its own subject is a count of it, not an attribute of itself.

    "Three patients withdrew" -> (patients, count), not (patients, patients); "Experiments on two
    translation tasks show ..." -> (Experiments, translation tasks): the counted noun leaves the owner.
    """
    entity, attribute = fact.entity, fact.attribute
    if not entity or not attribute or attribute in ("count", "value"):
        return fact
    if entity.lower() == attribute.lower():
        return replace(fact, attribute="count")
    if entity.lower().endswith(" " + attribute.lower()):
        owner = _COMPLEMENT_END_RE.match(entity[: -len(attribute)].rstrip())
        if owner is not None:
            return replace(fact, entity=owner.group("owner"))
    return fact


def _inherited(anchor: str, previous: Fact) -> str:
    """A value tied to the one before it ("$96.8bn (2023), $81.5bn (2022)") is as sure of its owner as that one."""
    earlier = previous.anchor
    return anchor if earlier in STRONG_ANCHORS else earlier


def _after_noun(gap: str, noun: str | None) -> str:
    """``gap`` without the counted noun it starts with (" employees at ... to " -> " at ... to ")."""
    stripped = gap.lstrip()
    if noun and stripped.lower().startswith(noun.lower()):
        return stripped[len(noun) :]
    return gap


def _mask_periods(text: str, start: int, end: int, periods: list[Period]) -> str:
    """``text[start:end]`` with each period inside it replaced by one NUL ("in Q3 FY2024, up" -> "in \\0, up")."""
    out, pos = [], start
    for p in periods:
        ps, pe = p.span
        if start <= ps and pe <= end:
            out += [text[pos:ps], "\x00"]
            pos = pe
    out.append(text[pos:end])
    return "".join(out)


@dataclass(frozen=True, slots=True)
class _Link:
    """How a value is tied to the fact before it on its line, when one is there."""

    previous: Fact | None
    prior: bool  # "down from £6.9bn": an earlier value of the same measure
    apposition: bool  # "$65.6 billion, up 16%": a change set beside the value it changes
    from_to: bool  # "from 3,331 employees at June 30, 2018 to 3,667 at June 30, 2019"
    continuation: bool  # "$96.8bn (2023), $81.5bn (2022)": a list of values of one measure
    conversion: bool  # "10kg (25lbs)": the same value in another unit


def _fact(
    where: Where,
    value: Value,
    periods: list[Period],
    facts: list[Fact],
    last_entity: str | None,
    chunks: NounChunks,
    others: Sequence[Value] = (),
    aligned: Period | None = None,
) -> tuple[Fact | None, float]:
    """One fact for one value (or ``None`` when nothing says what the value is about), with its quality score."""
    text = where.text
    link = _link_to_previous(where, value, periods, facts)
    about, counted, prior = _owner(where, value, periods, link, last_entity, chunks)
    if about is None or not re.search(r"[^\W\d_]", about.entity):
        return None, 0.0  # nothing, or nothing with a letter in it, owns the value
    about = _metric_after(where, value, about)
    typed_kind = _kind_and_unit(where, value, about, counted)
    if typed_kind is None:
        return None, 0.0
    kind, counted, about = typed_kind
    period = _period_of(where, value, periods, prior, others, aligned)
    period, about = _table_column(where, value, period, about)
    projection = _is_projection(where, value, period)
    hedge = HEDGE_WORDS_RE.search(text[max(where.seg_start, value.start - 24) : value.start])
    direction = _direction(where, value)
    value_kind, attribute = _kind_and_attribute(where, value, kind, about, direction, prior, link.apposition)
    typed = kind in ("currency", "percentage", "percentage_points", "count") or value.unit is not None
    fact = Fact(
        entity=about.entity,
        attribute=attribute,
        value=value.text,
        value_type=value.value_type,
        confidence=confidence_of(about.anchor, typed, projection, hedge is not None),
        numeric_value=value.numeric_value,
        value_kind=value_kind,
        currency=value.currency,
        unit=counted if kind == "count" and counted else value.unit,
        scale=value.scale,
        low=value.low,
        high=value.high,
        direction=direction,
        period=period,
        is_projection=projection,
        comparison="prior" if prior else None,
        qualifier=hedge.group(0).strip().lower() if hedge else None,
        value_span=(value.start, value.end),
        sentence_span=(where.line_start, where.line_end),
        sentence=text[where.line_start : where.line_end].strip(),
        anchor=about.anchor,
        typed_value=typed,
        has_period=period is not None,
    )
    anchor_score = 1.0 if about.anchor in STRONG_ANCHORS else 0.5
    certainty = 0.0 if projection else (0.5 if hedge else 1.0)
    score = 0.4 * anchor_score + 0.25 * typed + 0.2 * (period is not None) + 0.15 * certainty
    return fact, score


def _link_to_previous(where: Where, value: Value, periods: list[Period], facts: list[Fact]) -> _Link:
    """What lies between the fact before this value on its line and the value: a list, a conversion, a change."""
    text = where.text
    previous = facts[-1] if facts and facts[-1].sentence_span[0] == where.line_start else None
    prior = (
        bool(value.extras.get("prior"))
        or PRIOR_RE.search(text[max(where.seg_start, value.start - 30) : value.start]) is not None
    )
    if previous is None or previous.value_span[1] > value.start:
        return _Link(previous, prior, apposition=False, from_to=False, continuation=False, conversion=False)
    gap = _mask_periods(text, previous.value_span[1], value.start, periods)
    apposition = APPOSITION_RE.match(gap) is not None or re.fullmatch(r"\s*\(\s*[+±]?\s*", gap) is not None
    from_to = _from_to(where, previous, gap)
    continuation = (
        (from_to or re.fullmatch(r"\s*(?:\(\s*\x00\s*\))?\s*(?:,|and|,\s*and|&|\||\t)\s*", gap) is not None)
        and previous.value_kind in (value.kind, "count" if value.kind == "number" else "")
        and value.low is None
    )
    conversion = (
        re.fullmatch(r"\s*\(\s*(?:or\s+|about\s+|approximately\s+|approx\.\s*|~\s*|≈\s*)?", gap) is not None
        and (value.unit or value.currency) is not None
        and (previous.unit or previous.currency) is not None
        and previous.value_kind not in ("percentage", "growth")
    )
    return _Link(previous, prior, apposition, from_to, continuation, conversion)


def _from_to(where: Where, previous: Fact, gap: str) -> bool:
    """ "from 3,331 employees at June 30, 2018 to 3,667 at June 30, 2019": the same noun, later."""
    counted = previous.unit if previous.value_kind == "count" else None
    previous_start = previous.value_span[0]
    return (
        re.fullmatch(
            r"\s*(?:(?:at|in|on|as\s+of|for|by|during)\s+(?:the\s+)?\x00)?\s*,?\s*to\s*",
            _after_noun(gap, counted),
        )
        is not None
        and re.search(r"\bfrom\s*$", where.text[max(where.seg_start, previous_start - 8) : previous_start])
        is not None
    )


def _owner(
    where: Where,
    value: Value,
    periods: list[Period],
    link: _Link,
    last_entity: str | None,
    chunks: NounChunks,
) -> tuple[About | None, str | None, bool]:
    """What the value is about, the noun it counts, and whether it is a prior value: from the fact before
    it when the two are tied, else from its own clause."""
    if link.previous is not None:
        inherited = _from_previous(value, link, link.previous)
        if inherited is not None:
            return inherited
    about, counted = find_about(where, periods, last_entity, chunks, value.kind, value.unit)
    return about, counted, link.prior and about is not None and bool(value.extras.get("prior"))


def _from_previous(value: Value, link: _Link, previous: Fact) -> tuple[About, str | None, bool] | None:
    """A conversion, an appositive change, a list or a prior value shares the owner of the fact before it."""
    entity, attribute = previous.entity, previous.attribute
    if link.conversion:
        return (
            About(entity, attribute, _inherited("apposition", previous)),
            None,
            link.prior,
        )  # "10kg (25lbs)"
    if link.apposition and value.kind in ("percentage", "percentage_points"):
        # "$65.6 billion, up 16%"
        return About(entity, attribute, _inherited("apposition", previous)), None, link.prior
    if link.continuation:
        counted = previous.unit if previous.value_kind == "count" else None
        if link.from_to and value.kind == "number" and value.unit is None and value.scale is None and counted is None:  # fmt: skip
            value.unit = previous.unit  # "from 5 km in 2010 to 7 in 2020": the unit is stated once
        # "$96.8bn (2023), $81.5bn (2022)"
        return About(entity, attribute, _inherited("list", previous)), counted, link.prior
    if (
        link.prior
        and value.low is None
        and previous.value_kind in (value.kind, "count" if value.kind == "number" else "")
    ):
        counted = previous.unit if previous.value_kind == "count" and value.kind == "number" else None
        return (
            About(entity, attribute, _inherited("prior", previous)),
            counted,
            link.prior,
        )  # "down from £6.9bn"
    return None


def _metric_after(where: Where, value: Value, about: About) -> About:
    """ "$5 billion in revenue": a measure named right after the value is its attribute."""
    metric = METRIC_AFTER_RE.match(where.text[value.end : where.seg_end])
    if (
        metric
        and about.anchor not in ("prior", "apposition")
        and not (about.attribute or "").startswith("share")
    ):
        return About(about.entity, metric.group(1).lower(), about.anchor)
    return about


def _kind_and_unit(
    where: Where, value: Value, about: About, counted: str | None
) -> tuple[str, str | None, About] | None:
    """The value's kind (a count, a duration, a plain number) and its counted noun; ``None`` when a bare
    number says too little to be a fact."""
    kind = value.kind
    after = re.match(r"[\s-]+([A-Za-z]+)\b", where.text[value.end : where.seg_end])
    if (
        value.low is not None
        and value.unit is None
        and not counted
        and after
        and after.group(1).lower() in TIME_NOUNS
    ):
        value.unit = after.group(1).lower()  # "for 5–6 days": a range of durations, as "for 5 days" is one
    if kind == "number" and counted and counted.lower() in TIME_NOUNS:
        about = About(about.entity, None if about.attribute == counted else about.attribute, about.anchor)
        value.unit, counted = counted.lower(), None  # a duration: a number with a unit, not a count
    if kind == "number" and counted and value.unit is None:
        kind = "count"  # "260 million subscribers"; "3 miles height" keeps its unit
    elif value.unit is not None:
        counted = None
    elif kind == "number" and value.unit is None and about.anchor == "label" and about.attribute is None:
        head = about.entity.split()[-1].lower()
        if re.fullmatch(r"[a-z]+[^s]s", head):
            kind, counted = "count", about.entity.lower()  # "Employees: 340"
    if kind == "number" and value.unit is None and value.scale is None and abs(value.numeric_value) < 10 and value.numeric_value.is_integer():  # fmt: skip
        return None  # a bare small integer ("3 of them") says too little to be a fact
    if kind == "number" and value.unit is None and value.extras.get("spelled"):
        return None  # a number in words counts only with its noun ("three indicators"), never alone
    return kind, counted, about


def _period_of(
    where: Where,
    value: Value,
    periods: list[Period],
    prior: bool,
    others: Sequence[Value],
    aligned: Period | None,
) -> Period | None:
    """The value's period: the one after a prior value, else the nearest in its clause (or line), unless a
    "respectively" list gave it its own."""
    text = where.text
    period: Period | None
    if prior:
        later = [candidate for candidate in periods if candidate.span[0] >= value.end]
        period = choose_period(later, where.seg_start, where.seg_end, value)
    else:
        ahead = PRIOR_AHEAD_RE.search(text, value.end, where.seg_end)
        end = ahead.start() if ahead else where.seg_end
        period = choose_period(periods, where.seg_start, end, value, text, others) or choose_period(
            periods, where.line_start, end, value, text, others
        )
    if aligned is not None:
        period = (
            aligned  # "$36.5 million, $2.1 million and $3.7 million ... in 2019, 2018 and 2017, respectively"
        )
    return period


def _table_column(
    where: Where, value: Value, period: Period | None, about: About
) -> tuple[Period | None, About]:
    """In a table row, the column's header gives a period ("| Metric | 2023 |") or an attribute ("| Revenue |")."""
    text = where.text
    if "|" not in text[where.line_start : value.start]:
        return period, about
    column = table_header(text, value.start, text.rfind("\n", 0, value.start) + 1)
    column_period = parse_period_text(column) if column else None
    if period is None and column_period is not None:
        return column_period, about  # "| Metric | 2023 | 2024 |"
    if (
        column
        and column_period is None
        and about.attribute is None
        and re.fullmatch(r"[A-Za-z][\w &/().-]{0,40}", column)
    ):
        return period, About(about.entity, column.lower(), about.anchor)  # "| Company | Revenue |"
    return period, about


def _is_projection(where: Where, value: Value, period: Period | None) -> bool:
    """Whether the value is a forecast or target rather than something that happened."""
    text = where.text
    projection = looks_projected(where.span, text[where.seg_start : value.start], period, where.this_year)
    if (
        projection
        and period is not None
        and not period.target
        and (period.year or 9999) < where.this_year
        and re.search(r"\bfrom\s*$", text[max(where.seg_start, value.start - 8) : value.start])
    ):
        projection = False  # "expected to grow from $527 billion in 2023": the baseline already happened
    return projection


def _direction(where: Where, value: Value) -> str | None:
    """ "up", "down" or ``None``: from the words before the value, or a "+" sign ("(+12% YoY)")."""
    direction = direction_of(where.span, where.text, where.seg_start)
    if direction is None and where.text[max(0, value.start - 2) : value.start].strip().endswith("+"):
        direction = "up"  # "(+12% YoY)"
    return direction


def _kind_and_attribute(
    where: Where,
    value: Value,
    kind: str,
    about: About,
    direction: str | None,
    prior: bool,
    apposition: bool,
) -> tuple[str, str]:
    """The fact's ``value_kind`` (a level, a growth rate, a change) and its attribute."""
    text = where.text
    before = text[where.sent.start_char : value.start]
    value_kind = kind
    growth_context = (
        GROWTH_CONTEXT_RE.search(text[value.end : where.seg_end][:40])
        or GROWTH_CONTEXT_RE.search(text[max(where.seg_start, value.start - 40) : value.start])
    ) is not None
    if kind == "percentage" and value.low is None and not prior:
        is_level = re.search(r"\b(?:to|at|of|was|is|were|are|from)\s*$", before) is not None
        is_share = (about.attribute or "").startswith("share")
        if not is_share and (
            (not is_level and (direction or growth_context)) or about.attribute in CHANGE_NOUNS or apposition
        ):
            value_kind = "growth"
    sentence = text[where.sent.start_char : where.sent.end_char]
    attribute = attribute_of(about, value_kind, direction, sentence, kind)
    if kind == "currency" and direction and BY_RE.search(before) and about.anchor != "prior":
        attribute = "increase" if direction == "up" else "decrease"  # "increased by $1.3 billion"
        value_kind = "change"
    return value_kind, attribute
