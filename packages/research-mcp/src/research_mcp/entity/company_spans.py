"""Company names that end in a legal form or a business word, where the NER cut them short or missed them.

"Zurich Re" tagged as the place "Zurich", "Swiss Re" as the nationality "Swiss", "Acme Cos" and
"Hannover Re" not tagged at all: a run of capitalised words closed by a legal form (Inc, Cos, AG,
SA, Re...) or a business word (Airlines, Brewing, Bank...) is a company's name, and a place name
inside it is part of that name. The run is read on the surface: capitalised words, "&" between
them, the sentence's first word only when it is a name rather than an ordinary word.

Where the NER tagged part of the run, the run replaces those mentions. Where it tagged nothing,
the run becomes a mention only on firmer evidence: a legal form at its end, or a place or
nationality before a business word ("<City> Brewing", "<Country> Airlines").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lexicons import english_words, lexicons
from .mentions import Mention, mention_type
from .names import strip_name
from .places import place_kind
from .spans import INNER_FORMS, descriptors, time_words

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["company_spans", "of_place_names"]

_NAME_TAGS = {"NNP", "NNPS"}


def _word(tok: Token) -> str:
    return tok.lower_.rstrip(".")


def _capitalised(tok: Token) -> bool:
    text = tok.text
    return (text[:1].isupper() or (text[:1].isdigit() and any(c.isalpha() for c in text))) and not (
        tok.is_punct or tok.like_url or tok.like_email
    )


def _name_start_ok(tok: Token, words: frozenset[str]) -> bool:
    """A run's first word: not a stop word, a time word ("ET 3D Systems Corp."), a shouted ordinary word
    before the name ("SOURCE International Finance Corporation") or, at a sentence's start, an
    ordinary word ("Shares", not "Hannover")."""
    if tok.is_stop or _word(tok) in time_words()[0]:
        return False
    following = tok.doc[tok.i + 1] if tok.i + 1 < len(tok.doc) else None
    if (
        tok.is_upper
        and len(tok.text) > 4
        and tok.lower_ in words
        and following is not None
        and not following.is_upper
    ):
        return False
    if tok.is_sent_start and tok.tag_ not in _NAME_TAGS:
        return tok.lower_ not in words or place_kind(tok.text) is not None
    return True


def _runs(doc: Doc) -> list[tuple[int, int, int]]:
    """(start, first closing word, end) of every capitalised run closed by a legal form or business word."""
    lex = lexicons()
    closers = lex.legal_forms | lex.business_words
    words = english_words(doc.vocab)
    out: list[tuple[int, int, int]] = []
    i, n = 1, len(doc)
    while i < n:
        tok = doc[i]
        if not (_capitalised(tok) and _word(tok) in closers) or tok.is_sent_start:
            i += 1
            continue
        end = i + 1
        while end < n and _capitalised(doc[end]) and _word(doc[end]) in lex.legal_forms:
            end += 1
        start = i
        if (
            _word(tok) in lex.legal_forms
            and i >= 2
            and doc[i - 1].text == ","
            and _capitalised(doc[i - 2])
            and not doc[i - 1].is_sent_start
        ):
            start = i - 2  # "LifePoint Health, Inc.", "Friedman, LLP"
        while start > 0 and not doc[start].is_sent_start:
            prev = doc[start - 1]
            if _word(prev) in lex.legal_forms - INNER_FORMS:
                break  # "Wal-Mart Stores Inc China Resources": another company's name ends there
            if _capitalised(prev) and not prev.is_stop:
                start -= 1
            elif prev.text == "&" and start >= 2 and _capitalised(doc[start - 2]) and not prev.is_sent_start:
                start -= 2
            else:
                break
        while start < i and (not _name_start_ok(doc[start], words) or doc[start].text in {"&", ","}):
            start += 1
        first_closer = start
        while first_closer < i and _word(doc[first_closer]) not in closers:
            first_closer += 1
        follows = doc[end] if end < n else None
        continues = (
            follows is not None
            and _capitalised(follows)
            and not follows.is_sent_start
            and _word(follows) not in descriptors()  # "South African Reserve Bank Governor ..." ends at Bank
        )
        if first_closer > start and not continues:  # a name closed by the legal form or business word
            out.append((start, first_closer, end))
        i = end
    return out


def _place_or_nationality(doc: Doc, start: int, stop: int) -> bool:
    for tok in doc[start:stop]:
        if tok.ent_type_ in {"GPE", "NORP", "LOC"} or place_kind(tok.text) is not None:
            return True
    return place_kind(doc[start:stop].text) is not None


def company_spans(
    doc: Doc, mentions: list[Mention], dropped: list[Mention]
) -> tuple[list[Mention], list[Mention]]:
    """``mentions`` and ``dropped`` with capitalised runs closed by a legal form or business word as company names."""
    lex = lexicons()
    for start, first_closer, end in _runs(doc):
        inside = [m for m in (*mentions, *dropped) if m.start < end and start < m.end]
        if any(m.start < start or m.end > end for m in inside):
            continue  # the NER's span reaches further: it knows this name better
        if not inside:
            closers = [_word(t) for t in doc[first_closer:end]]
            if not (closers[-1] in lex.legal_forms or _place_or_nationality(doc, start, first_closer)):
                continue
        span = doc[start:end]
        text = strip_name(span.text)
        etype, strong = mention_type(text, "ORG")
        if etype not in {"company", "organization"}:
            continue
        mention = Mention(start, end, text, etype, "ORG", span.start_char, span.end_char, not inside, strong)
        mention.from_ner = bool(inside)
        mentions = [m for m in mentions if m not in inside] + [mention]
        dropped = [m for m in dropped if m not in inside]
    mentions.sort(key=lambda m: m.start)
    return mentions, dropped


def of_place_names(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """ "Bank of Israel", "Central bank of Hungary", "University of Ghana": an organisation's head word
    followed by "of" and a place the NER tagged apart is one name, typed as a whole."""
    lex = lexicons()
    heads = lex.business_words | lex.institution_words
    by_start = {m.start: m for m in mentions}
    out: list[Mention] = []
    joined: set[int] = set()
    for m in mentions:
        if id(m) in joined:
            continue
        place = by_start.get(m.end + 1)
        if (
            place is not None
            and m.type in {"company", "organization"}
            and place.type == "location"
            and m.end < len(doc)
            and doc[m.end].lower_ == "of"
            and _word(doc[m.end - 1]) in heads
        ):
            span = doc[m.start : place.end]
            text = strip_name(span.text)
            etype, strong = mention_type(text, "ORG")
            if etype in {"company", "organization"}:
                out.append(
                    Mention(
                        m.start, place.end, text, etype, m.label, span.start_char, span.end_char, True, strong
                    )
                )
                joined.add(id(place))
                continue
        out.append(m)
    return out
