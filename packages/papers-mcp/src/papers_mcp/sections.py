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
from dataclasses import dataclass

from .page_clean import CleanedDocument, RemovedBlock, clean_document, clean_pages
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


@dataclass(frozen=True)
class TocEntry:
    """One PDF outline entry (``doc.get_toc()``): level, title, 1-based page."""

    level: int
    title: str
    page: int


@dataclass(frozen=True)
class ConvertedDocument:
    """What ``convert`` hands to the splitter: markdown per page and the PDF outline."""

    pages_md: tuple[str, ...]
    toc: tuple[TocEntry, ...]
    pages: int


@dataclass(frozen=True)
class Sections:
    """The four parts of a paper, as markdown."""

    front: str
    body: str
    references: str
    appendix: str


@dataclass(frozen=True)
class _Block:
    """A markdown paragraph (text between blank lines) and the 0-based page it came from."""

    text: str
    page: int


_DIGITS = re.compile(r"\d+")


# --- classifying blocks ---------------------------------------------------------------------------

_HEADING = re.compile(r"^#{1,6}\s+\S")
_BOLD_LINE = re.compile(r"^\*\*[^*\n]{2,120}\*\*\s*[—–:.-]?\s*$")
_TAGS = re.compile(r"<[^>]{1,40}>")
_NUMBERING = r"(?:(?:chapter|section|part|cap[íi]tulo|chapitre|kapitel)\s+)?(?:[0-9]{1,2}(?:\.[0-9]{1,2})*|[IVX]{1,5}|[A-H])[.:)]?\s+"

_REFS_WORDS = (
    r"references?|bibliography|literature cited|works cited|cited literature|"
    r"references and notes|notes and references|reference list|list of references|"
    r"r[ée]f[ée]rences(?: bibliographiques)?|refer[êe]ncias(?: bibliogr[áa]ficas)?|referencias|"
    r"bibliograf[íi]a|literaturverzeichnis|riferimenti(?: bibliografici)?"
)
_REFS_TITLE = re.compile(rf"^(?:{_NUMBERING})?(?:{_REFS_WORDS})\s*[.:]?$", re.IGNORECASE)
_APPENDIX_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:appendix|appendices|supplementary|supplemental|supporting information|"
    r"online appendix|annex|ap[êe]ndice|anexo|anhang)\b",
    re.IGNORECASE,
)
_LETTERED_TITLE = re.compile(r"^[A-H](?:\.\d+)*\.?\s+[A-Z]")
_FIRST_LETTERED = re.compile(r"^A(?:\.1)?\.?\s+[A-Z][a-z]")
_NUMBERED_TITLE = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+[A-Z]")
# Statements that belong with the body wherever the template prints them (before or right after
# the reference list): they are the authors' own words about this work.
_STATEMENT_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:acknowledge?ments?|acknowledge?ment of|funding|limitations?|"
    r"ethic(?:s|al)\b|broader impacts?|societal impacts?|impact statement|author contributions?|"
    r"contributions|data availability|code availability|data and code availability|"
    r"competing interests?|conflicts? of interests?|declaration of|credit author|reproducibility)",
    re.IGNORECASE,
)
_ACK_TITLE = re.compile(rf"^(?:{_NUMBERING})?acknowledge?ments?\b", re.IGNORECASE)
_ABSTRACT_LABEL = re.compile(r"^[#*_>\s]*(?:abstract|summary|résumé|resumo|resumen)\b", re.IGNORECASE)
# Lines printed between the abstract and the main text that are not prose of the paper.
_FRONT_LINE = re.compile(
    r"^[#*_>\s-]*(?:keywords?|key\s*words|index terms|pacs(?: numbers?)?|msc|"
    r"(?:\d{4}\s+)?mathematics subject classification|ams subject|subject classification|"
    r"jel|ccs concepts|acm reference format|acm classification|categories and subject|"
    r"general terms|additional key words|doi|received|accepted|published|submitted|preprint|"
    r"draft|corresponding author|e-?mail|correspondence|†|‡|∗)",
    re.IGNORECASE,
)
_FRONT_TITLE = re.compile(
    r"^(?:abstract|summary|r[ée]sum[ée]|resumo|resumen|zusammenfassung|keywords?|key words|index terms|"
    r"contents|table of contents|conte[úu]do|sum[áa]rio|[íi]ndice|inhaltsverzeichnis|table des mati[èe]res|"
    r"preface|foreword|dedication|acknowledge?ments?|agradecimentos|agradecimientos|remerciements|danksagung|"
    r"list of|lista de|figuras|tabelas|nomenclature|glossary|notation|abbreviations|acronyms|symbols)\b",
    re.IGNORECASE,
)
_CONTENTS_TITLE = re.compile(
    r"^(?:contents|table of contents|conte[úu]do|sum[áa]rio|[íi]ndice|inhaltsverzeichnis|table des mati[èe]res|"
    r"list of (?:figures|tables|abbreviations|symbols|acronyms)|lista de (?:figuras|tabelas)|figuras|tabelas)\b",
    re.IGNORECASE,
)
_INTRO_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:introduction|introdu[çc][ãa]o|introducci[óo]n|einleitung)\b", re.IGNORECASE
)
_SECTION_TITLE = re.compile(
    r"^(?:(?:chapter\s+|cap[íi]tulo\s+)?(?:\d{1,2}|[IVX]{1,5})(?:\.|\s)\s*\S|introduction\b|background\b|"
    r"overview\b|motivation\b|preliminaries\b|introdu[çc][ãa]o\b|chapter\b|cap[íi]tulo\b)",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"^[*_\s]*(?:table|fig\.?|figure)\s*[0-9IVX]+[*_]*\s*(?:[.:]|\n|$)", re.IGNORECASE)
# A table-of-contents line: a title, optional dot leaders, a page number at the end.
_TOC_LINE = re.compile(r"^.{2,160}?(?:[\s.·…]{2,}|\s)(?:\d{1,4}|[ivxlc]{1,6})\s*\|?$", re.IGNORECASE)


def _plain_first_line(block: str) -> str:
    first = block.split("\n", 1)[0]
    text = _TAGS.sub("", first)
    text = re.sub(r"[#*_`]+", " ", text)
    return " ".join(text.split()).strip(" —–-:")


def _heading_text(block: str) -> str | None:
    """The plain text of a heading block, or None when the block is not a heading."""
    first = block.split("\n", 1)[0]
    if "\n" in block.strip() and not _HEADING.match(first):
        return None
    if _HEADING.match(first) or _BOLD_LINE.match(first):
        return _plain_first_line(block)
    plain = _plain_first_line(block)
    if _REFS_TITLE.match(plain) or (_APPENDIX_TITLE.match(plain) and len(plain) < 60 and plain.isupper()):
        return plain  # a "References" / "APPENDIX A" line the engine did not style as a heading
    return None


_YEAR = re.compile(r"(?:\(|\b)(?:1[89]\d\d|20[0-4]\d)[a-z]?\b")
# "[1]", "[ABTZ13]", "[Bahdanau et al.2015]" or "12." / "12 " before an entry (list and quote marks aside).
_REF_LEAD = re.compile(r"^(?:[->*•]\s+)*(?:\[[^\]\n]{1,40}\](?!\()|\d{1,3}\.?(?=\s))\s*")
_REF_NAMES = re.compile(
    r"^(?:[->*•]\s+)*(?:[A-Z]\.\s?(?:[A-Z]\.\s?)*(?:[A-Z][\w'´`¨ˇ-]+)"  # D. C. Johnston / L. M. Adleman
    r"|[A-Z][\w'´`¨ˇ-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+)"  # Agol, E. / Bishop, Christopher
    r"|[A-Z][\w'´`¨ˇ-]+(?:\s+[A-Z]\.)+(?:\s?[A-Z]\.)*,"  # Adamopoulos G., / Allamandola L. J., (MNRAS)
    r"|[A-Z][a-z]+\s+(?:[A-Z][a-z]*\.?\s+)*[A-Z][\w'´`¨ˇ-]+,)"  # Alan Akbik, Duncan ...
)
_REF_VENUE = re.compile(
    r"\b(?:et al\.|pp\.|vol\.|Phys\.|Proc\.|Proceedings|Journal|J\.|Rev\.|Lett\.|arXiv|doi|Press|"
    r"Conference|Trans\.|ApJ|A&A|MNRAS|Nature|Science|In\s+[A-Z])"
)


def _is_reference(block: str) -> bool:
    """Does this block read like one (or a few) reference entries?"""
    text = block.strip()
    if len(text) > 1500 or _heading_text(text) is not None:
        return False
    lead = _REF_LEAD.match(text)
    has_year = bool(_YEAR.search(text))
    has_venue = bool(_REF_VENUE.search(text))
    if lead:
        rest = text[lead.end() :].lstrip("*_")
        return bool(rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in "\"“'(") and (
            has_year or has_venue
        )
    return bool(_REF_NAMES.match(text)) and has_year


_TABLE_ROW_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}")


def _table_rows_as_references(block: str) -> list[str] | None:
    """A markdown table that is really a reference list (label | entry), as list items; else None.

    The layout engine sometimes reads a bibliography with hanging labels ("[EW13]  Armin ...")
    as a two-column table. Every word of the table is kept.
    """
    if not block.lstrip().startswith("|"):
        return None
    rows = []
    for line in block.splitlines():
        if not line.strip() or _TABLE_ROW_SEPARATOR.match(line.strip()):
            continue
        cells = [" ".join(c.replace("<br>", " ").split()) for c in line.strip().strip("|").split("|")]
        text = " ".join(c for c in cells if c)
        if text:
            rows.append(f"- {text}")
    if len(rows) >= 3 and sum(_entry_row(r) for r in rows) >= 0.6 * len(rows):
        return rows
    return None


_ALPHA_WORD = re.compile(r"[^\W\d_]{3,}")


def _entry_row(row: str) -> bool:
    """A table row that reads as a reference entry: a label and words, not a row of numbers."""
    return _is_reference(row) or (bool(_REF_LEAD.match(row)) and len(_ALPHA_WORD.findall(row)) >= 3)


_BIBLIO_CUE = re.compile(
    r"\b(?:et al\.|pp\.|vol\.|Proc\.|Proceedings|Press|Journal|Conference|Trans\.|arXiv|doi)|\(\d{4}\)"
)


def _is_displaced_prose(block: str) -> bool:
    """Body text the converter placed among the references: a paragraph with no citation cues."""
    text = block.strip()
    heading = _heading_text(text)
    if heading is not None:
        return bool(_STATEMENT_TITLE.match(heading))
    return (
        len(text) >= 120
        and text[:1] not in "-*•|>"
        and not _REF_LEAD.match(text)
        and not _YEAR.search(text)
        and not _BIBLIO_CUE.search(text)
    )


def _looks_like_entry(block: str) -> bool:
    """A reference entry or a fragment of one (a list item, a labelled line)."""
    text = block.lstrip()
    return _is_reference(text) or bool(_REF_LEAD.match(text)) or text[:1] in "-*•|>"


def _numbered_start(block: str) -> bool:
    """The first entry of a numbered list: ``[1] ...`` or ``1 A. Author ...``."""
    match = re.match(r"^(?:[->*•]\s+)*(?:\[1\]|1\.?(?=\s))\s*\S", block.strip())
    return bool(match) and _is_reference(block)


def _is_float(block: str) -> bool:
    """A table, a figure's text or a caption: material that typesetting may move anywhere."""
    text = block.lstrip()
    return bool(_CAPTION.match(text)) or text.startswith(("|", "<!-- Start of picture", "!["))


def _is_toc_block(block: str) -> bool:
    """Lines of a printed table of contents: most end in a page number."""
    lines = [ln.strip() for ln in block.replace("<br>", "\n").splitlines() if ln.strip()]
    if not lines:
        return False
    plain = [re.sub(r"[#*_`|>]+", " ", ln).strip() for ln in lines]
    hits = sum(bool(_TOC_LINE.match(p)) and len(p) < 170 for p in plain)
    return hits >= max(1, 0.6 * len(plain))


def _is_front_line(block: str) -> bool:
    """Keywords, PACS/MSC codes, dates, addresses, footnote marks: front matter, not prose."""
    text = block.strip()
    if _FRONT_LINE.match(text):
        return True
    plain = _plain_first_line(text)
    return ("@" in text and len(text) < 300) or (len(plain) < 40 and not plain.endswith("."))


def _is_prose(block: str) -> bool:
    """A paragraph of running text: long enough, with sentences, not a list, table or caption."""
    text = block.strip()
    if len(text) < 200 or _is_float(text) or _heading_text(text) is not None or _is_front_line(text):
        return False
    return len(re.findall(r"[a-z]{2}[.!?](?:\s|$)", text)) >= 1


# --- locating boundaries --------------------------------------------------------------------------


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


@dataclass
class _Layout:
    """Facts about the block list that every boundary search shares."""

    blocks: list[_Block]
    headings: dict[int, str]  # block index -> heading text
    in_contents: set[int]  # blocks of a printed table of contents (or list of figures)


def _contents_region(blocks: Sequence[_Block], headings: dict[int, str]) -> set[int]:
    """Blocks of a printed table of contents: its title and the contents-like blocks after it."""
    region: set[int] = set()
    for i, text in headings.items():
        if not _CONTENTS_TITLE.match(text):
            continue
        region.add(i)
        j = i + 1
        while j < len(blocks):
            block = blocks[j].text
            if _is_toc_block(block) or (
                j in headings and j + 1 < len(blocks) and _is_toc_block(blocks[j + 1].text)
            ):
                region.add(j)
                j += 1
                continue
            if j in headings and _TOC_LINE.match(headings[j]):
                region.add(j)  # an entry the engine styled as a heading ("1 Introduction 3")
                j += 1
                continue
            break
    return region


def _find_heading(layout: _Layout, title: str, page: int, start: int = 0) -> int | None:
    """The block that prints an outline title, searched on the outline's page (1-based) first."""
    blocks = layout.blocks
    want = _fold(re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*|[IVX]+|[A-Z])\.?\s+", "", title)) or _fold(title)
    if not want:
        return None
    candidates = [i for i in range(start, len(blocks)) if blocks[i].page == page - 1]
    candidates += [i for i in range(start, len(blocks)) if blocks[i].page != page - 1]
    for i in candidates:
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if want in _fold(heading) and len(_fold(heading)) <= len(want) + 12:
            return i
    return None


def _opens_section(heading: str) -> bool:
    """A numbered section heading, or a short one such as "Introduction" (not a paper's title
    that merely starts with the word, "Introduction to tropical geometry")."""
    return bool(_SECTION_TITLE.match(heading)) and (
        bool(re.match(r"^(?:\d|[IVX]+[.\s])", heading)) or len(heading.split()) <= 3
    )


@dataclass(frozen=True)
class _Abstract:
    """Where the abstract ends, and its paragraph when the converter read it after the next heading."""

    end: int
    displaced: int | None = None


def _abstract_end(layout: _Layout, limit: int) -> _Abstract | None:
    """The abstract: its label (a heading, a bare line, or run into its paragraph) and paragraph.

    Searched on the first three pages, before any section heading.
    """
    blocks, headings = layout.blocks, layout.headings
    stop = min(limit, len(blocks))
    first_page = blocks[0].page if blocks else 0
    for i in range(stop):
        if blocks[i].page > first_page + 2:
            return None
        heading = headings.get(i)
        if heading is not None and i not in layout.in_contents and _opens_section(heading):
            return None
        text = blocks[i].text
        labelled = heading is not None and _ABSTRACT_LABEL.match(heading)
        bare = heading is None and _ABSTRACT_LABEL.match(text) and len(_plain_first_line(text)) <= 12
        if labelled or (bare and "\n" not in text.strip()):
            # "## Abstract" (or a bare "Abstract" line) then its paragraph: the next text block.
            j = i + 1
            while j < stop and j not in headings and _is_float(blocks[j].text):
                j += 1
            if j < stop and j not in headings:
                return _Abstract(j)
            # Two columns read out of order: "## Abstract", "## 1 Introduction", then the abstract.
            if (
                j < stop
                and _SECTION_TITLE.match(headings[j])
                and j + 1 < stop
                and _is_prose(blocks[j + 1].text)
            ):
                return _Abstract(i, displaced=j + 1)
            return _Abstract(i)
        if heading is None and _ABSTRACT_LABEL.match(text):
            return _Abstract(i)  # "Abstract. This is ..." or "**Abstract**—The success ..." in one block
    return None


def _first_section(layout: _Layout, start: int, end: int, after_abstract: bool) -> int | None:
    """The first heading in [start, end) that opens a section of the main text."""
    for i in range(start, end):
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if _FRONT_TITLE.match(heading) or _FRONT_LINE.match(heading) or _REFS_TITLE.match(heading):
            continue
        if _STATEMENT_TITLE.match(heading):
            continue  # acknowledgments and the like close a paper; they never open its main text
        if _SECTION_TITLE.match(heading):
            return i
        if after_abstract and len(heading) < 120:
            return i  # any heading after the abstract ("Background", "Results", "Method")
    return None


def _body_start(layout: _Layout, toc: Sequence[TocEntry], end: int) -> tuple[int, int | None]:
    """Where the main text starts, and a displaced abstract paragraph (front) if there is one.

    ``end`` bounds the search (the reference list, when known).
    """
    found = _abstract_end(layout, end)
    abstract = found.end if found is not None else None
    displaced = found.displaced if found is not None else None
    search_from = abstract + 1 if abstract is not None else 0
    section = _first_section(layout, search_from, end, abstract is not None)
    if section is None:
        from_outline = _outline_body_start(layout, toc)
        if from_outline is not None and search_from <= from_outline < end:
            section = from_outline
    if abstract is None:
        if section is not None:
            return section, None
        # No abstract label and no section heading (a letter): its first paragraph is the
        # abstract, the next one opens the body.
        prose = [i for i in range(end) if i not in layout.in_contents and _is_prose(layout.blocks[i].text)]
        return (prose[1] if len(prose) > 1 else 0), None
    # Prose right after the abstract (and its keyword / PACS / MSC lines), before a first heading
    # that is not an introduction: an introduction printed without a heading (letters, AMS papers).
    # Another front heading first (a second abstract, contents, a preface) means there is none.
    stop = section if section is not None else end
    more_front = any(
        _FRONT_TITLE.match(h) and not _STATEMENT_TITLE.match(h)
        for i, h in layout.headings.items()
        if abstract < i < stop
    )  # a second abstract, contents, a preface: what follows the abstract is still front matter
    if not more_front and (section is None or not _INTRO_TITLE.match(layout.headings[section])):
        for i in range(abstract + 1, stop):
            if i not in layout.in_contents and _is_prose(layout.blocks[i].text):
                return i, displaced
    return (section if section is not None else min(abstract + 1, len(layout.blocks))), displaced


def _outline_body_start(layout: _Layout, toc: Sequence[TocEntry]) -> int | None:
    """The body start the PDF outline gives: its first entry that is a section, found in the text."""
    for entry in toc:
        title = entry.title.strip()
        if _FRONT_TITLE.match(title) or _REFS_TITLE.match(title):
            continue
        # The paper's own title as the outline root (REVTeX + hyperref) is not a section.
        is_root_title = entry is toc[0] and len(toc) > 1 and entry.page == 1
        if is_root_title and entry.level == min(e.level for e in toc) and not _SECTION_TITLE.match(title):
            continue
        return _find_heading(layout, title, entry.page)
    return None


def _reference_run_start(layout: _Layout, start: int) -> int | None:
    """The first block opening a run of reference-shaped entries (a list printed without a title)."""
    blocks = layout.blocks
    for i in range(start, len(blocks)):
        if i in layout.in_contents or not _is_reference(blocks[i].text):
            continue
        numbered = _numbered_start(blocks[i].text)
        if not (numbered or _REF_NAMES.match(blocks[i].text.strip())):
            continue
        # A numbered list that starts at 1 needs two more entries; an unnumbered one, three of four.
        following = [b for b in blocks[i + 1 : i + 10] if not _is_float(b.text)][: 2 if numbered else 4]
        needed = 2 if numbered else 3
        if sum(_is_reference(b.text) for b in following) >= needed:
            return i
    return None


def _references_start(layout: _Layout, toc: Sequence[TocEntry], start: int) -> int | None:
    blocks = layout.blocks
    for i in range(start, len(blocks)):
        heading = layout.headings.get(i)
        if heading is not None and i not in layout.in_contents and _REFS_TITLE.match(heading):
            return i
    # An outline entry "References" with no printed heading (REVTeX): the list starts on that page.
    for entry in toc:
        if _REFS_TITLE.match(entry.title.strip()):
            for i in range(start, len(blocks)):
                if blocks[i].page >= entry.page - 1 and _numbered_start(blocks[i].text):
                    return i
    return _reference_run_start(layout, start)


def _appendix_start(layout: _Layout, start: int, limit: int) -> int | None:
    """The first appendix heading: one that says so, or the first lettered section after numbered ones.

    Many templates (ACL, NeurIPS, ICML) letter their appendices without the word ("A Alternative
    Prompts for ..."), and some print them before the references: a section lettered "A" (or
    "A.1") after sections numbered 1, 2, ... opens the appendix wherever it stands.
    """
    numbered = False
    for i in range(start, limit):
        heading = layout.headings.get(i)
        if heading is None or i in layout.in_contents:
            continue
        if _APPENDIX_TITLE.match(heading) or (numbered and _FIRST_LETTERED.match(heading)):
            return i
        numbered = numbered or bool(_NUMBERED_TITLE.match(heading))
    return None


def _join(blocks: Sequence[_Block]) -> str:
    return "\n\n".join(b.text for b in blocks).strip()


FRONT, BODY, REFERENCES, APPENDIX = "front", "body", "references", "appendix"


def _blocks_of(document: ConvertedDocument) -> list[_Block]:
    """The cleaned blocks in reading order; reference lists read as tables become list items."""
    blocks: list[_Block] = []
    for page, texts in enumerate(clean_pages(document.pages_md)):
        for text in texts:
            as_refs = _table_rows_as_references(text)
            if as_refs:
                blocks.extend(_Block(row, page) for row in as_refs)
            else:
                blocks.append(_Block(normalize_markdown_table(text) or text, page))
    return blocks


def split_document(document: ConvertedDocument) -> Sections:
    """Split a converted paper; see the module docstring for where each part ends."""
    blocks = _blocks_of(document)
    parts = _assign(blocks, document.toc)
    texts = {
        name: _join([b for b, part in zip(blocks, parts, strict=True) if part == name])
        for name in (FRONT, BODY, REFERENCES, APPENDIX)
    }
    return Sections(
        front=texts[FRONT], body=texts[BODY], references=texts[REFERENCES], appendix=texts[APPENDIX]
    )


def _assign(blocks: list[_Block], toc: Sequence[TocEntry]) -> list[str]:
    """The part of every block, by index: each block gets exactly one."""
    headings = {i: h for i, b in enumerate(blocks) if (h := _heading_text(b.text)) is not None}
    layout = _Layout(blocks, headings, _contents_region(blocks, headings))
    first_refs = _references_start(layout, toc, 0)
    start, displaced_abstract = _body_start(
        layout, toc, first_refs if first_refs is not None else len(blocks)
    )
    refs_start = _references_start(layout, toc, start + 1)
    limit = refs_start if refs_start is not None else len(blocks)
    appendix_start = _appendix_start(layout, start + 1, limit)

    parts = [FRONT] * len(blocks)
    for i in range(start, limit):
        parts[i] = APPENDIX if appendix_start is not None and i >= appendix_start else BODY
    if displaced_abstract is not None:
        parts[displaced_abstract] = FRONT
    if refs_start is None:
        return parts

    tail_start = _references_end(layout, refs_start)
    region = range(refs_start, tail_start)
    last_ref = max((k for k in region if _looks_like_reference_entry(blocks[k].text)), default=refs_start)
    if last_ref == refs_start and refs_start in headings:
        # A titled list none of whose entries we recognise (an unusual citation style): the title
        # is the evidence; the list runs to the next heading.
        last_ref = tail_start - 1
    displaced_to = APPENDIX if appendix_start is not None else BODY
    moved: set[int] = set()
    for k in range(refs_start + 1, last_ref + 1):
        if _is_float(blocks[k].text):
            parts[k] = BODY  # a figure or table that floated onto a page of the list
        elif _is_displaced_prose(blocks[k].text):
            moved.add(k)
        else:
            parts[k] = REFERENCES
    if _runs(sorted(moved)) >= _ANNOTATION_RUNS:
        # Prose between entries again and again: an annotated bibliography's comments, not column
        # text read out of order (that comes as one or two stretches). It stays with the entries.
        for k in moved:
            parts[k] = REFERENCES
        moved = set()
        while last_ref + 1 < tail_start and _is_displaced_prose(blocks[last_ref + 1].text):
            last_ref += 1  # the last entry's comment
            parts[last_ref] = REFERENCES
    for k in sorted(moved):  # a statement heading takes its paragraphs along
        if k in headings:
            j = k + 1
            while j <= last_ref and not _looks_like_entry(blocks[j].text):
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


def _looks_like_reference_entry(block: str) -> bool:
    return _is_reference(block) or bool(_REF_LEAD.match(block))


def _references_end(layout: _Layout, refs_start: int) -> int:
    """The first heading after the list that opens something else (not a repeat of the list's title)."""
    title = _fold(_DIGITS.sub("", layout.headings.get(refs_start, "")))
    for i in range(refs_start + 1, len(layout.blocks)):
        heading = layout.headings.get(i)
        if heading is None or _ACK_TITLE.match(heading):
            continue
        if title and _fold(_DIGITS.sub("", heading)) == title:
            continue  # a running head that repeats the list's title on each of its pages
        if _REFS_TITLE.match(heading) and not title:
            continue
        return i
    return len(layout.blocks)


def _assign_tail(layout: _Layout, tail: list[int], parts: list[str]) -> None:
    """After the list: statements and deferred floats join the body; the rest is appendix."""
    blocks, headings = layout.blocks, layout.headings
    k = 0
    # Statements printed right after the list (acknowledgments, limitations, ethics, ...), each with
    # its paragraphs, up to the first heading that is not a statement.
    while k < len(tail) and tail[k] in headings and _STATEMENT_TITLE.match(headings[tail[k]]):
        parts[tail[k]] = BODY
        k += 1
        while k < len(tail) and tail[k] not in headings:
            parts[tail[k]] = BODY
            k += 1
    # Tables and figures a journal style defers to the end (emulateapj), up to an appendix heading.
    if k < len(tail) and _is_float(blocks[tail[k]].text):
        while k < len(tail):
            heading = headings.get(tail[k])
            if heading is not None and (_APPENDIX_TITLE.match(heading) or _LETTERED_TITLE.match(heading)):
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
            table = None if _table_rows_as_references(block) else normalize_markdown_table(block)
            kept.update(_words(table or block))
    parts = _words("\n\n".join((sections.front, sections.body, sections.references, sections.appendix)))
    return kept - parts, parts - kept
