"""Finding amounts in text: money, percentages, points, quantities with a unit, counts.

One compiled pattern finds a number with what is written around it (a currency before or after, a
sign, a scale, ``%``, points, degrees); ``units.unit_after`` then reads a physical unit after it.
The checks in ``find_values`` keep numbers that are labels, references, statistics, list markers or
times out. Every pattern is compiled once at import; the per-call work is a few ``finditer`` passes.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from . import lexicon
from .fractions import find_fractions
from .lazy import lazy_re
from .model import Value
from .notation import find_notation
from .ranges import carry_units, merge_ranges
from .units import measured_after, money_near, per_follows, time_window, unit_after
from .words import word_quantities, word_values

__all__ = ["NUM", "find_values"]


def _alt(words: list[str]) -> str:
    """A regex alternation of ``words`` as a trie ("A(?:ED|UD)|B(?:RL|...)"), longest match first.

    The currency lists hold a few hundred entries; a flat alternation would try each one at every
    position where an amount could start, a trie only the branch of the next character.
    """
    trie: dict[str, Any] = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _trie_regex(trie)


def _trie_regex(node: dict[str, Any]) -> str:
    branches = [re.escape(ch) + _trie_regex(child) for ch, child in sorted(node.items()) if ch]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


# "1'000" and "1’049.95": Swiss thousands; ".05": a decimal without its zero
NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,3}(?:['’]\d{3})+(?:\.\d+)?(?!\d)|\d+(?:\.\d+)?|\.\d+"
# Continental forms, read only next to a currency ("48,96 €", "€ 2.109,00", "Rp 1.550.000", "5 000 Р"): a comma
# before one or two digits, dot groups ending in a decimal comma or repeated, or groups of three after spaces.
# English never writes these, and without a currency "1,5" or "5 200" is too ambiguous to read.
_NUM_EU = (
    r"\d{1,3}(?:\.\d{3})+,\d{1,2}(?![\d,])|\d{1,3}(?:\.\d{3}){2,}(?![\d,]|\.\d)"
    r"|\d{1,3}(?:[ \u00a0]\d{3})+(?:,\d{1,2})?(?![\d,])|\d{1,3}(?:['’]\d{3})+,\d{1,2}(?![\d,])|\d+,\d{1,2}(?![\d,])"
)
_EU_RE = lazy_re(_NUM_EU)


def _scale_source() -> str:
    """The scale words of ``scales.json``: any case, but for the abbreviations read only as written."""
    exact = lexicon.SCALE_CASE_SENSITIVE
    words = [w for w in lexicon.SCALE_WORDS if w not in {e.lower() for e in exact}]
    letters = "".join(sorted(e for e in exact if len(e) == 1))
    return f"(?i:{_alt(words)})|{_alt([e for e in exact if len(e) > 1])}|[{letters}]"


def _single_letter(scale: str | None) -> bool:
    return scale is not None and len(scale) == 1 and scale in lexicon.SCALE_CASE_SENSITIVE


_PCT = r"(?:(?i:wt|vol|mol|w/w|v/v)\.?\s?)?%|(?i:per\s?cent|percent|pct)\b"  # "6.8 wt.%": mass and volume percent are percentages
_POINTS = r"(?i:percentage[-\s]points?|percent(?:age)?\s+pts?|pp|ppts?|p\.p\.|basis[-\s]points?|bps|bp)\b"
_UNIT = r"(?i:points?|pts|x)\b"


def _amount_source() -> str:
    """The amount pattern, built from the currency lists on first use (``lazy_re``)."""
    symbols = lexicon.CURRENCY_SYMBOLS
    codes = sorted(lexicon.CURRENCY_CODES)
    # "US$", "HK$", "C$" in any case ("us$150 million"); symbols of letters alone ("Rs", "RM") and ISO codes
    # as written, so "ALL 5" or "rs 5" stay words; "SGD$4.90": an ISO code written with the dollar sign.
    dollar_forms = [s for s in symbols if "$" in s and s != "$"]
    other_symbols = [s for s in symbols if "$" not in s]
    # "15€", "-15 €"; never "$" (in "2024 $2.1bn" it belongs to the next amount); "5 Ft" is feet
    post_symbols = [s for s in symbols if "$" not in s and s not in ("Ft", "RM")]
    cur_pre = "(?i:" + _alt(dollar_forms) + ")|\\$|" + _alt(other_symbols) + "|" + _alt(codes) + "\\$?"
    cur_post = _alt(codes) + "|(?i:" + _alt(list(lexicon.CURRENCY_NAMES)) + ")|" + _alt(post_symbols)
    return (
        r"(?=[^\d\n]{0,7}\d)"  # a digit close ahead: fails fast where no amount can start (most positions)
        r"(?<![\w.,/\\#@:^)])(?<![\w.]\+)(?!(?<=\w[-–−])\d)"  # not inside a word, an identifier (GPT-4), a decimal or a time
        r"(?P<neg>[-−–]\s?)?"
        r"(?:(?P<cur_pre>" + cur_pre + r")\s?)?"
        r"(?P<neg2>[-−])?"
        r"(?P<num>(?(cur_pre)(?:"
        + _NUM_EU
        + r")|(?=(?:"
        + _NUM_EU
        + r")\s?(?:"
        + cur_post
        + r")(?![^\W\d_]))"
        r"(?:" + _NUM_EU + r"))|" + NUM + r")"
        r"(?:\s?(?:-|–|—)\s?(?:" + cur_pre + r")?\s?(?P<num_hi>" + NUM + r"))?"
        r"(?:(?P<scale_gap>\s?|-)(?P<scale>"
        + _scale_source()
        + r")(?![^\W\d_]))?"  # "269 Kč" is not 269 thousand
        r"(?:\s?(?P<cur_post>" + cur_post + r")(?![^\W\d_])(?!\s?\d))?"
        r"(?:\s?(?P<points>" + _POINTS + r")|\s?(?P<pct>" + _PCT + r")|\s?(?P<unit>" + _UNIT + r")"
        r"|\s?(?P<deg>°\s?[CF]\b|°|(?i:degrees?(?:\s+(?:Celsius|Fahrenheit|C|F))?)\b))?"
        r"(?![%:]|/(?![^\W\d_])|[.,]\d)"  # "3/4" and "10:30" are not amounts; "£3.2m/year" is
    )


_AMOUNT_RE = lazy_re(_amount_source)
_POUND_WORDS = {"pound", "pounds"}


# Words just before a number that make it a label, not a value ("Table 2", "version 3").
_LABEL_BEFORE_RE = lazy_re(
    r"(?i:\b(?:fig(?:ure)?s?|tab(?:le)?s?|sec(?:tion)?s?|eq(?:uation)?s?|chapters?|page|pp?|steps?|phases?|version|v|no|"
    r"item|appendix|ref|level|tier|series|model|gen|generation|stage|round|week|day|line|article|rule|"
    r"grade|class|type|room|gpt|iphone|windows|covid)\.?\s*)$"
)
# "Figures 3K and 3L", "Figs. 2a, 3b": every number of a list after a label word is a label
_LABEL_LIST_BEFORE_RE = lazy_re(
    r"(?i:\b(?:fig(?:ure)?s?|tables?|panels?|sections?|eqs?|equations?|steps?|phases?)\.?\s+"
    r"(?:\w{1,4}(?:[-–]\w{1,4})?\s*(?:,\s*(?:and\s+)?|and|&|–|-|to)\s*)+$)"
)
_DEFINED_AFTER_RE = lazy_re(r"\)?\s?=(?!=)")
_STAT_BEFORE_RE = lazy_re(r"(?:^|[^\w])[A-Za-zχσμ²]{1,2}\s*[<>=≤≥]\s*$")


def _to_float(num: str, factor: float = 1.0) -> float:
    """Exact decimal arithmetic, so "$65.6 billion" is 65600000000.0, not 65599999999.99999."""
    if _EU_RE.fullmatch(num) and not re.fullmatch(NUM, num):
        num = (
            num.replace(" ", "").replace("\u00a0", "").replace(".", "").replace("'", "").replace("’", "")
        ).replace(",", ".")  # "2.109,00" -> 2109.00, "1'049,95" -> 1049.95
    return float(Decimal(num.replace(",", "").replace("'", "").replace("’", "")) * Decimal(int(factor)))


def _scale_name(raw: str | None) -> str | None:
    if raw is None:
        return None
    if raw == "MM":
        return "million"
    return lexicon.SCALE_WORDS.get(raw.lower())


def _currency_of(raw: str) -> str:
    """ISO 4217 code for a symbol, code or name as written ("hk$" -> HKD, "euros" -> EUR)."""
    if raw in lexicon.CURRENCY_SYMBOLS:
        return lexicon.CURRENCY_SYMBOLS[raw]
    for form in lexicon.CURRENCY_SYMBOLS:
        if form.lower() == raw.lower():
            return lexicon.CURRENCY_SYMBOLS[form]
    if raw.upper() in lexicon.CURRENCY_CODES:
        return raw.upper()
    if raw.endswith("$") and raw[:-1] in lexicon.CURRENCY_CODES:
        return raw[:-1]  # "SGD$"
    return lexicon.CURRENCY_NAMES[" ".join(raw.lower().split())]


def _money_context(text: str, m: re.Match[str]) -> bool:
    """Whether "pounds" after this number is money: a scale word ("20 million pounds") or money words nearby."""
    if m.group("scale"):
        return True
    return money_near(text, m.start(), m.end())


@dataclass(frozen=True, slots=True)
class _Number:
    """The number a match writes, scaled and signed, with the two ends when it writes a range."""

    value: float
    low: float | None
    high: float | None


def _currency_or_weight(m: re.Match[str], text: str) -> tuple[str | None, bool]:
    """The currency written with the number, and whether "pounds" after it is a weight instead."""
    cur_pre = m.group("cur_pre")
    cur_post = m.group("cur_post")
    currency: str | None = None
    if cur_pre:
        currency = _currency_of(cur_pre)
    elif cur_post:
        currency = _currency_of(cur_post)
    if cur_post and cur_post.lower() in _POUND_WORDS and not cur_pre and not _money_context(text, m):
        return None, True  # "2,204.62 pounds" of grain: a weight, not sterling
    return currency, False


def _scale_letter(m: re.Match[str], text: str, currency: str | None) -> tuple[str | None, int, bool] | None:
    """The scale as written, where the amount ends, and whether a dropped ``m`` is metres.

    A single letter is a scale only next to a currency or glued to the number; ``None`` where the
    letter shows the number is no amount at all (a house number, a citation key).
    """
    num_s = m.group("num")
    scale_raw = m.group("scale")
    end = m.end()
    metre = False
    if scale_raw == "m" and currency is None and per_follows(text, m.end()):
        scale_raw = None  # "9.8m/s2": metres per something, not millions
        end = m.start("scale") - len(m.group("scale_gap") or "")
    if _single_letter(scale_raw) and currency is None and m.group("scale_gap"):
        # "5 m" without a currency is metres (or nothing): keep the number, not the letter.
        metre = scale_raw == "m" and m.group("scale_gap") == " " and measured_after(text, m.end())
        scale_raw = None
        end = m.start("scale") - len(m.group("scale_gap"))
    if scale_raw == "T" and currency is None:
        scale_raw = None
        end = m.start("scale") - len(m.group("scale_gap") or "")
    if (
        _single_letter(scale_raw)
        and currency is None
        and not m.group("scale_gap")
        and re.match(r"\s+[A-Z]", text[m.end() : m.end() + 2])
    ):
        return None  # "221B Baker Street": a house number, not 221 billion
    if (
        _single_letter(scale_raw)
        and currency is None
        and not m.group("scale_gap")
        and re.fullmatch(r"(?:1[89]|20)\d{2}", num_s)
        and scale_raw.islower()
    ):
        return None  # "(Smith et al., 2010b)": a citation key, not 2010 billion
    return scale_raw, end, metre


def _number(m: re.Match[str], scale: str | None, currency: str | None) -> _Number | None:
    """The number with its scale and sign (and a range's ends); ``None`` where it is no number we trust."""
    negative = bool(m.group("neg") or m.group("neg2"))
    if m.group("neg") and currency is None and m.group("neg").strip() == "–":
        negative = False  # an en dash before a bare number is punctuation, not a sign
    factor = lexicon.FACTORS[scale] if scale else 1.0
    value = _to_float(m.group("num"), factor)
    low = high = None
    if m.group("num_hi"):
        low = value
        high = _to_float(m.group("num_hi"), factor)
        if negative:
            low = -low
        if high < low:
            return None  # "10-5" is not a range we trust
    if not math.isfinite(value) or (high is not None and not math.isfinite(high)):
        return None  # "1" followed by 400 digits is not a quantity anyone reported
    if negative:
        value = -value
    return _Number(value, low, high)


def _written_kind(
    m: re.Match[str], scale_raw: str | None, scale: str | None, currency: str | None, number: _Number
) -> tuple[str, str | None, _Number]:
    """The kind and unit the match itself writes (points, ``%``, a currency, degrees, points as a
    unit); basis points become percentage points."""
    points = m.group("points") if scale_raw is None or scale is not None else None
    pct = m.group("pct")
    if points:
        if points.lower().startswith(("b", "basis")):
            value, low, high = number.value, number.low, number.high
            value /= 100.0
            low = low / 100.0 if low is not None else None
            high = high / 100.0 if high is not None else None
            number = _Number(value, low, high)
        return "percentage_points", "percentage points", number
    if pct:
        return "percentage", "%", number
    if currency:
        return "currency", currency, number
    if m.group("deg"):
        raw_deg = m.group("deg").replace(" ", "").lower()
        unit = (
            "°C"
            if raw_deg.endswith(("c", "celsius"))
            else "°F"
            if raw_deg.endswith(("f", "fahrenheit"))
            else "°"
        )
        return "number", unit, number
    if m.group("unit"):
        raw_unit = m.group("unit").lower()
        return "number", "points" if raw_unit.startswith(("point", "pt")) else raw_unit, number
    return "number", None, number


def _unit_after_number(m: re.Match[str], text: str, end: int) -> tuple[str | None, int] | None:
    """A physical unit after a bare number, and where the amount then ends; ``None`` where the time
    word after it makes a period, not a value ("the first nine months")."""
    found = unit_after(text, end)
    if found is not None and found[0].dimension == "time" and not m.group("num_hi"):
        if re.fullmatch(r"(?:1[89]|20)\d{2}", m.group("num")) and not found[0].symbol.endswith("s"):
            found = None  # "the 2021 year": a date
        elif time_window(text, m.start(), found[1]):
            return None  # "the first nine months", "12 months ended June 30": a period, not a value
    if found is not None:
        return found[0].symbol, found[1]
    return None, end


def _match_to_value(m: re.Match[str], text: str) -> Value | None:
    """One match of the amount pattern as a value, or ``None`` where the match is no value (a house
    number, a citation key, a period, a number running into a word)."""
    currency, weight = _currency_or_weight(m, text)
    letter = _scale_letter(m, text, currency)
    if letter is None:
        return None
    scale_raw, end, metre = letter
    scale = _scale_name(scale_raw)
    number = _number(m, scale, currency)
    if number is None:
        return None
    if end == m.end():
        kind, unit, number = _written_kind(m, scale_raw, scale, currency, number)
    else:
        kind = "currency" if currency else "number"
        unit = currency
    if weight:
        kind, unit = "number", "lb"
    elif metre:
        kind, unit, end = "number", "m", m.end()
    elif kind == "number" and unit is None and currency is None and not m.group("deg"):
        after = _unit_after_number(m, text, end)
        if after is None:
            return None
        unit, end = after
    if text[end : end + 1].isalnum() or text[end : end + 1] == "_":
        return None  # the number runs into a word: "3D", "4G", "2nd", an identifier
    if currency and kind != "currency":
        return None  # "$5%" and the like: malformed
    return _value(m, text, end, kind, currency, scale, unit, number)


def _value(
    m: re.Match[str],
    text: str,
    end: int,
    kind: str,
    currency: str | None,
    scale: str | None,
    unit: str | None,
    number: _Number,
) -> Value:
    """The value read from ``m`` up to ``end``: a range stands at its midpoint; a bare year is marked."""
    value, low, high = number.value, number.low, number.high
    surface = text[m.start() : end]
    if low is not None and high is not None:
        value = (low + high) / 2.0
    year_like = (
        kind == "number"
        and scale is None
        and low is None
        and unit is None
        and re.fullmatch(r"(?:1[89]|20)\d{2}", m.group("num")) is not None
    )
    return Value(
        text=" ".join(surface.split()),
        start=m.start(),
        end=end,
        kind=kind,
        numeric_value=value,
        currency=currency,
        scale=scale,
        unit=unit,
        low=low,
        high=high,
        year_like=year_like,
        explicit_scale=scale is not None,
    )


def find_values(
    text: str, *, exclude: list[tuple[int, int]] | None = None, spelled_counts: bool = False
) -> list[Value]:
    """Every value in ``text`` with its character span, skipping spans in ``exclude`` (dates, periods).

    Years standing alone are returned with ``year_like=True`` so the caller can treat them as dates.
    ``spelled_counts`` adds numbers in words with nothing after them ("three indicators"), marked
    ``extras["spelled"]``: a count only where the caller finds the noun they count (fact-extract).
    """
    fractions = [  # fractions before a unit and scientific notation: read first, whole
        f
        for f in [*find_fractions(text), *find_notation(text)]
        if not any(b[0] < f.end and f.start < b[1] for b in exclude or [])
    ]
    blocked = sorted([*(exclude or []), *((f.start, f.end) for f in fractions)])
    block_starts = [b[0] for b in blocked]
    found: list[Value] = []
    for m in _AMOUNT_RE.finditer(text):
        s, e = m.start("num"), m.end("num")
        i = bisect.bisect_left(block_starts, e)  # spans starting before e; periods never nest, so check two
        if any(bs < e and s < be for bs, be in blocked[max(0, i - 2) : i]):
            continue
        before = text[max(0, m.start() - 16) : m.start()]
        if (
            _LABEL_BEFORE_RE.search(before)
            or _LABEL_LIST_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())
            or (before.endswith("[") and not (m.group("pct") or m.group("points")))
        ) and not m.group("cur_pre"):
            continue  # "Table 2", "Figures 3K and 3L", "[11C]", "[12]": labels, isotopes, references
        if _STAT_BEFORE_RE.search(before) and not m.group("cur_pre"):
            continue  # "p < 0.05", "n = 1,234": statistics, not facts
        if (
            before.endswith(("[", "("))
            and text[m.end() : m.end() + 1] in ("]", ")")
            and m.group(0) == m.group("num")
        ):
            continue  # "[12]" or "(3)": a reference or an enumerator
        line_start = text.rfind("\n", 0, m.start()) + 1
        if (
            text[line_start : m.start()].strip() == ""
            and re.match(r"[.)]\s", text[m.end() : m.end() + 2])
            and m.group("num").isdigit()
            and not (m.group("pct") or m.group("cur_pre"))
        ):
            continue  # "1. First item": a list enumerator
        if text[m.end() : m.end() + 1] in (":",) and text[m.end() + 1 : m.end() + 2].isdigit():
            continue  # a time such as 10:30
        if _DEFINED_AFTER_RE.match(text, m.end()) and not (m.group("cur_pre") or m.group("pct")):
            continue  # "1 = 1–2 days", "2 = agree": a code being defined, not an amount
        if found and m.start() < found[-1].end:
            continue  # inside the unit the previous value ends with ("4km^3")
        v = _match_to_value(m, text)
        if v is not None:
            found.append(v)
    for v in [*fractions, *word_quantities(text), *word_values(text, spelled_counts=spelled_counts)]:
        if not any(v.start < f.end and f.start < v.end for f in found):
            found.append(v)
    found.sort(key=lambda x: x.start)
    carry_units(found, text)
    return merge_ranges(found, text)
