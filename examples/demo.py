"""``make demo``: mount both servers in one MCP client session over stdio and show what they offer.

This grows into the full research workflow (resolve a paper, read it, extract facts and
entities, rate sources, validate citations, detect conflicts) as the servers gain tools.
"""

from __future__ import annotations

import sys
import tempfile

import anyio
from mcp import Client, StdioServerParameters


async def list_server(package: str, home: str) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", package], env={"PAPERS_MCP_HOME": home}
    )
    async with Client(params) as client:
        info = client.server_info
        tools = (await client.list_tools()).tools
        name = info.name if info else package
        version = info.version if info else "?"
        print(f"{name} {version}: {len(tools)} tools")
        for tool in tools:
            first_line = (tool.description or "").strip().splitlines()[0] if tool.description else ""
            print(f"  - {tool.name}: {first_line}")


async def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        for package in ("papers_mcp", "research_mcp"):
            await list_server(package, home)


if __name__ == "__main__":
    anyio.run(main)
