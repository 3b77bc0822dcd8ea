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

__all__ = ["MAX_RULED_HEADER_ROWS", "Cell", "Row", "markdown_table"]

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
