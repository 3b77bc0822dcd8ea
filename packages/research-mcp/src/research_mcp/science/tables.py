"""Markdown tables of a paper read as tables: row label -> method, column header -> metric and dataset, cell -> value.

papers-mcp renders tables two ways. Issue 18's form: one flattened header row ("EN.QA F1 Score" for a
header over two rows), a ``| --- |`` separator, row-spanning labels repeated, the caption above. Earlier
renderings: header rows without a separator, a second header row with an empty first cell, a header word
split across two cells by the PDF layout ("BL" | "EU"), group rows with only a label ("SELF-ROUTE"), and
lines without the outer pipes. Both are read here: header rows are joined per column (an empty upper cell
inherits its left neighbour, as a spanning cell does), each column header is split into the metric it
names and the rest (a dataset, a setting), and every numeric cell becomes one result.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from .names import known_metric, lookup, metric_in

__all__ = ["Cell", "Table", "parse_tables", "table_regions"]

_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CAPTION = re.compile(r"^\s*(?:\*\*)?(Table|TABLE|Tab\.)\s*[0-9IVX]+[.:]?(?:\*\*)?\s*[:.]?\s*(.*)$")
_NUMBER = re.compile(
    r"^[(\[]?(?P<num>[-−+]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[-−+]?\d*\.?\d+)\s*(?P<suffix>%|[KMBk]\b)?"
    r"(?:\s*(?:±|\+/-|\\pm)\s*\d*\.?\d+)?[)\]]?\s*[*†‡§¶]*$"
)
_MATH_WRAP = re.compile(
    r"\$\s*(?:\\(?:mathbf|textbf|bm|boldsymbol|underline|mathit|textit)\s*)?\{?([^${}]*?)\}?\s*\$"
)
_CITATION = re.compile(r"\s*\[\d+(?:\s*[,–-]\s*\d+)*\]")
_HTML = re.compile(r"</?[a-z]+\s*/?>")


@dataclass
class Cell:
    row_label: str
    group: str | None
    header: str
    metric: str | None
    dataset: str | None
    text: str  # the cell as written
    value: str  # the number, cleaned
    numeric: float
    start: int  # offsets of the cell in the text
    end: int


@dataclass
class Table:
    start: int
    end: int
    caption: str | None
    headers: list[str]
    cells: list[Cell] = field(default_factory=list)


def clean(cell: str) -> str:
    """A cell's words without markup: bold/italic marks, HTML tags, math dollars around a number."""
    text = _MATH_WRAP.sub(lambda m: m.group(1), cell)
    text = _HTML.sub(" ", text)
    text = re.sub(r"\*\*|__|(?<!\w)_|_(?!\w)|`", "", text)
    return re.sub(r"\s+", " ", text).strip()


def number(cell: str) -> tuple[str, float] | None:
    """The cell's number ("**88.65**", "$34.26$", "117K", "71.8%"), or None for text and formulas."""
    text = clean(cell)
    if text.count("(") != text.count(")"):
        return None  # "2018)": a piece of a date cut over cells
    m = _NUMBER.match(text)
    if m is None:
        return None
    raw = m.group("num").replace("−", "-")
    value = float(raw.replace(",", ""))
    suffix = m.group("suffix") or ""
    shown = raw + suffix
    return shown, value * {"K": 1e3, "k": 1e3, "M": 1e6, "B": 1e9}.get(suffix, 1.0)


def _outer_pipes(lines: list[tuple[str, int]]) -> bool:
    """GFM rows start and end with a pipe; the older rendering writes none ("A | 1 | 2", "| F1 | Acc" then
    means an empty first cell)."""
    framed = sum(1 for line, _ in lines if line.strip().startswith("|") and line.strip().endswith("|"))
    return framed * 2 > len(lines)


def _cells(line: str, offset: int, outer: bool) -> list[tuple[str, int, int]]:
    """A row's cells with their offsets."""
    body_start = 0
    stripped = line.rstrip()
    if outer and stripped.lstrip().startswith("|"):
        body_start = line.index("|") + 1
    body_end = len(stripped)
    if outer and stripped.endswith("|") and len(stripped) > body_start:
        body_end -= 1
    out = []
    pos = body_start
    for piece in line[body_start:body_end].split("|"):
        out.append((piece, offset + pos, offset + pos + len(piece)))
        pos += len(piece) + 1
    return out


def _blocks(text: str) -> list[tuple[int, list[tuple[str, int]]]]:
    """Runs of lines that are table rows (two or more cells), each line with its offset."""
    blocks: list[tuple[int, list[tuple[str, int]]]] = []
    run: list[tuple[str, int]] = []
    pos = 0
    for line in text.split("\n"):
        if line.count("|") >= 2 or (line.count("|") >= 1 and run):
            run.append((line, pos))
        else:
            if len(run) >= 2:
                blocks.append((run[0][1], run))
            run = []
        pos += len(line) + 1
    if len(run) >= 2:
        blocks.append((run[0][1], run))
    return blocks


def _caption(text: str, start: int, end: int) -> str | None:
    """The "Table N: ..." paragraph just above the table (or just below it)."""
    before = [p for p in text[max(0, start - 1500) : start].split("\n") if p.strip()]
    after = [p for p in text[end : end + 800].split("\n") if p.strip()]
    for line in before[-2:][::-1] + after[:1]:
        m = _CAPTION.match(line)
        if m:
            return clean(m.group(0))
    return None


def _join_split_words(row: list[str]) -> list[str]:
    """ "BL" | "EU" -> "BLEU" in both cells: a header word the PDF layout cut in two."""
    out = list(row)
    for i in range(1, len(row) - 1):
        a, b = row[i], row[i + 1]
        if not a or not b:
            continue
        joined = a + b
        known = known_metric(joined) is not None or lookup(joined) is not None
        if known or (re.search(r"\s[A-Z][a-z]?$", a) and b[0].islower()):
            out[i] = out[i + 1] = joined
    return out


def _headers(rows: list[list[str]], width: int) -> list[str]:
    joined = [""] * width
    for r, row in enumerate(rows):
        row = _join_split_words(row + [""] * (width - len(row)))
        last = r == len(rows) - 1
        for j in range(1, width):
            if not row[j] and not last and j > 1:
                row[j] = row[j - 1]  # a cell spanning columns is written once, at its left
            cell = row[j]
            if cell and cell not in joined[j].split(" / "):
                joined[j] = f"{joined[j]} {cell}".strip()
        if row[0] and not joined[0]:
            joined[0] = row[0]
    return joined


def _is_header_row(cells: list[str]) -> bool:
    return bool(cells) and not any(number(c) for c in cells[1:]) and any(cells[1:])


def _runs(values: list[str]) -> int:
    """How many rows repeat the label of the row above (a row-spanning label written on every row)."""
    return sum(1 for a, b in itertools.pairwise(values) if a and a == b)


def _label_column(body: list[list[tuple[str, int, int]]]) -> int:
    """0, or 1 when the first column is a group label repeated down its rows ("| Long-context LLM | GPT-4O |
    ...") and the second names each row."""
    rows = [r for r in body if len(r) > 2]
    if len(rows) < 2:
        return 0
    first = [clean(r[0][0]) for r in rows]
    second = [clean(r[1][0]) for r in rows]
    if any(number(r[1][0]) for r in rows) or not all(second):
        return 0
    return 1 if _runs(first) > 0 and _runs(second) == 0 else 0


def table_regions(text: str) -> list[tuple[int, int]]:
    """Where the text's tables are (any run of table rows, numbers or not)."""
    return [(start, lines[-1][1] + len(lines[-1][0])) for start, lines in _blocks(text)]


def parse_tables(text: str) -> list[Table]:
    """Every markdown table in ``text`` with its numeric cells read against the row and column headers."""
    tables: list[Table] = []
    for start, lines in _blocks(text):
        end = lines[-1][1] + len(lines[-1][0])
        outer = _outer_pipes(lines)
        rows = [(_cells(line, off, outer), line) for line, off in lines]
        width = max(len(c) for c, _ in rows)
        header_rows: list[list[str]] = []
        body: list[list[tuple[str, int, int]]] = []
        for cells, line in rows:
            if _SEPARATOR.match(line):
                continue
            texts = [clean(c[0]) for c in cells]
            if not body and (
                _is_header_row(texts) and (not header_rows or not texts[0] or len(header_rows) < 3)
            ):
                header_rows.append(texts)
            else:
                body.append(cells)
        if not header_rows or not body:
            continue
        headers = _headers(header_rows, width)
        table = Table(start, end, _caption(text, start, end), headers)
        group: str | None = None
        at = _label_column(body)
        for cells in body:
            label = _CITATION.sub("", clean(cells[at][0])).strip() if len(cells) > at else ""
            rest = [clean(c[0]) for c in cells[at + 1 :]]
            if label and not any(rest):
                group = label  # a group row: "SELF-ROUTE Li et al. (2024)" over the rows below it
                continue
            if at:
                group = _CITATION.sub("", clean(cells[0][0])).strip() or group
            if not re.search(r"[A-Za-z0-9]", label) or number(cells[at][0]) is not None:
                continue
            for j, (raw, s, _e) in enumerate(cells[at + 1 :], start=at + 1):
                parsed = number(raw)
                if parsed is None or j >= len(headers) or not headers[j]:
                    continue
                metric, rest_header = metric_in(headers[j])
                dataset = (rest_header or None) if metric else None
                lead = len(raw) - len(raw.lstrip())
                table.cells.append(
                    Cell(label, group, headers[j], metric, dataset, raw.strip(), parsed[0], parsed[1],
                         s + lead, s + lead + len(raw.strip()))
                )  # fmt: skip
        if table.cells:
            tables.append(table)
    return tables
