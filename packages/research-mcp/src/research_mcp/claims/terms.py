"""The claim's terms as strings on the page: the check citation-validate ran before the verdict.

Kept because callers read its fields (``numbers_found``/``missing``, ``entities_found``/``missing``)
and because the claims evaluation scores it as today's baseline (tests/eval/eval_claims.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = ["check_accuracy", "claim_terms"]

NUMBER_RE = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\w.])\d+(?:\.\d+)?")
NAME_RE = re.compile(r"\b[A-Z][\w&.-]*[A-Za-z0-9](?:\s+(?:of\s+|of\s+the\s+)?[A-Z][\w&.-]*[A-Za-z0-9])*")
NAME_STOP = {
    "The",
    "A",
    "An",
    "In",
    "On",
    "At",
    "By",
    "For",
    "This",
    "That",
    "These",
    "Those",
    "It",
    "Its",
    "According",
}


def _number_variants(number: str) -> set[str]:
    plain = number.replace(",", "")
    out = {number, plain}
    if "." not in plain and len(plain) > 3:
        out.add(f"{int(plain):,}")
    return out


def claim_terms(claim: str) -> tuple[list[str], list[str]]:
    """The numbers and capitalised names of a claim, the parts a source must contain."""
    numbers = list(dict.fromkeys(m.group(0) for m in NUMBER_RE.finditer(claim)))
    names: list[str] = []
    for m in NAME_RE.finditer(claim):
        name = m.group(0).strip(".")
        words = name.split()
        while words and words[0] in NAME_STOP:
            words = words[1:]
        if not words:
            continue
        name = " ".join(words)
        if (
            m.start() == 0
            and len(words) == 1
            and words[0].lower() == words[0].lower()
            and not any(c.isupper() for c in words[0][1:])
        ):
            continue  # a capitalised first word is not a name by itself
        if name not in names:
            names.append(name)
    return numbers, names


def check_accuracy(claim: str, page: str, entities: Sequence[str] | None = None) -> dict[str, Any]:
    """Which of the claim's numbers and names occur in the page (case-insensitive for names).

    ``entities`` are the claim's named entities from the NER when the caller has them; else the
    claim's capitalised names stand in.
    """
    numbers, names = claim_terms(claim)
    if entities:
        names = list(dict.fromkeys(entities))
    page_lower = page.lower()
    page_numbers = {m.group(0) for m in NUMBER_RE.finditer(page)}
    page_numbers |= {n.replace(",", "") for n in page_numbers}
    found_n = [n for n in numbers if _number_variants(n) & page_numbers]
    found_e = [e for e in names if e.lower() in page_lower]
    missing_n = [n for n in numbers if n not in found_n]
    missing_e = [e for e in names if e not in found_e]
    checkable = bool(numbers or names)
    return {
        "checked": True,
        "supported": (not missing_n and not missing_e) if checkable else None,
        "numbers_found": found_n,
        "numbers_missing": missing_n,
        "entities_found": found_e,
        "entities_missing": missing_e,
    }
