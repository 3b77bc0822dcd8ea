"""Hostile URLs through citation-validate over MCP: nothing private is ever fetched.

Each URL points (directly, in another notation, or by a name that resolves there) at a
loopback, private, link-local or metadata address. With the default settings every one is
refused, and a listening server on 127.0.0.1 proves that no request reached it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from mcp import Client
from support.figures import record_figure
from support.hostile_http import Hostile, serve_hostile
from support.servers import server_client

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def listener() -> Iterator[Hostile]:
    with serve_hostile() as state:
        state.modes["x"] = "ok_html_page"
        yield state


def hostile_urls(port: int) -> list[str]:
    return [
        f"http://127.0.0.1:{port}/x",
        f"http://localhost:{port}/x",
        f"http://LOCALHOST.:{port}/x",
        f"http://127.1:{port}/x",
        f"http://2130706433:{port}/x",
        f"http://0177.0.0.1:{port}/x",
        f"http://0x7f.0.0.1:{port}/x",
        f"http://0x7f000001:{port}/x",
        f"http://[::1]:{port}/x",
        f"http://[::ffff:127.0.0.1]:{port}/x",
        f"http://[0:0:0:0:0:0:0:1]:{port}/x",
        f"http://0.0.0.0:{port}/x",
        f"http://user:pw@127.0.0.1:{port}/x",
        f"http://www.nature.com@127.0.0.1:{port}/x",
        "http://10.0.0.1/",
        "http://10.255.255.254:8080/admin",
        "http://172.16.0.1/",
        "http://172.31.255.255/",
        "http://192.168.0.1/router",
        "http://169.254.169.254/latest/meta-data/",
        "http://[fe80::1]/",
        "http://[fd00::1]/",
        "http://metadata.google.internal./computeMetadata/v1/",
        "http://100.100.100.200/latest/meta-data/",
    ]


@pytest.fixture(scope="module")
async def research() -> AsyncIterator[Client]:
    async with server_client("research_mcp", env={"RESEARCH_MCP_HTTP_TIMEOUT": "3"}) as client:
        yield client


async def test_hostile_urls_are_refused_and_never_fetched(research: Client, listener: Hostile) -> None:
    port = int(listener.base_url.rsplit(":", 1)[1])
    urls = hostile_urls(port)
    citations = [{"claim": "Acme Corp revenue reached $3.2 billion in 2024", "url": u} for u in urls]
    result = await research.call_tool(
        "citation-validate", {"citations": citations, "verify_urls": True, "check_accuracy": True}
    )
    assert not result.is_error
    data = result.structured_content
    assert data is not None
    refused = []
    for index, url in enumerate(urls):
        check = data["citations"][index].get("url_check") or {}
        assert not check.get("reachable"), f"{url} was fetched: {check}"
        refused.append(url)
    assert listener.hits == 0, "a request reached the 127.0.0.1 listener"
    record_figure("urls", {"tried": len(urls), "refused": len(refused), "listener_hits": listener.hits})


async def test_the_same_urls_are_fetched_when_private_urls_are_allowed(listener: Hostile) -> None:
    """The control: with the explicit setting, the loopback listener is reachable, so the refusals above are real."""
    url = f"{listener.base_url}/x/page"
    env = {"RESEARCH_MCP_ALLOW_PRIVATE_URLS": "1", "RESEARCH_MCP_HTTP_TIMEOUT": "3"}
    async with server_client("research_mcp", env=env) as client:
        result = await client.call_tool(
            "citation-validate",
            {"citations": [{"claim": "revenue of $3.2 billion", "url": url}], "verify_urls": True},
        )
    assert result.structured_content is not None
    assert result.structured_content["citations"][0]["url_check"]["reachable"] is True
    assert listener.hits >= 1
