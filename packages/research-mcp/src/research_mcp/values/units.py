"""The physical unit written right after a number (``10kg``, ``4,000 km``, ``32 degrees Celsius``, ``2 in.``).

Words and symbols come from ``lexicon`` (quantulum3's unit table). What this module adds is when an
ambiguous word is a unit:

- a symbol of one letter (``g``, ``L``, ``K``, ``C``) counts only when nothing but a space or
  punctuation follows it, and never one that is a scale (``k m M b B T``: ``£3.2m`` is money);
- ``in`` is an inch only where a length reads that way: at the end of the clause (``2 in.``), before
  a dimension word (``2 1/2 in thick``) or a ``x`` (``2 in x 4 in``); ``3 in 10`` is not;
- ``pound``/``pounds`` is a weight unless the amount reads as money (``amounts.money_context``).
"""

from __future__ import annotations

from . import lexicon
from .lazy import lazy_re
from .lexicon import Unit

__all__ = ["measured_after", "money_near", "per_follows", "time_window", "unit_after", "unit_dimension"]
# A found unit reports the symbol as written ("ml", "lbs"), or the unit's own symbol for a word ("kilometres" -> km).

_SCALE_LETTERS = frozenset("kmMbBT")


def unit_dimension(unit: str) -> str | None:
    """The dimension of a reported unit ("km" -> length, "days" -> time); None for a compound ("km per h")."""
    found = lexicon.UNIT_SYMBOLS.get(unit) or lexicon.UNIT_WORDS.get(unit.lower())
    return found.dimension if found is not None else None


_TOKENS_RE = lazy_re(r"[^\s\d,;:()\[\]]+(?:\^?[23](?!\d))?(?:\s+[^\s\d,;:()\[\]]+){0,3}")
_MEASURED_RE = lazy_re(
    r"(?i:\s*(?:$|[.,;:)\]]|(?:thick|thin|long|wide|tall|high|deep|across|in\s+diameter|diameter|"
    r"square|screen|display|depth|height|length|width|thickness|radius|x|×)\b))"
)
# Words near "pounds" that make it money rather than weight ("spent 20 million pounds").
_MONEY_CONTEXT_RE = lazy_re(
    r"(?i:\b(?:cost|costs|costing|spent|spend|spending|paid|pay|pays|payment|price[sd]?|worth|sterling|fund|"
    r"funding|budget|revenue|sales|profit|loss|fine[sd]?|salary|wages?|bought|sold|earn(?:ed|s)?|raised?|"
    r"invest(?:ed|ment)?|deal|bid|offer|bill|debt|tax|fee|fees|cash|money|bank|bonus|donat\w+)\b|£)"
)
_GLUED_SINGLE = frozenset("gLWVJCF")  # one-letter symbols that may touch the number: "5g", "100W", "-10C"


def unit_after(text: str, pos: int) -> tuple[Unit, int] | None:
    """The unit starting at ``text[pos]`` (after at most one space or a hyphen), and where it ends.

    The longest match wins ("square kilometres" over nothing, "degrees Celsius" over "degrees"); a
    unit word may end at a hyphen ("64-year-old"), and a compound unit goes on through ``/``, ``per``
    or negative powers ("50 μg/ml", "10 l/km", "5 km per hour", "0.02 cm s−1").
    """
    if text.startswith(('"', "″"), pos) and _inch_mark(text, pos):
        return lexicon.UNIT_SYMBOLS["in"], pos + 1  # 9": a double prime after a number is inches
    gap = 0
    if text.startswith((" ", "\u00a0", "-"), pos):
        gap = 1
    start = pos + gap
    m = _TOKENS_RE.match(text, start)
    if m is None:
        return None
    words = m.group(0).split()
    hyphen = gap == 1 and text[pos] == "-"
    for n in range(len(words), 0, -1):
        cand = " ".join(words[:n])
        forms = [cand, cand.rstrip(".")] if cand.endswith(".") else [cand]
        if n == 1 and (cut := _CUT_RE.search(cand, 1)) is not None:
            forms.append(cand[: cut.start()])  # "year-old", "μg/ml": the unit before the hyphen or slash
        # "2 in.", "10kg.": a full stop after the unit ends the sentence, it is not part of the unit
        for form in forms:
            end = text.find(form, start) + len(form)
            unit = _lookup(form, text, end, glued=gap == 0, hyphen=hyphen)
            if unit is not None:
                written = form in lexicon.UNIT_SYMBOLS or _POWER_RE.fullmatch(form) is not None
                if not written and unit.dimension == "time":
                    unit = Unit(unit.name, form.lower(), unit.dimension)  # "3 years", as written
                elif written:
                    unit = Unit(unit.name, form, unit.dimension)
                return _extended(text, unit, start, end)
    return None


def _inch_mark(text: str, pos: int) -> bool:
    """A double prime right after a number, not closing a quotation ("the size is 9"" vs 'he said "call me at 9"')."""
    if text[pos + 1 : pos + 2].isalnum():
        return False
    line_start = text.rfind("\n", 0, pos) + 1
    return text[pos] == "″" or text.count('"', line_start, pos) % 2 == 0


_CUT_RE = lazy_re(r"[-/–−]")
_SQUARED_RE = lazy_re(r"\s(squared|cubed)\b")
_PER_RE = lazy_re(r"(?:\s?/\s?|\s+per\s+)(?P<u>[^\W\d_]+)(?P<pow>\^?[23²³](?!\d))?")
_OWN_POWER_RE = lazy_re(r"\^?[-−‐]([1-4])(?![\d\w])")
_INVERSE_RE = lazy_re(r"[\s·⋅](?P<u>[^\W\d_]{1,5})\s?\^?[-−‐](?P<pow>[1-4])(?!\d)")


def _extended(text: str, unit: Unit, start: int, end: int) -> tuple[Unit, int]:
    """``unit`` with what completes it: "squared"/"cubed", and ``/ X``, ``per X`` or ``X−1`` parts."""
    sq = _SQUARED_RE.match(text, end)
    if sq is not None and unit.dimension == "length":
        square = lexicon.UNIT_WORDS.get(("square " if sq.group(1) == "squared" else "cubic ") + unit.name)
        if square is not None:
            return square, sq.end()  # "4 km squared"
    name, dimension, pos = unit.name, unit.dimension, end
    power = _OWN_POWER_RE.match(text, end)
    if power is not None:  # "4e14 s-1", "cm−3": the unit's own negative power
        name, dimension, pos = f"{name}^-{power.group(1)}", f"{dimension}^-{power.group(1)}", power.end()
    for pattern in (_PER_RE, _INVERSE_RE, _INVERSE_RE, _PER_RE):
        m = pattern.match(text, pos)
        if m is None or text[m.end() : m.end() + 1].isalnum():
            continue
        per = _per_unit(m.group("u"), m.group("pow"))
        if per is None:
            continue
        name, dimension, pos = f"{name} per {per.name}", f"{dimension}/{per.dimension}", m.end()
    if pos == end:
        return unit, end
    return Unit(name, text[start:pos], dimension), pos


# "the past five years", "the three months ended March 31": a time window names a period, it measures nothing
_WINDOW_BEFORE_RE = lazy_re(
    r"(?i:\b(?:first|last|past|next|previous|prior|preceding|following|coming|same|trailing|recent|"
    r"remaining|final|initial|latest|subsequent)\s+$)"
)
# "12 months to June 2019" (a capital: a month), not "4 years to reach 1"
_WINDOW_AFTER_RE = lazy_re(
    r"(?i:\s+(?:ended|ending|through|thru)\b)|\s+to\s+(?:the\s+end\b|[A-Z][a-z]+\s+\d)"
)


def time_window(text: str, start: int, end: int) -> bool:
    """Whether the duration ``text[start:end]`` is a window of time ("the first nine months", "12 months ended")."""
    return (
        _WINDOW_BEFORE_RE.search(text, max(0, start - 16), start) is not None
        or _WINDOW_AFTER_RE.match(text, end) is not None
    )


def per_follows(text: str, end: int) -> bool:
    """Whether a per-unit follows ``text[:end]`` ("/s2", " per hour", " s−1")."""
    for pattern in (_PER_RE, _INVERSE_RE):
        m = pattern.match(text, end)
        if m is not None and _per_unit(m.group("u"), m.group("pow")) is not None:
            return True
    return False


def _per_unit(form: str, power: str | None = None) -> Unit | None:
    """The unit after ``/`` or ``per`` ("ml", "kilometre", "hour", "s", "m^2"): symbols, words or time words.

    After a slash ``m`` is the metre: the scale-letter reading ("£3.2m") cannot arise there.
    """
    if power:
        return (
            _powered(form + power) or lexicon.UNIT_SYMBOLS.get(form) or lexicon.UNIT_WORDS.get(form.lower())
        )
    return (
        lexicon.UNIT_SYMBOLS.get(form)
        or lexicon.UNIT_WORDS.get(form.lower())
        or (lexicon.UNIT_WORDS.get("metre") if form == "m" else None)
    )


def _lookup(form: str, text: str, end: int, *, glued: bool, hyphen: bool) -> Unit | None:
    after = text[end : end + 1]
    if after.isalnum() or after == "%":
        return None  # "5 kmh"? "3 gigs": the word goes on
    word = lexicon.UNIT_WORDS.get(form.lower())
    if word is not None and not glued:
        return word  # "16-meter", "4,000 kilometres"
    if hyphen and (len(form) < 2 or form == "in"):
        return None  # "COVID-19 m...", "2-in-1": a short symbol after a hyphen is not a unit ("51-bp" is)
    unit = lexicon.UNIT_SYMBOLS.get(form) or _powered(form)
    if unit is None and form == "m" and per_follows(text, end):
        return lexicon.UNIT_WORDS["metre"]  # "9.8 m/s2", "3 m s−1": a metre, never a scale, before a per-unit
    if unit is None:
        return word if glued and word is not None and len(form) > 2 else None  # "10kilograms"
    if len(form) == 1 and (form in _SCALE_LETTERS or (glued and form not in _GLUED_SINGLE)):
        return None
    if form == "in" and not measured_after(text, end):
        return None  # "3 in 10 people"
    return unit


def measured_after(text: str, end: int) -> bool:
    """Whether an ambiguous one- or two-letter unit ending at ``end`` reads as a measurement.

    True at the end of a clause ("2 in.", "L = 1 m,") or before a dimension word ("2 in thick",
    "a 5 m long"): "3 in 10 people" and "5 m users" are not measurements.
    """
    return _MEASURED_RE.match(text, end) is not None


def money_near(text: str, start: int, end: int) -> bool:
    """Whether money words surround ``text[start:end]`` (60 characters before, 40 after): "spent", "price", "£"."""
    return _MONEY_CONTEXT_RE.search(text, max(0, start - 60), min(len(text), end + 40)) is not None


_POWER_RE = lazy_re(r"(?P<base>[^\W\d_]+)\^?(?P<power>[23²³])")


def _powered(form: str) -> Unit | None:
    """``km2``, ``m²``, ``cm^3``: a length symbol with a power is the square or cubic unit of that length."""
    m = _POWER_RE.fullmatch(form)
    base = lexicon.UNIT_SYMBOLS.get(m.group("base")) if m else None
    if m is None or (base is None and m.group("base") != "m"):
        return None
    name = "metre" if base is None else base.name
    if base is not None and base.dimension != "length":
        return None
    square = m.group("power") in "2²"
    return lexicon.UNIT_WORDS.get(("square " if square else "cubic ") + name)
