"""The word lists and tables entity-extract reads, loaded from the package's data files once, on first use.

Every list is a file under ``entity/data/`` whose header names its source and licence; nothing is
fetched at run time. Loading is lazy (the first entity-extract call pays a few milliseconds), so
the server's start and the tools that never touch entities stay fast.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = [
    "Lexicons",
    "RelationGrammar",
    "english_words",
    "lexicons",
    "read_lines",
    "register_word_index",
    "relation_grammar",
]

# id(vocab) -> the pipeline's lemmatizer lookups (whose "lemma_index" table is WordNet's word index)
_WORD_INDEX_SOURCES: dict[int, Any] = {}
_WORD_INDEX: dict[int, frozenset[str]] = {}


def read_lines(name: str) -> list[str]:
    text = resources.files(__package__).joinpath("data", name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _words(name: str) -> frozenset[str]:
    return frozenset(line.strip() for line in read_lines(name))


def _table(name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in read_lines(name):
        key, _, value = line.partition("\t")
        out[key.strip()] = value.strip()
    return out


def register_word_index(nlp: Any) -> None:
    """Remember where a loaded pipeline keeps its English word index (read on first use)."""
    if "lemmatizer" in nlp.pipe_names:
        lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
        if lookups is not None and lookups.has_table("lemma_index"):
            _WORD_INDEX_SOURCES[id(nlp.vocab)] = lookups


def english_words(vocab: Any) -> frozenset[str]:
    """Lower-case English nouns, verbs, adjectives and adverbs, from the pipeline's own lemmatizer data.

    spaCy's English lemmatizer ships WordNet's word index (about 78k words); a capitalised word
    found there may be an ordinary word ("Revenue", "Project", "Funding Date"), one not found
    there is a name ("Casey", "Baumgarten"). Empty when the pipeline has no such table or was
    not loaded through ``research_mcp.nlp.load_nlp`` (which registers it).
    """
    key = id(vocab)
    words = _WORD_INDEX.get(key)
    if words is None:
        lookups = _WORD_INDEX_SOURCES.get(key)
        found: set[str] = set()
        if lookups is not None:
            table = lookups.get_table("lemma_index")
            for pos in ("noun", "verb", "adj", "adv"):
                found.update(table.get(pos, ()))
        words = _WORD_INDEX[key] = frozenset(found)
    return words


@dataclass(frozen=True)
class Lexicons:
    """Name lists for typing mentions (all lower case unless said)."""

    known_types: dict[str, str]  # well-known name -> company | organization | product
    institution_words: frozenset[str]
    business_words: frozenset[str]
    legal_forms: frozenset[str]
    central_banks: frozenset[str]
    group_nouns: dict[
        str, str
    ]  # descriptor noun -> the type of the names after it  # alias keys of central banks named without an institutional word
    tech_terms: tuple[str, ...]  # as written
    tech_canonical: dict[str, str]  # lower-case term -> canonical name
    acronym_terms: frozenset[str]  # capitalised one-word terms, matched as written
    tech_pattern: re.Pattern[str]

    def known(self, key: str, etype: str) -> bool:
        return self.known_types.get(key) == etype


@functools.cache
def lexicons() -> Lexicons:
    """The name lists, read from the data files once per process."""
    tech = _table("tech_terms.tsv")
    terms = tuple(tech)
    canonical = {t.lower(): (c or t) for t, c in tech.items()}
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(t) for t in sorted(terms, key=len, reverse=True)) + r")(?![\w-])",
        re.IGNORECASE,
    )
    return Lexicons(
        known_types=_table("known_names.tsv"),
        institution_words=_words("institution_words.txt"),
        business_words=_words("business_words.txt"),
        legal_forms=_words("legal_forms.txt"),
        group_nouns=_table("group_nouns.tsv"),
        central_banks=frozenset(
            " ".join(re.sub(r"[^\w\s&-]", " ", w).split()) for w in _words("central_banks.txt")
        ),
        tech_terms=terms,
        tech_canonical=canonical,
        acronym_terms=frozenset(t for t in terms if any(c.isupper() for c in t) and " " not in t),
        tech_pattern=pattern,
    )


@dataclass(frozen=True)
class RelationGrammar:
    """Which verbs and nouns state which relation, and the words that make a statement doubtful."""

    verb_relations: dict[str, tuple[str, frozenset[str]]]
    role_nouns: dict[str, tuple[str, frozenset[str], bool]]
    nominal_relations: dict[str, tuple[str, str]]
    symmetric: frozenset[str]
    partnership_verbs: frozenset[str]
    stake_nouns: frozenset[str]
    nominal_doubt: frozenset[str]
    nominal_doubt_heads: frozenset[str]
    reversed: frozenset[str]
    hedging_aux: frozenset[str]
    commitment_heads: frozenset[str]
    denial_heads: frozenset[str]
    speculative_heads: frozenset[str]
    conditional_marks: frozenset[str]
    hearsay_nouns: frozenset[str]
    doubt_adjectives: frozenset[str]
    negative_dets: frozenset[str]


def _entries(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in raw.items() if not k.startswith("_")}


@functools.cache
def relation_grammar() -> RelationGrammar:
    """The relation tables of ``data/relations.json``, read once per process."""
    raw = json.loads(
        resources.files(__package__).joinpath("data", "relations.json").read_text(encoding="utf-8")
    )
    sets = {
        key: frozenset(raw[key])
        for key in (
            "symmetric", "partnership_verbs", "stake_nouns", "nominal_doubt", "nominal_doubt_heads",
            "reversed", "hedging_aux", "commitment_heads", "denial_heads", "speculative_heads",
            "conditional_marks", "hearsay_nouns", "doubt_adjectives", "negative_dets",
        )
    }  # fmt: skip
    return RelationGrammar(
        verb_relations={k: (v[0], frozenset(v[1])) for k, v in _entries(raw["verb_relations"]).items()},
        role_nouns={k: (v[0], frozenset(v[1]), bool(v[2])) for k, v in _entries(raw["role_nouns"]).items()},
        nominal_relations={k: (v[0], v[1]) for k, v in _entries(raw["nominal_relations"]).items()},
        **sets,
    )
