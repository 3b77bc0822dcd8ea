"""fact-extract's values on third-party labelled sentences, against a bare-spaCy baseline in the same run.

Cases: ``tests/eval/data/values/cases.jsonl`` (quantulum3's and price-parser's test cases, TAT-QA's dev
split, MeasEval's train split; provenance in PROVENANCE.md there). For each category (money with its
currency, percentages, quantities with their unit, counts, ranges) it prints precision and recall for
fact-extract, for our value parser alone (before fact-extract drops values it cannot attach to a
subject), and for the baseline: bare spaCy MONEY/PERCENT/QUANTITY/CARDINAL entities plus one money
regex. "period" scores the year of the period given to each value that TAT-QA's question dates
(baseline: the nearest DATE entity in the sentence). ``-v`` prints the misses; ``--candidates`` adds the libraries measured for adoption (values_candidates.py).

The same tables are printed for ``heldout.jsonl`` (MeasEval train and trial sentences the development
cases do not hold, and re3d's news and government pages): scores only, never the misses, so that a change
can be judged on text nobody looked at while making it.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from typing import Any

from research_mcp.facts import extract_from_doc
from research_mcp.markup import mask_markup
from research_mcp.nlp import load_nlp
from research_mcp.values import find_periods, find_values
from support.values_eval import (
    CATEGORIES,
    DATA,
    Pred,
    Tally,
    canonical_unit,
    load_cases,
    preds_baseline,
    preds_from_facts,
    score,
)


def preds_parser(text: str) -> list[Pred]:
    """Our value parser alone: every value, no subject needed; the nearest period in the text."""
    periods = find_periods(text)
    out: list[Pred] = []
    for v in find_values(text, exclude=[p.span for p in periods], spelled_counts=True):
        if v.year_like:
            continue
        near = min(periods, key=lambda p: abs(p.span[0] - v.start), default=None)
        if v.currency:
            cat = "money"
        elif v.kind in ("percentage", "percentage_points"):
            cat = "percent"
        elif canonical_unit(v.unit) is not None:
            cat = "quantity"
        else:
            cat = "count"
        p = Pred(
            v.start, v.end, cat, v.numeric_value, v.currency, v.unit, period_year=near.year if near else None
        )
        if v.low is not None:
            p.cat, p.low, p.high, p.value = "range", v.low, v.high, None
        out.append(p)
    return out


def row(name: str, t: Tally) -> str:
    return (
        f"  {name:<22} P {t.p():6.1%}  R {t.r():6.1%}  F1 {t.f1():6.1%}   (tp {t.tp}, fp {t.fp}, fn {t.fn})"
    )


def candidates(
    cases: list[dict[str, Any]], texts: list[str], ours: list[list[Pred]], results: dict[str, Any]
) -> None:
    """The libraries measured for adoption (README, "Decisions"), on the same cases."""
    import values_candidates as vc

    print("\n== candidate libraries (same cases) ==")
    rows = {
        "quantulum3 extractor": vc.quantulum_preds(texts),
        "fact-extract+price-parser": vc.price_parser_money(ours, texts),
        "fact-extract+dateparser": vc.dateparser_periods(ours, texts),
    }
    for name, preds in rows.items():
        if preds is None:
            print(f"  {name}: not installed (see values_candidates.py for the uv run --with line)")
            continue
        cats, period, _ = score(cases, preds)
        for cat in (*CATEGORIES, "period"):
            print(row(f"{name} {cat}"[:40], period if cat == "period" else cats.get(cat, Tally())))
    cov = vc.unit_coverage(cases)
    if cov is not None:
        for name, (ok, n) in cov.items():
            print(f"  unit surfaces recognised, {name}: {ok}/{n}")
    for lib, stmt in (
        ("research_mcp.values", "import research_mcp.values"),
        ("quantulum3 (import + first parse)", "from quantulum3 import parser; parser.parse('5 kg')"),
        ("pint (registry)", "import pint; pint.UnitRegistry()"),
        ("price_parser", "import price_parser"),
        (
            "dateparser (import + first search)",
            "from dateparser.search import search_dates; search_dates('on 5 May 2020')",
        ),
    ):
        t = vc.startup_seconds(stmt)
        print(f"  start-up {lib}: " + (f"{t:.2f} s" if t is not None else "not installed"))


def run(cases: list[dict[str, Any]], nlp: Any, title: str) -> dict[str, Any]:
    """Score the three systems on ``cases`` and print per-category, micro and per-source tables."""
    texts = [c["text"] for c in cases]
    t0 = time.perf_counter()
    docs = list(nlp.pipe(texts))
    t_nlp = time.perf_counter() - t0
    # as the server does it: the parse sees the text with a paper's markup blanked out
    masked = list(nlp.pipe([mask_markup(t) for t in texts]))
    t0 = time.perf_counter()
    ours = [preds_from_facts(extract_from_doc(d, source_text=t)) for d, t in zip(masked, texts, strict=True)]
    t_ours = time.perf_counter() - t0
    systems = {
        "fact-extract": ours,
        "value parser alone": [preds_parser(t) for t in texts],
        "baseline (spaCy+regex)": [preds_baseline(d) for d in docs],
    }
    n_values = sum(1 for c in cases for v in c["values"] if v["cat"] != "ignore")
    print(f"\n===== {title}")
    print(
        f"{len(cases)} sentences, {n_values} labelled values; spaCy {t_nlp:.1f} s, fact-extract after it {t_ours:.2f} s"
    )
    results = {name: score(cases, preds) for name, preds in systems.items()}
    for cat in (*CATEGORIES, "period"):
        if cat == "period" and not any("period_year" in v for c in cases for v in c["values"]):
            continue
        print(f"\n{cat}")
        for name, (cats, period, _) in results.items():
            print(row(name, period if cat == "period" else cats.get(cat, Tally())))
    print("\nall categories (micro)")
    for name, (cats, _, _) in results.items():
        total = Tally(
            sum(t.tp for t in cats.values()),
            sum(t.fp for t in cats.values()),
            sum(t.fn for t in cats.values()),
        )
        print(row(name, total))
    print("\nby source (all categories)")
    for src in sorted({c["source"] for c in cases}):
        for name, (_, _, sources) in results.items():
            print(f"  {src:<13}{name[:22]:<24}" + row("", sources.get(src, Tally()))[24:])
    return {"results": results, "texts": texts, "ours": ours}


def main(verbose: bool) -> int:
    nlp = load_nlp("en_core_web_sm")
    cases = load_cases()
    dev = run(cases, nlp, "development cases (cases.jsonl: misses listed with -v)")
    # the held-out cases are scored, never listed: they show whether a change holds on text not looked at
    run(load_cases(DATA / "heldout.jsonl"), nlp, "held-out cases (heldout.jsonl: scores only)")
    if "--candidates" in sys.argv:
        candidates(cases, dev["texts"], dev["ours"], dev["results"])
    if verbose:
        cats, period, _ = dev["results"]["fact-extract"]
        for cat, t in [*cats.items(), ("period", period)]:
            print(f"\n-- fact-extract misses (development cases): {cat}")
            for m in t.misses:
                print("   ", m)
    return 0


if __name__ == "__main__":
    sys.exit(main("-v" in sys.argv))
