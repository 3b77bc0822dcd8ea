"""What resolve-paper-id sends to arXiv: an id lookup, the user's own query syntax, or free text made precise.

Three kinds of input, told apart before anything is sent:
- an arXiv identifier in any accepted form -> an ``id_list`` lookup (not a text search);
- arXiv query syntax (``ti: au: abs: co: jr: cat: rn: id: all:``, AND/OR/ANDNOT, parentheses,
  quotes, ``submittedDate:[A TO B]``) -> passed through after a syntax check;
- anything else is free text -> a title/abstract query. Free text never searches authors on
  its own (a bare "MoE" must not hit an author called Moe); a word may match an author only
  when the other words match the title or abstract ("vaswani attention").
Free-text results are then re-ranked locally, so an exact title comes first whatever arXiv's order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mcp_shared import ErrorCode, ToolFailure

from .ids import ArxivId, parse_arxiv_id
from .metadata import PaperMeta
from .words import stop_words

__all__ = ["MAX_QUERY_LENGTH", "PlannedQuery", "plan_query", "rerank"]

MAX_QUERY_LENGTH = 1000
_MAX_WORDS = 12
_FIELD = re.compile(r"(?:^|[\s(])(?:ti|au|abs|co|jr|cat|rn|id|all|submittedDate):", re.IGNORECASE)
_BOOLEAN = re.compile(r"(?:^|[\s)])(?:AND|OR|ANDNOT)(?=[\s(])")
_DATE_RANGE = re.compile(r"submittedDate:\s*\[\s*([0-9-]+)\s+TO\s+([0-9-]+)\s*\]", re.IGNORECASE)
_EMPTY_FIELD = re.compile(r"(?:^|[\s(])(ti|au|abs|co|jr|cat|rn|id|all):(?=\s|$|\))", re.IGNORECASE)
_WORD = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")
_STOPWORDS = stop_words("search_terms")


@dataclass(frozen=True)
class PlannedQuery:
    """What to ask arXiv: ``kind`` "id" (``arxiv_id``), "raw" or "free" (``search_query``)."""

    kind: Literal["id", "raw", "free"]
    search_query: str = ""
    arxiv_id: ArxivId | None = None
    words: tuple[str, ...] = ()


def _normalise_date(raw: str, end: bool) -> str:
    digits = raw.replace("-", "")
    if not digits.isdigit() or len(digits) not in (8, 12) or ("-" in raw and len(digits) != 8):
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"submittedDate bound {raw!r} must be YYYYMMDDHHMM (or YYYYMMDD / YYYY-MM-DD), "
            "as in submittedDate:[202301010000 TO 202312312359]",
        )
    return digits if len(digits) == 12 else digits + ("2359" if end else "0000")


def _check_raw(query: str) -> str:
    """Syntax checks arXiv would otherwise answer with an error feed or silently empty results."""
    if query.count('"') % 2:
        raise ToolFailure(ErrorCode.VALIDATION_ERROR, "unbalanced double quote in the query")
    depth = 0
    for char in query:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth != 0:
        raise ToolFailure(ErrorCode.VALIDATION_ERROR, "unbalanced parentheses in the query")
    empty = _EMPTY_FIELD.search(query)
    if empty:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, f"the field prefix {empty.group(1)}: has no search term"
        )
    if "submitteddate" in query.lower() and not _DATE_RANGE.search(query):
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            "submittedDate needs a range like submittedDate:[202301010000 TO 202312312359]",
        )

    def fix(match: re.Match[str]) -> str:
        return f"submittedDate:[{_normalise_date(match[1], False)} TO {_normalise_date(match[2], True)}]"

    return _DATE_RANGE.sub(fix, query)


def words_of(text: str) -> list[str]:
    """The searchable words of free text, without query punctuation."""
    return _WORD.findall(text)


def _term(word: str) -> str:
    """A word as one arXiv term: quoted when it has a hyphen or apostrophe, which Lucene would split."""
    return word if word.isalnum() else f'"{word}"'


def _free_text_query(words: Sequence[str]) -> str:
    content = [_term(w) for w in words if w.lower() not in _STOPWORDS] or [_term(w) for w in words]
    content = content[:_MAX_WORDS]
    if len(words) == 1 or len(content) == 1:
        w = content[0]
        return f"ti:{w} OR abs:{w}" if len(words) == 1 else f'ti:"{" ".join(words)}" OR ti:{w} OR abs:{w}'
    phrase = " ".join(words[: _MAX_WORDS * 2])
    clauses = [
        f'ti:"{phrase}"',
        "(" + " AND ".join(f"ti:{w}" for w in content) + ")",
        "(" + " AND ".join(f"(ti:{w} OR abs:{w})" for w in content) + ")",
    ]
    if len(content) <= 4:
        for name in content:
            # Surnames are alphabetic, 3+ letters, and typed lower- or title-case; an acronym
            # such as "MoE" or "BERT" is a topic, never an author.
            if not name.isalpha() or len(name) < 3 or not (name.islower() or name.istitle()):
                continue
            others = [w for w in content if w != name]
            clauses.append(
                "(" + " AND ".join([f"au:{name}", *(f"(ti:{w} OR abs:{w})" for w in others)]) + ")"
            )
    return " OR ".join(clauses)


def plan_query(raw: str) -> PlannedQuery:
    """Classify and check the user's query; raises VALIDATION_ERROR before any request.

    Raises:
        ToolFailure: VALIDATION_ERROR for an empty or huge query or broken query syntax.
    """
    query = " ".join(raw.split())
    if not query:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR, "the query is empty: give a title, author, keywords or arXiv id"
        )
    if len(query) > MAX_QUERY_LENGTH:
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"the query is {len(query)} characters long; keep it under {MAX_QUERY_LENGTH} (a title or a few keywords)",
        )
    aid = parse_arxiv_id(query)
    if aid is not None:
        return PlannedQuery("id", arxiv_id=aid)
    if _FIELD.search(query) or _BOOLEAN.search(query):
        return PlannedQuery("raw", search_query=_check_raw(query), words=tuple(words_of(query)))
    words = words_of(query)
    if not words:
        raise ToolFailure(ErrorCode.VALIDATION_ERROR, "the query has no searchable words")
    return PlannedQuery("free", search_query=_free_text_query(words), words=tuple(words))


def _norm(text: str) -> str:
    return " ".join(w.lower() for w in words_of(text))


def _surname_words(names: Sequence[str]) -> set[str]:
    return {w.lower() for name in names for w in words_of(name)}


def rerank(papers: Sequence[PaperMeta], words: Sequence[str]) -> list[PaperMeta]:
    """Order free-text results by how well the title carries the words; ties keep arXiv's order."""
    phrase = " ".join(w.lower() for w in words)
    content = [w.lower() for w in words if w.lower() not in _STOPWORDS] or [w.lower() for w in words]

    def score(paper: PaperMeta) -> float:
        title = _norm(paper.title)
        title_words = set(title.split())
        abstract_words = set(_norm(paper.abstract).split())
        authors = _surname_words(paper.authors)
        value = 0.0
        if title == phrase:
            value += 100
        elif f" {phrase} " in f" {title} ":
            value += 40
        value += 10 * sum(w in title_words for w in content) / len(content)
        value += 3 * sum(w in abstract_words for w in content) / len(content)
        # An author name counts only beside topic words, never on its own (the "MoE" rule).
        topic = sum(w in title_words or w in abstract_words for w in content)
        if topic:
            value += 5 * sum(w in authors for w in content) / len(content)
        return value

    ranked = sorted(enumerate(papers), key=lambda ip: (-score(ip[1]), ip[0]))
    return [p for _, p in ranked]
