"""What every reader of a LaTeXML page asks of an element: its classes, its tag, its text as one line.

Shared by the page renderer, the front matter, the headings, the listings and the quality signals,
so the question is answered one way. Imports no lxml at run time (``html_quality`` stays light).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lxml.etree import _Element

__all__ = ["class_set", "flow", "tag_name"]


def class_set(element: _Element) -> frozenset[str]:
    """The element's ``class`` attribute as a set of names."""
    return frozenset((element.get("class") or "").split())


def tag_name(element: _Element) -> str:
    """The element's tag in lower case; "" for a comment or processing instruction."""
    tag = element.tag
    return tag.lower() if isinstance(tag, str) else ""


def flow(text: str) -> str:
    """One line of prose: every whitespace run (newlines of the HTML source included) is one space."""
    return " ".join(text.split())
