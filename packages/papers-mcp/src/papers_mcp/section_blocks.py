"""What one block of a converted paper is: a heading (and which one), a reference entry, a float, a
front-matter line, a line of a printed table of contents, prose.

Each classifier reads one markdown block (a paragraph) and nothing around it; the title patterns
(references, appendix, statements, front matter, sections) are shared with the boundary search in
``section_bounds``. Pure text processing.
"""

from __future__ import annotations

import re

__all__ = [
    "ABSTRACT_LABEL",
    "ACK_TITLE",
    "APPENDIX_TITLE",
    "CONTENTS_TITLE",
    "FIRST_LETTERED",
    "FRONT_LINE",
    "FRONT_TITLE",
    "INTRO_TITLE",
    "LETTERED_TITLE",
    "NUMBERED_TITLE",
    "REFS_TITLE",
    "REF_NAMES",
    "SECTION_TITLE",
    "STATEMENT_TITLE",
    "TOC_LINE",
    "heading_text",
    "is_displaced_prose",
    "is_float",
    "is_prose",
    "is_reference",
    "is_toc_block",
    "looks_like_entry",
    "looks_like_reference_entry",
    "numbered_start",
    "plain_first_line",
    "table_rows_as_references",
]

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
REFS_TITLE = re.compile(rf"^(?:{_NUMBERING})?(?:{_REFS_WORDS})\s*[.:]?$", re.IGNORECASE)
APPENDIX_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:appendix|appendices|supplementary|supplemental|supporting information|"
    r"online appendix|annex|ap[êe]ndice|anexo|anhang)\b",
    re.IGNORECASE,
)
LETTERED_TITLE = re.compile(r"^[A-H](?:\.\d+)*\.?\s+[A-Z]")
FIRST_LETTERED = re.compile(r"^A(?:\.1)?\.?\s+[A-Z][a-z]")
NUMBERED_TITLE = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+[A-Z]")
# Statements that belong with the body wherever the template prints them (before or right after
# the reference list): they are the authors' own words about this work.
STATEMENT_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:acknowledge?ments?|acknowledge?ment of|funding|limitations?|"
    r"ethic(?:s|al)\b|broader impacts?|societal impacts?|impact statement|author contributions?|"
    r"contributions|data availability|code availability|data and code availability|"
    r"competing interests?|conflicts? of interests?|declaration of|credit author|reproducibility)",
    re.IGNORECASE,
)
ACK_TITLE = re.compile(rf"^(?:{_NUMBERING})?acknowledge?ments?\b", re.IGNORECASE)
ABSTRACT_LABEL = re.compile(r"^[#*_>\s]*(?:abstract|summary|résumé|resumo|resumen)\b", re.IGNORECASE)
# Lines printed between the abstract and the main text that are not prose of the paper.
FRONT_LINE = re.compile(
    r"^[#*_>\s-]*(?:keywords?|key\s*words|index terms|pacs(?: numbers?)?|msc|"
    r"(?:\d{4}\s+)?mathematics subject classification|ams subject|subject classification|"
    r"jel|ccs concepts|acm reference format|acm classification|categories and subject|"
    r"general terms|additional key words|doi|received|accepted|published|submitted|preprint|"
    r"draft|corresponding author|e-?mail|correspondence|†|‡|∗)",
    re.IGNORECASE,
)
FRONT_TITLE = re.compile(
    r"^(?:abstract|summary|r[ée]sum[ée]|resumo|resumen|zusammenfassung|keywords?|key words|index terms|"
    r"contents|table of contents|conte[úu]do|sum[áa]rio|[íi]ndice|inhaltsverzeichnis|table des mati[èe]res|"
    r"preface|foreword|dedication|acknowledge?ments?|agradecimentos|agradecimientos|remerciements|danksagung|"
    r"list of|lista de|figuras|tabelas|nomenclature|glossary|notation|abbreviations|acronyms|symbols)\b",
    re.IGNORECASE,
)
CONTENTS_TITLE = re.compile(
    r"^(?:contents|table of contents|conte[úu]do|sum[áa]rio|[íi]ndice|inhaltsverzeichnis|table des mati[èe]res|"
    r"list of (?:figures|tables|abbreviations|symbols|acronyms)|lista de (?:figuras|tabelas)|figuras|tabelas)\b",
    re.IGNORECASE,
)
INTRO_TITLE = re.compile(
    rf"^(?:{_NUMBERING})?(?:introduction|introdu[çc][ãa]o|introducci[óo]n|einleitung)\b", re.IGNORECASE
)
SECTION_TITLE = re.compile(
    r"^(?:(?:chapter\s+|cap[íi]tulo\s+)?(?:\d{1,2}|[IVX]{1,5})(?:\.|\s)\s*\S|introduction\b|background\b|"
    r"overview\b|motivation\b|preliminaries\b|introdu[çc][ãa]o\b|chapter\b|cap[íi]tulo\b)",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"^[*_\s]*(?:table|fig\.?|figure)\s*[0-9IVX]+[*_]*\s*(?:[.:]|\n|$)", re.IGNORECASE)
# A table-of-contents line: a title, optional dot leaders, a page number at the end.
TOC_LINE = re.compile(r"^.{2,160}?(?:[\s.·…]{2,}|\s)(?:\d{1,4}|[ivxlc]{1,6})\s*\|?$", re.IGNORECASE)


def plain_first_line(block: str) -> str:
    first = block.split("\n", 1)[0]
    text = _TAGS.sub("", first)
    text = re.sub(r"[#*_`]+", " ", text)
    return " ".join(text.split()).strip(" —–-:")


def heading_text(block: str) -> str | None:
    """The plain text of a heading block, or None when the block is not a heading."""
    first = block.split("\n", 1)[0]
    if "\n" in block.strip() and not _HEADING.match(first):
        return None
    if _HEADING.match(first) or _BOLD_LINE.match(first):
        return plain_first_line(block)
    plain = plain_first_line(block)
    if REFS_TITLE.match(plain) or (APPENDIX_TITLE.match(plain) and len(plain) < 60 and plain.isupper()):
        return plain  # a "References" / "APPENDIX A" line the engine did not style as a heading
    return None


_YEAR = re.compile(r"(?:\(|\b)(?:1[89]\d\d|20[0-4]\d)[a-z]?\b")
# "[1]", "[ABTZ13]", "[Bahdanau et al.2015]" or "12." / "12 " before an entry (list and quote marks aside).
_REF_LEAD = re.compile(r"^(?:[->*•]\s+)*(?:\[[^\]\n]{1,40}\](?!\()|\d{1,3}\.?(?=\s))\s*")
REF_NAMES = re.compile(
    r"^(?:[->*•]\s+)*(?:[A-Z]\.\s?(?:[A-Z]\.\s?)*(?:[A-Z][\w'´`¨ˇ-]+)"  # D. C. Johnston / L. M. Adleman
    r"|[A-Z][\w'´`¨ˇ-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+)"  # Agol, E. / Bishop, Christopher
    r"|[A-Z][\w'´`¨ˇ-]+(?:\s+[A-Z]\.)+(?:\s?[A-Z]\.)*,"  # Adamopoulos G., / Allamandola L. J., (MNRAS)
    r"|[A-Z][a-z]+\s+(?:[A-Z][a-z]*\.?\s+)*[A-Z][\w'´`¨ˇ-]+,)"  # Alan Akbik, Duncan ...
)
_REF_VENUE = re.compile(
    r"\b(?:et al\.|pp\.|vol\.|Phys\.|Proc\.|Proceedings|Journal|J\.|Rev\.|Lett\.|arXiv|doi|Press|"
    r"Conference|Trans\.|ApJ|A&A|MNRAS|Nature|Science|In\s+[A-Z])"
)


def is_reference(block: str) -> bool:
    """Does this block read like one (or a few) reference entries?"""
    text = block.strip()
    if len(text) > 1500 or heading_text(text) is not None:
        return False
    lead = _REF_LEAD.match(text)
    has_year = bool(_YEAR.search(text))
    has_venue = bool(_REF_VENUE.search(text))
    if lead:
        rest = text[lead.end() :].lstrip("*_")
        return bool(rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in "\"“'(") and (
            has_year or has_venue
        )
    return bool(REF_NAMES.match(text)) and has_year


_TABLE_ROW_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}")


def table_rows_as_references(block: str) -> list[str] | None:
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
    return is_reference(row) or (bool(_REF_LEAD.match(row)) and len(_ALPHA_WORD.findall(row)) >= 3)


_BIBLIO_CUE = re.compile(
    r"\b(?:et al\.|pp\.|vol\.|Proc\.|Proceedings|Press|Journal|Conference|Trans\.|arXiv|doi)|\(\d{4}\)"
)


def is_displaced_prose(block: str) -> bool:
    """Body text the converter placed among the references: a paragraph with no citation cues."""
    text = block.strip()
    heading = heading_text(text)
    if heading is not None:
        return bool(STATEMENT_TITLE.match(heading))
    return (
        len(text) >= 120
        and text[:1] not in "-*•|>"
        and not _REF_LEAD.match(text)
        and not _YEAR.search(text)
        and not _BIBLIO_CUE.search(text)
    )


def looks_like_entry(block: str) -> bool:
    """A reference entry or a fragment of one (a list item, a labelled line)."""
    text = block.lstrip()
    return is_reference(text) or bool(_REF_LEAD.match(text)) or text[:1] in "-*•|>"


def numbered_start(block: str) -> bool:
    """The first entry of a numbered list: ``[1] ...`` or ``1 A. Author ...``."""
    match = re.match(r"^(?:[->*•]\s+)*(?:\[1\]|1\.?(?=\s))\s*\S", block.strip())
    return bool(match) and is_reference(block)


def is_float(block: str) -> bool:
    """A table, a figure's text or a caption: material that typesetting may move anywhere."""
    text = block.lstrip()
    return bool(_CAPTION.match(text)) or text.startswith(("|", "<!-- Start of picture", "!["))


def is_toc_block(block: str) -> bool:
    """Lines of a printed table of contents: most end in a page number."""
    lines = [ln.strip() for ln in block.replace("<br>", "\n").splitlines() if ln.strip()]
    if not lines:
        return False
    plain = [re.sub(r"[#*_`|>]+", " ", ln).strip() for ln in lines]
    hits = sum(bool(TOC_LINE.match(p)) and len(p) < 170 for p in plain)
    return hits >= max(1, 0.6 * len(plain))


def _is_front_line(block: str) -> bool:
    """Keywords, PACS/MSC codes, dates, addresses, footnote marks: front matter, not prose."""
    text = block.strip()
    if FRONT_LINE.match(text):
        return True
    plain = plain_first_line(text)
    return ("@" in text and len(text) < 300) or (len(plain) < 40 and not plain.endswith("."))


def is_prose(block: str) -> bool:
    """A paragraph of running text: long enough, with sentences, not a list, table or caption."""
    text = block.strip()
    if len(text) < 200 or is_float(text) or heading_text(text) is not None or _is_front_line(text):
        return False
    return len(re.findall(r"[a-z]{2}[.!?](?:\s|$)", text)) >= 1


def looks_like_reference_entry(block: str) -> bool:
    return is_reference(block) or bool(_REF_LEAD.match(block))
