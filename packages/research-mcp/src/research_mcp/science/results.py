"""fact-extract on a paper: results read from tables and prose, counts of plain nouns dropped, how each was found.

A fact from a table cell names the row (the method) as ``entity``, the column's metric as ``attribute``
and ``metric``, and the dataset the column header (or its upper header) names as ``dataset``; with both
headers known it is High. A prose result ("our model achieves 28.4 BLEU on the WMT 2014 English-to-German
task") gets the same fields from the words around its value: the metric after or before the number, the
dataset after "on", and the method that is the subject ("our model" is the method the paper names most).
``found_by`` says which: ``table``, ``prose`` or ``parse`` (the general reading of fact-extract).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .names import DATASET_HEADS, TASK_HEADS, gazetteer, known_metric, task_in
from .tables import Table, parse_tables

__all__ = ["is_paper", "science_facts"]

_CUES = re.compile(
    r"\b(?:we propose|we present|our (?:model|method|approach|experiments)|state[- ]of[- ]the[- ]art|datasets?|"
    r"experiments?|ablation|F1|BLEU|hyperparameters?|neural|Table \d+|[Ss]ection \d+)\b"
)
_SUBJECT_VERB = re.compile(
    r"(?P<subject>(?:[\w.+\-()]+\s+){1,5}?)(?:only\s+|also\s+|even\s+|still\s+)?"
    r"(?:achieves?|achieved|obtains?|obtained|attains?|attained|reaches|reached|yields?|gets)\b"
)
_OURS = re.compile(
    r"^(?:our|the proposed|the)\s+(?:\w+\s+){0,2}?(?:model|method|approach|system|network)s?$|^(?:ours|it|we)$"
)
_ON_DATASET = re.compile(
    r"\b(?:on|On)\s+(?:the\s+)?(?P<name>[A-Z0-9][\w.\-+]*(?:\s+(?:[A-Z0-9][\w.\-+]*|to|of|and)){0,6})"
)
_STOP = re.compile(
    r"\s+(?:(?:translation|test|dev|development|validation)\s+)?(?:dataset|data|task|benchmark|set|corpus)s?$"
)
_RESULT_VERB = re.compile(r"\b(?:achiev|obtain|attain|reach|yield|score)\w*\b")
_DIFFERENCE = re.compile(
    r"^\s*%?\s*(?:[\w\-]+\s+){0,2}?(?:points?\s+)?(?:worse|better|higher|lower|improvements?|gains?|drops?|less|more)\b"
)
_PLAIN_WORD = re.compile(r"^[a-z][a-z\- ]*$")
_MARKUP = re.compile(r"[|<>\\$*]|_\w|^\d+[A-Z][a-z]")


def is_paper(text: str) -> bool:
    """Does the text read as a scientific paper (or a passage of one)? Cheap: cue words, or a table."""
    return len({m.group(0).lower() for m in _CUES.finditer(text[:200_000])}) >= 2


def _main_method(text: str, tables: list[Table]) -> str | None:
    """The method the paper names most (its own, as a rule): gazetteer methods and table row labels."""
    exact, _ = gazetteer()
    counts: Counter[str] = Counter()
    for word in re.findall(r"\b[A-Z][\w\-.]*[A-Za-z0-9]\b", text):
        if exact.get(word) == "method":
            counts[word] += 1
    for table in tables:
        for cell in table.cells:
            if "(ours)" in (cell.group or "") or "ours" in cell.row_label.lower():
                counts[cell.row_label] += 5
    return counts.most_common(1)[0][0] if counts else None


def _metric_near(text: str, start: int, end: int) -> str | None:
    after = re.match(r"\s*%?\s*((?:[A-Za-z][\w.\-@]*\s*){1,3})", text[end : end + 40])
    if after:
        words = after.group(1).split()
        for size in range(len(words), 0, -1):
            found = known_metric(" ".join(words[:size]))
            if found:
                return found
    before = re.search(
        r"((?:[A-Za-z][\w.\-@]*\s+){1,3})(?:score\s+)?(?:of|=|:|is|was)\s*$", text[max(0, start - 40) : start]
    )
    if before:
        words = before.group(1).split()
        for size in range(len(words), 0, -1):
            found = known_metric(" ".join(words[-size:]))
            if found:
                return found
    return None


def _dataset_in(sentence: str) -> str | None:
    for m in _ON_DATASET.finditer(sentence):
        name = re.split(r"\s+(?:and|to|of)\s+(?=[\d(])", m.group("name"))[0]  # "SNLI and 94.1% on ..."
        name = _STOP.sub("", name).strip(" ,.")
        words = name.split()
        while words and words[-1].lower() in TASK_HEADS | DATASET_HEADS | {"translation", "and", "of", "to"}:
            words.pop()
        if words and re.search(r"[A-Z0-9]", " ".join(words)):
            return " ".join(words)
    return None


_TABLE_REFERENCE = re.compile(r"\(([A-Z][^()]{0,40}(?:\([^()]{1,20}\))?)\s+in\s+Table\s+\d+\)")


def _method_in(sentence: str, before_value: str, main: str | None, labels: set[str]) -> str | None:
    """Who scored: the subject of "achieves", a row label the sentence points at ("(X in Table 2)"), a
    table row or a known method named in the sentence, or for "our model" the paper's main method."""
    referenced = _TABLE_REFERENCE.findall(before_value)
    if referenced:
        return str(referenced[-1]).strip()
    subject = None
    for m in _SUBJECT_VERB.finditer(before_value):
        subject = m.group("subject").strip()
    if subject:
        subject = re.split(r"(?:,|\bwhereas\b|\bwhile\b|\band\b)\s*", subject)[-1].strip()
        if _OURS.match(subject.lower()):
            return main
        stripped = re.sub(r"^(?:our|the proposed|the)\s+", "", subject, flags=re.IGNORECASE)
        if re.search(r"[A-Z]", stripped):
            return stripped
    for label in sorted(labels, key=len, reverse=True):
        if label in sentence:
            return label
    exact, _ = gazetteer()
    named = [w for w in re.findall(r"\b[A-Z][\w\-.]*[A-Za-z0-9]", before_value) if exact.get(w) == "method"]
    if named:
        return str(named[0])
    if re.search(r"\bour (?:\w+ )?(?:model|method|approach)\b", before_value, re.IGNORECASE):
        return main
    return None


def _table_fact(cell: Any, table: Table, text: str, source: dict[str, Any]) -> dict[str, Any]:
    known = cell.metric is not None and (
        cell.dataset is not None or len({c.header for c in table.cells}) == 1
    )
    line_start = text.rfind("\n", 0, cell.start) + 1
    line_end = text.find("\n", cell.end)
    line_end = len(text) if line_end == -1 else line_end
    percent = cell.value.endswith("%")
    return {
        "entity": cell.row_label,
        "attribute": cell.metric or cell.header,
        "value": cell.value,
        "value_type": "percentage" if percent else "number",
        "confidence": "High" if known else "Medium",
        "source": dict(source),
        "numeric_value": cell.numeric,
        "value_kind": "result" if cell.metric else "setting",
        "metric": cell.metric,
        "dataset": cell.dataset,
        "task": task_in(table.caption),
        "group": cell.group,
        "table": table.caption,
        "found_by": "table",
        "unit": "%" if percent else None,
        "currency": None,
        "value_span": [cell.start, cell.end],
        "sentence_span": [line_start, line_end],
        "sentence": text[line_start:line_end].strip(),
        "confidence_features": {
            "entity_anchor": "table_row",
            "typed_value": known,
            "column_header": cell.header,
        },
    }


def _is_noise(fact: dict[str, Any]) -> bool:
    """A count of a plain noun ("two versions", "three desiderata"), or an owner that is markup ("5We")."""
    if _MARKUP.search(str(fact.get("entity") or "")):
        return True
    if fact.get("metric") or fact.get("currency") or fact.get("value_type") != "number":
        return False
    counted = str(fact.get("unit") or "")
    spelled = not re.search(r"\d", str(fact.get("value") or ""))
    return spelled and (not counted or bool(_PLAIN_WORD.match(counted)))


def science_facts(
    facts: list[dict[str, Any]], parsed: str, text: str, source: dict[str, Any]
) -> list[dict[str, Any]]:
    """``facts`` of a paper with its tables read as tables, prose results typed, and plain-noun counts dropped.

    ``text`` is the caller's own text (tables keep their pipes there), ``parsed`` the parser's (same
    length; its numbers written as math are plain). A text that does not read as a paper comes back
    unchanged, except the ``found_by`` of each fact.
    """
    for fact in facts:
        fact.setdefault("found_by", "parse")
    if not is_paper(text):
        for fact in facts:  # outside papers a metric that cannot be an ordinary word ("BLEU", "F1"), or any
            s_start, s_end = fact["sentence_span"]  # metric in a sentence that states a result ("achieves")
            stated = _RESULT_VERB.search(text[s_start:s_end]) is not None
            _prose_result(fact, parsed, text, None, set(), technical_only=not stated)
        return facts
    tables = parse_tables(text)
    inside = [(t.start, t.end) for t in tables]
    kept = [f for f in facts if not any(s <= f["value_span"][0] < e for s, e in inside) and not _is_noise(f)]
    labels = {c.row_label for t in tables for c in t.cells}
    main = _main_method(text, tables)
    for fact in kept:
        _prose_result(fact, parsed, text, main, labels)
    for table in tables:
        kept.extend(_table_fact(cell, table, text, source) for cell in table.cells)
    return sorted(kept, key=lambda f: f["value_span"][0])


def _prose_result(
    fact: dict[str, Any],
    text: str,
    original: str,
    main: str | None,
    labels: set[str],
    technical_only: bool = False,
) -> None:
    """The metric next to the value (in ``text``, the parser's, where math numbers are plain), and the dataset
    and method around it (in ``original``, where "(X in Table 2)" is still there)."""
    if fact.get("numeric_value") is None or fact.get("currency"):
        return
    start, end = fact["value_span"]
    metric = _metric_near(text, start, end)
    if metric is None or (technical_only and not re.search(r"[A-Z]", metric)):
        return
    if _DIFFERENCE.search(text[end : end + 60]) or re.search(
        r"\bby\s+(?:more than\s+|over\s+|about\s+|up to\s+)?[+\-−]?$", text[max(0, start - 30) : start]
    ):
        fact.update(attribute=f"{metric} difference", value_kind="difference", found_by="prose")
        return
    s_start, s_end = fact["sentence_span"]
    sentence = text[s_start:s_end]
    previous = text[max(0, s_start - 400) : s_start]
    dataset = _dataset_in(sentence[: end - s_start] + " ") or _dataset_in(sentence) or _dataset_in(previous)
    method = _method_in(original[s_start:s_end], original[s_start:start], main, labels)
    fact.update(
        metric=metric,
        dataset=dataset,
        task=task_in(original[s_start:s_end]),
        attribute=metric,
        value_kind="result",
        found_by="prose",
        confidence="Medium" if method and dataset else "Low",
    )
    if method:
        fact["entity"] = method
