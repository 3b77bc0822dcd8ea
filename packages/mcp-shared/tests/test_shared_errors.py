"""The seed's error format reaches the client for every kind of failure, over a real stdio transport."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import CallToolResult, TextContent
from mcp_shared import ErrorCode, error_result

pytestmark = pytest.mark.anyio

SAMPLE = Path(__file__).with_name("sample_server.py")


@pytest.fixture(scope="module")
async def sample() -> AsyncIterator[Client]:
    params = StdioServerParameters(command=sys.executable, args=[str(SAMPLE)])
    async with Client(params) as client:
        yield client


def error_text(result: CallToolResult) -> str:
    assert result.is_error, result
    assert len(result.content) == 1 and isinstance(result.content[0], TextContent)
    return result.content[0].text


def test_error_result_has_the_seed_shape() -> None:
    result = error_result(ErrorCode.VALIDATION_ERROR, "text is empty")
    dumped = result.model_dump(by_alias=True, exclude_none=True)
    assert dumped["content"] == [{"type": "text", "text": "Error: VALIDATION_ERROR: text is empty"}]
    assert dumped["isError"] is True


async def test_valid_call_succeeds(sample: Client) -> None:
    result = await sample.call_tool("echo", {"text": "hi", "times": 2})
    assert not result.is_error
    assert result.structured_content == {"text": "hi hi"}


async def test_missing_field_is_a_validation_error_not_the_sdk_wording(sample: Client) -> None:
    text = error_text(await sample.call_tool("echo", {}))
    assert text.startswith("Error: VALIDATION_ERROR: "), text
    assert "text" in text and "Field required" in text
    assert "Error executing tool" not in text and "validation error for" not in text


async def test_wrong_type_is_a_validation_error(sample: Client) -> None:
    text = error_text(await sample.call_tool("echo", {"text": "hi", "times": "many"}))
    assert text.startswith("Error: VALIDATION_ERROR: ") and "times" in text


async def test_bad_enum_value_is_a_validation_error(sample: Client) -> None:
    text = error_text(await sample.call_tool("echo", {"text": "hi", "mode": "whisper"}))
    assert text.startswith("Error: VALIDATION_ERROR: ") and "mode" in text


async def test_unknown_argument_is_a_validation_error(sample: Client) -> None:
    text = error_text(await sample.call_tool("echo", {"text": "hi", "volume": 11}))
    assert text.startswith("Error: VALIDATION_ERROR: ") and "volume" in text


async def test_unknown_tool_is_a_validation_error(sample: Client) -> None:
    text = error_text(await sample.call_tool("no-such-tool", {}))
    assert text.startswith("Error: VALIDATION_ERROR: ") and "no-such-tool" in text


async def test_tool_failure_keeps_its_code(sample: Client) -> None:
    text = error_text(await sample.call_tool("refuse", {"reason": "arXiv"}))
    assert text == "Error: RESOURCE_ERROR: cannot reach arXiv"


async def test_unexpected_exception_is_a_processing_error_without_traceback(sample: Client) -> None:
    text = error_text(await sample.call_tool("crash", {}))
    assert text.startswith("Error: PROCESSING_ERROR: crash failed unexpectedly")
    assert "Traceback" not in text and 'File "' not in text


async def test_server_keeps_serving_after_failures(sample: Client) -> None:
    for _ in range(3):
        await sample.call_tool("crash", {})
        await sample.call_tool("echo", {})
    result = await sample.call_tool("echo", {"text": "still here"})
    assert result.structured_content == {"text": "still here"}
