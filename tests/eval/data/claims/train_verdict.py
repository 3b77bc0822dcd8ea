"""Train the verdict model compared in eval_claims.py (``verdict_model.json`` here), from ``train.jsonl``.

``uv run --frozen python tests/eval/data/claims/train_verdict.py`` reads each training case through the
judge (research_mcp.claims: its best passage and that passage's features), fits a multinomial
logistic regression with numpy (L2, full-batch gradient descent, classes weighted to balance) and
writes the weights. The evaluation cases (cases.jsonl) are never read here.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from research_mcp.claims import claim_features

HERE = Path(__file__).parent
OUT = HERE / "verdict_model.json"
CLASSES = ("supported", "contradicted", "not_found")
L2 = 0.01
STEPS = 3000
RATE = 0.5


def main() -> int:
    cases = [json.loads(line) for line in (HERE / "train.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = [claim_features(c["claim"], c["source"]) for c in cases]
    names = sorted(rows[0])
    x = np.array([[r[n] for n in names] for r in rows], dtype=float)
    y = np.array([CLASSES.index(c["label"]) for c in cases])
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0
    xs = np.hstack([np.ones((len(x), 1)), (x - mean) / scale])
    counts = Counter(y.tolist())
    sample_w = np.array([len(y) / (len(CLASSES) * counts[k]) for k in y])
    onehot = np.eye(len(CLASSES))[y]
    w = np.zeros((len(CLASSES), xs.shape[1]))
    for _ in range(STEPS):
        logits = xs @ w.T
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad = ((p - onehot) * sample_w[:, None]).T @ xs / len(xs)
        reg = L2 * w
        reg[:, 0] = 0.0
        w -= RATE * (grad + reg)
    pred = (xs @ w.T).argmax(axis=1)
    print(f"{len(cases)} training cases {dict(Counter(c['label'] for c in cases))}")
    print(f"training accuracy {np.mean(pred == y):.1%}")
    OUT.write_text(
        json.dumps(
            {
                "about": "trained by tests/eval/data/claims/train_verdict.py on train.jsonl (PROVENANCE.md)",
                "classes": list(CLASSES),
                "features": names,
                "mean": [round(float(v), 6) for v in mean],
                "scale": [round(float(v), 6) for v in scale],
                "weights": [[round(float(v), 6) for v in row] for row in w],
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
