"""Math that is only a number, written as the number.

Authors put numbers in math mode for their font (``$34.26$``, ``$\\mathbf{88.65}$``, ``$16$K``,
``$50\\%$``); as TeX they are harder to read, and a reader that masks math (research-mcp's fact
parser) loses them with the real formulas. A formula is "only a number" when, once its font
wrappers, braces and spacing are set aside, it is an optionally signed decimal (digit groups
``1{,}000`` allowed), with at most a percent sign and a unit written upright (``\\mathrm{ms}``,
``\\text{K}``). Bold (``\\mathbf``, ``\\bm``, ``\\boldsymbol``, ``\\textbf``) becomes ``**…**``.
A comma or semicolon after the number (``19.6,\\,\\,`` in a list split over formulas) stays
after it. Anything else (``1+1``, ``2^{17}``, ``x=0``, ``34.2\\pm0.3``) is real math and stays TeX.

Text written as a superscript or subscript outside math (``fm<sup>3</sup>``, ``10<sup>-3</sup>``,
``H<sub>2</sub>O``) keeps its meaning as Unicode script digits (``fm³``, ``10⁻³``, ``H₂O``) when
every character has one (``script``), rather than running into the text (``10-3``).
"""

from __future__ import annotations

import re

__all__ = ["plain_number", "script"]

_SPACING = re.compile(r"\\[,;:! ]|\\(?:quad|qquad|thinspace|enspace)\b|~")
_STYLE = re.compile(r"\\(?:displaystyle|textstyle|scriptstyle)\b")
_BOLD = re.compile(r"^\\(?:mathbf|textbf|bm|boldsymbol|mathbfit)\s*\{(.*)\}$", re.DOTALL)
_WRAPPER = re.compile(
    r"^\\(?:mathrm|textrm|text|textup|mathup|underline|mathnormal|mbox)\s*\{(.*)\}$", re.DOTALL
)
_OLD_BOLD = re.compile(r"^\{\\bf\s+(.*)\}$", re.DOTALL)
_OLD_ROMAN = re.compile(r"^\{\\rm\s+(.*)\}$", re.DOTALL)
_UNIT = re.compile(r"(?:\\(?:mathrm|text|textrm|rm)\s*\{([A-Za-zµμ°/]{1,6})\}|\\rm\s+([A-Za-z]{1,6}))$")
_TRAILING_PUNCTUATION = re.compile(r"([,;])(?:\s|\\[,;:! ]|\\(?:quad|qquad)\b|~)*$")
_NUMBER = re.compile(r"[+\-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?|[+\-−]?\.\d+%?")


def _unwrap(tex: str) -> tuple[str, bool]:
    """Strip font wrappers that enclose the whole formula; report whether one of them was bold."""
    bold = False
    while True:
        tex = tex.strip()
        if (m := _BOLD.match(tex) or _OLD_BOLD.match(tex)) is not None and _balanced(m[1]):
            tex, bold = m[1], True
        elif (m := _WRAPPER.match(tex) or _OLD_ROMAN.match(tex)) is not None and _balanced(m[1]):
            tex = m[1]
        elif tex.startswith("{") and tex.endswith("}") and _balanced(tex[1:-1]):
            tex = tex[1:-1]
        else:
            return tex, bold


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def plain_number(tex: str) -> str | None:
    """The formula written as a plain number (``34.26``, ``**88.65**``, ``50%``, ``5 ms``), or None."""
    text = _STYLE.sub("", tex).strip()
    if not text or len(text) > 60:
        return None
    # "19.6,\,\," in a list of values split over formulas: the number, its comma, a space.
    punctuation, gap = "", ""
    if (tail := _TRAILING_PUNCTUATION.search(text)) is not None and tail.start() > 0:
        punctuation, gap = tail[1], " " if tail.end() > tail.start() + 1 else ""
        text = text[: tail.start()]
    text, bold = _unwrap(text)
    spaced = bool(_SPACING.search(text))
    unit = ""
    if (m := _UNIT.search(text)) is not None and m.start() > 0:
        unit = m[1] or m[2]
        text = text[: m.start()]
    text = _SPACING.sub("", text).replace("\\%", "%").replace("{,}", ",").replace("{.}", ".")
    text, inner_bold = _unwrap(text)
    bold = bold or inner_bold
    text = text.replace("{", "").replace("}", "").strip()
    if text == "%" and not unit:
        return "%"
    if not _NUMBER.fullmatch(text):
        return None
    number = text.replace("−", "-")
    if unit:
        number += (" " if spaced else "") + unit
    number = f"**{number}**" if bold else number
    return number + punctuation + gap


_SCRIPTS = {
    "sup": str.maketrans("0123456789+-−=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿ"),
    "sub": str.maketrans("0123456789+-−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎"),
}
_SCRIPTABLE = {"sup": frozenset("0123456789+-−=()n"), "sub": frozenset("0123456789+-−=()")}


def script(text: str, kind: str) -> str:
    """``text`` written as a superscript (``kind`` "sup") or subscript ("sub") in Unicode, when
    every character has a script form; else ``text`` unchanged."""
    core = text.strip()
    if not core or kind not in _SCRIPTS or not set(core) <= _SCRIPTABLE[kind]:
        return text
    return core.translate(_SCRIPTS[kind])
