"""Labels and tables: ``Revenue: $5.2M``, ``| Revenue | $5.2bn |``, ``revenue $5.2bn, EBITDA margin 23%``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..values import Period
from .context import About, Where
from .phrases import clean_phrase
from .vocabulary import GENERIC_LABELS, LABEL_RE, LINE_LABEL_RE, METRIC_WORDS, NOT_ENTITY_ENTS, PRONOUNS

if TYPE_CHECKING:
    from spacy.tokens import Span, Token


def label_before(text: str, start: int, end: int, periods: list[Period]) -> str | None:
    """``Revenue: $5.2M`` or ``Sales: Q1 2024 $2.1bn``: the label just before a value on its line."""
    before = text[start:end]
    for p in periods:
        ps, pe = p.span
        if start <= ps and pe <= end and not text[pe:end].strip(" ()"):
            before = text[start:ps]  # a period between the label and the value
    m = LABEL_RE.match(before)
    if m is None:
        cell = _previous_cell(text, start, before)
        if cell is None:
            return None
        name = cell
    else:
        name = m.group("label").strip()
    if not name or re.search(r"\d", name) or len(name.split()) > 8:
        return None
    return name


_TERM_POS = frozenset({"NOUN", "PROPN", "ADJ", "X", "SYM"})


def equation_term(span: Span, label: str) -> str:
    """``we employ h = 8``: the left side of ``=`` in prose is the term just before it, not the clause.

    Walks back from ``=`` over nouns, adjectives and symbols (``dropout rate P_drop``, ``d_model``) and
    stops at the first verb, pronoun, determiner or preposition; markdown emphasis (``_h_``) is dropped.
    """
    doc = span.doc
    i = span.start - 1
    while i >= 0 and doc[i].is_space:
        i -= 1
    if i < 0 or doc[i].text != "=" or not label.rstrip().endswith(doc[i - 1].text if i > 0 else "="):
        return label
    first = last = i - 1
    while first >= 0 and (doc[first].pos_ in _TERM_POS or doc[first].text in ("_", "*")):
        if doc[first].text in "=:|":
            break
        first -= 1
    if first == last:
        return label
    term = doc[first + 1 : last + 1].text.strip(" _*")
    return term if term and re.search(r"[A-Za-z]", term) else label


def table_header(text: str, pos: int, line_start: int) -> str | None:
    """The header of a value's column in a ``|`` table (``| Metric | 2023 | 2024 |``)."""
    line_end = text.find("\n", pos)
    line = text[line_start : line_end if line_end != -1 else len(text)]
    if line.count("|") < 2:
        return None
    column = text.count("|", line_start, pos)
    header = line
    start = line_start
    while start > 0:
        prev_start = text.rfind("\n", 0, start - 1) + 1
        prev = text[prev_start : start - 1]
        if prev.count("|") < 2:
            break
        header, start = prev, prev_start
    cells = header.split("|")
    if header is line or column >= len(cells):
        return None
    return cells[column].strip() or None


def _previous_cell(text: str, start: int, before: str) -> str | None:
    """``| Revenue | $5.2bn |`` or ``Revenue<TAB>$5.2bn``: the table cell just before the value's cell."""
    if before.strip():
        tab = before.rfind("\t")
        if tab == -1 or before[tab:].strip():
            return None
        cell = before[:tab]
        cell = cell[cell.rfind("|") + 1 :] if "|" in cell else cell
    else:
        if start == 0 or text[start - 1] != "|":
            return None
        line_start = text.rfind("\n", 0, start - 1) + 1
        cell = text[line_start : start - 1]
        cell = cell[cell.rfind("|") + 1 :]
    name = cell.strip(" \t-*•")
    if not name or re.search(r"\d", name) or len(name.split()) > 6 or not re.search(r"[A-Za-z]", name):
        return None
    return name


def inline_label(span: Span, w: Where) -> About | None:
    """``revenue $5.2bn, EBITDA margin 23%`` or ``Apple 28%, Samsung 23%``: a bare noun phrase right before the value.

    The phrase must start the clause or follow a delimiter (punctuation, "and"), so prose such as
    "grew 5%" or "in Europe 5%" never qualifies. A line label before it ("Market share (2024): ...",
    "Tesla: ...") becomes the attribute, or the owner when it is a name.
    """
    doc = span.doc
    i = span.start - 1
    run: list[Token] = []
    while i >= 0 and len(run) < 5:
        t = doc[i]
        if t.idx < w.seg_start or t.is_space:
            break
        noun_like = t.pos_ in ("NOUN", "PROPN", "ADJ") or (not run and t.pos_ == "VERB" and t.is_lower)
        if not noun_like and run and run[0].pos_ == "VERB":
            break
        if noun_like and t.is_alpha and t.ent_type_ not in NOT_ENTITY_ENTS:
            run.insert(0, t)  # a list fragment's noun is sometimes tagged as a verb ("headcount 12,400")
            i -= 1
            continue
        break
    if not run or run[-1].pos_ == "ADJ" or run[-1].lower_ in PRONOUNS:
        return None
    before = doc[i] if i >= 0 else None
    delimited = (
        before is None
        or before.idx < w.seg_start
        or before.is_space
        or (before.is_punct and any(c in before.text for c in ",:;(•*"))
        or (before.text in ("-", "–", "—") and bool(before.whitespace_))  # a dash, not "BERT-large"
        or before.pos_ == "CCONJ"
    )
    if not delimited or (run[0].pos_ == "VERB" and before is not None and before.pos_ == "CCONJ"):
        return None  # "... or visit 221B Baker Street": a verb after "or" is a verb
    name = clean_phrase(run)
    head_text = re.sub(r"\([^)]*\)", "", w.text[w.line_start : run[0].idx])
    head = LINE_LABEL_RE.match(head_text)
    if head is None:
        return About(name, None, "label")
    label = head.group("label").strip()
    words = label.split()
    if all(x[:1].isupper() for x in words) and words[0].lower() not in METRIC_WORDS:
        return About(f"{label} {name}", None, "label")  # a name: "Tesla: revenue $96.8bn"
    if label.lower() in GENERIC_LABELS:
        return About(name, None, "label")
    return About(name, label.lower(), "label")  # "Market share (2024): Apple 28%"
