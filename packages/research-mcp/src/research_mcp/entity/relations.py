"""Relations between entities, read per sentence from the dependency parse.

Verbs ("acquired", "invested in"), their passives and conjunctions, nominal forms ("Amazon's
acquisition of MGM"), role nouns ("a subsidiary of Google") and "X sold Y to Z" give normalised
edges; negated, hedged, planned, denied, conditional and hearsay statements give none. The word
tables live in ``data/relations.json``. Where a relation fixes a role (people are not acquired,
places do not acquire) the mention's type follows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .index import Index
from .lexicons import lexicons, relation_grammar
from .mentions import Mention
from .names import has_legal_suffix, key
from .places import CITY_OVER_ORG, is_place

if TYPE_CHECKING:
    from spacy.tokens import Span, Token

__all__ = ["Edge", "sentence_relations"]

_g = relation_grammar

BASE_CONFIDENCE = {
    "active_dobj": 0.85,
    "active_prep": 0.8,
    "passive_agent": 0.8,
    "sold_to": 0.7,
    "reciprocal_subjects": 0.7,
    "agreed_to": 0.55,
    "nominal": 0.6,
    "role_noun": 0.7,
    "stake_in": 0.8,
}


@dataclass
class Edge:
    source: int
    target: int
    relation: str
    confidence: float
    pattern: str
    sentence: Span
    modality: str = "asserted"


def _expand_conj(tok: Token) -> list[tuple[Token, bool]]:
    """``tok`` and the tokens conjoined with it ("A and B"); the flag says whether it came from a conjunction."""
    out = [(tok, False)]
    stack = [c for c in tok.children if c.dep_ == "conj"]
    while stack:
        nxt = stack.pop(0)
        out.append((nxt, True))
        stack.extend(c for c in nxt.children if c.dep_ == "conj")
    return out


def _is_negated(verb: Token) -> bool:
    """ "not", "n't", "never", "no longer"."""
    for c in verb.children:
        if c.dep_ == "neg" or (c.lower_ in {"never", "not", "n't"} and c.dep_ == "advmod"):
            return True
        if c.lower_ == "longer" and any(g.lower_ == "no" for g in c.children):
            return True
    return False


def _clause_doubted(clause: Token) -> bool:
    """A clause under "reports that ...", "it is false that ...", "rumours that ...": not asserted."""
    head = clause.head
    if clause.dep_ in {"acl", "ccomp", "relcl"} and head.lemma_.lower() in _g().hearsay_nouns:
        return True
    if clause.dep_ == "ccomp":
        return any(c.dep_ == "acomp" and c.lower_ in _g().doubt_adjectives for c in head.children)
    return False


def _hedged(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in _g().hedging_aux for c in verb.children)


def _future(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ in {"will", "'ll", "shall"} for c in verb.children)


def _verb_context(verb: Token) -> tuple[Token, float, str | None] | None:
    """The verb whose subject and polarity apply, a confidence adjustment and a modality; None to skip.

    Walks up coordination ("acquired X and invested in Y" share a subject and a "not") and one
    level of "agreed to"; anything planned, hedged, denied or conditional gives None.
    """
    adjust = 0.0
    modality: str | None = None
    cur = verb
    while True:
        if _is_negated(cur) or _hedged(cur):
            return None
        if any(c.dep_ == "mark" and c.lower_ in _g().conditional_marks for c in cur.children):
            return None
        if cur.dep_ == "ccomp" and (cur.head.lemma_ in _g().denial_heads or _is_negated(cur.head)):
            return None
        if _clause_doubted(cur):
            return None
        if cur.dep_ in {"xcomp", "ccomp", "advcl"} and cur.head.lemma_ in _g().speculative_heads:
            return None
        if _future(cur):
            adjust -= 0.15
            modality = "future"
        has_subject = any(c.dep_ in {"nsubj", "nsubjpass"} for c in cur.children)
        if has_subject:
            return cur, adjust, modality
        if cur.dep_ == "conj" and cur.head.pos_ in {"VERB", "AUX"}:
            cur = cur.head
            adjust -= 0.05
            continue
        if cur.dep_ == "xcomp" and cur.head.lemma_ in _g().commitment_heads:
            cur = cur.head
            modality = "agreed"
            adjust -= 0.3
            continue
        if cur.dep_ in {"relcl", "acl"}:
            return cur, adjust - 0.05, modality
        return None


def _subjects(holder: Token, verb: Token, deps: set[str]) -> list[tuple[Token, bool]]:
    subs: list[tuple[Token, bool]] = []
    for c in holder.children:
        if c.dep_ in deps:
            if c.tag_ in {"WDT", "WP"} and holder.dep_ == "relcl":
                subs.extend(_expand_conj(holder.head))
            elif not any(d.lower_ in _g().negative_dets for d in c.children if d.dep_ == "det"):
                subs.extend(_expand_conj(c))
    if not subs and holder.dep_ in {"relcl", "acl"}:
        # "OpenAI, which was founded by ...", "DeepMind, founded by ...": the modified noun
        subs.extend(_expand_conj(holder.head))
    return subs


def _prep_objects(verb: Token, preps: Iterable[str]) -> list[tuple[Token, bool]]:
    allowed = set(preps)
    objs: list[tuple[Token, bool]] = []
    for prep in verb.children:
        if prep.dep_ == "prep" and prep.lower_ in allowed:
            for pobj in prep.children:
                if pobj.dep_ == "pobj":
                    objs.extend(_expand_conj(pobj))
    return objs


def _dobjs(verb: Token) -> list[tuple[Token, bool]]:
    objs: list[tuple[Token, bool]] = []
    for c in verb.children:
        if c.dep_ != "dobj":
            continue
        if any(d.lower_ in _g().negative_dets and d.dep_ in {"det", "preconj"} for d in c.children):
            continue  # "acquired no companies", "acquired neither Tesla nor Netflix"
        objs.extend(_expand_conj(c))
    return objs


def _lemma(verb: Token) -> str:
    lemma = verb.lemma_.lower()
    if verb.lower_.startswith("cofound"):
        return "cofound"
    if lemma == "take" and any(c.dep_ == "prt" and c.lower_ == "over" for c in verb.children):
        return "take_over"
    if lemma == "found" and verb.lower_.startswith("co"):
        return "cofound"
    if verb.i >= 2 and verb.doc[verb.i - 1].text == "-" and verb.doc[verb.i - 2].lower_ == "co":
        return "cofound"
    return lemma


def sentence_relations(index: Index, sent: Span) -> list[Edge]:
    edges: list[Edge] = []
    if sent.text.rstrip().endswith("?"):
        return edges
    for verb in sent:
        if verb.pos_ == "NOUN" and verb.lemma_.lower() in _g().nominal_relations:
            edges.extend(_nominal(index, verb, sent))
            continue
        if verb.pos_ == "NOUN" and verb.dep_ in {"attr", "appos"} and verb.lemma_.lower() in _g().role_nouns:
            edges.extend(_role_noun(index, verb, sent))
            continue
        if verb.pos_ not in {"VERB", "NOUN", "AUX"}:
            continue
        spec = _g().verb_relations.get(_lemma(verb))
        if spec is None and verb.lemma_.lower() != "sell":
            continue
        if verb.pos_ == "NOUN" and verb.dep_ != "ROOT":
            continue
        context = _verb_context(verb)
        if context is None:
            continue
        holder, adjust, modality = context
        passive = (
            any(c.dep_ in {"nsubjpass", "auxpass"} for c in verb.children)
            or (holder is not verb and any(c.dep_ == "nsubjpass" for c in holder.children))
            or (verb.dep_ == "acl" and verb.tag_ == "VBN" and any(c.dep_ == "agent" for c in verb.children))
        )
        if verb.lemma_.lower() == "sell":
            edges.extend(_sold_to(index, verb, holder, sent, adjust))
            continue
        assert spec is not None
        relation, attach = spec
        pairs: list[tuple[Token, bool, Token, bool, str]] = []
        if passive:
            patients = _subjects(holder, verb, {"nsubjpass"})
            agents: list[tuple[Token, bool]] = []
            for c in verb.children:
                if c.dep_ == "agent":
                    for pobj in c.children:
                        if pobj.dep_ == "pobj":
                            agents.extend(_expand_conj(pobj))
            if "dobj" not in attach:
                # "OpenAI was invested in by Microsoft" is rare; prepositional passives give no edge
                continue
            for a, ac in agents:
                for p, pc in patients:
                    pairs.append((a, ac, p, pc, "passive_agent"))
        else:
            subjects = _subjects(holder, verb, {"nsubj"})
            objects: list[tuple[Token, bool]] = []
            pattern = "active_dobj"
            if "dobj" in attach:
                objects = _dobjs(verb)
            preps = attach - {"dobj"}
            if preps:
                objects += _prep_objects(verb, preps)
                # "invested $1 billion in OpenAI": the preposition hangs on the amount
                for dobj in (c for c in verb.children if c.dep_ == "dobj"):
                    objects += _prep_objects(dobj, preps)
                pattern = "active_prep" if not objects or "dobj" not in attach else pattern
            if relation == "acquires":
                stakes = [
                    c for c in verb.children if c.dep_ == "dobj" and c.lemma_.lower() in _g().stake_nouns
                ]
                if stakes:
                    # "bought a 10% stake in Rivian" is an investment, not an acquisition
                    relation, pattern = "invests_in", "stake_in"
                    objects = [o for st in stakes for o in _prep_objects(st, ["in"])]
            if not objects and relation in _g().symmetric and len(subjects) >= 2:
                first, rest = subjects[0], subjects[1:]
                for other, _ in rest:
                    pairs.append((first[0], False, other, False, "reciprocal_subjects"))
            for s, sc in subjects:
                for o, oc in objects:
                    pairs.append((s, sc, o, oc, pattern))
        for s, sc, o, oc, pattern in pairs:
            edge = _edge(index, s, o, relation, pattern, sent, adjust - 0.05 * (sc + oc), modality)
            if edge is not None:
                edges.append(edge)
    return edges


def _nominal(index: Index, noun: Token, sent: Span) -> list[Edge]:
    """ "Amazon's acquisition of MGM", "the acquisition of Slack by Salesforce": stated as done, or no edge."""
    relation, prep = _g().nominal_relations[noun.lemma_.lower()]
    if any(c.dep_ in {"amod", "compound"} and c.lower_ in _g().nominal_doubt for c in noun.children):
        return []
    head = noun.head
    verb_subjects: list[tuple[Token, bool]] = []
    if noun.dep_ in {"nsubj", "nsubjpass", "dobj", "pobj"}:
        verb = head if noun.dep_ != "pobj" else head.head
        partnering = (
            relation in {"partners_with", "merges_with"} and verb.lemma_.lower() in _g().partnership_verbs
        )
        if not partnering and verb.lemma_.lower() in _g().nominal_doubt_heads:
            return []
        if _is_negated(verb) or _hedged(verb):
            return []
        context = _verb_context(verb) if verb.pos_ in {"VERB", "AUX"} else None
        if context is None and verb.pos_ in {"VERB", "AUX"}:
            return []
        if partnering and context is not None and noun.dep_ in {"dobj", "pobj"}:
            # "Nvidia formed a partnership with Foxconn", "Microsoft and OpenAI announced a partnership"
            verb_subjects = _subjects(context[0], verb, {"nsubj"})
    if verb_subjects:
        targets = _prep_objects(noun, [prep])
        out: list[Edge] = []
        if targets:
            pairs = [(s, sc, t, tc) for s, sc in verb_subjects for t, tc in targets]
        else:
            pairs = [(verb_subjects[0][0], False, o, False) for o, _ in verb_subjects[1:]]
        for a, ac, t, tc in pairs:
            edge = _edge(index, a, t, relation, "nominal", sent, -0.05 * (ac + tc), None)
            if edge is not None:
                out.append(edge)
        return out
    agents = [c for c in noun.children if c.dep_ == "poss"]
    agents += [
        p
        for c in noun.children
        if c.dep_ == "prep" and c.lower_ == "by"
        for p in c.children
        if p.dep_ == "pobj"
    ]
    targets = _prep_objects(noun, [prep])
    found: list[Edge] = []
    for agent in agents:
        for a, ac in _expand_conj(agent):
            for t, tc in targets:
                edge = _edge(index, a, t, relation, "nominal", sent, -0.05 * (ac + tc), None)
                if edge is not None:
                    found.append(edge)
    return found


def _role_noun(index: Index, noun: Token, sent: Span) -> list[Edge]:
    """ "YouTube is a subsidiary of Google" (copula) and "Sam Altman, a cofounder of OpenAI" (appositive)."""
    relation, preps, holder_is_target = _g().role_nouns[noun.lemma_.lower()]
    if any(
        c.dep_ in {"amod", "compound"} and c.lower_ in _g().nominal_doubt | {"former", "ex", "would-be"}
        for c in noun.children
    ):
        return []
    holders: list[tuple[Token, bool]] = []
    if noun.dep_ == "attr" and noun.head.pos_ in {"AUX", "VERB"} and noun.head.lemma_ == "be":
        copula = noun.head
        if _verb_context(copula) is None:
            return []
        holders = [s for c in copula.children if c.dep_ == "nsubj" for s in _expand_conj(c)]
    elif noun.dep_ == "appos":
        holders = [(noun.head, False)]
    if not holders:
        return []
    others = _prep_objects(noun, preps)
    out: list[Edge] = []
    for h, hc in holders:
        for o, oc in others:
            src, dst = (o, h) if holder_is_target else (h, o)
            if relation in _g().reversed:
                src, dst = dst, src  # _edge turns founded_by around again
            edge = _edge(index, src, dst, relation, "role_noun", sent, -0.05 * (hc + oc), None)
            if edge is not None:
                out.append(edge)
    return out


def _sold_to(index: Index, verb: Token, holder: Token, sent: Span, adjust: float) -> list[Edge]:
    """ "X sold Y to Z" is Z acquires Y."""
    out: list[Edge] = []
    if any(c.dep_ in {"nsubjpass", "auxpass"} for c in verb.children):
        return out
    for buyer, bc in _prep_objects(verb, ["to"]):
        for item, ic in _dobjs(verb):
            edge = _edge(index, buyer, item, "acquires", "sold_to", sent, adjust - 0.05 * (bc + ic), None)
            if edge is not None:
                out.append(edge)
    return out


ROLE_TYPES = {
    # relation -> (source role type, target role type); None keeps the NER guess
    "acquires": ("company", "company"),
    "invests_in": (None, None),
    "partners_with": (None, None),
    "competes_with": (None, None),
    "merges_with": ("company", "company"),
    "founded_by": ("company", "person"),
    "develops": (None, None),
    "launches": (None, None),
}


def _edge(
    index: Index,
    s: Token,
    o: Token,
    relation: str,
    pattern: str,
    sent: Span,
    adjust: float,
    modality: str | None,
) -> Edge | None:
    src = index.mention_for(s)
    dst = index.mention_for(o)
    if src is None or dst is None:
        return None
    (src_m, src_tagged), (dst_m, dst_tagged) = src, dst
    if relation in _g().reversed:
        src_m, dst_m = dst_m, src_m
        src_tagged, dst_tagged = dst_tagged, src_tagged
    confidence = BASE_CONFIDENCE[pattern] + adjust - 0.1 * ((not src_tagged) + (not dst_tagged))
    if modality == "agreed":
        confidence = min(confidence, BASE_CONFIDENCE["agreed_to"])
    roles = ROLE_TYPES.get(relation, (None, None))
    for m, role in ((src_m, roles[0]), (dst_m, roles[1])):
        if role is not None and not m.strong_type:
            m.type = _role_type(m, role)
    if relation in {"partners_with", "competes_with"} and not _company_pair(src_m, dst_m):
        return None  # colleagues and rivals between people are not company relations
    edge = Edge(
        -1, -1, relation, round(max(0.3, min(0.95, confidence)), 2), pattern, sent, modality or "asserted"
    )
    edge.source, edge.target = id(src_m), id(dst_m)
    return edge


def _company_pair(a: Mention, b: Mention) -> bool:
    """Both ends can be firms: a lone-word PERSON facing a company is the NER's mistake ("Moderna")."""
    types = {a.type, b.type}
    if "person" not in types:
        return True
    if types == {"person"}:
        return False
    person = a if a.type == "person" else b
    if person.strong_type or person.end - person.start != 1:
        return False
    person.type = "company"
    return True


def _role_type(m: Mention, role: str) -> str:
    """Reconcile the NER label with the role a relation gives a mention."""
    if role == "company":
        if m.type in {"person", "location"} and not is_place(m.text, CITY_OVER_ORG):
            return (
                "company" if m.type == "location" or m.label != "PERSON" or m.end - m.start != 2 else m.type
            )
        return m.type if m.type in {"company", "organization", "product"} else "company"
    if role == "person":
        words = m.text.split()
        looks_like_name = 2 <= len(words) <= 3 and all(w[:1].isupper() for w in words)
        if m.type in {"company", "location"} and looks_like_name and not has_legal_suffix(m.text):
            return "person" if not lexicons().known(key(m.text), "company") else m.type
        return m.type
    return m.type
