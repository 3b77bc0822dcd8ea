"""The text the model reads: the "Available Papers:" block and each query-paper level, in pages.

A long answer is cut into pages under a token budget (an agent client caps tool output,
Claude Code at about 25k tokens). Cuts fall on a section heading when one is near, else on a
paragraph boundary; every page says which page it is and how to get the next one, so nothing
is silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from mcp_shared.words import name_particles

from .descriptions import RESULT_SEPARATOR, RESULTS_HEADER
from .fulltext import PaperText
from .levels import LEVEL_PARTS, Level
from .metadata import PaperMeta

__all__ = [
    "CHARS_PER_TOKEN",
    "Level",
    "authors_short",
    "brief",
    "paginate",
    "render_page",
    "render_paper",
    "render_results",
]


# English prose runs about 4 characters per token; markdown with maths and tables runs
# denser, so budget conservatively.
CHARS_PER_TOKEN = 3.2
_BRIEF_CHARS = 300
_HEADING = re.compile(r"^#{1,6} \S")


def na(value: str | None) -> str:
    """A missing field is shown as N/A, never omitted or 'None'."""
    text = " ".join((value or "").split())
    return text or "N/A"


def surname(name: str) -> str:
    """'Aidan N. Gomez' -> 'Gomez'; 'Adrian Del Maestro' -> 'Del Maestro'."""
    parts = name.split()
    if len(parts) <= 1:
        return name.strip()
    start = len(parts) - 1
    while start > 1 and parts[start - 1].lower() in name_particles():
        start -= 1
    return " ".join(parts[start:])


def authors_short(names: Sequence[str]) -> str:
    """Seed 003's form: 'Vaswani, Shazeer, Parmar, et al.' (all surnames when three or fewer)."""
    if not names:
        return "N/A"
    shown = [surname(n) for n in names[:3]]
    return ", ".join(shown) + (", et al." if len(names) > 3 else "")


def brief(abstract: str, limit: int = _BRIEF_CHARS) -> str:
    """The abstract's opening, cut at a word boundary, as in the seed's example."""
    text = " ".join(abstract.split())
    if not text:
        return "N/A"
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0].rstrip(",;:.")
    return cut + "..."


def journal_doi(meta: PaperMeta) -> str:
    parts = [p for p in (meta.journal_ref, f"DOI: {meta.doi}" if meta.doi else None) if p]
    return na("; ".join(parts))


def render_results(papers: Sequence[PaperMeta], note: str | None = None) -> str:
    """Seed 003's result block: header and legend, then one '----------'-separated entry per paper."""
    blocks = [RESULTS_HEADER]
    for paper in papers:
        blocks.append(
            "\n".join(
                [
                    f"- Title: {na(paper.title)}",
                    f"- Arxiv ID: arxiv:{paper.arxiv_id.base}",
                    f"- Authors: {authors_short(paper.authors)}",
                    f"- Year: {paper.year}",
                    f"- Category: {na(paper.primary_category)}",
                    f"- Comment: {na(paper.comment)}",
                    f"- Journal/DOI: {journal_doi(paper)}",
                    f"- Abstract: {brief(paper.abstract)}",
                ]
            )
        )
    text = f"\n\n{RESULT_SEPARATOR}\n\n".join(blocks)
    return f"{note}\n\n{text}" if note else text


def paper_header(meta: PaperMeta, level: Level, source: str | None = None, version: str | None = None) -> str:
    """Who and what, naming the exact version the answer was built from and, for full text, its source.

    ``version`` is the version line (``versions.VersionNotes.line``): which version, and the latest known.
    """
    published = meta.published[:10] or "N/A"
    updated = meta.updated[:10]
    dates = published if not updated or updated == published else f"{published} (this version: {updated})"
    return "\n".join(
        [
            f"# {na(meta.title)}",
            "",
            f"- Arxiv ID: arxiv:{meta.id}",
            f"- Authors: {na(', '.join(meta.authors))}",
            f"- Published: {dates}",
            f"- Category: {na(meta.primary_category)}",
            f"- Comment: {na(meta.comment)}",
            f"- Journal/DOI: {journal_doi(meta)}",
            *([f"- Source: {source}"] if source else []),
            *([version] if version else []),
            f"- Level: {level}",
        ]
    )


def _abstract_section(meta: PaperMeta, text: PaperText | None) -> str:
    abstract = meta.abstract.strip()
    if not abstract and text is not None and text.front.strip():
        return f"## Front matter (from the PDF; arXiv lists no abstract)\n\n{text.front.strip()}"
    return f"## Abstract\n\n{abstract or 'N/A (arXiv lists no abstract for this paper)'}"


def _titled(title: str, part: str) -> str:
    """Put a heading over a part unless the paper's own first heading already names it."""
    first = part.split("\n", 1)[0]
    if first.startswith("#") and title.lower() in first.lower():
        return part
    return f"## {title}\n\n{part}"


def render_paper(meta: PaperMeta, level: Level, text: PaperText | None) -> str:
    """The whole answer for ``level`` before paging; ``text`` is needed for every level but abstract.

    Which parts a level shows, in this order, is ``levels.LEVEL_PARTS``.
    """
    shows = LEVEL_PARTS[level]
    parts = [_abstract_section(meta, text)] if "abstract" in shows else []
    if level != "abstract":
        if text is None:
            raise ValueError(f"level {level!r} needs the full text")
        if "front" in shows and meta.abstract.strip() and text.front.strip():
            # "all" is every part: the paper's own front matter too (title, authors, keywords, a
            # printed contents list), which the arXiv abstract above does not replace.
            parts.append(f"## Front matter\n\n{text.front.strip()}")
        if "body" in shows:
            parts.append(text.body.strip())
        if "references" in shows:
            parts.append(
                _titled("References", text.references.strip() or "(This paper has no reference list.)")
            )
        if "appendix" in shows and text.appendix.strip():
            parts.append(_titled("Appendix", text.appendix.strip()))
        elif level == "appendix":
            parts.append(
                f"This paper has no appendix: its {f'{text.pages}-page ' if text.pages else ''}full text "
                f"({text.source_label}) contains no appendix sections. "
                'Use level "body" for the main text.'
            )
    return "\n\n".join(p for p in parts if p)


def _split_oversized(block: str, limit: int) -> list[str]:
    """A block longer than a page: cut at line ends, then sentence ends, then anywhere."""
    pieces: list[str] = []
    current = ""
    units = block.split("\n")
    for unit in units:
        candidate = f"{current}\n{unit}" if current else unit
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            pieces.append(current)
        while len(unit) > limit:
            cut = max(unit.rfind(". ", 0, limit), unit.rfind(" ", 0, limit))
            cut = cut + 1 if cut > limit // 2 else limit
            pieces.append(unit[:cut].rstrip())
            unit = unit[cut:].lstrip()
        current = unit
    if current:
        pieces.append(current)
    return pieces


def paginate(document: str, max_chars: int) -> list[str]:
    """Cut ``document`` into pages of at most ``max_chars``, at headings or paragraph boundaries."""
    blocks: list[str] = []
    for block in re.split(r"\n{2,}", document.strip()):
        blocks.extend(_split_oversized(block, max_chars) if len(block) > max_chars else [block])
    pages: list[list[str]] = [[]]
    size = 0
    for block in blocks:
        extra = len(block) + (2 if pages[-1] else 0)
        if pages[-1] and size + extra > max_chars:
            current = pages[-1]
            # Prefer to start the next page at the last heading in the back half of this one.
            heading_at = max((i for i, b in enumerate(current) if i > 0 and _HEADING.match(b)), default=None)
            carried: list[str] = []
            if heading_at is not None:
                before = sum(len(b) + 2 for b in current[:heading_at])
                if before >= max_chars // 2:
                    carried = current[heading_at:]
                    del current[heading_at:]
            carried_size = sum(len(b) + 2 for b in carried)
            if carried and carried_size + extra > max_chars:
                current.extend(carried)  # the section would not fit anyway: cut at the paragraph
                carried, carried_size = [], 0
            pages.append(carried)
            size = carried_size
            extra = len(block) + (2 if carried else 0)
        pages[-1].append(block)
        size += extra
    return ["\n\n".join(p) for p in pages if p] or [""]


def render_page(
    header: str,
    pages: Sequence[str],
    page: int,
    arxiv_id: str,
    level: Level,
    max_tokens: int,
    extra_args: str = "",
) -> str:
    """One page of an answer, with a footer that says exactly how to get the rest.

    ``extra_args`` (e.g. ``, section="3.2"``) goes into that call before ``page``.
    """
    body = pages[page - 1]
    text = f"{header}\n\n{body}" if page == 1 else f"{header}\n- Page: {page} of {len(pages)}\n\n{body}"
    if len(pages) == 1:
        return text
    if page < len(pages):
        footer = (
            f"[Page {page} of {len(pages)}. The answer was cut at a section or paragraph boundary to stay under "
            f"about {max_tokens} tokens; nothing was left out. For the rest, call query-paper with "
            f'arxivID="arxiv:{arxiv_id}", level="{level}"{extra_args}, page={page + 1}.]'
        )
    else:
        footer = f"[Page {page} of {len(pages)}: the last page of this answer.]"
    return f"{text}\n\n---\n{footer}"
