"""The verdict model: a multinomial logistic regression over the judge's features, shipped as JSON.

Trained by ``tests/eval/data/claims/train_verdict.py`` on ``train.jsonl`` (SciFact train, COVID-Fact
train and HealthVer dev claims that the evaluation cases do not hold; provenance in
``data/claims_verdict.md``). A handful of weights: it loads in microseconds and needs nothing but
the standard library. Without the file, the judge falls back to its rules.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["VerdictModel", "verdict_model"]

MODEL_FILE = "claims_verdict.json"


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
        x = [(values.get(f, 0.0) - m) / s for f, m, s in zip(self.features, self.mean, self.scale, strict=True)]
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
    """The shipped model, read once; None when the package ships none."""
    try:
        raw = resources.files("research_mcp").joinpath("data", MODEL_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return None
    return VerdictModel.from_json(json.loads(raw))
