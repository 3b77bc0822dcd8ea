"""source-rate logic: the seed's A-E criteria on the registered domain.

Expected grades come from seed 004's rating criteria (A peer-reviewed/academic/.edu/.gov,
B industry and official company sources, C news, D blogs and personal sites, E the rest) and
the task's rules (preprints are not peer reviewed; look-alikes and bare IPs are E).
"""

from __future__ import annotations

import socket

import pytest
from research_mcp import sources
from research_mcp.sources import rate_source
from research_mcp.urls import UrlError


@pytest.mark.parametrize(
    ("url", "grade", "category"),
    [
        ("https://www.stanford.edu/research", "A", "academic"),
        ("https://www.cs.ox.ac.uk/people", "A", "institution"),
        ("https://www.cam.ac.uk/", "A", "academic"),
        ("https://www.unimelb.edu.au/", "A", "academic"),
        ("https://www.u-tokyo.ac.jp/en/", "A", "institution"),
        ("https://www.bls.gov/cpi/", "A", "government"),
        ("https://www.ons.gov.uk/economy", "A", "government"),
        ("https://www.insee.gouv.fr/fr/statistiques", "A", "government"),
        ("https://www.mhlw.go.jp/", "A", "government"),
        ("https://www.abs.gov.au/", "A", "government"),
        ("https://www.nature.com/articles/s41586-021-03819-2", "A", "publisher"),
        ("https://www.science.org/doi/10.1126/science.abc", "A", "publisher"),
        ("https://link.springer.com/article/10.1007/x", "A", "publisher"),
        ("https://www.sciencedirect.com/science/article/pii/S0", "A", "publisher"),
        ("https://ieeexplore.ieee.org/document/1", "A", "publisher"),
        ("https://dl.acm.org/doi/10.1145/1", "A", "publisher"),
        ("https://journals.plos.org/plosone/article", "A", "publisher"),
        ("https://www.nature.com/news/some-story", "C", "news"),  # journalism, not a journal article
        ("https://blogs.nature.com/x", "C", "news"),
        ("https://arxiv.org/abs/1706.03762", "B", "preprint"),
        ("https://www.biorxiv.org/content/10.1101/x", "B", "preprint"),
        ("https://www.gartner.com/en/newsroom", "B", "industry"),
        ("https://blogs.microsoft.com/blog/2023/01/23/x", "B", "company"),
        ("https://www.reuters.com/technology/x", "C", "news"),
        ("https://www.bbc.co.uk/news/x", "C", "news"),
        ("https://medium.com/@someone/post", "D", "blog"),
        ("https://someone.substack.com/p/post", "D", "blog"),
        ("https://someone.github.io/", "D", "blog"),
        ("https://someone.blogspot.com/2020/01/x.html", "D", "blog"),
        ("https://example.com/", "E", "unknown"),
        ("http://93.184.216.34/report", "E", "ip_address"),
        ("http://[2001:db8::1]/x", "E", "ip_address"),
    ],
)
def test_grades_follow_the_registered_domain(url: str, grade: str, category: str) -> None:
    result = rate_source(url)
    assert (result["quality_rating"], result["category"]) == (grade, category), result["justification"]
    assert result["justification"] and result["credibility_indicators"]


@pytest.mark.parametrize(
    "url",
    [
        "https://stanford.edu.evil.io/paper",  # the task's example: not Stanford
        "https://www.nature.com.papers-review.net/x",
        "https://harvard.edu.example-cdn.com/",
        "https://nautre.com/articles/x",  # one transposition from nature.com
        "https://arxiv-org.com/abs/1706.03762",
        "https://www.reuters.com-news.info/",
        "https://xn--ntur-loa.com/",  # punycode
        "https://stanford-edu.com/",  # an academic marker outside the suffix
        "https://harvard.edu-research.org/",
        "https://nasa-gov.org/",
        "https://arxiv.com/abs/1706.03762",  # a trusted name under another suffix
        "https://paypal.com.secure-login.net/",  # a whole domain worn as a subdomain
    ],
)
def test_look_alike_domains_are_e(url: str) -> None:
    result = rate_source(url)
    assert result["quality_rating"] == "E", f"{url} only imitates a trusted domain: {result['justification']}"


def test_userinfo_does_not_borrow_the_trusted_name() -> None:
    result = rate_source("https://www.nature.com@evil.example/x")
    assert result["quality_rating"] == "E" and result["domain"] == "evil.example"
    assert "userinfo_in_url" in result["credibility_indicators"]


def test_rating_is_case_insensitive_and_accepts_bare_domains() -> None:
    assert rate_source("HTTPS://WWW.NATURE.COM/Articles/X")["quality_rating"] == "A"
    assert rate_source("nature.com")["quality_rating"] == "A"
    assert rate_source("www.Stanford.EDU.")["quality_rating"] == "A"


def test_source_type_informs_but_never_overrides() -> None:
    claimed = rate_source("https://medium.com/@x/y", "academic")
    assert claimed["quality_rating"] == "D", "a blog stays a blog whatever the caller claims"
    assert "source_type_unverified" in claimed["credibility_indicators"]
    agreed = rate_source("https://www.reuters.com/x", "news")
    assert agreed["quality_rating"] == "C" and "source_type_consistent" in agreed["credibility_indicators"]
    assert agreed["confidence"] > rate_source("https://www.reuters.com/x", "academic")["confidence"]


@pytest.mark.parametrize("bad", ["not a url", "ftp://nature.com/x", "http://", "https://exa mple.com"])
def test_malformed_urls_raise(bad: str) -> None:
    with pytest.raises(UrlError):
        rate_source(bad)


def test_suffix_list_is_bundled_and_never_fetched(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("tldextract tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    sources._extractor.cache_clear()
    try:
        assert rate_source("https://www.ox.ac.uk/")["domain"] == "ox.ac.uk"
        assert rate_source("https://foo.gouv.fr/")["quality_rating"] == "A"
    finally:
        sources._extractor.cache_clear()


def test_real_institutional_names_are_never_look_alikes() -> None:
    for url in (
        "https://sciences.edu/",
        "https://www.gov.uk/",
        "https://cs.ox.ac.uk/",
        "https://nature.ac.uk/",
    ):
        assert rate_source(url)["quality_rating"] == "A", f"{url} is under an academic or government suffix"
