"""source-rate on a slice of the third-party-labelled evaluation set, with floors below the measured figures.

The whole set (1,061 real URLs; labels from Citizen Lab, MBFC, Wikipedia's perennial sources, UT1, a
webometrics university list and awesome-uses' personal sites, mapped to A-E by the rules in
tests/eval/data/sources_cases.md) runs in
``make eval ONLY=sources``; this keeps every fourth case so a regression fails the suite.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from research_mcp.sources import rate_source

CASES = Path(__file__).resolve().parents[3] / "tests" / "eval" / "data" / "sources_cases.tsv"


def _slice() -> list[tuple[str, str, str]]:
    with CASES.open(encoding="utf-8") as f:
        rows = [(r["url"], r["grade"], r["labelled_by"]) for r in csv.DictReader(f, delimiter="\t")]
    return rows[::4]


def _recall(pairs: list[tuple[str, str]], grade: str) -> float:
    support = [p for e, p in pairs if e == grade]
    return sum(p == grade for p in support) / len(support)


def test_slice_of_third_party_labels_keeps_its_floors() -> None:
    cases = _slice()
    pairs = [(grade, rate_source(url)["quality_rating"]) for url, grade, _ in cases]
    accuracy = sum(e == p for e, p in pairs) / len(pairs)
    # measured on this slice (266 cases) when written: accuracy 0.60, recall A 0.85, C 0.45, D 0.34, E 0.91
    # (first lists: accuracy 0.50, C 0.28, D 0.16; no lists: accuracy 0.39 on the whole set, C 0.11, D 0.09)
    assert accuracy >= 0.55, accuracy
    assert _recall(pairs, "A") >= 0.75
    assert _recall(pairs, "C") >= 0.38, "established outlets from the shipped lists are C"
    assert _recall(pairs, "D") >= 0.27, "user-generated platforms and personal sites are D, not E"
    assert _recall(pairs, "E") >= 0.85


@pytest.mark.parametrize(
    "url",
    # UT1 blacklists, category fakenews (github.com/olbat/ut1-blacklists @ 804da92), Doppelganger domains
    [
        "https://spiegel.ltd/",
        "https://washingtonpost.pm/",
        "https://lemonde.ltd/",
        "https://reuters.cfd/",
        "https://lefigaro.me/",
    ],
)
def test_real_look_alikes_of_outlets_are_flagged(url: str) -> None:
    result = rate_source(url)
    assert (result["quality_rating"], result["category"]) == ("E", "lookalike"), result["justification"]


@pytest.mark.parametrize(
    ("url", "grade"),
    [
        # real outlets one edit from, or sharing the name of, a well-known one (Wikidata / iptv-org / UT1 lists)
        ("https://www.aljazeera.net/", "C"),  # vs aljazeera.com
        ("https://www.france24.fr/", "C"),  # vs france24.com
        ("https://www.asahi.co.jp/", "C"),  # vs asahi.com
        ("https://www.elpais.com.uy/", "C"),  # vs elpais.com
        ("https://www.zdnet.co.kr/", "C"),  # vs zdnet.com
        ("https://nation.africa/", "C"),  # one edit from notion.site
        ("https://www.nctimes.com/", "C"),  # one edit from nytimes.com
        ("https://www.uni-heidelberg.de/", "A"),  # Hipo's university list
        ("https://www.ethz.ch/", "A"),
    ],
)
def test_listed_real_sites_are_never_look_alikes(url: str, grade: str) -> None:
    result = rate_source(url)
    assert result["quality_rating"] == grade, result["justification"]
    assert "lookalike_domain" not in result["credibility_indicators"]


@pytest.mark.parametrize(
    ("url", "category"),
    [
        ("https://www.reuters.com/world/", "news"),  # wire service
        ("https://www.ansa.it/", "news"),  # wire service (UT1 press)
        ("https://www.nhk.or.jp/", "news"),  # public broadcaster (iptv-org)
        ("https://www.rtve.es/noticias/", "news"),  # public broadcaster (iptv-org)
        ("https://www.hindustantimes.com/", "news"),  # national paper (Wikidata)
        ("https://www.imdb.com/title/tt0111161/", "blog"),  # film database
        ("https://www.goodreads.com/book/show/1", "blog"),  # book database
        ("https://www.flickr.com/photos/x/1", "blog"),  # photo sharing
        ("https://en.wikipedia.org/wiki/Reuters", "blog"),  # wiki
        ("https://someone.herokuapp.com/", "blog"),  # PSL private section: a user's site on a shared host
        ("https://www.academia.edu/123/paper", "blog"),  # user uploads under .edu: not a university
        # public broadcasters and national papers of Kagi News' country feed lists (kite-public, MIT)
        ("https://yle.fi/a/74-20000000", "news"),
        ("https://nos.nl/artikel/1", "news"),
        ("https://www.svt.se/nyheter/", "news"),
        ("https://www.tagesschau.de/inland/", "news"),
        ("https://www.theglobeandmail.com/canada/", "news"),
        ("https://www.clarin.com/politica/", "news"),
        ("https://www.yna.co.kr/", "news"),  # news agency
        ("https://www.kxan.com/news/", "news"),  # a general TV channel's station (iptv-org, Kagi News)
        ("https://macwright.com/", "blog"),  # a personal blog (Kagi Small Web)
        ("https://www.casimages.com/i/x.jpg", "blog"),  # image sharing (UT1 filehosting)
    ],
)
def test_outlets_and_user_generated_platforms(url: str, category: str) -> None:
    result = rate_source(url)
    assert result["category"] == category, result["justification"]
    assert result["quality_rating"] == {"news": "C", "blog": "D"}[category]


def test_a_personal_blog_listed_by_host_leaves_its_parent_domain_unknown() -> None:
    # Kagi Small Web lists alex.smola.org (a person's blog), not smola.org
    assert rate_source("https://alex.smola.org/blog/")["quality_rating"] == "D"
    assert rate_source("https://smola.org/")["category"] == "unknown"
