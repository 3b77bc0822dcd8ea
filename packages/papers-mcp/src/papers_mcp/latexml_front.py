"""A LaTeXML page's front matter: title, authors and their affiliations, abstract, keywords, notes.

Read from the markup both converters write (Perl LaTeXML 0.8 and LaTeXML oxide 0.7):

- the title is ``h1.ltx_title_document`` without the ``\\thanks`` note oxide puts inside it
  (``span.ltx_pubnotes``); that note becomes a front-matter note;
- authors are the ``ltx_personname`` texts: names only, affiliation marks (``<sup>``, math) and
  notes dropped; a personname that holds "A and B" is two authors. Their affiliations and
  e-mail addresses (``ltx_contact``) follow on their own lines, each said once, in order;
- the converters' labels (oxide's "Affiliation: ", "Email: ", "Thanks: ", "footnotetext: ",
  "Conference: "…) are never written: the line says what it is;
- notes that stand before the first section (``\\footnotetext``, ACM's publication notes, a
  cc-licence note) are front-matter notes, not body text;
- a page without a marked-up title (the template did not use ``\\maketitle``) is read from its
  leading paragraphs: the first one is the title, the next ones up to the abstract are the
  authors' lines (names, then affiliations), and the paragraphs under an "Abstract" heading
  paragraph are the abstract.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Protocol

from lxml.etree import _Element

from .latexml_nodes import class_set, flow, tag_name

__all__ = [
    "LABEL_CLASSES",
    "Inline",
    "authors_lines",
    "front_lines",
    "heading_paragraph",
    "headless_front",
    "keywords_line",
    "note_lines",
    "title_line",
]

# Labels the converter prints before a contact or a note: read as markup, never as text.
LABEL_CLASSES = frozenset({"ltx_contact_name", "ltx_note_name", "ltx_note_type"})
_AND = re.compile(r"\s+(?:and|&)\s+")
_KEYWORDS = re.compile(r"^(?:key\s*words?|index\s+terms)\b\s*[.:—–-]?\s*", re.IGNORECASE)
_ABSTRACT = re.compile(r"^abstract[.:]?$", re.IGNORECASE)
_MAX_HEADING_CHARS = 80
_ROLES = {"ltx_role_doi": "doi:", "ltx_role_isbn": "ISBN ", "ltx_role_cc-license": "licence CC "}


class Inline(Protocol):
    """What the page renderer offers this module."""

    def inline(self, element: _Element, *, notes: bool = True, skip: Iterable[object] = ()) -> str: ...

    def blocks(self, element: _Element, skip: Iterable[object] = ()) -> list[str]: ...


def _with_class(element: _Element, name: str) -> list[_Element]:
    return [d for d in element.iter() if isinstance(d.tag, str) and name in class_set(d)]


def title_line(renderer: Inline, h1: _Element) -> list[str]:
    """``Title: …`` without the ``\\thanks`` note inside it; that note follows as a note line."""
    notes = [c for c in h1 if "ltx_pubnotes" in class_set(c)]
    title = renderer.inline(h1, notes=False, skip=notes)
    out = [f"Title: {title}"] if title else []
    for note in notes:
        out.extend(note_lines(renderer, note))
    return out


def _name(renderer: Inline, person: _Element) -> str:
    """A personname's text up to its first line break after the name; marks and notes dropped."""
    parts: list[str] = [person.text or ""]
    for child in person:
        if tag_name(child) == "br":
            if flow("".join(parts)):
                break
        elif tag_name(child) not in ("sup", "sub", "math") and not (
            class_set(child) & {"ltx_note", "ltx_author_notes", "ltx_contact"}
        ):
            parts.append(renderer.inline(child, notes=False))
        parts.append(child.tail or "")
    return flow("".join(parts)).strip(" ,;*†‡")


def authors_lines(renderer: Inline, authors: _Element) -> list[str]:
    """``Authors: …``, then ``Affiliations: …`` and ``Contact: …`` when the page gives them."""
    names: list[str] = []
    for person in _with_class(authors, "ltx_personname"):
        names.extend(n for n in _AND.split(_name(renderer, person)) if n)
    affiliations: list[str] = []
    contacts: list[str] = []
    notes: list[str] = []
    for contact in _with_class(authors, "ltx_contact"):
        classes = class_set(contact)
        if "ltx_role_orcid" in classes:
            continue
        labels = [c for c in contact if class_set(c) & LABEL_CLASSES]
        text = renderer.inline(contact, notes=False, skip=labels).strip(" ,;*")
        if "ltx_role_affiliation" in classes:
            target = affiliations
        else:
            target = contacts if "ltx_role_email" in classes else notes
        if any(ch.isalnum() for ch in text) and text not in target:
            target.append(text)
    out = [f"Authors: {', '.join(names)}"] if names else []
    if affiliations:
        out.append(f"Affiliations: {'; '.join(affiliations)}")
    if contacts:
        out.append(f"Contact: {', '.join(contacts)}")
    return out + [f"Note: {note}" for note in notes]


def keywords_line(renderer: Inline, keywords: _Element) -> list[str]:
    """``Keywords: …`` without the page's own heading ("Key Words.", "Keywords: ", "Index Terms")."""
    titles = [c for c in keywords if tag_name(c).startswith("h")]
    words = _KEYWORDS.sub("", renderer.inline(keywords, skip=titles))
    return [f"Keywords: {words}"] if words else []


def note_lines(renderer: Inline, note: _Element) -> list[str]:
    """A note or publication note as ``Note: …`` lines, without the converter's label or mark."""
    pubnotes = _with_class(note, "ltx_pubnote")
    pieces = pubnotes or _with_class(note, "ltx_note_content")[:1] or [note]
    out: list[str] = []
    for piece in pieces:
        skip = [c for c in piece if class_set(c) & (LABEL_CLASSES | {"ltx_note_mark", "ltx_tag_note"})]
        text = renderer.inline(piece, notes=False, skip=skip)
        # An identifier or a licence is not self-explaining once its label is gone: say what it is.
        role = next((_ROLES[c] for c in class_set(piece) | class_set(note) if c in _ROLES), "")
        if text:
            out.append(f"Note: {role}{text}")
    return out


def front_lines(renderer: Inline, element: _Element) -> list[str] | None:
    """The front-matter lines of one marked-up front element; None when it is not one."""
    classes = class_set(element)
    if tag_name(element) == "h1":
        return title_line(renderer, element)
    if "ltx_authors" in classes:
        return authors_lines(renderer, element)
    if classes & {"ltx_note", "ltx_pubnotes"}:
        return note_lines(renderer, element)
    if "ltx_abstract" in classes:
        titles = [c for c in element if tag_name(c) in ("h1", "h2", "h3", "h4", "h5", "h6")][:1]
        parts = renderer.blocks(element, skip=titles)
        return ["Abstract:", *parts] if parts else []
    if "ltx_keywords" in classes or (
        "ltx_para" in classes and _KEYWORDS.match(renderer.inline(element, notes=False))
    ):
        return keywords_line(renderer, element)
    return None


def heading_paragraph(renderer: Inline, element: _Element) -> str | None:
    """The text of a paragraph that is only a short bold line (a heading typed by hand), else None.

    A logical block that holds only such a paragraph (and a page break) counts as one.
    """
    if "ltx_logical-block" in class_set(element):
        held = [c for c in element if isinstance(c.tag, str) and "ltx_pagination" not in class_set(c)]
        return heading_paragraph(renderer, held[0]) if len(held) == 1 else None
    if "ltx_para" not in class_set(element):
        return None
    paragraphs = [p for p in element if tag_name(p) == "p"]
    if len(paragraphs) != 1 or len(element) != 1:
        return None
    p = paragraphs[0]
    if flow(p.text or "") or len(p) != 1 or flow(p[0].tail or ""):
        return None
    if "ltx_font_bold" not in class_set(p[0]):
        return None
    text = renderer.inline(p)
    return text if 0 < len(text) <= _MAX_HEADING_CHARS and not text.endswith(".") else None


def _lines(renderer: Inline, element: _Element) -> list[str]:
    """The lines of a title-page block: each paragraph one line."""
    paragraphs = [p for p in element.iter("p")]
    if not paragraphs:
        text = renderer.inline(element)
        return [text] if text else []
    return [t for p in paragraphs if (t := renderer.inline(p))]


def headless_front(renderer: Inline, children: Sequence[_Element]) -> tuple[list[str], int]:
    """The front matter of a page without a marked-up title, and how many leading children it used.

    The title-page lines run up to the first heading paragraph; when that heading is "Abstract",
    the paragraphs under it, up to the next heading, are the abstract.
    """
    index = 0
    lines: list[str] = []
    while index < len(children) and heading_paragraph(renderer, children[index]) is None:
        if "ltx_abstract" in class_set(children[index]) or tag_name(children[index]) == "section":
            break
        lines.extend(_lines(renderer, children[index]))
        index += 1
    if not lines:
        return [], 0
    out = [f"Title: {lines[0]}"]
    if len(lines) > 1:
        out.append(f"Authors: {lines[1]}")
    if len(lines) > 2:
        out.append(f"Affiliations: {'; '.join(lines[2:])}")
    heading = heading_paragraph(renderer, children[index]) if index < len(children) else None
    if heading is not None and _ABSTRACT.match(heading):
        index += 1
        abstract: list[str] = []
        while index < len(children) and heading_paragraph(renderer, children[index]) is None:
            if tag_name(children[index]) == "section":
                break
            abstract.extend(renderer.blocks(children[index]))
            index += 1
        if abstract:
            out.extend(["Abstract:", *abstract])
    return out, index
