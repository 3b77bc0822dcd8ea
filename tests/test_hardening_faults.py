"""Network faults the replay arXiv does not play, and a server killed mid-work.

papers-mcp talks to a hostile HTTP server that proxies to the replay arXiv until a test
switches a path ("api" or "pdf") to misbehave. Every fault gives a clear RESOURCE_ERROR or
DATA_FORMAT_ERROR, leaves no partial file in the library, and the next good request succeeds.
research-mcp's URL verification faces the same server (private addresses allowed for the test).
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import anyio.to_thread
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from support.arxiv_replay import Replay
from support.figures import record_figure
from support.hostile_http import Hostile, Mode, serve_hostile
from support.servers import free_port, server_client

pytestmark = pytest.mark.anyio

PAPER = "1608.03417"  # 7 pages: the quickest fixture to convert
NO_FULL_TEXT = "Full text is not available, please use other tools to access the full text."


@pytest.fixture(scope="module")
def hostile(replay: Replay) -> Iterator[Hostile]:
    with serve_hostile(upstream=replay.base_url) as state:
        yield state


@pytest.fixture(autouse=True)
def healthy(hostile: Hostile) -> Iterator[None]:
    hostile.modes.clear()
    yield
    hostile.modes.clear()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faults") / "home"


def papers_env(replay: Replay, hostile: Hostile, home: Path) -> dict[str, str]:
    env = replay.papers_env(home, TIMEOUT_SECONDS="2", MAX_RETRIES="1", MAX_PDF_MB="3")
    env["PAPERS_MCP_ARXIV_API_URL"] = f"{hostile.base_url}/api/query"
    env["PAPERS_MCP_PDF_URL"] = f"{hostile.base_url}/pdf/"
    return env


@pytest.fixture(scope="module")
async def papers(replay: Replay, hostile: Hostile, home: Path) -> AsyncIterator[Client]:
    async with server_client("papers_mcp", env=papers_env(replay, hostile, home)) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


def library_files(home: Path) -> list[str]:
    return sorted(str(p.relative_to(home)) for p in home.rglob("*") if p.is_file() and p.parent != home)


API_FAULTS: list[tuple[Mode, str]] = [
    ("reset_mid_body", "RESOURCE_ERROR|DATA_FORMAT_ERROR"),
    ("http_429_retry_after", "RESOURCE_ERROR"),
    ("http_429", "RESOURCE_ERROR"),
    ("truncated_xml", "DATA_FORMAT_ERROR|RESOURCE_ERROR"),
    ("html_200", "DATA_FORMAT_ERROR|RESOURCE_ERROR"),
    ("redirect_loop", "RESOURCE_ERROR"),
    ("slow", "RESOURCE_ERROR"),
]


@pytest.mark.parametrize(("mode", "codes"), API_FAULTS, ids=[m for m, _ in API_FAULTS])
async def test_arxiv_api_faults_give_a_clear_error_then_recover(
    papers: Client, hostile: Hostile, mode: Mode, codes: str
) -> None:
    hostile.modes["api"] = mode
    with anyio.fail_after(60):
        result = await papers.call_tool("resolve-paper-id", {"query": "ti:zebrafish AND abs:sleep"})
    text = text_of(result)
    assert result.is_error, f"{mode}: a broken answer was read as a result: {text[:300]}"
    assert any(text.startswith(f"Error: {code}: ") for code in codes.split("|")), text
    hostile.modes.clear()
    good = await papers.call_tool(
        "resolve-paper-id", {"query": "Distilling the Knowledge in a Neural Network"}
    )
    assert not good.is_error and "arxiv:1503.02531" in text_of(good), "the next good request must succeed"
    record_figure("fault", {"server": "papers_mcp", "fault": f"api:{mode}", "survived": True})


PDF_FAULTS: list[Mode] = ["reset_mid_body", "html_200", "redirect_loop", "huge_body", "http_429_retry_after"]


@pytest.mark.parametrize("mode", PDF_FAULTS)
async def test_pdf_faults_leave_nothing_behind_then_recover(
    papers: Client, hostile: Hostile, home: Path, mode: Mode
) -> None:
    hostile.modes["pdf"] = mode
    with anyio.fail_after(90):
        result = await papers.call_tool("query-paper", {"arxivID": "1503.02531", "level": "body"})
    text = text_of(result)
    assert result.is_error, text[:300]
    assert text.startswith(("Error: RESOURCE_ERROR: ", "Error: DATA_FORMAT_ERROR: ")), text
    assert NO_FULL_TEXT in text, "seed 003's message, verbatim"
    assert not [f for f in library_files(home) if f.startswith(("pdf/", "text/"))], library_files(home)
    record_figure("fault", {"server": "papers_mcp", "fault": f"pdf:{mode}", "survived": True})


async def test_abstract_still_answers_after_pdf_faults(papers: Client) -> None:
    result = await papers.call_tool("query-paper", {"arxivID": "1503.02531", "level": "abstract"})
    assert not result.is_error
    assert "Distilling the Knowledge in a Neural Network" in text_of(result)


async def test_connection_refused_is_a_resource_error(replay: Replay, tmp_path: Path) -> None:
    env = replay.papers_env(tmp_path / "home", TIMEOUT_SECONDS="2", MAX_RETRIES="1")
    env["PAPERS_MCP_ARXIV_API_URL"] = f"http://127.0.0.1:{free_port()}/api/query"
    async with server_client("papers_mcp", env=env) as client:
        result = await client.call_tool("query-paper", {"arxivID": "1706.03762", "level": "abstract"})
    assert text_of(result).startswith("Error: RESOURCE_ERROR: ")
    record_figure("fault", {"server": "papers_mcp", "fault": "api:connection_refused", "survived": True})


@pytest.mark.parametrize("stage", ["download", "conversion"])
async def test_sigkill_mid_work_never_leaves_a_paper_that_is_served(
    replay: Replay, tmp_path: Path, stage: str
) -> None:
    """SIGKILL the server while it downloads (a stalled PDF) or converts (the 15-page 1706.03762v5), restart it:
    the library serves no half-written paper, and the restarted server reads the paper correctly."""
    home = tmp_path / "home"
    paper = PAPER if stage == "download" else "1706.03762"
    env = replay.papers_env(home, TIMEOUT_SECONDS="60")
    if stage == "download":
        replay.stalled.clear()
        replay.set_fault("stall_pdf", times=1, target="pdf", seconds=60)
    pid_file = tmp_path / "pid"
    async with anyio.create_task_group() as tg, server_client("papers_mcp", env=env) as doomed:
        pids = await anyio.to_thread.run_sync(_papers_pids, home)
        assert len(pids) == 1, pids
        pid_file.write_text(str(pids[0]))
        tg.start_soon(doomed.call_tool, "query-paper", {"arxivID": paper, "level": "body"})
        with anyio.fail_after(60):
            if stage == "download":
                assert await anyio.to_thread.run_sync(replay.stalled.wait, 60)
            else:
                await anyio.to_thread.run_sync(_wait_for_file, home / "pdf" / "1706.03762v5.pdf")
        os.kill(pids[0], signal.SIGKILL)
        tg.cancel_scope.cancel()
    replay.clear_faults()
    leftovers = [f for f in library_files(home) if f.startswith("text/")]
    assert leftovers == [] or all(".part" in f for f in leftovers), leftovers
    async with server_client("papers_mcp", env=env) as client:
        result = await client.call_tool("query-paper", {"arxivID": paper, "level": "body"})
    text = text_of(result)
    assert not result.is_error, text[:300]
    if stage == "conversion":
        assert "Transformer" in text, "1706.03762v5 proposes the Transformer (abstract, p1)"
    record_figure("fault", {"server": "papers_mcp", "fault": f"sigkill:{stage}", "survived": True})


def _wait_for_file(path: Path) -> None:
    """Block until the PDF is in the library, i.e. the conversion has begun (bounded by the caller)."""
    while not path.exists():
        threading.Event().wait(0.05)


def _papers_pids(home: Path) -> list[int]:
    return [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and _is_papers(p, home)]


def _is_papers(proc: Path, home: Path) -> bool:
    try:
        cmdline = (proc / "cmdline").read_bytes().split(b"\0")
        environ = (proc / "environ").read_bytes()
    except OSError:
        return False
    return b"papers_mcp" in cmdline and f"PAPERS_MCP_HOME={home}".encode() in environ


@pytest.fixture(scope="module")
async def research(hostile: Hostile) -> AsyncIterator[Client]:
    env = {
        "RESEARCH_MCP_ALLOW_PRIVATE_URLS": "1",
        "RESEARCH_MCP_HTTP_TIMEOUT": "2",
        "RESEARCH_MCP_HTTP_MAX_BYTES": "1000000",
    }
    async with server_client("research_mcp", env=env) as client:
        yield client


URL_FAULTS: list[Mode] = ["reset_mid_body", "redirect_loop", "huge_body", "slow", "http_429"]


@pytest.mark.parametrize("mode", URL_FAULTS)
async def test_url_verification_faults_are_reported_per_citation(
    research: Client, hostile: Hostile, mode: Mode
) -> None:
    hostile.modes["page"] = mode
    citation = {
        "claim": "Acme Corp revenue reached $3.2 billion in 2024",
        "author": "A. Writer",
        "date": "2024-05-01",
        "title": "Acme annual report",
        "url": f"{hostile.base_url}/page/{mode}",
    }
    with anyio.fail_after(60):
        result = await research.call_tool(
            "citation-validate", {"citations": [citation], "verify_urls": True, "check_accuracy": True}
        )
    assert not result.is_error, text_of(result)[:300]
    data = result.structured_content
    assert data is not None
    if mode == "huge_body":
        # Reachable, but the body is capped: the check reads at most RESEARCH_MCP_HTTP_MAX_BYTES and says so.
        assert data["citations"][0]["accuracy"]["page_truncated"] is True, data
    else:
        url_issues = [i for i in data["issues"] if i["field"] == "url"]
        assert url_issues, f"{mode}: an unreachable or broken URL must be reported as an issue: {data}"
    hostile.modes["page"] = "ok_html_page"
    # Another URL: the first answer is cached (citationCache) and would be served again.
    citation["url"] += "?again"
    good = await research.call_tool("citation-validate", {"citations": [citation], "verify_urls": True})
    assert good.structured_content is not None
    assert not [i for i in good.structured_content["issues"] if i["field"] == "url"], good.structured_content
    record_figure("fault", {"server": "research_mcp", "fault": f"url:{mode}", "survived": True})
