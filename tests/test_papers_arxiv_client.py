"""The arXiv boundary on its own: the real ``arxiv`` client and requests against the replay arXiv.

Covers what a protocol test cannot see: the User-Agent, the rate gate's spacing, retries that
recover, and how each failure is translated (never an error feed read as a paper).
"""

from __future__ import annotations

import io
import itertools
import logging
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.arxiv_api import ArxivClient
from papers_mcp.ids import ArxivId, canonical_id
from papers_mcp.settings import Settings
from support.arxiv_replay import FaultKind, Replay
from support.servers import serve_in_thread


@pytest.fixture(autouse=True)
def no_faults(replay: Replay) -> Iterator[None]:
    yield
    replay.clear_faults()


def client_for(replay: Replay, tmp_path: Path, **overrides: str) -> ArxivClient:
    return ArxivClient(Settings.from_env(replay.papers_env(tmp_path, **overrides)))


def test_requests_name_papers_mcp(replay: Replay, tmp_path: Path) -> None:
    client_for(replay, tmp_path).lookup(canonical_id("1706.03762"))
    assert replay.requests[-1].user_agent.startswith("papers-mcp/")


def test_the_gate_spaces_requests(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path, MIN_INTERVAL_SECONDS="0.5")
    start = len(replay.requests)
    for raw in ("1706.03762", "1810.04805", "1512.03385"):
        client.lookup(canonical_id(raw))
    arrivals = [r.at for r in replay.requests[start:]]
    assert len(arrivals) == 3
    # A lower bound only: the gate must never let two requests closer than the interval.
    assert all(b - a >= 0.4 for a, b in itertools.pairwise(arrivals))  # 0.1 s for thread scheduling


def test_a_lookup_returns_the_latest_version(replay: Replay, tmp_path: Path) -> None:
    meta = client_for(replay, tmp_path).lookup(canonical_id("1706.03762"))
    assert meta is not None and meta.id == "1706.03762v5"  # the fixture's version (MANIFEST.md)
    assert meta.title == "Attention Is All You Need"


def test_an_unknown_id_is_none_not_an_error(replay: Replay, tmp_path: Path) -> None:
    assert client_for(replay, tmp_path).lookup(canonical_id("0808.05394")) is None


def test_the_http_400_error_feed_is_never_a_paper(replay: Replay, tmp_path: Path) -> None:
    """feeds/error_idlist_abc_http400.xml: arXiv's answer to a malformed id, with HTTP 400."""
    forged = ArxivId("abc")  # canonical_id would refuse it; forge one to reach arXiv's error path
    with pytest.raises(ToolFailure) as info:
        client_for(replay, tmp_path).lookup(forged)
    assert info.value.code is ErrorCode.VALIDATION_ERROR
    assert "HTTP 400" in info.value.message


def test_a_transient_503_is_retried_until_it_succeeds(replay: Replay, tmp_path: Path) -> None:
    replay.set_fault("http_503", times=2, target="api")
    start = replay.count("api")
    meta = client_for(replay, tmp_path, MAX_RETRIES="2").lookup(canonical_id("1810.04805"))
    assert meta is not None and meta.id == "1810.04805v2"
    assert replay.count("api") - start == 3


@pytest.mark.parametrize(
    ("fault", "code", "words"),
    [
        ("http_429", ErrorCode.RESOURCE_ERROR, "rate-limiting"),
        ("rate_exceeded", ErrorCode.RESOURCE_ERROR, "rate-limiting"),
        ("http_503", ErrorCode.RESOURCE_ERROR, "unavailable (HTTP 503)"),
        ("malformed_xml", ErrorCode.DATA_FORMAT_ERROR, "malformed"),
    ],
)
def test_persistent_api_faults_are_translated(
    replay: Replay, tmp_path: Path, fault: FaultKind, code: ErrorCode, words: str
) -> None:
    replay.set_fault(fault, target="api")
    start = replay.count("api")
    with pytest.raises(ToolFailure) as info:
        client_for(replay, tmp_path, MAX_RETRIES="2").search("ti:attention", 10)
    assert info.value.code is code
    assert words in info.value.message
    assert replay.count("api") - start == 3, "one try and two retries"


def test_a_slow_arxiv_times_out(replay: Replay, tmp_path: Path) -> None:
    replay.set_fault("slow", target="api", seconds=5)
    with pytest.raises(ToolFailure) as info:
        client_for(replay, tmp_path, TIMEOUT_SECONDS="0.5", MAX_RETRIES="1").search("ti:attention", 10)
    assert info.value.code is ErrorCode.RESOURCE_ERROR
    assert "did not answer within 0.5 s" in info.value.message


def test_concurrent_calls_keep_their_connections(
    replay: Replay, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """More calls in flight than requests' default pool of 10 connections: none discarded, no log flood."""
    replay.set_fault("slow", target="api", seconds=0.5, times=16)
    client = client_for(replay, tmp_path)
    with caplog.at_level(logging.WARNING, logger="urllib3"), ThreadPoolExecutor(16) as pool:
        metas = list(pool.map(lambda _: client.lookup(canonical_id("1706.03762")), range(16)))
    assert all(meta is not None and meta.id == "1706.03762v5" for meta in metas)
    assert not [r for r in caplog.records if "pool is full" in r.getMessage()]


def test_a_pdf_download_is_checked(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path)
    sink = io.BytesIO()
    size = client.download_pdf(ArxivId("1608.03417", 1), sink)
    expected = (replay.fixtures / "pdfs" / "1608.03417v1.pdf").read_bytes()
    assert size == len(expected) and sink.getvalue() == expected


@pytest.mark.parametrize(
    ("fault", "words"),
    [("truncated_pdf", "truncated"), ("not_pdf", "not a PDF")],
)
def test_a_broken_pdf_is_a_data_format_error(
    replay: Replay, tmp_path: Path, fault: FaultKind, words: str
) -> None:
    replay.set_fault(fault, target="pdf")
    with pytest.raises(ToolFailure) as info:
        client_for(replay, tmp_path).download_pdf(ArxivId("1608.03417", 1), io.BytesIO())
    assert info.value.code is ErrorCode.DATA_FORMAT_ERROR
    assert info.value.message.startswith(
        "Full text is not available, please use other tools to access the full text."
    )
    assert words in info.value.message


def test_a_pdf_over_the_size_cap_is_refused(replay: Replay, tmp_path: Path) -> None:
    with pytest.raises(ToolFailure) as info:
        client_for(replay, tmp_path, MAX_PDF_MB="0.1").download_pdf(ArxivId("1608.03417", 1), io.BytesIO())
    assert info.value.code is ErrorCode.DATA_FORMAT_ERROR and "exceeds" in info.value.message


# --- the HTML pages (issue 13) ---


def test_html_pages_come_through_the_gate_and_a_missing_one_is_none(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path)
    page = client.fetch_html(f"{replay.html_url}2604.16990v1", "the HTML")
    assert page is not None and b"ltx_document" in page
    assert replay.requests[-1].kind == "html" and replay.requests[-1].user_agent.startswith("papers-mcp/")
    assert client.fetch_html(f"{replay.html_url}1706.03762v5", "the HTML") is None  # 404: no HTML
    assert client.fetch_html(f"{replay.ar5iv_url}2303.17564", "the ar5iv page") is not None


def test_html_pages_are_retried_then_translated(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path)
    replay.set_fault("http_503", times=2, target="html")
    assert client.fetch_html(f"{replay.html_url}2604.16990v1", "the HTML") is not None
    replay.set_fault("http_503", target="html")
    with pytest.raises(ToolFailure) as info:
        client.fetch_html(f"{replay.html_url}2604.16990v1", "the HTML")
    assert info.value.code == ErrorCode.RESOURCE_ERROR


def _redirecting(target: str) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def do_GET(self) -> None:
            if self.path.startswith("/same/"):
                body = b"<html><body><article class='ltx_document'>ok</article></body></html>"
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(302)
            self.send_header("Location", target if self.path.startswith("/away/") else "/same/page")
            self.send_header("Content-Length", "0")
            self.end_headers()

    return Handler


def test_html_redirects_are_followed_only_within_the_configured_host(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path)
    with serve_in_thread(_redirecting(f"{replay.base_url}/html/2604.16990v1")) as base:
        assert client.fetch_html(f"{base}/here/2604.16990v1", "the HTML") == (
            b"<html><body><article class='ltx_document'>ok</article></body></html>"
        )
        # ar5iv sends a paper it has not rendered to arxiv.org/abs: another host, so no HTML here.
        assert client.fetch_html(f"{base}/away/2604.16990v1", "the HTML") is None


def test_an_html_page_over_the_size_cap_is_refused(replay: Replay, tmp_path: Path) -> None:
    client = client_for(replay, tmp_path, MAX_PDF_MB="0.5")  # the ar5iv page is 1.3 MB
    with pytest.raises(ToolFailure) as info:
        client.fetch_html(f"{replay.ar5iv_url}2303.17564", "the ar5iv page")
    assert info.value.code == ErrorCode.DATA_FORMAT_ERROR
