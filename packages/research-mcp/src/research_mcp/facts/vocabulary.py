"""The patterns fact-extract reads around a value (hedges, projections, comparisons, labels), and its word lists.

Word lists (verbs of growth and decline, projection words, pronouns, event verbs...) are data:
``research_mcp/data/fact_words.json``; the regular expressions that match phrases stay here.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

RELATIVE_CLAUSE_RE = re.compile(r",\s*(?:which|who|that|as)\b[^,]*,")


GROWTH_CONTEXT_RE = re.compile(
    r"(?i)\b(?:year[-\s]over[-\s]year|yoy|y/y|cagr|annual(?:ly)?\s+growth|growth|quarter[-\s]over[-\s]quarter|qoq|q/q)\b"
)


LABEL_RE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[^\s:|][^:|\n]{0,58}?)\s*[:|–—=]\s*(?:[~≈]\s*)?$")


LINE_LABEL_RE = re.compile(r"^\s*(?:[-*•·]\s*)?(?P<label>[A-Za-z][^:|\n\d]{0,40}?)\s*:")


LEFT_KEEP_DEPS = {"compound", "amod", "poss", "nmod", "npadvmod"}


NOT_ENTITY_ENTS = ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "QUANTITY", "ORDINAL")


PRIOR_RE = re.compile(
    r"(?i:\b(?:(?:down|up)\s+from|compared\s+(?:with|to)|in\s+comparison\s+(?:with|to)|versus|vs\.?|against|from)\s*)$"
)


# Where a later value's comparison starts: periods after this belong to the prior value.
PRIOR_AHEAD_RE = re.compile(
    r"(?i:\b(?:up|down)\s+from\b|\bcompared\s+(?:with|to)\b|\bversus\b|\bvs\.?\s|\bfrom\s+(?=[$€£¥]|(?!(?:19|20)\d{2}\b)\d))"
)


# "..., up 16%" or "..., or 14%," right after another value: the same thing's change.
APPOSITION_RE = re.compile(
    r"^\s*(?:(?:in|for|during|at|as\s+of)\s+(?:the\s+)?\x00\s*)?,?\s*"
    r"(?:(?:up|down)(?:\s+by)?|or|an?\s+(?:increase|decrease|rise|decline|drop|gain)\s+of)\s*$",
    re.I,
)


AMOUNT_LIKE_RE = re.compile(r"^(?:[A-Z]{0,3}[$€£¥₹]|[-−]?\d[\d.,]*(?:[kKmMbBT]|bn|mn|%)?$)")


BY_RE = re.compile(r"(?i:\bby\s*)$")


SEGMENT_SEPARATORS = ("|", ";", "•")


STRONG_ANCHORS = frozenset(
    {"subject", "object", "label", "of_noun", "relative", "prior", "apposition", "list"}
)


DATE_TYPES = {"year", "month", "day", "quarter", "half"}

_FACT_WORDS: dict[str, Any] = json.loads(
    resources.files("research_mcp").joinpath("data", "fact_words.json").read_text("utf-8")
)
PROJECTION_LEMMAS: frozenset[str] = frozenset(_FACT_WORDS["projection_lemmas"])
GROWTH_LEMMAS: frozenset[str] = frozenset(_FACT_WORDS["growth_lemmas"])
DECLINE_LEMMAS: frozenset[str] = frozenset(_FACT_WORDS["decline_lemmas"])
# Personal pronouns are never resolved to the previous fact's entity.
PERSONAL: frozenset[str] = frozenset(_FACT_WORDS["personal"])
PRONOUNS: frozenset[str] = frozenset(_FACT_WORDS["pronouns"])
# Nouns that report a figure rather than own it ("The report values the market at ...").
REPORTER_LEMMAS: frozenset[str] = frozenset(_FACT_WORDS["reporter_lemmas"])
TIME_NOUNS: frozenset[str] = frozenset(_FACT_WORDS["time_nouns"])
CHANGE_NOUNS: frozenset[str] = frozenset(_FACT_WORDS["change_nouns"])
# Verbs whose direct object, not their subject, is what a value is about ("Analysts estimate the market at $40bn").
OBJECT_VERBS: frozenset[str] = frozenset(_FACT_WORDS["object_verbs"])
# What a money amount measures, from its verb ("raised $150m" is funding).
VERB_ATTRIBUTES: dict[str, str] = dict(_FACT_WORDS["verb_attributes"])
CHANGE_VERBS: frozenset[str] = frozenset(_FACT_WORDS["change_verbs"])
METRIC_WORDS: frozenset[str] = frozenset(_FACT_WORDS["metric_words"])
GENERIC_LABELS: frozenset[str] = frozenset(_FACT_WORDS["generic_labels"])
# Event verbs whose date is a fact: lemma -> attribute ("founded", "acquired").
EVENT_ATTRIBUTES: dict[str, str] = dict(_FACT_WORDS["event_attributes"])
# A plain integer after these nouns measures them ("age 65"), it does not name a thing ("clone 23").
MEASURE_NOUNS: frozenset[str] = frozenset(_FACT_WORDS["measure_nouns"])
# Prepositions that put a measure on the noun before them ("temperatures near 32 °C").
MEASURE_PREPOSITIONS: frozenset[str] = frozenset(_FACT_WORDS["measure_prepositions"])
# Prepositions that say where a verb puts an amount ("borrowed $72.3 million under our credit facilities").
PLACE_PREPOSITIONS: frozenset[str] = frozenset(_FACT_WORDS["place_prepositions"])
# What a quantity measures when nothing in the sentence names it: its unit's dimension ("3.5 days" is a duration).
DIMENSION_ATTRIBUTES: dict[str, str] = dict(_FACT_WORDS["dimension_attributes"])


def _alternation(name: str) -> str:
    """The phrases of list ``name`` as a regex alternation, longest first: a space matches any run of spaces."""
    phrases = sorted(_FACT_WORDS[name], key=len, reverse=True)
    return "|".join(r"\s+".join(re.escape(word) for word in phrase.split()) for phrase in phrases)


# Case-sensitive on purpose: "May 2024" is a month, "Target" a retailer.
PROJECTION_WORDS_RE = re.compile(rf"\b(?:{_alternation('projection_words')})\b")
HEDGE_WORDS_RE = re.compile(rf"(?i)(?:\b(?:{_alternation('hedge_words')})\s*$|~\s*$)")
METRIC_AFTER_RE = re.compile(
    rf"^\s+(?:in|of)\s+(?:(?:{_alternation('metric_modifiers')})\s+)?({_alternation('metric_nouns')})\b",
    re.IGNORECASE,
)
CLAUSE_BREAK_RE = re.compile(rf"(?i)\b(?:{_alternation('clause_breaks')})\b")
