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

from .lexicons import english_words, lexicons
from .names import business_name, has_legal_suffix, institution_head, key, org_type, public_bank, strip_name
from .places import CITY_OVER_ORG, CITY_OVER_PERSON, is_place, place_kind
from .spans import name_spans

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
    """ "Despite", "Revenue", "Analysts" at the start of a sentence are capitalised words, not names.

    A lone first word is doubtful when it is a stop word, or an English word (the model's word
    index) that the tagger does not call a proper noun: "Casey is ...", "Baumgarten most recently
    ..." are names the tagger got wrong, "Revenue rose" is not.
    """
    first = span[0]
    after_space = (
        first.i > 0 and first.doc[first.i - 1].is_space
    )  # a line's first word: a heading, a list item
    if not (first.is_sent_start or after_space):
        return False
    if len(span) == 1:
        if first.is_stop or first.lower_ in {"today", "yesterday"}:
            return True
        return first.pos_ != "PROPN" and (first.lower_ in english_words(span.doc.vocab) or not first.is_alpha)
    return first.pos_ not in {"PROPN", "NUM"} and first.is_stop


def _not_a_personal_name(text: str) -> bool:
    """ "GlaxoSmithKline", "PIEtech", "3D Systems": inner capitals or digits do not make a person's name."""
    for word in re.split(r"[\s-]+", text):
        core = re.sub(r"^(?:Mc|Mac|O'|O’|D'|D’|De|Di|Da|La|Le|Van|Von)", "", word)
        if any(c.isdigit() for c in word) or any(c.isupper() for c in core[1:]):
            return not word.isupper()  # an all-capitals word is a shouted name, not a brand
    return False


def mention_type(text: str, label: str, handle: bool = False) -> tuple[str, bool]:
    """Our type for a cleaned NER name, and whether a list or a name's form (not the NER) decided it.

    Order: technology and product lists; known names; a legal form or business word ends only a
    company's name ("Munich Re", "Kirin Brewery", whatever the NER said); the gazetteer types
    countries, regions and cities the NER called a company or a person; ORG names are companies
    or organizations by their words.
    """
    lex = lexicons()
    if lex.tech_pattern.fullmatch(text):
        return "technology", True  # "AI", "CRISPR": the lexicon beats an ORG guess
    k = key(text)
    known = lex.known_types.get(k)
    if known is not None:
        return known, True
    if label in {"ORG", "PERSON"} and (public_bank(text) or institution_head(text)):
        return "organization", True
    if has_legal_suffix(text) or business_name(text):
        return "company", True
    base = LABEL_TYPES[label]
    if label in {"GPE", "LOC"} and is_place(text):
        return "location", True
    if label == "PERSON":
        if text.split()[-1].lower().strip(".,") in lex.institution_words:
            return (
                "organization",
                True,
            )  # "John Templeton Foundation": an institution word ends no person's name
        place = place_kind(text)
        if place is not None and (place[0] == "country" or place[1] >= CITY_OVER_PERSON):
            return "location", True  # regions share their names with people too often ("Kerry", "Victoria")
        if _not_a_personal_name(text) and not handle:
            return "company", False
        return base, False
    if label == "ORG":
        if is_place(text, CITY_OVER_ORG):
            return "location", True
        return org_type(text)
    return base, False


# words that make what follows a common noun phrase, not a name ("each Funding Date", "an Event of Default")
_QUANTIFIERS = {
    "a", "an", "any", "each", "every", "no", "such", "this", "that", "these", "those", "its", "their",
    "our", "your", "his", "her", "all", "other", "another", "certain", "which",
}  # fmt: skip


def _no_sign_of_a_name(span: Span, text: str, words: frozenset[str]) -> bool:
    """An ORG guess with nothing of a name about it: after a quantifier ("each Loan Document"), or made
    only of ordinary English words with no place or nationality in it ("the Project", "Funding Date",
    "Leadership Team"). A single such word without an article ("pay Bank") is used as a name.

    A name's own evidence (a legal form, a business word such as News or Airlines, a known name) is
    checked before this; all-capital acronyms and words the word index lacks ("Stratasys") pass.
    """
    doc = span.doc
    before = doc[span.start - 1] if span.start > 0 else None
    after = doc[span.end] if span.end < len(doc) else None
    heads_its_phrase = after is None or after.pos_ not in {"NOUN", "PROPN"}  # not "a Reuters poll"
    first = span[0] if span[0].lower_ in _QUANTIFIERS else before
    if (
        heads_its_phrase
        and first is not None
        and first.lower_ in _QUANTIFIERS
        and first.tag_ in {"DT", "PRP$"}
    ):
        return True
    tokens = [t for t in span if t.is_alpha]
    if not tokens or any(t.is_upper and len(t.text) > 1 for t in tokens):
        return False
    if len(span) == 1 and not span[0].is_sent_start:
        if before is None or before.tag_ not in {"DT", "PRP$"}:
            return False  # "Borrower will pay Bank": a common noun without an article is used as a name
        if before.text == "The" and not before.is_sent_start:
            return False  # "For The Times": a capital "The" mid-sentence belongs to the name
    if any(t.lower_ not in words or place_kind(t.text) is not None for t in tokens):
        return False
    return place_kind(text) is None


def ner_mentions(doc: Doc) -> tuple[list[Mention], list[Mention]]:
    """NER mentions kept, and those dropped as sentence-initial common words (a relation may revive them)."""
    lex = lexicons()
    mentions: list[Mention] = []
    dropped: list[Mention] = []
    capitalised_inside = {t.text for t in doc if not t.is_sent_start and t.text[:1].isupper()}
    words = english_words(doc.vocab)
    for ent in doc.ents:
        if ent.label_ not in LABEL_TYPES:
            continue
        for span in name_spans(ent, ent.label_):
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
            known = lex.known_types.get(key(text))
            doubtful = is_sentence_initial_common_word(span)
            if doubtful and (known in {"company", "product"} or text in capitalised_inside):
                doubtful = False  # "Slack ... Slack's shares": the name also appears mid-sentence
            handle = (
                span.start > 0
                and doc[span.start - 1].text in {"@", "#"}
                and not doc[span.start - 1].whitespace_
            )
            etype, strong = mention_type(text, ent.label_, handle)
            if etype == "company" and not strong and _no_sign_of_a_name(span, text, words):
                doubtful = True  # "each Funding Date", "the Loan Supplement", "Leadership Team"
            mention = Mention(
                span.start, span.end, text, etype, ent.label_, span.start_char, span.end_char, True, strong
            )
            (dropped if doubtful else mentions).append(mention)
    return mentions, dropped


def tech_mentions(doc: Doc, taken: set[int], text: str | None = None) -> list[Mention]:
    """Technology terms from the lexicon over tokens no other mention holds."""
    lex = lexicons()
    out: list[Mention] = []
    for match in lex.tech_pattern.finditer(doc.text if text is None else text):
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
