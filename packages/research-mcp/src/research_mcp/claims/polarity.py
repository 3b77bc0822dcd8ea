"""Which way a sentence points: its negations and the direction of the change it states.

"Revenue fell 12%" and "revenue rose 12%" share every content word; what tells them apart is the
direction word. "does not increase", "failed to reduce" and "no significant effect" turn a statement
around. ``polarity`` reads both: +1 for a statement of increase (or an affirmed effect), -1 for
decrease (or a denied effect), 0 when the sentence says neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .passages import stem

__all__ = ["Polarity", "polarity"]

UP = frozenset(
    stem(w)
    for w in [
        "increase",
        "increases",
        "increased",
        "increasing",
        "rise",
        "rises",
        "rose",
        "risen",
        "rising",
        "grow",
        "grows",
        "grew",
        "grown",
        "growing",
        "higher",
        "high",
        "highest",
        "more",
        "greater",
        "greatest",
        "larger",
        "gain",
        "gains",
        "gained",
        "enhance",
        "enhances",
        "enhanced",
        "improve",
        "improves",
        "improved",
        "improvement",
        "boost",
        "boosts",
        "boosted",
        "elevate",
        "elevated",
        "elevation",
        "upregulate",
        "upregulated",
        "upregulation",
        "up",
        "surge",
        "surged",
        "surges",
        "climb",
        "climbed",
        "climbs",
        "jump",
        "jumped",
        "doubled",
        "tripled",
        "accelerate",
        "accelerated",
        "accelerates",
        "promote",
        "promotes",
        "promoted",
        "induce",
        "induces",
        "induced",
        "activate",
        "activates",
        "activated",
        "activation",
        "stimulate",
        "stimulates",
        "stimulated",
        "exacerbate",
        "exacerbates",
        "worsen",
        "worsens",
        "worsened",
        "expand",
        "expanded",
        "expands",
        "augment",
        "augmented",
        "strengthen",
        "strengthens",
        "amplify",
        "amplifies",
        "faster",
        "better",
        "above",
        "exceed",
        "exceeds",
        "exceeded",
        "excess",
        "overexpression",
        "overexpressed",
    ]
)
DOWN = frozenset(
    stem(w)
    for w in [
        "decrease",
        "decreases",
        "decreased",
        "decreasing",
        "fall",
        "falls",
        "fell",
        "fallen",
        "falling",
        "decline",
        "declines",
        "declined",
        "declining",
        "drop",
        "drops",
        "dropped",
        "lower",
        "lowers",
        "lowered",
        "lowest",
        "less",
        "least",
        "fewer",
        "smaller",
        "reduce",
        "reduces",
        "reduced",
        "reducing",
        "reduction",
        "loss",
        "lose",
        "loses",
        "lost",
        "diminish",
        "diminishes",
        "diminished",
        "downregulate",
        "downregulated",
        "downregulation",
        "down",
        "shrink",
        "shrank",
        "shrinks",
        "plunge",
        "plunged",
        "slump",
        "slumped",
        "inhibit",
        "inhibits",
        "inhibited",
        "inhibition",
        "suppress",
        "suppresses",
        "suppressed",
        "suppression",
        "impair",
        "impairs",
        "impaired",
        "attenuate",
        "attenuates",
        "attenuated",
        "block",
        "blocks",
        "blocked",
        "prevent",
        "prevents",
        "prevented",
        "weaken",
        "weakens",
        "weakened",
        "slower",
        "worse",
        "below",
        "deficiency",
        "deficient",
        "halved",
        "cut",
        "cuts",
        "slowed",
        "slows",
        "curb",
        "curbs",
    ]
)
NEGATION_RE = re.compile(
    r"(?i)\b(?:not|no|never|neither|nor|none|cannot|without|lack(?:s|ed|ing)?|absence of|"
    r"fail(?:s|ed)? to|unable to|did ?n['’]?t|does ?n['’]?t|do ?n['’]?t|is ?n['’]?t|are ?n['’]?t|"
    r"was ?n['’]?t|were ?n['’]?t|wo ?n['’]?t|has ?n['’]?t|have ?n['’]?t|unlikely|unrelated|"
    r"independent of|irrespective of|regardless of|no longer|rather than|insufficient|false|myth)\b|n['’]t\b"
)
NULL_EFFECT_RE = re.compile(
    r"(?i)\b(?:no (?:significant |statistically significant |clear |measurable |apparent )?"
    r"(?:effect|difference|change|association|correlation|relationship|benefit|impact|increase|decrease|"
    r"reduction|improvement|link|evidence)|not (?:significantly |statistically )?(?:associated|correlated|"
    r"related|linked|different|effective|affect\w*|change\w*)|did not (?:differ|change|affect)|similar|"
    r"comparable|unchanged|unaffected|not significant\w*|non-?significant|neither)\b"
)
WORD_RE = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Polarity:
    """A statement's direction (+1 up, -1 down, 0 none), its negation count, and a null-effect reading."""

    direction: int
    negations: int
    null_effect: bool

    @property
    def sign(self) -> int:
        """The direction once negations are applied: "did not increase" points down (-1)."""
        if self.direction == 0:
            return 0
        return self.direction if self.negations % 2 == 0 else -self.direction


def polarity(text: str, focus: frozenset[str] | None = None) -> Polarity:
    """Read ``text``'s direction words (only those near ``focus`` stems, when given) and negations."""
    words = [stem(w) for w in WORD_RE.findall(text)]
    near: set[int] = set(range(len(words)))
    if focus:
        anchors = [i for i, w in enumerate(words) if w in focus]
        if anchors:
            near = {j for i in anchors for j in range(i - 6, i + 7)}
    up = sum(1 for i, w in enumerate(words) if w in UP and i in near)
    down = sum(1 for i, w in enumerate(words) if w in DOWN and i in near)
    direction = (up > down) - (down > up)
    negations = len(NEGATION_RE.findall(text))
    return Polarity(direction, negations, bool(NULL_EFFECT_RE.search(text)))
