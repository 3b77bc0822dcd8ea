"""A paper's citation in the formats reference managers read: BibTeX in arXiv's own style, and CSL-JSON.

arXiv's "Export BibTeX Citation" gives ``@misc{<surname><year><two title words>, title, author,
year, eprint, archivePrefix, primaryClass, url}``; a journal reference and a DOI, when arXiv has
them, become ``journal`` and ``doi``. Text is escaped for BibTeX: the characters TeX treats as
special (``& % $ # _ { } ~ ^ \\``) are escaped, and accented letters become TeX accents in braces
(``{\\"o}``, ``{\\'e}``, ``{\\c{c}}``), so an 8-bit BibTeX reads the entry as well as biber does.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from .metadata import PaperMeta
from .render import surname
from .words import stop_words

__all__ = ["bibtex_entry", "bibtex_key", "csl_json", "latex_escape"]

# Combining marks -> TeX accent commands (NFD splits "é" into "e" + U+0301).
_ACCENTS = {
    "\u0300": "`",
    "\u0301": "'",
    "\u0302": "^",
    "\u0303": "~",
    "\u0304": "=",
    "\u0306": "u",
    "\u0307": ".",
    "\u0308": '"',
    "\u030a": "r",
    "\u030b": "H",
    "\u030c": "v",
    "\u0327": "c",
    "\u0328": "k",
    "\u0323": "d",
}
_LETTERS = {
    "ø": r"{\o}",
    "Ø": r"{\O}",
    "ł": r"{\l}",
    "Ł": r"{\L}",
    "ß": r"{\ss}",
    "æ": r"{\ae}",
    "Æ": r"{\AE}",
    "œ": r"{\oe}",
    "Œ": r"{\OE}",
    "å": r"{\aa}",
    "Å": r"{\AA}",
    "ı": r"{\i}",
    "đ": r"{\dj}",
}
_SPECIAL = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "\\": r"\textbackslash{}",
}


def _accented(base: str, marks: str) -> str:
    out = base
    for mark in marks:
        command = _ACCENTS.get(mark)
        if command is None:
            continue  # a mark TeX has no accent for: dropped rather than emitted raw
        if out in ("i", "j") and command not in ("c", "k", "d"):
            out = "\\" + out  # the dotless letter under an accent above it
        out = f"\\{command}{{{out}}}" if command.isalpha() or out.startswith("\\") else f"\\{command}{out}"
    return "{" + out + "}" if out != base else base


def latex_escape(text: str) -> str:
    """``text`` safe inside a BibTeX field: specials escaped, accents as TeX commands, spaces collapsed."""
    out: list[str] = []
    for char in " ".join(text.split()):
        if char in _SPECIAL:
            out.append(_SPECIAL[char])
        elif char in _LETTERS:
            out.append(_LETTERS[char])
        elif ord(char) < 128:
            out.append(char)
        else:
            decomposed = unicodedata.normalize("NFD", char)
            base, marks = decomposed[0], decomposed[1:]
            out.append(_accented(base, marks) if marks and ord(base) < 128 else char)
    return "".join(out)


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]", "", folded.lower())


def _year(meta: PaperMeta) -> str:
    """The year of the version read, as arXiv's export gives it (the first version's when unknown)."""
    for date in (meta.updated, meta.published):
        if date[:4].isdigit():
            return date[:4]
    return ""


def bibtex_key(meta: PaperMeta) -> str:
    """arXiv's key: first author's surname, the year, the first two words of the title that carry meaning."""
    author = _ascii_word(surname(meta.authors[0]).split()[-1]) if meta.authors else "anonymous"
    words = [
        w
        for w in (_ascii_word(t) for t in re.split(r"[\s\-:]+", meta.title))
        if w and w not in stop_words("citation_key")
    ]
    return f"{author}{_year(meta)}{''.join(words[:2])}" or meta.arxiv_id.base.replace("/", "")


def bibtex_entry(meta: PaperMeta) -> str:
    """The paper as a BibTeX ``@misc`` entry in arXiv's layout."""
    aid = meta.arxiv_id
    fields: list[tuple[str, str]] = [
        ("title", latex_escape(meta.title)),
        ("author", " and ".join(latex_escape(a) for a in meta.authors) or "Anonymous"),
        ("year", _year(meta)),
        ("eprint", aid.base),
        ("archivePrefix", "arXiv"),
    ]
    if meta.primary_category:
        fields.append(("primaryClass", meta.primary_category))
    if meta.journal_ref:
        fields.append(("journal", latex_escape(meta.journal_ref)))
    if meta.doi:
        fields.append(("doi", meta.doi))
    fields.append(("url", f"https://arxiv.org/abs/{aid.base}"))
    body = ",\n".join(f"      {name}={{{value}}}" for name, value in fields)
    return f"@misc{{{bibtex_key(meta)},\n{body},\n}}"


def _name(author: str) -> dict[str, str]:
    parts = author.split()
    if len(parts) <= 1:
        return {"literal": author}
    family = surname(author)
    given = author[: len(author) - len(family)].strip()
    return {"family": family, "given": given}


def _date_parts(iso: str) -> list[list[int]]:
    match = re.match(r"(\d{4})-(\d{2})-(\d{2})", iso)
    return [[int(match[1]), int(match[2]), int(match[3])]] if match else []


def csl_json(meta: PaperMeta) -> dict[str, Any]:
    """The paper as one CSL-JSON item (what Zotero, Mendeley and pandoc's citeproc read)."""
    aid = meta.arxiv_id
    item: dict[str, Any] = {
        "id": f"arxiv:{aid.base}",
        "type": "article",
        "title": meta.title,
        "author": [_name(a) for a in meta.authors],
        "issued": {"date-parts": _date_parts(meta.published)},
        "publisher": "arXiv",
        "number": aid.base,
        "version": str(aid.version) if aid.version is not None else None,
        "URL": f"https://arxiv.org/abs/{aid.text}",
        "DOI": meta.doi or f"10.48550/arXiv.{aid.base}",
        "container-title": meta.journal_ref,
        "abstract": meta.abstract or None,
        "keyword": ", ".join(meta.categories) or None,
    }
    return {k: v for k, v in item.items() if v not in (None, [], {"date-parts": []})}


def with_citation(
    text: str, data: dict[str, Any], meta: PaperMeta, *, bibtex: bool
) -> tuple[str, dict[str, Any]]:
    """A query-paper answer with the paper's CSL-JSON in its data and, when ``bibtex``, its BibTeX at the end.

    The BibTeX block goes on the last page only (an abstract answer has one page unless its outline is long).
    """
    data = {**data, "csl_json": csl_json(meta)}
    if bibtex and data.get("page") == data.get("pages"):
        block = f"## BibTeX\n\n```bibtex\n{bibtex_entry(meta)}\n```"
        data["bibtex"] = bibtex_entry(meta)
        data["markdown"] = f"{data.get('markdown', '')}\n\n{block}"
        text = f"{text}\n\n{block}"
    return text, data
