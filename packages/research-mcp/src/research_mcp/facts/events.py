"""Dates of events as facts ("Acme was founded in 1998"): a date attached by the parse to an event verb."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..values import Period
from .fact import Fact
from .phrases import noun_phrase, subject_of
from .vocabulary import DATE_TYPES, EVENT_ATTRIBUTES, NOT_ENTITY_ENTS, PROJECTION_LEMMAS, PRONOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc


def date_facts(doc: Doc, periods: list[Period], taken: set[int]) -> list[Fact]:
    """Dates of events ("Acme was founded in 1998", "Apple launched the iPhone in June 2007"), value_type date.

    Only dates attached by the parse to a known event verb become facts; a year elsewhere is the
    period of another fact, never a value.
    """
    out: list[Fact] = []
    for p in periods:
        if p.type not in DATE_TYPES or p.year is None or p.span[0] in taken or p.target:
            continue
        span = doc.char_span(p.span[0], p.span[1], alignment_mode="expand")
        if span is None or len(span) == 0:
            continue
        prep = span.root.head
        if prep.pos_ != "ADP" or prep.lower_ not in ("in", "on", "during") or span.root.dep_ != "pobj":
            continue
        verb = prep.head
        lemma = verb.lemma_.lower()
        attribute = EVENT_ATTRIBUTES.get(lemma)
        if lemma == "go" and any(c.lower_ == "public" for c in verb.children):
            attribute = "went public"
        if attribute is None or verb.pos_ not in ("VERB", "AUX"):
            continue
        if any(c.dep_ == "aux" and c.lemma_.lower() in PROJECTION_LEMMAS for c in verb.children):
            continue  # "will launch in 2026": a plan, not a dated fact
        value_tokens = {t.i for t in span}
        passive = any(c.dep_ == "nsubjpass" for c in verb.children)
        obj = None if passive else next((c for c in verb.children if c.dep_ == "dobj"), None)
        owner = obj if obj is not None and obj.pos_ in ("NOUN", "PROPN") else subject_of(verb)
        if (
            owner is None
            or owner.pos_ == "PRON"
            or owner.lower_ in PRONOUNS
            or owner.ent_type_ in NOT_ENTITY_ENTS
        ):
            continue
        sent = span.root.sent
        out.append(
            Fact(
                entity=noun_phrase(owner, value_tokens),
                attribute=attribute,
                value=p.text,
                value_type="date",
                confidence="High",
                numeric_value=None,
                value_kind="date",
                currency=None,
                unit=None,
                scale=None,
                low=None,
                high=None,
                direction=None,
                period=p,
                is_projection=False,
                comparison=None,
                qualifier=None,
                value_span=(p.span[0], p.span[1]),
                sentence_span=(sent.start_char, sent.end_char),
                sentence=sent.text.strip(),
                anchor="object" if owner is obj else "subject",
                typed_value=True,
                has_period=True,
            )
        )
    return out
