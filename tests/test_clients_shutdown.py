"""MCP clients stop servers by closing stdin or sending SIGTERM: each must end the process with status 0.

Claude Desktop, Claude Code and the SDKs close the child's stdin and then send SIGTERM; a
supervisor stops an HTTP replica with SIGTERM; a parent that dies closes the pipe. Each
case here starts the real console entry point, proves it is serving (an initialize answer
over stdio, or an MCP session over HTTP), stops it one way, and waits for the exit status.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from anyio.abc import Process
from anyio.streams.text import TextReceiveStream
from mcp import Client
from support.arxiv_replay import Replay
from support.servers import child_environment, free_port

pytestmark = pytest.mark.anyio

PACKAGES = ["papers_mcp", "research_mcp"]
EXIT_BOUND_SECONDS = (
    20  # a bound on a hang, not a speed target (grace periods: HTTP streams 3 s, tool work 5 s)
)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "shutdown-test", "version": "0"},
    },
}


@asynccontextmanager
async def started(package: str, home: Path, *extra: str) -> AsyncIterator[Process]:
    """``python -m <package> ...`` with pipes on all three streams; killed if a test leaves it running."""
    env = child_environment({"PAPERS_MCP_HOME": str(home)})
    proc = await anyio.open_process([sys.executable, "-m", package, *extra], env=env)
    try:
        yield proc
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await proc.aclose()


async def exit_status(proc: Process) -> int:
    with anyio.fail_after(EXIT_BOUND_SECONDS):
        return await proc.wait()


async def initialize_over_stdio(proc: Process) -> dict[str, object]:
    assert proc.stdin is not None and proc.stdout is not None
    await proc.stdin.send((json.dumps(INITIALIZE) + "\n").encode())
    buffer = ""
    with anyio.fail_after(60):
        async for chunk in TextReceiveStream(proc.stdout):
            buffer += chunk
            if "\n" in buffer:
                break
    answer: dict[str, object] = json.loads(buffer.split("\n", 1)[0])
    return answer


async def wait_for_http(proc: Process) -> None:
    """Read the server's stderr (-v) until uvicorn says it is listening."""
    assert proc.stderr is not None
    seen = ""
    with anyio.fail_after(60):
        async for chunk in TextReceiveStream(proc.stderr):
            seen += chunk
            if "Uvicorn running on" in seen:
                return
    raise AssertionError(f"server ended before listening; stderr: {seen[-2000:]}")


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("stop", ["sigterm", "stdin-close"])
async def test_stdio_server_exits_zero_when_the_client_stops_it(
    package: str, stop: str, tmp_path: Path
) -> None:
    async with started(package, tmp_path) as proc:
        answer = await initialize_over_stdio(proc)
        assert answer.get("id") == 1 and "result" in answer, f"no initialize result: {answer}"
        if stop == "sigterm":
            proc.send_signal(signal.SIGTERM)
        else:
            assert proc.stdin is not None
            await proc.stdin.aclose()
        assert await exit_status(proc) == 0


@pytest.mark.parametrize("package", PACKAGES)
@pytest.mark.parametrize("stop", ["sigterm", "stdin-close"])
async def test_http_server_exits_zero_with_a_client_session_open(
    package: str, stop: str, tmp_path: Path
) -> None:
    port = free_port()
    async with started(package, tmp_path, "--transport", "http", "--port", str(port), "-v") as proc:
        await wait_for_http(proc)
        async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
            await client.list_tools()
            if stop == "sigterm":
                proc.send_signal(signal.SIGTERM)
            else:
                assert proc.stdin is not None
                await proc.stdin.aclose()
            assert await exit_status(proc) == 0


@pytest.mark.parametrize("package", PACKAGES)
async def test_http_server_started_without_a_stdin_pipe_keeps_serving(package: str, tmp_path: Path) -> None:
    """Supervisors give /dev/null as stdin: that EOF must not stop an HTTP server."""
    port = free_port()
    env = child_environment({"PAPERS_MCP_HOME": str(tmp_path)})
    cmd = [sys.executable, "-m", package, "--transport", "http", "--port", str(port), "-v"]
    async with await anyio.open_process(cmd, env=env, stdin=subprocess.DEVNULL) as proc:
        try:
            await wait_for_http(proc)
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                await client.list_tools()
            assert proc.returncode is None, "the server stopped although nobody asked it to"
            proc.send_signal(signal.SIGTERM)
            assert await exit_status(proc) == 0
        finally:
            if proc.returncode is None:
                proc.kill()


def children_of(pid: int) -> list[int]:
    """Live child processes of ``pid`` (Linux /proc; empty elsewhere)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for_helpers(server_pid: int) -> list[int]:
    """The conversion helper processes the server has started (it starts them with each conversion)."""
    if not Path("/proc").is_dir():
        return []
    deadline = time.monotonic() + 60
    while not (helpers := children_of(server_pid)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert helpers, "the server started no conversion helper"
    return helpers


def assert_gone(pids: list[int], home: Path) -> None:
    """Helpers end with their server, and no converted text was stored (the conversion never finished)."""
    deadline = time.monotonic() + EXIT_BOUND_SECONDS
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [pid for pid in pids if alive(pid)], "a conversion helper outlived the server"
    assert not list((home / "text").glob("*.json")), "a partial conversion reached the library"


@pytest.mark.parametrize("stop", ["sigterm", "stdin-close"])
async def test_stdio_server_exits_zero_during_a_pdf_conversion(
    stop: str, replay: Replay, tmp_path: Path
) -> None:
    """A conversion runs in a thread that cannot be cancelled; the stop must not wait for it (60 pages).

    With two conversion workers, the helper process must end with the server and nothing be stored.
    """
    env = child_environment(replay.papers_env(tmp_path / "home", CONVERT_WORKERS="2"))
    proc = await anyio.open_process([sys.executable, "-m", "papers_mcp"], env=env)
    try:
        answer = await initialize_over_stdio(proc)
        assert "result" in answer, answer
        assert proc.stdin is not None and proc.stdout is not None
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "query-paper",
                "arguments": {"arxivID": "arxiv:1311.2542", "level": "body"},
                "_meta": {"progressToken": "p"},
            },
        }
        await proc.stdin.send(
            (json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n").encode()
        )
        await proc.stdin.send((json.dumps(call) + "\n").encode())
        seen = ""
        with anyio.fail_after(300):
            async for chunk in TextReceiveStream(proc.stdout):
                seen += chunk
                if "convert" in seen:  # the progress notification that says the PDF conversion started
                    break
        helpers = await anyio.to_thread.run_sync(wait_for_helpers, proc.pid)
        if stop == "sigterm":
            proc.send_signal(signal.SIGTERM)
        else:
            await proc.stdin.aclose()
        assert await exit_status(proc) == 0
        await anyio.to_thread.run_sync(assert_gone, helpers, tmp_path / "home")
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await proc.aclose()


async def test_http_server_exits_zero_during_a_pdf_conversion(replay: Replay, tmp_path: Path) -> None:
    port = free_port()
    env = child_environment(replay.papers_env(tmp_path / "home", CONVERT_WORKERS="2"))
    cmd = [sys.executable, "-m", "papers_mcp", "--transport", "http", "--port", str(port), "-v"]
    proc = await anyio.open_process(cmd, env=env)
    converting = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        if message and "convert" in message:
            converting.set()

    async def call() -> None:
        try:
            async with Client(f"http://127.0.0.1:{port}/mcp", mode="legacy") as client:
                await client.call_tool(
                    "query-paper",
                    {"arxivID": "arxiv:1311.2542", "level": "body"},
                    progress_callback=on_progress,
                )
        except Exception:  # the server goes away under the call: that is the point
            pass

    try:
        await wait_for_http(proc)
        async with anyio.create_task_group() as tg:
            tg.start_soon(call)
            with anyio.fail_after(300):
                await converting.wait()
            helpers = await anyio.to_thread.run_sync(wait_for_helpers, proc.pid)
            proc.send_signal(signal.SIGTERM)
            assert await exit_status(proc) == 0
            await anyio.to_thread.run_sync(assert_gone, helpers, tmp_path / "home")
            tg.cancel_scope.cancel()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await proc.aclose()
