"""Property-based fuzzing of every tool of both servers, over a real stdio MCP session.

For each generated call: the answer is a valid result or the seed's error format with one
of the five codes, never an unexpected crash; the server answers the next call; and
papers-mcp writes nothing outside its home.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp.types import CallToolResult, TextContent
from support.figures import record_figure
from support.hostile import arguments_for
from support.servers import server_client

ERROR_FORMAT = re.compile(
    r"^Error: (VALIDATION_ERROR|PROCESSING_ERROR|RESOURCE_ERROR|DATA_FORMAT_ERROR|CONFIGURATION_ERROR): \S"
)
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES_PER_TOOL", "150"))

PAPERS_TOOLS = ["resolve-paper-id", "query-paper", "paper-graph"]
RESEARCH_TOOLS = [
    "fact-extract",
    "entity-extract",
    "citation-validate",
    "source-rate",
    "conflict-detect",
    "batch-fact-extract",
    "batch-entity-extract",
    "batch-citation-validate",
    "batch-source-rate",
    "batch-conflict-detect",
    "cache-stats",
    "cache-clear",
]

SENTENCE = "Acme Corp. reported revenue of $3.2bn in Q3 2024, up 12% year over year, according to Reuters."
PLAUSIBLE: dict[str, st.SearchStrategy[Any]] = {
    "query": st.sampled_from(
        ["attention is all you need", "au:del_maestro", "1706.03762", "all:science", "ti:"]
    ),
    "arxivID": st.sampled_from(["1706.03762", "arXiv:1706.03762v5", "0000.0000", "1706.99999", "abc"]),
    "level": st.sampled_from(["abstract", "body", "appendix", "all", "ABSTRACT", "full"]),
    "page": st.integers(min_value=-2, max_value=5),
    "max_results": st.integers(min_value=-1, max_value=60),
    "text": st.sampled_from([SENTENCE, "Microsoft invested in OpenAI.", ""]),
    "source_url": st.sampled_from(["https://www.reuters.com/x", "stanford.edu.evil.io", "http://10.0.0.1/"]),
    "entity_types": st.lists(st.sampled_from(["company", "person", "technology", "spaceship"]), max_size=4),
    "extract_relations": st.booleans(),
    "citations": st.lists(
        st.fixed_dictionaries({"claim": st.just("GDP grew 3%")}, optional={"date": st.just("2024-02-30")}),
        max_size=3,
    ),
    "verify_urls": st.just(False),
    "check_accuracy": st.just(False),
    "facts": st.lists(
        st.fixed_dictionaries(
            {
                "entity": st.just("AI market"),
                "attribute": st.just("size"),
                "value": st.sampled_from(["22.4", "0", "-3"]),
            },
            optional={"value_type": st.sampled_from(["number", "currency", "bogus"]), "source": st.just("A")},
        ),
        max_size=4,
    ),
    "tolerance": st.sampled_from([{"numerical_threshold": 0}, {"numerical_threshold": -1}, {}]),
    "items": st.lists(
        st.sampled_from([{"text": SENTENCE}, {"source_url": "https://nature.com"}, {}, "x"]), max_size=4
    ),
    "options": st.sampled_from([{"maxConcurrency": 2}, {"maxConcurrency": 0}, {"bogus": 1}, {}]),
}


@dataclass
class Tally:
    calls: dict[str, int] = field(default_factory=dict)
    errors_by_code: dict[str, int] = field(default_factory=dict)


@dataclass
class Session:
    portal: BlockingPortal
    client: Client
    tools: dict[str, dict[str, Any]]
    tally: Tally


@pytest.fixture(scope="module")
def replay_env(tmp_path_factory: pytest.TempPathFactory, arxiv_fixtures: Path) -> Iterator[dict[str, str]]:
    from support.arxiv_replay import serve_replay

    home = tmp_path_factory.mktemp("papers-home") / "home"
    with serve_replay(arxiv_fixtures) as replay:
        yield {
            "PAPERS_MCP_ARXIV_API_URL": replay.api_url,
            "PAPERS_MCP_PDF_URL": replay.pdf_url,
            "PAPERS_MCP_HTML_URL": replay.html_url,
            "PAPERS_MCP_AR5IV_URL": replay.ar5iv_url,
            "PAPERS_MCP_HOME": str(home),
            "PAPERS_MCP_MIN_INTERVAL_SECONDS": "0",
        }


def open_session(package: str, env: dict[str, str], cwd: Path) -> Iterator[Session]:
    """A stdio session whose server runs in an empty working directory (it must stay empty)."""
    with ExitStack() as stack:
        portal = stack.enter_context(start_blocking_portal("asyncio"))
        client = stack.enter_context(
            portal.wrap_async_context_manager(server_client(package, env=env, cwd=cwd))
        )
        listed = portal.call(client.list_tools)
        tools = {t.name: t.input_schema for t in listed.tools}
        session = Session(portal, client, tools, Tally())
        yield session
        record_figure(
            "fuzz",
            {
                "server": package,
                "calls_per_tool": session.tally.calls,
                "error_codes": session.tally.errors_by_code,
            },
        )


@pytest.fixture(scope="module")
def papers_cwd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("papers-cwd")


@pytest.fixture(scope="module")
def papers(replay_env: dict[str, str], papers_cwd: Path) -> Iterator[Session]:
    yield from open_session("papers_mcp", replay_env, papers_cwd)


@pytest.fixture(scope="module")
def research(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    yield from open_session("research_mcp", {}, tmp_path_factory.mktemp("research-cwd"))


def check_answer(session: Session, tool: str, result: CallToolResult) -> None:
    session.tally.calls[tool] = session.tally.calls.get(tool, 0) + 1
    assert result.content, f"{tool}: empty content"
    first = result.content[0]
    assert isinstance(first, TextContent)
    if result.is_error:
        match = ERROR_FORMAT.match(first.text)
        assert match, f"{tool}: error not in the seed format: {first.text[:300]!r}"
        code = match.group(1)
        session.tally.errors_by_code[code] = session.tally.errors_by_code.get(code, 0) + 1
        assert "failed unexpectedly" not in first.text, f"{tool} crashed: {first.text[:500]}"
        assert "Traceback" not in first.text


def fuzz_tool(session: Session, tool: str, data: st.DataObject) -> None:
    assert tool in session.tools, f"{tool} is not served; tools/list has {sorted(session.tools)}"
    arguments = data.draw(arguments_for(session.tools[tool], PLAUSIBLE), label="arguments")
    try:
        result = session.portal.call(session.client.call_tool, tool, arguments)
    except MCPError as exc:
        # A JSON-RPC error is a clean answer for a message the protocol layer cannot read
        # (e.g. JSON nested deeper than the parser allows): never a hang, never a crash.
        assert exc.error.code in (-32700, -32600, -32602), exc  # noqa: PT017 - the answer, not an expected raise
        session.tally.errors_by_code["JSON-RPC"] = session.tally.errors_by_code.get("JSON-RPC", 0) + 1
        session.tally.calls[tool] = session.tally.calls.get(tool, 0) + 1
        return
    check_answer(session, tool, result)


FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
    database=None,
)


@pytest.mark.parametrize("tool", RESEARCH_TOOLS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_research_tools_survive_fuzzed_arguments(research: Session, tool: str, data: st.DataObject) -> None:
    fuzz_tool(research, tool, data)


@pytest.mark.parametrize("tool", PAPERS_TOOLS)
@FUZZ_SETTINGS
@given(data=st.data())
def test_papers_tools_survive_fuzzed_arguments(papers: Session, tool: str, data: st.DataObject) -> None:
    fuzz_tool(papers, tool, data)


def test_research_still_answers_after_fuzzing(research: Session) -> None:
    result = research.portal.call(
        research.client.call_tool, "source-rate", {"source_url": "https://www.nature.com/x"}
    )
    assert not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["quality_rating"] == "A", "nature.com is A by the seed's criteria"


def test_papers_wrote_nothing_outside_its_home(
    papers: Session, replay_env: dict[str, str], papers_cwd: Path
) -> None:
    assert list(papers_cwd.iterdir()) == [], "papers-mcp wrote into its working directory"
    home = Path(replay_env["PAPERS_MCP_HOME"]).resolve()
    assert {p.name for p in home.parent.iterdir()} <= {home.name}, "papers-mcp wrote beside its home"
    written = list(home.rglob("*")) if home.exists() else []  # fuzzed calls may have written nothing
    for path in written:
        assert path.resolve().is_relative_to(home), f"{path} escapes the home"
    for name in ("passwd", "win.ini"):
        assert name not in {p.name for p in written}, f"a path-like id produced a file named {name}"
