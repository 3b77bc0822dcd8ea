"""What the parser should not read as prose in a paper's text: math, citation markers, cross-references, code.

papers-mcp hands out markdown with TeX math (``$\\delta Q$``, ``$$…$$ (1)``), citation markers
(``[23, 24, 25]``, ``(Luo et al., 2022)``, ``[Poisson:1990eh]``), cross-references (``Fig. 3``,
``Eq. (5)``, ``Section VI``, ``Appendix A``), numbered headings (``## III.2 Timelike geodesics``) and
code listings as fenced blocks (a paper's ``lstlisting``).
Read as prose they become wrong facts and entities: ``$3`` as three dollars, the citation ``[24]``
as a value, ``Eq`` as a person, a formula as a company. ``mask_markup`` blanks
them out with spaces, keeping every other character where it was, so offsets into the caller's
text stay valid and evidence is cut from that text, never from the masked one.

Currency is not math: ``$5 and $10`` stays, because an inline formula neither starts nor ends
with a space and its closing ``$`` is not followed by a digit.
"""

from __future__ import annotations

import re

__all__ = ["mask_layout", "mask_markup"]

# A fenced code block (```python … ```), its fence as long or longer at the end.
_CODE_BLOCK = re.compile(r"^(`{3,})[^\n`]*\n.*?^\1`*[ \t]*$", re.MULTILINE | re.DOTALL)
_DISPLAY_MATH = re.compile(r"\$\$.+?\$\$(?:[ \t]*\(\d+(?:\.\d+)*[a-z]?\))?|\\\[.+?\\\]", re.DOTALL)
_INLINE_MATH = re.compile(
    r"(?<![\w$\\])\$(?=[^\s$\d])[^$\n]{0,400}?(?<=[^\s\\$])\$(?![\d$])|\\\(.{1,400}?\\\)"
)
# An inline formula that is only a number ("$3$", "$10^{-3}$") has a digit after its "$": allowed
# when something TeX-like follows, so "$5 and $" never is one.
_NUMERIC_MATH = re.compile(r"(?<![\w$\\])\$\d[^$\n\s]{0,60}?[\^_{}\\][^$\n]{0,60}\$(?![\d$])")
# "$3$", "$1+1$", "$2\times2$": a formula that starts with a digit has no space in it (money does: "$5 and $")
_NUMBER_MATH = re.compile(r"(?<![\w$\\])\$-?\d[^\s$]{0,80}\$(?![\w$])")
# "$h=8$", "$N = 6$": a symbol set to a number reads as prose once its "$" are gone ("h=8 heads").
_ASSIGNMENT = re.compile(r"\$\s*[A-Za-z][A-Za-z0-9_]*\s*=\s*-?\d[\d.,]*\s*\$")
_NUMBER_CITATION = re.compile(r"\[\s*\d{1,4}(?:\s*[-–,]\s*\d{1,4})*\s*\]")
# "[Hayward:2005gi; 1968qtr..conf...87B; Bozza_2002]": bibliography keys LaTeX could not resolve, each
# one word holding a letter and a digit, colon or underscore ("[x, y]" and "[0.5, 1.0]" are not keys).
_KEY = r"(?=[^\s\];,]*[A-Za-z])(?=[^\s\];,]*[\d:_])[\w:.+/-]+"
_KEY_CITATION = re.compile(rf"\[\s*{_KEY}(?:\s*[;,]\s*{_KEY})*\s*\]")
# "(Peters et al., 2018a; Dolan and Brockett, 2005)": every part names authors, then a comma and a year
# ("(FY 2023)" and "(March 2020)" are periods, not citations); "Radford et al. (2018)", "Peters et al.".
_YEAR = r"(?:19|20)\d{2}[a-z]?"
_AUTHORS = r"[A-Z][\w'’.\-]*(?:\s+(?:[A-Z][\w'’.\-]*|de|van|von|der|den|and|&))*(?:\s+et al\.?)?"
_AUTHOR_YEAR = re.compile(
    rf"\((?:e\.g\.,?\s+|see\s+)?{_AUTHORS},\s*{_YEAR}(?:,\s*{_YEAR})*(?:;\s*{_AUTHORS},\s*{_YEAR}(?:,\s*{_YEAR})*)*\)"
    rf"|\((?=[^()]{{0,300}}?\bet al\.?)[^()]{{0,300}}?{_YEAR}\)"
    rf"|\b[A-Z][\w'’\-]+(?:\s+(?:and|&)\s+[A-Z][\w'’\-]+)?\s+et al\.?(?:\s*\({_YEAR}\))?"
    rf"|\b[A-Z][a-z'’\-]+\s+(?:and|&)\s+[A-Z][a-z'’\-]+\s*\({_YEAR}\)"
)
_CROSS_REFERENCE = re.compile(
    r"\b(?:Figs?|Eqs?|Secs?|Refs?|Tabs?|Thm|Lem|Def|Prop|Cor|Alg|App)\.\s*(?:\(?\d+(?:\.\d+)*[a-z]?\)?|(?=[a-z]+:))"
)
_NAMED_REFERENCE = re.compile(
    r"\b(?:Sections?|Sects?\.|Appendix|Appendices|Figures?|Tables?|Equations?|Chapters?|Theorems?|Lemmas?|"
    r"Corollary|Propositions?|Definitions?|Algorithms?)\s+(?:\d+(?:\.\d+)*[a-z]?|[IVX]+(?:\.\d+)*|[A-Z](?:\.\d+)*)\b"
)
# A markdown heading's marks and number ("## III.2 ", "### 3.1. "): structure, not a name's first word.
_SECTION_NUMBER = r"(?:\d+|[IVXL]+|[A-Z])(?:\.\d+)*\.?"
_HEADING_NUMBER = re.compile(
    rf"^#{{1,6}}[ \t]+(?:[*_]{{0,2}}{_SECTION_NUMBER}[*_]{{0,2}}[ \t]+)?"  # "## III.2 ", "## **1 Introduction**"
    rf"|^[*_]{{2}}(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?[*_]{{2}}[ \t]+",  # "**3.1** **Pre-training BERT**"
    re.MULTILINE,
)
# A LaTeX label key printed where its reference failed to resolve: "Eq. eq:25", "see fig:setup".
_LABEL_KEY = re.compile(
    r"\b(?:eqn?|fig|sec|subsec|tab|thm|lem|app|def|prop|cor|alg|ch)[:_][\w:.-]*\w", re.IGNORECASE
)


# A formula that is only a number ("$34.26$", "$\\mathbf{88.65}$", "$16$K"): the number is prose.
_MATH_NUMBER = re.compile(
    r"(?<![\w$\\])\$(?:\\(?:mathbf|textbf|bm|boldsymbol|underline|mathrm|text|textit|mathit)\{)?"
    r"(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)\}?(\\?%)?\$(?![\d$])"
)
# The PDF route's math digits: "28 _._ 4" (28.4), "1 _/_ 4" (1/4).
_PDF_NUMBER = re.compile(r"(?<![\w.])(\d+) _([./])_ (\d+)(?![\w])")
# "<sup>5</sup>", "<br>": HTML the PDF route leaves in a cell or a line; "> 5We used": a footnote's mark.
_HTML_TAG = re.compile(r"</?(?:sup|sub|br|b|i|em|strong|span|p)\s*/?>", re.IGNORECASE)
_FOOTNOTE_MARK = re.compile(r"^(?:>\s*)?(\d{1,2})(?=[A-Z][a-z])", re.MULTILINE)


def _keep_number(chars: list[str], start: int, end: int, number: str) -> None:
    """Blank ``chars[start:end]`` but write ``number`` at its right end ("$16$K" -> "  16K")."""
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "
    chars[end - len(number) : end] = list(number)


def _numbers_and_tags(text: str, chars: list[str]) -> None:
    for m in _MATH_NUMBER.finditer(text):
        _keep_number(chars, m.start(), m.end(), m.group(1) + ("%" if m.group(2) else ""))
    for m in _PDF_NUMBER.finditer(text):
        _keep_number(chars, m.start(), m.end(), f"{m.group(1)}{m.group(2)}{m.group(3)}")
    for pattern in (_HTML_TAG, _FOOTNOTE_MARK):
        for m in pattern.finditer(text):
            for i in range(*m.span((pattern is _FOOTNOTE_MARK and 1) or 0)):
                chars[i] = " "


def mask_markup(text: str) -> str:
    """``text`` with code, math, citation markers and cross-references replaced by spaces (same length).

    A formula that is only a number keeps its number, and the PDF route's "28 _._ 4" reads 28.4.
    """
    if not any(c in text for c in "$[(\\.#<>_`") and not _NAMED_REFERENCE.search(text):
        return text
    chars = list(text)
    for pattern in (
        _CODE_BLOCK,
        _DISPLAY_MATH,
        _INLINE_MATH,
        _NUMERIC_MATH,
        _NUMBER_MATH,
        _NUMBER_CITATION,
        _KEY_CITATION,
        _AUTHOR_YEAR,
        _CROSS_REFERENCE,
        _NAMED_REFERENCE,
        _HEADING_NUMBER,
        _LABEL_KEY,
    ):
        for m in pattern.finditer(text):
            if pattern not in (_DISPLAY_MATH, _CODE_BLOCK) and _MATH_NUMBER.fullmatch(m.group(0)):
                continue
            if pattern is _INLINE_MATH and _ASSIGNMENT.fullmatch(m.group(0)):
                chars[m.start()] = chars[m.end() - 1] = " "
                continue
            for i in range(m.start(), m.end()):
                if chars[i] != "\n":
                    chars[i] = " "
    _numbers_and_tags(text, chars)
    return "".join(chars)


_LAYOUT = re.compile(r"\*\*|^\s*-{3,}.*$", re.MULTILINE)
_ITALIC = re.compile(r"(?<![\w@])_(?=\S)([^_\n]{1,80}?)(?<=\S)_(?!\w)")
_TABLE_LINE = re.compile(r"^[^\n]*\|[^\n]*\|[^\n]*$", re.MULTILINE)


def mask_layout(text: str) -> str:
    """A table line's pipes and emphasis marks blanked (same length): the entity reader's text, so that a name
    never holds them ("|Transformer(4", "_O_"). A lone pipe ("By Royston Wild | Fool.co.uk") stays."""
    if "|" not in text and "_" not in text and "**" not in text:
        return text
    text = _TABLE_LINE.sub(lambda m: m.group(0).replace("|", " "), text)
    text = _ITALIC.sub(
        lambda m: f" {m.group(1)} ", text
    )  # "_O_(_n_", "_dmodel_": emphasis, not a name's part
    return _LAYOUT.sub(lambda m: " " * len(m.group(0)), text)
