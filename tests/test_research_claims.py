"""citation-validate's claim check over stdio (issue 20): verdicts, evidence offsets, numbers, source_text.

A loopback page server serves real dataset documents: the source texts of cases from
tests/eval/data/claims/cases.jsonl (SciFact train abstracts' rationale passages among other
claims' passages; HealthVer dev). Expected verdicts are the datasets' own labels; an evidence
passage must overlap the passage the dataset labelled. The HTML around the text (a menu and a
footer), the PDF body and the two money sentences (the issue's own example) are synthetic and
say so where they are built.
"""

from __future__ import annotations

import hashlib
import html
import json
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from support.servers import serve_in_thread, server_client

pytestmark = pytest.mark.anyio

CASES = {
    c["id"]: c
    for c in (
        json.loads(line)
        for line in (Path(__file__).parent / "eval/data/claims/cases.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
}
PICKED = ("scifact-002", "scifact-012", "scifact-051", "scifact-062", "scifact-321")
# arXiv's HTML rendering of 2508.08468v6 (shared/fixtures/arxiv-html, a real page; MANIFEST.md there)
ARXIV_PAGE = (
    Path(__file__).resolve().parents[2] / "shared" / "fixtures" / "arxiv-html" / "pages" / "2508.08468v6.html"
)
# Synthetic: the issue's example ("$1.2 billion" equals "1,200 million dollars"; "fell" is not "rose").
MONEY_PAGE = "Acme Corp said its revenue fell 12% to $1.2 billion in 2023, after a weak year in Europe."


def _html(case: dict[str, Any]) -> bytes:
    """The case's text as an article page; the menu and footer are synthetic boilerplate."""
    paragraphs = "".join(f"<p>{html.escape(p)}</p>" for p in case["source"].split("\n\n"))
    page = (
        "<html><head><title>Article</title></head><body><nav><a href='/'>Home</a> | <a href='/about'>About us</a>"
        f" | <a href='/login'>Sign in</a></nav><article><h1>Article</h1>{paragraphs}</article>"
        "<footer>Copyright. All rights reserved. Privacy policy. Cookie settings.</footer></body></html>"
    )
    return page.encode("utf-8")


class _Site(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        kind, _, name = self.path.strip("/").partition("/")
        body, ctype, status = b"", "text/plain", 404
        if kind == "html" and name in CASES:
            body, ctype, status = _html(CASES[name]), "text/html; charset=utf-8", 200
        elif kind == "text" and name in CASES:
            body, ctype, status = CASES[name]["source"].encode("utf-8"), "text/plain; charset=utf-8", 200
        elif kind == "money":
            body, ctype, status = MONEY_PAGE.encode(), "text/plain", 200
        elif kind == "arxiv":
            body, ctype, status = ARXIV_PAGE.read_bytes(), "text/html; charset=utf-8", 200
        elif kind == "paper.pdf":
            body, ctype, status = b"%PDF-1.4 synthetic", "application/pdf", 200  # synthetic PDF body
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serve_in_thread(_Site) as base_url:
        yield base_url


@pytest.fixture(scope="module")
async def research() -> AsyncIterator[Client]:
    async with server_client("research_mcp", env={"RESEARCH_MCP_ALLOW_PRIVATE_URLS": "1"}) as client:
        yield client


def data(result: CallToolResult) -> Any:
    assert not result.is_error, result.content
    assert isinstance(result.content[0], TextContent)
    return json.loads(result.content[0].text)


def _overlaps_rationale(case: dict[str, Any], evidence: list[dict[str, Any]]) -> bool:
    return any(e["start"] < b and a < e["end"] for e in evidence for a, b in case["rationales"])


async def test_plain_text_sources_give_the_labelled_verdicts_with_evidence_offsets(
    research: Client, site: str
) -> None:
    citations = [{"claim": CASES[i]["claim"], "url": f"{site}/text/{i}"} for i in PICKED]
    result = data(
        await research.call_tool("citation-validate", {"citations": citations, "check_accuracy": True})
    )
    for i, per in zip(PICKED, result["citations"], strict=True):
        case, acc = CASES[i], per["accuracy"]
        assert acc["verdict"] == case["label"], (i, acc["reason"])
        assert acc["supported"] is (case["label"] == "supported")
        assert acc["text_sha256"] == hashlib.sha256(case["source"].encode()).hexdigest()
        assert len(acc["evidence"]) <= 3 and (acc["evidence"] or case["label"] == "not_found")
        for e in acc["evidence"]:
            assert case["source"][e["start"] : e["end"]] == e["text"] and 0 < e["score"] <= 1
        if case["label"] != "not_found":
            assert _overlaps_rationale(case, acc["evidence"][:1]), (i, acc["evidence"][0])
    issues = {(x["citation_index"], x["issue"]) for x in result["issues"] if x["field"] == "claim"}
    assert (2, "contradicted_by_source") in issues and (3, "contradicted_by_source") in issues
    assert (4, "not_found_in_source") in issues and (0, "contradicted_by_source") not in issues
    warning = next(x for x in result["issues"] if x["issue"] == "contradicted_by_source")
    assert warning["severity"] == "warning" and set(warning) == {
        "citation_index", "field", "issue", "severity", "detail"
    }  # fmt: skip


async def test_html_is_read_by_its_main_text(research: Client, site: str) -> None:
    case = CASES["scifact-012"]
    result = data(
        await research.call_tool(
            "citation-validate",
            {
                "citations": [{"claim": case["claim"], "url": f"{site}/html/scifact-012"}],
                "check_accuracy": True,
            },
        )
    )
    acc = result["citations"][0]["accuracy"]
    assert acc["verdict"] == "supported" and acc["source_kind"] == "html"
    assert [n["status"] for n in acc["numbers"]] == ["equal", "equal"], acc["numbers"]  # "Ten percent", "10%"
    rationale = case["source"][case["rationales"][0][0] : case["rationales"][0][1]]
    assert acc["evidence"][0]["text"] in rationale or rationale in acc["evidence"][0]["text"]
    assert all("Sign in" not in e["text"] and "Cookie" not in e["text"] for e in acc["evidence"])


async def test_an_arxiv_html_page_is_read_by_its_text(research: Client, site: str) -> None:
    # Expected verdicts from reading the page's abstract: "aggressive compression reduced payload sizes by up
    # to 80x with negligible perceptual degradation"; the last claim is about nothing the paper says.
    claims = [
        (
            "Aggressive compression reduced payload sizes by up to 80x with negligible perceptual degradation.",
            "supported",
        ),
        ("Aggressive compression reduced payload sizes by up to 20x.", "contradicted"),
        ("Aggressive compression increased payload sizes.", "contradicted"),
        ("The authors trained the model on a satellite link in Antarctica.", "not_found"),
    ]
    citations = [{"claim": c, "url": f"{site}/arxiv"} for c, _ in claims]
    result = data(
        await research.call_tool("citation-validate", {"citations": citations, "check_accuracy": True})
    )
    got = [c["accuracy"]["verdict"] for c in result["citations"]]
    assert got == [label for _, label in claims], [c["accuracy"]["reason"] for c in result["citations"]]
    first = result["citations"][0]["accuracy"]
    assert first["source_kind"] == "html" and "80×" in first["evidence"][0]["text"]
    assert first["numbers"][0]["status"] == "equal", "80x is 80×"


async def test_source_text_is_judged_without_fetching(research: Client, site: str) -> None:
    case = CASES["scifact-051"]
    citations = [
        # the URL would 404: with source_text nothing is fetched, so no url issue appears
        {"claim": case["claim"], "url": f"{site}/nothing", "source_text": case["source"]},
        {"claim": case["claim"], "source_text": case["source"]},
    ]
    result = data(
        await research.call_tool("citation-validate", {"citations": citations, "check_accuracy": True})
    )
    for per in result["citations"]:
        assert (
            per["accuracy"]["verdict"] == "contradicted" and per["accuracy"]["source_kind"] == "source_text"
        )
        assert "url_check" not in per
        assert {n["status"] for n in per["accuracy"]["numbers"]} >= {"different"}, per["accuracy"]["numbers"]
    assert not any(x["field"] == "url" and x["issue"] != "missing" for x in result["issues"])


async def test_numbers_are_compared_by_value_and_direction_decides(research: Client, site: str) -> None:
    citations = [
        {"claim": "Acme Corp revenue fell to 1,200 million dollars in 2023.", "url": f"{site}/money"},
        {"claim": "Acme Corp revenue rose 12% in 2023.", "url": f"{site}/money"},
        {"claim": "Acme Corp revenue fell 21% in 2023.", "url": f"{site}/money"},
    ]
    result = data(
        await research.call_tool("citation-validate", {"citations": citations, "check_accuracy": True})
    )
    same, rose, other = (c["accuracy"] for c in result["citations"])
    assert same["verdict"] == "supported", same
    money = next(n for n in same["numbers"] if n["claim"].get("currency") == "USD")
    assert money["status"] == "equal" and money["source"]["text"] == "$1.2 billion"
    assert money["claim"]["value"] == money["source"]["value"] == 1.2e9
    assert rose["verdict"] == "contradicted" and "direction" in rose["reason"], rose
    assert other["verdict"] == "contradicted"
    assert next(n for n in other["numbers"] if n["claim"]["kind"] == "percentage")["status"] == "different"


async def test_dates_are_compared_as_dates(research: Client, site: str) -> None:
    # COVID-Fact's counter-claim: the source says March 12, 2019; the claim says jan 12, 2019
    case = CASES["covidfact-154"]
    result = data(
        await research.call_tool(
            "citation-validate",
            {
                "citations": [{"claim": case["claim"], "url": f"{site}/text/covidfact-154"}],
                "check_accuracy": True,
            },
        )
    )
    acc = result["citations"][0]["accuracy"]
    assert acc["verdict"] == case["label"] == "contradicted", acc["reason"]
    date = next(n for n in acc["numbers"] if n["claim"]["kind"] == "date")
    assert (date["claim"]["value"], date["status"], date["source"]["value"]) == (
        "2019-01-12",
        "different",
        "2019-03-12",
    )
    assert case["source"][date["source"]["start"] : date["source"]["end"]] == "March 12, 2019"
    assert not any(n["claim"]["text"] == "12" for n in acc["numbers"]), "the day of a date is not a number"


async def test_unreadable_sources_are_unverifiable_with_a_reason(research: Client, site: str) -> None:
    citations = [
        {"claim": "The paper reports 93% accuracy.", "url": f"{site}/paper.pdf"},
        {"claim": "The paper reports 93% accuracy.", "url": f"{site}/nothing"},
        {"claim": "The paper reports 93% accuracy."},
        {"claim": "The paper reports 93% accuracy.", "source_text": "  "},
    ]
    result = data(
        await research.call_tool("citation-validate", {"citations": citations, "check_accuracy": True})
    )
    pdf, gone, no_url, blank = (c["accuracy"] for c in result["citations"])
    for acc in (pdf, gone, no_url, blank):
        assert acc["verdict"] == "unverifiable" and acc["supported"] is False and acc["reason"]
    assert "PDF" in pdf["reason"] and "404" in gone["reason"] and "source_text" in no_url["reason"]
    assert "empty" in blank["reason"]


async def test_batch_gives_the_same_verdicts_and_caches(research: Client, site: str) -> None:
    items = [
        {"citations": [{"claim": CASES[i]["claim"], "url": f"{site}/text/{i}"}], "check_accuracy": True}
        for i in PICKED
    ]
    first = data(await research.call_tool("batch-citation-validate", {"items": items}))
    again = data(await research.call_tool("batch-citation-validate", {"items": items}))
    verdicts = [r["data"]["citations"][0]["accuracy"]["verdict"] for r in first["results"]]
    assert verdicts == [CASES[i]["label"] for i in PICKED]
    assert [r["data"] for r in again["results"]] == [r["data"] for r in first["results"]]
    assert all(r["cacheHit"] for r in again["results"])
