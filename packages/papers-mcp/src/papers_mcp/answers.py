"""The text and the structured content of query-paper's outline, passage and section answers.

render.py draws the seed's answers (results, levels, pages); this module draws what issue 12
added on top, in the same markdown style: the outline that ends the ``abstract`` level, the
passages a ``query`` finds, and the header line of a ``section`` read. Every pointer it prints
is an exact query-paper call, so the model can act on it without guessing argument syntax.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .outline import Outline, Section
from .passages import Passage
from .results import PassageEntry, ReadCall, SectionEntry

__all__ = [
    "call_text",
    "outline_block",
    "passage_entries",
    "passages_block",
    "read_call",
    "section_entries",
    "section_entry",
]

_PART_NAMES = {"body": "Body", "references": "References", "appendix": "Appendix"}


def read_call(arxiv_text: str, selector: str, part: str = "") -> ReadCall:
    """The arguments that read a passage's whole section (the abstract is a level, not a section)."""
    if part == "abstract" or not selector:
        return ReadCall(
            arxivID=f"arxiv:{arxiv_text}", level=part if part in ("abstract", "appendix") else "body"
        )
    return ReadCall(arxivID=f"arxiv:{arxiv_text}", section=selector)


def call_text(call: ReadCall, page: int | None = None) -> str:
    """'query-paper with arxivID="arxiv:1706.03762v5", section="3.2"' (values JSON-quoted)."""
    args = [f"arxivID={json.dumps(call.arxivID)}"]
    if call.level is not None:
        args.append(f"level={json.dumps(call.level)}")
    if call.section is not None:
        args.append(f"section={json.dumps(call.section, ensure_ascii=False)}")
    if page is not None:
        args.append(f"page={page}")
    return "query-paper with " + ", ".join(args)


def section_entry(outline: Outline, section: Section, arxiv_text: str) -> SectionEntry:
    return SectionEntry(
        number=section.number,
        title=section.title,
        path=outline.path(section),
        part=section.part,
        depth=section.depth,
        tokens=outline.tokens(section),
        call=read_call(arxiv_text, section.selector),
    )


def section_entries(outline: Outline, sections: Sequence[Section], arxiv_text: str) -> list[dict[str, Any]]:
    return [section_entry(outline, s, arxiv_text).model_dump(mode="json") for s in sections]


def outline_block(outline: Outline, arxiv_text: str) -> str:
    """The outline that ends the abstract level: each heading, indented by depth, with its size."""
    if not outline.sections:
        return ""
    lines = [
        "## Outline",
        "",
        "The full text's sections, each with its size in tokens (subsections included). To read one, call "
        f'query-paper with arxivID="arxiv:{arxiv_text}", section="<number or title>"; to find the passages '
        'that answer a question, give query="<question>" instead.',
    ]
    part = ""
    for section in outline.sections:
        if section.part != part:
            part = section.part
            lines += ["", f"{_PART_NAMES[part]}:"]
        indent = "  " * (section.depth - 1)
        lines.append(f"{indent}- {section.title} ({outline.tokens(section):,} tokens)")
    return "\n".join(lines)


def passage_entries(passages: Sequence[Passage], arxiv_text: str) -> list[dict[str, Any]]:
    return [
        PassageEntry(
            rank=i,
            part=p.part,
            path=p.path,
            text=p.text,
            tokens=p.tokens,
            score=round(-p.score, 4),
            call=read_call(arxiv_text, p.selector, p.part),
        ).model_dump(mode="json")
        for i, p in enumerate(passages, 1)
    ]


def passages_block(passages: Sequence[Passage], arxiv_text: str, level: str) -> str:
    """The passages, best first, each under its section path and with the call that reads that section."""
    if not passages:
        return (
            f'No passage at level "{level}" matches this query. Try other words (the paper\'s own terms), '
            f'level "all", or the outline at the end of level "abstract".'
        )
    total = sum(p.tokens for p in passages)
    blocks = [
        f"{len(passages)} passage(s), best first, about {total:,} tokens in all (BM25 over the paper's "
        f'paragraphs at level "{level}"). Each ends with the call that reads its whole section.'
    ]
    for i, passage in enumerate(passages, 1):
        call = read_call(arxiv_text, passage.selector, passage.part)
        what = "abstract" if passage.part == "abstract" else "section"
        blocks.append(
            f"## Passage {i}: {passage.path}\n\n{passage.text}\n\n[Whole {what}: {call_text(call)}]"
        )
    return "\n\n".join(blocks)
