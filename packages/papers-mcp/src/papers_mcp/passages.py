"""Passages that answer a question: BM25 over a paper's paragraphs, in SQLite FTS5 in the library.

Why this shape:
- A passage is one or a few paragraphs of one section of one part (abstract, body, references,
  appendix), cut from the ``Outline``'s spans, so it never crosses a section or a level
  boundary: ``level="body"`` can never return a reference entry. Short paragraphs (an equation
  line, a list item) join their neighbours in the same section; a very long one is cut at
  sentence ends, so each passage stays readable and the answer stays near its token budget.
- The index lives in ``library.sqlite3`` beside the metadata (FTS5 with the Porter stemmer, as
  the metadata search), so every process sharing the library reuses it. It is keyed by the
  paper's versioned id, the text's source (PDF, arXiv HTML, ar5iv) and a digest of the text: a
  new conversion gets a new index and the old rows go. Rows of one paper occupy one rowid range, so a
  search touches only that paper's postings.
- Each row carries its section path and the ``section`` argument that reads the whole section,
  so an answer needs no second pass over the text.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mcp_shared import ErrorCode, ToolFailure

from .headings import PARTS
from .library import Library
from .outline import PATH_SEPARATOR, Outline, section_tokens
from .words import stop_words

__all__ = [
    "MAX_QUERY_CHARS",
    "Chunk",
    "Passage",
    "PassageIndex",
    "check_query",
    "chunk_paper",
    "index_key",
    "select_passages",
]

PASSAGES_VERSION = "1"  # bump when chunking changes: the index is rebuilt under a new key
MAX_QUERY_CHARS = 500
TARGET_CHARS = 600
MIN_CHARS = 200
MAX_CHARS = 1600
SPLIT_CHARS = 1000
_ROWS_PER_DOC = 1 << 20
_MAX_TERMS = 32
_CANDIDATES_PER_PASSAGE = 4
# bm25 weights: the paragraph's own words, then its section titles (a weak prior for the section).
_TEXT_WEIGHT, _HEADING_WEIGHT = 1.0, 0.5
# A word this long also matches as a prefix: the Porter stemmer leaves "agree"/"agreement" or
# "compute"/"computation" apart; shorter words would match too much ("rate*": "ratio", "rated").
_PREFIX_MIN_CHARS = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS passage_docs (
    doc INTEGER PRIMARY KEY, paper TEXT NOT NULL, key TEXT NOT NULL UNIQUE, chunks INTEGER NOT NULL, built REAL NOT NULL
);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
    text, heading, raw UNINDEXED, part UNINDEXED, path UNINDEXED, selector UNINDEXED,
    tokenize = 'porter unicode61'
);
"""
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_BLANK = re.compile(r"\n[ \t]*\n")
_HEADING_MARK = re.compile(r"^#{1,6}[ \t]+", re.MULTILINE)
_MARKUP = re.compile(r"<!--.*?-->|<[^>\n]{1,40}>", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9])")
# Function words and question words: in a question they carry no topic, and OR-ed into an
# FTS5 query they would match nearly every paragraph.
_STOPWORDS = stop_words("passage_query")


@dataclass(frozen=True)
class Chunk:
    """One indexed passage: its part, section path, the `section` argument for it, and its text."""

    part: str
    path: str
    selector: str
    heading: str
    text: str


@dataclass(frozen=True)
class Passage:
    """A search hit: a chunk and its bm25 score (lower is better, as SQLite gives it)."""

    part: str
    path: str
    selector: str
    text: str
    score: float

    @property
    def tokens(self) -> int:
        return section_tokens(self.text)


def check_query(query: str) -> tuple[str, list[str]]:
    """The query, whitespace collapsed, and its search terms.

    Raises:
        ToolFailure: VALIDATION_ERROR for an empty query, one over 500 characters, or one without words.
    """
    text = " ".join(query.split())
    if not text:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, "the query is empty: ask a question or give a few keywords"
        )
    if len(text) > MAX_QUERY_CHARS:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"the query is {len(text)} characters long; keep it to {MAX_QUERY_CHARS} (a question or a few keywords)",
        )
    words = [w.lower() for w in _WORD.findall(text)]
    if not words:
        raise ToolFailure(ErrorCode.VALIDATION_ERROR, "the query has no searchable words")
    content = [w for w in words if w not in _STOPWORDS] or words
    return text, list(dict.fromkeys(content))[:_MAX_TERMS]


def _split_long(block: str) -> list[str]:
    """A paragraph longer than MAX_CHARS: pieces of about SPLIT_CHARS, cut at line or sentence ends."""
    units: list[str] = []
    for line in block.split("\n"):
        units.extend(s for s in _SENTENCE_END.split(line) if s.strip())
    pieces: list[str] = []
    current = ""
    for unit in units:
        while len(unit) > MAX_CHARS:  # a table row or formula run with no sentence end
            cut = unit.rfind(" ", 0, SPLIT_CHARS)
            cut = cut if cut > SPLIT_CHARS // 2 else SPLIT_CHARS
            if current:
                pieces.append(current)
                current = ""
            pieces.append(unit[:cut].rstrip())
            unit = unit[cut:].lstrip()
        joined = f"{current} {unit}" if current else unit
        if current and len(joined) > SPLIT_CHARS:
            pieces.append(current)
            current = unit
        else:
            current = joined
    if current:
        pieces.append(current)
    return pieces


def _is_prose(block: str) -> bool:
    """False for a table, a figure's text or a formula run: blocks that read badly glued to prose."""
    if block.startswith(("|", "<!--")):
        return False
    letters = sum(ch.isalpha() for ch in block)
    return letters >= 0.5 * len(block)


_CAPTION = re.compile(r"^[*_]*(?:table|figure|fig\.)\s*[0-9IVX]+[*_]*\s*[.:]", re.IGNORECASE)


def _paragraph_chunks(segment: str) -> list[str]:
    """Merge a section's short paragraphs (prose with prose, tables and figures apart) and split long ones.

    A caption printed right under a table or a figure's text stays with it, so that the passage says
    what its numbers are and a caption is never a passage of a few words on its own.
    """
    blocks = [_HEADING_MARK.sub("", b).strip() for b in _BLANK.split(segment)]
    chunks: list[tuple[str, bool]] = []
    current, prose = "", True
    for block in (b for b in blocks if b):
        kind = _is_prose(block)
        if len(block) > MAX_CHARS:
            if current:
                chunks.append((current, prose))
                current = ""
            chunks.extend((piece, kind) for piece in _split_long(block))
            continue
        if not current:
            current, prose = block, kind
        elif not prose and _CAPTION.match(block) and len(current) + len(block) + 2 <= MAX_CHARS:
            current = f"{current}\n\n{block}"  # a caption printed under its table or figure joins it
        elif kind == prose and (len(current) < MIN_CHARS or len(current) + len(block) + 2 <= TARGET_CHARS):
            current = f"{current}\n\n{block}"
        else:
            chunks.append((current, prose))
            current, prose = block, kind
    if current:
        last, last_prose = chunks[-1] if chunks else ("", not prose)
        if last_prose == prose and len(current) < MIN_CHARS and len(last) + len(current) + 2 <= MAX_CHARS:
            chunks[-1] = (f"{last}\n\n{current}", prose)
        else:
            chunks.append((current, prose))
    return [text for text, _ in chunks]


def searchable(text: str) -> str:
    """What the index reads of a passage: markup (tags, comments) out, so it neither matches nor dilutes."""
    return " ".join(_MARKUP.sub(" ", text).split())


def chunk_paper(outline: Outline, abstract: str) -> list[Chunk]:
    """Every passage of the paper, in reading order: the abstract, then each section's own text."""
    chunks: list[Chunk] = []
    if abstract.strip():
        chunks.extend(Chunk("abstract", "Abstract", "", "Abstract", c) for c in _paragraph_chunks(abstract))
    for part in PARTS:
        markdown = outline.part_text(part)
        bounds = sorted({0, len(markdown), *(s.start for s in outline.in_parts([part]))})
        for start, end in itertools.pairwise(bounds):
            owner = outline.at(part, start)
            segment = markdown[start:end]
            if owner is not None and owner.start == start and segment.startswith("#"):
                segment = segment.split("\n", 1)[1] if "\n" in segment else ""  # the heading line
            if owner is None:
                path, selector, heading = part.capitalize(), "", ""
            else:
                path, selector = outline.path(owner), owner.selector
                heading = " ".join(p.split(" ", 1)[-1] for p in path.split(PATH_SEPARATOR))
            chunks.extend(Chunk(part, path, selector, heading, c) for c in _paragraph_chunks(segment))
    return chunks


def index_key(paper: str, source: str, parts: Iterable[str]) -> str:
    """What the stored index must match: the paper, its source and the exact text (any new conversion differs)."""
    digest = hashlib.sha256("\x1e".join(parts).encode("utf-8")).hexdigest()[:16]
    return f"{paper}|{source}|p{PASSAGES_VERSION}|{digest}"


class PassageIndex:
    """The FTS5 passage index inside one library's database."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self._ready = False

    def _connect(self) -> sqlite3.Connection:
        conn = self.library.connect()
        if not self._ready:
            conn.executescript(_SCHEMA)
            self._ready = True
        return conn

    def doc(self, key: str) -> int | None:
        """The index's document number for ``key``, or None when it has not been built."""
        conn = self._connect()
        try:
            row = conn.execute("SELECT doc FROM passage_docs WHERE key = ?", (key,)).fetchone()
        finally:
            conn.close()
        return int(row[0]) if row else None

    def build(self, key: str, paper: str, chunks: Sequence[Chunk]) -> int:
        """Index ``chunks`` under ``key`` (once, whichever process gets there first); drop older keys of ``paper``."""
        conn = self._connect()
        try:
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT doc FROM passage_docs WHERE key = ?", (key,)).fetchone()
            if row:
                conn.execute("COMMIT")
                return int(row[0])
            for (old,) in conn.execute("SELECT doc FROM passage_docs WHERE paper = ?", (paper,)).fetchall():
                conn.execute(
                    "DELETE FROM passages_fts WHERE rowid >= ? AND rowid < ?",
                    (old * _ROWS_PER_DOC, (old + 1) * _ROWS_PER_DOC),
                )
            conn.execute("DELETE FROM passage_docs WHERE paper = ?", (paper,))
            cursor = conn.execute(
                "INSERT INTO passage_docs (paper, key, chunks, built) VALUES (?, ?, ?, ?)",
                (paper, key, len(chunks), time.time()),
            )
            doc = int(cursor.lastrowid or 0)
            conn.executemany(
                "INSERT INTO passages_fts (rowid, text, heading, raw, part, path, selector) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        doc * _ROWS_PER_DOC + i,
                        searchable(c.text),
                        c.heading,
                        c.text,
                        c.part,
                        c.path,
                        c.selector,
                    )
                    for i, c in enumerate(chunks[: _ROWS_PER_DOC - 1])
                ],
            )
            conn.execute("COMMIT")
            return doc
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            conn.close()

    def search(self, doc: int, terms: Sequence[str], parts: Sequence[str], limit: int) -> list[Passage]:
        """The best ``limit`` passages of document ``doc`` within ``parts``, best first."""
        match = match_expression(terms)
        marks = ", ".join("?" for _ in parts)
        conn = self._connect()
        try:
            rows = conn.execute(
                f"SELECT part, path, selector, raw, bm25(passages_fts, {_TEXT_WEIGHT}, {_HEADING_WEIGHT}) AS score "  # noqa: S608 (marks are placeholders)
                f"FROM passages_fts WHERE passages_fts MATCH ? AND rowid >= ? AND rowid < ? AND part IN ({marks}) "
                "ORDER BY score, rowid LIMIT ?",
                (match, doc * _ROWS_PER_DOC, (doc + 1) * _ROWS_PER_DOC, *parts, limit),
            ).fetchall()
        finally:
            conn.close()
        return [
            Passage(str(p), str(path), str(sel), str(text), float(score))
            for p, path, sel, text, score in rows
        ]


def match_expression(terms: Sequence[str]) -> str:
    """An FTS5 query: any of the terms, each quoted (so no word is read as FTS5 syntax), long ones also as prefixes."""
    clauses = []
    for term in terms:
        quoted = '"' + term.replace('"', '""') + '"'
        clauses.append(f"{quoted} OR {quoted}*" if len(term) >= _PREFIX_MIN_CHARS else quoted)
    return " OR ".join(clauses)


def select_passages(ranked: Sequence[Passage], max_passages: int, budget_tokens: int) -> list[Passage]:
    """The best passages that fit: at most ``max_passages`` and about ``budget_tokens`` in all (the first always)."""
    chosen: list[Passage] = []
    used = 0
    for passage in ranked:
        if len(chosen) >= max_passages:
            break
        if chosen and used + passage.tokens > budget_tokens:
            continue
        chosen.append(passage)
        used += passage.tokens
    return chosen


def candidates_for(max_passages: int) -> int:
    """How many hits to fetch so that passages too long for the budget can be skipped."""
    return max_passages * _CANDIDATES_PER_PASSAGE
