"""Name strings: the alias key, legal forms, business and institution words that decide a name's kind."""

from __future__ import annotations

import re

from .lexicons import lexicons

__all__ = [
    "business_name",
    "has_legal_suffix",
    "institution_head",
    "key",
    "org_type",
    "public_bank",
    "strip_name",
]

# "European Central Bank", "Reserve Bank of India", "Asian Development Bank", "Federal Reserve Bank of
# New York", "Monetary Authority of Singapore": a bank or authority of the state, not a business
_PUBLIC_BANK = re.compile(
    r"(?i)\b(?:central|reserve|development)\s+bank\b|\bfederal\s+reserve\b|\bmonetary\s+authority\b"
)
_ABBREVIATED = re.compile(r"\b(?:Corp|Inc|Ltd|Co|Cos|Bros|Jr|Sr|St|Plc|Cia|Pty|Pte)\.$")


def _words(text: str) -> list[str]:
    return re.sub(r"[^\w\s&-]", " ", text.lower()).split()


def strip_name(text: str) -> str:
    """The name as it should be shown: no leading "the", possessive "'s" or edge punctuation."""
    text = re.sub(r"(?i)^the\s+", "", text.strip())
    text = re.sub(r"[’']s$", "", text)
    abbreviated = _ABBREVIATED.search(text) is not None
    text = text.strip(" ,;:-\"'()[]").lstrip("@#")
    return text if abbreviated else text.rstrip(".")


def key(text: str) -> str:
    """Alias key: lower case, no punctuation, no legal form ("Microsoft Corp." -> "microsoft")."""
    words = _words(text)
    forms = lexicons().legal_forms
    while len(words) > 1 and words[-1] in forms:
        words.pop()
    return " ".join(words)


def has_legal_suffix(text: str) -> bool:
    words = _words(text)
    return len(words) > 1 and words[-1] in lexicons().legal_forms


def business_name(text: str) -> bool:
    """ "Mistral AI", "Scale AI", "Boston Dynamics Robotics": a multiword name ending in a business word."""
    words = text.split()
    return len(words) >= 2 and words[-1].lower() in lexicons().business_words and words[0][:1].isupper()


def institution_head(text: str) -> bool:
    """ "Ohio Department of Natural Resources", "Ministry of Energy": an institution word heads the name
    (it stands before "of"), so a business word at its end does not make it a company."""
    words = _words(text)
    if "of" not in words:
        return False
    return bool(set(words[: words.index("of")]) & lexicons().institution_words)


def public_bank(text: str) -> bool:
    """ "European Central Bank", "Bank of Japan", "Asian Development Bank": a central or public bank.

    "Central/Reserve/Development Bank", "Federal Reserve" and "Monetary Authority" say so in the
    name; central banks named like commercial ones ("Bank of England" but not "Bank of China",
    "Swiss National Bank" but not "National Bank of Canada") come from data/central_banks.txt.
    """
    return key(text) in lexicons().central_banks or _PUBLIC_BANK.search(text) is not None


def org_type(text: str) -> tuple[str, bool]:
    """ "company" or "organization" for an ORG name, and whether a list (not a guess) decided it."""
    lex = lexicons()
    k = key(text)
    if lex.known(k, "organization") or public_bank(text) or institution_head(text):
        return "organization", True
    if lex.known(k, "company") or has_legal_suffix(text) or business_name(text):
        return "company", True
    words = set(re.sub(r"[^\w\s]", " ", text.lower()).split())
    if words & lex.institution_words:
        return "organization", True
    return "company", False
