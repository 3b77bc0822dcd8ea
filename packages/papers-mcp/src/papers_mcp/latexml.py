"""A LaTeXML page (arxiv.org/html, ar5iv) -> markdown in four levels, read from its structure.

arXiv's HTML is LaTeXML output: the structure a PDF hides is explicit in class names
(``section.ltx_section``, ``section.ltx_appendix``, ``section.ltx_bibliography``, ``div.ltx_theorem``,
``math[alttext]``...). Everything is read from the ``article.ltx_document`` element, so the page
chrome around it (arXiv's header, the "Report issue" dialog, the table-of-contents widget, the
footer, ar5iv's buttons) is never visited at all.

Rendering rules, each chosen so an agent reads the text once and in order:

- math: the TeX source in ``alttext`` (``$…$`` inline, ``$$…$$`` display), never the MathML's
  own characters, so a formula is written exactly once; inline math that is only a number is
  written as the number (``34.26``, ``**88.65**``: ``math_numbers``);
- paragraphs flow: inline math, citations and references stay in their sentence; whitespace runs
  collapse to one space;
- headings carry their number (``## III Strong Field Limit``) at the depth of their nesting, and
  are kept with the text with that number and depth (``latexml_headings``), for the outline;
- tables become markdown tables under their caption, spanning headers flattened into the
  columns they cover and row-spanning cells repeated (``tables``); figures become their captions;
- citations are their labels (``[3, 1]``, ``(Luo et al., 2022)``, an unresolved key as ``[Key]``);
  footnotes become ``[^n]`` with the note after the paragraph;
- theorem-like environments and proofs keep their run-in label (``**Theorem 1.1.**``);
- LaTeXML's error spans (``.ltx_ERROR``: raw TeX of an undefined macro) are dropped;
- a code listing is a fenced code block of the source the page carries (``latexml_listing``).

Levels: ``front`` = title, authors and affiliations, abstract, keywords, title-page notes
(``latexml_front``); ``references`` = the bibliography;
``appendix`` = every ``ltx_appendix`` wherever it stands, and anything after the bibliography;
``body`` = the rest, in order (an unheaded introduction before the first section included).

Parser: lxml's HTML parser (README, "HTML route": measured against selectolax on the shared pages).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

import lxml.etree
from lxml.etree import _Element

from .fulltext import EXTRACTOR_VERSIONS, PaperText
from .headings import HeadingLine, locate
from .html_quality import SECTIONING as _SECTIONING
from .html_quality import HtmlSignals, count_signals, failed_conversion
from .latexml_front import LABEL_CLASSES, front_lines, heading_paragraph, headless_front
from .latexml_headings import heading_line
from .latexml_listing import DATA_CLASS, code_block
from .latexml_nodes import class_set, flow, tag_name
from .math_numbers import plain_number, script
from .tables import Cell, Row, markdown_table

__all__ = ["HTML_EXTRACTOR_VERSION", "LatexmlPage", "parse_page"]

# Bump it in fulltext.EXTRACTOR_VERSIONS whenever the markdown for the same page changes.
HTML_EXTRACTOR_VERSION = EXTRACTOR_VERSIONS["html"]

_BLOCK_TAGS = frozenset(
    {
        "section", "div", "p", "figure", "table", "ul", "ol", "dl", "li", "dt", "dd", "blockquote",
        "pre", "nav", "header", "footer", "article", "figcaption", "h1", "h2", "h3", "h4", "h5", "h6",
        "thead", "tbody", "tfoot", "tr", "td", "th", "hr",
    }
)  # fmt: skip
# ltx_bib_cited: the "Cited by: §I" back-links under a bibliography entry (navigation, not content).
# DATA_CLASS: a listing's "⬇" download link (its source is read by ``latexml_listing``).
# LABEL_CLASSES: oxide's "Affiliation: ", "Thanks: ", "footnotetext: " labels (markup, not text).
_DROP_CLASSES = frozenset(
    {"ltx_ERROR", "ltx_TOC", "ltx_pagination", "ltx_page_navbar", "ltx_rdf", "ltx_bib_cited", DATA_CLASS}
    | LABEL_CLASSES
)
_DOI_PREFIXES = ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/")
_DROP_TAGS = frozenset(
    {"script", "style", "button", "dialog", "form", "input", "textarea", "img", "noscript"}
)
_HEADED = (*_SECTIONING, "ltx_paragraph", "ltx_subparagraph", "ltx_appendix", "ltx_bibliography")
_FRONT_CLASSES = frozenset(
    {"ltx_authors", "ltx_abstract", "ltx_keywords", "ltx_classification", "ltx_dates", "ltx_pubnotes"}
)
# Before the first section these are title-page material: notes, dated or ruled blocks.
_TITLE_PAGE_CLASSES = frozenset({"ltx_note", "ltx_logical-block", "ltx_acknowledgements"})
# A paragraph before the first section that opens with one of these labels is title-page material:
# keywords and the subject classifications journals ask for (MSC, PACS, JEL, ACM CCS).
_KEYWORDS_PARAGRAPH = re.compile(
    r"^(?:key\s*words?|index\s+terms|(?:\d{4}\s+)?(?:mathematics\s+|mathematical\s+|ams\s+)?subject\s+"
    r"classifications?|msc|pacs(?:\s+numbers?)?|jel(?:\s+classification)?|ccs\s+concepts|acm\s+(?:ccs|classification))\b",
    re.IGNORECASE,
)
_LABELLED = frozenset({"ltx_theorem", "ltx_proof", "ltx_acknowledgements"})
_EQUATION_CLASSES = frozenset({"ltx_equation", "ltx_equationgroup", "ltx_eqn_table"})
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_SPACED_TAGS = frozenset({"td", "th", "tr", "li", "dt", "dd"})
_INLINE_ONLY = frozenset({"math", "svg", "cite", "a", "br", "img", "sup", "sub", "em", "b", "i", ""})
_DISPLAYSTYLE = re.compile(r"\\displaystyle\b\s*")
_BULLETS = frozenset({"•", "∙", "◦", "‣", "–", "-", "*", "·", "▪"})


# Two inline formulas that touch (``$a$$b$``) would read as a display delimiter: they are one formula.
_TOUCHING_MATH = re.compile(r"(?<=[^\s$])\$\$(?=[^\s$])")


def _prose(text: str) -> str:
    """``_flow``, and formulas that touch joined into one (``$M/$`` + ``${10}^{12}$``)."""
    return _TOUCHING_MATH.sub("", flow(text))


def _text(element: _Element) -> str:
    return "".join(element.itertext())


# LaTeXML's own macros in an alttext are no TeX a reader knows: the signs they stand for.
_INTERNAL_SIGNS = {"\\lx@sectionsign": "§", "\\lx@paragraphsign": "¶"}
_SIGNS = frozenset(_INTERNAL_SIGNS.values())
_INTERNAL = re.compile("|".join(re.escape(k) for k in _INTERNAL_SIGNS) + r"(?![A-Za-z@])")


def _tex(math: _Element) -> str:
    """A formula's TeX: ``alttext``, else the TeX annotation, else (never seen) the MathML's text."""
    tex = math.get("alttext")
    if tex is None:
        found = math.xpath(".//*[local-name()='annotation'][@encoding='application/x-tex']")
        tex = _text(found[0]) if found else _text(math)
    return _INTERNAL.sub(lambda m: _INTERNAL_SIGNS[m[0]], flow(str(tex)))


@dataclass(frozen=True)
class LatexmlPage:
    """A rendered page: the four levels (a ``PaperText``) and the conversion's own quality signals."""

    text: PaperText
    signals: HtmlSignals


class _Renderer:
    """Walks one ``article.ltx_document`` and renders its elements to markdown blocks.

    The tree is only read, never changed. Footnotes met inside a block are collected and written
    right after that block, or after the whole ``ltx_para`` that holds it, so a note never falls
    between a sentence and the display equation that continues it.
    """

    def __init__(self) -> None:
        self._notes: list[str] = []
        self._held = 0  # how many ltx_para elements are being rendered: their notes wait for their end

    # -- inline content --

    def inline(self, element: _Element, *, notes: bool = True, skip: Iterable[object] = ()) -> str:
        """An element's content as one line of prose (its own tail excluded; ``skip``ped children's too)."""
        return _prose(self._raw(element, notes, skip))

    def _raw(self, element: _Element, notes: bool, skip: Iterable[object] = ()) -> str:
        """Like ``inline`` but with the source's whitespace kept, so ``<span>I </span>Intro`` keeps its space."""
        skipped = {id(s) for s in skip}
        parts: list[str] = [element.text or ""]
        for child in element:
            if id(child) not in skipped:
                parts.append(self._inline_child(child, notes))
            parts.append(child.tail or "")
        return "".join(parts)

    def _inline_child(self, child: _Element, notes: bool) -> str:
        tag = tag_name(child)
        if not tag or tag in _DROP_TAGS:
            return ""
        classes = class_set(child)
        if classes & _DROP_CLASSES:
            return ""
        if tag == "math":
            tex = _tex(child)
            if not tex:
                return ""
            if child.get("display") == "block":
                return f" $${tex}$$ "
            if tex in _SIGNS:
                return tex  # "§" of LaTeXML's \lx@sectionsign: a sign, not math
            number = plain_number(tex)
            return number if number is not None else f"${tex}$"
        if tag == "br":
            return " "
        if tag in ("sup", "sub") and "ltx_note_mark" not in classes:
            return script(self._raw(child, notes), tag)
        if tag == "svg":
            return self._diagram(child)
        if "ltx_note" in classes:
            return self._footnote(child) if notes else ""
        if tag == "cite":
            return self._cite(child)
        if (
            tag == "a"
            and "ltx_bib_external" in classes
            and (child.get("href") or "").startswith(_DOI_PREFIXES)
        ):
            # arXiv's bibliography links a DOI as the bare word "Document": give the DOI itself.
            return "doi:" + (child.get("href") or "").split("doi.org/", 1)[1]
        if tag == "code" or "ltx_verbatim" in classes:
            code = flow(_text(child)).replace("`", "'")
            return f"`{code}`" if code else ""
        if tag == "table" and classes & _EQUATION_CLASSES:
            lines, _ = self._equations(child)
            return " " + " ".join(lines) + " "
        if tag in _SPACED_TAGS or classes & {"ltx_td", "ltx_tr"}:
            return " " + self._raw(child, notes) + " "
        return self._raw(child, notes)

    def _cite(self, cite: _Element) -> str:
        """A citation as printed (``[3, 1]``, ``(Luo et al., 2022)``); bare unresolved keys get brackets."""
        text = self.inline(cite)
        if text and text[0] not in "[(" and _has_class(cite, "ltx_missing_citation"):
            return f"[{text}]"
        return text

    def _footnote(self, note: _Element) -> str:
        marks = [m for m in note if "ltx_note_mark" in class_set(m)]
        mark = flow(_text(marks[0])) if marks else ""
        mark = mark or str(len(self._notes) + 1)
        contents = [c for c in note.iter() if isinstance(c.tag, str) and "ltx_note_content" in class_set(c)]
        if contents:
            inner = [c for c in contents[0] if class_set(c) & {"ltx_note_mark", "ltx_tag_note"}]
            body = self.inline(contents[0], notes=False, skip=inner)
            if body:
                self._notes.append(f"[^{mark}]: {body}")
        return f"[^{mark}]"

    def _diagram(self, svg: _Element) -> str:
        """A TikZ/xy picture: its text labels in order, so a commutative diagram is not lost entirely."""
        labels = []
        for node in svg.iter():
            if isinstance(node.tag, str) and "ltx_foreignobject_content" in class_set(node):
                label = self.inline(node, notes=False)
                if label:
                    labels.append(label)
        return f" [Diagram: {'; '.join(labels)}] " if labels else ""

    # -- block content --

    def blocks(self, element: _Element, skip: Iterable[object] = ()) -> list[str]:
        """An element's children as markdown blocks; runs of inline content become paragraphs."""
        skipped = {id(s) for s in skip}
        out: list[str] = []
        run: list[str] = [element.text or ""]
        paragraph = "ltx_para" in class_set(element)
        self._held += paragraph

        def flush() -> None:
            text = _prose("".join(run))
            run.clear()
            if text:
                out.append(text)
            self.flush_notes(out)

        for child in element:
            if id(child) not in skipped:
                if _is_block(child):
                    flush()
                    out.extend(self.block(child))
                else:
                    run.append(self._inline_child(child, notes=True))
            run.append(child.tail or "")
        flush()
        self._held -= paragraph
        self.flush_notes(out)
        return out

    def flush_notes(self, out: list[str]) -> None:
        """Write the notes of the text rendered so far (``[^n]: …``) after it, into ``out``."""
        if self._notes and not self._held:
            out.extend(self._notes)
            self._notes = []

    def block(self, element: _Element) -> list[str]:
        """One block element as markdown blocks."""
        tag = tag_name(element)
        classes = class_set(element)
        if (
            not tag
            or tag in _DROP_TAGS
            or tag in ("nav", "header", "footer", "hr")
            or classes & _DROP_CLASSES
        ):
            return []
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            title = self.inline(element)
            return [heading_line(element, title)] if title else []
        if "ltx_listing" in classes and (code := code_block(element)) is not None:
            return [code]  # a code listing: its exact source (``latexml_listing``)
        if tag == "table" and classes & _EQUATION_CLASSES:
            lines, extra = self._equations(element)
            out = ["\n".join(lines)] if lines else []
            self.flush_notes(out)
            return out + extra
        if tag == "table" or "ltx_tabular" in classes:
            return self._table(element) if _multicolumn(element) else self.blocks(element)
        if tag == "figure":
            return self._figure(element)
        if tag in ("ul", "ol"):
            return self._list(element)
        if tag == "dl":
            return self._description(element)
        if classes & _LABELLED:
            return self._labelled(element)
        return self.blocks(element)

    def _labelled(self, element: _Element) -> list[str]:
        """Theorem, lemma, definition, proof, acknowledgements: the run-in label opens the first paragraph."""
        titles = [c for c in element if tag_name(c) in _HEADINGS and "ltx_title" in class_set(c)]
        label = self.inline(titles[0]) if titles else ""
        rest = self.blocks(element, skip=titles[:1])
        if not label:
            return rest
        label_md = f"*{label}*" if "ltx_proof" in class_set(element) else f"**{label}**"
        if rest and not rest[0].startswith(("#", "$$", "|", "- ", "[^")):
            return [f"{label_md} {rest[0]}", *rest[1:]]
        return [label_md, *rest]

    def _figure(self, figure: _Element) -> list[str]:
        """A figure's caption first, then what it holds that is text (tables, sub-figure captions)."""
        captions = [c for c in figure if tag_name(c) == "figcaption"]
        out = [text for c in captions if (text := self.inline(c))]
        self.flush_notes(out)
        return out + self.blocks(figure, skip=captions)

    def _list(self, element: _Element) -> list[str]:
        out: list[str] = []
        for item in element:
            if tag_name(item) != "li":
                continue
            tags = [c for c in item if "ltx_tag" in class_set(c)][:1]
            label = self.inline(tags[0]) if tags else ""
            parts = self.blocks(item, skip=tags)
            prefix = "- " if not label or label in _BULLETS else f"- {label} "
            if parts:
                out.append(prefix + parts[0])
                out.extend("  " + p.replace("\n", "\n  ") for p in parts[1:])
            elif label:
                out.append(prefix.rstrip())
        return ["\n".join(out)] if out else []

    def _description(self, element: _Element) -> list[str]:
        out: list[str] = []
        term = ""
        for child in element:
            if tag_name(child) == "dt":
                term = self.inline(child)
            elif tag_name(child) == "dd":
                text = " ".join(self.blocks(child))
                out.append(f"- **{term}** {text}" if term else f"- {text}")
                term = ""
        return ["\n".join(out)] if out else []

    # -- equations and tables --

    def _equations(self, table: _Element) -> tuple[list[str], list[str]]:
        """Each equation row one line ``$$…$$ (n)``; prose that LaTeXML nested in the table is returned apart."""
        lines: list[str] = []
        extra: list[str] = []
        for row in _rows(table):
            pieces: list[str] = []
            number = ""
            for cell in _cells(row):
                if "ltx_eqn_eqno" in class_set(cell):
                    number = self.inline(cell, notes=False)
                    continue
                nested = [c for c in cell if tag_name(c) in _BLOCK_TAGS]
                if nested:
                    extra.extend(self.blocks(cell))
                    continue
                pieces.extend(self._display_pieces(cell))
            tex = _DISPLAYSTYLE.sub("", flow(" ".join(pieces))).strip()
            if tex:
                lines.append(f"$${tex}$$" + (f" {number}" if number else ""))
        return lines, extra

    def _display_pieces(self, cell: _Element) -> list[str]:
        """A cell of a display equation as TeX: formulas as they are, any words between them as ``\\text``."""
        pieces: list[str] = []

        def words(text: str | None) -> None:
            text = flow(text or "")
            if text:
                pieces.append(f"\\text{{{text}}}")

        words(cell.text)
        for child in cell:
            if tag_name(child) == "math":
                pieces.append(_tex(child))
            elif not (class_set(child) & _DROP_CLASSES):
                words(self.inline(child))
            words(child.tail)
        return pieces

    def _table(self, table: _Element) -> list[str]:
        """A markdown table with its columns kept (the rule is in ``tables``); notes follow it."""
        rows: list[Row] = []
        for row in _rows(table):
            cells = _cells(row)
            borders = {c for cell in cells for c in class_set(cell) if c.startswith("ltx_border_")}
            parent = row.getparent()
            rows.append(
                Row(
                    tuple(Cell(self.inline(c), _span(c, "colspan"), _span(c, "rowspan")) for c in cells),
                    head=parent is not None
                    and (tag_name(parent) == "thead" or "ltx_thead" in class_set(parent)),
                    rule_above=bool(borders & {"ltx_border_t", "ltx_border_tt"}),
                    rule_below=bool(borders & {"ltx_border_b", "ltx_border_bb"}),
                )
            )
        markdown = markdown_table(rows)
        out = [markdown] if markdown else []
        self.flush_notes(out)
        return out


_BLOCK_DESCENDANT = lxml.etree.XPath(
    "boolean(descendant::*[self::table or self::figure or self::ul or self::ol or self::dl or self::p"
    " or self::div or self::section])"
)
_TABULAR_DESCENDANTS = lxml.etree.XPath("descendant::span[contains(@class, 'ltx_tabular')]")


def _is_block(element: _Element) -> bool:
    """A block element, or an inline one that LaTeXML wrapped around blocks (a resized table's span).

    A tabular of one column is no table (it stacks lines: an author block, an accent built from a
    ``t`` over a comma) and stays in the running text.
    """
    tag = tag_name(element)
    if tag in _INLINE_ONLY:
        return False
    if "ltx_tabular" in class_set(element):
        return _multicolumn(element)
    if tag in _BLOCK_TAGS:
        return True
    return bool(_BLOCK_DESCENDANT(element)) or any(_multicolumn(t) for t in _TABULAR_DESCENDANTS(element))


def _multicolumn(table: _Element) -> bool:
    """Whether a tabular has two columns anywhere (a row of two cells, or a cell spanning two)."""
    for row in _rows(table):
        cells = _cells(row)
        if len(cells) > 1 or any(_span(c, "colspan") > 1 for c in cells):
            return True
    return False


def _has_class(element: _Element, name: str) -> bool:
    """Whether a descendant of ``element`` carries class ``name``."""
    return any(name in class_set(d) for d in element.iterdescendants() if d.get("class"))


def _span(cell: _Element, attribute: str) -> int:
    """A cell's colspan or rowspan (1 when absent or malformed; capped, a table is never that wide)."""
    value = cell.get(attribute) or "1"
    return min(int(value), 64) if value.isdigit() and int(value) > 0 else 1


def _rows(table: _Element) -> Iterator[_Element]:
    """The table's own rows (``tr`` or LaTeXML's ``span.ltx_tr``), not those of a nested table."""
    for child in table:
        tag = tag_name(child)
        classes = class_set(child)
        if tag == "tr" or "ltx_tr" in classes:
            yield child
        elif tag in ("thead", "tbody", "tfoot") or classes & {"ltx_thead", "ltx_tbody", "ltx_tfoot"}:
            yield from _rows(child)


def _cells(row: _Element) -> list[_Element]:
    return [c for c in row if tag_name(c) in ("td", "th") or "ltx_td" in class_set(c)]


def _is(element: _Element, *names: str) -> bool:
    return bool(class_set(element).intersection(names))


def _holds(element: _Element, *names: str) -> bool:
    """Whether a section nested in ``element`` has one of the classes ``names``."""
    return any(class_set(d).intersection(names) for d in element.iterdescendants("section"))


@dataclass
class _Levels:
    front: list[str]
    body: list[str]
    references: list[str]
    appendix: list[str]


def _title_page(renderer: _Renderer, element: _Element, before_sections: bool) -> bool:
    """Whether an element before the first section is title-page material (see ``latexml_front``)."""
    if not before_sections:
        return False
    if _is(element, *_TITLE_PAGE_CLASSES):
        return True
    return _is(element, "ltx_para") and bool(_KEYWORDS_PARAGRAPH.match(renderer.inline(element, notes=False)))


def _route(renderer: _Renderer, element: _Element, levels: _Levels, after_bibliography: list[bool]) -> None:
    """Send one element of the main text to its level (see the module docstring), in document order."""
    if _is(element, "ltx_bibliography"):
        levels.references.extend(renderer.block(element))
        after_bibliography[0] = True
    elif _is(element, "ltx_appendix"):
        levels.appendix.extend(renderer.block(element))
    elif tag_name(element) == "section" and _holds(element, "ltx_bibliography", "ltx_appendix"):
        # A chapter or part with its own bibliography or appendix: its heading and text stay where
        # they stand; the nested bibliography and appendices go to their levels.
        for child in element:
            if isinstance(child.tag, str):
                _route(renderer, child, levels, after_bibliography)
    elif after_bibliography[0]:
        levels.appendix.extend(renderer.block(element))
    else:
        levels.body.extend(renderer.block(element))


def parse_page(page: bytes, source: str) -> LatexmlPage:
    """Render one LaTeXML page; ``source`` ("html" or "ar5iv") is recorded in the result.

    Raises:
        ValueError: the page holds no ``article.ltx_document`` (it is not a LaTeXML rendering), or
            the conversion failed (``html_quality.failed_conversion``): the route moves on.
    """
    parser = lxml.etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, no_network=True, huge_tree=True
    )
    try:
        root = lxml.etree.fromstring(page, parser=parser)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise ValueError(f"the page cannot be parsed as HTML ({exc})") from exc
    if root is None:  # an empty or blank body: libxml2 builds no tree at all
        raise ValueError("the page is empty")
    articles = [a for a in root.iter("article", "div") if "ltx_document" in class_set(a)]
    if not articles:
        raise ValueError("the page holds no LaTeXML document (no article.ltx_document)")
    article = articles[0]
    renderer = _Renderer()
    levels = _Levels([], [], [], [])
    children = [c for c in article if isinstance(c.tag, str)]
    first_section = next((i for i, c in enumerate(children) if _is(c, *_HEADED)), len(children))
    titled = any(tag_name(c) == "h1" for c in children)
    sectioned = any(_is(c, *_SECTIONING, "ltx_appendix") for c in children)
    start = 0
    if not titled:
        levels.front, start = headless_front(renderer, children[:first_section])
    after_bibliography = [False]
    for index, child in enumerate(children[start:], start):
        if (
            tag_name(child) == "h1"
            or _is(child, *_FRONT_CLASSES)
            or _title_page(renderer, child, index < first_section)
        ):
            lines = front_lines(renderer, child)
            levels.front.extend(renderer.block(child) if lines is None else lines)
            renderer.flush_notes(levels.front)  # a front line's footnote stays in the front
        elif not sectioned and (heading := heading_paragraph(renderer, child)) is not None:
            # A page without sections: its typed headings, numbered by their text if at all.
            levels.body.append(HeadingLine(f"## {heading}", heading, None, 1))
        else:
            _route(renderer, child, levels, after_bibliography)
    signals = replace(count_signals(article, 0), titled=titled)
    failure = failed_conversion(signals)
    if failure is not None:
        raise ValueError(failure)
    if not signals.bib_entries:
        levels.references = []  # a bibliography heading over an empty list is no reference list
    body, in_body = locate("body", levels.body)
    references, in_references = locate("references", levels.references)
    appendix, in_appendix = locate("appendix", levels.appendix)
    text = PaperText(
        front="\n\n".join(levels.front),
        body=body,
        references=references,
        appendix=appendix,
        pages=0,
        source=source,
        headings=(*in_body, *in_references, *in_appendix),
    )
    words = len(body.split()) + len(appendix.split())
    return LatexmlPage(text=text, signals=replace(signals, words=words))
