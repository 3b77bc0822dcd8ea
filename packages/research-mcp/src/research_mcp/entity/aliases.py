"""Aliases: mentions of one entity grouped together, and the name the entity is shown under.

"Microsoft Corp." and "Microsoft" share an alias key; "International Business Machines (IBM)"
makes the acronym an alias; a lone surname joins the only person with that surname. The index
also turns a proper noun the NER missed into a mention when a relation needs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .acronyms import join_acronyms
from .lexicons import english_words, lexicons
from .mentions import Mention, is_sentence_initial_common_word, propn_span
from .names import has_legal_suffix, key, org_type, strip_name

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["Group", "Index", "canonical_name", "group_mentions"]


@dataclass
class Group:
    mentions: list[Mention] = field(default_factory=list)
    role_types: Counter[str] = field(default_factory=Counter)


class Index:
    """Mentions of one document, grouped into entities by alias."""

    def __init__(
        self, doc: Doc, mentions: list[Mention], doubtful: Sequence[Mention] = (), text: str | None = None
    ) -> None:
        self.doc = doc
        self.text = doc.text if text is None else text  # Doc.text is rebuilt from the tokens on every access
        self.doubtful = {i: m for m in doubtful for i in range(m.start, m.end)}
        self.mentions = mentions
        self.by_token: dict[int, Mention] = {}
        for m in mentions:
            for i in range(m.start, m.end):
                self.by_token[i] = m
        self.groups: list[Group] = []

    def add(self, mention: Mention, *, new_group: bool = False) -> None:
        """Record a mention found after the NER pass (in a group of its own when grouping is done)."""
        self.mentions.append(mention)
        for i in range(mention.start, mention.end):
            self.by_token[i] = mention
        if new_group:
            mention.group = len(self.groups)
            self.groups.append(Group(mentions=[mention]))

    def mention_for(self, tok: Token) -> tuple[Mention, bool] | None:
        """The mention covering ``tok``; an un-tagged proper noun becomes a new mention (flagged False)."""
        found = self.by_token.get(tok.i)
        if found is not None:
            return found, found.from_ner or found.strong_type
        revived = self.doubtful.pop(tok.i, None)
        if revived is not None:
            # "Slack was bought by Salesforce": a sentence-initial word the NER called a name, and a relation agrees
            revived.from_ner = False
            self.mentions.append(revived)
            for i in range(revived.start, revived.end):
                self.by_token[i] = revived
            return revived, False
        if tok.pos_ == "NOUN" and tok.dep_ == "appos" and tok.head.pos_ == "PROPN":
            # "Alphabet, Google's parent company, invested ...": the company is Alphabet
            return self.mention_for(tok.head)
        bounds = propn_span(tok)
        if bounds is None:
            return None
        span = self.doc[bounds[0] : bounds[1]]
        if is_sentence_initial_common_word(span) or any(i in self.by_token for i in range(*bounds)):
            return None
        text = strip_name(span.text)
        if len(text) < 2:
            return None
        etype, strong = org_type(text)
        if lexicons().known(key(text), "product"):
            etype, strong = "product", True
        mention = Mention(
            span.start, span.end, text, etype, "PROPN", span.start_char, span.end_char, False, strong
        )
        self.mentions.append(mention)
        for i in range(mention.start, mention.end):
            self.by_token[i] = mention
        return mention, False


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


def merge(index: Index, *, into: int, other: int) -> None:
    if into == other:
        return
    target, source = index.groups[into], index.groups[other]
    if not source.mentions:
        return
    for m in source.mentions:
        m.group = into
    target.mentions.extend(source.mentions)
    target.role_types.update(source.role_types)
    source.mentions = []


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
