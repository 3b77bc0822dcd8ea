"""entity-extract: spaCy NER mapped to research entity types, merged aliases, and relations from the parse.

Type mapping (spaCy label -> our type; documented in the README):

- ``ORG``            -> ``organization`` when the name has an institutional word (University,
                        Agency, Ministry, ...), else ``company``; known companies are always ``company``
- ``PERSON``         -> ``person``
- ``GPE``, ``LOC``, ``FAC`` -> ``location``
- ``PRODUCT``        -> ``technology`` when it is in the technology lexicon, else ``product``
- ``EVENT``          -> ``event``
- technology terms the NER does not tag ("machine learning", "LLMs", "CRISPR") come from a lexicon.

The small English model mislabels proper names now and then (a start-up as a place, a company
as a person); where a relation fixes the role (people are not acquired, places do not acquire),
the role wins. Precision over recall: a sentence-initial capitalised word that is not a proper
noun is never an entity; negated, hedged ("may", "could"), conditional and planned ("plans to")
statements give no edge.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .entity.aliases import canonical_name, group_mentions
from .entity.company_spans import company_spans, of_place_names
from .entity.described import described_names
from .entity.index import Index
from .entity.lexicons import relation_grammar
from .entity.lists import agree_in_lists
from .entity.mentions import Mention, ner_mentions, tech_mentions
from .entity.relations import Edge, sentence_relations
from .markup import mask_layout, mask_markup
from .science.entities import SCIENCE_TYPES, science_mentions
from .science.relations import science_edges

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["ENTITY_TYPES", "extract_entities", "normalise_entity_types", "prepare_text"]

_CO_FOUND = re.compile(r"\b([Cc])o-(found(?:ed|ing|s)?|founders?)\b")


def prepare_text(text: str) -> str:
    """The text the parser should see: same length, same offsets, but "co-founded" as one word.

    The small model splits "co-founded" into three tokens and loses the verb; "cofounded " parses
    as the verb. Math, citation markers and cross-references of a paper's text are blanked out
    (``markup.mask_markup``). Evidence is always cut from the caller's own text, not from this one.
    """
    return mask_layout(mask_markup(_CO_FOUND.sub(lambda m: f"{m.group(1)}o{m.group(2)} ", text)))


ENTITY_TYPES = (
    "company",
    "person",
    "technology",
    "location",
    "organization",
    "product",
    "event",
    *SCIENCE_TYPES,
)

TYPE_SYNONYMS = {
    "companies": "company", "firm": "company", "firms": "company", "business": "company",
    "persons": "person", "people": "person", "individual": "person",
    "technologies": "technology", "tech": "technology",
    "locations": "location", "place": "location", "places": "location", "gpe": "location", "loc": "location",
    "organizations": "organization", "organisation": "organization", "organisations": "organization",
    "org": "organization", "orgs": "organization", "institution": "organization",
    "products": "product", "events": "event",
    "methods": "method", "model": "method", "models": "method", "algorithm": "method", "algorithms": "method",
    "datasets": "dataset", "data set": "dataset", "benchmark": "dataset", "benchmarks": "dataset",
    "corpus": "dataset", "metrics": "metric", "measure": "metric", "tasks": "task",
}  # fmt: skip


def normalise_entity_types(raw: Sequence[str] | None) -> tuple[str, ...]:
    """Requested types, lower-cased and de-duplicated (None means all).

    Raises:
        ValueError: an unknown type; the message lists the known ones.
    """
    if raw is None:
        return ENTITY_TYPES
    out: list[str] = []
    unknown: list[str] = []
    for item in raw:
        name = item.strip().lower()
        name = TYPE_SYNONYMS.get(name, name)
        if name in ENTITY_TYPES:
            if name not in out:
                out.append(name)
        else:
            unknown.append(item)
    if unknown:
        raise ValueError(f"unknown entity type(s) {unknown}; expected any of {list(ENTITY_TYPES)}")
    if not out:
        raise ValueError(f"entity_types is empty; expected any of {list(ENTITY_TYPES)}")
    return tuple(out)


def _description(doc: Doc, original: str, mentions: list[Mention]) -> str | None:
    """The first appositive noun phrase about the entity ("OpenAI, a San Francisco start-up, ...")."""
    for m in sorted(mentions, key=lambda x: x.start):
        head = doc[m.end - 1]
        for child in head.children:
            if child.dep_ == "appos" and child.pos_ == "NOUN" and child.i >= m.end:
                tokens = [t for t in child.subtree if not (t.is_punct and t.text in {",", ";", "("})]
                if not tokens or len(tokens) > 12:
                    continue
                text = original[tokens[0].idx : tokens[-1].idx + len(tokens[-1].text)].strip(" ,;()")
                if text:
                    return text
    return None


def _add_science_edges(
    edges: list[dict[str, Any]],
    seen: dict[tuple[str, str, str], dict[str, Any]],
    found: list[dict[str, Any]],
    wanted: Sequence[str],
) -> None:
    """evaluated_on / outperforms / uses edges (science.relations), one per (source, relation, target)."""
    if not {"method", "dataset"} & set(wanted):
        return
    for item in found:
        key = (item["source"], item["relation"], item["target"])
        existing = seen.get(key)
        if existing is not None:
            existing["occurrences"] += 1
            existing["confidence"] = max(existing["confidence"], item["confidence"])
            continue
        seen[key] = item
        edges.append(item)


def _index(doc: Doc, parsed: str, original: str) -> Index:
    """Every mention the readers find, in the order they claim tokens, indexed for relations and aliases."""
    mentions, doubtful = ner_mentions(doc)
    mentions, doubtful = company_spans(doc, mentions, doubtful)
    mentions, doubtful = described_names(doc, mentions, doubtful)
    mentions = of_place_names(doc, mentions)
    mentions = agree_in_lists(doc, mentions)
    taken = {i for m in mentions for i in range(m.start, m.end)}
    mentions += tech_mentions(doc, taken, parsed)
    mentions = science_mentions(doc, mentions, original)
    return Index(doc, mentions, doubtful, parsed)


def _entity_rows(
    doc: Doc, original: str, index: Index, wanted: Sequence[str]
) -> tuple[list[dict[str, Any]], dict[int, str], dict[int, str]]:
    """One entity per alias group of a wanted type, and every group's name and type (for the edges)."""
    entities: list[dict[str, Any]] = []
    group_names: dict[int, str] = {}
    group_types: dict[int, str] = {}
    for gid, group in enumerate(index.groups):
        if not group.mentions:
            continue
        strong = [m.type for m in group.mentions if m.strong_type]
        votes = Counter(strong or [m.type for m in group.mentions])
        etype = votes.most_common(1)[0][0]
        name = canonical_name(group.mentions, etype)
        group_names[gid], group_types[gid] = name, etype
        if etype not in wanted:
            continue
        aliases = sorted({m.text for m in group.mentions} - {name})
        ner_share = sum(m.from_ner or m.strong_type for m in group.mentions) / len(group.mentions)
        entities.append(
            {
                "name": name,
                "type": etype,
                "aliases": aliases,
                "description": _description(doc, original, group.mentions),
                "mentions": len(group.mentions),
                "confidence": round(
                    0.6 + 0.3 * ner_share + (0.05 if any(m.strong_type for m in group.mentions) else 0), 2
                ),
                "spacy_labels": sorted({m.label for m in group.mentions}),
                "offsets": [
                    [m.char_start, m.char_end] for m in sorted(group.mentions, key=lambda m: m.start)
                ][:20],
            }
        )

    return entities, group_names, group_types


def _edge_rows(
    raw_edges: Sequence[Edge],
    by_id: dict[int, Mention],
    group_names: dict[int, str],
    group_types: dict[int, str],
    wanted: Sequence[str],
    original: str,
) -> tuple[list[dict[str, Any]], dict[tuple[str, str, str], dict[str, Any]]]:
    """One edge per (source, relation, target) between wanted groups, its evidence cut from ``original``."""
    edges: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], dict[str, Any]] = {}
    for e in raw_edges:
        src, dst = by_id[e.source], by_id[e.target]
        if src.group == dst.group:
            continue
        if group_types.get(src.group) not in wanted or group_types.get(dst.group) not in wanted:
            continue
        s_name, t_name = group_names[src.group], group_names[dst.group]
        # a symmetric relation keeps the sentence's direction but is one edge whichever way it is stated
        key = (
            (min(s_name, t_name), e.relation, max(s_name, t_name))
            if e.relation in relation_grammar().symmetric
            else (s_name, e.relation, t_name)
        )
        existing = seen.get(key)
        if existing is not None:
            existing["confidence"] = max(existing["confidence"], e.confidence)
            existing["occurrences"] += 1
            continue
        raw = original[e.sentence.start_char : e.sentence.end_char]
        start = e.sentence.start_char + (len(raw) - len(raw.lstrip()))
        evidence = raw.strip()
        end = start + len(evidence)
        item = {
            "source": s_name,
            "target": t_name,
            "relation": e.relation,
            "confidence": e.confidence,
            "evidence": evidence,
            "evidence_start": start,
            "evidence_end": end,
            "pattern": e.pattern,
            "modality": e.modality,
            "occurrences": 1,
        }
        seen[key] = item
        edges.append(item)
    return edges, seen


def extract_entities(
    doc: Doc,
    entity_types: Sequence[str] | None = None,
    extract_relations: bool = True,
    source_text: str | None = None,
) -> dict[str, Any]:
    """Entities of the requested types, with merged aliases, and (optionally) relation edges between them.

    ``doc`` is the parse of ``prepare_text(source_text)``; evidence is cut from ``source_text``.
    """
    parsed = doc.text  # Doc.text joins every token anew on each access: read it once
    original = source_text if source_text is not None and len(source_text) == len(parsed) else parsed
    started = time.perf_counter()
    wanted = normalise_entity_types(entity_types)
    index = _index(doc, parsed, original)
    raw_edges: list[Edge] = []
    if extract_relations:
        for sent in doc.sents:
            raw_edges.extend(sentence_relations(index, sent))
    group_mentions(index)
    entities, group_names, group_types = _entity_rows(doc, original, index, wanted)
    by_id = {id(m): m for m in index.mentions}
    edges, seen = _edge_rows(raw_edges, by_id, group_names, group_types, wanted, original)
    if extract_relations:
        _add_science_edges(
            edges, seen, science_edges(doc, index.mentions, group_names, group_types, original), wanted
        )
    entities.sort(key=lambda x: min(o[0] for o in x["offsets"]))
    return {
        "entities": entities,
        "edges": edges,
        "metadata": {
            "total_entities": len(entities),
            "total_relationships": len(edges),
            "entity_types": list(wanted),
            "relations_extracted": extract_relations,
            "processing_time_ms": round((time.perf_counter() - started) * 1000, 2),
        },
    }
