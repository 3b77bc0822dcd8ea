"""Start-up stays light: building the server and listing tools import neither arxiv nor PyMuPDF."""

from __future__ import annotations

import subprocess
import sys

import pytest
from mcp_shared import ToolFailure
from papers_mcp.settings import Settings

HEAVY = ("arxiv", "pymupdf", "pymupdf4llm", "fitz", "requests", "lxml")

PROBE = f"""
import sys
from papers_mcp import Settings, build_server
build_server(Settings())
print(",".join(sorted(m for m in sys.modules if m.split(".")[0] in {HEAVY!r})))
"""


def test_building_the_server_imports_no_heavy_library() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "", f"imported at start-up: {done.stdout.strip()}"


def test_settings_read_every_variable() -> None:
    settings = Settings.from_env(
        {
            "PAPERS_MCP_ARXIV_API_URL": "http://127.0.0.1:9/api/query",
            "PAPERS_MCP_PDF_URL": "http://127.0.0.1:9/pdf/",
            "PAPERS_MCP_HOME": "/tmp/papers-home",
            "PAPERS_MCP_MIN_INTERVAL_SECONDS": "0",
            "PAPERS_MCP_TIMEOUT_SECONDS": "2.5",
            "PAPERS_MCP_MAX_RETRIES": "5",
            "PAPERS_MCP_RETRY_BACKOFF_SECONDS": "0.5",
            "PAPERS_MCP_MAX_PDF_MB": "1",
            "PAPERS_MCP_MAX_ANSWER_TOKENS": "8000",
        }
    )
    assert settings.arxiv_api_url == "http://127.0.0.1:9/api/query"
    assert settings.pdf_url == "http://127.0.0.1:9/pdf/"
    assert str(settings.home) == "/tmp/papers-home"
    assert settings.min_interval_seconds == 0
    assert settings.timeout_seconds == 2.5
    assert settings.max_retries == 5
    assert settings.retry_backoff_seconds == 0.5
    assert settings.max_pdf_bytes == 1024 * 1024
    assert settings.max_answer_tokens == 8000


def test_defaults_keep_arxivs_one_request_every_three_seconds() -> None:
    settings = Settings.from_env({})
    assert settings.arxiv_api_url == "https://export.arxiv.org/api/query"  # SPEC.md
    assert settings.pdf_url == "https://arxiv.org/pdf/"  # SPEC.md
    assert settings.min_interval_seconds == 3.0
    assert settings.max_answer_tokens == 20_000
    assert settings.html_url == "https://arxiv.org/html/"  # issue 13
    assert settings.ar5iv_url == "https://ar5iv.labs.arxiv.org/html/"


def test_html_routes_are_configurable_and_ar5iv_can_be_switched_off() -> None:
    settings = Settings.from_env(
        {"PAPERS_MCP_HTML_URL": "http://127.0.0.1:9/html/", "PAPERS_MCP_AR5IV_URL": "http://127.0.0.1:9/a/"}
    )
    assert (settings.html_url, settings.ar5iv_url) == ("http://127.0.0.1:9/html/", "http://127.0.0.1:9/a/")
    assert Settings.from_env({"PAPERS_MCP_AR5IV_URL": ""}).ar5iv_url == ""
    assert Settings.from_env({"PAPERS_MCP_HTML_URL": ""}).html_url == "https://arxiv.org/html/"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("PAPERS_MCP_TIMEOUT_SECONDS", "soon"),
        ("PAPERS_MCP_MIN_INTERVAL_SECONDS", "-1"),
        ("PAPERS_MCP_HTML_URL", "file:///etc/passwd"),
        ("PAPERS_MCP_AR5IV_URL", "ar5iv.labs.arxiv.org/html/"),
    ],
)
def test_a_malformed_variable_is_a_configuration_error(name: str, value: str) -> None:
    with pytest.raises(ToolFailure) as info:
        Settings.from_env({name: value})
    assert info.value.code == "CONFIGURATION_ERROR"
