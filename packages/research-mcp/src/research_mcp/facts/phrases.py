"""Noun phrases and their roles from the dependency parse: subjects, objects, counted nouns, owners."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .vocabulary import LEFT_KEEP_DEPS, NOT_ENTITY_ENTS, OBJECT_VERBS, REPORTER_LEMMAS, TIME_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


def _dated_run(t: Token) -> bool:
    """Whether ``t`` is in a DATE entity that names a numbered period ("third-quarter"), not "monthly"."""
    doc = t.doc
    i = t.i
    while i > 0 and doc[i].ent_iob_ == "I" and doc[i - 1].ent_type_ == "DATE":
        i -= 1
    j = t.i
    while j + 1 < len(doc) and doc[j + 1].ent_iob_ == "I":
        j += 1
    return any(x.like_num for x in doc[i : j + 1])


def clean_phrase(tokens: list[Token]) -> str:
    words: list[str] = []
    for t in tokens:
        if t.dep_ in ("det", "case") or (t.is_punct and t.text not in "-&") or t.is_space:
            continue
        if t.lower_ in ("'s", "’s") or (t.dep_ == "poss" and t.pos_ == "PRON"):
            continue
        if t.ent_type_ == "DATE" and _dated_run(t):
            continue  # "third-quarter revenue": the quarter is the fact's period, not part of its entity
        words.append(t.text)
    return re.sub(r"\s*-\s*", "-", " ".join(words)).strip(" -")


def noun_phrase(head: Token, value_tokens: set[int], *, with_of: bool = True) -> str:
    """The head noun with its left modifiers (compounds, adjectives, possessors) and an ``of``/``for`` complement."""
    left: list[Token] = []
    for t in head.lefts:
        if t.dep_ in LEFT_KEEP_DEPS:
            left.extend(x for x in t.subtree if x.i not in value_tokens and not x.like_num)
    tokens = [*sorted(left, key=lambda x: x.i), head]
    if head.pos_ == "PROPN":
        # "Windows 11", "S&P 500": a number right after a name is part of it
        tokens += [
            c for c in head.rights if c.dep_ == "nummod" and c.i == head.i + 1 and c.i not in value_tokens
        ]
    if with_of:
        for t in head.rights:
            if t.dep_ == "prep" and t.lower_ in ("of", "for", "in", "at", "on") and t.i not in value_tokens:
                pobj = [c for c in t.children if c.dep_ == "pobj"]
                if pobj and pobj[0].pos_ in ("NOUN", "PROPN") and not pobj[0].like_num and pobj[0].ent_type_ not in NOT_ENTITY_ENTS:  # fmt: skip
                    sub = [
                        x
                        for x in pobj[0].subtree
                        if x.i not in value_tokens and x.dep_ not in ("relcl", "acl")
                    ]
                    if len(sub) <= 6 and not any(x.like_num for x in sub):
                        tokens += [t, *sub]
                break
    phrase = clean_phrase(tokens)
    if len(phrase.split()) > 10:
        phrase = clean_phrase([*sorted(left, key=lambda x: x.i)[-4:], head])
    return phrase


def subject_of(verb: Token) -> Token | None:
    """nsubj of ``verb``, inherited through conjunctions, xcomp/ccomp chains and relative clauses."""
    v = verb
    for _ in range(6):
        for c in v.children:
            if c.dep_ in ("nsubj", "nsubjpass", "csubj"):
                if c.tag_ in ("WDT", "WP") and v.dep_ == "relcl" and v.head.pos_ in ("NOUN", "PROPN"):
                    return v.head  # "Its shares, which have gained 20%": the shares
                return c
        if v.dep_ in ("conj", "xcomp", "ccomp", "advcl", "pcomp") and v.head is not v:
            v = v.head
            if v.pos_ in ("NOUN", "PROPN") and verb.dep_ != "advcl":
                return v
            continue
        if v.dep_ in ("relcl", "acl") and v.head.pos_ in ("NOUN", "PROPN"):
            return v.head
        break
    return None


def outer_subject(verb: Token, value_tokens: set[int]) -> str | None:
    """The named subject of the clause that embeds ``verb`` ("The company said it would ...")."""
    v = verb
    for _ in range(3):
        if v.dep_ not in ("ccomp", "xcomp", "advcl", "conj") or v.head is v:
            return None
        v = v.head
        subj = next((c for c in v.children if c.dep_ in ("nsubj", "nsubjpass")), None)
        if subj is not None and subj.pos_ in ("NOUN", "PROPN") and subj.lemma_.lower() not in REPORTER_LEMMAS:
            return noun_phrase(subj, value_tokens)
    return None


def object_of(verb: Token, value_tokens: set[int]) -> Token | None:
    """The direct object of an estimating verb, or of the estimating verb it is conjoined to."""
    v = verb
    for _ in range(2):
        obj = next((c for c in v.children if c.dep_ == "dobj" and c.i not in value_tokens), None)
        if obj is not None and obj.pos_ in ("NOUN", "PROPN") and obj.ent_type_ not in NOT_ENTITY_ENTS:
            return obj
        if v.dep_ == "conj" and v.head.lemma_.lower() in OBJECT_VERBS:
            v = v.head
            continue
        break
    return None


def counted_noun(span: Span, head: Token, line_end: int) -> str | None:
    """The noun a number counts ("260 million paid subscribers" -> "paid subscribers"), on the same line, close by."""
    head = _compound_end(head)
    plural_name = head.pos_ == "PROPN" and (
        head.tag_ == "NNPS" or re.fullmatch(r"\w+[^s]s", head.text) is not None
    )
    if (
        (head.pos_ != "NOUN" and not plural_name)
        or head.idx >= line_end
        or head.i - span.end > 4
        or head.i < span.end
    ):
        return None
    between = span.doc[span.end : head.i + 1]
    listed = 0
    for x in between:
        if (x.head.like_num and x.dep_ in ("cc", "conj", "punct") and x.text not in (")", "(")) or (
            x.like_num and x.dep_ == "nummod" and x.head.i == head.i
        ):
            listed = x.i + 1  # "45 and 50 cases": the list's last number counts the noun for all of them
            continue
        if (x.is_punct and x.text != "-") or x.is_space or x.like_num or x.pos_ in ("ADP", "DET", "SYM"):
            return None
    if listed:
        between = span.doc[listed : head.i + 1]
        if x.pos_ == "PROPN" and x.i != head.i:
            return None
    if head.lower_ in TIME_NOUNS:
        # "73.4 years" as a level ("rose to", "is", "of") is a duration; "over 3 years" is not a fact
        role = head.head.lower_ if head.dep_ == "pobj" else head.dep_
        return head.text if role in ("attr", "dobj", "oprd", "to", "of", "at") else None
    if head.ent_type_ in ("DATE", "TIME"):
        return None
    return clean_phrase(list(between)) or None


def _compound_end(token: Token) -> Token:
    """The last word of a hyphenated compound the parser split: "two sub-layers" counts layers, not "sub"."""
    doc, i = token.doc, token.i
    while (
        i + 2 < len(doc)
        and not doc[i].whitespace_
        and doc[i + 1].text == "-"
        and not doc[i + 1].whitespace_
        and doc[i + 2].is_alpha
        and doc[i + 2].pos_ in ("NOUN", "PROPN")
    ):
        i += 2
    return doc[i]


def with_owner(phrase: str, noun: Token, value_tokens: set[int]) -> str:
    """Prefix a metric with its named owner: "Apple reported revenue of $5bn" -> "Apple revenue"."""
    verb = noun.head
    while verb.pos_ == "ADP" and verb.head is not verb:
        verb = verb.head
    if verb.pos_ not in ("VERB", "AUX"):
        return phrase
    subj = subject_of(verb)
    if subj is None or subj.i in value_tokens:
        return phrase
    if subj.pos_ == "PROPN" or subj.ent_type_ in ("ORG", "GPE", "PERSON", "NORP", "PRODUCT"):
        owner = noun_phrase(subj, value_tokens, with_of=False)
        if owner and owner.lower() not in phrase.lower():
            return f"{owner} {phrase}"
    return phrase


def of_complement(span: Span, value_tokens: set[int]) -> Token | None:
    """``45% of respondents``: the noun after the value's own "of"."""
    for t in span:
        for c in t.children:
            if c.dep_ == "prep" and c.lower_ == "of" and c.i not in value_tokens:
                pobj = next((x for x in c.children if x.dep_ == "pobj"), None)
                if (
                    pobj is not None
                    and pobj.pos_ in ("NOUN", "PROPN")
                    and pobj.ent_type_ not in NOT_ENTITY_ENTS
                ):
                    return pobj
    return None
