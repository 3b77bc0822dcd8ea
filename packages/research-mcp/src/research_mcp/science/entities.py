"""entity-extract on a paper: methods, datasets, metrics and tasks, and no headings, markup or misread names.

Where a scientific type comes from, strongest first:

- the gazetteer (``names.py``): names SciREX's annotators typed in training papers;
- a results table: its row labels are methods, its column headers name metrics and datasets;
- the prose: "on the X dataset", "the X benchmark", "X score", "we propose X", "X achieves / outperforms";
- an acronym defined by its long form, typed by the long form's last word ("Recurrent Neural Network
  (RNN)": a network, so a method; "Penn Treebank (PTB)": a dataset);
- a capitalised name ending in a method word ("Multi-Head Attention", "Feed-Forward Networks").

In a text that reads as a paper, a name typed company, person or place by the statistical model that looks
technical (an acronym, letters with digits: "WMT", "K40", "Llama3.1-70B") and has no sign of being one is
not kept as such; a name in a section heading is not an entity. Outside papers nothing changes.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..entity.mentions import Mention
from .names import DATASET_HEADS, METHOD_HEADS, TASK_HEADS, gazetteer, known_metric, lookup
from .results import is_paper
from .tables import parse_tables, table_regions

if TYPE_CHECKING:
    from spacy.tokens import Doc

__all__ = ["SCIENCE_TYPES", "science_mentions"]

SCIENCE_TYPES = ("method", "dataset", "metric", "task")
_MAX_WORDS = 6
_HEADING = re.compile(
    r"^(?:#{1,6}[ \t].*|\*\*[^*\n]{1,80}\*\*(?=[ \t]|$)|Table \d+:.*)$|^\*\*[^*\n]{1,60}\*\*", re.MULTILINE
)
_NAME = r"[A-Z0-9][\w.\-+]*(?:\s+[A-Z0-9][\w.\-+]*){0,3}"
# "OP-RAG mechanism", "SELF-ROUTE method": a technical name before a method word (not "Ising model")
_NAMED_BY_HEAD = re.compile(
    rf"\b({_NAME})\s+(?:mechanism|model|method|approach|framework|architecture|algorithm|baseline)s?\b"
)
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            rf"\b(?:on|from|of|using)\s+(?:the\s+)?({_NAME})\s+(?:data\s*set|dataset|corpus|benchmark|treebank|test\s+set)s?\b"
        ),
        "dataset",
    ),
    (re.compile(rf"\bthe\s+({_NAME})\s+(?:data\s*set|dataset|corpus|benchmark)s?\b"), "dataset"),
    (re.compile(rf"\b({_NAME})\s+(?:score|metric)s?\b"), "metric"),
    (
        re.compile(
            rf"\b(?:[Ww]e\s+(?:propose|present|introduce|call)|called|named|dubbed)\s+(?:the\s+|a\s+|an\s+)?({_NAME})"
        ),
        "method",
    ),
    (re.compile(rf"(?<![.\w])({_NAME})\s+(?:achieves|outperforms|obtains|attains|surpasses)\b"), "method"),
    (_NAMED_BY_HEAD, "method"),
    (
        re.compile(rf"\b(?:dataset|benchmark|corpus)s?\s+(?:termed|called|named|dubbed)\s+({_NAME})"),
        "dataset",
    ),
    (re.compile(rf"\b(?:datasets|benchmarks|corpora)\s+(?:such as|like|including)\s+({_NAME})"), "dataset"),
)
# "EN.QA and EN.MC datasets", "SNLI, MultiNLI and SciTail benchmarks": every name of the list
_LISTED = re.compile(
    rf"\b((?:{_NAME})(?:\s*,\s*(?:{_NAME}))*\s*,?\s+and\s+(?:{_NAME}))\s+(?:datasets|benchmarks|corpora|tasks)\b"
)
_METHOD_AFTER = re.compile(
    r"^\)?\s*(?:mechanism|model|method|approach|framework|architecture|algorithm|network)s?\b"
)
_ACRONYM = re.compile(
    r"((?:[A-Za-z][\w\-]*\s+){0,6}[A-Za-z][\w\-]*)\s+\(([A-Z][A-Za-z0-9\-]*[A-Z][A-Za-z0-9\-]*s?)\)"
)
_HEADED = re.compile(
    r"\b((?:[A-Z][\w\-]*\s+){0,3}[A-Z][\w\-]*\s+(?:Networks?|Attention|Transformers?|Encoders?|Decoders?|"
    r"Normali[sz]ation|Embeddings?|Layers?|Models?|Machines?|Regression|Autoencoders?|Descent))\b(?!\s+[A-Z])"
)
_NOT_A_FIRST_WORD = frozenset(
    [
        "The",
        "This",
        "That",
        "These",
        "Our",
        "We",
        "In",
        "A",
        "An",
        "With",
        "For",
        "To",
        "Of",
        "On",
        "And",
        "Or",
        "From",
        "By",
        "Using",
        "Via",
        "Towards",
        "Toward",
        "Improve",
        "Improving",
        "Learning",
        "Training",
        "When",
        "How",
        "Why",
        "What",
        "Table",
        "Figure",
        "Section",
    ]
)
_TECHNICAL = re.compile(
    r"^(?:[A-Z]{2,}[a-z]*s?|[A-Za-z]+[\d][\w.\-]*|[A-Z][\w]*-[\w.\-]+|[A-Z][a-z]+[A-Z]\w*)$"
)
_WRONG_FOR_SCIENCE = {"company", "person", "location", "product", "technology", "event"}


def _head_type(long_form: str) -> str | None:
    if re.search(r"\w[- ](?:augmented|based|driven|guided|aware|conditioned)\b", long_form):
        return "method"  # "retrieval-augmented generation": a way of generating, not the task
    head = long_form.split()[-1].lower().rstrip("s") if long_form.split() else ""
    for heads, etype in ((METHOD_HEADS, "method"), (DATASET_HEADS, "dataset"), (TASK_HEADS, "task")):
        if head in heads or f"{head}s" in heads:
            return etype
    return lookup(long_form)


def _acronym_pairs(text: str) -> list[tuple[int, int, str]]:
    """ "Long Form (LF)": the long form's last words (as many as the acronym has capitals) and every use of LF."""
    found: list[tuple[int, int, str]] = []
    for m in _ACRONYM.finditer(text):
        short = m.group(2)
        words = m.group(1).split()
        starts = [
            k for k in range(1, min(len(words), len(short) + 1) + 1) if words[-k][0].upper() == short[0]
        ]
        if not starts:
            continue
        long_words = words[-starts[0] :]
        long_form = " ".join(long_words)
        etype = "method" if _METHOD_AFTER.match(text[m.end(2) : m.end(2) + 20]) else _head_type(long_form)
        if etype is None:
            continue
        long_start = m.start(1) + m.group(1).rfind(long_form)
        found.append((long_start, long_start + len(long_form), etype))
        for use in re.finditer(rf"(?<![\w-]){re.escape(short)}(?![\w-])", text):
            found.append((use.start(), use.end(), etype))
    return found


def _gazetteer_spans(doc: Doc, text: str) -> list[tuple[int, int, str]]:
    exact, lower = gazetteer()
    out: list[tuple[int, int, str]] = []
    i, n = 0, len(doc)
    while i < n:
        if doc[i].is_space or doc[i].is_punct:
            i += 1
            continue
        hit = None
        for j in range(min(n, i + _MAX_WORDS), i, -1):
            start, end = doc[i].idx, doc[j - 1].idx + len(doc[j - 1])
            piece = text[start:end]
            etype = exact.get(piece) or (lower.get(piece.lower()) if j - i > 1 or piece.islower() else None)
            if etype is not None and (j - i > 1 or not doc[i].is_stop):
                hit = (start, end, etype, j)
                break
        if hit is None:
            i += 1
            continue
        out.append(hit[:3])
        i = hit[3]
    return out


def _table_spans(text: str) -> list[tuple[int, int, str]]:
    """Row labels of a results table (a column names a metric) as methods; metric and dataset headers."""
    out: list[tuple[int, int, str]] = []
    for table in parse_tables(text):
        results = any(c.metric for c in table.cells) or bool(
            table.caption and re.search(r"\b(?:results?|scores?|accurac\w+|F1|BLEU)\b", table.caption)
        )
        if not results:
            continue
        for column in {c.header for c in table.cells if c.metric is None}:
            if " " not in column and _TECHNICAL.match(column) and known_metric(column) is None:
                at = text.find(column, table.start, table.end)
                if at != -1:
                    out.append((at, at + len(column), "dataset"))  # "QQP", "SST-2": a results column
        for cell in table.cells:
            if not re.search(r"[A-Z0-9]", cell.row_label) or len(cell.row_label.strip("() ")) < 2:
                continue  # "(A)", "base": a variant of the row above, not a name
            line_start = text.rfind("\n", 0, cell.start) + 1
            at = text.find(cell.row_label, line_start, cell.start)
            if at != -1:
                out.append((at, at + len(cell.row_label), "method"))
        for header in {(c.metric, c.dataset) for c in table.cells if c.metric}:
            for name, etype in zip(header, ("metric", "dataset"), strict=True):
                if name:
                    head_at = text.find(name, table.start, table.end)
                    if head_at != -1:
                        out.append((head_at, head_at + len(name), etype))
    return out


def _pattern_spans(text: str) -> list[tuple[int, int, str]]:
    out: list[tuple[int, int, str]] = []
    for pattern, etype in _PATTERNS:
        for m in pattern.finditer(text):
            name = m.group(1)
            if etype == "metric" and known_metric(name) is None and lookup(name) != "metric":
                continue
            if pattern is _NAMED_BY_HEAD and not all(_TECHNICAL.match(w) for w in name.split()):
                continue  # "Jacobson framework", "Ising model": a person's name before "model" is no method name
            if not re.search(r"[A-Za-z]", name) or name.split()[0] in _NOT_A_FIRST_WORD:
                continue
            out.append((m.start(1), m.end(1), etype))
    for m in _LISTED.finditer(text):
        etype = "task" if m.group(0).endswith("tasks") else "dataset"
        for part in re.finditer(_NAME, m.group(1)):
            if part.group(0) not in {"and"}:
                out.append((m.start(1) + part.start(), m.start(1) + part.end(), etype))
    for m in _HEADED.finditer(text):
        if m.group(1).split()[0] not in _NOT_A_FIRST_WORD:
            out.append((m.start(1), m.end(1), "method"))
    return out


def _spread(spans: dict[tuple[int, int], str], text: str) -> None:
    """A name typed once is typed wherever else it is written ("OP-RAG mechanism" types every "OP-RAG")."""
    named = {
        text[s:e]: t
        for (s, e), t in spans.items()
        if re.search(r"[A-Z0-9]", text[s:e]) and e - s >= 3 and not re.fullmatch(r"[IVXL]+", text[s:e])
    }
    for name, etype in named.items():
        for m in re.finditer(rf"(?<![\w\-.]){re.escape(name)}(?![\w\-])", text):
            spans.setdefault(m.span(), etype)


def _headings(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _HEADING.finditer(text)]


def science_mentions(doc: Doc, mentions: list[Mention], text: str) -> list[Mention]:
    """``mentions`` with the paper's scientific names typed (see the module's docstring); unchanged outside papers.

    ``text`` is the caller's text (same offsets as ``doc``), where headings and tables keep their marks.
    """
    found = _gazetteer_spans(doc, doc.text)
    telling = {doc.text[s:e] for s, e, _ in found if not re.fullmatch(r"[A-Z][a-z]+|[A-Z]+", doc.text[s:e])}
    if not is_paper(text) and len(telling) < 2:
        return mentions  # not a paper: two different scientific names at least, or the cues of one
    headings = _headings(text)
    tables = table_regions(text)
    spans: dict[tuple[int, int], str] = {}
    # weakest first: a stronger source overwrites the type of the same span
    for source in (_pattern_spans(text), _acronym_pairs(text), found, _table_spans(text)):
        for start, end, etype in source:
            spans[(start, end)] = etype
    _spread(spans, text)
    science: list[Mention] = []
    taken: set[int] = set()
    for (start, end), etype in sorted(spans.items(), key=lambda kv: (-(kv[0][1] - kv[0][0]), kv[0][0])):
        if any(s <= start < e for s, e in headings):
            continue
        span = doc.char_span(start, end, alignment_mode="contract")
        if span is None or not len(span) or any(t.i in taken for t in span):
            continue
        taken.update(t.i for t in span)
        science.append(
            Mention(
                span.start, span.end, span.text, etype, "SCIENCE", span.start_char, span.end_char, False, True
            )
        )
    kept: list[Mention] = []
    for m in mentions:
        if any(s <= m.char_start < e for s, e in headings + tables):
            continue  # a heading is no entity; a table's names come from its rows and headers
        overlaps = [s for s in science if s.start < m.end and m.start < s.end]
        if overlaps and not (
            m.type in {"person", "organization"} and any(s.end - s.start < m.end - m.start for s in overlaps)
        ):
            continue
        if m.type in _WRONG_FOR_SCIENCE and any(_TECHNICAL.match(w) for w in m.text.split()):
            continue
        kept.append(m)
    return kept + science
