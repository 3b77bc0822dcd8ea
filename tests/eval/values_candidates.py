"""The libraries issue 9 asked us to measure for values, each on the same cases as ``eval_values.py``.

Imported by ``eval_values.py --candidates`` only; the libraries are not project dependencies (none was
adopted), so bring them for the run: ``uv run --frozen --with quantulum3 --with pint --with price-parser
--with dateparser python tests/eval/eval_values.py --candidates``.

- quantulum3: as a whole extractor (money, percent, quantities, ranges) -> its own row per category;
- price-parser: re-reading the amount and currency of each money value fact-extract found;
- dateparser: the nearest date it finds in the sentence, as the period of each dated value;
- pint: how many of the labelled units' surfaces its registry parses, beside our units table;
- and each library's import and first-call time, measured in a fresh process.
"""

from __future__ import annotations

import re
import subprocess
import sys
import warnings
from typing import Any

from support.values_eval import Pred, canonical_unit


def startup_seconds(stmt: str) -> float | None:
    code = f"import time; t=time.perf_counter(); {stmt}; print(time.perf_counter()-t)"
    out = subprocess.run(
        [sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, check=False
    )
    try:
        return float(out.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None


def quantulum_preds(texts: list[str]) -> list[list[Pred]] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from quantulum3 import parser
    except ImportError:
        return None
    out: list[list[Pred]] = []
    for text in texts:
        preds: list[Pred] = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = parser.parse(text)
        for q in found:
            s, e = q.span
            unit = q.unit
            if unit.entity.name == "currency":
                p = Pred(s, e, "money", q.value, getattr(unit, "currency_code", None))
            elif unit.name == "percentage":
                p = Pred(s, e, "percent", q.value)
            elif unit.entity.name == "dimensionless":
                if re.fullmatch(r"(?:1[89]|20)\d\d", q.surface.strip()):
                    continue  # a year: the same convention as ours and the labels
                p = Pred(s, e, "count", q.value)
            else:
                p = Pred(s, e, "quantity", q.value, unit=unit.name)
            if q.uncertainty:
                p.low, p.high, p.value = q.value - q.uncertainty, q.value + q.uncertainty, None
                p.unit = unit.name if p.cat == "quantity" else None
                p.cat = "range"
            preds.append(p)
        out.append(preds)
    return out


def price_parser_money(ours: list[list[Pred]], texts: list[str]) -> list[list[Pred]] | None:
    """fact-extract's predictions with each money amount and currency re-read by price-parser."""
    try:
        from price_parser import Price
    except ImportError:
        return None
    from research_mcp.values.lexicon import CURRENCY_SYMBOLS

    out: list[list[Pred]] = []
    for preds, text in zip(ours, texts, strict=True):
        new: list[Pred] = []
        for p in preds:
            if p.cat == "money":
                price = Price.fromstring(text[p.start : p.end])
                raw = price.currency or ""
                code = CURRENCY_SYMBOLS.get(raw) or (
                    raw.upper() if re.fullmatch(r"[A-Za-z]{3}", raw) else None
                )
                amount = float(price.amount) if price.amount is not None else None
                new.append(Pred(p.start, p.end, "money", amount, code, period_year=p.period_year))
            else:
                new.append(p)
        out.append(new)
    return out


def dateparser_periods(ours: list[list[Pred]], texts: list[str]) -> list[list[Pred]] | None:
    """fact-extract's predictions with each period replaced by the year of the nearest date dateparser finds."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from dateparser.search import search_dates
    except ImportError:
        return None
    out: list[list[Pred]] = []
    for preds, text in zip(ours, texts, strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found = search_dates(text, languages=["en"]) or []
        spans = []
        for surface, when in found:
            at = text.find(surface)
            if at != -1 and re.search(r"(?:19|20)\d\d", surface):
                spans.append((at, when.year))
        new = []
        for p in preds:
            near = min(spans, key=lambda s: abs(s[0] - p.start), default=None)
            q = Pred(
                p.start, p.end, p.cat, p.value, p.currency, p.unit, p.low, p.high, near[1] if near else None
            )
            new.append(q)
        out.append(new)
    return out


def unit_coverage(cases: list[dict[str, Any]]) -> dict[str, tuple[int, int]] | None:
    """Of the labelled quantities' unit surfaces, how many our units table and pint's registry recognise."""
    try:
        import pint
    except ImportError:
        return None
    from research_mcp.values.lexicon import UNIT_SYMBOLS, UNIT_WORDS

    ureg = pint.UnitRegistry()
    surfaces = []
    for c in cases:
        for v in c["values"]:
            if v["cat"] == "quantity" or (v["cat"] == "range" and v.get("kind") == "quantity"):
                m = re.search(r"[\d½⅓¼]\s*-?\s*([^\d\s][^\d]*?)\s*\.?$", v["text"])
                if m:
                    surfaces.append(m.group(1).strip())
    ours = pint_ok = 0
    for s in surfaces:
        ours += (
            s.lower() in UNIT_WORDS
            or s in UNIT_SYMBOLS
            or canonical_unit(s) in ("year", "month", "week", "day")
        )
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ureg.parse_units(s.replace(" ", "_"))
            pint_ok += 1
        except Exception:  # pint raises several kinds for an unknown unit
            pass
    return {"ours": (ours, len(surfaces)), "pint": (pint_ok, len(surfaces))}
