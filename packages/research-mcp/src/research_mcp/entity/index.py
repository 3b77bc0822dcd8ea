"""The mentions of one document, indexed by token and grouped into entities.

Shared by the readers that group mentions (``aliases``: alias keys, surnames; ``acronyms``: defined
short forms) and the relation reader (``relations``), so none of them imports another's internals.
The index also turns a proper noun the NER missed into a mention when a relation needs it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .lexicons import lexicons
from .mentions import Mention, is_sentence_initial_common_word, propn_span
from .names import key, org_type, strip_name

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

__all__ = ["Group", "Index", "merge"]


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
