"""What no SDK client would send, sent raw over stdio: the server answers or ignores it, and keeps serving."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.figures import record_figure
from support.rawrpc import RawPeer, raw_server

ERROR_FORMAT = re.compile(
    r"^Error: (VALIDATION_ERROR|PROCESSING_ERROR|RESOURCE_ERROR|DATA_FORMAT_ERROR|CONFIGURATION_ERROR): "
)

# (label, tool name, raw JSON text of params)
GARBAGE_CALLS = [
    ("arguments is an array", "source-rate", '{"name":"source-rate","arguments":[1,2,3]}'),
    ("arguments is a string", "source-rate", '{"name":"source-rate","arguments":"https://nature.com"}'),
    ("arguments is null", "source-rate", '{"name":"source-rate","arguments":null}'),
    ("name is a number", "source-rate", '{"name":12345,"arguments":{}}'),
    ("name is missing", "source-rate", '{"arguments":{"source_url":"https://nature.com"}}'),
    ("params is an array", "source-rate", "[1,2]"),
    (
        "lone surrogate in a string",
        "fact-extract",
        '{"name":"fact-extract","arguments":{"text":"rev \\ud800 $3bn"}}',
    ),
    (
        "NUL in a string",
        "fact-extract",
        '{"name":"fact-extract","arguments":{"text":"a\\u0000b grew 5% in 2024"}}',
    ),
    (
        "nesting 5000 deep",
        "conflict-detect",
        '{"name":"conflict-detect","arguments":{"facts":' + "[" * 5000 + "]" * 5000 + "}}",
    ),
    (
        "number beyond float",
        "conflict-detect",
        '{"name":"conflict-detect","arguments":{"facts":[],"tolerance":{"numerical_threshold":1e999}}}',
    ),
    (
        "huge integer",
        "batch-source-rate",
        '{"name":"batch-source-rate","arguments":{"items":[],"options":{"maxConcurrency":'
        + "9" * 5000
        + "}}}",
    ),
]

MALFORMED_LINES = [
    b"{not json",
    b"\xff\xfe\x00garbage",
    b"[]",
    b'{"jsonrpc":"2.0"}',
    b"null",
    b'"just a string"',
]


@pytest.fixture(scope="module")
def research_raw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RawPeer]:
    with raw_server("research_mcp", cwd=tmp_path_factory.mktemp("raw-cwd")) as peer:
        yield peer


def answer_is_clean(response: dict) -> bool:
    """A JSON-RPC error, or a tool result that is either a success or in the seed's error format."""
    if "error" in response:
        return isinstance(response["error"].get("code"), int) and "Traceback" not in str(response["error"])
    result = response["result"]
    if not result.get("isError"):
        return True
    text = result["content"][0]["text"]
    return bool(ERROR_FORMAT.match(text)) and "failed unexpectedly" not in text


@pytest.mark.parametrize(("label", "tool", "raw_params"), GARBAGE_CALLS, ids=[g[0] for g in GARBAGE_CALLS])
def test_garbage_tool_calls_get_a_clean_answer(
    research_raw: RawPeer, label: str, tool: str, raw_params: str
) -> None:
    """Every garbage request names its id, so it is answered (a JSON-RPC error or a seed-format error);
    the SDK alone would drop an unreadable line and leave the client waiting. The next call works."""
    garbage_id = research_raw.send_request("tools/call", None, raw_params=raw_params)
    responses = research_raw.responses_until(garbage_id, timeout=60)  # Empty after 60 s: never answered
    ping_id = research_raw.send_request("ping", {})
    responses |= research_raw.responses_until(ping_id)
    assert "result" in responses[ping_id], f"{label}: the server stopped answering"
    assert answer_is_clean(responses[garbage_id]), f"{label}: {str(responses[garbage_id])[:500]}"
    record_figure("raw", {"server": "research_mcp", "case": label, "answered": True})


def test_malformed_lines_do_not_stop_the_server(research_raw: RawPeer) -> None:
    for line in MALFORMED_LINES:
        research_raw.send_raw(line)
    response = research_raw.request(
        "tools/call",
        {"name": "source-rate", "arguments": {"source_url": "https://www.nature.com/articles/x"}},
    )
    assert response["result"]["structuredContent"]["quality_rating"] == "A", (
        "nature.com is A by the seed's criteria"
    )
    assert research_raw.proc.poll() is None


def test_unknown_method_is_a_protocol_error(research_raw: RawPeer) -> None:
    response = research_raw.request("tools/explode", {})
    assert response["error"]["code"] == -32601


def test_server_exits_cleanly_when_stdin_closes(tmp_path: Path) -> None:
    with raw_server("research_mcp", cwd=tmp_path) as peer:
        proc = peer.proc
    assert proc.returncode == 0
    assert list(tmp_path.iterdir()) == []
