"""A table's cells -> one markdown table: one flattened header row, a separator, the data rows.

The rule (the same for the HTML and the PDF route, so a reader or a parser meets one shape):

- every table is a markdown table: one header row, a ``| --- |`` separator row, then data rows;
- the header is the first row, extended down over the rows its cells span (a ``rowspan``), the
  row under a header cell that spans some columns (its sub-headers: "EN.QA" over "F1 Score |
  Tokens"), the rows marked as header by the page (``thead``), and the rows above the first rule
  when that rule stands within the first rows (a units row such as "(km/s)");
- the header rows are flattened into one: each column's header is its cells' texts from the top
  down, a repeated text said once ("EN.QA F1 Score", "EN.QA Tokens");
- in the data rows a cell spanning rows is repeated on every row it covers (each row then stands
  on its own); a cell spanning columns fills the first of them; a group row ("Long-context LLM
  w/o RAG" across the table) stays a row, its label in the first column.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["MAX_RULED_HEADER_ROWS", "Cell", "Row", "markdown_table", "normalize_markdown_table"]

# A rule lower than this many rows is the table's end rule or a group rule, not the header's.
MAX_RULED_HEADER_ROWS = 3
_PIPE = re.compile(r"(?<!\\)\|")
_NUMERIC = re.compile(r"[*_\s]*[+\-−]?[\d.,]+\s*%?[*_\s]*")


@dataclass(frozen=True)
class Cell:
    text: str
    colspan: int = 1
    rowspan: int = 1


@dataclass(frozen=True)
class Row:
    cells: tuple[Cell, ...]
    head: bool = False  # the page marks the row as a header row (thead)
    rule_above: bool = False  # a horizontal rule stands above the row
    rule_below: bool = False


@dataclass
class _Slot:
    text: str
    top: int  # the row the covering cell starts in
    rows: int  # rows it covers (within the table)
    columns: int  # columns it covers


def _grid(rows: list[Row]) -> list[list[_Slot | None]]:
    """Place every cell on the grid; a spanning cell occupies all the positions it covers."""
    grid: list[list[_Slot | None]] = [[] for _ in rows]
    for r, row in enumerate(rows):
        column = 0
        for cell in row.cells:
            while column < len(grid[r]) and grid[r][column] is not None:
                column += 1
            down = min(len(rows), r + max(1, cell.rowspan)) - r
            slot = _Slot(_PIPE.sub(r"\\|", cell.text), r, down, max(1, cell.colspan))
            for rr in range(r, r + down):
                line = grid[rr]
                while len(line) < column + cell.colspan:
                    line.append(None)
                for cc in range(column, column + max(1, cell.colspan)):
                    line[cc] = slot
            column += max(1, cell.colspan)
    return grid


def _header_rows(rows: list[Row], grid: list[list[_Slot | None]], width: int) -> int:
    """How many rows from the top are header rows (see the module docstring)."""
    end = 1
    while end < len(rows) and rows[end].head and rows[end - 1].head:
        end += 1
    ruled = next((i for i in range(1, len(rows)) if rows[i].rule_above or rows[i - 1].rule_below), 0)
    if 1 < ruled <= MAX_RULED_HEADER_ROWS and ruled < len(rows):
        end = max(end, ruled)
    grew = True
    while grew and end < len(rows):
        grew = False
        reach = max(s.top + s.rows for line in grid[:end] for s in line if s is not None)
        if reach > end:
            end, grew = reach, True
            continue
        if _has_subheaders(grid, end, width):
            end, grew = end + 1, True
    return min(end, len(rows))


def _has_subheaders(grid: list[list[_Slot | None]], end: int, width: int) -> bool:
    """Whether row ``end`` names the columns of a header cell above it that spans some of them.

    A cell over all the columns is a title, not a group of columns; a row of values under the
    spanning cell (numbers) is data, not sub-headers.
    """
    if end >= len(grid):
        return False
    below = grid[end]
    for column, slot in enumerate(grid[end - 1]):
        if slot is None or not 1 < slot.columns < width or (column and grid[end - 1][column - 1] is slot):
            continue
        under = [below[c] for c in range(column, min(column + slot.columns, len(below)))]
        texts = [u.text for u in under if u is not None]
        if texts and all(t and not _NUMERIC.fullmatch(t) for t in texts):
            return True
    return False


def _flat_header(grid: list[list[_Slot | None]], head: int, width: int) -> list[str]:
    names: list[str] = []
    for column in range(width):
        parts: list[str] = []
        seen: set[int] = set()
        for r in range(head):
            slot = grid[r][column] if column < len(grid[r]) else None
            if slot is None or id(slot) in seen or not slot.text:
                continue
            seen.add(id(slot))
            if not parts or parts[-1] != slot.text:
                parts.append(slot.text)
        names.append(" ".join(parts))
    return names


def markdown_table(rows: list[Row]) -> str:
    """The markdown table for ``rows`` ("" when no row holds any text)."""
    rows = [r for r in rows if any(c.text for c in r.cells)]
    if not rows:
        return ""
    grid = _grid(rows)
    width = max(len(line) for line in grid)
    head = _header_rows(rows, grid, width)
    lines = ["| " + " | ".join(_flat_header(grid, head, width)) + " |", "|" + " --- |" * width]
    for line in grid[head:]:
        cells: list[str] = []
        for column in range(width):
            slot = line[column] if column < len(line) else None
            # A column-spanning cell fills its first column only; a row-spanning one every row.
            first = slot is not None and (column == 0 or line[column - 1] is not slot)
            cells.append(slot.text if slot is not None and first else "")
        if any(cells):
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


_SEPARATOR = re.compile(r"^\|?(?:\s*:?-{3,}:?\s*\|)+\s*:?-*:?\s*$")
_GENERATED_NAME = re.compile(r"^Col\d+$")  # PyMuPDF's name for a header cell it found empty


def _pipe_cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [" ".join(c.replace("<br>", " ").split()) for c in re.split(r"(?<!\\)\|", inner)]


def normalize_markdown_table(block: str) -> str | None:
    """A PDF route's markdown table (pymupdf4llm) rewritten by the same rule; None if not a table.

    The PDF gives a grid without spans: a header cell over several columns is its text followed
    by empty header cells, and its sub-headers are the next row. So the header goes on down while
    its row has an empty cell after a named one and the next row holds no number; an empty header
    cell belongs to the named cell on its left.
    """
    lines = [line for line in block.strip().splitlines() if line.strip()]
    if len(lines) < 2 or not lines[0].lstrip().startswith("|") or not _SEPARATOR.match(lines[1].strip()):
        return None
    if not all(line.lstrip().startswith("|") for line in lines):
        return None
    header = ["" if _GENERATED_NAME.match(c) else c for c in _pipe_cells(lines[0])]
    grid = [header] + [_pipe_cells(line) for line in lines[2:]]
    head = 1
    while (
        head < len(grid)
        and _spans_right(grid[head - 1])
        and not any(_NUMERIC.fullmatch(c) for c in grid[head] if c)
    ):
        head += 1
    rows = [
        Row(_spanned(cells) if r < head - 1 else tuple(Cell(c) for c in cells), head=r < head)
        for r, cells in enumerate(grid)
    ]
    return markdown_table(rows) or None


def _spans_right(cells: list[str]) -> bool:
    """Whether an empty cell follows a named one (a header over several columns)."""
    return any(cells[i] and not cells[i + 1] for i in range(len(cells) - 1))


def _spanned(cells: list[str]) -> tuple[Cell, ...]:
    out: list[Cell] = []
    for text in cells:
        if not text and out and out[-1].text:
            out[-1] = Cell(out[-1].text, out[-1].colspan + 1)
        else:
            out.append(Cell(text))
    return tuple(out)
