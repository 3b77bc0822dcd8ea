"""A small GuardedMCPServer for mcp-shared's tests, run as a real stdio subprocess."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp_shared import ErrorCode, GuardedMCPServer, ToolFailure
from pydantic import Field


def build() -> GuardedMCPServer:
    server = GuardedMCPServer("sample")

    @server.tool(name="echo")
    def echo(
        text: Annotated[str, Field(min_length=1)], times: int = 1, mode: Literal["plain", "loud"] = "plain"
    ) -> dict[str, str]:
        out = " ".join([text] * times)
        return {"text": out.upper() if mode == "loud" else out}

    @server.tool(name="refuse")
    def refuse(reason: str) -> str:
        raise ToolFailure(ErrorCode.RESOURCE_ERROR, f"cannot reach {reason}")

    @server.tool(name="crash")
    def crash() -> str:
        raise ZeroDivisionError("secret internal detail")

    return server


if __name__ == "__main__":
    build().run("stdio")
