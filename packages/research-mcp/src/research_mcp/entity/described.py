"""Names after a descriptor noun take the noun's type: "analysts Kestrel and Vantage", "insurers Swiss Re
and Munich Re", "carmaker Toyota".

The small model often tags only some names of such a list, folds the descriptor into the first
("Analysts Kestrel"), or guesses a place for an unknown single name ("Vantage"). The descriptor
says what the names are; a plural one governs a list ("A, B and C"), a singular one one name. A
name's own form still wins where it is firm evidence (a legal form makes a company). The nouns
and their types are data (data/group_nouns.tsv).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lexicons import english_words, lexicons
from .mentions import LABEL_TYPES, Mention, mention_type
from .names import public_bank, strip_name

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["described_names"]

_NAME_TAGS = {"NNP", "NNPS"}
_LIST_WORDS = {",", "and", "&", "or"}
_LABEL_FOR = {v: k for k, v in reversed(list(LABEL_TYPES.items()))}


def _name_run(doc: Doc, i: int, words: frozenset[str]) -> int:
    """End of the run of capitalised name words that starts at ``i`` (``i`` when there is none)."""
    j = i
    while j < len(doc):
        tok = doc[j]
        if not tok.text[:1].isupper() or tok.is_punct or tok.is_stop or tok.like_url:
            break
        if tok.tag_ not in _NAME_TAGS and tok.lower_ in words:
            break  # "analysts Say ...": an ordinary word, not a name
        j += 1
    return j


def described_names(
    doc: Doc, mentions: list[Mention], dropped: list[Mention]
) -> tuple[list[Mention], list[Mention]]:
    """``mentions`` and ``dropped`` with the names after descriptor nouns typed by the noun."""
    table = lexicons().group_nouns
    words = english_words(doc.vocab)
    n = len(doc)
    held = {i for m in (*mentions, *dropped) for i in range(m.start, m.end)}
    for tok in doc:
        etype = table.get(tok.lower_)
        if etype is None or tok.i + 1 >= n or tok.i in held:
            continue
        if (tok.text[:1].isupper() and not tok.is_sent_start) or (tok.is_upper and len(tok.text) > 1):
            continue  # "Reserve Bank Governor ...", "Malaysia Airlines Flight": the noun is part of a name
        plural = tok.tag_ in {"NNS", "NNPS"}
        names: list[tuple[int, int]] = []
        i = tok.i + 1
        while i < n:
            end = _name_run(doc, i, words)
            if end == i:
                break
            names.append((i, end))
            if not plural or end >= n:
                break
            i = end
            seen = 0
            while i < n and doc[i].lower_ in _LIST_WORDS and seen < 2:
                i, seen = i + 1, seen + 1
            if seen == 0:
                break
        if plural and len(names) == 1 and names[0][1] < n and doc[names[0][1]].lower_ in _LIST_WORDS:
            names = []  # "analysts Kestrel, who ...": a list cut short is no evidence
        for start, end in names:
            inside = [m for m in (*mentions, *dropped) if m.start < end and start < m.end]
            if any(m.start < tok.i or m.end > end for m in inside):
                continue
            span = doc[start:end]
            text = strip_name(span.text)
            if len(text) < 2:
                continue
            own, strong = mention_type(text, _LABEL_FOR.get(etype, "ORG"))
            kind = own if strong and own != etype else etype
            if kind == "company" and public_bank(text):
                kind = "organization"
            label = inside[0].label if inside else _LABEL_FOR.get(kind, "ORG")
            mention = Mention(
                start, end, text, kind, label, span.start_char, span.end_char, bool(inside), True
            )
            mentions = [m for m in mentions if m not in inside] + [mention]
            dropped = [m for m in dropped if m not in inside]
    mentions.sort(key=lambda m: m.start)
    return mentions, dropped
