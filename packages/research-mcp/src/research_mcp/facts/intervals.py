"""Statistical intervals: "mortality was 12.3% (95% CI 10.1-14.5)".

The 95% is the interval's level: it says how the interval was computed, so it is a fact about the
interval, never a change in what was measured ("mortality grew 95%"). The interval belongs to the
estimate it follows: (Mortality, 95% CI, 10.1-14.5) and (Mortality, CI level, 95%).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["attach_intervals"]

_INTERVAL_NAME = (
    r"(?:CIs?|C\.I\.|CrIs?|UIs?|PIs?|HDIs?|"
    r"(?:confidence|credible|credibility|uncertainty|prediction|highest\s+density)\s+(?:intervals?|limits?|bounds?))"
)
_AFTER_LEVEL_RE = re.compile(rf"\s*(?P<name>{_INTERVAL_NAME})(?![A-Za-z])")
_LEVEL_BEFORE_RE = re.compile(
    rf"(?P<level>\d{{2}}(?:\.\d+)?\s*%)\s*(?P<name>{_INTERVAL_NAME})(?![A-Za-z])[\s:,=]*(?:of\s+|from\s+)?$"
)


def attach_intervals(facts: list[dict[str, Any]], text: str) -> None:
    """Name an interval's level and its bounds after the estimate before them in their sentence."""
    for i, fact in enumerate(facts):
        start, end = fact["value_span"]
        level = _AFTER_LEVEL_RE.match(text, end) if fact["value_kind"] in ("percentage", "growth") else None
        interval = None if level else _LEVEL_BEFORE_RE.search(text, max(0, start - 40), start)
        if level is None and interval is None:
            continue
        if level is not None:  # "95% CI": the level of the interval
            fact["attribute"] = f"{_name(level.group('name'))} level"
            fact["value_kind"], fact["direction"] = "percentage", None
            before = start
        else:  # "95% CI 10.1-14.5": the interval itself
            assert interval is not None
            fact["attribute"] = f"{''.join(interval.group('level').split())} {_name(interval.group('name'))}"
            before = interval.start()
        estimate = next(
            (
                f
                for f in reversed(facts[:i])
                if f["value_span"][1] <= before
                and f["sentence_span"] == fact["sentence_span"]
                and not _AFTER_LEVEL_RE.match(text, f["value_span"][1])
            ),
            None,
        )
        if estimate is not None:  # as sure of its owner as the estimate is
            fact["entity"] = estimate["entity"]
            fact["period"] = fact["period"] or estimate["period"]
            fact["confidence"] = estimate["confidence"]
            fact["confidence_features"]["entity_anchor"] = estimate["confidence_features"]["entity_anchor"]


def _name(written: str) -> str:
    return " ".join(written.split())
