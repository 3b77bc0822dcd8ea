"""Tool text is product: descriptions, parameters and messages match seed 003 verbatim, on the wire too."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client
from papers_mcp import descriptions
from support.required import missing
from support.servers import REPO_ROOT, server_client

pytestmark = pytest.mark.anyio


def _seed_text() -> str:
    seeds = sorted((REPO_ROOT.parent / "shared" / "seeds").glob("003_*.txt"))
    if not seeds:
        missing("seed 003 not found beside the repository (../shared/seeds)")
    return seeds[0].read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name",
    ["RESOLVE_PAPER_ID", "QUERY_PAPER", "RESULTS_HEADER", "NO_RESULTS", "NO_FULL_TEXT"],
)
def test_multi_line_text_is_verbatim_from_the_seed(name: str) -> None:
    assert getattr(descriptions, name) in _seed_text(), f"{name} drifted from seed 003"


@pytest.mark.parametrize(
    ("name", "row_start"),
    [
        ("RESOLVE_QUERY_PARAM", "| `query` | string | 是 | "),
        ("ARXIV_ID_PARAM", "| `arxivID` | string | 是 | "),
        ("LEVEL_PARAM", "| `level` | enum | 否 | "),
    ],
)
def test_parameter_descriptions_are_the_seed_table_cells(name: str, row_start: str) -> None:
    row = next(line for line in _seed_text().splitlines() if line.startswith(row_start))
    cell = row.removeprefix(row_start).removesuffix("|").strip()
    assert getattr(descriptions, name) == cell


def test_the_two_messages_are_the_spec_wording() -> None:
    spec = (REPO_ROOT.parent / "shared" / "SPEC.md").read_text(encoding="utf-8")
    assert f"`{descriptions.NO_FULL_TEXT}`" in spec
    # SPEC.md quotes the no-match message inside backticks, around an inner `all:`
    assert descriptions.NO_RESULTS in spec


@pytest.fixture(scope="module")
async def listing_client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    home: Path = tmp_path_factory.mktemp("papers-listing")
    async with server_client("papers_mcp", env={"PAPERS_MCP_HOME": str(home)}) as client:
        yield client


async def test_the_server_lists_both_tools_with_the_seed_text(listing_client: Client) -> None:
    tools = {t.name: t for t in (await listing_client.list_tools()).tools}
    assert sorted(tools) == ["paper-graph", "query-paper", "resolve-paper-id"]
    assert tools["paper-graph"].description == descriptions.PAPER_GRAPH
    resolve, query = tools["resolve-paper-id"], tools["query-paper"]
    assert resolve.description == descriptions.RESOLVE_PAPER_ID
    assert query.description == descriptions.QUERY_PAPER
    assert resolve.input_schema["required"] == ["query"]  # the seed's single required parameter
    assert resolve.input_schema["properties"]["query"]["description"] == descriptions.RESOLVE_QUERY_PARAM
    assert query.input_schema["required"] == ["arxivID"]
    assert query.input_schema["properties"]["arxivID"]["description"] == descriptions.ARXIV_ID_PARAM
    level = query.input_schema["properties"]["level"]
    assert level["description"] == descriptions.LEVEL_PARAM
    assert level["enum"] == ["abstract", "body", "appendix", "all"] and level["default"] == "body"
    for tool in (resolve, query):
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is True and tool.annotations.open_world_hint is True


async def test_the_server_tells_the_model_to_resolve_first(listing_client: Client) -> None:
    instructions = listing_client.instructions or ""
    assert instructions.index("resolve-paper-id") < instructions.index("query-paper")
