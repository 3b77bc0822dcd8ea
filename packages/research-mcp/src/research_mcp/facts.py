"""fact-extract: atomic facts (entity, attribute, value) from a parsed document.

Values come from regex parsing (``values.py``); spaCy supplies sentences and the dependency
parse that says what each value is about. One pass over the text for values and periods,
then a short walk up the parse tree per value: no extra spaCy passes, so the cost after
``nlp(text)`` stays small.

Precision first: a value whose subject cannot be found is dropped rather than guessed, and
every fact says how sure we are (``confidence`` plus the features behind it). The rules are
documented in the package README (section "fact-extract").
"""

from __future__ import annotations

import bisect
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from .respectively import listed_names, respectively_lists
from .values import Period, Value, find_periods, find_values, parse_period_text

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = ["extract_from_doc", "source_attribution"]

# ----------------------------------------------------------------------------- vocabulary

_PROJECTION_LEMMAS = {"expect", "project", "forecast", "predict", "anticipate", "estimate", "target", "aim", "plan", "could", "would", "may", "might", "will", "shall", "should", "likely", "poise"}  # fmt: skip
# Case-sensitive on purpose: "May 2024" is a month, "Target" a retailer.
_PROJECTION_WORDS_RE = re.compile(
    r"\b(?:could|would|may|might|will|Will|expected|expects|projected|projects|projection|forecasts?|forecasted|"
    r"predicted|predicts|anticipated|estimated\s+to|likely\s+to|set\s+to|poised\s+to|on\s+track\s+to|"
    r"aims?\s+to|plans?\s+to|outlook|guidance)\b"
)
_RELATIVE_CLAUSE_RE = re.compile(r",\s*(?:which|who|that|as)\b[^,]*,")
_HEDGE_WORDS_RE = re.compile(
    r"(?i)(?:\b(?:approximately|approx\.?|about|around|roughly|nearly|almost|some|estimated|an\s+estimated|"
    r"circa|c\.|more\s+than|over|less\s+than|under|at\s+least|up\s+to|as\s+much\s+as|as\s+many\s+as)\s*$|~\s*$)"
)
_GROWTH_LEMMAS = {"grow", "rise", "increase", "climb", "jump", "surge", "gain", "soar", "expand", "rebound", "up", "improve", "accelerate", "advance", "widen", "double", "triple", "boost"}  # fmt: skip
_DECLINE_LEMMAS = {"fall", "decline", "drop", "decrease", "shrink", "slip", "slide", "plunge", "down", "contract", "dip", "lose", "tumble", "sink", "cut", "reduce", "narrow", "ease", "lower"}  # fmt: skip
_GROWTH_CONTEXT_RE = re.compile(
    r"(?i)\b(?:year[-\s]over[-\s]year|yoy|y/y|cagr|annual(?:ly)?\s+growth|growth|quarter[-\s]over[-\s]quarter|qoq|q/q)\b"
)
_PERSONAL = {"i", "we", "you", "he", "she"}  # never resolved to the previous fact's entity
_PRONOUNS = {"it", "they", "this", "that", "these", "those", "which", "who", "he", "she", "we", "its", "i", "you"}  # fmt: skip
# Nouns that report a figure rather than own it ("The report values the market at ...").
_REPORTER_LEMMAS = {"report", "study", "survey", "analyst", "researcher", "research", "estimate", "forecast", "data", "analysis", "paper", "author", "source", "figure", "statistic"}  # fmt: skip
_LABEL_RE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[^\s:|][^:|\n]{0,58}?)\s*[:|–—=]\s*(?:[~≈]\s*)?$")
_LINE_LABEL_RE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[A-Za-z][^:|\n\d]{0,40}?)\s*:")
_LEFT_KEEP_DEPS = {"compound", "amod", "poss", "nmod", "npadvmod"}
_TIME_NOUNS = {"year", "years", "month", "months", "day", "days", "week", "weeks", "hour", "hours", "quarter", "quarters", "minute", "minutes", "second", "seconds"}  # fmt: skip
_NOT_ENTITY_ENTS = ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "QUANTITY", "ORDINAL")
_CHANGE_NOUNS = {"increase", "growth", "rise", "decline", "drop", "gain", "jump", "change", "decrease", "fall", "cagr"}  # fmt: skip
# Verbs whose direct object, not their subject, is what a value is about ("Analysts estimate the market at $40bn").
_OBJECT_VERBS = {"estimate", "value", "put", "peg", "place", "size", "forecast", "project", "predict", "expect", "acquire", "buy", "purchase"}  # fmt: skip
# What a money amount measures, from its verb ("raised $150m" is funding).
_VERB_ATTRIBUTES = {"raise": "funding", "invest": "investment", "spend": "spending", "earn": "earnings", "lose": "loss", "cost": "cost", "pay": "payment", "borrow": "debt", "acquire": "acquisition price", "buy": "acquisition price"}  # fmt: skip
_METRIC_AFTER_RE = re.compile(
    r"^\s+(?:in|of)\s+(?:annual\s+|total\s+|net\s+|gross\s+|quarterly\s+|new\s+)?"
    r"(revenues?|sales|profits?|income|earnings|funding|investments?|assets|debt|cash|spending|capex|orders|"
    r"bookings|losses|savings|fees|taxes|exports|imports|financing|capital|subsidies|grants|sales\s+revenue)\b",
    re.IGNORECASE,
)
_PRIOR_RE = re.compile(
    r"(?i:\b(?:(?:down|up)\s+from|compared\s+(?:with|to)|in\s+comparison\s+(?:with|to)|versus|vs\.?|against|from)\s*)$"
)
# Where a later value's comparison starts: periods after this belong to the prior value.
_PRIOR_AHEAD_RE = re.compile(
    r"(?i:\b(?:up|down)\s+from\b|\bcompared\s+(?:with|to)\b|\bversus\b|\bvs\.?\s|\bfrom\s+(?=[$€£¥]|(?!(?:19|20)\d{2}\b)\d))"
)
# "..., up 16%" or "..., or 14%," right after another value: the same thing's change.
_APPOSITION_RE = re.compile(
    r"^\s*(?:(?:in|for|during|at|as\s+of)\s+(?:the\s+)?\x00\s*)?,?\s*"
    r"(?:(?:up|down)(?:\s+by)?|or|an?\s+(?:increase|decrease|rise|decline|drop|gain)\s+of)\s*$",
    re.I,
)
_AMOUNT_LIKE_RE = re.compile(r"^(?:[A-Z]{0,3}[$€£¥₹]|[-−]?\d[\d.,]*(?:[kKmMbBT]|bn|mn|%)?$)")
_CLAUSE_BREAK_RE = re.compile(r"(?i)\b(?:while|whereas|but|although|though|however)\b")
_CHANGE_VERBS = {"reduce", "cut", "lower", "increase", "raise", "boost", "lift", "improve", "decrease", "slash", "grow", "expand", "shrink"}  # fmt: skip
_BY_RE = re.compile(r"(?i:\bby\s*)$")
_SEGMENT_SEPARATORS = ("|", ";", "•")
_STRONG_ANCHORS = frozenset(
    {"subject", "object", "label", "of_noun", "relative", "prior", "apposition", "list"}
)


@dataclass(frozen=True, slots=True)
class _About:
    """What a value is about, and how the answer was found (the anchor drives confidence)."""

    entity: str
    attribute: str | None
    anchor: str  # subject|object|label|of_noun|relative|prior|apposition|list|coreference|nearest_chunk


@dataclass(frozen=True, slots=True)
class _Where:
    """A value's place in the text: its tokens, sentence, line and clause (segment) bounds."""

    text: str
    span: Span
    sent: Span
    line_start: int
    line_end: int
    seg_start: int
    seg_end: int


class _NounChunks:
    """The document's noun chunks, computed once and only when a value needs the proximity fallback.

    ``Span.noun_chunks`` re-runs the iterator over the whole document on every call, so a long text
    with many values would pay for it once per value.
    """

    def __init__(self, doc: Doc) -> None:
        self._doc = doc
        self._chunks: list[Span] | None = None
        self._starts: list[int] = []

    def between(self, start: int, end: int) -> list[Span]:
        if self._chunks is None:
            self._chunks = list(self._doc.noun_chunks)
            self._starts = [c.start_char for c in self._chunks]
        i = bisect.bisect_left(self._starts, start)
        out: list[Span] = []
        while i < len(self._chunks) and self._chunks[i].start_char < end:
            if self._chunks[i].end_char <= end:
                out.append(self._chunks[i])
            i += 1
        return out


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


# ----------------------------------------------------------------------------- phrases


def _dated_run(t: Token) -> bool:
    """Whether ``t`` is in a DATE entity that names a numbered period ("third-quarter"), not "monthly"."""
    doc = t.doc
    i = t.i
    while i > 0 and doc[i].ent_iob_ == "I" and doc[i - 1].ent_type_ == "DATE":
        i -= 1
    j = t.i
    while j + 1 < len(doc) and doc[j + 1].ent_iob_ == "I":
        j += 1
    return any(x.like_num for x in doc[i : j + 1])


def _clean_phrase(tokens: list[Token]) -> str:
    words: list[str] = []
    for t in tokens:
        if t.dep_ in ("det", "case") or (t.is_punct and t.text not in "-&") or t.is_space:
            continue
        if t.lower_ in ("'s", "’s") or (t.dep_ == "poss" and t.pos_ == "PRON"):
            continue
        if t.ent_type_ == "DATE" and _dated_run(t):
            continue  # "third-quarter revenue": the quarter is the fact's period, not part of its entity
        words.append(t.text)
    return re.sub(r"\s*-\s*", "-", " ".join(words)).strip(" -")


def _noun_phrase(head: Token, value_tokens: set[int], *, with_of: bool = True) -> str:
    """The head noun with its left modifiers (compounds, adjectives, possessors) and an ``of``/``for`` complement."""
    left: list[Token] = []
    for t in head.lefts:
        if t.dep_ in _LEFT_KEEP_DEPS:
            left.extend(x for x in t.subtree if x.i not in value_tokens and not x.like_num)
    tokens = [*sorted(left, key=lambda x: x.i), head]
    if head.pos_ == "PROPN":
        # "Windows 11", "S&P 500": a number right after a name is part of it
        tokens += [
            c for c in head.rights if c.dep_ == "nummod" and c.i == head.i + 1 and c.i not in value_tokens
        ]
    if with_of:
        for t in head.rights:
            if t.dep_ == "prep" and t.lower_ in ("of", "for", "in", "at", "on") and t.i not in value_tokens:
                pobj = [c for c in t.children if c.dep_ == "pobj"]
                if pobj and pobj[0].pos_ in ("NOUN", "PROPN") and not pobj[0].like_num and pobj[0].ent_type_ not in _NOT_ENTITY_ENTS:  # fmt: skip
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
    """nsubj of ``verb``, inherited through conjunctions, xcomp/ccomp chains and relative clauses."""
    v = verb
    for _ in range(6):
        for c in v.children:
            if c.dep_ in ("nsubj", "nsubjpass", "csubj"):
                if c.tag_ in ("WDT", "WP") and v.dep_ == "relcl" and v.head.pos_ in ("NOUN", "PROPN"):
                    return v.head  # "Its shares, which have gained 20%": the shares
                return c
        if v.dep_ in ("conj", "xcomp", "ccomp", "advcl", "pcomp") and v.head is not v:
            v = v.head
            if v.pos_ in ("NOUN", "PROPN") and verb.dep_ != "advcl":
                return v
            continue
        if v.dep_ in ("relcl", "acl") and v.head.pos_ in ("NOUN", "PROPN"):
            return v.head
        break
    return None


def _outer_subject(verb: Token, value_tokens: set[int]) -> str | None:
    """The named subject of the clause that embeds ``verb`` ("The company said it would ...")."""
    v = verb
    for _ in range(3):
        if v.dep_ not in ("ccomp", "xcomp", "advcl", "conj") or v.head is v:
            return None
        v = v.head
        subj = next((c for c in v.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if (
            subj is not None
            and subj.pos_ in ("NOUN", "PROPN")
            and subj.lemma_.lower() not in _REPORTER_LEMMAS
        ):
            return _noun_phrase(subj, value_tokens)
    return None


def _object_of(verb: Token, value_tokens: set[int]) -> Token | None:
    """The direct object of an estimating verb, or of the estimating verb it is conjoined to."""
    v = verb
    for _ in range(2):
        obj = next((c for c in v.children if c.dep_ == "dobj" and c.i not in value_tokens), None)
        if obj is not None and obj.pos_ in ("NOUN", "PROPN") and obj.ent_type_ not in _NOT_ENTITY_ENTS:
            return obj
        if v.dep_ == "conj" and v.head.lemma_.lower() in _OBJECT_VERBS:
            v = v.head
            continue
        break
    return None


def _count_noun(span: Span, head: Token, line_end: int) -> str | None:
    """The noun a number counts ("260 million paid subscribers" -> "paid subscribers"), on the same line, close by."""
    plural_name = head.pos_ == "PROPN" and (
        head.tag_ == "NNPS" or re.fullmatch(r"\w+[^s]s", head.text) is not None
    )
    if (
        (head.pos_ != "NOUN" and not plural_name)
        or head.idx >= line_end
        or head.i - span.end > 4
        or head.i < span.end
    ):
        return None
    between = span.doc[span.end : head.i + 1]
    for x in between:
        if (x.is_punct and x.text != "-") or x.is_space or x.like_num or x.pos_ in ("ADP", "DET", "SYM"):
            return None
        if x.pos_ == "PROPN" and x.i != head.i:
            return None
    if head.lower_ in _TIME_NOUNS:
        # "73.4 years" as a level ("rose to", "is", "of") is a duration; "over 3 years" is not a fact
        role = head.head.lower_ if head.dep_ == "pobj" else head.dep_
        return head.text if role in ("attr", "dobj", "oprd", "to", "of", "at") else None
    if head.ent_type_ in ("DATE", "TIME"):
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


def _of_complement(span: Span, value_tokens: set[int]) -> Token | None:
    """``45% of respondents``: the noun after the value's own "of"."""
    for t in span:
        for c in t.children:
            if c.dep_ == "prep" and c.lower_ == "of" and c.i not in value_tokens:
                pobj = next((x for x in c.children if x.dep_ == "pobj"), None)
                if (
                    pobj is not None
                    and pobj.pos_ in ("NOUN", "PROPN")
                    and pobj.ent_type_ not in _NOT_ENTITY_ENTS
                ):
                    return pobj
    return None


def _label(text: str, start: int, end: int, periods: list[Period]) -> str | None:
    """``Revenue: $5.2M`` or ``Sales: Q1 2024 $2.1bn``: the label just before a value on its line."""
    before = text[start:end]
    for p in periods:
        ps, pe = p.span
        if start <= ps and pe <= end and not text[pe:end].strip(" ()"):
            before = text[start:ps]  # a period between the label and the value
    m = _LABEL_RE.match(before)
    if m is None:
        cell = _previous_cell(text, start, before)
        if cell is None:
            return None
        name = cell
    else:
        name = m.group("label").strip()
    if not name or re.search(r"\d", name) or len(name.split()) > 8:
        return None
    return name


def _table_header(text: str, pos: int, line_start: int) -> str | None:
    """The header of a value's column in a ``|`` table (``| Metric | 2023 | 2024 |``)."""
    line_end = text.find("\n", pos)
    line = text[line_start : line_end if line_end != -1 else len(text)]
    if line.count("|") < 2:
        return None
    column = text.count("|", line_start, pos)
    header = line
    start = line_start
    while start > 0:
        prev_start = text.rfind("\n", 0, start - 1) + 1
        prev = text[prev_start : start - 1]
        if prev.count("|") < 2:
            break
        header, start = prev, prev_start
    cells = header.split("|")
    if header is line or column >= len(cells):
        return None
    return cells[column].strip() or None


def _previous_cell(text: str, start: int, before: str) -> str | None:
    """``| Revenue | $5.2bn |`` or ``Revenue<TAB>$5.2bn``: the table cell just before the value's cell."""
    if before.strip():
        tab = before.rfind("\t")
        if tab == -1 or before[tab:].strip():
            return None
        cell = before[:tab]
        cell = cell[cell.rfind("|") + 1 :] if "|" in cell else cell
    else:
        if start == 0 or text[start - 1] != "|":
            return None
        line_start = text.rfind("\n", 0, start - 1) + 1
        cell = text[line_start : start - 1]
        cell = cell[cell.rfind("|") + 1 :]
    name = cell.strip(" \t-*•")
    if not name or re.search(r"\d", name) or len(name.split()) > 6 or not re.search(r"[A-Za-z]", name):
        return None
    return name


# ----------------------------------------------------------------------------- what a value is about


_METRIC_WORDS = {"revenue", "revenues", "sales", "market", "share", "profit", "income", "growth", "users", "employees", "price", "cost", "costs", "margin", "ebitda", "total", "net", "gross", "operating", "key", "annual", "average"}  # fmt: skip
_GENERIC_LABELS = {"key figures", "highlights", "summary", "key metrics", "figures", "results", "note", "notes", "source", "data", "key facts", "facts"}  # fmt: skip


def _inline_label(span: Span, w: _Where) -> _About | None:
    """``revenue $5.2bn, EBITDA margin 23%`` or ``Apple 28%, Samsung 23%``: a bare noun phrase right before the value.

    The phrase must start the clause or follow a delimiter (punctuation, "and"), so prose such as
    "grew 5%" or "in Europe 5%" never qualifies. A line label before it ("Market share (2024): ...",
    "Tesla: ...") becomes the attribute, or the owner when it is a name.
    """
    doc = span.doc
    i = span.start - 1
    run: list[Token] = []
    while i >= 0 and len(run) < 5:
        t = doc[i]
        if t.idx < w.seg_start or t.is_space:
            break
        noun_like = t.pos_ in ("NOUN", "PROPN", "ADJ") or (not run and t.pos_ == "VERB" and t.is_lower)
        if not noun_like and run and run[0].pos_ == "VERB":
            break
        if noun_like and t.is_alpha and t.ent_type_ not in _NOT_ENTITY_ENTS:
            run.insert(0, t)  # a list fragment's noun is sometimes tagged as a verb ("headcount 12,400")
            i -= 1
            continue
        break
    if not run or run[-1].pos_ == "ADJ" or run[-1].lower_ in _PRONOUNS:
        return None
    before = doc[i] if i >= 0 else None
    delimited = (
        before is None
        or before.idx < w.seg_start
        or before.is_space
        or (before.is_punct and any(c in before.text for c in ",:;(-–—•*"))
        or before.pos_ == "CCONJ"
    )
    if not delimited or (run[0].pos_ == "VERB" and before is not None and before.pos_ == "CCONJ"):
        return None  # "... or visit 221B Baker Street": a verb after "or" is a verb
    name = _clean_phrase(run)
    head_text = re.sub(r"\([^)]*\)", "", w.text[w.line_start : run[0].idx])
    head = _LINE_LABEL_RE.match(head_text)
    if head is None:
        return _About(name, None, "label")
    label = head.group("label").strip()
    words = label.split()
    if all(x[:1].isupper() for x in words) and words[0].lower() not in _METRIC_WORDS:
        return _About(f"{label} {name}", None, "label")  # a name: "Tesla: revenue $96.8bn"
    if label.lower() in _GENERIC_LABELS:
        return _About(name, None, "label")
    return _About(name, label.lower(), "label")  # "Market share (2024): Apple 28%"


def _about(
    w: _Where, periods: list[Period], last_entity: str | None, chunks: _NounChunks, kind: str
) -> tuple[_About | None, str | None]:
    """What the value is about (from the parse, a ``Label:`` prefix, or proximity), and the noun it counts."""
    span = w.span
    label = _label(w.text, w.seg_start, span.start_char, periods)
    value_tokens = {t.i for t in span}
    count_noun: str | None = None
    change_attr: str | None = None
    share_of = _of_complement(span, value_tokens)
    measured: str | None = None  # "$54.5 million of debt": what an amount is of
    if share_of is not None and kind in ("percentage", "percentage_points"):
        change_attr = f"share of {_noun_phrase(share_of, value_tokens, with_of=False)}"
    elif share_of is not None:
        measured = _noun_phrase(share_of, value_tokens, with_of=False)
        share_of = None
    t = span.root
    for _ in range(12):
        head = t.head
        if head is t or head.idx >= w.seg_end or head.idx < w.seg_start:
            break
        if head.i in value_tokens or (
            head.pos_ == "NUM" and t.dep_ in ("quantmod", "compound", "nummod", "conj", "appos")
        ):
            t = head  # inside the value, or through the other end of "from 4,000 to 5,500"
            continue
        if head.pos_ in ("NOUN", "PROPN") and t.dep_ in (
            "nummod",
            "compound",
            "amod",
            "quantmod",
            "nmod",
            "npadvmod",
        ):
            noun = _count_noun(span, head, w.seg_end) if count_noun is None else None
            if noun is not None:
                count_noun = noun
                t = head
                continue
        if head.pos_ == "ADP" and t.dep_ == "pobj":
            owner = head.head
            if (
                head.lower_ in ("of", "at")
                and owner.pos_ in ("NOUN", "PROPN")
                and owner.i not in value_tokens
                and owner.idx >= w.seg_start
            ):
                if owner.lemma_.lower() in _CHANGE_NOUNS:
                    change_attr = owner.lemma_.lower()
                    t = owner
                    continue
                if (
                    owner.lemma_.lower() == "rate"
                    and owner.head.head.lemma_.lower() in _GROWTH_LEMMAS | _DECLINE_LEMMAS
                ):
                    change_attr = "growth"  # "grew at an annual rate of 4.9%"
                    t = owner
                    continue
                if owner.lower_ in _PRONOUNS or owner.ent_type_ in _NOT_ENTITY_ENTS or owner.like_num:
                    t = owner
                    continue
                # "revenue of $5 billion", "a market share of 30%"
                phrase = _with_owner(_noun_phrase(owner, value_tokens, with_of=False), owner, value_tokens)
                return _About(phrase, count_noun or change_attr, "of_noun"), count_noun
            t = head
            continue
        if head.pos_ in ("VERB", "AUX") or (head.pos_ == "ADJ" and head.dep_ in ("ROOT", "acomp")):
            lemma = head.lemma_.lower()
            if lemma in _VERB_ATTRIBUTES and count_noun is None and change_attr is None:
                change_attr = _VERB_ATTRIBUTES[lemma]
            if lemma in _CHANGE_VERBS and _BY_RE.search(
                w.text[max(w.seg_start, span.start_char - 6) : span.start_char]
            ):
                obj = next((c for c in head.children if c.dep_ == "dobj" and c.i not in value_tokens), None)
                if (
                    obj is not None
                    and obj.pos_ in ("NOUN", "PROPN")
                    and obj.ent_type_ not in _NOT_ENTITY_ENTS
                ):
                    return _About(
                        _noun_phrase(obj, value_tokens), count_noun or change_attr, "object"
                    ), count_noun
            if lemma in _OBJECT_VERBS:
                obj = _object_of(head, value_tokens)
                if obj is not None:
                    about = _About(_noun_phrase(obj, value_tokens), count_noun or change_attr, "object")
                    return about, count_noun
            subj = _subject_of(head)
            if subj is not None and subj.i in value_tokens:
                break  # the value is this clause's subject ("HK$3.2bn went to Asia"), not about an outer one
            if (
                subj is not None
                and subj.i not in value_tokens
                and not subj.like_num
                and subj.idx >= w.seg_start
            ):
                if subj.pos_ == "PRON" or subj.lower_ in _PRONOUNS:
                    if label:
                        break
                    outer = _outer_subject(head, value_tokens)
                    if outer is not None:  # "The company said it would cut 10,000 jobs"
                        return _About(outer, count_noun or change_attr, "coreference"), count_noun
                    if last_entity and subj.lower_ not in _PERSONAL:
                        return _About(last_entity, count_noun or change_attr, "coreference"), count_noun
                    if measured is not None:  # "we had $54.5 million of debt outstanding": the debt
                        return _About(measured, change_attr, "of_noun"), count_noun
                    return None, count_noun
                if (
                    subj.ent_type_ in _NOT_ENTITY_ENTS
                    or subj.lemma_.lower() in _REPORTER_LEMMAS
                    or _AMOUNT_LIKE_RE.match(subj.text)
                ):
                    break  # a subject that is itself an amount ("HK$3.2bn went to Asia") names nothing
                anchor = "relative" if head.dep_ == "relcl" else "subject"
                attribute = count_noun or change_attr or measured
                return _About(_noun_phrase(subj, value_tokens), attribute, anchor), count_noun
            if head.dep_ == "ROOT":
                break
            t = head
            continue
        if head.pos_ == "NUM":
            break  # "3 of the 12 plants": a value inside another number's phrase
        if t.dep_ in ("dobj", "attr", "npadvmod", "advmod", "oprd", "appos", "conj", "prep", "acomp", "nmod", "dep", "pobj", "nsubj"):  # fmt: skip
            t = head
            continue
        break
    if label:
        return _About(label, count_noun or change_attr, "label"), count_noun
    if share_of is not None:
        # "About 45% of respondents said ...": the respondents are what the share is about
        return _About(_noun_phrase(share_of, value_tokens, with_of=False), "share", "of_noun"), count_noun
    if measured is not None:
        # "there was $1.1 billion of unrecognized compensation cost": the cost is what the amount is
        return _About(measured, change_attr, "of_noun"), count_noun
    inline = _inline_label(span, w)
    quantity_like = bool(re.search(r"[\d][,.]\d|[^\d\s.,]", span.text))  # "12,400", "$5bn", "23%"; not "9001"
    if inline is not None and quantity_like:
        return inline, count_noun
    line_label = (
        _LINE_LABEL_RE.match(w.text[w.line_start : w.seg_start]) if w.seg_start > w.line_start else None
    )
    if line_label:
        return _About(line_label.group("label").strip(), count_noun or change_attr, "label"), count_noun
    if span.root.dep_ in ("nsubj", "nsubjpass") or (
        span.root.dep_ == "conj" and span.root.head.dep_ == "nsubj"
    ):
        return None, count_noun  # the value is itself the subject ("HK$3.2bn went to Asia"): nothing owns it
    # Nothing syntactic: the nearest preceding noun chunk in the same clause.
    best: Span | None = None
    for chunk in chunks.between(w.seg_start, span.start_char):
        if (
            any(x.like_num for x in chunk)
            or chunk.root.pos_ == "PRON"
            or chunk.root.ent_type_ in _NOT_ENTITY_ENTS
        ):
            continue
        if any(p.span[0] < chunk.end_char and chunk.start_char < p.span[1] for p in periods):
            continue
        if chunk.root.dep_ not in ("nsubj", "nsubjpass", "ROOT", "appos", "dobj"):
            continue  # "... went to Asia and S$500m": a place after a preposition does not own a value
        if re.search(r"\d", chunk.text) or _CLAUSE_BREAK_RE.search(w.text, chunk.end_char, span.start_char):
            continue
        best = chunk
    if best is not None:
        phrase = _noun_phrase(best.root, value_tokens, with_of=False)
        return _About(phrase, count_noun or change_attr, "nearest_chunk"), count_noun
    return None, count_noun


def _direction(span: Span, text: str, seg_start: int) -> str | None:
    """'up'/'down' when the value is a change governed by a growth or decline word."""
    before = text[max(seg_start, span.start_char - 24) : span.start_char].lower()
    if re.search(r"\b(?:up|higher|increase of|growth of|gain of|rise of)\s*(?:by\s*)?$", before):
        return "up"
    if re.search(r"\b(?:down|lower|decrease of|decline of|drop of|fall of)\s*(?:by\s*)?$", before):
        return "down"
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
    return None


def _is_projection(span: Span, sent_text_before: str, period: Period | None) -> bool:
    """A forecast or estimate: future/modal auxiliaries, forecasting verbs, or a target year ("by 2030")."""
    if period is not None and period.target and (period.year or 0) >= date.today().year:
        return True  # "by 2030"; "by 2020" is history
    t = span.root
    for _ in range(6):
        if t.pos_ in ("VERB", "AUX"):
            if t.lemma_.lower() in _PROJECTION_LEMMAS:
                return True
            for c in t.children:
                if c.dep_ == "aux" and c.lemma_.lower() in _PROJECTION_LEMMAS:
                    return True
        if t.head is t:
            break
        t = t.head
    clause = _RELATIVE_CLAUSE_RE.sub(" ", sent_text_before[-120:])  # ", which will be reported next week,"
    return _PROJECTION_WORDS_RE.search(clause[-80:]) is not None


def _choose_period(
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


def _confidence(anchor: str, typed: bool, projection: bool, hedged: bool) -> str:
    strong = anchor in _STRONG_ANCHORS
    if projection or (not strong and not typed) or anchor == "nearest_chunk":
        return "Low"
    if strong and typed and not hedged:
        return "High"
    return "Medium"


def _attribute(about: _About, value_kind: str, direction: str | None, sentence: str, kind: str) -> str:
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


# ----------------------------------------------------------------------------- the tool


def extract_from_doc(
    doc: Doc, *, source_url: str | None = None, source_metadata: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """Seed output: ``{"facts": [...], "extraction_quality": float, "metadata": {"total_facts", "processing_time_ms"}}``."""
    started = time.perf_counter()
    text = doc.text
    source = source_attribution(source_url, source_metadata)
    periods = find_periods(text)
    values = find_values(text, exclude=[p.span for p in periods])
    period_starts = [p.span[0] for p in periods]
    facts: list[dict[str, Any]] = []
    scores: list[float] = []
    last_entity: str | None = None
    sents = list(doc.sents) if values or periods else []
    sent_starts = [x.start_char for x in sents]
    chunks = _NounChunks(doc)
    respective: dict[int, Period] = {}
    names: dict[int, tuple[str, list[str]]] = {}
    for group in respectively_lists(text, values, periods):
        if group.periods is not None:
            respective.update({v.start: p for v, p in zip(group.values, group.periods, strict=True)})
        listed = listed_names(doc, group.start, group.end, len(group.values))
        if listed is not None:
            names.update({v.start: (name, listed) for v, name in zip(group.values, listed, strict=True)})
    for v in values:
        if v.year_like:
            continue
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
        w = _Where(text, span, sent, line_start, line_end, seg_start, seg_end)
        local = periods[
            bisect.bisect_left(period_starts, line_start) : bisect.bisect_right(period_starts, line_end)
        ]
        fact, score = _fact(w, v, local, facts, last_entity, chunks, values, respective.get(v.start))
        if fact is None:
            continue
        fact["source"] = dict(source)
        facts.append(fact)
        scores.append(score)
        if fact["confidence_features"]["entity_anchor"] != "coreference":
            last_entity = fact["entity"]
    for fact in facts:
        if fact["value_span"][0] in names:
            _respective_owner(fact, *names[fact["value_span"][0]])
    dated = _date_facts(doc, periods, {f["value_span"][0] for f in facts})
    for fact in dated:
        fact["source"] = dict(source)
        scores.append(1.0)  # anchored, typed, dated, certain (projections are not kept)
    if dated:
        facts = sorted(facts + dated, key=lambda f: f["value_span"][0])
    quality = round(10.0 * sum(scores) / len(scores), 1) if scores else 0.0
    elapsed = (time.perf_counter() - started) * 1000.0
    return {
        "facts": facts,
        "extraction_quality": quality,
        "metadata": {"total_facts": len(facts), "processing_time_ms": round(elapsed)},
    }


# Event verbs whose date is a fact: lemma -> attribute.
_EVENT_ATTRIBUTES = {
    "found": "founded",
    "establish": "founded",
    "incorporate": "founded",
    "launch": "launched",
    "release": "released",
    "introduce": "launched",
    "unveil": "launched",
    "debut": "launched",
    "acquire": "acquired",
    "buy": "acquired",
    "purchase": "acquired",
    "list": "went public",
    "ipo": "went public",
    "open": "opened",
    "bear": "born",
    "die": "died",
    "publish": "published",
    "complete": "completed",
    "merge": "merged",
}
_DATE_TYPES = {"year", "month", "day", "quarter", "half"}


def _date_facts(doc: Doc, periods: list[Period], taken: set[int]) -> list[dict[str, Any]]:
    """Dates of events ("Acme was founded in 1998", "Apple launched the iPhone in June 2007"), value_type date.

    Only dates attached by the parse to a known event verb become facts; a year elsewhere is the
    period of another fact, never a value.
    """
    out: list[dict[str, Any]] = []
    for p in periods:
        if p.type not in _DATE_TYPES or p.year is None or p.span[0] in taken or p.target:
            continue
        span = doc.char_span(p.span[0], p.span[1], alignment_mode="expand")
        if span is None or len(span) == 0:
            continue
        prep = span.root.head
        if prep.pos_ != "ADP" or prep.lower_ not in ("in", "on", "during") or span.root.dep_ != "pobj":
            continue
        verb = prep.head
        lemma = verb.lemma_.lower()
        attribute = _EVENT_ATTRIBUTES.get(lemma)
        if lemma == "go" and any(c.lower_ == "public" for c in verb.children):
            attribute = "went public"
        if attribute is None or verb.pos_ not in ("VERB", "AUX"):
            continue
        if any(c.dep_ == "aux" and c.lemma_.lower() in _PROJECTION_LEMMAS for c in verb.children):
            continue  # "will launch in 2026": a plan, not a dated fact
        value_tokens = {t.i for t in span}
        passive = any(c.dep_ == "nsubjpass" for c in verb.children)
        obj = None if passive else next((c for c in verb.children if c.dep_ == "dobj"), None)
        owner = obj if obj is not None and obj.pos_ in ("NOUN", "PROPN") else _subject_of(verb)
        if (
            owner is None
            or owner.pos_ == "PRON"
            or owner.lower_ in _PRONOUNS
            or owner.ent_type_ in _NOT_ENTITY_ENTS
        ):
            continue
        sent = span.root.sent
        out.append(
            {
                "entity": _noun_phrase(owner, value_tokens),
                "attribute": attribute,
                "value": p.text,
                "value_type": "date",
                "confidence": "High",
                "source": None,
                "numeric_value": None,
                "value_kind": "date",
                "currency": None,
                "unit": None,
                "scale": None,
                "range": None,
                "direction": None,
                "period": p.to_dict(),
                "is_projection": False,
                "comparison": None,
                "qualifier": None,
                "value_span": [p.span[0], p.span[1]],
                "sentence_span": [sent.start_char, sent.end_char],
                "sentence": sent.text.strip(),
                "confidence_features": {
                    "entity_anchor": "object" if owner is obj else "subject",
                    "typed_value": True,
                    "has_period": True,
                    "projection": False,
                    "hedged": False,
                },
            }
        )
    return out


def _respective_owner(fact: dict[str, Any], name: str, listed: Sequence[str]) -> None:
    """The i-th name of a "respectively" list owns the i-th value; what the clause measured becomes the attribute.

    "Revenue for Alpha, Beta and Gamma was ..." -> (Beta, revenue); "Alpha, Beta and Gamma reported net
    income of ..." -> (Beta, net income): the other names are taken out of the clause's owner.
    """
    measured = re.split(r"\s+(?:for|of|at|in|from)\s+", fact["entity"], maxsplit=1)[0]
    drop = {w.lower() for n in listed for w in n.split()} | {"and", "&"}
    rest = " ".join(w for w in measured.split() if w.lower() not in drop).strip().lower()
    fact["entity"] = name
    if rest and fact["attribute"] in ("value", None):
        fact["attribute"] = rest


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


def _fact(
    w: _Where,
    v: Value,
    periods: list[Period],
    facts: list[dict[str, Any]],
    last_entity: str | None,
    chunks: _NounChunks,
    others: Sequence[Value] = (),
    aligned: Period | None = None,
) -> tuple[dict[str, Any] | None, float]:
    """One fact for one value (or ``None`` when nothing says what the value is about), with its quality score."""
    text = w.text
    previous = facts[-1] if facts and facts[-1]["sentence_span"][0] == w.line_start else None
    prior = (
        bool(v.extras.get("prior"))
        or _PRIOR_RE.search(text[max(w.seg_start, v.start - 30) : v.start]) is not None
    )
    gap = (
        _mask_periods(text, previous["value_span"][1], v.start, periods)
        if previous is not None and previous["value_span"][1] <= v.start
        else None
    )
    apposition = gap is not None and (
        _APPOSITION_RE.match(gap) is not None or re.fullmatch(r"\s*\(\s*[+±]?\s*", gap) is not None
    )
    continuation = (
        gap is not None
        and previous is not None
        and re.fullmatch(r"\s*(?:\(\s*\x00\s*\))?\s*(?:,|and|,\s*and|&|\||\t)\s*", gap) is not None
        and previous["value_kind"] in (v.kind, "count" if v.kind == "number" else "")
        and v.low is None
    )
    conversion = (
        gap is not None
        and previous is not None
        and re.fullmatch(r"\s*\(\s*(?:or\s+|about\s+|approximately\s+|approx\.\s*|~\s*|≈\s*)?", gap) is not None
        and (v.unit or v.currency) is not None
        and (previous["unit"] or previous["currency"]) is not None
        and previous["value_kind"] not in ("percentage", "growth")
    )
    about: _About | None
    counted: str | None = None
    if previous is not None and conversion:
        about = _About(previous["entity"], previous["attribute"], "apposition")  # "10kg (25lbs)"
    elif previous is not None and apposition and v.kind in ("percentage", "percentage_points"):
        about = _About(previous["entity"], previous["attribute"], "apposition")  # "$65.6 billion, up 16%"
    elif continuation and previous is not None:
        about = _About(previous["entity"], previous["attribute"], "list")  # "$96.8bn (2023), $81.5bn (2022)"
        counted = previous["unit"] if previous["value_kind"] == "count" else None
    elif (
        prior
        and previous is not None
        and v.low is None
        and previous["value_kind"] in (v.kind, "count" if v.kind == "number" else "")
    ):
        about = _About(previous["entity"], previous["attribute"], "prior")  # "down from £6.9bn"
        counted = previous["unit"] if previous["value_kind"] == "count" and v.kind == "number" else None
    else:
        about, counted = _about(w, periods, last_entity, chunks, v.kind)
        prior = prior and about is not None and bool(v.extras.get("prior"))
    if about is None or not re.search(r"[^\W\d_]", about.entity):
        return None, 0.0  # nothing, or nothing with a letter in it, owns the value
    metric = _METRIC_AFTER_RE.match(text[v.end : w.seg_end])
    if (
        metric
        and about.anchor not in ("prior", "apposition")
        and not (about.attribute or "").startswith("share")
    ):
        about = _About(about.entity, metric.group(1).lower(), about.anchor)
    kind = v.kind
    after = re.match(r"[\s-]+([A-Za-z]+)\b", text[v.end : w.seg_end])
    if v.low is not None and v.unit is None and not counted and after and after.group(1).lower() in _TIME_NOUNS:
        v.unit = after.group(1).lower()  # "for 5–6 days": a range of durations, as "for 5 days" is one
    if kind == "number" and counted and counted.lower() in _TIME_NOUNS:
        about = _About(about.entity, None if about.attribute == counted else about.attribute, about.anchor)
        v.unit, counted = counted.lower(), None  # a duration: a number with a unit, not a count
    if kind == "number" and counted and v.unit is None:
        kind = "count"  # "260 million subscribers"; "3 miles height" keeps its unit
    elif v.unit is not None:
        counted = None
    elif kind == "number" and v.unit is None and about.anchor == "label" and about.attribute is None:
        head = about.entity.split()[-1].lower()
        if re.fullmatch(r"[a-z]+[^s]s", head):
            kind, counted = "count", about.entity.lower()  # "Employees: 340"
    if kind == "number" and v.unit is None and v.scale is None and abs(v.numeric_value) < 10 and v.numeric_value.is_integer():  # fmt: skip
        return None, 0.0  # a bare small integer ("3 of them") says too little to be a fact
    if prior:
        later = [p for p in periods if p.span[0] >= v.end]
        period = _choose_period(later, w.seg_start, w.seg_end, v)
    else:
        ahead = _PRIOR_AHEAD_RE.search(text, v.end, w.seg_end)
        hi = ahead.start() if ahead else w.seg_end
        period = _choose_period(periods, w.seg_start, hi, v, text, others) or _choose_period(
            periods, w.line_start, hi, v, text, others
        )
    if aligned is not None:
        period = aligned  # "$36.5 million, $2.1 million and $3.7 million ... in 2019, 2018 and 2017, respectively"
    if "|" in text[w.line_start : v.start]:
        column = _table_header(text, v.start, text.rfind("\n", 0, v.start) + 1)
        column_period = parse_period_text(column) if column else None
        if period is None and column_period is not None:
            period = column_period  # "| Metric | 2023 | 2024 |"
        elif (
            column
            and column_period is None
            and about.attribute is None
            and re.fullmatch(r"[A-Za-z][\w &/().-]{0,40}", column)
        ):
            about = _About(about.entity, column.lower(), about.anchor)  # "| Company | Revenue |"
    before = text[w.sent.start_char : v.start]
    projection = _is_projection(w.span, text[w.seg_start : v.start], period)
    if (
        projection
        and period is not None
        and not period.target
        and (period.year or 9999) < date.today().year
        and re.search(r"\bfrom\s*$", text[max(w.seg_start, v.start - 8) : v.start])
    ):
        projection = False  # "expected to grow from $527 billion in 2023": the baseline already happened
    hedge = _HEDGE_WORDS_RE.search(text[max(w.seg_start, v.start - 24) : v.start])
    direction = _direction(w.span, text, w.seg_start)
    if direction is None and text[max(0, v.start - 2) : v.start].strip().endswith("+"):
        direction = "up"  # "(+12% YoY)"
    value_kind = kind
    growth_context = (
        _GROWTH_CONTEXT_RE.search(text[v.end : w.seg_end][:40])
        or _GROWTH_CONTEXT_RE.search(text[max(w.seg_start, v.start - 40) : v.start])
    ) is not None
    if kind == "percentage" and v.low is None and not prior:
        is_level = re.search(r"\b(?:to|at|of|was|is|were|are|from)\s*$", before) is not None
        is_share = (about.attribute or "").startswith("share")
        if not is_share and (
            (not is_level and (direction or growth_context)) or about.attribute in _CHANGE_NOUNS or apposition
        ):
            value_kind = "growth"
    attribute = _attribute(about, value_kind, direction, text[w.sent.start_char : w.sent.end_char], kind)
    if kind == "currency" and direction and _BY_RE.search(before) and about.anchor != "prior":
        attribute = "increase" if direction == "up" else "decrease"  # "increased by $1.3 billion"
        value_kind = "change"
    typed = kind in ("currency", "percentage", "percentage_points", "count") or v.unit is not None
    confidence = _confidence(about.anchor, typed, projection, hedge is not None)
    fact: dict[str, Any] = {
        "entity": about.entity,
        "attribute": attribute,
        "value": v.text,
        "value_type": v.value_type,
        "confidence": confidence,
        "source": None,
        "numeric_value": v.numeric_value,
        "value_kind": value_kind,
        "currency": v.currency,
        "unit": counted if kind == "count" and counted else v.unit,
        "scale": v.scale,
        "range": {"low": v.low, "high": v.high} if v.low is not None else None,
        "direction": direction,
        "period": period.to_dict() if period else None,
        "is_projection": projection,
        "comparison": "prior" if prior else None,
        "qualifier": hedge.group(0).strip().lower() if hedge else None,
        "value_span": [v.start, v.end],
        "sentence_span": [w.line_start, w.line_end],
        "sentence": text[w.line_start : w.line_end].strip(),
        "confidence_features": {
            "entity_anchor": about.anchor,
            "typed_value": typed,
            "has_period": period is not None,
            "projection": projection,
            "hedged": hedge is not None,
        },
    }
    anchor_score = 1.0 if about.anchor in _STRONG_ANCHORS else 0.5
    certainty = 0.0 if projection else (0.5 if hedge else 1.0)
    score = 0.4 * anchor_score + 0.25 * typed + 0.2 * (period is not None) + 0.15 * certainty
    return fact, score
