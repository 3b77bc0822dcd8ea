"""Which way a sentence points: its negations and the direction of the change it states.

"Revenue fell 12%" and "revenue rose 12%" share every content word; what tells them apart is the
direction word. "does not increase", "failed to reduce" and "no significant effect" turn a statement
around. ``polarity`` reads both: +1 for a statement of increase (or an affirmed effect), -1 for
decrease (or a denied effect), 0 when the sentence says neither.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources

from .passages import stem

__all__ = ["DOWN", "UP", "Polarity", "polarity"]


def _words(key: str) -> frozenset[str]:
    """The stems of one direction's words (data/claim_directions.json)."""
    raw = (
        resources.files("research_mcp").joinpath("data", "claim_directions.json").read_text(encoding="utf-8")
    )
    words: list[str] = json.loads(raw)[key]
    return frozenset(stem(w) for w in words)


UP = _words("up")
DOWN = _words("down")
NEGATION_RE = re.compile(
    r"(?i)\b(?:not|no|never|neither|nor|none|cannot|without|lack(?:s|ed|ing)?|absence of|"
    r"fail(?:s|ed)? to|unable to|did ?n['’]?t|does ?n['’]?t|do ?n['’]?t|is ?n['’]?t|are ?n['’]?t|"
    r"was ?n['’]?t|were ?n['’]?t|wo ?n['’]?t|has ?n['’]?t|have ?n['’]?t|unlikely|unrelated|"
    r"independent of|irrespective of|regardless of|no longer|rather than|insufficient|false|myth)\b|n['’]t\b"
)
NULL_EFFECT_RE = re.compile(
    r"(?i)\b(?:(?:no|little|minimal|negligible|limited) (?:or no )?(?:significant |statistically significant |clear |measurable |apparent )?"
    r"(?:effect|difference|change|association|correlation|relationship|benefit|impact|increase|decrease|"
    r"reduction|improvement|link|evidence)|not (?:significantly |statistically )?(?:associated|correlated|"
    r"related|linked|different|effective|affect\w*|change\w*)|did not (?:differ|change|affect)|similar|"
    r"comparable|unchanged|unaffected|(?:remained |was |were )?stable|not significant\w*|non-?significant|neither)\b"
)
WORD_RE = re.compile(r"[^\W\d_]+")


NEGATION_WORDS = frozenset(
    [
        "not",
        "no",
        "never",
        "neither",
        "nor",
        "none",
        "cannot",
        "without",
        "lack",
        "lacks",
        "lacked",
        "lacking",
        "fail",
        "fails",
        "failed",
        "unable",
        "didn't",
        "doesn't",
        "don't",
        "isn't",
        "aren't",
        "wasn't",
        "weren't",
        "won't",
        "hasn't",
        "haven't",
        "didnt",
        "doesnt",
        "dont",
        "isnt",
        "arent",
    ]
)
WINDOW = 5  # words between a direction word and the thing it is said of


@dataclass(frozen=True, slots=True)
class Polarity:
    """A statement's direction (+1 up, -1 down, 0 none), its negation count, a null-effect reading, and
    the direction said of each anchor word (``{stem: +1|-1}``, negations applied)."""

    direction: int
    negations: int
    null_effect: bool
    anchored: dict[str, int]

    @property
    def sign(self) -> int:
        """The overall direction, each direction word's own negation applied ("did not increase": -1)."""
        return self.direction

    def opposes(self, other: Polarity) -> bool:
        """Whether the two say opposite directions of the things they share (more anchors against than for)."""
        common = [(d, other.anchored[a]) for a, d in self.anchored.items() if a in other.anchored]
        return sum(a != b for a, b in common) > sum(a == b for a, b in common)


def polarity(text: str, focus: frozenset[str] | None = None) -> Polarity:
    """Read ``text``'s direction words, each said of the ``focus`` stems near it, and its negations.

    A negation counts for a direction word when it stands within the four words before it ("did not
    increase", "failed to reduce"), so "memory, but not naive, T cells enhance" still points up.
    """
    raw = WORD_RE.findall(text.replace("n't", " not"))
    words = [stem(w) for w in raw]
    lows = [w.lower() for w in raw]
    nearest: dict[str, tuple[float, int]] = {}
    up = down = 0
    for i, w in enumerate(words):
        d = 1 if w in UP else -1 if w in DOWN else 0
        if not d:
            continue
        if any(x in NEGATION_WORDS for x in lows[max(0, i - 4) : i]):
            d = -d
        up, down = up + (d > 0), down + (d < 0)
        for j in range(max(0, i - WINDOW), min(len(words), i + WINDOW + 1)):
            if j != i and focus and words[j] in focus:
                dist = abs(j - i) + (0.5 if j < i else 0.0)  # the thing after the word, on a tie
                if words[j] not in nearest or dist < nearest[words[j]][0]:
                    nearest[words[j]] = (dist, d)
    anchored = {a: d for a, (_, d) in nearest.items()}
    direction = (up > down) - (down > up)
    negations = len(NEGATION_RE.findall(text))
    return Polarity(direction, negations, bool(NULL_EFFECT_RE.search(text)), anchored)
