"""DOI reading, record parsing and title/author/year comparison, on real Crossref records and real titles.

The records are the shared fixtures (``shared/fixtures/crossref``); expected values were read from them.
Title pairs are from ``tests/eval/data/doi_titles.jsonl`` (references as citing publishers deposited them).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp_shared import SettingsError
from research_mcp.crossref import parse_work
from research_mcp.doi_match import (
    TITLE_MATCH_THRESHOLD,
    author_matches,
    normalise_doi,
    title_score,
    year_of,
    years_match,
)
from research_mcp.settings import Settings
from support.required import missing

FIXTURES = Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "crossref"


def record(name: str) -> dict[str, Any]:
    path = FIXTURES / name
    if not path.is_file():
        missing(f"{path} not found: put shared/ beside the repository")
    message: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))["message"]
    return message


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("10.1371/journal.pone.0033693", "10.1371/journal.pone.0033693"),
        (" doi:10.1371/journal.pone.0033693 ", "10.1371/journal.pone.0033693"),
        ("DOI: 10.1016/S0140-6736(97)11096-0", "10.1016/S0140-6736(97)11096-0"),
        ("https://doi.org/10.1016/S0140-6736(97)11096-0", "10.1016/S0140-6736(97)11096-0"),
        ("http://dx.doi.org/10.1000%2F182", "10.1000/182"),
        ("https://example.org/10.1000/182", None),
        ("10.1000", None),
        ("11.1234/abc", None),
        ("10.1000/a b", None),
        ("10.1000/a\x00b", None),
    ],
)
def test_normalise_doi_reads_every_form_and_rejects_the_rest(raw: str, expected: str | None) -> None:
    assert normalise_doi(raw) == expected


def test_the_retracted_lancet_work_parses_with_both_notices() -> None:
    work = parse_work(record("uws_crossref_work_wakefield1998.json"))
    assert work["title_marked_retracted"] is True
    assert work["published"] == "1998-02" and work["years"] == [1998]
    assert work["authors"][:3] == ["Wakefield", "Murch", "Anthony"]
    assert [(n["type"], n["doi"], n["date"]) for n in work["notices"]] == [
        ("correction", "10.1016/s0140-6736(04)15715-2", "2004-03-06"),
        ("retraction", "10.1016/s0140-6736(10)60175-4", "2010-02-06"),
    ]


def test_a_notice_parses_as_an_update_to_the_work_it_retracts() -> None:
    path = FIXTURES / "uws_crossref_updates_wakefield1998.json"
    if not path.is_file():
        missing(f"{path} not found: put shared/ beside the repository")
    items = json.loads(path.read_text(encoding="utf-8"))["message"]["items"]
    notice = parse_work(next(i for i in items if i["DOI"] == "10.1016/s0140-6736(10)60175-4"))
    assert notice["updates"] == [
        {"doi": "10.1016/s0140-6736(97)11096-0", "type": "retraction", "source": "retraction-watch", "date": "2010-02-06"}
    ]  # fmt: skip
    assert notice["authors"] == ["The Editors of The Lancet"]


def test_a_clean_work_has_no_notices_and_keeps_its_relations() -> None:
    work = parse_work(record("uws_crossref_work_sandve2013.json"))
    assert work["notices"] == [] and work["title_marked_retracted"] is False
    assert work["relations"] == [{"type": "has-review", "id": "10.3410/f.720906062.793556792"}]


@pytest.mark.parametrize(
    ("given", "registered"),
    [
        # case, punctuation, accents, markup and "&" (deposited references vs registered titles)
        ("Federated learning for 6G: applications, challenges, and opportunities", "Federated Learning for 6G: Applications, Challenges, and Opportunities"),
        ("A comparison of observation-level random effect and Beta-Binomial models for modelling overdispersion in Binomial data in ecology & evolution", "A comparison of observation-level random effect and Beta-Binomial models for modelling overdispersion in Binomial data in ecology &amp; evolution"),
        ("Impact of hypoxia stress on the physiological responses of sea cucumber Apostichopus japonicus", "Impact of hypoxia stress on the physiological responses of sea cucumber <i>Apostichopus japonicus</i>"),
        # (the registered title with its accents taken off on the given side)
        ("Changes in Land-Use and the River Network of the Graben Dyjsko-Svratecky Uval (Czech Republic) in the Last 242 Years", "Changes in Land-Use and the River Network of the Graben Dyjsko-Svratecký Úval (Czech Republic) in the Last 242 Years"),
        # a subtitle left out, and a retraction marker
        ("ACC/AHA/ASNC guidelines for the clinical use of cardiac radionuclide imaging", "ACC/AHA/ASNC guidelines for the clinical use of cardiac radionuclide imaging: executive summary"),
        ("Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children", "RETRACTED: Ileal-lymphoid-nodular hyperplasia, non-specific colitis, and pervasive developmental disorder in children"),
        # typos and small wording differences between two citing publishers
        ("Stress, testosterone, and the immunoredistribution hypothesis", "Stress, testosterone, and the immunoredistibution hypothesis"),
        ("Trends in the production and trafficking and consumption of methamphetamine and cocaine in Mexico", "Trends in production, trafficking, and consumption of methamphetamine and cocaine in Mexico"),
    ],
)  # fmt: skip
def test_titles_of_the_same_work_match(given: str, registered: str) -> None:
    assert title_score(given, registered) >= TITLE_MATCH_THRESHOLD


@pytest.mark.parametrize(
    ("given", "registered"),
    [
        # one DOI, two citing publishers, two works (one reference carries a wrong DOI)
        ("Deciphering pyritization-kerogenization gradient for fish soft-tissue preservation", "Body fat distribution and the risk of incident metabolic syndrome: a longitudinal cohort study"),
        ("Multisensory perception in uncertain environments", "Optimal multisensory integration"),
        # one main title, two different subtitles; a one-word main title
        ("Industrial ecosystems and food webs: an expansion and update of existing data for eco-industrial parks", "Industrial Ecosystems and Food Webs: An Ecological-Based Mass Flow Analysis to Model the Progress of Industrial Park Development"),
        ("Gout: why compare the effectiveness of suboptimal gout management?", "Gout"),
    ],
)  # fmt: skip
def test_titles_of_different_works_do_not_match(given: str, registered: str) -> None:
    assert title_score(given, registered) < TITLE_MATCH_THRESHOLD


def test_authors_match_on_any_registered_family_name() -> None:
    assert author_matches("Wakefield et al.", ["Wakefield", "Murch"]) is True
    assert author_matches("A. J. Wakefield and S. H. Murch", ["Wakefield", "Murch"]) is True
    assert author_matches("Mueller, K.", ["Müller"]) is True
    assert author_matches("van der Berg J", ["van der Berg"]) is True
    assert author_matches("Berg J", ["van der Berg"]) is False, "the whole family name must appear"
    assert author_matches("Smith J, Jones K", ["Wakefield", "Murch"]) is False
    assert author_matches("", ["Wakefield"]) is None and author_matches("Smith", []) is None


def test_years_match_within_one() -> None:
    assert year_of("March 5, 2012") == 2012 and year_of("n.d.") is None
    assert years_match(2013, [2012]) is True and years_match(2015, [2012]) is False
    assert years_match(2015, []) is None


def test_settings_read_the_endpoints_and_the_contact_address() -> None:
    s = Settings.from_env(
        {
            "RESEARCH_MCP_CROSSREF_URL": "http://127.0.0.1:9/crossref/",
            "RESEARCH_MCP_DOI_URL": "http://127.0.0.1:9/doi",
            "RESEARCH_MCP_CONTACT_EMAIL": "ops@example.org",
        }
    )
    assert s.crossref_url == "http://127.0.0.1:9/crossref" and s.doi_url == "http://127.0.0.1:9/doi/"
    assert s.contact_email == "ops@example.org" and s.crossref_concurrency == 3, "polite pool: 3 at a time"
    assert Settings.from_env({}).crossref_concurrency == 1, "public pool: 1 at a time"
    for bad in (
        {"RESEARCH_MCP_CROSSREF_URL": "ftp://example.org"},
        {"RESEARCH_MCP_DOI_URL": "https://doi.org/?x=1"},
        {"RESEARCH_MCP_CONTACT_EMAIL": "ops@example.org\r\nX-Evil: 1"},
    ):
        with pytest.raises(SettingsError):
            Settings.from_env(bad)
