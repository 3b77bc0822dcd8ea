"""The claim check on a slice of the third-party-labelled evaluation set, with floors below the measured figures.

The whole set (360 claims from SciFact train, COVID-Fact train and HealthVer dev, each with a source
holding its labelled passage among others; tests/eval/data/claims/PROVENANCE.md) runs in
``make eval ONLY=claims``; this keeps every fourth case so a regression fails the suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from research_mcp.claims import judge_claim

CASES = Path(__file__).resolve().parents[3] / "tests" / "eval" / "data" / "claims" / "cases.jsonl"


def _slice() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[::4]


def test_slice_of_third_party_labels_keeps_its_floors() -> None:
    cases = _slice()
    results = [(c, judge_claim(c["claim"], c["source"])) for c in cases]
    accuracy = sum(r["verdict"] == c["label"] for c, r in results) / len(results)
    judged = [(c, r) for c, r in results if c["label"] != "not_found" and c["rationales"]]
    hits = sum(
        any(e["start"] < b and a < e["end"] for e in r["evidence"] for a, b in c["rationales"])
        for c, r in judged
    )
    contradicted = [r["verdict"] for c, r in results if c["label"] == "contradicted"]
    # measured on this slice (90 cases) when written: accuracy 0.64, evidence hit 0.93, contradicted recall 0.41
    # (today's check_accuracy on the whole set: accuracy 0.29, never contradicted; word overlap 0.44)
    assert accuracy >= 0.58, accuracy
    assert hits / len(judged) >= 0.88, hits / len(judged)
    assert contradicted.count("contradicted") / len(contradicted) >= 0.3, contradicted
    assert all(r["supported"] is (r["verdict"] == "supported") for _, r in results)
