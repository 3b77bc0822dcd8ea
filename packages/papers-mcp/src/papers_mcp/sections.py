"""Split a converted paper into front matter, body, references and appendix.

Papers do not agree on structure, so the split looks for evidence in three places, most
reliable first: the PDF outline (``doc.get_toc()``, when the authors' LaTeX made one), headings
in the markdown, and content cues (a run of numbered reference entries such as ``[1] A. Author``
or ``1 D. C. Johnston, Adv. Phys. 59, 803 (2010)``) for REVTeX papers whose reference list
has no heading.

Decisions (documented in the package README, "Full-text extraction"):

- front: everything before the first section heading (title, authors, abstract; for an essay
  without an abstract, its opening paragraphs). A printed table of contents stays here.
- body: from that heading to the first appendix heading or the reference list, whichever comes
  first (REVTeX prints appendices *before* the references). Acknowledgments stay in the body.
- references: the reference list. Column text that the converter interleaved with the list
  (REVTeX balances the bibliography under both columns) goes back to the body.
- appendix: appendix sections before the references plus every section after them (lettered
  ``A.`` sections, "Appendix for ...", figure pages without an "Appendix" label such as
  "Attention Visualizations").
- tables and figures that a journal style defers to the end of the manuscript (emulateapj's
  TABLE 1 after the references), or that float onto a page of the reference list, are body
  material displaced by typesetting: they are appended to the body, so level "all" keeps them
  and the reference list stays clean. Acknowledgments printed after the list join the body too.

This module is pure text processing; it never imports PyMuPDF.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ConvertedDocument", "Sections", "TocEntry", "clean_pages", "split_document"]


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


# --- cleaning ---------------------------------------------------------------------------------

# The sideways stamp arXiv prints in the left margin: "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017",
# "arXiv:quant-ph/9508027v2 25 Jan 1996" (old ids have no [category]).
_ARXIV_STAMP = re.compile(
    r"arXiv:\s*(?:[a-z-]+(?:\.[A-Z]{2})?/\d{7}|\d{4}\.\d{4,5})v\d+\s*(?:\[[^\]\n]{1,40}\]\s*)?"
    r"\d{1,2}\s+[A-Z][a-z]{2}\s+\d{4}"
)
_BLANK_SPLIT = re.compile(r"\n[ \t]*\n+")
_MD_NOISE = re.compile(r"[#*_`>|\-\s]+")
_DIGITS = re.compile(r"\d+")
_PAGE_NUMBER = re.compile(r"^[#*_\s]*(?:page\s+)?\d{1,4}[*_\s]*$", re.IGNORECASE)
_EDGE_BLOCKS = 3  # running headers/footers live in the first and last few blocks of a page


# TeX fonts without precomposed glyphs print an accent as a spacing character *before* its letter
# ("L´opez", "Teˇsanovi´c"); NFKC alone would leave "L ́opez". Rejoin them as combining marks first.
_SPACING_ACCENTS = {"´": "\u0301", "ˇ": "\u030c", "¨": "\u0308", "˜": "\u0303"}
_ACCENT_BEFORE_LETTER = re.compile("([´ˇ¨˜])([A-Za-z])")


# pymupdf4llm puts a space after every emphasis span: "**B** idirectional", "**59** , 803".
_BOLD_INITIAL_SPACE = re.compile(r"(\*\*[A-Za-z]\*\*) (?=[a-z])")
_SPACE_BEFORE_PUNCT = re.compile(r"(\*\*|(?<=\w)_) (?=[,.;:)])")


def _normalize_text(text: str) -> str:
    """Fold ligatures (ﬁ, ﬂ, ﬀ, ﬃ) and detached accents into plain letters; drop the arXiv stamp."""
    text = _ACCENT_BEFORE_LETTER.sub(lambda m: m.group(2) + _SPACING_ACCENTS[m.group(1)], text)
    text = unicodedata.normalize("NFKC", text)
    text = _BOLD_INITIAL_SPACE.sub(r"\1", text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return _ARXIV_STAMP.sub("", text)


def _edge_key(block: str) -> str:
    """A block's identity as a running header: no markup, no digits (page numbers change)."""
    return _DIGITS.sub("", _MD_NOISE.sub(" ", block)).strip().lower()


def _page_blocks(page_md: str) -> list[str]:
    return [b.strip() for b in _BLANK_SPLIT.split(page_md) if b.strip()]


def clean_pages(pages_md: Sequence[str]) -> list[list[str]]:
    """Normalise each page and drop page numbers and running headers/footers.

    A running header is a short block at the top or bottom of a page whose text (digits
    ignored) recurs at the edge of several pages. Page 1 keeps such blocks except bare page
    numbers, because a paper's title is often also its running header.
    """
    pages = [_page_blocks(_normalize_text(md)) for md in pages_md]
    counts: Counter[str] = Counter()
    for blocks in pages[1:]:
        keys = {_edge_key(b) for b in _edges(blocks) if len(b) < 200}
        counts.update(k for k in keys if k)
    threshold = max(2, (len(pages) - 1) // 4)
    repeated = {key for key, n in counts.items() if n >= threshold}
    cleaned: list[list[str]] = []
    for index, blocks in enumerate(pages):
        edge_ids = {id(b) for b in _edges(blocks)}
        kept = []
        for block in blocks:
            if id(block) in edge_ids and (
                _PAGE_NUMBER.match(block) or (index > 0 and len(block) < 200 and _edge_key(block) in repeated)
            ):
                continue
            kept.append(block)
        cleaned.append(kept)
    return cleaned


def _edges(blocks: list[str]) -> list[str]:
    if len(blocks) <= 2 * _EDGE_BLOCKS:
        return list(blocks)
    return blocks[:_EDGE_BLOCKS] + blocks[-_EDGE_BLOCKS:]


# --- classifying blocks ---------------------------------------------------------------------------

_HEADING = re.compile(r"^#{1,6}\s+\S")
_BOLD_LINE = re.compile(r"^\*\*[^*\n]{2,120}\*\*\s*$")
_TAGS = re.compile(r"<[^>]{1,40}>")


def _heading_text(block: str) -> str | None:
    """The plain text of a heading block, or None when the block is not a heading."""
    first = block.split("\n", 1)[0]
    if "\n" in block.strip() and not _HEADING.match(first):
        return None
    if _HEADING.match(first) or _BOLD_LINE.match(first):
        text = _TAGS.sub("", first)
        text = re.sub(r"[#*_`]+", " ", text)
        return " ".join(text.split())
    if _REFS_TITLE.match(first.strip()):
        return first.strip()  # a "References" line the engine did not style as a heading
    return None


_REFS_TITLE = re.compile(
    r"^(?:[0-9IVX]+\.?\s+)?(?:references?|bibliography|literature cited|references and notes|works cited)\.?$",
    re.IGNORECASE,
)
_APPENDIX_TITLE = re.compile(
    r"^(?:[0-9IVX]+\.?\s+)?(?:appendix|appendices|supplementary material)\b", re.IGNORECASE
)
_LETTERED_TITLE = re.compile(r"^[A-H](?:\.\d+)*\.?\s+[A-Z]")
_ACK_TITLE = re.compile(r"^(?:[0-9IVX]+\.?\s+)?acknowledge?ments?\b", re.IGNORECASE)
_FRONT_TITLE = re.compile(r"^(?:abstract|contents|table of contents|keywords?)\b", re.IGNORECASE)
_SECTION_TITLE = re.compile(
    r"^(?:(?:\d{1,2}|[IVX]{1,5})(?:\.|\s)\s*\S|introduction\b|background\b|overview\b|motivation\b|preliminaries\b)",
    re.IGNORECASE,
)
_CAPTION = re.compile(r"^[*_\s]*(?:table|fig\.?|figure)\s*[0-9IVX]+[*_]*\s*(?:[.:]|\n|$)", re.IGNORECASE)

_YEAR = re.compile(r"(?:\(|\b)(?:1[89]\d\d|20[0-4]\d)[a-z]?\b")
_REF_LEAD = re.compile(r"^(?:[-*•]\s+)?(?:\[[^\]\s]{1,12}\]|\d{1,3}\.?(?=\s))\s*")
_REF_NAMES = re.compile(
    r"^(?:[-*•]\s+)?(?:[A-Z]\.\s?(?:[A-Z]\.\s?)*(?:[A-Z][\w'´`¨ˇ-]+)"  # D. C. Johnston / L. M. Adleman
    r"|[A-Z][\w'´`¨ˇ-]+,\s+(?:[A-Z]\.|[A-Z][a-z]+)"  # Agol, E. / Bishop, Christopher
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
        rest = text[lead.end() :]
        return bool(rest[:1].isupper() or rest[:1].isdigit() or rest[:1] in "\"“'(") and (
            has_year or has_venue
        )
    return bool(_REF_NAMES.match(text)) and has_year


_TABLE_ROW_SEPARATOR = re.compile(r"^\|?\s*:?-{3,}")


def _table_rows_as_references(block: str) -> list[str] | None:
    """A markdown table that is really a reference list (label | entry), as list items; else None.

    The layout engine sometimes reads a bibliography with hanging labels ("[EW13]  Armin ...")
    as a two-column table.
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
    if len(rows) >= 3 and sum(bool(_REF_LEAD.match(r)) or _is_reference(r) for r in rows) >= 0.6 * len(rows):
        return rows
    return None


_BIBLIO_CUE = re.compile(
    r"\b(?:et al\.|pp\.|vol\.|Proc\.|Proceedings|Press|Journal|Conference|Trans\.|arXiv|doi)|\(\d{4}\)"
)


def _is_displaced_prose(block: str) -> bool:
    """Body text the converter placed among the references: a paragraph with no citation cues."""
    text = block.strip()
    heading = _heading_text(text)
    if heading is not None:
        return bool(_ACK_TITLE.match(heading))
    return (
        len(text) >= 120
        and text[:1] not in "-*•|"
        and not _REF_LEAD.match(text)
        and not _YEAR.search(text)
        and not _BIBLIO_CUE.search(text)
    )


def _looks_like_entry(block: str) -> bool:
    """A reference entry or a fragment of one (a list item, a labelled line)."""
    text = block.lstrip()
    return _is_reference(text) or bool(_REF_LEAD.match(text)) or text[:1] in "-*•|"


def _numbered_start(block: str) -> bool:
    """The first entry of a numbered list: ``[1] ...`` or ``1 A. Author ...``."""
    match = re.match(r"^(?:[-*•]\s+)?(?:\[1\]|1\.?(?=\s))\s*\S", block.strip())
    return bool(match) and _is_reference(block)


# --- locating boundaries --------------------------------------------------------------------------


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", text.lower())


def _find_heading(blocks: Sequence[_Block], title: str, page: int, start: int = 0) -> int | None:
    """The block that prints an outline title, searched on the outline's page (1-based) first."""
    want = _fold(re.sub(r"^\s*(?:[0-9]+(?:\.[0-9]+)*|[IVX]+|[A-Z])\.?\s+", "", title)) or _fold(title)
    if not want:
        return None
    candidates = [i for i in range(start, len(blocks)) if blocks[i].page == page - 1]
    candidates += [i for i in range(start, len(blocks)) if blocks[i].page != page - 1]
    for i in candidates:
        heading = _heading_text(blocks[i].text)
        if heading is not None and want in _fold(heading) and len(_fold(heading)) <= len(want) + 12:
            return i
    for i in candidates[: sum(1 for c in candidates if blocks[c].page == page - 1)]:
        first_line = blocks[i].text.split("\n", 1)[0]
        if (
            _fold(first_line).startswith(want[: max(8, len(want))])
            and len(_fold(first_line)) <= len(want) + 12
        ):
            return i
    return None


def _body_start(blocks: Sequence[_Block], toc: Sequence[TocEntry]) -> int:
    for entry in toc:
        title = entry.title.strip()
        if _FRONT_TITLE.match(title) or _REFS_TITLE.match(title):
            continue
        # The paper's own title as the outline root (REVTeX + hyperref) is not a section.
        is_root_title = entry is toc[0] and len(toc) > 1 and entry.page == 1
        if is_root_title and entry.level == min(e.level for e in toc) and not _SECTION_TITLE.match(title):
            continue
        found = _find_heading(blocks, title, entry.page)
        if found is not None:
            return found
        break
    abstract_seen = None
    for i, block in enumerate(blocks):
        heading = _heading_text(block.text)
        if heading is None:
            continue
        if _FRONT_TITLE.match(heading):
            abstract_seen = i
            continue
        if _SECTION_TITLE.match(heading) and not _FRONT_TITLE.match(heading):
            return i
    if abstract_seen is not None:
        for i in range(abstract_seen + 2, len(blocks)):
            if _heading_text(blocks[i].text) is not None:
                return i
    return 0


def _references_start(blocks: Sequence[_Block], toc: Sequence[TocEntry], start: int) -> int | None:
    for i in range(start, len(blocks)):
        heading = _heading_text(blocks[i].text)
        if heading is not None and _REFS_TITLE.match(heading):
            return i
    # An outline entry "References" with no printed heading (REVTeX): the list starts on that page.
    for entry in toc:
        if _REFS_TITLE.match(entry.title.strip()):
            for i in range(start, len(blocks)):
                if blocks[i].page >= entry.page - 1 and _numbered_start(blocks[i].text):
                    return i
    # Content cue: a numbered list starting at 1 that continues with more reference entries.
    for i in range(start, len(blocks)):
        if _numbered_start(blocks[i].text):
            following = [b for b in blocks[i + 1 : i + 8] if _is_reference(b.text)]
            if len(following) >= 2:
                return i
    return None


def _is_after_refs_heading(heading: str) -> bool:
    """A heading that ends the reference list: anything but acknowledgments."""
    return not _ACK_TITLE.match(heading)


def _join(blocks: Sequence[_Block]) -> str:
    return "\n\n".join(b.text for b in blocks).strip()


def split_document(document: ConvertedDocument) -> Sections:
    """Split a converted paper; see the module docstring for where each part ends."""
    pages = clean_pages(document.pages_md)
    blocks: list[_Block] = []
    for page, texts in enumerate(pages):
        for text in texts:
            as_refs = _table_rows_as_references(text)
            if as_refs:
                blocks.extend(_Block(row, page) for row in as_refs)
            else:
                blocks.append(_Block(text, page))
    toc = document.toc
    start = _body_start(blocks, toc)
    refs_start = _references_start(blocks, toc, start + 1)
    limit = refs_start if refs_start is not None else len(blocks)

    appendix_start = None
    for i in range(start + 1, limit):
        heading = _heading_text(blocks[i].text)
        if heading is not None and _APPENDIX_TITLE.match(heading):
            appendix_start = i
            break

    front = blocks[:start]
    body = list(blocks[start : appendix_start if appendix_start is not None else limit])
    appendix = list(blocks[appendix_start:limit]) if appendix_start is not None else []
    references: list[_Block] = []
    if refs_start is not None:
        tail_start = len(blocks)
        for i in range(refs_start + 1, len(blocks)):
            heading = _heading_text(blocks[i].text)
            if heading is not None and _is_after_refs_heading(heading):
                tail_start = i
                break
        region = blocks[refs_start:tail_start]
        last_ref = max(
            (k for k, b in enumerate(region) if _is_reference(b.text) or _REF_LEAD.match(b.text)), default=0
        )
        # Within the list: figures/tables floated onto its pages go to the body, and so does column
        # text the engine read out of order; everything after the last entry is the tail.
        floated = {k for k in range(1, last_ref + 1) if _is_float(region[k].text)}
        moved = {
            k for k in range(1, last_ref + 1) if k not in floated and _is_displaced_prose(region[k].text)
        }
        for k in sorted(moved):  # an acknowledgments heading takes its paragraphs along
            if _heading_text(region[k].text) is None:
                continue
            while k + 1 <= last_ref and not _looks_like_entry(region[k + 1].text):
                k += 1
                moved.add(k)
        references = [region[k] for k in range(last_ref + 1) if k not in moved | floated]
        displaced = [region[k] for k in sorted(moved)]
        if appendix_start is None:
            body += displaced
        else:
            appendix += displaced
        body += [region[k] for k in sorted(floated)]
        tail = list(region[last_ref + 1 :]) + list(blocks[tail_start:])
        thanks, tail = _leading_acknowledgments(tail)
        floats, rest = _split_floats(tail)
        body += thanks + floats
        appendix += rest
    return Sections(
        front=_join(front), body=_join(body), references=_join(references), appendix=_join(appendix)
    )


def _leading_acknowledgments(tail: Sequence[_Block]) -> tuple[list[_Block], list[_Block]]:
    """Acknowledgments printed after the reference list stay with the body, like those before it."""
    heading = _heading_text(tail[0].text) if tail else None
    if heading is None or not _ACK_TITLE.match(heading):
        return [], list(tail)
    end = next((i for i in range(1, len(tail)) if _heading_text(tail[i].text) is not None), len(tail))
    return list(tail[:end]), list(tail[end:])


def _is_float(block: str) -> bool:
    """A table, a figure's text or a caption: material that typesetting may move anywhere."""
    text = block.lstrip()
    return bool(_CAPTION.match(text)) or text.startswith(("|", "<!-- Start of picture", "!["))


def _split_floats(tail: Sequence[_Block]) -> tuple[list[_Block], list[_Block]]:
    """Deferred tables/figures at the start of the post-reference material belong to the body."""
    if not tail or not _is_float(tail[0].text):
        return [], list(tail)
    for i, block in enumerate(tail):
        heading = _heading_text(block.text)
        if heading is not None and (_APPENDIX_TITLE.match(heading) or _LETTERED_TITLE.match(heading)):
            return list(tail[:i]), list(tail[i:])
    return list(tail), []
