"""Mentions: spaCy's entities cleaned up and typed, and the technology terms the NER does not tag.

The NER's span is trimmed (a leading "the", a trailing possessive or preposition), then typed:
an ORG is a company or an organization by its words (legal form, business word, institution
word, a known name); a well-known product or technology term beats the NER's guess; a capitalised
first word of a sentence that is a common word is held back (a relation may revive it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .lexicons import lexicons
from .names import business_name, key, org_type, strip_name
from .places import is_place

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = [
    "LABEL_TYPES",
    "Mention",
    "is_sentence_initial_common_word",
    "ner_mentions",
    "propn_span",
    "tech_mentions",
]

LABEL_TYPES = {
    "ORG": "company",
    "PERSON": "person",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "product",
    "EVENT": "event",
}


@dataclass
class Mention:
    start: int  # token offsets
    end: int
    text: str
    type: str
    label: str
    char_start: int
    char_end: int
    from_ner: bool
    strong_type: bool = False  # decided by a list or gazetteer, not guessed
    group: int = -1


def is_sentence_initial_common_word(span: Span) -> bool:
    """ "Despite", "Revenue", "Analysts" at the start of a sentence are capitalised words, not names."""
    first = span[0]
    if not first.is_sent_start:
        return False
    if len(span) == 1:
        return first.pos_ != "PROPN" or first.is_stop or first.text.lower() in {"today", "yesterday"}
    return first.pos_ not in {"PROPN", "NUM"} and first.is_stop


def ner_mentions(doc: Doc) -> tuple[list[Mention], list[Mention]]:
    """NER mentions kept, and those dropped as sentence-initial common words (a relation may revive them)."""
    lex = lexicons()
    mentions: list[Mention] = []
    dropped: list[Mention] = []
    capitalised_inside = {t.text for t in doc if not t.is_sent_start and t.text[:1].isupper()}
    for ent in doc.ents:
        base = LABEL_TYPES.get(ent.label_)
        if base is None:
            continue
        span = ent
        while len(span) > 1 and (span[0].lower_ == "the" or span[0].is_punct):
            span = span[1:]
        while len(span) > 1 and (
            span[-1].tag_ == "POS"
            or (span[-1].is_punct and span[-1].text != ".")
            or (span[-1].is_stop and span[-1].pos_ in {"ADP", "DET", "CCONJ", "PART", "PRON"})
        ):
            span = span[:-1]
        text = strip_name(span.text)
        if len(text) < 2 or not any(c.isupper() for c in text) or not any(c.isalpha() for c in text):
            continue
        k = key(text)
        known = lex.known_types.get(k)
        doubtful = is_sentence_initial_common_word(span)
        if doubtful and (known in {"company", "product"} or text in capitalised_inside):
            doubtful = False  # "Slack ... Slack's shares": the name also appears mid-sentence
        strong = False
        etype = base
        if ent.label_ == "ORG" or known == "company" or (ent.label_ != "PERSON" and business_name(text)):
            etype, strong = org_type(text)
        if known == "product":
            etype, strong = "product", True
        if ent.label_ in {"GPE", "LOC"} and is_place(text):
            strong = True
        if lex.tech_pattern.fullmatch(text):
            etype, strong = "technology", True  # "AI", "CRISPR": the lexicon beats an ORG guess
        mention = Mention(
            span.start, span.end, text, etype, ent.label_, span.start_char, span.end_char, True, strong
        )
        (dropped if doubtful else mentions).append(mention)
    return mentions, dropped


def tech_mentions(doc: Doc, taken: set[int]) -> list[Mention]:
    """Technology terms from the lexicon over tokens no other mention holds."""
    lex = lexicons()
    out: list[Mention] = []
    for match in lex.tech_pattern.finditer(doc.text):
        surface = match.group(0)
        lowered = surface.lower()
        if surface in lex.acronym_terms or surface.upper() == surface:
            if surface not in lex.acronym_terms:
                continue
        elif lowered not in lex.tech_canonical:
            continue
        span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if span is None or any(i in taken for i in range(span.start, span.end)):
            continue
        before = doc[span.start - 1] if span.start > 0 else None
        if (
            surface in lex.acronym_terms
            and before is not None
            and before.pos_ == "PROPN"
            and before.text[:1].isupper()
        ):
            continue  # "Mistral AI", "Scale AI": part of a name, not the technology
        out.append(
            Mention(
                span.start,
                span.end,
                lex.tech_canonical[lowered],
                "technology",
                "LEXICON",
                match.start(),
                match.end(),
                False,
                True,
            )
        )
    return out


def propn_span(tok: Token) -> tuple[int, int] | None:
    """The proper-noun phrase headed by ``tok`` (its compound/flat PROPN modifiers), or None."""
    capitalised_name = (
        not tok.is_sent_start
        and not tok.is_stop
        and re.fullmatch(r"[A-Z][A-Za-z0-9&-]*\.?", tok.text) is not None
    )
    if tok.pos_ != "PROPN" and not (capitalised_name and tok.pos_ in {"NOUN", "ADJ", "ADV", "X"}):
        return None
    start = tok.i
    for left in reversed(list(tok.lefts)):
        if left.dep_ in {"compound", "flat", "nmod"} and left.pos_ == "PROPN" and left.i == start - 1:
            start = left.i
        else:
            break
    return start, tok.i + 1
