"""Place names: is a name a country, region or city? (A gazetteer, loaded once on first use.)"""

from __future__ import annotations

import functools
import re

from .lexicons import read_lines

__all__ = ["is_place", "place_key"]


def place_key(text: str) -> str:
    """Lower case, punctuation dropped: "U.S." and "US" are both "us"."""
    return " ".join(re.sub(r"[^\w\s]", "", text.lower()).split())


@functools.cache
def _places() -> frozenset[str]:
    return frozenset(place_key(line) for line in read_lines("places_extra.txt"))


def is_place(text: str) -> bool:
    return place_key(re.sub(r"(?i)^the\s+", "", text)) in _places()
