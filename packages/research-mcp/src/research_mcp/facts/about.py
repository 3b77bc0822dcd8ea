"""What a value is about: its entity and attribute, from the parse, a label, or proximity.

``find_about`` climbs the parse from the value to the words that govern it (a counted noun, "revenue of",
a verb's subject or object); when the climb names no owner, a label, an "of" complement, the line's
label or the nearest noun chunk before the value does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..values import Period
from .context import About, NounChunks, Where
from .labels import equation_term, inline_label, label_before
from .measured import continued_sentence_subject, first_person_object, fronted_group, measured_noun
from .phrases import (
    counted_noun,
    noun_phrase,
    object_of,
    of_complement,
    outer_subject,
    subject_of,
    with_owner,
)
from .vocabulary import (
    AMOUNT_LIKE_RE,
    BY_RE,
    CHANGE_NOUNS,
    CHANGE_VERBS,
    CLAUSE_BREAK_RE,
    DECLINE_LEMMAS,
    GROWTH_LEMMAS,
    LINE_LABEL_RE,
    NOT_ENTITY_ENTS,
    OBJECT_VERBS,
    PERSONAL,
    PRONOUNS,
    REPORTER_LEMMAS,
    VERB_ATTRIBUTES,
)

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

_PERCENT_KINDS = ("percentage", "percentage_points")
_COUNTING_DEPS = ("nummod", "compound", "amod", "quantmod", "nmod", "npadvmod")
_CLIMB_DEPS = ("dobj", "attr", "npadvmod", "advmod", "oprd", "appos", "conj", "prep", "acomp", "nmod", "dep", "pobj", "nsubj")  # fmt: skip
_MAX_CLIMB = 12


@dataclass
class _Search:
    """What the search for a value's owner knows so far; the climb's steps fill in the nouns it meets."""

    where: Where
    value_tokens: set[int]
    kind: str
    unit: str | None
    label: str | None
    last_entity: str | None
    count_noun: str | None = None  # "260 million subscribers": the noun the value counts
    change_attr: str | None = None  # "a rise of 5%", "a share of 30%": what the value measures
    measured: str | None = None  # "$54.5 million of debt": what an amount is of
    share_of: Token | None = None  # "45% of respondents": the group a share is of

    @property
    def span(self) -> Span:
        return self.where.span

    def about(self, entity: str, anchor: str) -> About:
        """An owner found, with the counted noun (or the change) as its attribute."""
        return About(entity, self.count_noun or self.change_attr, anchor)


@dataclass(frozen=True, slots=True)
class _Found:
    """The climb's answer: an owner, or ``None`` when the clause shows the value has none."""

    about: About | None


def find_about(
    where: Where,
    periods: list[Period],
    last_entity: str | None,
    chunks: NounChunks,
    kind: str,
    unit: str | None = None,
) -> tuple[About | None, str | None]:
    """What the value is about (from the parse, a ``Label:`` prefix, or proximity), and the noun it counts."""
    span = where.span
    label = label_before(where.text, where.seg_start, span.start_char, periods)
    if label is not None:
        label = equation_term(span, label)
    search = _Search(where, {token.i for token in span}, kind, unit, label, last_entity)
    _read_of_complement(search)
    found = _climb(search)
    if found is not None:
        return found.about, search.count_noun
    return _without_the_parse(search, periods, chunks), search.count_noun


def _read_of_complement(search: _Search) -> None:
    """ "45% of respondents": a share of a group; "$54.5 million of debt": what an amount is of."""
    share_of = of_complement(search.span, search.value_tokens)
    if share_of is not None and search.kind in _PERCENT_KINDS:
        search.change_attr = f"share of {noun_phrase(share_of, search.value_tokens, with_of=False)}"
        search.share_of = share_of
    elif share_of is not None:
        search.measured = noun_phrase(share_of, search.value_tokens, with_of=False)


def _climb(search: _Search) -> _Found | None:
    """Up the parse from the value, within its clause, until a step names the owner or stops."""
    where = search.where
    token = search.span.root
    for _ in range(_MAX_CLIMB):
        head = token.head
        if head is token or head.idx >= where.seg_end or head.idx < where.seg_start:
            return None
        step = _climb_step(search, token, head)
        if step is None or isinstance(step, _Found):
            return step
        token = step
    return None


def _climb_step(search: _Search, token: Token, head: Token) -> Token | _Found | None:
    """One step from ``token`` to its ``head``: climb on (the next token), answer, or stop (``None``)."""
    if _within_the_value(search, token, head) or _counts_the_noun(search, token, head):
        return head
    if head.pos_ == "ADP" and token.dep_ == "pobj":
        return _through_preposition(search, head)
    if head.pos_ in ("VERB", "AUX") or (head.pos_ == "ADJ" and head.dep_ in ("ROOT", "acomp")):
        return _at_verb(search, head)
    if head.pos_ == "NUM":
        return None  # "3 of the 12 plants": a value inside another number's phrase
    if token.dep_ in _CLIMB_DEPS:
        return head
    return None


def _within_the_value(search: _Search, token: Token, head: Token) -> bool:
    """Whether ``head`` is still part of the value (or of its bracket) rather than a word about it."""
    span = search.span
    if head.i in search.value_tokens or (
        head.pos_ == "NUM" and token.dep_ in ("quantmod", "compound", "nummod", "conj", "appos")
    ):
        return True  # inside the value, or through the other end of "from 4,000 to 5,500"
    bracketed = head.i > span.end and any(between.text in "([" for between in span.doc[span.end : head.i])
    if token.dep_ == "nummod" and head.lower_ in ("%", "percent") and not bracketed:
        return True  # the other value's own "%" ("from 76.5% to 81.2%"): part of a value, not a noun
    # "was 0.72 (95% CI ...)": a noun in a bracket after the value is not what it counts
    return bracketed and head.pos_ == "NOUN" and token.dep_ in ("nummod", "compound", "amod")


def _counts_the_noun(search: _Search, token: Token, head: Token) -> bool:
    """ "260 million subscribers": the first noun the value modifies is what it counts."""
    if (
        head.pos_ not in ("NOUN", "PROPN")
        or token.dep_ not in _COUNTING_DEPS
        or search.count_noun is not None
    ):
        return False
    noun = counted_noun(search.span, head, search.where.seg_end)
    if noun is None:
        return False
    search.count_noun = noun
    return True


def _through_preposition(search: _Search, preposition: Token) -> Token | _Found:
    """ "revenue of $5 billion", "grew at an annual rate of 4.9%": the noun an "of"/"at" phrase completes."""
    owner = preposition.head
    if not (
        preposition.lower_ in ("of", "at")
        and owner.pos_ in ("NOUN", "PROPN")
        and owner.i not in search.value_tokens
        and owner.idx >= search.where.seg_start
    ):
        return preposition
    lemma = owner.lemma_.lower()
    if lemma in CHANGE_NOUNS:
        search.change_attr = lemma
        return owner
    if lemma == "rate" and owner.head.head.lemma_.lower() in GROWTH_LEMMAS | DECLINE_LEMMAS:
        search.change_attr = "growth"  # "grew at an annual rate of 4.9%"
        return owner
    if owner.lower_ in PRONOUNS or owner.ent_type_ in NOT_ENTITY_ENTS or owner.like_num:
        return owner
    # "revenue of $5 billion", "a market share of 30%"
    phrase = with_owner(noun_phrase(owner, search.value_tokens, with_of=False), owner, search.value_tokens)
    return _Found(search.about(phrase, "of_noun"))


def _at_verb(search: _Search, verb: Token) -> Token | _Found | None:
    """A verb (or a predicate adjective) over the value: its object or its subject owns the value."""
    lemma = verb.lemma_.lower()
    if lemma in VERB_ATTRIBUTES and search.count_noun is None and search.change_attr is None:
        search.change_attr = VERB_ATTRIBUTES[lemma]
    changed = _verb_object(search, verb, lemma)
    if changed is not None:
        return _Found(search.about(noun_phrase(changed, search.value_tokens), "object"))
    subject = subject_of(verb)
    if subject is not None and subject.i in search.value_tokens:
        fronted = fronted_group(verb, search.span, search.value_tokens, search.where)
        if fronted is not None:  # "Of the 54 functions, 26 begin with ...": a part of that group
            group_attribute = "share" if search.kind in _PERCENT_KINDS else search.count_noun or "count"
            return _Found(About(fronted, group_attribute, "of_noun"))
        return None  # the value is this clause's subject ("HK$3.2bn went to Asia"), not about an outer one
    if subject is not None and not subject.like_num and subject.idx >= search.where.seg_start:
        return _from_subject(search, verb, subject)
    if verb.dep_ == "ROOT":
        carried = continued_sentence_subject(search.where, search.value_tokens) if subject is None else None
        if carried is not None:  # "The screen is 2 in. | thick and weighs 3 oz.": one sentence
            attribute = search.count_noun or search.change_attr or search.measured
            return _Found(About(carried, attribute, "subject"))
        return None
    return verb


def _verb_object(search: _Search, verb: Token, lemma: str) -> Token | None:
    """ "cut its workforce by 10%": the object a change verb changed; "employs 5,000 people": an object verb's."""
    where = search.where
    if lemma in CHANGE_VERBS and BY_RE.search(
        where.text[max(where.seg_start, search.span.start_char - 6) : search.span.start_char]
    ):
        changed = next(
            (child for child in verb.children if child.dep_ == "dobj" and child.i not in search.value_tokens),
            None,
        )
        if (
            changed is not None
            and changed.pos_ in ("NOUN", "PROPN")
            and changed.ent_type_ not in NOT_ENTITY_ENTS
        ):
            return changed
    if lemma in OBJECT_VERBS:
        return object_of(verb, search.value_tokens)
    return None


def _from_subject(search: _Search, verb: Token, subject: Token) -> _Found | None:
    """The verb's subject (not the value itself) owns the value, unless it is a pronoun or an amount."""
    if subject.pos_ == "PRON" or subject.lower_ in PRONOUNS:
        return _from_pronoun(search, verb, subject)
    if (
        subject.ent_type_ in NOT_ENTITY_ENTS
        or subject.lemma_.lower() in REPORTER_LEMMAS
        or AMOUNT_LIKE_RE.match(subject.text)
    ):
        return None  # a subject that is itself an amount ("HK$3.2bn went to Asia") names nothing
    anchor = "relative" if verb.dep_ == "relcl" else "subject"
    attribute = search.count_noun or search.change_attr or search.measured
    return _Found(About(noun_phrase(subject, search.value_tokens), attribute, anchor))


def _from_pronoun(search: _Search, verb: Token, pronoun: Token) -> _Found | None:
    """A pronoun subject: the clause that embeds it, the entity before it, or what the value measures."""
    if search.label:
        return None
    outer = outer_subject(verb, search.value_tokens)
    if outer is not None:  # "The company said it would cut 10,000 jobs"
        return _Found(search.about(outer, "coreference"))
    if search.last_entity and pronoun.lower_ not in PERSONAL:
        return _Found(search.about(search.last_entity, "coreference"))
    if search.measured is not None:  # "we had $54.5 million of debt outstanding": the debt
        return _Found(About(search.measured, search.change_attr, "of_noun"))
    where, span, value_tokens = search.where, search.span, search.value_tokens
    fallback = measured_noun(span, value_tokens, search.count_noun, search.kind, search.unit, where)
    if fallback is None and pronoun.lower_ in PERSONAL | {"they"}:
        fallback = first_person_object(verb, span, value_tokens, search.change_attr, where)
    return _Found(fallback)


def _without_the_parse(search: _Search, periods: list[Period], chunks: NounChunks) -> About | None:
    """When the climb names no owner: a label, an "of" complement, the line's label, the nearest noun chunk."""
    where, span, value_tokens = search.where, search.span, search.value_tokens
    if search.label:
        return search.about(search.label, "label")
    if search.share_of is not None:
        # "About 45% of respondents said ...": the respondents are what the share is about
        return About(noun_phrase(search.share_of, value_tokens, with_of=False), "share", "of_noun")
    if search.measured is not None:
        # "there was $1.1 billion of unrecognized compensation cost": the cost is what the amount is
        return About(search.measured, search.change_attr, "of_noun")
    inline = inline_label(span, where)
    quantity_like = bool(re.search(r"[\d][,.]\d|[^\d\s.,]", span.text))  # "12,400", "$5bn", "23%"; not "9001"
    if inline is not None and quantity_like:
        return inline
    line_label = (
        LINE_LABEL_RE.match(where.text[where.line_start : where.seg_start])
        if where.seg_start > where.line_start
        else None
    )
    if line_label:
        return search.about(line_label.group("label").strip(), "label")
    if span.root.dep_ in ("nsubj", "nsubjpass") or (
        span.root.dep_ == "conj" and span.root.head.dep_ == "nsubj"
    ):
        return None  # the value is itself the subject ("HK$3.2bn went to Asia"): nothing owns it
    nearest = _nearest_chunk(search, periods, chunks)
    if nearest is not None:
        return search.about(noun_phrase(nearest.root, value_tokens, with_of=False), "nearest_chunk")
    return measured_noun(span, value_tokens, search.count_noun, search.kind, search.unit, where)


def _nearest_chunk(search: _Search, periods: list[Period], chunks: NounChunks) -> Span | None:
    """Nothing syntactic: the nearest preceding noun chunk in the same clause that could own a value."""
    where, span = search.where, search.span
    best: Span | None = None
    for chunk in chunks.between(where.seg_start, span.start_char):
        if (
            any(token.like_num for token in chunk)
            or chunk.root.pos_ == "PRON"
            or chunk.root.ent_type_ in NOT_ENTITY_ENTS
        ):
            continue
        if any(period.span[0] < chunk.end_char and chunk.start_char < period.span[1] for period in periods):
            continue
        if chunk.root.dep_ not in ("nsubj", "nsubjpass", "ROOT", "appos", "dobj"):
            continue  # "... went to Asia and S$500m": a place after a preposition does not own a value
        if re.search(r"\d", chunk.text) or CLAUSE_BREAK_RE.search(
            where.text, chunk.end_char, span.start_char
        ):
            continue
        best = chunk
    return best
