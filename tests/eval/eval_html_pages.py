"""The HTML route on every shared LaTeXML page (Perl 0.8 and oxide 0.7): tables, numbers, labels.

Each figure is set against what the page itself holds, counted straight from its HTML with a
regular expression (not with the renderer), and the renderer's result before issue 18's rules is
the baseline printed beside it where the old rule is known:

- tables: ``table.ltx_tabular`` with two cells or more in a row (the page's own count) against the
  markdown tables with a ``| --- |`` separator row in the text; baseline: before issue 18 only a
  table without any spanning cell got a separator (``spans`` counts the others);
- numbers: ``math`` whose ``alttext`` is only a number (``34.26``, ``\\mathbf{88.65}``) on the page,
  against those still written as TeX (``$34.26$``) in the text; baseline: all of them were TeX;
- labels: oxide's ``ltx_contact_name`` / ``ltx_note_name`` / ``ltx_note_type`` spans on the page,
  against their texts ("Affiliation: ", "Thanks: ", "footnotetext: ") left in the text;
- front: whether the front matter has a title line.

Run: ``uv run --frozen python tests/eval/eval_html_pages.py`` (or ``make eval ONLY=html_pages``).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from papers_mcp.latexml import parse_page

SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "arxiv-html"
_TABLE = re.compile(r'<table[^>]*class="ltx_tabular[^"]*"[^>]*>(.*?)</table>', re.DOTALL)
_ROW = re.compile(r"<tr[^>]*>(.*?)</tr>", re.DOTALL)
_CELL = re.compile(r"<t[dh][\s>]")
_SPAN = re.compile(r'(?:colspan|rowspan)="[2-9]')
_ALT = re.compile(r'alttext="([^"]*)"[^>]*display="inline"')
_PLAIN = re.compile(r"^(?:\\mathbf\{)?[+-]?\d+(?:\.\d+)?(?:\\%)?\}?$")
_LABEL = re.compile(r'class="ltx_(?:contact_name|note_name|note_type)">([^<]*)<')
_SEPARATOR = re.compile(r"^\|( --- \|)+$", re.MULTILINE)


def _page_tables(html: str) -> tuple[int, int]:
    """Tables of two columns or more on the page, and how many of them have a spanning cell."""
    tables = spans = 0
    for body in _TABLE.findall(html):
        if any(len(_CELL.findall(row)) > 1 for row in _ROW.findall(body)) or _SPAN.search(body):
            tables += 1
            spans += bool(_SPAN.search(body))
    return tables, spans


def main() -> int:
    pages = sorted((SHARED / "pages").glob("*.html")) + sorted((SHARED / "oxide").glob("*.html"))
    if not pages:
        print(f"no pages under {SHARED}")
        return 1
    header = "| page | tables (page) | with separator (baseline) | numbers (page) | left as TeX (baseline) | labels (page) | left | title |"
    print(header)
    print("|" + " --- |" * 8)
    totals = [0] * 7
    for path in pages:
        html = path.read_text(encoding="utf-8")
        try:
            text = parse_page(html.encode(), "html").text
        except ValueError as exc:
            print(f"| {path.stem} | not read: {exc} |")
            continue
        everything = "\n\n".join((text.front, text.body, text.references, text.appendix))
        tables, spans = _page_tables(html)
        separated = len(_SEPARATOR.findall(everything))
        numbers = [a for a in _ALT.findall(html) if _PLAIN.match(a)]
        left = sum(everything.count(f"${a}$") for a in set(numbers))
        labels = [x for x in _LABEL.findall(html) if x.strip()]
        left_labels = sum(1 for x in set(labels) if x in everything)
        titled = text.front.startswith("Title: ")
        row = [tables, separated, tables - spans, len(numbers), left, len(numbers), len(labels)]
        totals = [t + r for t, r in zip(totals, row, strict=True)]
        print(
            f"| {path.stem} | {tables} | {separated} ({tables - spans}) | {len(numbers)} | {left} "
            f"({len(numbers)}) | {len(labels)} | {left_labels} | {'yes' if titled else 'no'} |"
        )
    print(
        f"| all | {totals[0]} | {totals[1]} ({totals[2]}) | {totals[3]} | {totals[4]} ({totals[5]}) "
        f"| {totals[6]} | | |"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
