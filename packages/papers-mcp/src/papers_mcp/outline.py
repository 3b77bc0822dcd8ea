"""A paper's section tree, built from the headings its route found (``PaperText.headings``).

Each route records its headings as it writes the text (``headings``): arXiv's HTML gives each
heading's number (LaTeXML's ``ltx_tag``) and its nesting; the PDF route gives the blocks its
splitter read as headings, with their levels where the PDF's outline (bookmarks) lists them. What
the route does not say is read from the heading's text: the PDF prints numbers, not structure, and
its ``#`` counts are not reliable (a 2.1 heading can carry one ``#`` and its parent two), so the
hierarchy comes from the section numbers a paper prints: ``3.2.1`` sits under ``3.2``; a REVTeX
``A.`` under a Roman ``II.``; an ``Appendix A`` (or a lettered section in the appendix) starts an
appendix section. Only unnumbered headings without a level fall back to ``#`` counts. A PDF
"heading" that starts with a lower-case word or a bullet is a line the converter promoted by
mistake and is read as text. A text made without a route (``headings`` None) is read from its
markdown headings by the same rules.

Each section spans from its heading to the next heading at its depth or above, in its part
(body, references or appendix), so a section never crosses a level boundary. The references
are one section. A section is found by number ("3.2", "A", "II.A"), by title words, or by a
path ("A › MS COCO") when its title alone is ambiguous.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from .fulltext import PaperText
from .headings import PARTS, Heading, Part, in_part
from .render import CHARS_PER_TOKEN  # the page budget's estimate, so a section's size matches its pages

__all__ = ["PATH_SEPARATOR", "Outline", "Part", "Section", "build_outline", "section_tokens"]

PATH_SEPARATOR = " › "

_HEADING_LINE = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$", re.MULTILINE)
_TAG = re.compile(r"<[^>]*>")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_]|[*_](?!\w)")
_APPENDIX = re.compile(
    r"^(?:appendix|appendices)\s+([A-Z](?:\.\d{1,2})*)\b\s*[.:\-–—]?\s*(.*)$", re.IGNORECASE
)
_ARABIC = re.compile(r"^(\d{1,2}(?:\.\d{1,2})*)\.?(?:\s+(.*))?$")
# "II. THEORY" (REVTeX PDF), "II Theory" (LaTeXML); "II.1 Setup", "IV-A Model" (IEEE): a title follows
# in capitals, so "I think..." stays a title.
_ROMAN = re.compile(r"^([IVX]{1,6})(?:\.\s*|\s+)(?=[A-Z0-9$\\(\[])(.+)$")
_ROMAN_PATH = re.compile(r"^([IVX]{1,6}(?:[.\-](?:\d{1,2}|[A-Z]))+)\.?\s+(.+)$")
_LETTER_PATH = re.compile(r"^([A-Z](?:\.\d{1,2})+)\.?\s+(.+)$")
_LETTER_MARKED = re.compile(r"^([A-Z])[.:]\s+(.+)$")
_LETTER_BARE = re.compile(r"^([A-Z])\s+([A-Z0-9].*)$")
_NOT_A_TITLE_START = re.compile(r"^[^\w(\[\"'“‘]|^[a-z]")
_MAX_TITLE_CHARS = 200
_MIN_OPENING_CHARS = 200
_WORD = re.compile(r"[^\W_]+")
_SPEC_PREFIX = re.compile(r"^(?:section|sect\.?|sec\.?|§)\s*", re.IGNORECASE)
_SPEC_NUMBER = re.compile(
    r"^([0-9]{1,2}(?:\.[0-9]{1,2})*|[A-Z](?:\.[0-9]{1,2})+|[IVX]{1,6}(?:[.\-](?:[0-9]{1,2}|[A-Z]))+|[A-Z]|[IVX]{2,6})"
    r"\.?(?=\s|$)",
    re.IGNORECASE,
)

Style = Literal["arabic", "roman", "letter", ""]


@dataclass
class Section:
    """One node of the tree. ``number`` is the full key ("3.2", "II.A", "A.2"), "" when unnumbered."""

    index: int
    part: Part
    number: str
    title: str  # the heading as printed, emphasis removed: "3.2 Attention", "Appendix A: Proof"
    name: str  # the title without its number: "Attention"
    depth: int
    start: int  # offset of the heading line in the part's markdown
    end: int = 0
    parent: int | None = None
    children: list[int] = field(default_factory=list)
    selector: str = ""  # the shortest `section` argument that finds exactly this section
    style: Style = ""
    hashes: int = 0


@dataclass(frozen=True)
class _Heading:
    start: int
    hashes: int
    title: str
    name: str
    number: str  # as printed, without the trailing dot: "3.2", "II", "A"
    style: Style
    appendix_prefix: bool
    depth: int = 0  # the nesting the route gave (1 = top of its part), 0 when it gave none


def clean_title(raw: str) -> str:
    """A heading's text without markdown emphasis, tags or doubled spaces."""
    text = _EMPHASIS.sub("", _TAG.sub("", raw))
    return " ".join(text.split()).strip()


def _parse_heading(raw: str, part: Part) -> tuple[str, str, Style, bool] | None:
    """(number, name, style, appendix_prefix) of a heading's text, or None when it is not a heading."""
    title = clean_title(raw)
    if not title or len(title) > _MAX_TITLE_CHARS or _NOT_A_TITLE_START.match(title):
        return None
    if m := _APPENDIX.match(title):
        return m[1].upper(), m[2].strip() or f"Appendix {m[1].upper()}", "letter", True
    if (m := _ARABIC.match(title)) and (m[2] is None or not m[2][:1].islower()):
        return m[1], (m[2] or "").strip(), "arabic", False
    if part == "appendix" and (m := _LETTER_MARKED.match(title) or _LETTER_BARE.match(title)):
        return m[1], m[2].strip(), "letter", False
    if m := _ROMAN_PATH.match(title):
        return m[1].replace("-", "."), m[2].strip(), "roman", False
    if m := _ROMAN.match(title):
        return m[1], m[2].strip(), "roman", False
    if m := _LETTER_PATH.match(title):
        return m[1], m[2].strip(), "letter", False
    if m := _LETTER_MARKED.match(title):
        return m[1], m[2].strip(), "letter", False
    return "", title, "", False


def _headings(markdown: str, part: Part) -> list[_Heading]:
    found = []
    for match in _HEADING_LINE.finditer(markdown):
        parsed = _parse_heading(match[2], part)
        if parsed is None:
            continue
        number, name, style, prefixed = parsed
        found.append(
            _Heading(match.start(), len(match[1]), clean_title(match[2]), name, number, style, prefixed)
        )
    return found


_HASHES = re.compile(r"#{1,6}(?=[ \t])")
_FIRST_COMPONENT = re.compile(r"^[^.\-]+")


def _style(number: str) -> Style:
    """How a number the route gave is written: "3.2" arabic, "II.1" roman, "A.1" letter."""
    first = _FIRST_COMPONENT.match(number)
    head = first[0] if first else ""
    if head.isdigit():
        return "arabic"
    if (re.fullmatch(r"[IVX]{1,6}", head) and len(head) > 1) or head == "I":
        return "roman"
    return "letter" if re.fullmatch(r"[A-Z]", head) else ""


def _found_heading(found: Heading, markdown: str, top: int) -> _Heading | None:
    """A route's heading as the tree reads it; its number from the text when the route gave none.

    A heading with a depth is one the route is sure of (LaTeXML's, or a PDF bookmark's): it stays
    a heading even when its words would not make one (``acknowledgements``, ``k-NN baselines``).
    """
    hashes = _HASHES.match(markdown, found.start)
    count = len(hashes[0]) if hashes else 0
    depth = found.depth - top + 1 if found.depth else 0
    title = clean_title(found.title)
    if found.number is None:
        parsed = _parse_heading(title, found.part)
        if parsed is None and not (found.depth and title):
            return None  # a line the PDF converter promoted; a heading the route placed stays one
        number, name, style, prefixed = parsed or ("", title, "", False)
        return _Heading(found.start, count, title, name, number, style, prefixed, depth)
    if not title:
        return None
    number = found.number
    prefixed = bool(re.match(r"(?i)appendi(?:x|ces)\b", title))
    lead = re.match(rf"(?i)^(?:appendix\s+)?{re.escape(number)}[.:]?\s+", title) if number else None
    name = title[lead.end() :].strip() if lead else title
    return _Heading(found.start, count, title, name or title, number, _style(number), prefixed, depth)


def _route_headings(headings: Sequence[Heading], markdown: str, part: Part) -> list[_Heading]:
    """The part's headings the route found, their depths counted from the part's shallowest."""
    found = in_part(headings, part)
    top = min((h.depth for h in found if h.depth), default=1)
    return [h for f in found if (h := _found_heading(f, markdown, top)) is not None]


def _norm_words(text: str) -> list[str]:
    """Lower-case words with a plural "s" dropped, so "Conclusions" finds "Conclusion"."""
    words = [w.lower() for w in _WORD.findall(text)]
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]


class Outline:
    """The sections of one paper, in reading order, with their spans in ``PaperText``'s parts."""

    def __init__(self, text: PaperText, sections: list[Section]) -> None:
        self.text = text
        self.sections = sections

    def part_text(self, part: Part) -> str:
        return str(getattr(self.text, part))

    def markdown(self, section: Section) -> str:
        """The section's markdown with its subsections (for the references: the whole list)."""
        return self.part_text(section.part)[section.start : section.end].strip()

    def tokens(self, section: Section) -> int:
        return section_tokens(self.markdown(section))

    def path(self, section: Section) -> str:
        """ "3 Model Architecture › 3.2 Attention": the section under its ancestors."""
        chain = [section]
        while chain[-1].parent is not None:
            chain.append(self.sections[chain[-1].parent])
        return PATH_SEPARATOR.join(s.title for s in reversed(chain))

    def in_parts(self, parts: Iterable[Part]) -> list[Section]:
        wanted = set(parts)
        return [s for s in self.sections if s.part in wanted]

    def at(self, part: Part, offset: int) -> Section | None:
        """The innermost section whose span holds ``offset`` of ``part``."""
        best = None
        for section in self.sections:
            if section.part == part and section.start <= offset < max(section.end, section.start + 1):
                best = section  # later (deeper) sections that still hold the offset win
        return best

    def subtree(self, section: Section) -> list[Section]:
        out = [section]
        for child in section.children:
            out.extend(self.subtree(self.sections[child]))
        return out

    def find(self, spec: str, parts: Sequence[Part] = PARTS) -> Section | None:
        """The section a `section` argument names: a number, title words, or a "›" path."""
        candidates = self.in_parts(parts)
        text = " ".join(spec.split()).strip().strip("\"'“”")
        if not text:
            return None
        steps = [s.strip() for s in re.split(r"\s*(?:›|>)\s*", text) if s.strip()]
        if len(steps) > 1:
            found = self._find_one(steps[0], candidates)
            for step in steps[1:]:
                if found is None:
                    return None
                found = self._find_one(step, [c for c in candidates if c.parent == found.index])
            return found
        return self._find_one(text, candidates)

    def _find_one(self, spec: str, candidates: Sequence[Section]) -> Section | None:
        text = _SPEC_PREFIX.sub("", spec).strip()
        appendix_asked = bool(re.match(r"^(?:appendix|appendices|app\.)\s+", text, re.IGNORECASE))
        if appendix_asked:
            text = re.sub(r"^(?:appendix|appendices|app\.)\s+", "", text, flags=re.IGNORECASE)
            candidates = [c for c in candidates if c.part == "appendix"] or candidates
        head = _SPEC_NUMBER.match(text)
        by_number = None
        if head:
            key = head[1].upper().replace("-", ".")
            exact = [c for c in candidates if c.number.upper() == key]
            if not exact:  # "A" for a REVTeX "II.A", when only one section ends that way
                tails = [c for c in candidates if c.number.upper().endswith("." + key)]
                exact = tails if len(tails) == 1 else []
            by_number = exact[0] if exact else None
            rest = set(_norm_words(text[head.end() :]))
            if by_number is not None and rest <= set(_norm_words(by_number.title)):
                return by_number
        return self._by_title(text, candidates) or by_number

    @staticmethod
    def _by_title(text: str, candidates: Sequence[Section]) -> Section | None:
        words = _norm_words(text)
        if not words:
            return None
        phrase = " ".join(words)
        same = [c for c in candidates if " ".join(_norm_words(c.name)) == phrase]
        if not same:
            same = [c for c in candidates if " ".join(_norm_words(c.title)) == phrase]
        if same:
            return same[0]
        wanted = set(words)
        containing = [c for c in candidates if wanted <= set(_norm_words(c.title))]
        if not containing:
            return None
        return min(containing, key=lambda c: (len(set(_norm_words(c.title)) - wanted), c.depth, c.index))

    def listing(self, parts: Sequence[Part] = PARTS, limit: int = 80) -> str:
        """ "1 Introduction; 2 Background; ...": the sections an error message offers."""
        names = [s.title for s in self.in_parts(parts)]
        shown = "; ".join(names[:limit])
        return shown + (f"; ... ({len(names) - limit} more)" if len(names) > limit else "")


def section_tokens(markdown: str) -> int:
    """About how many tokens ``markdown`` is, by the estimate the page budget uses."""
    return max(1, round(len(markdown) / CHARS_PER_TOKEN)) if markdown else 0


def _place(stack: list[Section], heading: _Heading, part: Part) -> tuple[int, str]:
    """Depth and full number of a numbered heading, given the open sections above it."""
    if heading.depth:
        # The route's nesting, unless the number names an open section as its parent ("A.1" under
        # "A"): a page whose sections are not nested in its markup still numbers them.
        prefix = heading.number.rpartition(".")[0]
        owner = next((s for s in reversed(stack) if prefix and s.number == prefix), None)
        depth = owner.depth + 1 if owner is not None else heading.depth
    elif heading.appendix_prefix:
        return 1, heading.number
    elif len(heading.number.split(".")) > 1:  # "3.2.1", "A.1", "II.1": the number says the depth
        return len(heading.number.split(".")), heading.number
    else:
        depth = _depth_by_style(stack, heading)
    if "." in heading.number or heading.appendix_prefix:
        return depth, heading.number
    parent = next((s for s in reversed(stack) if s.depth < depth and s.number), None)
    if depth > 1 and parent is not None:
        return depth, f"{parent.number}.{heading.number}"
    return depth, heading.number


def _depth_by_style(stack: list[Section], heading: _Heading) -> int:
    """A single-part number's depth: that of the open section numbered the same way, else one below."""
    numbered = [s for s in stack if s.style]
    same = next((s for s in numbered if s.style == heading.style), None)
    if same is not None:
        return same.depth
    return numbered[-1].depth + 1 if numbered else 1


def _build_part(markdown: str, part: Part, sections: list[Section], headings: list[_Heading]) -> None:
    if not markdown.strip():
        return
    if part == "references":
        first = headings[0] if headings and not markdown[: headings[0].start].strip() else None
        number = first.number if first is not None and first.style == "arabic" else ""
        title = first.title if first is not None else "References"
        name = first.name if first is not None else "References"
        sections.append(Section(len(sections), part, number, title, name, 1, 0, len(markdown), style=""))
        return
    opening_end = headings[0].start if headings else len(markdown)
    if len(markdown[:opening_end].strip()) >= _MIN_OPENING_CHARS:
        title = "Appendix" if part == "appendix" else "Untitled opening"
        sections.append(Section(len(sections), part, "", title, title, 1, 0))
    stack: list[Section] = []
    for heading in headings:
        if heading.style:
            depth, number = _place(stack, heading, part)
            while stack and stack[-1].depth >= depth:
                stack.pop()
        else:
            holder = next((s for s in reversed(stack) if s.hashes < heading.hashes), None)
            depth = heading.depth or (holder.depth + 1 if holder is not None else 1)
            while stack and stack[-1].depth >= depth:
                stack.pop()
            number = heading.number  # "" unless the route gave one in no known style
        node = Section(
            len(sections),
            part,
            number,
            heading.title,
            heading.name or heading.title,
            depth,
            heading.start,
            parent=stack[-1].index if stack else None,
            style=heading.style,
            hashes=heading.hashes,
        )
        if node.parent is not None:
            sections[node.parent].children.append(node.index)
        sections.append(node)
        stack.append(node)
    in_part = [s for s in sections if s.part == part]
    for i, section in enumerate(in_part):
        nxt = next((s for s in in_part[i + 1 :] if s.depth <= section.depth), None)
        section.end = nxt.start if nxt is not None else len(markdown)


def _selectors(outline: Outline) -> None:
    """Give each section the shortest argument that `find` maps back to exactly it."""
    for section in outline.sections:
        options = [section.number] if section.number else []
        options.append(section.name)
        chosen = next((o for o in options if o and outline.find(o) is section), None)
        if chosen is None:
            parent = outline.sections[section.parent] if section.parent is not None else None
            chosen = (
                f"{parent.selector}{PATH_SEPARATOR}{section.name}" if parent is not None else section.title
            )
        section.selector = chosen


def build_outline(text: PaperText) -> Outline:
    """The section tree of ``text``: body, then references, then appendix, in reading order.

    Built from the headings the route found; a text without them is read from its markdown.
    """
    sections: list[Section] = []
    for part in PARTS:
        markdown = str(getattr(text, part))
        if text.headings is None:
            headings = _headings(markdown, part)
        else:
            headings = _route_headings(text.headings, markdown, part)
        _build_part(markdown, part, sections, headings)
    outline = Outline(text, sections)
    _selectors(outline)
    return outline
