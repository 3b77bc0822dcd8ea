"""The one error path both servers share.

Expected failures (bad input, an unreachable service, a broken document) are tool
*results* the model reads, in seed 004's format::

    {"content": [{"type": "text", "text": "Error: <CODE>: <message>"}], "isError": true}

Hierarchy: ``ToolFailure`` (raised by tool code, carries an ``ErrorCode``) subclasses
the SDK's ``ToolError`` so the SDK treats it as anticipated. ``GuardedMCPServer``
(in ``server.py``) turns every failure, including the SDK's own argument errors and
unexpected exceptions, into ``error_result``.
"""

from __future__ import annotations

from enum import StrEnum

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent

__all__ = ["ErrorCode", "ToolFailure", "error_result", "error_text"]


class ErrorCode(StrEnum):
    """The five codes of seed 004."""

    VALIDATION_ERROR = "VALIDATION_ERROR"
    PROCESSING_ERROR = "PROCESSING_ERROR"
    RESOURCE_ERROR = "RESOURCE_ERROR"
    DATA_FORMAT_ERROR = "DATA_FORMAT_ERROR"
    CONFIGURATION_ERROR = "CONFIGURATION_ERROR"


class ToolFailure(ToolError):
    """An anticipated failure that the model should read and act on."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


def error_text(code: ErrorCode, message: str) -> str:
    """The text of an error result: ``Error: <CODE>: <message>``."""
    return f"Error: {code}: {message}"


def error_result(code: ErrorCode, message: str) -> CallToolResult:
    """Render a failure as the seed's ``isError`` result."""
    return CallToolResult(content=[TextContent(type="text", text=error_text(code, message))], is_error=True)
