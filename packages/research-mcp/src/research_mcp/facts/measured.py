"""What a value measures when the text names no owner for it: the fallbacks of ``about``.

"we granted 547,000 PSUs", "an $872 million charge", "temperatures near 32 degrees Celsius": no subject
(or only "we") owns these values, yet each says what it measures. Rather than dropping them, fact-extract
anchors them to that noun with the anchor ``measured``, which is never High confidence. Also here: the
group a subject value belongs to ("Of the 54 functions, 26 ...") and the subject of a sentence spaCy cut
in two ("The screen is 2 in. | thick and weighs 3 oz.").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .context import About, Where
from .phrases import noun_phrase
from .vocabulary import CHANGE_NOUNS, MEASURE_PREPOSITIONS, NOT_ENTITY_ENTS, PLACE_PREPOSITIONS, PRONOUNS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


def measured_noun(
    span: Span, value_tokens: set[int], count_noun: str | None, kind: str, unit: str | None, w: Where
) -> About | None:
    """With no owner in the text, what the value measures: the noun it counts or modifies (low confidence).

    "we granted 547,000 PSUs" -> (PSUs, count); "an $872 million charge" -> (charge, value); "a $539 million
    decrease in net bookings" -> (net bookings, decrease); "the 1.5 mm beach" -> (beach, value). A bare
    number that counts nothing owns no fact: it may be an identifier as well as an amount.
    """
    root = span.root
    head = root.head
    while head.i in value_tokens and head.head.i != head.i:
        head = head.head
    typed = kind != "number" or unit is not None
    if typed and head.pos_ == "ADP" and head.lower_ in MEASURE_PREPOSITIONS and head.i < span.start:
        noun = (
            head.head
        )  # "temperatures near 32 degrees Celsius", "a difference in volume between 4 km^3 ..."
        if (
            noun.pos_ in ("NOUN", "PROPN")
            and noun.i < head.i
            and noun.idx >= w.seg_start
            and noun.ent_type_ not in NOT_ENTITY_ENTS
            and noun.lower_ not in PRONOUNS
        ):
            return About(noun_phrase(noun, value_tokens, with_of=False), None, "measured")
    if (
        head.i in value_tokens
        or head.pos_ not in ("NOUN", "PROPN")
        or head.i < span.end
        or head.idx >= w.seg_end
        or head.ent_type_ in NOT_ENTITY_ENTS
        or head.lower_ in PRONOUNS
        or (head.dep_ == "pobj" and head.head.lower_ == "of" and head.head.head.pos_ == "NUM")
    ):
        return None  # "3 of the 12 plants": a number inside another number's phrase
    if count_noun is not None and kind == "number" and unit is None:
        return About(noun_phrase(head, value_tokens), "count", "measured")
    if kind == "number" and unit is None:
        return None  # untyped, uncounted: "Processor 860"
    lemma = head.lemma_.lower()
    if lemma in CHANGE_NOUNS or lemma in ("reduction", "loss", "charge", "cost", "expense", "benefit"):
        for c in head.rights:
            pobj = next((x for x in c.children if x.dep_ == "pobj"), None) if c.dep_ == "prep" else None
            if c.lower_ in ("in", "of", "for") and pobj is not None and pobj.pos_ in ("NOUN", "PROPN"):
                return About(noun_phrase(pobj, value_tokens, with_of=False), lemma, "measured")
    phrase = noun_phrase(head, value_tokens)
    if unit and phrase.startswith(unit + " "):
        phrase = phrase[len(unit) + 1 :]  # "45 and 50 mg ethanol": the unit is not part of what is measured
    return About(phrase, None, "measured")


def first_person_object(
    verb: Token, span: Span, value_tokens: set[int], attribute: str | None, w: Where
) -> About | None:
    """With "we"/"I"/"they" as owner, what the value measures: the "of" noun of the list it is in ("we had $3.0
    million and $1.2 million of accrued interest"), else the place the verb puts it ("borrowed $72.3 million
    under our credit facilities", "have €10M in my savings account"). Low confidence: the owner is unnamed."""
    doc = span.doc
    for t in doc[span.end : min(len(doc), span.end + 12)]:
        if t.idx >= w.seg_end:
            break
        if (
            t.lower_ == "of"
            and t.dep_ == "prep"
            and (t.head.like_num or t.head.i in value_tokens or t.head.pos_ in ("NUM", "SYM"))
        ):
            pobj = next((x for x in t.children if x.dep_ == "pobj"), None)
            if pobj is not None and pobj.pos_ in ("NOUN", "PROPN") and pobj.ent_type_ not in NOT_ENTITY_ENTS:
                return About(noun_phrase(pobj, value_tokens, with_of=False), attribute, "measured")
    for c in [*verb.children, *(x for t in span for x in t.children)]:
        if c.dep_ != "prep" or c.i < span.end or c.idx >= w.seg_end or c.lower_ not in PLACE_PREPOSITIONS:
            continue
        pobj = next((x for x in c.children if x.dep_ == "pobj"), None)
        if (
            pobj is not None
            and pobj.pos_ in ("NOUN", "PROPN")
            and pobj.ent_type_ not in NOT_ENTITY_ENTS
            and pobj.lower_ not in PRONOUNS
        ):
            return About(noun_phrase(pobj, value_tokens, with_of=False), attribute, "measured")
    return None


def continued_sentence_subject(w: Where, value_tokens: set[int]) -> str | None:
    """The subject of the previous sentence when this one starts in lower case: a false sentence break, such as
    after a unit's full stop ("The screen is 2 in. thick and weighs 3 oz.")."""
    sent = w.sent
    first = next((t for t in sent if not t.is_space and not t.is_punct), None)
    if first is None or not first.is_lower or sent.start == 0:
        return None
    previous = sent.doc[sent.start - 1].sent
    root = previous.root
    subj = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subj is None or subj.pos_ not in ("NOUN", "PROPN") or subj.i in value_tokens:
        return None
    return noun_phrase(subj, value_tokens)


def fronted_group(verb: Token, span: Span, value_tokens: set[int], w: Where) -> str | None:
    """ "Of participants with symptoms, 47.4% ...", "Out of the 54 functions, 26 ...", "Among these clones, 26 ...":
    the group a subject value is a part of, named in a phrase before it."""
    for c in verb.children:
        if (
            c.dep_ != "prep"
            or c.lower_ not in ("of", "among", "out")
            or c.i >= span.start
            or c.idx < w.seg_start
        ):
            continue
        node = c
        if c.lower_ == "out":
            node = next((x for x in c.children if x.dep_ == "prep" and x.lower_ == "of"), c)
        pobj = next((x for x in node.children if x.dep_ == "pobj"), None)
        if pobj is not None and pobj.pos_ in ("NOUN", "PROPN") and pobj.ent_type_ not in NOT_ENTITY_ENTS:
            return noun_phrase(pobj, value_tokens)
    return None
