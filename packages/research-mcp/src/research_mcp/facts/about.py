"""What a value is about: its entity and attribute, from the parse, a label, or proximity."""

from __future__ import annotations

import re
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
    from spacy.tokens import Span


def find_about(
    w: Where,
    periods: list[Period],
    last_entity: str | None,
    chunks: NounChunks,
    kind: str,
    unit: str | None = None,
) -> tuple[About | None, str | None]:
    """What the value is about (from the parse, a ``Label:`` prefix, or proximity), and the noun it counts."""
    span = w.span
    label = label_before(w.text, w.seg_start, span.start_char, periods)
    if label is not None:
        label = equation_term(span, label)
    value_tokens = {t.i for t in span}
    count_noun: str | None = None
    change_attr: str | None = None
    share_of = of_complement(span, value_tokens)
    measured: str | None = None  # "$54.5 million of debt": what an amount is of
    if share_of is not None and kind in ("percentage", "percentage_points"):
        change_attr = f"share of {noun_phrase(share_of, value_tokens, with_of=False)}"
    elif share_of is not None:
        measured = noun_phrase(share_of, value_tokens, with_of=False)
        share_of = None
    t = span.root
    for _ in range(12):
        head = t.head
        if head is t or head.idx >= w.seg_end or head.idx < w.seg_start:
            break
        if head.i in value_tokens or (
            head.pos_ == "NUM" and t.dep_ in ("quantmod", "compound", "nummod", "conj", "appos")
        ):
            t = head  # inside the value, or through the other end of "from 4,000 to 5,500"
            continue
        bracketed = head.i > span.end and any(x.text in "([" for x in span.doc[span.end : head.i])
        if t.dep_ == "nummod" and head.lower_ in ("%", "percent") and not bracketed:
            t = head  # the other value's own "%" ("from 76.5% to 81.2%"): part of a value, not a noun
            continue
        if bracketed and head.pos_ == "NOUN" and t.dep_ in ("nummod", "compound", "amod"):
            t = head  # "was 0.72 (95% CI ...)": a noun in a bracket after the value is not what it counts
            continue
        if head.pos_ in ("NOUN", "PROPN") and t.dep_ in (
            "nummod",
            "compound",
            "amod",
            "quantmod",
            "nmod",
            "npadvmod",
        ):
            noun = counted_noun(span, head, w.seg_end) if count_noun is None else None
            if noun is not None:
                count_noun = noun
                t = head
                continue
        if head.pos_ == "ADP" and t.dep_ == "pobj":
            owner = head.head
            if (
                head.lower_ in ("of", "at")
                and owner.pos_ in ("NOUN", "PROPN")
                and owner.i not in value_tokens
                and owner.idx >= w.seg_start
            ):
                if owner.lemma_.lower() in CHANGE_NOUNS:
                    change_attr = owner.lemma_.lower()
                    t = owner
                    continue
                if (
                    owner.lemma_.lower() == "rate"
                    and owner.head.head.lemma_.lower() in GROWTH_LEMMAS | DECLINE_LEMMAS
                ):
                    change_attr = "growth"  # "grew at an annual rate of 4.9%"
                    t = owner
                    continue
                if owner.lower_ in PRONOUNS or owner.ent_type_ in NOT_ENTITY_ENTS or owner.like_num:
                    t = owner
                    continue
                # "revenue of $5 billion", "a market share of 30%"
                phrase = with_owner(noun_phrase(owner, value_tokens, with_of=False), owner, value_tokens)
                return About(phrase, count_noun or change_attr, "of_noun"), count_noun
            t = head
            continue
        if head.pos_ in ("VERB", "AUX") or (head.pos_ == "ADJ" and head.dep_ in ("ROOT", "acomp")):
            lemma = head.lemma_.lower()
            if lemma in VERB_ATTRIBUTES and count_noun is None and change_attr is None:
                change_attr = VERB_ATTRIBUTES[lemma]
            if lemma in CHANGE_VERBS and BY_RE.search(
                w.text[max(w.seg_start, span.start_char - 6) : span.start_char]
            ):
                obj = next((c for c in head.children if c.dep_ == "dobj" and c.i not in value_tokens), None)
                if obj is not None and obj.pos_ in ("NOUN", "PROPN") and obj.ent_type_ not in NOT_ENTITY_ENTS:
                    return About(
                        noun_phrase(obj, value_tokens), count_noun or change_attr, "object"
                    ), count_noun
            if lemma in OBJECT_VERBS:
                obj = object_of(head, value_tokens)
                if obj is not None:
                    about = About(noun_phrase(obj, value_tokens), count_noun or change_attr, "object")
                    return about, count_noun
            subj = subject_of(head)
            if subj is not None and subj.i in value_tokens:
                fronted = fronted_group(head, span, value_tokens, w)
                if fronted is not None:  # "Of the 54 functions, 26 begin with ...": a part of that group
                    group_attribute = (
                        "share" if kind in ("percentage", "percentage_points") else count_noun or "count"
                    )
                    return About(fronted, group_attribute, "of_noun"), count_noun
                break  # the value is this clause's subject ("HK$3.2bn went to Asia"), not about an outer one
            if (
                subj is not None
                and subj.i not in value_tokens
                and not subj.like_num
                and subj.idx >= w.seg_start
            ):
                if subj.pos_ == "PRON" or subj.lower_ in PRONOUNS:
                    if label:
                        break
                    outer = outer_subject(head, value_tokens)
                    if outer is not None:  # "The company said it would cut 10,000 jobs"
                        return About(outer, count_noun or change_attr, "coreference"), count_noun
                    if last_entity and subj.lower_ not in PERSONAL:
                        return About(last_entity, count_noun or change_attr, "coreference"), count_noun
                    if measured is not None:  # "we had $54.5 million of debt outstanding": the debt
                        return About(measured, change_attr, "of_noun"), count_noun
                    fallback = measured_noun(span, value_tokens, count_noun, kind, unit, w)
                    if fallback is None and subj.lower_ in PERSONAL | {"they"}:
                        fallback = first_person_object(head, span, value_tokens, change_attr, w)
                    return fallback, count_noun
                if (
                    subj.ent_type_ in NOT_ENTITY_ENTS
                    or subj.lemma_.lower() in REPORTER_LEMMAS
                    or AMOUNT_LIKE_RE.match(subj.text)
                ):
                    break  # a subject that is itself an amount ("HK$3.2bn went to Asia") names nothing
                anchor = "relative" if head.dep_ == "relcl" else "subject"
                attribute = count_noun or change_attr or measured
                return About(noun_phrase(subj, value_tokens), attribute, anchor), count_noun
            if head.dep_ == "ROOT":
                carried = continued_sentence_subject(w, value_tokens) if subj is None else None
                if carried is not None:  # "The screen is 2 in. | thick and weighs 3 oz.": one sentence
                    return About(carried, count_noun or change_attr or measured, "subject"), count_noun
                break
            t = head
            continue
        if head.pos_ == "NUM":
            break  # "3 of the 12 plants": a value inside another number's phrase
        if t.dep_ in ("dobj", "attr", "npadvmod", "advmod", "oprd", "appos", "conj", "prep", "acomp", "nmod", "dep", "pobj", "nsubj"):  # fmt: skip
            t = head
            continue
        break
    if label:
        return About(label, count_noun or change_attr, "label"), count_noun
    if share_of is not None:
        # "About 45% of respondents said ...": the respondents are what the share is about
        return About(noun_phrase(share_of, value_tokens, with_of=False), "share", "of_noun"), count_noun
    if measured is not None:
        # "there was $1.1 billion of unrecognized compensation cost": the cost is what the amount is
        return About(measured, change_attr, "of_noun"), count_noun
    inline = inline_label(span, w)
    quantity_like = bool(re.search(r"[\d][,.]\d|[^\d\s.,]", span.text))  # "12,400", "$5bn", "23%"; not "9001"
    if inline is not None and quantity_like:
        return inline, count_noun
    line_label = (
        LINE_LABEL_RE.match(w.text[w.line_start : w.seg_start]) if w.seg_start > w.line_start else None
    )
    if line_label:
        return About(line_label.group("label").strip(), count_noun or change_attr, "label"), count_noun
    if span.root.dep_ in ("nsubj", "nsubjpass") or (
        span.root.dep_ == "conj" and span.root.head.dep_ == "nsubj"
    ):
        return None, count_noun  # the value is itself the subject ("HK$3.2bn went to Asia"): nothing owns it
    # Nothing syntactic: the nearest preceding noun chunk in the same clause.
    best: Span | None = None
    for chunk in chunks.between(w.seg_start, span.start_char):
        if (
            any(x.like_num for x in chunk)
            or chunk.root.pos_ == "PRON"
            or chunk.root.ent_type_ in NOT_ENTITY_ENTS
        ):
            continue
        if any(p.span[0] < chunk.end_char and chunk.start_char < p.span[1] for p in periods):
            continue
        if chunk.root.dep_ not in ("nsubj", "nsubjpass", "ROOT", "appos", "dobj"):
            continue  # "... went to Asia and S$500m": a place after a preposition does not own a value
        if re.search(r"\d", chunk.text) or CLAUSE_BREAK_RE.search(w.text, chunk.end_char, span.start_char):
            continue
        best = chunk
    if best is not None:
        phrase = noun_phrase(best.root, value_tokens, with_of=False)
        return About(phrase, count_noun or change_attr, "nearest_chunk"), count_noun
    return measured_noun(span, value_tokens, count_noun, kind, unit, w), count_noun
