"""Split a converted paper into front matter, body, references and appendix, losing nothing.

The guarantee (tested on every fixture paper and on the evaluation papers, and checked by
``unaccounted_words``): every block of the cleaned text lands in exactly one of the four parts,
each part keeping its blocks in document order, so front + body + references + appendix hold
every word of the converted text. The only text removed is documented and checkable
(``clean_document``): page numbers, running heads and feet (a short line at the top or bottom of a
page whose text, digits aside, recurs at the edges of several pages), and arXiv's sideways stamp.

Papers do not agree on structure, so each boundary is found from evidence in the text, most
specific first, and by principle rather than per layout:

- body start: the first section heading after the abstract; prose between the abstract (and
  its keywords / PACS / MSC / index-terms lines) and a first heading that is not an introduction
  is an introduction without a heading of its own, and starts the body. Headings inside a printed
  table of contents never count. The PDF outline is used only when the text shows no section
  heading at all (an outline may cover part of the paper only, e.g. just the appendices).
- references: a heading that names a reference list (References, Bibliography, Literature Cited,
  Works Cited, Notes and References, and the usual titles in French, German, Spanish, Portuguese
  and Italian); else an outline entry "References" and the first numbered entry on its page;
  else the first run of reference-shaped entries ([1] ..., 1. A. Author ..., Author, A. 2010 ...).
  A heading that repeats the list's own title (a running head) does not end it.
- appendix: an appendix heading before the references (REVTeX) or the first section lettered "A"
  after numbered ones (a lettered appendix without the word), and everything after the list
  except what belongs to the body: statements printed right after the list (acknowledgments,
  limitations, ethics, broader impact, funding, contributions, data availability) and tables or
  figures a journal style defers to the end. Checklists, author biographies, collaboration author
  lists and supplementary material after the list are appendix.
- tables are written by the one table rule of ``tables`` (a header row, a ``| --- |`` separator,
  the data rows), as on the HTML route.
- column text the converter read into the middle of the reference list (REVTeX balances the
  bibliography under both columns) and floats on its pages go back to the body.

This module is pure text processing; it never imports PyMuPDF.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from .page_clean import CleanedDocument, RemovedBlock, clean_document, clean_pages
from .pdf_headings import outline_levels, part_texts
from .section_blocks import (
    APPENDIX_TITLE,
    LETTERED_TITLE,
    STATEMENT_TITLE,
    heading_text,
    is_displaced_prose,
    is_float,
    looks_like_entry,
    looks_like_reference_entry,
    table_rows_as_references,
)
from .section_bounds import (
    Layout,
    appendix_start,
    body_start,
    contents_region,
    references_end,
    references_start,
)
from .section_model import Block, ConvertedDocument, Sections, TocEntry
from .tables import normalize_markdown_table

__all__ = [
    "CleanedDocument",
    "ConvertedDocument",
    "RemovedBlock",
    "Sections",
    "TocEntry",
    "clean_document",
    "clean_pages",
    "split_document",
    "unaccounted_words",
]


FRONT, BODY, REFERENCES, APPENDIX = "front", "body", "references", "appendix"


def _blocks_of(document: ConvertedDocument) -> list[Block]:
    """The cleaned blocks in reading order; reference lists read as tables become list items."""
    blocks: list[Block] = []
    for page, texts in enumerate(clean_pages(document.pages_md)):
        for text in texts:
            as_refs = table_rows_as_references(text)
            if as_refs:
                blocks.extend(Block(row, page) for row in as_refs)
            else:
                blocks.append(Block(normalize_markdown_table(text) or text, page))
    return blocks


def split_document(document: ConvertedDocument) -> Sections:
    """Split a converted paper; see the module docstring for where each part ends.

    The headings the split found are kept with the parts (``pdf_headings``), for the outline.
    """
    blocks = _blocks_of(document)
    headings = {i: h for i, b in enumerate(blocks) if (h := heading_text(b.text)) is not None}
    layout = Layout(blocks, headings, contents_region(blocks, headings))
    parts = _assign(layout, document.toc)
    texts, found = part_texts(layout, parts, outline_levels(layout, document.toc))
    return Sections(
        front=texts[FRONT],
        body=texts[BODY],
        references=texts[REFERENCES],
        appendix=texts[APPENDIX],
        headings=found,
    )


def _assign(layout: Layout, toc: Sequence[TocEntry]) -> list[str]:
    """The part of every block, by index: each block gets exactly one."""
    blocks, headings = layout.blocks, layout.headings
    first_refs = references_start(layout, toc, 0)
    start, displaced_abstract = body_start(layout, toc, first_refs if first_refs is not None else len(blocks))
    refs_start = references_start(layout, toc, start + 1)
    limit = refs_start if refs_start is not None else len(blocks)
    appendix_from = appendix_start(layout, start + 1, limit)

    parts = [FRONT] * len(blocks)
    for i in range(start, limit):
        parts[i] = APPENDIX if appendix_from is not None and i >= appendix_from else BODY
    if displaced_abstract is not None:
        parts[displaced_abstract] = FRONT
    if refs_start is None:
        return parts

    tail_start = references_end(layout, refs_start)
    region = range(refs_start, tail_start)
    last_ref = max((k for k in region if looks_like_reference_entry(blocks[k].text)), default=refs_start)
    if last_ref == refs_start and refs_start in headings:
        # A titled list none of whose entries we recognise (an unusual citation style): the title
        # is the evidence; the list runs to the next heading.
        last_ref = tail_start - 1
    displaced_to = APPENDIX if appendix_from is not None else BODY
    moved: set[int] = set()
    for k in range(refs_start + 1, last_ref + 1):
        if is_float(blocks[k].text):
            parts[k] = BODY  # a figure or table that floated onto a page of the list
        elif is_displaced_prose(blocks[k].text):
            moved.add(k)
        else:
            parts[k] = REFERENCES
    if _runs(sorted(moved)) >= _ANNOTATION_RUNS:
        # Prose between entries again and again: an annotated bibliography's comments, not column
        # text read out of order (that comes as one or two stretches). It stays with the entries.
        for k in moved:
            parts[k] = REFERENCES
        moved = set()
        while last_ref + 1 < tail_start and is_displaced_prose(blocks[last_ref + 1].text):
            last_ref += 1  # the last entry's comment
            parts[last_ref] = REFERENCES
    for k in sorted(moved):  # a statement heading takes its paragraphs along
        if k in headings:
            j = k + 1
            while j <= last_ref and not looks_like_entry(blocks[j].text):
                moved.add(j)
                j += 1
    for k in range(refs_start + 1, last_ref + 1):
        if k in moved:
            parts[k] = displaced_to
    parts[refs_start] = REFERENCES
    _assign_tail(layout, list(range(last_ref + 1, len(blocks))), parts)
    return parts


_ANNOTATION_RUNS = 3


def _runs(indices: list[int]) -> int:
    """How many stretches of consecutive indices ``indices`` (sorted) makes."""
    return sum(1 for n, i in enumerate(indices) if n == 0 or indices[n - 1] != i - 1)


def _assign_tail(layout: Layout, tail: list[int], parts: list[str]) -> None:
    """After the list: statements and deferred floats join the body; the rest is appendix."""
    blocks, headings = layout.blocks, layout.headings
    k = 0
    # Statements printed right after the list (acknowledgments, limitations, ethics, ...), each with
    # its paragraphs, up to the first heading that is not a statement.
    while k < len(tail) and tail[k] in headings and STATEMENT_TITLE.match(headings[tail[k]]):
        parts[tail[k]] = BODY
        k += 1
        while k < len(tail) and tail[k] not in headings:
            parts[tail[k]] = BODY
            k += 1
    # Tables and figures a journal style defers to the end (emulateapj), up to an appendix heading.
    if k < len(tail) and is_float(blocks[tail[k]].text):
        while k < len(tail):
            heading = headings.get(tail[k])
            if heading is not None and (APPENDIX_TITLE.match(heading) or LETTERED_TITLE.match(heading)):
                break
            parts[tail[k]] = BODY
            k += 1
    rest = tail[k:]
    if (
        rest
        and not any(i in headings for i in rest)
        and sum(len(blocks[i].text) for i in rest) < _LOOSE_TAIL_CHARS
    ):
        # A few short lines after the list and no heading: not an appendix but the paper's loose
        # ends, such as the authors' postal and e-mail addresses (AMS, Springer; front matter
        # printed last) and a footnote of the last page (body).
        for index in rest:
            parts[index] = FRONT if _ADDRESS.search(blocks[index].text) else BODY
        return
    for index in rest:
        parts[index] = APPENDIX


_LOOSE_TAIL_CHARS = 1200
_ADDRESS = re.compile(
    r"@|e-?mail|universit|institut|department|departement|laborator|college|school of|academy|"
    r"observatory|\bcnrs\b|\bpo box\b",
    re.IGNORECASE,
)


# --- the no-loss check ----------------------------------------------------------------------------

_WORD = re.compile(r"[^\s|*_#`>\-•]+")


def _words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.replace("<br>", " ")))


def unaccounted_words(document: ConvertedDocument, sections: Sections) -> tuple[Counter[str], Counter[str]]:
    """Words of the cleaned converted text missing from the four parts, and words the parts add.

    Both are empty when nothing is lost or duplicated: the parts hold exactly the words of the
    converted text less what ``clean_document`` removed (markdown markup aside), its tables
    written by the table rule (``tables.normalize_markdown_table``: a spanning header is repeated
    over the columns it covers, PyMuPDF's made-up "Col1" header names are dropped).
    """
    kept = Counter[str]()
    for page in clean_pages(document.pages_md):
        for block in page:
            table = None if table_rows_as_references(block) else normalize_markdown_table(block)
            kept.update(_words(table or block))
    parts = _words("\n\n".join((sections.front, sections.body, sections.references, sections.appendix)))
    return kept - parts, parts - kept
