"""Statistical intervals: "mortality was 12.3% (95% CI 10.1-14.5)".

The 95% is the interval's level: it says how the interval was computed, so it is a fact about the
interval, never a change in what was measured ("mortality grew 95%"). The interval belongs to the
estimate it follows: (Mortality, 95% CI, 10.1-14.5) and (Mortality, CI level, 95%).
"""

from __future__ import annotations

import re
from dataclasses import replace

from .fact import Fact

__all__ = ["attach_intervals"]

_INTERVAL_NAME = (
    r"(?:CIs?|C\.I\.|CrIs?|UIs?|PIs?|HDIs?|"
    r"(?:confidence|credible|credibility|uncertainty|prediction|highest\s+density)\s+(?:intervals?|limits?|bounds?))"
)
_AFTER_LEVEL_RE = re.compile(rf"\s*(?P<name>{_INTERVAL_NAME})(?![A-Za-z])")
_LEVEL_BEFORE_RE = re.compile(
    rf"(?P<level>\d{{2}}(?:\.\d+)?\s*%)\s*(?P<name>{_INTERVAL_NAME})(?![A-Za-z])[\s:,=]*(?:of\s+|from\s+)?$"
)


def attach_intervals(facts: list[Fact], text: str) -> list[Fact]:
    """Name an interval's level and its bounds after the estimate before them in their sentence."""
    named = list(facts)
    for index, fact in enumerate(facts):
        start, end = fact.value_span
        level = _AFTER_LEVEL_RE.match(text, end) if fact.value_kind in ("percentage", "growth") else None
        interval = None if level else _LEVEL_BEFORE_RE.search(text, max(0, start - 40), start)
        if level is None and interval is None:
            continue
        if level is not None:  # "95% CI": the level of the interval
            attribute = f"{_name(level.group('name'))} level"
            interval_fact = replace(fact, attribute=attribute, value_kind="percentage", direction=None)
            before = start
        else:  # "95% CI 10.1-14.5": the interval itself
            assert interval is not None
            attribute = f"{''.join(interval.group('level').split())} {_name(interval.group('name'))}"
            interval_fact = replace(fact, attribute=attribute)
            before = interval.start()
        estimate = next(
            (
                earlier
                for earlier in reversed(named[:index])
                if earlier.value_span[1] <= before
                and earlier.sentence_span == fact.sentence_span
                and not _AFTER_LEVEL_RE.match(text, earlier.value_span[1])
            ),
            None,
        )
        if estimate is not None:  # as sure of its owner as the estimate is
            interval_fact = replace(
                interval_fact,
                entity=estimate.entity,
                period=interval_fact.period or estimate.period,
                confidence=estimate.confidence,
                anchor=estimate.anchor,
            )
        named[index] = interval_fact
    return named


def _name(written: str) -> str:
    return " ".join(written.split())
