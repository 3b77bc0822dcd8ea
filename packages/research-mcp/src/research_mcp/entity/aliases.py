"""Aliases: mentions of one entity grouped together, and the name the entity is shown under.

"Microsoft Corp." and "Microsoft" share an alias key; "International Business Machines (IBM)"
makes the acronym an alias; a lone surname joins the only person with that surname. The index
also turns a proper noun the NER missed into a mention when a relation needs it.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from .acronyms import join_acronyms
from .index import Group, Index, merge
from .lexicons import english_words
from .mentions import Mention
from .names import has_legal_suffix, key

if TYPE_CHECKING:
    pass

__all__ = ["canonical_name", "group_mentions"]


def group_mentions(index: Index) -> None:
    """Merge aliases: legal suffixes, acronyms in parentheses, surnames of full names."""
    groups: dict[str, int] = {}
    ordered = sorted(index.mentions, key=lambda m: m.start)
    persons_by_last: dict[str, set[int]] = {}
    for m in ordered:
        alias = key(m.text)
        gid = groups.get(alias)
        if gid is None:
            gid = len(index.groups)
            index.groups.append(Group())
            groups[alias] = gid
        m.group = gid
        index.groups[gid].mentions.append(m)
        words = alias.split()
        if m.type == "person" and len(words) >= 2:
            persons_by_last.setdefault(words[-1], set()).add(gid)
    # "International Business Machines (IBM)", "IBM (International Business Machines)", "..., or IBM,"
    join_acronyms(index, groups)
    # "Ortega" after "Maria Ortega": a lone surname joins the only person with that surname, and is a
    # person whatever the NER called it (never a new company), unless its form says company
    for m in ordered:
        words = key(m.text).split()
        if len(words) != 1 or m.type in {"technology", "product"} or has_legal_suffix(m.text):
            continue
        if m.strong_type and m.type in {"company", "organization"}:
            continue
        candidates = persons_by_last.get(words[0], set()) - {m.group}
        if len(candidates) == 1:
            m.type, m.strong_type = "person", False
            merge(index, into=next(iter(candidates)), other=m.group)
    _surnames_the_ner_missed(index, persons_by_last)


def _surnames_the_ner_missed(index: Index, persons_by_last: dict[str, set[int]]) -> None:
    """ "Andrew Sant ... Sant migrated": a lone surname the NER left untagged, or held back as a
    sentence's first word, is a mention of the only person with that surname."""
    surnames = {last: next(iter(g)) for last, g in persons_by_last.items() if len(g) == 1}
    if not surnames:
        return
    words = english_words(index.doc.vocab)
    for tok in index.doc:
        gid = surnames.get(tok.lower_)
        if gid is None or tok.i in index.by_token or not tok.text[:1].isupper() or tok.is_upper:
            continue
        first = min(m.start for m in index.groups[gid].mentions) if index.groups[gid].mentions else tok.i
        if tok.i < first:
            continue  # a surname is read back only after the full name
        held = index.doubtful.get(tok.i)
        if held is not None and (held.start, held.end) != (tok.i, tok.i + 1):
            continue
        if held is None and tok.pos_ != "PROPN" and tok.lower_ in words:
            continue  # "... Share on Google Plus": an ordinary word the tagger does not call a name
        index.doubtful.pop(tok.i, None)
        mention = Mention(
            tok.i, tok.i + 1, tok.text, "person", held.label if held else "PROPN",
            tok.idx, tok.idx + len(tok.text), held is not None, False,
        )  # fmt: skip
        index.add(mention)
        mention.group = gid
        index.groups[gid].mentions.append(mention)


def canonical_name(mentions: list[Mention], etype: str) -> str:
    """A person's fullest name; for others the most frequent form without a legal form."""
    texts = [m.text for m in mentions]
    if etype == "person":
        return max(texts, key=lambda t: (len(t.split()), texts.count(t)))
    plain = [t for t in texts if not has_legal_suffix(t)]
    pool = plain or texts
    counts = Counter(pool)
    first_seen = {t: i for i, t in reversed(list(enumerate(pool)))}
    return max(counts, key=lambda t: (counts[t], -first_seen[t]))
