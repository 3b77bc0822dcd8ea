"""Coordinated names agree: in "Ashish Vaswani, Noam Shazeer, Niki Parmar and Llion Jones" every name is a person.

An author list, an acknowledgement or "led by A, B and C" names things of one kind, one name
between each pair of separators. The small model types each name on its own and gets some of a
long list wrong: a person typed company or place, a given name it does not know left out
("Ilya Sutskever" read as "Sutskever", "Ken-ichi Iwata" as two names), a name missed altogether.
Here a list of three or more names, where persons outnumber every other kind (at least two), gives
each member the span between its separators and the type person, unless a list or gazetteer
typed it (``strong_type``) or it has the shape of a business, an institution or a place; in a list
where places outnumber every other kind, a member the gazetteer knows as a place is a location.
Measured on arXiv's own author lists (``make eval ONLY=entities``).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcp_shared.words import name_particles

from .mentions import Mention
from .names import business_name, has_legal_suffix, institution_head
from .places import is_place

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

__all__ = ["agree_in_lists"]

_SEPARATORS = frozenset({",", ";", "and", "&"})
_MAX_WORDS = 5
_NAME_WORD = re.compile(
    r"(?:[^\W\d_]\.)+|[^\W\d_][^\W\d_'’]*(?:[-'’][^\W\d_]+)*\.?"
)  # "A.", "Ken-ichi", "O'Neil"


@dataclass
class _Member:
    start: int  # token offsets
    end: int


def agree_in_lists(doc: Doc, mentions: list[Mention]) -> list[Mention]:
    """``mentions`` with the members of person lists typed person, each with its whole span."""
    out = list(mentions)
    for sent in doc.sents:
        for members in _name_lists(sent):
            out = _retype(doc, members, out)
    return out


def _retype(doc: Doc, members: list[_Member], mentions: list[Mention]) -> list[Mention]:
    overlapping = [[m for m in mentions if m.start < mb.end and mb.start < m.end] for mb in members]
    votes = Counter(found[0].type for found in overlapping if found)
    places = votes["location"]
    if places >= 2 and places > max((n for t, n in votes.items() if t != "location"), default=0):
        for found in overlapping:  # "Paris, New York, Buenos Aires and Cape Town": a known place is a place
            for m in found:
                if m.type != "location" and not m.strong_type and is_place(m.text):
                    m.type = "location"
        return mentions
    persons = votes.pop("person", 0)
    if persons < 2 or persons <= max(votes.values(), default=0):
        return mentions
    drop: set[int] = set()
    added: list[Mention] = []
    for mb, found in zip(members, overlapping, strict=True):
        span = doc[mb.start : mb.end]
        if any(m.strong_type for m in found) or any(m.start < mb.start or m.end > mb.end for m in found):
            continue  # typed by a list, or a mention reaching past the separators: leave it
        if not _personal_name(span.text):
            continue
        drop.update(id(m) for m in found)
        added.append(
            Mention(
                mb.start,
                mb.end,
                span.text,
                "person",
                "PERSON",
                span.start_char,
                span.end_char,
                from_ner=bool(found),
            )
        )
    return [m for m in mentions if id(m) not in drop] + added


def _name_lists(sent: Span) -> list[list[_Member]]:
    """Runs of three or more name-shaped members separated by ``,`` ``;`` ``and`` ``&``."""
    segments: list[list[Token]] = [[]]
    for tok in sent:
        if tok.lower_ in _SEPARATORS:
            if segments[-1]:
                segments.append([])
        else:
            segments[-1].append(tok)
    lists: list[list[_Member]] = []
    run: list[_Member] = []
    for i, seg in enumerate(segments):
        whole = _whole(seg)
        if run and whole is not None:
            run.append(whole)
            continue
        if (
            run
        ):  # the run ends here: its last member may be this segment's head ("Yoshua Bengio for comments")
            head = _head(seg)
            if head is not None:
                run.append(head)
            if len(run) >= 3:
                lists.append(run)
        tail = _tail(seg) if i + 1 < len(segments) else None
        run = [tail] if tail is not None else []
    if len(run) >= 3:
        lists.append(run)
    return lists


def _words(seg: list[Token]) -> list[list[Token]]:
    """Tokens grouped into the words of the text ("Ken-ichi" is one word of three tokens)."""
    words: list[list[Token]] = []
    for tok in seg:
        glued = words and not words[-1][-1].whitespace_
        ending = tok.is_punct and tok.text not in (
            "-",
            "'",
            "’",
        )  # "Eriksson." ends the name, "Ken-ichi" is one
        if (
            glued
            and not ending
            and not (words[-1][-1].is_punct and words[-1][-1].text not in ("-", "'", "’"))
        ):
            words[-1].append(tok)
        else:
            words.append([tok])
    return words


def _name_word(word: list[Token], inner: bool) -> bool:
    text = "".join(t.text for t in word)
    if inner and text in name_particles():
        return True
    return text[:1].isupper() and _NAME_WORD.fullmatch(text) is not None


def _whole(seg: list[Token]) -> _Member | None:
    words = _words(seg)
    if not 1 <= len(words) <= _MAX_WORDS:
        return None
    if not all(_name_word(w, 0 < k < len(words) - 1) for k, w in enumerate(words)):
        return None
    return _Member(seg[0].i, seg[-1].i + 1)


def _tail(seg: list[Token]) -> _Member | None:
    """The name words that end a segment ("... carried out by Mahdi Cheraghchi")."""
    words = _words(seg)
    k = len(words)
    while k > 0 and len(words) - k < _MAX_WORDS and _name_word(words[k - 1], 0 < k - 1 < len(words) - 1):
        k -= 1
    while k < len(words) and not _name_word(words[k], False):
        k += 1  # a particle cannot start a name
    return _Member(words[k][0].i, seg[-1].i + 1) if k < len(words) else None


def _head(seg: list[Token]) -> _Member | None:
    """The name words that start a segment ("Yoshua Bengio for comments.")."""
    words = _words(seg)
    k = 0
    while k < len(words) and k < _MAX_WORDS and _name_word(words[k], k > 0):
        k += 1
    while k > 0 and not _name_word(words[k - 1], False):
        k -= 1  # nor end it
    if k == 0:
        return None
    last = words[k - 1][-1]
    if last.text.endswith(".") and len(last.text) > 2:
        return None  # "Vetterli." is the sentence's end glued to the name: the tokenizer splits it
    return _Member(seg[0].i, last.i + 1)


def _personal_name(text: str) -> bool:
    """Two to five name words, nothing that names a business, an institution or a place."""
    if not 2 <= len(text.split()) <= _MAX_WORDS:
        return False
    return not (business_name(text) or has_legal_suffix(text) or institution_head(text) or is_place(text))
