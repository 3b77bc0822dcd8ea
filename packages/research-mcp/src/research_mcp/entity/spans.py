"""From an NER span to the name spans inside it.

The small model's spans often hold more than a name: a title or descriptor before it ("President
Maria Ortega", "Analysts Kestrel", "Mrs Botchway"), a dateline ("BST - UK Markets", "Steve Heller
... Jul"), a headline separator ("Irish News: Orange"), a URL, half a parenthesis ("the Swiss
National Bank (SNB"), or two companies joined by "and" after a legal form ("Delta Foods Ltd and
Harbor Marketing Inc"). Each is cut by its shape, not by the words of one example.
"""

from __future__ import annotations

import calendar
import functools
import re
from typing import TYPE_CHECKING

from .lexicons import english_words, lexicons, read_lines

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

__all__ = ["INNER_FORMS", "descriptors", "is_descriptor_only", "name_spans", "time_words"]

_SEPARATORS = {":", "|", "–", "—", "/", ";", "(", ")", "[", "]", "•", "·", "«", "»", '"', "“", "”"}
_COORDINATORS = {"and", "&", ",", "or"}
# legal-form words that also stand inside a name ("Trust Co Ltd", "Group Holdings", "Company of Merchants")
INNER_FORMS = {"co", "company", "group", "holdings", "corporation", "limited"}
_NAME_TAGS = {"NNP", "NNPS"}
_VERB_TAGS = {"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "RB", "MD", "IN", "WDT", "WP"}


@functools.cache
def descriptors() -> frozenset[str]:
    """Titles and descriptor nouns that stand before names (data/descriptors.txt)."""
    return frozenset(read_lines("descriptors.txt"))


@functools.cache
def time_words() -> tuple[frozenset[str], frozenset[str]]:
    """(words that may stand at a name's edge only by mistake, words that are never a name on their own)."""
    abbreviations = {d.lower() for d in calendar.day_abbr} | {m.lower() for m in calendar.month_abbr if m}
    full = {d.lower() for d in calendar.day_name} | {m.lower() for m in calendar.month_name if m}
    zones = set(read_lines("time_words.txt"))
    edge = frozenset(abbreviations | zones | {"sept"})
    return edge, frozenset(edge | full)


def _word(tok: Token) -> str:
    return tok.lower_.rstrip(".")


def _is_separator(tok: Token) -> bool:
    if tok.text in _SEPARATORS or tok.like_url or tok.like_email or tok.text.startswith("http"):
        return True
    # a spaced dash separates ("BST - UK Markets"); an unspaced one joins ("Coca-Cola")
    spaced_before = tok.i > 0 and bool(tok.doc[tok.i - 1].whitespace_)
    return tok.text in {"-", "--"} and spaced_before and bool(tok.whitespace_)


def _pieces(span: Span) -> list[Span]:
    """The span cut at separators, and at "and" / "," after a legal form ("Foods Ltd and Harbor Inc")."""
    forms = lexicons().legal_forms
    out: list[Span] = []
    start = span.start
    doc = span.doc
    for tok in span:
        cut = _is_separator(tok)
        if (
            not cut
            and tok.i > start
            and _word(doc[tok.i - 1]) in forms - INNER_FORMS
            and doc[tok.i - 1].text[:1].isupper()
            and tok.text[:1].isupper()
            and _word(tok) not in forms
        ):
            out.append(doc[start : tok.i])  # "Wal-Mart Stores Inc China Resources", "Inc Earnings Call"
            start = tok.i
            continue
        if not cut and tok.lower_ in _COORDINATORS and tok.i > start:
            before = doc[tok.i - 1]
            after = doc[tok.i + 1] if tok.i + 1 < span.end else None
            cut = (
                _word(before) in forms
                and before.text[:1].isupper()
                and after is not None
                and after.text[:1].isupper()
                and _word(after) not in forms
            )
        if cut:
            if tok.i > start:
                out.append(doc[start : tok.i])
            start = tok.i + 1
    if start < span.end:
        out.append(doc[start : span.end])
    return out


def _trim(piece: Span, label: str) -> Span | None:
    titles = descriptors()
    edge_time, _ = time_words()
    doc = piece.doc
    start, end = piece.start, piece.end

    words = english_words(doc.vocab)

    def droppable_lead(tok: Token) -> bool:
        word = _word(tok)
        if word in titles or word in edge_time or tok.lower_ in _COORDINATORS or tok.is_punct:
            return True
        following = doc[tok.i + 1]
        if tok.is_upper and len(tok.text) > 4 and tok.lower_ in words and not following.is_upper:
            return True  # "SOURCE International Finance Corporation": a shouted word before the name
        if label == "PERSON" and tok.tag_ not in _NAME_TAGS and tok.is_alpha:
            return True  # "Analysts Kestrel", "Bringing Doxim": a common word is not a first name
        return tok.tag_ in _VERB_TAGS and bool(tok.is_sent_start)

    while start < end - 1 and droppable_lead(doc[start]):
        start += 1
    if label == "PERSON":
        # "Reserve Bank Governor Raghuram Rajan": the name starts after the last title
        for i in range(end - 2, start - 1, -1):
            if _word(doc[i]) in titles and doc[i + 1].text[:1].isupper():
                start = i + 1
                break
    while end - 1 > start and (
        _word(doc[end - 1]) in edge_time or doc[end - 1].lower_ in _COORDINATORS or doc[end - 1].is_punct
    ):
        if doc[end - 1].text == "." and end - 2 >= start and _word(doc[end - 2]) in lexicons().legal_forms:
            break  # "Corp." keeps its dot
        end -= 1
    return doc[start:end] if end > start else None


def is_descriptor_only(span: Span) -> bool:
    """ "CFO", "Founder & CEO", "Sun, Jul 31, 2016": titles, dates and punctuation only."""
    titles = descriptors()
    _, all_time_words = time_words()
    return all(
        tok.is_punct
        or tok.like_num
        or tok.lower_ in _COORDINATORS
        or _word(tok) in titles
        or _word(tok) in all_time_words
        or re.fullmatch(r"\d+(?:st|nd|rd|th)?", tok.lower_) is not None
        for tok in span
    )


def name_spans(span: Span, label: str) -> list[Span]:
    """The names inside one NER span: cut at separators and listed legal forms, titles and dates trimmed."""
    out: list[Span] = []
    for piece in _pieces(span):
        trimmed = _trim(piece, label)
        if trimmed is not None and not is_descriptor_only(trimmed):
            out.append(trimmed)
    return out
