"""citation-validate's claim check on third-party labelled claims, against two baselines in the same run.

Cases: ``tests/eval/data/claims/cases.jsonl`` (SciFact train, COVID-Fact train, HealthVer dev; provenance
in PROVENANCE.md there). Each case is a claim and a source text holding the passage a third party
labelled for it among passages of other claims (or, for part of the not-found class, without it).

Systems: ``judge_claim`` (research_mcp.claims); today's check (``check_accuracy``: supported when the
claim's numbers and capitalised names occur in the page, else not found; no answer when the claim has
neither); a plain word-overlap baseline (the sentence sharing most of the claim's words; supported at
half or more, else not found). Printed: precision/recall per verdict, accuracy, the evidence hit rate
(an evidence passage overlaps the labelled passage, over supported/contradicted cases) and the numeric
subset (claims with a number), on the dev half (even case numbers: thresholds were chosen there), the
held-out half and all cases. ``-v`` lists the dev half's misses.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from research_mcp.citations import check_accuracy
from research_mcp.claims import claim_features, judge_claim

sys.path.insert(0, str(Path(__file__).parent))
from claims_model import verdict_model

DATA = Path(__file__).parent / "data" / "claims" / "cases.jsonl"
LABELS = ("supported", "contradicted", "not_found")
WORD = re.compile(r"[a-z0-9]+")
SENT = re.compile(r"(?<=[.!?])\s+|\n\s*\n")
STOP = set(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "have",
        "in",
        "is",
        "it",
        "its",
        "of",
        "on",
        "or",
        "that",
        "the",
        "to",
        "was",
        "were",
        "with",
    ]
)

Prediction = tuple[str | None, list[tuple[int, int]]]


def load_cases() -> list[dict[str, Any]]:
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line.strip()]


def ours(case: dict[str, Any]) -> Prediction:
    r = judge_claim(case["claim"], case["source"])
    return r["verdict"], [(e["start"], e["end"]) for e in r["evidence"]]


def trained(case: dict[str, Any]) -> Prediction:
    """The logistic regression over the judge's features (claims_model.py), evidence as ours."""
    model = verdict_model()
    assert model is not None, "run tests/eval/data/claims/train_verdict.py first"
    probs = model.predict(claim_features(case["claim"], case["source"]))
    return max(probs, key=lambda k: probs[k]), ours(case)[1]


def today(case: dict[str, Any]) -> Prediction:
    r = check_accuracy(case["claim"], case["source"])
    if r["supported"] is None:
        return None, []
    return ("supported" if r["supported"] else "not_found"), []


def overlap(case: dict[str, Any]) -> Prediction:
    """The sentence with the largest share of the claim's words (lower case, no stop words)."""
    claim = {w for w in WORD.findall(case["claim"].lower()) if w not in STOP}
    text, best, span, pos = case["source"], 0.0, (0, 0), 0
    for part in SENT.split(text):
        start = text.find(part, pos)
        pos = start + len(part)
        words = set(WORD.findall(part.lower()))
        share = len(claim & words) / len(claim) if claim else 0.0
        if share > best:
            best, span = share, (start, start + len(part))
    return ("supported" if best >= 0.5 else "not_found"), [span] if best > 0 else []


def score(cases: list[dict[str, Any]], preds: list[Prediction]) -> dict[str, Any]:
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    hits = hit_cases = 0
    for case, (verdict, spans) in zip(cases, preds, strict=True):
        gold = case["label"]
        if verdict == gold:
            tp[gold] += 1
        else:
            fn[gold] += 1
            if verdict is not None:
                fp[verdict] += 1
        if gold != "not_found" and case["rationales"]:
            hit_cases += 1
            hits += any(a < re and ra < b for a, b in spans for ra, re in case["rationales"])
    n = len(cases)
    return {
        "n": n,
        "accuracy": sum(tp.values()) / n if n else 0.0,
        "answered": sum(1 for v, _ in preds if v is not None) / n if n else 0.0,
        "per": {
            lab: (
                tp[lab] / (tp[lab] + fp[lab]) if tp[lab] + fp[lab] else 0.0,
                tp[lab] / (tp[lab] + fn[lab]) if tp[lab] + fn[lab] else 0.0,
            )
            for lab in LABELS
        },
        "evidence_hit": hits / hit_cases if hit_cases else 0.0,
    }


def table(title: str, cases: list[dict[str, Any]], results: dict[str, list[Prediction]]) -> None:
    print(f"\n--- {title}: {len(cases)} cases " + str(dict(Counter(c["label"] for c in cases))))
    head = "  ".join(f"{lab[:12]:>12} P/R" for lab in LABELS)
    print(f"  {'system':<24} {'acc':>6} {'answered':>8} {'evid.hit':>8}  {head}")
    for name, preds in results.items():
        s = score(cases, preds)
        per = "  ".join(f"{p:7.1%}/{r:6.1%}" for p, r in s["per"].values())
        print(f"  {name:<24} {s['accuracy']:6.1%} {s['answered']:8.1%} {s['evidence_hit']:8.1%}  {per}")


def main(verbose: bool) -> int:
    cases = load_cases()
    systems: dict[str, Callable[[dict[str, Any]], Prediction]] = {
        "judge_claim (ours)": ours,
        "trained LR (not adopted)": trained,
        "today's check_accuracy": today,
        "word overlap": overlap,
    }
    results: dict[str, list[Prediction]] = {}
    for name, fn in systems.items():
        t0 = time.perf_counter()
        results[name] = [fn(c) for c in cases]
        print(f"{name}: {time.perf_counter() - t0:.2f} s for {len(cases)} cases")

    def part(
        keep: Callable[[int, dict[str, Any]], bool],
    ) -> tuple[list[dict[str, Any]], dict[str, list[Prediction]]]:
        idx = [i for i, c in enumerate(cases) if keep(i, c)]
        return [cases[i] for i in idx], {k: [v[i] for i in idx] for k, v in results.items()}

    table("dev half (thresholds chosen here)", *part(lambda i, c: i % 2 == 0))
    table("held-out half", *part(lambda i, c: i % 2 == 1))
    table("all cases", *part(lambda i, c: True))
    table("numeric subset (claims with a number), all", *part(lambda i, c: c["numeric"]))
    for ds in sorted({c["dataset"] for c in cases}):
        table(f"{ds} only", *part(lambda i, c, ds=ds: c["dataset"] == ds))
    if verbose:
        print("\n-- misses (dev half)")
        for i, c in enumerate(cases):
            verdict = results["judge_claim (ours)"][i][0]
            if i % 2 == 0 and verdict != c["label"]:
                r = judge_claim(c["claim"], c["source"])
                ev = r["evidence"][0]["text"][:160] if r["evidence"] else ""
                print(
                    f"  {c['id']} gold {c['label']} got {verdict}: {c['claim'][:120]}\n      {r['reason']}\n      > {ev}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main("-v" in sys.argv))
