"""Check a claim against the text of the source it cites: a verdict, the evidence passages, the numbers.

``judge_claim(claim, text)`` finds the passages of ``text`` nearest the claim (``passages``), then
judges the best of them: is the claim's subject there, do its numbers have the same values
(``numbers``), does the passage point the same way (``polarity``: rose/fell, "not", "failed to")?

- ``supported``: a passage holds most of the claim's weight and nothing in it disagrees;
- ``contradicted``: a passage about the claim's subject disagrees: a different value of the same
  kind, the opposite direction, or "no effect" against an effect;
- ``not_found``: no passage holds enough of the claim.

Results are cached per (claim, text); the text's index is shared by every claim judged against it.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..values import Value
from .dates import DateCheck, compare_dates, periods_in
from .numbers import DIFFERENT, EQUAL, NumberCheck, compare_numbers, values_in
from .passages import STOP, WORD_RE, Passage, SourceIndex, content_stems, index_for, stem
from .polarity import DOWN, UP, polarity

__all__ = ["CONTRADICTED", "NOT_FOUND", "SUPPORTED", "UNVERIFIABLE", "judge_claim"]

SUPPORTED = "supported"
CONTRADICTED = "contradicted"
NOT_FOUND = "not_found"
UNVERIFIABLE = "unverifiable"
# Thresholds on the share of the claim's idf-weighted words a passage holds; chosen on the evaluation's
# dev half (tests/eval/eval_claims.py, README "Decisions").
MIN_SUPPORT = 0.25
MIN_CONTRADICT = 0.15
EVIDENCE = 3
NEAR_BEST = 0.8  # a rival passage within this share of the best is judged too (dev half)
FEATURES = [
    "score",
    "subject",
    "unknown_words",
    "claim_words",
    "numbers_equal",
    "numbers_different",
    "numbers_absent",
    "opposite_direction",
    "same_direction",
    "claim_negated",
    "source_negated",
    "negation_xor",
    "claim_null_effect",
    "source_null_effect",
    "null_effect_xor",
    "rule_conflict",
]
JUDGED = 5
MAX_RESULTS = 2048
SUBJECT_END = frozenset(
    [
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "can",
        "could",
        "may",
        "might",
        "will",
        "would",
        "shall",
        "should",
        "must",
        "not",
        "no",
        "never",
    ]
)


@dataclass
class _Judged:
    score: float
    passage: Passage
    subject: float
    numbers: list[NumberCheck]
    dates: list[DateCheck]
    conflicts: list[str]
    features: dict[str, float]


def _subject_stems(claim: str) -> list[str]:
    """The content words before the claim's first verb-like word: what the claim is about."""
    out: list[str] = []
    for w in WORD_RE.findall(claim):
        low = w.lower()
        s = stem(low)
        verb_like = (
            low in SUBJECT_END or s in UP or s in DOWN or (len(low) > 3 and low.endswith(("es", "ed")))
        )
        if out and verb_like:
            break
        if low not in STOP:
            out.append(s)
    return out[:6]


def _judge(claim: str, idx: SourceIndex, score: float, passage: Passage, near: list[Value]) -> _Judged:
    """Compare the claim with one passage: subject, numbers, direction, negation."""
    text = idx.text[passage.start : passage.end]
    subject = _subject_stems(claim)
    weights = {s: idx.idf(s) for s in subject}
    total = sum(weights.values())
    subject_share = sum(w for s, w in weights.items() if s in passage.stems) / total if total else 1.0
    claim_dates = periods_in(claim)
    passage_dates = periods_in(idx.text, passage.start, passage.end)
    numbers = compare_numbers(
        claim,
        values_in(claim, dates=[p.span for p in claim_dates]),
        values_in(idx.text, passage.start, passage.end, [p.span for p in passage_dates]),
        near,
        idx.text,
    )
    conflicts: list[str] = []
    different = [n for n in numbers if n.status == DIFFERENT]
    if different:
        d = different[0]
        assert d.source is not None
        conflicts.append(f"the source gives {d.source.text!r} where the claim says {d.claim.text!r}")
    shared = frozenset(
        s for s in content_stems(claim) if s in passage.stems and s not in UP and s not in DOWN
    )
    dates = compare_dates(claim_dates, passage_dates)
    other_date = next((d for d in dates if d.status == DIFFERENT), None)
    if other_date is not None and other_date.source is not None:
        conflicts.append(
            f"the source dates it {other_date.source.text!r} where the claim says {other_date.claim.text!r}"
        )
    pc, pp = polarity(claim, shared), polarity(text, shared)
    opposite = pc.opposes(pp)
    null_xor = pc.null_effect != pp.null_effect
    negation_xor = pc.negations % 2 != pp.negations % 2
    if opposite:
        conflicts.append("the source states the opposite direction")
    elif null_xor and (pc.direction or pp.direction or pc.null_effect):
        conflicts.append("one of them states no effect where the other states one")
    elif not pc.direction and not pp.direction and negation_xor:
        conflicts.append("one of them is negated")
    stems = content_stems(claim)
    features: dict[str, float] = {
        "score": score,
        "subject": subject_share,
        "unknown_words": sum(1 for s in stems if not idx.postings(s)) / (len(stems) or 1),
        "claim_words": math.log1p(len(stems)),
        "numbers_equal": float(any(n.status == EQUAL for n in numbers)),
        "numbers_different": float(bool(different)),
        "numbers_absent": float(any(n.status == "absent" for n in numbers)),
        "opposite_direction": float(opposite),
        "same_direction": float(any(pp.anchored.get(a) == d for a, d in pc.anchored.items())),
        "claim_negated": float(pc.negations % 2),
        "source_negated": float(pp.negations % 2),
        "negation_xor": float(negation_xor),
        "claim_null_effect": float(pc.null_effect),
        "source_null_effect": float(pp.null_effect),
        "null_effect_xor": float(null_xor),
        "rule_conflict": float(bool(conflicts)),
    }
    return _Judged(score, passage, subject_share, numbers, dates, conflicts, features)


def _evidence(idx: SourceIndex, ranked: list[tuple[float, Passage]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for score, p in ranked:
        if any(p.start < e["end"] and e["start"] < p.end for e in out):
            continue
        out.append(
            {"text": idx.text[p.start : p.end], "start": p.start, "end": p.end, "score": round(score, 3)}
        )
        if len(out) == EVIDENCE:
            break
    return out


def _verdict(best: _Judged | None) -> tuple[str, str]:
    """Not found below the support share; contradicted on a conflict; else supported above the share."""
    if best is None:
        return NOT_FOUND, "no word of the claim occurs in the source"
    if best.score < MIN_CONTRADICT:
        return NOT_FOUND, f"the nearest passage holds only {best.score:.0%} of the claim's weighted words"
    if best.conflicts:
        return CONTRADICTED, "; ".join(best.conflicts)
    if best.score >= MIN_SUPPORT:
        return SUPPORTED, f"a passage holds {best.score:.0%} of the claim's weighted words and agrees with it"
    return NOT_FOUND, f"the nearest passage holds only {best.score:.0%} of the claim's weighted words"


def _best(claim: str, idx: SourceIndex) -> tuple[_Judged | None, list[tuple[float, Passage]]]:
    """The passage nearest the claim, judged, and every candidate passage ranked."""
    stems = content_stems(claim)
    ranked = idx.candidates(stems) if stems else []
    top = ranked[:JUDGED]
    near = [v for _, p in top for v in values_in(idx.text, p.start, p.end)]
    judged = [_judge(claim, idx, score, p, near) for score, p in top]
    best = max(judged, key=lambda j: (j.score, j.subject, -len(j.conflicts)), default=None)
    if best is not None and not best.conflicts:
        # a passage nearly as close that disagrees outweighs one that does not say otherwise
        rival = [j for j in judged if j.conflicts and j.score >= NEAR_BEST * best.score]
        if rival:
            best = max(rival, key=lambda j: j.score)
    return best, ranked


def claim_features(claim: str, text: str) -> dict[str, float]:
    """The judge's reading of the passage nearest the claim (the evaluation's trained comparison reads it)."""
    best, _ = _best(claim, index_for(text))
    return best.features if best else dict.fromkeys(FEATURES, 0.0)


def _compute(claim: str, text: str) -> dict[str, Any]:
    idx = index_for(text)
    best, ranked = _best(claim, idx)
    verdict, why = _verdict(best)
    if not content_stems(claim):
        why = "the claim has no content word to look for (only words such as 'it', 'is', 'the')"
    numbers = best.numbers if best else compare_numbers(claim, values_in(claim), [], [])
    evidence = _evidence(idx, ([(best.score, best.passage)] if best else []) + ranked)
    return {
        "checked": True,
        "verdict": verdict,
        "supported": verdict == SUPPORTED,
        "reason": why,
        "evidence": evidence,
        "numbers": [n.to_dict() for n in numbers] + [d.to_dict() for d in (best.dates if best else [])],
        "text_sha256": idx.sha256,
        "text_chars": len(text),
    }


_LOCK = threading.Lock()
_RESULTS: OrderedDict[tuple[str, str], dict[str, Any]] = OrderedDict()


def judge_claim(claim: str, text: str) -> dict[str, Any]:
    """The verdict on ``claim`` against the source ``text``, with evidence offsets into ``text``.

    Cached per (claim, text): a batch that cites one page for many claims reads it once.
    """
    with _LOCK:  # the caches are shared by the worker threads citation-validate runs this in
        idx = index_for(text)
        key = (claim, idx.sha256)
        found = _RESULTS.get(key)
        if found is None:
            found = _compute(claim, text)
            _RESULTS[key] = found
            while len(_RESULTS) > MAX_RESULTS:
                _RESULTS.popitem(last=False)
        else:
            _RESULTS.move_to_end(key)
    return {**found, "evidence": [dict(e) for e in found["evidence"]], "numbers": list(found["numbers"])}
