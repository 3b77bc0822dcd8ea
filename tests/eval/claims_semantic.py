"""Measure a semantic similarity for the claim check (README "Decisions": not adopted).

WordLlama (PyPI ``wordllama``, MIT; its 256-dimension ``l2_supercat`` weights and tokenizer ship inside
the wheel, loaded here with downloads disabled) embeds the claim and every sentence of its source. The
judge's lexical verdict is compared with one where a sentence's cosine similarity can also make the
claim found and supported (thresholds chosen on the dev half, as the judge's were)::

    uv run --frozen --with wordllama python tests/eval/claims_semantic.py
"""

from __future__ import annotations

import itertools
import re
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from eval_claims import load_cases
from research_mcp.claims import MIN_CONTRADICT, MIN_SUPPORT, _best
from research_mcp.claims.passages import index_for

SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])|\n\s*\n")


def cosines(cases: list[dict[str, Any]]) -> list[list[tuple[int, int, float]]]:
    """Each case's sentences with their cosine similarity to the claim."""
    import wordllama
    from wordllama import WordLlama

    t0 = time.perf_counter()
    model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
    print(f"WordLlama load {time.perf_counter() - t0:.2f} s")
    out = []
    for c in cases:
        text, spans, pos = c["source"], [], 0
        for m in SENT.finditer(text):
            spans.append((pos, m.start()))
            pos = m.end()
        spans = [(a, b) for a, b in [*spans, (pos, len(text))] if b > a]
        emb = model.embed([c["claim"]] + [text[a:b] for a, b in spans], norm=True)
        out.append([(a, b, float(x)) for (a, b), x in zip(spans, (emb[1:] @ emb[0]).tolist(), strict=True)])
    return out


def main() -> int:
    cases = load_cases()
    sims = cosines(cases)
    rows = []
    for c, sents in zip(cases, sims, strict=True):
        best, _ = _best(c["claim"], index_for(c["source"]))
        near = max(
            (x for a, e, x in sents if best and a < best.passage.end and best.passage.start < e), default=0.0
        )
        rows.append((c["label"], best.score if best else 0.0, bool(best and best.conflicts), near))

    def verdict(row: tuple[str, float, bool, float], tn: float, ts: float, tc: float) -> str:
        _, share, conflict, cos = row
        if share < tn and cos < tc:
            return "not_found"
        if conflict:
            return "contradicted"
        return "supported" if share >= ts or cos >= tc else "not_found"

    def acc(half: int | None, *t: float) -> float:
        rs = [r for i, r in enumerate(rows) if half is None or i % 2 == half]
        return sum(verdict(r, *t) == r[0] for r in rs) / len(rs)

    lexical = (MIN_CONTRADICT, MIN_SUPPORT, 9.0)
    print(
        f"lexical judge:       dev {acc(0, *lexical):.1%}  held-out {acc(1, *lexical):.1%}  all {acc(None, *lexical):.1%}"
    )
    grid = [
        t
        for t in itertools.product(
            [0.15, 0.2, 0.25], [0.25, 0.3, 0.35, 0.4], [0.5, 0.55, 0.6, 0.65, 0.7, 0.75]
        )
        if t[1] >= t[0]
    ]
    best_t = max(grid, key=lambda t: acc(0, *t))
    print(
        f"with WordLlama {best_t}: dev {acc(0, *best_t):.1%}  held-out {acc(1, *best_t):.1%}  all {acc(None, *best_t):.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
