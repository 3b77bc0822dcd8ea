"""Scientific notation: ``5×10−4 emu``, ``2.48 × 10^-5 m``, ``4e14 s-1``, ``3.2 × 10⁶ km``.

Read before ``amounts``, which would otherwise take the mantissa and the ten as two numbers.
"""

from __future__ import annotations

import re

from .lazy import lazy_re
from .model import Value
from .units import unit_after

__all__ = ["find_notation"]

_SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_NOTATION_RE = lazy_re(
    r"(?<![\w.,])(?P<sign>[-−])?(?P<m>\d+(?:\.\d+)?)"
    r"(?:\s?[×xX·]\s?10(?:\s?\^\s?\(?(?P<e>[-−+]?\d{1,3})\)?|(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,3})|(?P<e_dash>[−-]\d{1,3}))"
    r"|[eE](?P<e2>[-+−]?\d{1,3}))(?![\d.])"
)
_GATE_RE = lazy_re(r"\d\s?[×xX·]\s?10|\d[eE][-+−]?\d")


def find_notation(text: str) -> list[Value]:
    """Every number written in scientific notation in ``text``, with the unit after it."""
    if _GATE_RE.search(text) is None:
        return []
    out: list[Value] = []
    for m in _NOTATION_RE.finditer(text):
        raw = (
            m.group("e")
            or m.group("e_dash")
            or m.group("e2")
            or (m.group("sup") or "").translate(_SUPERSCRIPT)
        )
        if m.group("e2") is not None and not re.search(r"\d[eE][-+−]?\d", m.group(0)):
            continue
        try:
            exponent = int(raw.replace("−", "-"))
        except ValueError:
            continue
        value = float(m.group("m")) * 10.0**exponent
        if m.group("sign"):
            value = -value
        end = m.end()
        found = unit_after(text, end)
        unit = None
        if found is not None:
            unit, end = found[0].symbol, found[1]
        out.append(Value.quantity(text, m.start(), end, value, unit))
    return out
