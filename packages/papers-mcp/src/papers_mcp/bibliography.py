"""A paper's own bibliography as structured entries, read offline from what the library holds.

Two routes, one result (a list of ``Reference``, one per printed entry, in the paper's order):

- HTML (arXiv's LaTeXML or ar5iv): each ``li.ltx_bibitem`` is one entry; its ``ltx_tag_bibitem``
  is the label, its ``ltx_bibblock`` spans the text (the second block is the title in natbib
  styles), its links carry DOIs, arXiv ids and URLs. ``references_from_html`` reads the page;
  ``store_bibliography`` keeps the result beside the paper's text so later answers stay offline.
- PDF: the reference list the splitter cut out (``PaperText.references``) is cut into entries.
  Labelled lists ("[12]", "[ABTZ13]", "12 ") are cut at their labels, numbers read in sequence so
  a volume or page number is never taken for one; unlabelled lists (author-year styles) at each
  block or line that opens with an author where the text before it closed an entry. Entries the
  converter glued together ("... (1948). [9] W. H. Zurek ...") are cut apart, entries it broke at
  a page or column end are joined.

Every entry keeps its whole text; identifiers are read from it by ``fields``: an arXiv id in any
form (``arXiv:1706.03762``, ``abs/1409.0473``, ``hep-th/9901001``, ``[gr-qc/0109015]``, the
arXiv DOI), a DOI, a URL, the title (quoted, or the sentence after the authors) and the year.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from .ids import ArxivId, parse_arxiv_id

if TYPE_CHECKING:
    from .library import Library

__all__ = [
    "BIBLIOGRAPHY_VERSION",
    "Reference",
    "fields",
    "load_bibliography",
    "references_from_html",
    "references_from_markdown",
    "references_from_rendered_html",
    "store_bibliography",
]

logger = logging.getLogger(__name__)

BIBLIOGRAPHY_VERSION = "1"

# Every arXiv archive that ever took old-style ids (archive/YYMMNNN): a bare "foo/0123456" is an id
# only under one of these names, so a path in a URL is never read as one.
_ARCHIVES = [
    "acc-phys",
    "adap-org",
    "alg-geom",
    "ao-sci",
    "astro-ph",
    "atom-ph",
    "bayes-an",
    "chao-dyn",
    "chem-ph",
    "cmp-lg",
    "comp-gas",
    "cond-mat",
    "cs",
    "dg-ga",
    "funct-an",
    "gr-qc",
    "hep-ex",
    "hep-lat",
    "hep-ph",
    "hep-th",
    "math",
    "math-ph",
    "mtrl-th",
    "nlin",
    "nucl-ex",
    "nucl-th",
    "patt-sol",
    "physics",
    "plasm-ph",
    "q-alg",
    "q-bio",
    "quant-ph",
    "solv-int",
    "supr-con",
]
_ARCHIVE = "|".join(sorted((re.escape(a) for a in _ARCHIVES), key=len, reverse=True))
# PDF text drops the hyphen of some archives ("hepth/9612101", "quantph/0703103"): accept both.
_ARCHIVE_LOOSE = "|".join(
    sorted({re.escape(a.replace("-", "")) for a in _ARCHIVES} | {re.escape(a) for a in _ARCHIVES}, key=len)[
        ::-1
    ]
)
_OLD_ID = re.compile(
    rf"(?<![\w/.-])((?:{_ARCHIVE_LOOSE})(?:\.[A-Z]{{2}})?/\d{{7}}(?:v\d+)?)\b", re.IGNORECASE
)
# A new-style id only where the text says it is one: "arXiv:", "arXiv preprint", "abs/", an arXiv URL.
_NEW_ID = re.compile(
    r"(?:arxiv(?:\.org/(?:abs|pdf)/|\s*(?:preprint|e-?prints?)?\s*:?\s*)|\babs/|10\.48550/arxiv\.)"
    r"\s*(\d{4}\.\d{4,5}(?:v\d+)?)\b",
    re.IGNORECASE,
)
_DOI = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>\]]+)", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s<>\"\]]+", re.IGNORECASE)
_TRAILING = ".,;:)]}*_'’”"
_YEAR = re.compile(r"(?<![\d./])((?:1[89]|20)\d\d)[a-z]?(?![\d/])")
_PAREN_YEAR = re.compile(r"\(((?:1[89]|20)\d\d)[a-z]?\)")
_QUOTED = re.compile(r"[“\"”]([^“”\"]{8,300}?)[,.]?[”\"“]")
# A period that does not end a sentence: an initial, "et al.", or a venue's abbreviation (a short
# surname such as "Le." or "Wu." does end the author list).
_INITIAL_OR_ABBREV = re.compile(
    r"(?:\b[A-Z]|\bet al|\b(?:Proc|Conf|Int|Trans|Phys|Rev|Lett|Acad|Sci|Math|Natl|Comput|Stat|Mech|Eng|"
    r"Vol|vol|No|no|pp|Ed|Eds|eds|Jr|St|Nat|Res|Soc|Theor|Appl|Assoc|Dept|Univ|Inc|Ltd|Jan|Feb|Mar|Apr|Jun|"
    r"Jul|Aug|Sep|Sept|Oct|Nov|Dec|Fig|Eq|Ch|Sec|arXiv|Tech|Rep|Symp|Ann|Annu|Mon|Not|Astron|Astrophys|"
    r"Chem|Biol|Med|Electron|Syst|Inf|Theory|Adv|Neural|Mach|Learn|Artif|Intell|Ser|Suppl|Bull|Commun))\.$"
)


@dataclass(frozen=True)
class Reference:
    """One entry of a paper's reference list and what can be read from it."""

    label: str  # as printed: "12", "ABTZ13", "Abdin et al. (2024)"; "" when the list has no labels
    text: str  # the whole entry, whitespace collapsed
    arxiv_id: str | None = None  # "1706.03762", "hep-th/9901001" (a version when the entry gives one)
    doi: str | None = None
    url: str | None = None
    title: str | None = None
    year: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reference:
        return cls(
            label=str(data.get("label") or ""),
            text=str(data["text"]),
            **{
                k: (str(data[k]) if data.get(k) else None)
                for k in ("arxiv_id", "doi", "url", "title", "year")
            },
        )


def _clean(value: str) -> str:
    return value.rstrip(_TRAILING)


def _flat(text: str) -> str:
    """Markdown emphasis and list marks off, whitespace collapsed (the entry as read)."""
    text = re.sub(r"(?<!\w)[*_]{1,2}|[*_]{1,2}(?!\w)", "", text)
    return " ".join(text.split())


def find_arxiv_id(text: str, links: Iterable[str] = ()) -> ArxivId | None:
    """The first arXiv id the entry names, in any form (links first: they are exact)."""
    for link in links:
        parsed = parse_arxiv_id(link.split("?")[0].split("#")[0])
        if parsed is not None:
            return parsed
    candidates: list[tuple[int, str]] = [(m.start(), m[1]) for m in _NEW_ID.finditer(text)]
    for match in _OLD_ID.finditer(text):
        raw = match[1]
        archive, number = raw.split("/", 1)
        base = archive.split(".")[0].lower()
        if base not in _ARCHIVES:  # "hepth" -> "hep-th": the hyphen the PDF text lost
            base = next((a for a in _ARCHIVES if a.replace("-", "") == base), base)
        candidates.append((match.start(), f"{base}/{number}"))
    for _, raw in sorted(candidates):
        parsed = parse_arxiv_id(raw)
        if parsed is not None:
            return parsed
    return None


def _doi(text: str, links: Iterable[str]) -> str | None:
    for value in (*links, text):
        match = _DOI.search(value)
        if match:
            doi = _clean(match[1])
            if not doi.lower().startswith("10.48550/"):
                return doi
    return None


_YEAR_COMMA_TITLE = re.compile(r"\((?:1[89]|20)\d\d[a-z]?\),\s*(.{8,200}?),\s(?:in\s|[A-Z])")
_NOT_A_TITLE = re.compile(r"\bpp\.|\bdoi\b|abs/|arxiv|\(\d{4}|^in\s|\d+\(\d+\)|\d+,\s*\d+", re.IGNORECASE)
_NAME_ONLY = re.compile(r"^[A-Z][\w'’-]*(?:\s+[A-Z][\w'’.-]*){0,3}$")


def _plausible(title: str | None) -> str | None:
    """A title has words: not a venue's volume and pages, not an identifier."""
    if not title:
        return None
    title = _clean(title.strip())
    question = title.find("? ")
    if question > 0:  # "Can active memory replace attention? In Advances ..." ends at its question mark
        title = title[: question + 1]
    title = re.sub(r",\s*(?:1[89]|20)\d\d[a-z]?$", "", title)
    digits = sum(c.isdigit() for c in title)
    if len(title.split()) < 2 or digits > len(title) // 5 or _NOT_A_TITLE.search(title):
        return None
    return title


def _title(text: str, blocks: Sequence[str]) -> str | None:
    quoted = _QUOTED.search(text)
    if quoted and len(quoted[1].split()) >= 2:
        return _clean(quoted[1].strip())
    if len(blocks) >= 2 and (
        title := _plausible(blocks[1])
    ):  # natbib's HTML: authors. year. | title. | venue
        return title
    siam = _YEAR_COMMA_TITLE.search(text)  # "L. M. Adleman (1994), Title, in Proceedings ..."
    if siam:
        return _plausible(siam[1])
    sentences = _sentences(text)
    if len(sentences) < 2:
        return None
    first = sentences[0]
    # "Authors. 2018. Title. Venue" (ACL) or "Authors. Title. Venue" (plain styles).
    index = 1
    if re.fullmatch(r"\(?(?:1[89]|20)\d\d[a-z]?\)?", sentences[1].strip()) and len(sentences) > 2:
        index = 2
    elif not (
        re.search(r",| and |&", first)
        or re.search(r"(?:1[89]|20)\d\d[a-z]?$", first)
        or _NAME_ONLY.match(first.strip())
    ):
        return None
    return _plausible(sentences[index])


def _sentences(text: str) -> list[str]:
    """Cut at ". " unless the period ends an initial, "et al" or an abbreviation."""
    out: list[str] = []
    start = 0
    for match in re.finditer(r"\.\s+", text):
        before = text[max(start, match.start() - 12) : match.start() + 1]  # the word the period ends
        if _INITIAL_OR_ABBREV.search(before):
            continue
        out.append(text[start : match.start()])
        start = match.end()
    out.append(text[start:])
    return [s for s in out if s.strip()]


def fields(label: str, text: str, links: Sequence[str] = (), blocks: Sequence[str] = ()) -> Reference:
    """A ``Reference`` with what ``text`` (and the entry's ``links``) carries."""
    text = _flat(text)
    aid = find_arxiv_id(text, links)
    doi = _doi(text, links)
    urls = [u for u in links if u.startswith(("http://", "https://"))] + [m[0] for m in _URL.finditer(text)]
    url = next((_clean(u) for u in urls if "doi.org/" not in u), None)
    plain = _URL.sub(" ", _DOI.sub(" ", text))
    year_match = _PAREN_YEAR.search(label) or _PAREN_YEAR.search(plain) or _YEAR.search(plain)
    return Reference(
        label=label,
        text=text,
        arxiv_id=aid.text if aid is not None else None,
        doi=doi,
        url=url,
        title=_title(text, blocks),
        year=year_match[1] if year_match else None,
    )


# -- HTML --


def references_from_html(page: bytes) -> list[Reference]:
    """One ``Reference`` per ``li.ltx_bibitem`` of a LaTeXML page, in order."""
    from lxml import html as lxml_html

    root = lxml_html.fromstring(page)
    out: list[Reference] = []
    for item in root.xpath("//li[contains(concat(' ', normalize-space(@class), ' '), ' ltx_bibitem ')]"):
        tags = item.xpath(".//*[contains(concat(' ', normalize-space(@class), ' '), ' ltx_tag_bibitem ')]")
        label = " ".join(tags[0].text_content().split()) if tags else ""
        label = label[1:-1] if label.startswith("[") and label.endswith("]") else label
        for dropped in item.xpath(
            ".//*[contains(concat(' ', normalize-space(@class), ' '), ' ltx_bib_cited ')]"
        ):
            dropped.getparent().remove(dropped)
        blocks = [
            " ".join(b.text_content().split())
            for b in item.xpath(".//*[contains(concat(' ', normalize-space(@class), ' '), ' ltx_bibblock ')]")
        ]
        for tag in tags:
            tag.getparent().remove(tag)
        text = " ".join(blocks) if blocks else " ".join(item.text_content().split())
        links = [
            str(a.get("href")) for a in item.xpath(".//a[@href]") if not str(a.get("href")).startswith("#")
        ]
        out.append(fields(label, text, links, blocks))
    return out


# -- PDF (and any markdown reference list) --

_HEADING = re.compile(r"^#{1,6}\s|^\*\*[^*]+\*\*$")
_LIST_MARK = re.compile(r"^(?:[-*•>]\s+)+")
_BRACKET_LABEL = re.compile(r"\[([^\[\]\n]{1,40})\]")
_SUP_PLUS = re.compile(r"<sup>\s*\+\s*</sup>\s*")
_ALPHA_LABEL = re.compile(r"^[A-Z][A-Za-z+\-'.]{0,12}\d{2}[a-z]?$")
# An author opening an entry: "Agol, E.", "Collier Cameron, A.", "L. M. Adleman", "Alan Akbik,",
# a repeated-author dash ("—. 2002b") or a repeated author's bare year ("(1982a), ...").
_AUTHOR_LEAD = re.compile(
    r"^(?:(?:van |von |de |der |den |del |di |da |le |la )*[A-Z][\w'`´¨ˇ-]+(?: [A-Z][\w'`´¨ˇ-]+)?,\s+(?:[A-Z]\.|[A-Z][a-z]+|&)"
    r"|(?:[A-Z]\.\s?-?)+\s?(?:[A-Z][a-z]*\.\s)*(?:(?:van|von|de|del|der|den|da|di|le|la)\s)*[A-Z][\w'`´¨ˇ-]+"
    r"|[A-Z][a-z]+\s+(?:[A-Z][a-z]*\.?\s+){0,3}(?:(?:van|von|de|del|der|da|di)\s+)*[A-Z][\w'`´¨ˇ-]+(?:,| and )"
    r"|[—–-]{1,3}\.?\s*(?:,|\d{4})|\((?:1[89]|20)\d\d[a-z]?\),)"
)
# Inside a line: a new author-year entry right after the close of the previous one ("1861 Alonso, R.").
_INLINE_LEAD = re.compile(
    r"(?<=[\d+]) (?=(?:(?:van |von |de |der )*[A-Z][\w'’`´¨ˇ-]+(?: [A-Z][\w'’`´¨ˇ-]+)?, (?:[A-Z]\.|&)|—\. ))"
)
# The text before a line cannot close an entry: a joining word or mark, a name particle, or a
# capitalised word without a period (a name broken over two lines: "Collier" | "Cameron, A.").
_CONNECTOR = re.compile(
    r"(?:[,&:;(–-]|\b(?:and|of|for|the|in|on|to|et|with|by|eds?\.|van|von|de|der|den|del|da|di|le|la)"
    r"|\b[A-Z][a-z'’-]+)$"
)


def _lines(markdown: str) -> list[str]:
    """The list's blocks as lines (headings dropped), list marks removed."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", markdown):
        block = block.strip()
        if not block or _HEADING.match(block):
            continue
        for line in block.split("\n"):
            line = _LIST_MARK.sub("", line.strip())
            if line and not _HEADING.match(line):
                out.append(line)
    return out


def references_from_markdown(markdown: str) -> list[Reference]:
    """The entries of a reference list in markdown (a PDF's, or an HTML page's rendered list)."""
    lines = _lines(markdown)
    if not lines:
        return []
    numbered = _numbered(lines)
    if numbered is not None:
        return numbered
    alpha = _alpha(lines)
    if alpha is not None:
        return alpha
    return _unlabelled(lines)


def _numbered(lines: Sequence[str]) -> list[Reference] | None:
    """Entries labelled 1, 2, 3 ... ("[1]", "1.", "1 "), found number by number.

    Each number is taken where a line opens with it, else at its first place after the previous
    number: a volume or page number is never taken for a label, and a list whose columns the
    converter read out of order ("[22]", "[28]" ... "[50]", "[23]") is still read whole.
    """
    text = "\n".join(lines)
    bracketed = text.startswith("[1]")
    if not (bracketed or re.match(r"1\.?\s", text)):
        return None
    spots: list[tuple[int, int, str]] = []  # (label start, text start, label)
    position = 0
    number = 1
    while True:
        label = rf"\[{number}\]\s*" if bracketed else rf"{number}\.?\s+(?=[A-Z\"“*_(])"
        at_line = re.compile(rf"^{label}", re.MULTILINE).search(text)
        inline = re.compile(rf"(?:(?<=\s)|(?<=^)){label}" if bracketed else rf"(?<=[.)]\s){label}")
        match = at_line or inline.search(text, position)
        if match is None:
            break
        spots.append((match.start(), match.end(), str(number)))
        position = match.end()
        number += 1
    if len(spots) < 2:
        return None
    starts = sorted(start for start, _, _ in spots)
    out = []
    for start, begin, label in spots:
        end = next((s for s in starts if s > start), len(text))
        out.append(fields(label, text[begin:end]))
    return out


def _alpha(lines: Sequence[str]) -> list[Reference] | None:
    """Entries labelled "[ABTZ13]" or "[Smith et al. 2015]"; stacked labels share the text that follows."""
    text = _SUP_PLUS.sub("+", " ".join(lines))
    if not text.startswith("["):
        return None
    spots: list[re.Match[str]] = []
    seen: set[str] = set()
    for match in _BRACKET_LABEL.finditer(text):
        # A label in the list is an alphabetic key ("ABTZ13", "CDMI+13") or a name and year; the
        # converter may stack several before their texts. A key seen before is a citation in a note.
        if (_ALPHA_LABEL.match(match[1]) or re.search(r"\d{4}", match[1])) and match[1] not in seen:
            seen.add(match[1])
            spots.append(match)
    if len(spots) < 2:
        return None
    out: list[Reference] = []
    index = 0
    while index < len(spots):
        group = [spots[index]]
        while index + 1 < len(spots) and not text[group[-1].end() : spots[index + 1].start()].strip():
            index += 1
            group.append(spots[index])
        end = spots[index + 1].start() if index + 1 < len(spots) else len(text)
        body = text[group[-1].end() : end].strip()
        for label, piece in zip((m[1] for m in group), _share(body, len(group)), strict=True):
            out.append(fields(label, piece))
        index += 1
    return out


def _share(body: str, count: int) -> list[str]:
    """Text under ``count`` stacked labels: cut where an entry closes with a year and the next begins."""
    if count == 1:
        return [body]
    cuts = [m.end() for m in re.finditer(r"(?:1[89]|20)\d\d[a-z]?\.\s+(?=[A-Z])", body)]
    if len(cuts) < count - 1:
        return [body] * count  # cannot tell where one ends: each keeps the whole text
    picked = cuts[: count - 1]
    edges = [0, *picked, len(body)]
    return [body[a:b].strip() for a, b in itertools.pairwise(edges)]


def _unlabelled(lines: Sequence[str]) -> list[Reference]:
    """Author-year entries: a new one at each line or inline spot that opens with an author after a closed entry."""
    entries: list[str] = []
    for line in lines:
        pieces = _INLINE_LEAD.split(line)
        for number, piece in enumerate(pieces):
            piece = piece.strip()
            if not piece:
                continue
            if not entries:
                entries.append(piece)
                continue
            closed = not _CONNECTOR.search(entries[-1])
            opens = number > 0 or (
                closed
                and (
                    bool(_AUTHOR_LEAD.match(piece))
                    or (piece[:1].isupper() and re.search(r"[.)]\W{0,2}$", entries[-1]) is not None)
                )
            )
            if opens:
                entries.append(piece)
            else:
                entries[-1] = f"{entries[-1]} {piece}"
    return [fields("", entry) for entry in entries]


# -- stored beside the paper's text --


def _path_name(source: str) -> str:
    return f"{source}bib"


def store_bibliography(library: Library, vid: ArxivId, source: str, page: bytes) -> None:
    """Keep the HTML page's entries in the library (best effort: the markdown route remains)."""
    try:
        entries = references_from_html(page)
        data = {"source": source, "references": [e.to_dict() for e in entries]}
        library.write_text(vid, _path_name(source), BIBLIOGRAPHY_VERSION, data)
    except Exception:  # a bibliography that cannot be stored must never fail the reading of the paper
        logger.warning(
            "arxiv:%s: could not store the bibliography of the %s page", vid.text, source, exc_info=True
        )


def references_from_rendered_html(markdown: str) -> list[Reference]:
    """The entries of an HTML page's rendered reference list: one top-level list item per ``li.ltx_bibitem``.

    For a paper whose page was read before its bibliography was kept (or whose text came from the
    fleet): the labels of author-year lists are not marked in the text, so they stay empty.
    """
    items: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("- "):
            items.append(line[2:])
        elif line.startswith("  ") and items:
            items[-1] = f"{items[-1]} {line.strip()}"
    out = []
    for item in items:
        label = re.match(r"\[([^\[\]]{1,40})\]\s+", item)
        out.append(fields(label[1], item[label.end() :]) if label else fields("", item))
    return out


def load_bibliography(
    library: Library, vid: ArxivId, source: str, references_markdown: str
) -> list[Reference]:
    """The paper's entries: those stored from its HTML page, else cut from its reference list."""
    if source != "pdf":
        data = library.read_text(vid, _path_name(source), BIBLIOGRAPHY_VERSION)
        if data is not None:
            try:
                return [Reference.from_dict(e) for e in data["references"]]
            except (KeyError, TypeError, ValueError):
                logger.warning("arxiv:%s: ignoring a malformed stored bibliography", vid.text)
        return references_from_rendered_html(references_markdown)
    return references_from_markdown(references_markdown)


def dumps(entries: Sequence[Reference]) -> str:
    return json.dumps([e.to_dict() for e in entries], ensure_ascii=False)
