"""A trained verdict model measured against the judge's rules (README "Decisions": not adopted).

A multinomial logistic regression over ``research_mcp.claims.claim_features``, trained by
``data/claims/train_verdict.py`` on ``data/claims/train.jsonl`` (claims of the same training splits
that the evaluation cases do not hold) and stored as ``data/claims/verdict_model.json``. It would ship
as a few weights read with the standard library; it stays here because it scored below the rules.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["VerdictModel", "verdict_model"]

MODEL_FILE = Path(__file__).parent / "data" / "claims" / "verdict_model.json"


@dataclass(frozen=True)
class VerdictModel:
    """Per-class weights over named features, with the features' mean and scale from training."""

    classes: tuple[str, ...]
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]  # one row per class: a bias, then one weight per feature

    def predict(self, values: dict[str, float]) -> dict[str, float]:
        """The probability of each verdict for one passage's features."""
        x = [
            (values.get(f, 0.0) - m) / s for f, m, s in zip(self.features, self.mean, self.scale, strict=True)
        ]
        logits = [w[0] + sum(wi * xi for wi, xi in zip(w[1:], x, strict=True)) for w in self.weights]
        top = max(logits)
        exp = [math.exp(v - top) for v in logits]
        total = sum(exp)
        return {c: e / total for c, e in zip(self.classes, exp, strict=True)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> VerdictModel:
        def floats(v: object) -> tuple[float, ...]:
            assert isinstance(v, list)
            return tuple(float(x) for x in v)

        weights = data["weights"]
        assert isinstance(weights, list)
        classes, features = data["classes"], data["features"]
        assert isinstance(classes, list) and isinstance(features, list)
        return cls(
            classes=tuple(str(c) for c in classes),
            features=tuple(str(f) for f in features),
            mean=floats(data["mean"]),
            scale=floats(data["scale"]),
            weights=tuple(floats(row) for row in weights),
        )


@lru_cache(maxsize=1)
def verdict_model() -> VerdictModel | None:
    """The trained model, read once; None before train_verdict.py has written it."""
    if not MODEL_FILE.exists():
        return None
    return VerdictModel.from_json(json.loads(MODEL_FILE.read_text(encoding="utf-8")))
