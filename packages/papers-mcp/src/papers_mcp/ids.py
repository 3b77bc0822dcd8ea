"""Every arXiv identifier form a user pastes -> one canonical ``ArxivId``; anything else is rejected.

Why one module: the id is the only user text that reaches a file path or a URL, so it is
parsed here against a closed grammar and everything downstream is built from the parsed
parts, never from the raw string.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mcp_shared import ErrorCode, ToolFailure

__all__ = ["ArxivId", "canonical_id", "parse_arxiv_id"]

# New style (April 2007 on): YYMM.NNNN (to 2014) or YYMM.NNNNN (2015 on), optional version.
_NEW = r"(?P<new>(?P<yy>\d{2})(?P<mm>\d{2})\.\d{4,5})"
# Old style: archive[.SUBJECT-CLASS]/YYMMNNN, e.g. hep-th/9901001, math.GT/0309136.
_OLD = r"(?P<old>(?P<archive>[a-z]+(?:-[a-z]+)?)(?:\.(?P<subject>[A-Za-z]{2}(?:-[a-z]{2})?))?/(?P<num>\d{7}))"
_VERSION = r"(?:v(?P<version>[1-9]\d{0,3}))?"
_ID = rf"(?:{_NEW}|{_OLD}){_VERSION}"

_FORMS = [
    re.compile(rf"^(?:arxiv:)?{_ID}$", re.IGNORECASE),
    re.compile(
        rf"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html|format)/{_ID}(?:\.pdf)?/?$",
        re.IGNORECASE,
    ),
    re.compile(rf"^(?:https?://(?:dx\.)?doi\.org/|doi:)?10\.48550/arxiv\.{_ID}$", re.IGNORECASE),
]

MAX_ID_LENGTH = 200


@dataclass(frozen=True, order=True)
class ArxivId:
    """A parsed arXiv identifier: ``base`` (no version) and an optional ``version``."""

    base: str
    version: int | None = None

    @property
    def text(self) -> str:
        """The id as arXiv spells it: ``1706.03762v5`` or ``1706.03762``."""
        return f"{self.base}v{self.version}" if self.version is not None else self.base

    @property
    def file_stem(self) -> str:
        """A file-name-safe form: the one '/' of an old-style id becomes '_'."""
        return self.text.replace("/", "_")

    def with_version(self, version: int) -> ArxivId:
        return ArxivId(self.base, version)

    def __str__(self) -> str:
        return self.text


def parse_arxiv_id(raw: str) -> ArxivId | None:
    """Parse any accepted identifier form, or return None when ``raw`` is not one."""
    text = raw.strip()
    if not text or len(text) > MAX_ID_LENGTH:
        return None
    for form in _FORMS:
        match = form.match(text)
        if match is None:
            continue
        version = int(match["version"]) if match["version"] else None
        if match["new"]:
            if not 1 <= int(match["mm"]) <= 12:
                return None
            return ArxivId(match["new"], version)
        archive = match["archive"].lower()
        mm = int(match["num"][2:4])
        if not 1 <= mm <= 12:
            return None
        # arXiv's canonical old-style id drops the subject class: math.GT/0309136 is math/0309136.
        return ArxivId(f"{archive}/{match['num']}", version)
    return None


def canonical_id(raw: str) -> ArxivId:
    """Parse an identifier or fail with VALIDATION_ERROR before anything is fetched or written.

    Raises:
        ToolFailure: VALIDATION_ERROR when ``raw`` is not an arXiv identifier.
    """
    parsed = parse_arxiv_id(raw)
    if parsed is None:
        shown = raw if len(raw) <= 80 else raw[:77] + "..."
        raise ToolFailure(
            ErrorCode.VALIDATION_ERROR,
            f"not an arXiv identifier: {shown!r}. Use a form like 'arxiv:1706.03762', '1706.03762v5' "
            "or 'hep-th/9901001' (call resolve-paper-id to find one).",
        )
    return parsed
