"""``GuardedMCPServer``: an ``MCPServer`` whose every tool failure has seed 004's shape.

``MCPServer`` words failures its own way (``Error executing tool <name>: 1 validation
error for ...``, ``Unknown tool: x``) and ignores unknown arguments. This subclass
decides once, for both servers, how each reaches the model:

- unknown tool, unknown argument, schema failure  -> VALIDATION_ERROR, fields named
- ``ToolFailure`` raised by the tool               -> its own code and message
- anything else                                    -> PROCESSING_ERROR; traceback to the log only
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult
from pydantic import ValidationError

from .errors import ErrorCode, ToolFailure, error_result
from .validation import describe_validation_error

__all__ = ["GuardedMCPServer"]

logger = logging.getLogger(__name__)

_MAX_DETAIL = 300


def _root_cause(exc: BaseException) -> BaseException:
    seen: set[int] = set()
    while exc.__cause__ is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ToolFailure):
            return exc
        exc = exc.__cause__
    return exc


class GuardedMCPServer(MCPServer[Any]):
    """``MCPServer`` with one error path: every failure becomes an ``Error: <CODE>: ...`` result.

    ``readiness_checks`` (name -> a blocking check) is what the HTTP transport's
    ``/healthz/ready`` runs; a server sharing state in Redis registers a Redis ping there.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.readiness_checks: dict[str, Callable[[], bool]] = {}

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            return error_result(ErrorCode.VALIDATION_ERROR, f"unknown tool {name!r}")
        allowed = set(tool.parameters.get("properties", {}))
        unknown = sorted(set(arguments) - allowed)
        if unknown:
            expected = ", ".join(sorted(allowed)) or "none"
            return error_result(
                ErrorCode.VALIDATION_ERROR,
                f"unknown argument(s) for {name}: {', '.join(unknown)} (expected: {expected})",
            )
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            return self._failure_result(name, exc)

    def _failure_result(self, name: str, exc: ToolError) -> CallToolResult:
        cause = _root_cause(exc)
        if isinstance(cause, ToolFailure):
            logger.info("%s failed: %s", name, cause)
            return error_result(cause.code, cause.message)
        if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
            logger.info("%s rejected its arguments", name)
            return error_result(
                ErrorCode.VALIDATION_ERROR,
                f"invalid arguments for {name}: {describe_validation_error(cause)}",
            )
        if isinstance(exc, UnexpectedToolError):
            logger.error("%s raised an unexpected exception", name, exc_info=cause)
            detail = f"{type(cause).__name__}: {cause}"[:_MAX_DETAIL]
            return error_result(ErrorCode.PROCESSING_ERROR, f"{name} failed unexpectedly ({detail})")
        logger.info("%s failed: %s", name, exc)
        return error_result(ErrorCode.PROCESSING_ERROR, str(exc))
