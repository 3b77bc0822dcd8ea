"""arXiv misbehaving, seen through the MCP client: clear errors with the right code, nothing half-written.

The replay arXiv plays each fault; papers-mcp runs as a stdio subprocess with short timeouts
and fast retries. The paper used for downloads is 1608.03417v1 (7 pages, the quickest to convert).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import anyio.to_thread
import pytest
from mcp import Client
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode
from papers_mcp.descriptions import NO_FULL_TEXT, NO_RESULTS
from support.arxiv_replay import FaultKind, Replay
from support.servers import server_client

pytestmark = pytest.mark.anyio

PAPER = "1608.03417"  # BIRD DETECTION IN AUDIO, 7 pages (MANIFEST.md)


@pytest.fixture(autouse=True)
def no_faults(replay: Replay) -> Iterator[None]:
    yield
    replay.clear_faults()


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("papers-faults")


@pytest.fixture(scope="module")
async def papers(replay: Replay, home: Path) -> AsyncIterator[Client]:
    env = replay.papers_env(home, TIMEOUT_SECONDS="1", MAX_RETRIES="1")
    async with server_client("papers_mcp", env=env) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    assert isinstance(result.content[0], TextContent)
    return result.content[0].text


def pdf_files(home: Path) -> list[str]:
    folder = home / "pdf"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.mark.parametrize(
    ("fault", "code", "words"),
    [
        ("http_429", ErrorCode.RESOURCE_ERROR, "rate-limiting"),
        ("http_503", ErrorCode.RESOURCE_ERROR, "HTTP 503"),
        ("rate_exceeded", ErrorCode.RESOURCE_ERROR, "rate-limiting"),
        ("slow", ErrorCode.RESOURCE_ERROR, "did not answer within 1 s"),
        ("malformed_xml", ErrorCode.DATA_FORMAT_ERROR, "malformed"),
    ],
)
async def test_search_faults_become_clear_errors(
    papers: Client, replay: Replay, fault: FaultKind, code: ErrorCode, words: str
) -> None:
    replay.set_fault(fault, target="api", seconds=3)
    result = await papers.call_tool("resolve-paper-id", {"query": "ti:zebrafish"})
    text = text_of(result)
    assert result.is_error, text
    assert text.startswith(f"Error: {code}: ") and words in text
    assert text != NO_RESULTS, "a throttled or broken answer must never read as 'no papers'"


async def test_retries_are_logged_to_stderr(replay: Replay, tmp_path: Path) -> None:
    replay.set_fault("http_503", times=1, target="api")
    log = tmp_path / "stderr.log"
    env = replay.papers_env(tmp_path / "home", LOG_LEVEL="INFO")
    with log.open("w") as errlog:
        async with server_client("papers_mcp", env=env, errlog=errlog) as client:
            result = await client.call_tool("resolve-paper-id", {"query": "ti:residual"})
    assert not result.is_error
    text = log.read_text()
    assert "resolve-paper-id (raw): ti:residual" in text
    assert "retry 1 of 2" in text and "HTTP 503" in text


async def test_one_transient_failure_is_retried(papers: Client, replay: Replay) -> None:
    replay.set_fault("http_503", times=1, target="api")
    result = await papers.call_tool(
        "resolve-paper-id", {"query": "Distilling the Knowledge in a Neural Network"}
    )
    assert not result.is_error
    assert "- Arxiv ID: arxiv:1503.02531" in text_of(result)


@pytest.mark.parametrize(
    ("fault", "code"),
    [
        ("truncated_pdf", ErrorCode.DATA_FORMAT_ERROR),
        ("not_pdf", ErrorCode.DATA_FORMAT_ERROR),
        ("http_404", ErrorCode.RESOURCE_ERROR),
        ("http_503", ErrorCode.RESOURCE_ERROR),
    ],
)
async def test_pdf_faults_answer_no_full_text_and_store_nothing(
    papers: Client, replay: Replay, home: Path, fault: FaultKind, code: ErrorCode
) -> None:
    replay.set_fault(fault, target="pdf")
    result = await papers.call_tool("query-paper", {"arxivID": PAPER, "level": "body"})
    text = text_of(result)
    assert result.is_error
    assert text.startswith(f"Error: {code}: ")
    assert NO_FULL_TEXT in text  # seed 003's message, verbatim, whatever the reason
    assert pdf_files(home) == [], "no PDF and no temp file may be left behind"
    assert not (home / "text").exists() or list((home / "text").iterdir()) == []


async def test_a_download_killed_midway_is_never_served(replay: Replay, home: Path) -> None:
    """Kill a server while the PDF is half-downloaded: only a temp file may remain (the next test reads on)."""
    env = replay.papers_env(home, TIMEOUT_SECONDS="60")
    replay.stalled.clear()
    replay.set_fault("stall_pdf", times=1, target="pdf", seconds=60)
    async with anyio.create_task_group() as tg, server_client("papers_mcp", env=env) as doomed:
        tg.start_soon(doomed.call_tool, "query-paper", {"arxivID": PAPER})
        with anyio.fail_after(30):
            assert await anyio.to_thread.run_sync(replay.stalled.wait, 30)
        tg.cancel_scope.cancel()
    replay.clear_faults()
    leftovers = pdf_files(home)
    assert "1608.03417v1.pdf" not in leftovers, leftovers
    assert all(name.endswith(".part") for name in leftovers)


async def test_after_a_fault_the_same_paper_reads_normally(
    papers: Client, replay: Replay, home: Path
) -> None:
    replay.set_fault("truncated_pdf", times=1, target="pdf")
    assert (await papers.call_tool("query-paper", {"arxivID": PAPER})).is_error
    result = await papers.call_tool("query-paper", {"arxivID": PAPER})
    assert not result.is_error, text_of(result)
    assert "- Arxiv ID: arxiv:1608.03417v1" in text_of(result)
    assert [n for n in pdf_files(home) if not n.endswith(".part")] == ["1608.03417v1.pdf"]
    expected = (replay.fixtures / "pdfs" / "1608.03417v1.pdf").read_bytes()
    assert (home / "pdf" / "1608.03417v1.pdf").read_bytes() == expected
