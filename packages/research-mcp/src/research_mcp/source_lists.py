"""source-rate's domain lists: the data files shipped in ``research_mcp/data/sources``, read once on first use.

Each file names its source and licence in its header, and ``data/sources/README.md`` says how it was
built. Maintained public data gives the long lists (newspapers from Wikidata, broadcasters from the
iptv-org channel database, outlets of Kagi News' community feed lists, press and user-content sites
from the UT1 blacklists, personal blogs from Kagi Small Web, universities from Hipo's list); ``curated.tsv`` keeps the hand-typed names where no maintained open list exists
(publishers, institutions, preprint servers, analysts, companies, a core of outlets and platforms).
Nothing is fetched: the files ship in the package.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

__all__ = ["CURATED_CATEGORIES", "Listing", "listing_of", "listings", "well_known"]

# (file, category, who maintains it), lowest precedence first: a later file overrides an earlier one,
# so a site both a forum and a newspaper "site" in two lists is user content, a personal blog in a
# country's feed list is a personal site, a university's domain in a press list stays a university,
# and the curated names override every maintained list.
LIST_FILES = (
    ("news_ut1.txt", "news", "the UT1 press and radio list"),
    ("news_iptv_org.txt", "news", "the iptv-org channel database (general, news or public channels)"),
    ("news_kite.txt", "news", "Kagi News' country feed lists and media data"),
    ("news_wikidata.txt", "news", "Wikidata's newspapers"),
    ("personal_smallweb.txt", "personal_host", "Kagi Small Web's personal blogs"),
    ("user_content_ut1.txt", "user_generated", "the UT1 social network, forum, blog and file sharing list"),
    ("universities_hipo.txt", "university", "Hipo's university domains list"),
)
CURATED_FILE = "curated.tsv"
CURATED_CATEGORIES = frozenset(
    {
        "publisher",
        "institution",
        "preprint",
        "industry",
        "company",
        "news",
        "blog",
        "user_generated",
        "personal_host",
    }
)


@dataclass(frozen=True)
class Listing:
    """Why a name is known: its category and the list that says so."""

    category: str
    source: str

    @property
    def curated(self) -> bool:
        return self.source == "curated"


def _read(name: str) -> list[str]:
    from importlib import resources  # imported on first use: ~7 ms the server's start-up need not pay

    text = resources.files("research_mcp").joinpath("data", "sources", name).read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")]


@functools.cache
def listings() -> dict[str, Listing]:
    """Every listed name (a registered domain or a host) -> its listing."""
    out: dict[str, Listing] = {}
    for file, category, source in LIST_FILES:
        out.update(dict.fromkeys(_read(file), Listing(category, source)))
    for line in _read(CURATED_FILE):
        name, category = line.split("\t")
        if category not in CURATED_CATEGORIES:
            raise ValueError(f"{CURATED_FILE}: unknown category {category!r} for {name}")
        out[name] = Listing(category, "curated")
    return out


def listing_of(name: str) -> Listing | None:
    return listings().get(name)


@functools.cache
def well_known() -> frozenset[str]:
    """The curated names: the targets that near-miss spellings (``nautre.com``) imitate."""
    return frozenset(name for name, listing in listings().items() if listing.curated)
