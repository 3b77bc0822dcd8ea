"""Relations that papers state between methods, datasets and metrics, as entity-extract's edges.

- ``evaluated_on``: a method and a dataset in one sentence joined by "on" ("X achieves 28.4 BLEU on
  WMT 2014", "we evaluate X on Y"), or a results table's row and the dataset its column header names;
- ``outperforms``: "X outperforms / surpasses / beats / is better than Y", both methods; the sentence's
  metric, if it names one, goes into the edge's ``metric``;
- ``uses``: "X uses / employs / adopts / is based on / builds on Y", both methods; "X ... using Y".

Each edge has its evidence (the sentence, or the table row) and the seed's fields. Negated or hedged
sentences give no edge, as for the other relations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .tables import parse_tables

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from ..entity.mentions import Mention

__all__ = ["science_edges"]

_OUTPERFORMS = re.compile(
    r"\b(?:outperform(?:s|ed|ing)?|surpass(?:es|ed)?|beats?|is better than|are better than|improves? (?:up)?on)\b"
)
_USES = re.compile(
    r"\b(?:uses?|used|using|employs?|employed|adopts?|adopted|(?:is|are) based on|builds? on)\b"
)
_ON = re.compile(r"\b(?:on|On)\b")
_DOUBT = re.compile(
    r"\b(?:not|no|never|may|might|could|would|whether|if|without|instead|rather than|replac\w*)\b"
)
_NAMED = re.compile(r"[A-Z0-9]")


@dataclass
class _Named:
    start: int
    end: int
    name: str
    type: str


def _edge(source: str, target: str, relation: str, evidence: tuple[int, int], text: str, pattern: str,
          confidence: float, metric: str | None = None) -> dict[str, Any]:  # fmt: skip
    raw = text[evidence[0] : evidence[1]]
    start = evidence[0] + len(raw) - len(raw.lstrip())
    sentence = raw.strip()
    edge: dict[str, Any] = {
        "source": source,
        "target": target,
        "relation": relation,
        "confidence": confidence,
        "evidence": sentence,
        "evidence_start": start,
        "evidence_end": start + len(sentence),
        "pattern": pattern,
        "modality": "asserted",
        "occurrences": 1,
    }
    if metric:
        edge["metric"] = metric
    return edge


def _sentence_edges(named: list[_Named], text: str, span: tuple[int, int]) -> Iterable[dict[str, Any]]:
    sentence = text[span[0] : span[1]]
    if _DOUBT.search(sentence):
        return
    methods = [n for n in named if n.type == "method" and _NAMED.search(n.name)]
    datasets = [n for n in named if n.type == "dataset"]
    metric = next((n.name for n in named if n.type == "metric"), None)
    for cue, relation, conf in ((_OUTPERFORMS, "outperforms", 0.75), (_USES, "uses", 0.6)):
        for m in cue.finditer(text, span[0], span[1]):
            before = [n for n in methods if n.end <= m.start()]
            after = [n for n in methods if n.start >= m.end()]
            if before and after and before[-1].name != after[0].name:
                yield _edge(before[-1].name, after[0].name, relation, span, text, f"science_{relation}", conf,
                            metric if relation == "outperforms" else None)  # fmt: skip
    for d in datasets:
        on = [m for m in _ON.finditer(text, span[0], d.start) if d.start - m.end() <= 40]
        if not on:
            continue
        subject = [n for n in methods if n.end <= on[-1].start()]
        if subject:
            yield _edge(subject[-1].name, d.name, "evaluated_on", span, text, "science_on", 0.6)


def science_edges(
    doc: Doc, mentions: list[Mention], names: dict[int, str], types: dict[int, str], text: str
) -> list[dict[str, Any]]:
    """evaluated_on, outperforms and uses edges between the entities of ``mentions`` (grouped; see module)."""
    named = sorted(
        (
            _Named(m.char_start, m.char_end, names[m.group], types[m.group])
            for m in mentions
            if m.group in names
        ),
        key=lambda n: n.start,
    )
    if not any(n.type == "method" for n in named):
        return []
    out: list[dict[str, Any]] = []
    for sent in doc.sents:
        inside = [n for n in named if sent.start_char <= n.start and n.end <= sent.end_char]
        if len(inside) >= 2:
            out.extend(_sentence_edges(inside, text, (sent.start_char, sent.end_char)))
    by_name = {n.name for n in named}
    for table in parse_tables(text):
        for cell in table.cells:
            if cell.metric and cell.dataset and cell.row_label in by_name and cell.dataset in by_name:
                line_start = text.rfind("\n", 0, cell.start) + 1
                line_end = text.find("\n", cell.end)
                line = (line_start, len(text) if line_end == -1 else line_end)
                out.append(
                    _edge(cell.row_label, cell.dataset, "evaluated_on", line, text, "science_table", 0.8)
                )
    return out
