"""fact-extract: atomic facts (entity, attribute, value) from a parsed document.

Values come from regex parsing (``values.py``); spaCy supplies sentences and the dependency
parse that says what each value is about. One pass over the text for values and periods,
then a short walk up the parse tree per value: no extra spaCy passes, so the cost after
``nlp(text)`` stays small.

Precision first: a value whose subject cannot be found is dropped rather than guessed, and
every fact says how sure we are (``confidence`` plus the features behind it).
"""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .values import Period, Value, find_periods, find_values

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = ["extract_from_doc", "source_attribution"]

_PROJECTION_LEMMAS = {
    "expect",
    "project",
    "forecast",
    "predict",
    "anticipate",
    "estimate",
    "target",
    "aim",
    "plan",
    "could",
    "would",
    "may",
    "might",
    "will",
    "shall",
    "should",
    "likely",
    "poise",
    "set",
}
_PROJECTION_WORDS_RE = re.compile(
    r"(?i)\b(?:could|would|may|might|will|expected|expects|projected|projects|projection|forecasts?|forecasted|"
    r"predicted|predicts|anticipated|estimated\s+to|likely\s+to|set\s+to|poised\s+to|on\s+track\s+to|"
    r"is\s+to|are\s+to|targets?|aims?\s+to|plans?\s+to|outlook|guidance|by\s+(?:the\s+end\s+of\s+)?(?:19|20)\d{2})\b"
)
_HEDGE_WORDS_RE = re.compile(
    r"(?i)(?:\b(?:approximately|approx\.?|about|around|roughly|nearly|almost|some|estimated|an\s+estimated|"
    r"circa|c\.|more\s+than|over|less\s+than|under|at\s+least|up\s+to|as\s+much\s+as|as\s+many\s+as)\s*$|~\s*$)"
)
_GROWTH_LEMMAS = {
    "grow",
    "rise",
    "increase",
    "climb",
    "jump",
    "surge",
    "gain",
    "soar",
    "expand",
    "rebound",
    "up",
    "improve",
    "accelerate",
    "advance",
}
_DECLINE_LEMMAS = {"fall", "decline", "drop", "decrease", "shrink", "slip", "slide", "plunge", "down", "contract", "dip", "lose", "tumble", "sink", "cut", "reduce"}  # fmt: skip
_GROWTH_CONTEXT_RE = re.compile(
    r"(?i)\b(?:year[-\s]over[-\s]year|yoy|y/y|cagr|annual(?:ly)?\s+growth|growth|quarter[-\s]over[-\s]quarter|qoq|q/q)\b"
)
_VALUE_LEMMAS = {"value", "worth", "valuation", "size", "reach", "hit", "total", "amount", "stand", "be"}
_PRONOUNS = {"it", "they", "this", "that", "these", "those", "which", "who", "he", "she", "we", "its"}
_GENERIC_HEADS = {"company", "firm", "group", "business", "figure", "number", "amount", "total", "it"}
_LABEL_RE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[^\s:|][^:|\n]{0,58}?)\s*[:|–—=]\s*(?:[~≈]\s*)?$")
_SKIP_DEPS = {
    "det",
    "punct",
    "case",
    "cc",
    "predet",
    "prep",
    "relcl",
    "acl",
    "appos",
    "advmod",
    "nummod",
    "quantmod",
}
_LEFT_KEEP_DEPS = {"compound", "amod", "poss", "nmod", "npadvmod"}
_TIME_NOUNS = {"year", "years", "month", "months", "day", "days", "week", "weeks", "hour", "hours", "quarter", "quarters", "minute", "minutes", "second", "seconds"}  # fmt: skip


_STRONG_ANCHORS = frozenset({"subject", "object", "label", "of_noun", "relative", "prior"})


@dataclass(frozen=True, slots=True)
class _About:
    """What a value is about, and how the answer was found (the anchor drives confidence)."""

    entity: str
    attribute: str | None
    anchor: str  # subject | object | label | of_noun | relative | prior | coreference | nearest_chunk


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


def _clean_phrase(tokens: list[Token]) -> str:
    words: list[str] = []
    for t in tokens:
        if t.dep_ in ("det", "punct", "case") or t.is_space or t.lower_ in ("'s", "’s"):
            continue
        if t.dep_ == "poss" and t.pos_ == "PRON":
            continue
        words.append(t.text)
    return " ".join(words).strip()


def _noun_phrase(head: Token, value_tokens: set[int], *, with_of: bool = True) -> str:
    """The head noun with its left modifiers (compounds, adjectives, possessors) and an ``of``/``for`` complement."""
    left: list[Token] = []
    for t in head.lefts:
        if t.dep_ in _LEFT_KEEP_DEPS or (t.dep_ == "poss"):
            left.extend(x for x in t.subtree if x.i not in value_tokens and not x.like_num)
    tokens = [*sorted(left, key=lambda x: x.i), head]
    if with_of:
        for t in head.rights:
            if t.dep_ == "prep" and t.lower_ in ("of", "for", "in") and t.i not in value_tokens:
                pobj = [c for c in t.children if c.dep_ == "pobj"]
                if pobj and pobj[0].pos_ in ("NOUN", "PROPN") and not pobj[0].like_num and pobj[0].ent_type_ not in ("DATE", "MONEY", "PERCENT", "CARDINAL"):  # fmt: skip
                    sub = [
                        x
                        for x in pobj[0].subtree
                        if x.i not in value_tokens and x.dep_ not in ("relcl", "acl")
                    ]
                    if len(sub) <= 6 and not any(x.like_num for x in sub):
                        tokens += [t, *sub]
                break
    phrase = _clean_phrase(tokens)
    if len(phrase.split()) > 10:
        phrase = _clean_phrase([*sorted(left, key=lambda x: x.i)[-4:], head])
    return phrase


def _subject_of(verb: Token) -> Token | None:
    """nsubj of ``verb``, inherited through conjunctions, xcomp/ccomp chains and auxiliaries."""
    seen = 0
    v: Token | None = verb
    while v is not None and seen < 6:
        seen += 1
        for c in v.children:
            if c.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") and c.dep_ != "expl":
                return c
        if v.dep_ in ("conj", "xcomp", "ccomp", "advcl", "pcomp") and v.head is not v:
            v = v.head
            if v.pos_ in ("NOUN", "PROPN") and verb.dep_ != "advcl":
                return v
            continue
        if v.dep_ == "relcl" and v.head.pos_ in ("NOUN", "PROPN"):
            return v.head
        if v.dep_ == "acl" and v.head.pos_ in ("NOUN", "PROPN"):
            return v.head
        break
    return None


_NOT_ENTITY_ENTS = ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "QUANTITY", "ORDINAL")
_CHANGE_NOUNS = {"increase", "growth", "rise", "decline", "drop", "gain", "jump", "change", "decrease", "fall", "cagr"}  # fmt: skip
# Verbs whose direct object, not their subject, is what a value is about ("Analysts estimate the market at $40bn").
_OBJECT_VERBS = {
    "estimate",
    "value",
    "put",
    "peg",
    "place",
    "size",
    "forecast",
    "project",
    "predict",
    "expect",
}
# What a money amount measures, from its verb ("raised $150m" is funding).
_VERB_ATTRIBUTES = {
    "raise": "funding",
    "invest": "investment",
    "spend": "spending",
    "earn": "earnings",
    "lose": "loss",
    "cost": "cost",
    "pay": "payment",
    "borrow": "debt",
    "acquire": "acquisition price",
    "buy": "acquisition price",
}
_METRIC_AFTER_RE = re.compile(
    r"^\s+(?:in|of)\s+(?:annual\s+|total\s+|net\s+|gross\s+|quarterly\s+|new\s+)?"
    r"(revenues?|sales|profits?|income|earnings|funding|investments?|assets|debt|cash|spending|capex|orders|"
    r"bookings|losses|savings|fees|taxes|exports|imports|financing|capital|subsidies|grants|sales\s+revenue)\b",
    re.IGNORECASE,
)
_PRIOR_RE = re.compile(
    r"(?i:\b(?:down|up|compared|comparison|versus|vs\.?|against|from)\s+(?:with\s+|to\s+|from\s+)?)$"
)
_SEGMENT_SEPARATORS = ("|", ";", "•")


def _count_noun(span: Span, head: Token, line_end: int) -> str | None:
    """The noun a number counts ("260 million paid subscribers" -> "paid subscribers"), on the same line, close by."""
    if head.pos_ != "NOUN" or head.idx >= line_end or head.i - span.end > 3 or head.i < span.end:
        return None
    between = span.doc[span.end : head.i + 1]
    if any(
        x.is_punct or x.is_space or x.like_num or x.pos_ in ("PROPN", "ADP", "DET", "SYM") for x in between
    ):
        return None
    if head.ent_type_ in ("DATE", "TIME") or head.lower_ in _TIME_NOUNS:
        return None
    return _clean_phrase(list(between)) or None


def _with_owner(phrase: str, noun: Token, value_tokens: set[int]) -> str:
    """Prefix a metric with its named owner: "Apple reported revenue of $5bn" -> "Apple revenue"."""
    verb = noun.head
    while verb.pos_ == "ADP" and verb.head is not verb:
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX"):
        return phrase
    subj = _subject_of(verb)
    if subj is None or subj.i in value_tokens:
        return phrase
    if subj.pos_ == "PROPN" or subj.ent_type_ in ("ORG", "GPE", "PERSON", "NORP", "PRODUCT"):
        owner = _noun_phrase(subj, value_tokens, with_of=False)
        if owner and owner.lower() not in phrase.lower():
            return f"{owner} {phrase}"
    return phrase


class _NounChunks:
    """Noun chunks per sentence, computed once and only when a value needs the proximity fallback."""

    def __init__(self) -> None:
        self._by_sentence: dict[int, list[Span]] = {}

    def between(self, sent: Span, start: int, end: int) -> list[Span]:
        chunks = self._by_sentence.get(sent.start)
        if chunks is None:
            chunks = self._by_sentence[sent.start] = list(sent.noun_chunks)
        return [c for c in chunks if c.start_char >= start and c.end_char <= end]


def _about(
    span: Span,
    sent: Span,
    line_start: int,
    line_end: int,
    text: str,
    last_entity: str | None,
    chunks: _NounChunks,
) -> tuple[_About | None, str | None]:
    """What the value in ``span`` is about (from the parse, or a ``Label:`` prefix), and the noun it counts."""
    label = _LABEL_RE.match(text[line_start : span.start_char])
    value_tokens = {t.i for t in span}
    root = span.root
    count_noun: str | None = None
    change_attr: str | None = None
    t = root
    for _ in range(12):
        head = t.head
        if head is t or head.idx >= line_end or head.idx < line_start:
            break
        if head.i in value_tokens:
            t = head
            continue
        if head.pos_ in ("NOUN", "PROPN") and t.dep_ in (
            "nummod",
            "compound",
            "amod",
            "quantmod",
            "nmod",
            "npadvmod",
        ):
            noun = _count_noun(span, head, line_end) if count_noun is None else None
            if noun is not None:
                count_noun = noun
                t = head
                continue
        if head.pos_ == "ADP" and t.dep_ == "pobj":
            prep = head
            owner = prep.head
            if owner.pos_ in ("NOUN", "PROPN") and owner.i not in value_tokens and owner.idx >= line_start:
                if owner.lemma_.lower() in _CHANGE_NOUNS:
                    change_attr = owner.lemma_.lower()
                    t = owner
                    continue
                if owner.lower_ in _PRONOUNS or owner.ent_type_ in _NOT_ENTITY_ENTS or owner.like_num:
                    t = owner
                    continue
                # "revenue of $5 billion", "a market share of 30%"
                phrase = _with_owner(_noun_phrase(owner, value_tokens, with_of=False), owner, value_tokens)
                return _About(phrase, count_noun or change_attr, "of_noun"), count_noun
            t = prep
            continue
        if head.pos_ in ("VERB", "AUX") or (head.pos_ == "ADJ" and head.dep_ in ("ROOT", "acomp")):
            if head.lemma_.lower() in _VERB_ATTRIBUTES and count_noun is None and change_attr is None:
                change_attr = _VERB_ATTRIBUTES[head.lemma_.lower()]
            if head.lemma_.lower() in _OBJECT_VERBS:
                obj = next((c for c in head.children if c.dep_ == "dobj" and c.i not in value_tokens), None)
                if (
                    obj is not None
                    and obj.pos_ in ("NOUN", "PROPN")
                    and obj.ent_type_ not in _NOT_ENTITY_ENTS
                ):
                    return _About(
                        _noun_phrase(obj, value_tokens), count_noun or change_attr, "object"
                    ), count_noun
            subj = _subject_of(head)
            if (
                subj is not None
                and subj.i not in value_tokens
                and not subj.like_num
                and subj.idx >= line_start
            ):
                if subj.pos_ == "PRON" or subj.lower_ in _PRONOUNS:
                    if label:
                        break
                    if last_entity:
                        return _About(last_entity, count_noun or change_attr, "coreference"), count_noun
                    return None, count_noun
                if subj.ent_type_ in _NOT_ENTITY_ENTS:
                    break
                anchor = "relative" if head.dep_ == "relcl" else "subject"
                return _About(_noun_phrase(subj, value_tokens), count_noun or change_attr, anchor), count_noun
            if head.dep_ == "ROOT":
                break
            t = head
            continue
        if t.dep_ in ("dobj", "attr", "npadvmod", "advmod", "oprd", "appos", "conj", "prep", "acomp", "nmod", "dep", "pobj"):  # fmt: skip
            t = head
            continue
        break
    if label:
        name = label.group("label").strip()
        if name and not re.search(r"\d", name) and len(name.split()) <= 8:
            return _About(name, count_noun or change_attr, "label"), count_noun
    # Nothing syntactic: the nearest preceding noun chunk in the same sentence and line.
    best: Span | None = None
    for chunk in chunks.between(sent, line_start, span.start_char):
        if (
            any(x.like_num for x in chunk)
            or chunk.root.pos_ == "PRON"
            or chunk.root.ent_type_ in _NOT_ENTITY_ENTS
        ):
            continue
        best = chunk
    if best is not None:
        about = _About(
            _noun_phrase(best.root, value_tokens, with_of=False), count_noun or change_attr, "nearest_chunk"
        )
        return about, count_noun
    return None, count_noun


def _direction(span: Span, text: str, seg_start: int) -> str | None:
    """'up'/'down' when the value is a change governed by a growth or decline word."""
    t = span.root
    for _ in range(4):
        lemma = t.lemma_.lower()
        if lemma in _GROWTH_LEMMAS:
            return "up"
        if lemma in _DECLINE_LEMMAS:
            return "down"
        if t.head is t:
            break
        t = t.head
    before = text[max(seg_start, span.start_char - 20) : span.start_char].lower()
    if re.search(r"\b(?:up|higher|increase of|growth of|gain of)\s*(?:by\s*)?$", before):
        return "up"
    if re.search(r"\b(?:down|lower|decrease of|decline of|drop of)\s*(?:by\s*)?$", before):
        return "down"
    return None


def _is_projection(span: Span, sent_text_before: str, period: Period | None) -> bool:
    if period is not None and period.target:
        return True
    t = span.root
    for _ in range(6):
        if t.pos_ in ("VERB", "AUX"):
            if t.lemma_.lower() in _PROJECTION_LEMMAS and t.lemma_.lower() not in ("set", "be"):
                return True
            for c in t.children:
                if c.dep_ == "aux" and c.lemma_.lower() in _PROJECTION_LEMMAS:
                    return True
        if t.head is t:
            break
        t = t.head
    return _PROJECTION_WORDS_RE.search(sent_text_before[-80:]) is not None


def _choose_period(periods: list[Period], lo: int, hi: int, value: Value) -> Period | None:
    """The period in the same sentence and line closest to the value (ties go to the one after it)."""
    best: tuple[int, Period] | None = None
    for p in periods:
        ps, pe = p.span
        if ps < lo or pe > hi or (ps < value.end and value.start < pe):
            continue
        dist = ps - value.end if ps >= value.end else (value.start - pe) + 3
        if best is None or dist < best[0]:
            best = (dist, p)
    return best[1] if best else None


def _confidence(anchor: str, typed: bool, projection: bool, hedged: bool) -> str:
    strong = anchor in _STRONG_ANCHORS
    if projection or (not strong and not typed):
        return "Low"
    if strong and typed and not hedged:
        return "High"
    return "Medium"


def extract_from_doc(
    doc: Doc, *, source_url: str | None = None, source_metadata: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Seed output: ``{"facts": [...], "extraction_quality": float, "metadata": {"total_facts", "processing_time_ms"}}``."""
    started = time.perf_counter()
    text = doc.text
    source = source_attribution(source_url, source_metadata)
    periods = find_periods(text)
    values = find_values(text, exclude=[p.span for p in periods])
    facts: list[dict[str, Any]] = []
    scores: list[float] = []
    last_entity: str | None = None
    sents = list(doc.sents) if values else []
    sent_starts = [x.start_char for x in sents]
    chunks = _NounChunks()
    for v in values:
        span = doc.char_span(v.start, v.end, alignment_mode="expand")
        if span is None or len(span) == 0:
            continue
        sent = sents[bisect.bisect_right(sent_starts, span[0].idx) - 1]
        line_start = max(text.rfind("\n", 0, v.start) + 1, sent.start_char)
        nl = text.find("\n", v.end)
        line_end = min(nl if nl != -1 else len(text), sent.end_char)
        seg_start = max([line_start] + [text.rfind(c, line_start, v.start) + 1 for c in _SEGMENT_SEPARATORS])
        seg_end = min(
            [line_end] + [i for c in _SEGMENT_SEPARATORS if (i := text.find(c, v.end, line_end)) != -1]
        )
        kind = v.kind
        count_unit: str | None = None
        if v.year_like:
            continue
        prior = _PRIOR_RE.search(text[max(seg_start, v.start - 30) : v.start])
        previous = facts[-1] if facts and facts[-1]["sentence_span"][0] == line_start else None
        about: _About | None
        if prior and previous is not None and v.low is None and previous["value_kind"] in (v.kind, "count"):
            about = _About(previous["entity"], previous["attribute"], "prior")
            counted = previous["unit"] if previous["value_kind"] == "count" and v.kind == "number" else None
        else:
            prior = None
            about, counted = _about(span, sent, seg_start, seg_end, text, last_entity, chunks)
        if about is None:
            continue
        metric = _METRIC_AFTER_RE.match(text[v.end : seg_end])
        if metric and about.anchor != "prior":
            about = _About(about.entity, metric.group(1).lower(), about.anchor)
        if kind == "number" and counted:
            kind = "count"
            count_unit = counted.lower()
        if kind == "number" and v.unit is None and v.scale is None and count_unit is None and abs(v.numeric_value) < 10 and v.numeric_value == int(v.numeric_value):  # fmt: skip
            continue  # a bare small integer ("3 of them") says too little to be a fact
        if prior:
            period = _choose_period([p for p in periods if p.span[0] >= v.end], seg_start, seg_end, v)
        else:
            period = _choose_period(periods, seg_start, seg_end, v) or _choose_period(
                periods, line_start, line_end, v
            )
        before = text[sent.start_char : v.start]
        projection = _is_projection(span, before, period)
        hedge = _HEDGE_WORDS_RE.search(text[max(line_start, v.start - 24) : v.start])
        direction = _direction(span, text, seg_start)
        value_kind = kind
        if (
            kind == "percentage"
            and v.low is None
            and not re.search(r"\b(?:to|at|of|was|is|were|are)\s*$", before)
            and (
                direction
                or _GROWTH_CONTEXT_RE.search(text[v.end : line_end][:40])
                or _GROWTH_CONTEXT_RE.search(text[max(line_start, v.start - 40) : v.start])
            )
        ) or (kind == "percentage" and v.low is None and about.attribute in _CHANGE_NOUNS):
            value_kind = "growth"
        attribute = _attribute(about, value_kind, direction, text[sent.start_char : sent.end_char], kind)
        typed = kind in ("currency", "percentage", "percentage_points", "count") or v.unit is not None
        confidence = _confidence(about.anchor, typed, projection, hedge is not None)
        fact: dict[str, Any] = {
            "entity": about.entity,
            "attribute": attribute,
            "value": v.text,
            "value_type": v.value_type,
            "confidence": confidence,
            "source": dict(source),
            "numeric_value": v.numeric_value,
            "value_kind": value_kind,
            "currency": v.currency,
            "unit": count_unit if kind == "count" else v.unit,
            "scale": v.scale,
            "range": {"low": v.low, "high": v.high} if v.low is not None else None,
            "direction": direction,
            "period": period.to_dict() if period else None,
            "is_projection": projection,
            "comparison": "prior" if prior else None,
            "qualifier": hedge.group(0).strip().lower() if hedge else None,
            "value_span": [v.start, v.end],
            "sentence_span": [line_start, line_end],
            "sentence": text[line_start:line_end].strip(),
            "confidence_features": {
                "entity_anchor": about.anchor,
                "typed_value": typed,
                "has_period": period is not None,
                "projection": projection,
                "hedged": hedge is not None,
            },
        }
        facts.append(fact)
        anchor_score = 1.0 if about.anchor in _STRONG_ANCHORS else 0.5
        certainty = 0.0 if projection else (0.5 if hedge else 1.0)
        scores.append(0.4 * anchor_score + 0.25 * typed + 0.2 * (period is not None) + 0.15 * certainty)
        if about.anchor != "coreference":
            last_entity = about.entity
    quality = round(10.0 * sum(scores) / len(scores), 1) if scores else 0.0
    elapsed = (time.perf_counter() - started) * 1000.0
    return {
        "facts": facts,
        "extraction_quality": quality,
        "metadata": {"total_facts": len(facts), "processing_time_ms": round(elapsed)},
    }


def _attribute(about: _About, value_kind: str, direction: str | None, sentence: str, kind: str) -> str:
    """A short label for what is measured: growth, change, a counted noun, or ``value``."""
    if value_kind == "growth":
        if about.attribute == "cagr":
            return "CAGR"
        return "growth" if direction != "down" else "decline"
    if kind == "percentage_points":
        return "change"
    if kind == "count" and about.attribute:
        return about.attribute.lower()
    if about.attribute:
        return about.attribute.lower()
    if kind == "percentage":
        if "share" in sentence.lower():
            return "share"
        return "percentage"
    return "value"
