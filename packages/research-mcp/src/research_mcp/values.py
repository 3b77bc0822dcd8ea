"""Regex value parsing: money, percentages, points, counts, ranges, dates and periods.

Pure functions over strings (no spaCy), shared by fact-extract (which scans text) and
conflict-detect (which parses one value string per fact). Every pattern is compiled once at
import; the per-call work is a few ``finditer`` passes, so fact-extract stays close to the
speed of the spaCy pipeline itself.

Rules that matter for correctness (a wrong number is worse than none):

- A scale letter is never a physical unit: ``£3.2m`` is 3.2 million pounds. Single-letter scales
  (``k m M b B T``) count only when a currency is present or when glued to the number (``3.2m``).
- A bare year (``2024``) is a date, never a value; numbers inside dates, quarters (``Q3``), fiscal
  years (``FY2024``), references (``[12]``, ``Table 2``) and identifiers (``GPT-4``) are not values.
- ``%`` is a percentage, ``percentage points``/``pp``/``bps`` are points (``bps`` divided by 100).
"""

from __future__ import annotations

import bisect
import calendar
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

__all__ = [
    "SCALES",
    "Period",
    "Value",
    "find_periods",
    "find_values",
    "parse_period_text",
    "parse_value_string",
]

SCALES: dict[str, float] = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
# Indian numbering: read, never offered as a guess for an unscaled number.
_FACTORS: dict[str, float] = SCALES | {"lakh": 1e5, "crore": 1e7}

_SCALE_WORDS: dict[str, str] = {
    "thousand": "thousand",
    "k": "thousand",
    "million": "million",
    "mn": "million",
    "mln": "million",
    "mil": "million",
    "m": "million",
    "mm": "million",
    "billion": "billion",
    "bn": "billion",
    "bln": "billion",
    "b": "billion",
    "trillion": "trillion",
    "tn": "trillion",
    "trn": "trillion",
    "t": "trillion",
    "lakh": "lakh",
    "lakhs": "lakh",
    "lac": "lakh",
    "lacs": "lakh",
    "crore": "crore",
    "crores": "crore",
    "cr": "crore",
}
_SINGLE_LETTER_SCALES = {"k", "K", "m", "M", "b", "B", "T"}

# Prefix symbols/codes -> ISO 4217. Longest first so "US$" wins over "$".
_CURRENCY_PREFIX: dict[str, str] = {
    "US$": "USD",
    "U.S.$": "USD",
    "USD$": "USD",
    "A$": "AUD",
    "AU$": "AUD",
    "C$": "CAD",
    "CA$": "CAD",
    "CAD$": "CAD",
    "HK$": "HKD",
    "NZ$": "NZD",
    "S$": "SGD",
    "R$": "BRL",
    "$": "USD",
    "€": "EUR",
    "£": "GBP",
    "¥": "JPY",
    "₹": "INR",
    "₩": "KRW",
    "₽": "RUB",
    "₺": "TRY",
    "Rs.": "INR",
    "Rs": "INR",
}
_ISO_CODES = [
    *("USD", "EUR", "GBP", "JPY", "CNY", "RMB", "INR", "AUD", "CAD", "CHF", "KRW", "SEK", "NOK"),
    *("DKK", "HKD", "SGD", "BRL", "ZAR", "MXN", "RUB", "TRY", "NZD", "PLN", "ILS", "AED", "SAR"),
]
_CURRENCY_WORDS: dict[str, str] = {
    "us dollars": "USD",
    "u.s. dollars": "USD",
    "dollars": "USD",
    "dollar": "USD",
    "euros": "EUR",
    "euro": "EUR",
    "pounds sterling": "GBP",
    "pounds": "GBP",
    "pound": "GBP",
    "sterling": "GBP",
    "yen": "JPY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rupees": "INR",
    "rupee": "INR",
    "won": "KRW",
    "swiss francs": "CHF",
    "francs": "CHF",
}

_UNITS: dict[str, str] = {
    # Physical and technical units we recognise after a number (never single-letter "m").
    "km": "km",
    "kg": "kg",
    "tonnes": "tonnes",
    "tons": "tons",
    "kwh": "kWh",
    "mwh": "MWh",
    "gwh": "GWh",
    "twh": "TWh",
    "kw": "kW",
    "mw": "MW",
    "gw": "GW",
    "tw": "TW",
    "gb": "GB",
    "tb": "TB",
    "pb": "PB",
    "mb": "MB",
    "ghz": "GHz",
    "mhz": "MHz",
    "ms": "ms",
    "x": "x",
}


def _alt(words: list[str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_CUR_PRE = _alt(list(_CURRENCY_PREFIX)) + "|" + _alt(_ISO_CODES)
_CUR_POST = _alt(_ISO_CODES) + "|" + _alt(list(_CURRENCY_WORDS))
_SCALE = (
    r"(?i:thousand|million|billion|trillion|bln|mln|mil|mn|bn|tn|trn|crores?|lakhs?|lacs?|cr)|MM|[kKmMbBT]"
)
_PCT = r"%|(?i:per\s?cent|percent|pct)\b"
_POINTS = r"(?i:percentage[-\s]points?|percent(?:age)?\s+pts?|pp|ppts?|p\.p\.|basis[-\s]points?|bps|bp)\b"
_UNIT = r"(?i:" + _alt(list(_UNITS)) + r"|points?|pts)\b"

_AMOUNT_RE = re.compile(
    r"(?<![\w.,/\\#@:])(?!(?<=\w[-–])\d)"  # not inside a word, an identifier (GPT-4), a decimal or a time
    r"(?P<neg>[-−–]\s?)?"
    r"(?:(?P<cur_pre>" + _CUR_PRE + r")\s?)?"
    r"(?P<neg2>[-−])?"
    r"(?P<num>" + _NUM + r")"
    r"(?:\s?(?:-|–|—)\s?(?:" + _CUR_PRE + r")?\s?(?P<num_hi>" + _NUM + r"))?"
    r"(?:(?P<scale_gap>\s?|-)(?P<scale>" + _SCALE + r")(?![A-Za-z]))?"
    r"(?:\s?(?P<cur_post>" + _CUR_POST + r")\b)?"
    r"(?:\s?(?P<points>"
    + _POINTS
    + r")|\s?(?P<pct>"
    + _PCT
    + r")|\s?(?P<unit>"
    + _UNIT
    + r")|\s?(?P<deg>°\s?[CF]\b|°|(?i:degrees?(?:\s+(?:Celsius|Fahrenheit|C|F))?)\b))?"
    r"(?![\w%/:]|[.,]\d)",
)

# Words just before a number that make it a label, not a value ("Table 2", "version 3").
_LABEL_BEFORE_RE = re.compile(
    r"(?i:\b(?:fig(?:ure)?|tab(?:le)?|sec(?:tion)?|eq(?:uation)?|chapter|page|pp?|step|phase|version|v|no|"
    r"item|appendix|ref|level|tier|series|model|gen|generation|stage|round|week|day|line|article|rule|"
    r"grade|class|type|room|gpt|iphone|windows|covid)\.?\s*)$"
)
_STAT_BEFORE_RE = re.compile(r"(?:^|[^\w])[A-Za-zχσμ²]{1,2}\s*[<>=≤≥]\s*$")
_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m
}
_MONTHS["sept"] = 9


@dataclass(frozen=True, slots=True)
class Period:
    """A date or period with its precision: what a value is about in time.

    ``type`` is one of year, half, quarter, month, day, fiscal_year, fiscal_half, fiscal_quarter,
    year_range. ``start``/``end`` are ISO dates for calendar periods; fiscal periods leave them
    ``None`` (a fiscal year's months depend on the company) and keep ``fiscal_year``.
    """

    text: str
    type: str
    start: str | None
    end: str | None
    year: int | None
    span: tuple[int, int]
    fiscal: bool = False
    as_of: bool = False
    target: bool = False
    index: int | None = None  # which quarter (1-4) or half (1-2)

    @property
    def key(self) -> str:
        """A canonical label used to group facts by period (``2024``, ``2024-Q3``, ``FY2024``)."""
        return _period_key(self)

    def to_dict(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "type": self.type,
            "key": self.key,
            "start": self.start,
            "end": self.end,
            "year": self.year,
            "fiscal": self.fiscal,
            "as_of": self.as_of,
            "target": self.target,
        }

    def marked(self, *, as_of: bool = False, target: bool = False) -> Period:
        return Period(
            self.text,
            self.type,
            self.start,
            self.end,
            self.year,
            self.span,
            self.fiscal,
            as_of,
            target,
            self.index,
        )


@dataclass(slots=True)
class Value:
    """One value found in text, normalised.

    ``kind`` refines the seed's ``value_type``: currency, percentage, percentage_points, count,
    number, range (any of those given as low/high keeps its own kind and sets ``low``/``high``).
    """

    text: str
    start: int
    end: int
    kind: str
    numeric_value: float
    currency: str | None = None
    scale: str | None = None
    unit: str | None = None
    low: float | None = None
    high: float | None = None
    year_like: bool = False
    explicit_scale: bool = False
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def value_type(self) -> str:
        """The seed's vocabulary: number|currency|percentage|date|text."""
        if self.kind == "currency":
            return "currency"
        if self.kind in ("percentage", "percentage_points"):
            return "percentage"
        return "number"


def _to_float(num: str, factor: float = 1.0) -> float:
    """Exact decimal arithmetic, so "$65.6 billion" is 65600000000.0, not 65599999999.99999."""
    return float(Decimal(num.replace(",", "")) * Decimal(int(factor)))


def _scale_name(raw: str | None) -> str | None:
    if raw is None:
        return None
    if raw == "MM":
        return "million"
    return _SCALE_WORDS.get(raw.lower())


def _match_to_value(m: re.Match[str], text: str) -> Value | None:
    num_s = m.group("num")
    cur_pre = m.group("cur_pre")
    cur_post = m.group("cur_post")
    scale_raw = m.group("scale")
    currency: str | None = None
    if cur_pre:
        currency = _CURRENCY_PREFIX.get(cur_pre, cur_pre.upper())
    elif cur_post:
        currency = cur_post.upper() if cur_post.upper() in _ISO_CODES else _CURRENCY_WORDS[cur_post.lower()]
    if currency == "RMB":
        currency = "CNY"
    end = m.end()
    if scale_raw in _SINGLE_LETTER_SCALES and currency is None and m.group("scale_gap"):
        # "5 m" without a currency could be metres: keep the number, not the letter.
        scale_raw = None
        end = m.start("scale") - len(m.group("scale_gap"))
    if scale_raw == "T" and currency is None:
        scale_raw = None
        end = m.start("scale") - len(m.group("scale_gap") or "")
    if (
        scale_raw in _SINGLE_LETTER_SCALES
        and currency is None
        and not m.group("scale_gap")
        and re.match(r"\s+[A-Z]", text[m.end() : m.end() + 2])
    ):
        return None  # "221B Baker Street": a house number, not 221 billion
    scale = _scale_name(scale_raw)
    negative = bool(m.group("neg") or m.group("neg2"))
    if m.group("neg") and currency is None and m.group("neg").strip() == "–":
        negative = False  # an en dash before a bare number is punctuation, not a sign
    factor = _FACTORS[scale] if scale else 1.0
    value = _to_float(num_s, factor)
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
    points = m.group("points") if scale_raw is None or scale is not None else None
    pct = m.group("pct")
    unit = None
    if end == m.end():
        if points:
            kind = "percentage_points"
            unit = "percentage points"
            if points.lower().startswith(("b", "basis")):
                value /= 100.0
                low = low / 100.0 if low is not None else None
                high = high / 100.0 if high is not None else None
                unit = "percentage points"
        elif pct:
            kind = "percentage"
            unit = "%"
        elif currency:
            kind = "currency"
            unit = currency
        elif m.group("deg"):
            kind = "number"
            raw_deg = m.group("deg").replace(" ", "").lower()
            unit = (
                "°C"
                if raw_deg.endswith(("c", "celsius"))
                else "°F"
                if raw_deg.endswith(("f", "fahrenheit"))
                else "°"
            )
        elif m.group("unit"):
            kind = "number"
            raw_unit = m.group("unit").lower()
            unit = "points" if raw_unit.startswith(("point", "pt")) else _UNITS[raw_unit]
        else:
            kind = "number"
    else:
        kind = "currency" if currency else "number"
        unit = currency
    if currency and kind != "currency":
        return None  # "$5%" and the like: malformed
    surface = text[m.start() : end]
    if low is not None and high is not None:
        value = (low + high) / 2.0
    year_like = (
        kind == "number"
        and scale is None
        and low is None
        and unit is None
        and re.fullmatch(r"(?:1[89]|20)\d{2}", num_s) is not None
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


_RANGE_GAP_RE = re.compile(r"^\s*(?:to|and|-|–|—|through)\s*$", re.IGNORECASE)
_RANGE_LEAD_RE = re.compile(r"(?i:\b(from|between)\s+(?:about\s+|around\s+|roughly\s+)?)$")


_CHANGE_BEFORE_RE = re.compile(
    r"(?i:\b(?:rose|rise[sn]?|rising|grew|grow[sn]?|growing|increas(?:e[sd]?|ing)|fell|fall(?:s|en|ing)?|"
    r"declin(?:e[sd]?|ing)|drop(?:ped|s|ping)?|jump(?:ed|s)?|climb(?:ed|s|ing)?|gain(?:ed|s)?|up|down|by|"
    r"add(?:ed|s)?|lost|los(?:e|es|ing)|cut|rais(?:e|ed|es)|lower(?:ed|s)?|widen(?:ed|s)?|narrow(?:ed|s)?|"
    r"expand(?:ed|s)?|shr[au]nk|shrinks?|surg(?:e[sd]?|ing)|soar(?:ed|s)?|plung(?:e[sd]?)|slipp?(?:ed|s)?|"
    r"went|moved?|chang(?:e[sd]?)|improv(?:e[sd]?)|reduc(?:e[sd]?)|boost(?:ed|s)?|doubl(?:e[sd]?)|"
    r"tripl(?:e[sd]?)|eased?|edged|ticked|swung)\s+(?:\w+\s+){0,2})$"
)


def _merge_ranges(values: list[Value], text: str) -> list[Value]:
    """Join ``X-Y``, ``between X and Y`` and ``from X to Y`` into one value with low/high.

    Y's scale and currency apply to X ("$10-12 billion"). After a change verb, ``from X to Y`` is a
    change, not a range ("grew from 4,000 to 5,500"): the two values stay apart and X is marked
    ``prior``.
    """
    out: list[Value] = []
    i = 0
    while i < len(values):
        v = values[i]
        if i + 1 < len(values):
            w = values[i + 1]
            if w.start == v.end and text[w.start : w.start + 1] in ("-", "–", "—") and w.numeric_value < 0:
                # "5%-7%": the dash joins two values, it is not a minus sign
                w.numeric_value, w.start, w.text = -w.numeric_value, w.start + 1, w.text[1:].lstrip()
            gap = text[v.end : w.start]
            window = max(0, v.start - 30)
            lead = _RANGE_LEAD_RE.search(text[window : v.start])
            lead_word = lead.group(1).lower() if lead else None
            same_kind = v.kind == w.kind or (v.kind == "number" and w.kind in ("currency", "percentage"))
            currency_ok = v.currency in (None, w.currency)
            joiner = gap.strip().lower()
            before = text[max(0, v.start - 40) : (lead.start() + window) if lead else v.start]
            after_change = _CHANGE_BEFORE_RE.search(before) is not None
            joinable = (
                _RANGE_GAP_RE.match(gap) is not None
                and same_kind
                and currency_ok
                and v.low is None
                and w.low is None
            )
            if joinable and lead_word == "from" and joiner in ("to", "-", "–", "—") and after_change:
                v.extras["prior"] = True  # "grew from 4,000 to 5,500": a change, not a range
                if not v.explicit_scale and w.scale:
                    v.numeric_value *= _FACTORS[w.scale]
                    v.scale = w.scale
                out.append(v)
                i += 1
                continue
            if joinable and (
                (lead_word == "between" and joiner == "and")
                or (lead_word == "from" and joiner in ("to", "-", "–", "—", "through"))
                or (lead_word is None and joiner in ("-", "–", "—"))
                or (lead_word is None and joiner == "to" and not after_change)
            ):
                lo = v.numeric_value
                if not v.explicit_scale and w.scale:
                    lo *= _FACTORS[w.scale]
                start = lead.start() + window if lead else v.start
                merged = Value(
                    text=" ".join(text[start : w.end].split()),
                    start=start,
                    end=w.end,
                    kind=w.kind,
                    numeric_value=(lo + w.numeric_value) / 2.0,
                    currency=w.currency,
                    scale=w.scale,
                    unit=w.unit,
                    low=lo,
                    high=w.numeric_value,
                    explicit_scale=w.explicit_scale,
                )
                if lo > w.numeric_value:
                    out.append(v)
                    i += 1
                    continue
                out.append(merged)
                i += 2
                continue
        out.append(v)
        i += 1
    return out


def find_values(text: str, *, exclude: list[tuple[int, int]] | None = None) -> list[Value]:
    """Every value in ``text`` with its character span, skipping spans in ``exclude`` (dates, periods).

    Years standing alone are returned with ``year_like=True`` so the caller can treat them as dates.
    """
    blocked = sorted(exclude or [])
    block_starts = [b[0] for b in blocked]
    found: list[Value] = []
    for m in _AMOUNT_RE.finditer(text):
        s, e = m.start("num"), m.end("num")
        i = bisect.bisect_left(block_starts, e)  # spans starting before e; periods never nest, so check two
        if any(bs < e and s < be for bs, be in blocked[max(0, i - 2) : i]):
            continue
        before = text[max(0, m.start() - 16) : m.start()]
        if _LABEL_BEFORE_RE.search(before) and not m.group("cur_pre"):
            continue
        if _STAT_BEFORE_RE.search(before) and not m.group("cur_pre"):
            continue  # "p < 0.05", "n = 1,234": statistics, not facts
        if (
            before.endswith(("[", "("))
            and text[m.end() : m.end() + 1] in ("]", ")")
            and not (m.group("cur_pre") or m.group("pct") or m.group("points") or m.group("scale"))
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
        v = _match_to_value(m, text)
        if v is not None:
            found.append(v)
    for v in _word_values(text):
        if not any(v.start < f.end and f.start < v.end for f in found):
            found.append(v)
    found.sort(key=lambda x: x.start)
    return _merge_ranges(found, text)


_UNITS_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]  # fmt: skip
_TENS_WORDS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_NUMBERS: dict[str, int] = {w: i for i, w in enumerate(_UNITS_WORDS)} | {
    w: 10 * (i + 2) for i, w in enumerate(_TENS_WORDS)
}
_WORD_NUM_RE = re.compile(
    r"(?i)\b(?P<w>a|an|"
    + "|".join(_UNITS_WORDS + _TENS_WORDS)
    + r")(?:[-\s](?P<w2>"
    + "|".join(_UNITS_WORDS[1:10])
    + r"))?"
    r"(?:\s+(?P<hundred>hundred))?"
    r"(?:\s+(?P<scale>thousand|million|billion|trillion)(?:\s+(?P<cur>dollars|euros|pounds|yen))?"
    r"|\s+(?P<pct>percent|per\s+cent)|\s+(?P<pp>percentage\s+points?))\b"
)


def _word_values(text: str) -> list[Value]:
    """Amounts written in words: "two million users", "five percent", "a billion dollars"."""
    out: list[Value] = []
    for m in _WORD_NUM_RE.finditer(text):
        w = m.group("w").lower()
        if w in ("a", "an"):
            if not m.group("scale") or m.group("w2") or m.group("hundred"):
                continue
            n = 1.0
        else:
            n = float(_WORD_NUMBERS[w] + (_WORD_NUMBERS[m.group("w2").lower()] if m.group("w2") else 0))
        if m.group("hundred"):
            n *= 100
        currency = {"dollars": "USD", "euros": "EUR", "pounds": "GBP", "yen": "JPY"}.get(
            (m.group("cur") or "").lower()
        )
        scale = m.group("scale").lower() if m.group("scale") else None
        value = n * (SCALES[scale] if scale else 1.0)
        if m.group("pct"):
            kind, unit = "percentage", "%"
        elif m.group("pp"):
            kind, unit = "percentage_points", "percentage points"
        elif currency:
            kind, unit = "currency", currency
        else:
            kind, unit = "number", None
        out.append(
            Value(
                text=" ".join(m.group(0).split()),
                start=m.start(),
                end=m.end(),
                kind=kind,
                numeric_value=value,
                currency=currency,
                scale=scale,
                unit=unit,
                explicit_scale=scale is not None,
            )
        )
    return out


# --------------------------------------------------------------------------- periods

_MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
_YEAR = r"(?:1[89]|20)\d{2}"
_ORD_Q = r"(?i:first|second|third|fourth|1st|2nd|3rd|4th)"
_ORD_H = r"(?i:first|second|1st|2nd)"
_FISCAL = r"(?i:fiscal(?:\s+year)?|FY)"

_PERIOD_RE = re.compile(
    r"(?<![\w/])(?:"
    r"(?P<iso>(?P<iso_y>" + _YEAR + r")-(?P<iso_m>\d{2})(?:-(?P<iso_d>\d{2}))?)(?![\d-])"
    r"|(?P<mdy>(?P<mdy_m>"
    + _MONTH_RE
    + r")\s+(?P<mdy_d>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<mdy_y>"
    + _YEAR
    + r"))"
    r"|(?P<dmy>(?P<dmy_d>\d{1,2})(?:st|nd|rd|th)?\s+(?P<dmy_m>"
    + _MONTH_RE
    + r"),?\s+(?P<dmy_y>"
    + _YEAR
    + r"))"
    r"|(?P<my>(?P<my_m>" + _MONTH_RE + r"),?\s+(?:of\s+)?(?P<my_y>" + _YEAR + r"))"
    r"|(?P<md>(?P<md_m>" + _MONTH_RE + r")\s+(?P<md_d>\d{1,2})(?:st|nd|rd|th)?(?![\d,.]\d))"
    r"|(?P<dm>(?P<dm_d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<dm_m>" + _MONTH_RE + r"))"
    r"|(?P<mo>(?<![-–])(?:January|February|March|April|June|July|August|September|October|November|December|(?<=\bin )May)(?![\w-]))"
    r"|(?P<q1>(?P<q1_fy0>"
    + _FISCAL
    + r"\s*)?Q(?P<q1_n>[1-4])(?:(?:\s+of|\s*[-/,])?\s*(?P<q1_fy>FY|fiscal(?:\s+year)?)?\s*['’]?(?P<q1_y>"
    + _YEAR
    + r"|\d{2}))?)"
    r"|(?P<q2>(?P<q2_n>[1-4])Q\s*['’]?(?P<q2_y>" + _YEAR + r"|\d{2}))"
    r"|(?P<q3>(?:the\s+)?(?P<q3_n>" + _ORD_Q + r")(?:[\s-]+(?P<q3_fy>fiscal))?[\s-]+quarter"
    r"(?:\s+(?:of\s+)?(?:(?P<q3_fy2>" + _FISCAL + r")\s*)?['’]?(?P<q3_y>" + _YEAR + r"))?)"
    r"|(?P<h1>H(?P<h1_n>[12])\s*(?P<h1_fy>FY)?\s*['’]?(?P<h1_y>" + _YEAR + r"|\d{2}))"
    r"|(?P<h2>(?P<h2_n>[12])H\s*['’]?(?P<h2_y>" + _YEAR + r"|\d{2}))"
    r"|(?P<h3>(?:the\s+)?(?P<h3_n>"
    + _ORD_H
    + r")\s+half(?:\s+(?:of\s+)?(?:(?P<h3_fy>"
    + _FISCAL
    + r")\s*)?(?P<h3_y>"
    + _YEAR
    + r")))"
    r"|(?P<fy>(?:FY\s?['’]?(?P<fy_y>" + _YEAR + r"|\d{2})(?:/(?:\d{2}|" + _YEAR + r"))?"
    r"|(?i:fiscal(?:\s+year)?)\s+(?P<fy_y2>" + _YEAR + r")))"
    r"|(?P<yr>(?:(?i:from)\s+)?(?P<yr_a>"
    + _YEAR
    + r")\s?(?:-|–|—|to|through|until)\s?(?P<yr_b>"
    + _YEAR
    + r"|\d{2})(?!\d))"
    r"|(?P<yr2>(?i:between)\s+(?P<yr2_a>" + _YEAR + r")\s+and\s+(?P<yr2_b>" + _YEAR + r"))"
    r"|(?P<y>" + _YEAR + r"s?)"
    r")(?![\w%$€£¥])",
)
_AS_OF_RE = re.compile(r"(?i:\bas\s+(?:of|at)\s+(?:the\s+end\s+of\s+)?)$")
_TARGET_RE = re.compile(r"(?i:\b(?:by|until|through|till|in)\s+(?:the\s+end\s+of\s+)?)$")


def _full_year(y: str) -> int:
    y = y.lstrip("'’")
    n = int(y)
    return n if len(y) == 4 else 2000 + n


def _ord(s: str) -> int:
    return {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}[
        s.lower()
    ]


def _month(s: str) -> int:
    return _MONTHS[s.rstrip(".").lower()]


def _last_day(y: int, m: int) -> int:
    return calendar.monthrange(y, m)[1]


def _period_key(p: Period) -> str:
    fy = "FY" if p.fiscal else ""
    if p.type == "year":
        return str(p.year)
    if p.type == "fiscal_year":
        return f"FY{p.year}"
    if p.type.endswith(("quarter", "half")):
        label = f"{'Q' if p.type.endswith('quarter') else 'H'}{p.index}"
        return f"{fy}{p.year}-{label}" if p.year else f"{fy}{label}"
    if p.type == "year_range" and p.start and p.end:
        return f"{p.start[:4]}-{p.end[:4]}"
    if p.type == "day" and p.start:
        return p.start
    if p.type == "month" and p.start:
        return p.start[:7]
    if p.type == "month" and p.index:
        return f"M{p.index:02d}"
    return p.text.lower()


def _build_period(m: re.Match[str]) -> Period | None:
    g = m.group
    text = m.group(0)
    span = (m.start(), m.end())
    if g("iso"):
        y, mo = int(g("iso_y")), int(g("iso_m"))
        if not 1 <= mo <= 12:
            return None
        if g("iso_d"):
            d = int(g("iso_d"))
            if not 1 <= d <= _last_day(y, mo):
                return None
            iso = f"{y:04d}-{mo:02d}-{d:02d}"
            return Period(text, "day", iso, iso, y, span)
        return Period(
            text, "month", f"{y:04d}-{mo:02d}-01", f"{y:04d}-{mo:02d}-{_last_day(y, mo):02d}", y, span
        )
    for key in ("mdy", "dmy"):
        if g(key):
            y, mo, d = int(g(f"{key}_y")), _month(g(f"{key}_m")), int(g(f"{key}_d"))
            if not 1 <= d <= _last_day(y, mo):
                return None
            iso = f"{y:04d}-{mo:02d}-{d:02d}"
            return Period(text, "day", iso, iso, y, span)
    if g("mo"):
        return Period(text, "month", None, None, None, span, index=_month(text))  # "in October": year unknown
    if g("md") or g("dm"):
        key = "md" if g("md") else "dm"
        mo, d = _month(g(f"{key}_m")), int(g(f"{key}_d"))
        if not 1 <= d <= _last_day(2000, mo):  # 2000 is a leap year: 29 February is a date
            return None
        return Period(text, "day", None, None, None, span)
    if g("my"):
        y, mo = int(g("my_y")), _month(g("my_m"))
        return Period(
            text, "month", f"{y:04d}-{mo:02d}-01", f"{y:04d}-{mo:02d}-{_last_day(y, mo):02d}", y, span
        )
    for key in ("q1", "q2", "q3"):
        if g(key):
            n = int(g(f"{key}_n")) if key != "q3" else _ord(g("q3_n"))
            ys = g(f"{key}_y")
            fiscal = bool(
                (key == "q1" and (g("q1_fy") or g("q1_fy0"))) or (key == "q3" and (g("q3_fy") or g("q3_fy2")))
            )
            qy = _full_year(ys) if ys else None
            if fiscal or qy is None:
                kind = "fiscal_quarter" if fiscal else "quarter"
                return Period(text, kind, None, None, qy, span, fiscal=fiscal, index=n)
            sm = 3 * (n - 1) + 1
            em = sm + 2
            end = f"{qy:04d}-{em:02d}-{_last_day(qy, em):02d}"
            return Period(text, "quarter", f"{qy:04d}-{sm:02d}-01", end, qy, span, index=n)
    for key in ("h1", "h2", "h3"):
        if g(key):
            n = int(g(f"{key}_n")) if key != "h3" else _ord(g("h3_n"))
            y = _full_year(g(f"{key}_y"))
            fiscal = bool(key in ("h1", "h3") and g(f"{key}_fy"))
            if fiscal:
                return Period(text, "fiscal_half", None, None, y, span, fiscal=True, index=n)
            sm, em = (1, 6) if n == 1 else (7, 12)
            end = f"{y:04d}-{em:02d}-{_last_day(y, em):02d}"
            return Period(text, "half", f"{y:04d}-{sm:02d}-01", end, y, span, index=n)
    if g("fy"):
        ys = g("fy_y") or g("fy_y2")
        return Period(text, "fiscal_year", None, None, _full_year(ys), span, fiscal=True)
    if g("yr") or g("yr2"):
        a = int(g("yr_a") or g("yr2_a"))
        b_raw = g("yr_b") or g("yr2_b")
        b = int(b_raw) if len(b_raw) == 4 else (a // 100) * 100 + int(b_raw)
        if b <= a or b - a > 100:
            return None
        return Period(text, "year_range", f"{a:04d}-01-01", f"{b:04d}-12-31", a, span)
    if g("y"):
        if text.endswith("s"):
            y = int(text[:-1])
            return Period(text, "decade", f"{y:04d}-01-01", f"{y + 9:04d}-12-31", y, span)
        y = int(text)
        return Period(text, "year", f"{y:04d}-01-01", f"{y:04d}-12-31", y, span)
    return None  # pragma: no cover - every alternative is handled above


def find_periods(text: str) -> list[Period]:
    """Every date or period in ``text`` with its precision, span, and whether it is an "as of" date or a target ("by 2030")."""
    out: list[Period] = []
    for m in _PERIOD_RE.finditer(text):
        p = _build_period(m)
        if p is None:
            continue
        before = text[max(0, m.start() - 24) : m.start()]
        if _AS_OF_RE.search(before):
            p = p.marked(as_of=True)
        elif re.search(r"(?i:\bby\s+(?:the\s+end\s+of\s+)?)$", before):
            p = p.marked(target=True)
        out.append(p)
    return out


def parse_period_text(text: str) -> Period | None:
    """The one period a short string names (``"Q3 2024"``, ``"FY24"``, ``"2024"``), else ``None``."""
    ps = find_periods(text.strip())
    return ps[0] if len(ps) == 1 else None


# --------------------------------------------------------------------------- single value strings

_PLAIN_NUMBER_RE = re.compile(r"^\s*[-−]?\s*(?:" + _NUM + r")\s*$")


# Words before a value string: approximations (no bound), lower bounds and upper bounds.
_APPROX_WORDS = (
    "approximately",
    "approx.",
    "approx",
    "about",
    "around",
    "roughly",
    "nearly",
    "almost",
    "some",
)
_LOWER_WORDS = (
    "more than",
    "over",
    "at least",
    "above",
    "exceeding",
    "in excess of",
    "upwards of",
    ">=",
    "≥",
    ">",
)
_UPPER_WORDS = ("less than", "under", "up to", "below", "at most", "no more than", "<=", "≤", "<")
_QUALIFIERS: tuple[tuple[str, str | None], ...] = (
    *((w, None) for w in (*_APPROX_WORDS, "est.", "estimated", "c.", "~", "≈")),
    *((w, "lower") for w in _LOWER_WORDS),
    *((w, "upper") for w in _UPPER_WORDS),
)


def parse_value_string(raw: str) -> Value | None:
    """Parse one fact's value string (``"22.4"``, ``"$22.4 billion"``, ``"22.4billion"``, ``"22,400 million"``).

    Returns ``None`` when the string is not one number (text such as ``"Paris"``, or two numbers).
    A value followed only by a trailing word ("1.2 million users") still parses; the word becomes the unit.
    """
    s = " ".join(raw.split())
    if not s:
        return None
    if s.lower() in ("zero", "nil", "none"):
        return Value(text=s, start=0, end=len(s), kind="number", numeric_value=0.0)
    periods = [
        p for p in find_periods(s) if p.span[0] > 0
    ]  # "€1.2 billion (2023)": the period is not the value
    values = [
        v
        for v in find_values(s, exclude=[p.span for p in periods])
        if not (v.year_like and _PLAIN_NUMBER_RE.match(s) is None)
    ]
    if len(values) != 1:
        return None
    v = values[0]
    if len(periods) == 1:
        v.extras["period"] = periods[0]
    rest = s[: v.start] + " " + s[v.end :]
    for p in periods:
        rest = rest.replace(p.text, " ")
    rest = rest.strip(" .,;:()[]")
    rest_l = rest.lower()
    for word, bound in _QUALIFIERS:
        if rest_l.startswith(word):
            rest = rest[len(word) :].strip()
            rest_l = rest.lower()
            if bound:
                v.extras["bound"] = bound
            break
    if rest_l.endswith("+") or s.endswith("+"):
        rest = rest.rstrip("+ ")
        rest_l = rest.lower()
        v.extras["bound"] = "lower"
    if rest:
        if len(rest.split()) > 3 or any(ch.isdigit() for ch in rest):
            return None
        if v.kind == "number" and v.unit is None:
            v.kind = "count"
            v.unit = rest_l
    v.year_like = v.year_like and not rest
    return v
