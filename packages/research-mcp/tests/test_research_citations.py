"""citation-validate logic: completeness, impossible dates, malformed URLs/DOIs, and URL fetching policy.

Dates and URLs are hand-written cases; the expected verdicts come from the calendar and from
the task's list of addresses that must be refused. The fetch tests run a real HTTP server on
127.0.0.1 (no mocks) and pass an address policy that allows only that address.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from research_mcp.citations import check_accuracy, check_date, claim_terms, validate_citations
from research_mcp.fetch import fetch_url
from research_mcp.models import CitationIn
from research_mcp.settings import Settings

pytestmark = pytest.mark.anyio

TODAY = date(2026, 11, 21)


@pytest.mark.parametrize(
    ("raw", "issue"),
    [
        ("2023-02-29", "impossible"),  # 2023 is not a leap year
        ("2023-13-01", "impossible"),
        ("2021-04-31", "impossible"),  # April has 30 days
        ("31/31/2020", "impossible"),  # no reading of this is a date
        ("February 30, 2022", "impossible"),
        ("Feb 29 2023", "impossible"),
        ("29th February 2023", "impossible"),
        ("30.02.2020", "impossible"),
        ("2020-00-10", "impossible"),
        ("2020-02-00", "impossible"),
        ("20230229", "impossible"),
        ("Smarch 3, 2020", "invalid"),
        ("2099-01-01", "future"),
        ("0999", "implausible"),
        ("last Tuesday", "unparseable"),
    ],
)
def test_bad_dates_are_reported_with_the_reason(raw: str, issue: str) -> None:
    found = check_date(raw, TODAY)
    assert found is not None and found[0] == issue, f"{raw!r} should be {issue}, got {found}"


@pytest.mark.parametrize(
    "raw",
    [
        "2024-02-29",
        "2024",
        "2024-03",
        "2024/03/05",
        "March 5, 2024",
        "5 March 2024",
        "Mar 2024",
        "Sept. 9, 2019",
        "2024-03-05T10:00:00Z",
        "03/04/2024",
        "25/12/2023",
    ],
)
def test_real_dates_pass(raw: str) -> None:
    assert check_date(raw, TODAY) is None, f"{raw!r} is a real, past date"


def _issues(result: dict[str, object], index: int) -> set[tuple[str, str]]:
    issues = result["issues"]
    assert isinstance(issues, list)
    return {(i["field"], i["issue"]) for i in issues if i["citation_index"] == index}


async def test_completeness_validity_and_distribution() -> None:
    citations = [
        CitationIn(
            claim="Transformers use attention.",
            author="Vaswani et al.",
            date="2017-06-12",
            title="Attention Is All You Need",
            url="https://arxiv.org/abs/1706.03762",
        ),
        CitationIn(claim="The market grew.", url="https://www.nature.com/articles/abc"),
        CitationIn(
            claim="Bad date",
            author="A. Author",
            date="2023-02-29",
            title="T",
            url="https://www.reuters.com/x",
        ),
        CitationIn(
            claim="Title is a link",
            author="B",
            date="2020",
            title="https://example.com/report",
            url="example.com/report",
        ),
        CitationIn(
            claim="Bad DOI",
            author="C",
            date="2020",
            title="T",
            url="https://doi.org/11.1234/abc",
            doi="10.1000",
        ),
        CitationIn(claim="Numeric host", author="D", date="2020", title="T", url="http://0177.0.0.1/"),
    ]
    result = await validate_citations(citations, Settings(), today=TODAY)
    assert result["total_citations"] == 6
    assert result["complete_citations"] == 1, "only the first citation has all five fields, all valid"
    dist = result["quality_distribution"]
    assert sum(dist.values()) == 6, "the counts add up to the number of citations"
    # arxiv: preprint (B); nature: A; reuters: C; malformed URL: E; doi.org: E (unknown); IP: E
    assert dist == {"A": 1, "B": 1, "C": 1, "D": 0, "E": 3}
    assert {("author", "missing"), ("date", "missing"), ("title", "missing")} <= _issues(result, 1)
    assert ("date", "impossible_date") in _issues(result, 2)
    assert {("title", "title_is_url"), ("url", "malformed_url")} <= _issues(result, 3)
    assert {("url", "malformed_doi"), ("doi", "malformed_doi")} <= _issues(result, 4)
    severities = {i["issue"]: i["severity"] for i in result["issues"]}
    assert severities["missing"] == "warning" and severities["impossible_date"] == "error"


def test_claim_terms_and_accuracy_check() -> None:
    numbers, names = claim_terms("OpenAI raised $6.6 billion from Microsoft and Nvidia in 2024.")
    assert numbers == ["6.6", "2024"]
    assert names == ["OpenAI", "Microsoft", "Nvidia"]
    page = "In October 2024 OpenAI closed a round of 6.6 billion dollars led by Thrive; Microsoft joined."
    result = check_accuracy("OpenAI raised $6.6 billion from Microsoft and Nvidia in 2024.", page)
    assert result["supported"] is False and result["entities_missing"] == ["Nvidia"]
    assert result["numbers_missing"] == []


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        port = self.server.server_address[1]
        if self.path == "/reset":
            # promise 10,000 bytes, send 100, hang up
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "10000")
            self.end_headers()
            self.wfile.write(b"<html>" + b"x" * 94)
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        routes = {
            "/ok": (
                200,
                {"Content-Type": "text/html"},
                b"<html><body><p>Sales rose 12% at Acme Corp.</p></body></html>",
            ),
            "/to-ok": (302, {"Location": "/ok"}, b""),
            "/to-private": (302, {"Location": f"http://127.0.0.2:{port}/ok"}, b""),
            "/to-metadata": (301, {"Location": "http://169.254.169.254/latest/meta-data/"}, b""),
            "/to-decimal": (302, {"Location": f"http://2130706434:{port}/ok"}, b""),
            "/loop": (302, {"Location": "/loop"}, b""),
            "/gone": (404, {"Content-Type": "text/plain"}, b"not here"),
            "/big": (200, {"Content-Type": "text/plain"}, b"x" * 50_000),
        }
        status, headers, body = routes.get(self.path, (404, {}, b""))
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def local_site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def only_127_0_0_1(ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return str(ip) == "127.0.0.1"


SETTINGS = Settings(http_max_bytes=1000, http_max_redirects=3, http_timeout_seconds=5)


async def test_fetch_follows_redirects_hop_by_hop(local_site: str) -> None:
    r = await fetch_url(f"{local_site}/to-ok", SETTINGS, read_body=True, address_allowed=only_127_0_0_1)
    assert r.reachable and r.status_code == 200 and r.redirects == 1
    assert r.final_url == f"{local_site}/ok" and b"Acme Corp." in r.body


@pytest.mark.parametrize("path", ["/to-private", "/to-metadata", "/to-decimal"])
async def test_fetch_never_follows_a_redirect_into_a_refused_address(local_site: str, path: str) -> None:
    r = await fetch_url(f"{local_site}{path}", SETTINGS, read_body=False, address_allowed=only_127_0_0_1)
    assert r.error_kind == "refused_address", r.error
    assert not r.reachable and r.redirects == 1


async def test_a_connection_reset_mid_body_is_reported_not_raised(local_site: str) -> None:
    r = await fetch_url(f"{local_site}/reset", SETTINGS, read_body=True, address_allowed=only_127_0_0_1)
    assert r.error_kind == "unreachable" and not r.reachable, r.error
    assert r.status_code == 200


async def test_fetch_caps_redirects_body_size_and_reports_http_errors(local_site: str) -> None:
    loop = await fetch_url(f"{local_site}/loop", SETTINGS, read_body=False, address_allowed=only_127_0_0_1)
    assert loop.error_kind == "too_many_redirects"
    gone = await fetch_url(f"{local_site}/gone", SETTINGS, read_body=False, address_allowed=only_127_0_0_1)
    assert gone.status_code == 404 and not gone.reachable and gone.error is None
    big = await fetch_url(f"{local_site}/big", SETTINGS, read_body=True, address_allowed=only_127_0_0_1)
    assert big.truncated and len(big.body) == 1000


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/",
        "http://localhost/",
        "http://10.0.0.1/",
        "http://172.16.5.4/",
        "http://192.168.1.1/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[fc00::1]/",
        "http://[fe80::1]/",
        "http://0.0.0.0/",
        "http://2130706433/",
        "http://0177.0.0.1/",
        "http://0x7f.0.0.1/",
        "http://127.1/",
        "http://[::ffff:127.0.0.1]/",
    ],
)
async def test_default_policy_refuses_private_loopback_and_link_local(url: str) -> None:
    r = await fetch_url(url, Settings(http_timeout_seconds=5), read_body=False)
    assert r.error_kind == "refused_address", f"{url} must be refused before any connection: {r.error}"


async def test_verify_and_accuracy_through_validate_citations(local_site: str) -> None:
    settings = Settings(allow_private_urls=True, http_timeout_seconds=5)
    citations = [
        CitationIn(
            claim="Sales rose 12% at Acme Corp.",
            author="X",
            date="2024",
            title="Acme",
            url=f"{local_site}/to-ok",
        ),
        CitationIn(claim="Sales rose 15% at Acme Corp.", url=f"{local_site}/ok"),
        CitationIn(claim="Gone", url=f"{local_site}/gone"),
    ]
    result = await validate_citations(citations, settings, verify_urls=True, check_accuracy=True, today=TODAY)
    first, second, third = result["citations"]
    assert first["url_check"]["reachable"] and first["url_check"]["redirects"] == 1
    assert first["accuracy"]["supported"] is True
    assert second["accuracy"]["numbers_missing"] == ["15"], "the page says 12%, not 15%"
    # issue 20: a different value of the same kind contradicts the claim (a warning in the seed's shape)
    assert second["accuracy"]["verdict"] == "contradicted" and second["accuracy"]["supported"] is False
    assert second["accuracy"]["numbers"][0]["status"] == "different"
    assert ("claim", "contradicted_by_source") in _issues(result, 1)
    assert third["url_check"]["status_code"] == 404 and ("url", "http_error") in _issues(result, 2)
