"""``citations[i].accuracy`` and its warning issues: the verdict in citation-validate's shapes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import judge_claim
from .source import SourceText
from .terms import check_accuracy

__all__ = ["accuracy", "accuracy_issues", "unverifiable"]


def _issue(index: int, field: str, issue: str, severity: str, detail: str) -> dict[str, Any]:
    """One issue in seed 004's shape."""
    return {"citation_index": index, "field": field, "issue": issue, "severity": severity, "detail": detail}


def unverifiable(reason: str) -> dict[str, Any]:
    """The accuracy of a claim whose source could not be read: no verdict on the claim itself."""
    return {
        "checked": False,
        "verdict": "unverifiable",
        "supported": False,
        "reason": reason,
        "evidence": [],
        "numbers": [],
    }


def accuracy(
    claim: str, source: SourceText, entities: Sequence[str] | None = None, *, truncated: bool = False
) -> dict[str, Any]:
    """``citations[i].accuracy``: the verdict on the claim with its evidence, and the terms found (as before)."""
    terms = check_accuracy(claim, source.text, entities)
    judged = judge_claim(claim, source.text)
    return {
        **{k: v for k, v in terms.items() if k != "supported"},
        **judged,
        "source_kind": source.kind,
        "page_truncated": truncated,
    }


def accuracy_issues(index: int, result: dict[str, Any]) -> list[dict[str, Any]]:
    """A contradicted or not-found claim is a warning, with the passage to look at."""
    verdict = result.get("verdict")
    if verdict not in ("contradicted", "not_found"):
        return []
    evidence = result.get("evidence") or []
    where = (
        f" (nearest passage at {evidence[0]['start']}-{evidence[0]['end']}: {evidence[0]['text'][:160]!r})"
        if evidence
        else ""
    )
    if verdict == "contradicted":
        return [
            _issue(
                index,
                "claim",
                "contradicted_by_source",
                "warning",
                f"the source contradicts the claim: {result['reason']}{where}",
            )
        ]
    return [
        _issue(
            index,
            "claim",
            "not_found_in_source",
            "warning",
            f"the source does not state the claim: {result['reason']}{where}",
        )
    ]
