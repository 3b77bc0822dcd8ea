"""Dates and periods in text (``Q3 2024``, ``FY24``, ``June 30, 2019``, ``2015-2020``) with their precision."""

from __future__ import annotations

import calendar
import re

from .lazy import lazy_re
from .model import Period

__all__ = ["find_periods", "parse_period_text"]

_MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m} | {
    m.lower(): i for i, m in enumerate(calendar.month_abbr) if m
}
_MONTHS["sept"] = 9


_MONTH_RE = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
)
_YEAR = r"(?:1[89]|20)\d{2}"
_ORD_Q = r"(?i:first|second|third|fourth|1st|2nd|3rd|4th)"
_ORD_H = r"(?i:first|second|1st|2nd)"
_FISCAL = r"(?i:fiscal(?:\s+year)?|FY)"

_PERIOD_RE = lazy_re(
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
_AS_OF_RE = lazy_re(r"(?i:\bas\s+(?:of|at)\s+(?:the\s+end\s+of\s+)?)$")
_TARGET_RE = lazy_re(r"(?i:\b(?:by|until|through|till|in)\s+(?:the\s+end\s+of\s+)?)$")


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
    for i in range(len(out) - 2, -1, -1):  # backwards, so "January, February and March 2020" all get 2020
        p, q = out[i], out[i + 1]
        joined = _JOINED_RE.fullmatch(text, p.span[1], q.span[0]) is not None
        if joined and p.year is None and not p.fiscal and q.year is not None and not q.fiscal:
            dated = _in_year(p, q.year)
            if dated.start and q.start and dated.start > q.start:  # "December to February 2021"
                dated = _in_year(p, q.year - 1)
            out[i] = dated
    return out


# Between two periods of one series: "January and March 2020", "Q1 to Q3 2022", "1 March - 30 June 2020".
_JOINED_RE = lazy_re(r"\s*(?:,|,?\s*(?:and|or|to|through|thru|until|till|&)|[-–—])\s*")


def _in_year(p: Period, year: int) -> Period:
    """A period written without its year ("January" in "January and March 2020") in the year of the next one."""
    written = f"{p.text} {year}"
    found = [b for m in _PERIOD_RE.finditer(written) if (b := _build_period(m)) is not None]
    if len(found) != 1 or found[0].text != written or found[0].year != year:
        return p
    r = found[0]
    return Period(p.text, r.type, r.start, r.end, r.year, p.span, r.fiscal, p.as_of, p.target, r.index)


def parse_period_text(text: str) -> Period | None:
    """The one period a short string names (``"Q3 2024"``, ``"FY24"``, ``"2024"``), else ``None``."""
    ps = find_periods(text.strip())
    return ps[0] if len(ps) == 1 else None
