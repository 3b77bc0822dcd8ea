"""An independent client: the official TypeScript MCP SDK drives both servers over stdio and streamable HTTP.

For each server, for each tool in ``tools/list``, ``tests/ts-client/drive.mjs`` makes one valid
and one invalid call taken from ``tests/ts-client/calls.json``. The same calls are made with
the Python SDK's ``Client`` (each client gets its own fresh server process, so cache counters
line up), and the tool list, the results (text and structured content) and the error format
must be the same, timing fields aside. The MCP Inspector's CLI mode lists and calls tools too.

Node dependencies come from the committed ``package-lock.json`` (``npm ci``). Without ``node``
the module is skipped with a loud reason, except under ``CI=true`` where it fails.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.dispatcher import ProgressFnT
from mcp_shared import ErrorCode
from support.arxiv_replay import Replay
from support.required import missing
from support.servers import REPO_ROOT, child_environment, http_server

pytestmark = pytest.mark.anyio

TS_DIR = REPO_ROOT / "tests" / "ts-client"
CALLS: dict[str, dict[str, Any]] = json.loads((TS_DIR / "calls.json").read_text())
SERVERS = {"papers-mcp": "papers_mcp", "research-mcp": "research_mcp"}
TRANSPORTS = ["stdio", "http", "http-stateless"]
TIMING_KEYS = {"processing_time_ms", "processingTimeMs", "totalTimeMs", "avgTimeMs"}
ERROR_TEXT = re.compile(r"^Error: (?P<code>[A-Z_]+): \S")
SEED_CODES = {code.value for code in ErrorCode}


def npm_ci() -> None:
    """Install the pinned node packages unless node_modules already matches the lockfile."""
    lock = TS_DIR / "package-lock.json"
    installed = TS_DIR / "node_modules" / ".package-lock.json"
    if installed.is_file() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    npm = shutil.which("npm")
    assert npm is not None, "node is installed but npm is not"
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=TS_DIR,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"npm ci in tests/ts-client failed:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def node() -> str:
    path = shutil.which("node")
    if path is None:
        message = (
            "NODE.JS NOT FOUND: the TypeScript-SDK client tests did not run. "
            "Install Node.js >= 20 to run them (CI requires them)."
        )
        missing(message)
    npm_ci()
    return path


@pytest.fixture(scope="module")
def server_env(replay: Replay, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """``server_env(server)``: a fresh environment (papers-mcp: its own empty home) for one server process."""

    def make(server: str) -> dict[str, str]:
        if server == "papers-mcp":
            return replay.papers_env(tmp_path_factory.mktemp("papers-home"))
        return {}

    return make


def normalise(value: Any) -> Any:
    """Drop timing fields and nulls at every depth; parse text content that is JSON, so both compare as data."""
    if isinstance(value, dict):
        out = {k: normalise(v) for k, v in value.items() if k not in TIMING_KEYS and v is not None}
        if out.get("type") == "text" and isinstance(out.get("text"), str):
            with contextlib.suppress(json.JSONDecodeError):
                out["text"] = normalise(json.loads(out["text"]))
        return out
    if isinstance(value, list):
        return [normalise(v) for v in value]
    return value


def normalise_result(result: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = normalise(result)
    out.setdefault("isError", False)
    return {k: out[k] for k in ("content", "structuredContent", "isError") if k in out}


def entry_for(server: str, tool: str) -> dict[str, Any]:
    entry: dict[str, Any] | None = CALLS[server].get(tool)
    assert entry is not None, (
        f"{server} lists tool {tool!r} but tests/ts-client/calls.json has no entry for it: "
        "add one valid and one invalid call"
    )
    return entry


def progress_recorder(into: list[dict[str, Any]]) -> ProgressFnT:
    """A progress callback that appends each notification to ``into``."""

    async def record(progress: float, total: float | None, message: str | None) -> None:
        into.append({"progress": progress, "total": total, "message": message})

    return record


async def python_view(server: str, env: dict[str, str]) -> dict[str, Any]:
    """What the Python SDK's Client sees: tools, instructions and every table call, in list order."""
    params = StdioServerParameters(
        command=sys.executable, args=["-m", SERVERS[server]], env=child_environment(env)
    )
    view: dict[str, Any] = {"calls": []}
    async with Client(params, read_timeout_seconds=120) as client:
        view["instructions"] = client.instructions
        tools = (await client.list_tools()).tools
        view["tools"] = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in tools]
        for tool in tools:
            entry = CALLS[server].get(tool.name)
            if entry is None:
                continue
            for kind in ("valid", "invalid"):
                seen: list[dict[str, Any]] = []
                result = await client.call_tool(
                    tool.name, entry[kind]["arguments"], progress_callback=progress_recorder(seen)
                )
                dumped = result.model_dump(by_alias=True, exclude_none=True, mode="json")
                view["calls"].append({"tool": tool.name, "kind": kind, "result": dumped, "progress": seen})
    return view


def ts_view(node: str, server: str, transport: str, env: dict[str, str], tmp_path: Path) -> dict[str, Any]:
    """What the TypeScript SDK's Client sees, via drive.mjs, over ``transport``."""
    spec: dict[str, Any] = {"server": server, "transport": "stdio" if transport == "stdio" else "http"}

    def run() -> dict[str, Any]:
        spec_file = tmp_path / f"spec-{server}-{transport}.json"
        spec_file.write_text(json.dumps(spec))
        done = subprocess.run(
            [node, str(TS_DIR / "drive.mjs"), str(spec_file)],
            cwd=TS_DIR,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"drive.mjs failed ({done.returncode}):\n{done.stderr[-4000:]}"
        view: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return view

    if transport == "stdio":
        spec.update(command=sys.executable, args=["-m", SERVERS[server]], env=child_environment(env))
        return run()
    with http_server(SERVERS[server], env, stateless=transport == "http-stateless") as url:
        spec["url"] = url
        return run()


@pytest.fixture(scope="module")
async def python_views(server_env: Any) -> dict[str, dict[str, Any]]:
    return {server: await python_view(server, server_env(server)) for server in SERVERS}


@pytest.fixture(scope="module")
def ts_views(
    node: str, server_env: Any, tmp_path_factory: pytest.TempPathFactory
) -> dict[tuple[str, str], dict[str, Any]]:
    """Each (server, transport) run once, lazily, shared by the tests below."""
    cache: dict[tuple[str, str], dict[str, Any]] = {}
    tmp = tmp_path_factory.mktemp("ts-specs")

    class Lazy(dict[tuple[str, str], dict[str, Any]]):
        def __missing__(self, key: tuple[str, str]) -> dict[str, Any]:
            cache[key] = ts_view(node, key[0], key[1], server_env(key[0]), tmp)
            self[key] = cache[key]
            return cache[key]

    return Lazy()


CASES = [(server, transport) for server in SERVERS for transport in TRANSPORTS]


@pytest.mark.parametrize("server", list(SERVERS))
async def test_call_table_covers_every_listed_tool(
    python_views: dict[str, dict[str, Any]], server: str
) -> None:
    names = [t["name"] for t in python_views[server]["tools"]]
    assert names, f"{server} lists no tools"
    for name in names:
        entry = entry_for(server, name)
        assert {"valid", "invalid"} <= set(entry), f"calls.json[{server}][{name}] needs 'valid' and 'invalid'"
    stale = sorted(set(CALLS[server]) - set(names))
    assert not stale, f"calls.json has entries for tools {server} does not list: {stale}"


@pytest.mark.parametrize("server", list(SERVERS))
async def test_every_tool_says_what_it_does_to_the_world(
    python_views: dict[str, dict[str, Any]], server: str
) -> None:
    """The issue: read-only and idempotent where true; open-world for tools that reach the network."""
    for tool in python_views[server]["tools"]:
        hints = tool.get("annotations", {})
        for hint in ("readOnlyHint", "idempotentHint", "openWorldHint"):
            assert isinstance(hints.get(hint), bool), f"{server} {tool['name']} lacks {hint}: {hints}"
    by_name = {t["name"]: t["annotations"] for t in python_views[server]["tools"]}
    if server == "papers-mcp":  # every tool reaches arXiv or a scholarly index
        assert all(h["openWorldHint"] and h["readOnlyHint"] for h in by_name.values()), by_name
    else:  # only citation checking can fetch URLs; cache-clear changes server state
        assert by_name["citation-validate"]["openWorldHint"] is True
        assert by_name["fact-extract"]["openWorldHint"] is False
        assert by_name["cache-clear"]["readOnlyHint"] is False
        assert by_name["cache-stats"]["readOnlyHint"] is True


async def test_papers_instructions_say_resolve_first_then_query(
    python_views: dict[str, dict[str, Any]],
) -> None:
    text = python_views["papers-mcp"]["instructions"] or ""
    assert "resolve-paper-id" in text and "query-paper" in text, text
    assert text.index("resolve-paper-id") < text.index("query-paper"), (
        "instructions should put resolving first"
    )


async def test_research_instructions_name_the_tools(python_views: dict[str, dict[str, Any]]) -> None:
    text = python_views["research-mcp"]["instructions"] or ""
    for tool in ("fact-extract", "entity-extract", "source-rate", "citation-validate", "conflict-detect"):
        assert tool in text, f"research-mcp instructions do not mention {tool}"


@pytest.mark.parametrize(("server", "transport"), CASES)
async def test_typescript_client_sees_the_same_tools_and_instructions(
    python_views: dict[str, dict[str, Any]],
    ts_views: dict[tuple[str, str], dict[str, Any]],
    server: str,
    transport: str,
) -> None:
    ts = ts_views[server, transport]
    assert ts["serverInfo"]["name"] == server
    # TS SDK 1.32.2 offers 2025-11-25, its newest; the Python 2.3 server accepts it (handshake era).
    assert ts["protocolVersion"] == "2025-11-25"
    assert ts["missing"] == [], f"calls.json lacks entries for {ts['missing']}"
    assert normalise(ts["tools"]) == normalise(python_views[server]["tools"])
    assert ts["instructions"] == python_views[server]["instructions"]


@pytest.mark.parametrize(("server", "transport"), CASES)
async def test_typescript_client_gets_the_same_results(
    python_views: dict[str, dict[str, Any]],
    ts_views: dict[tuple[str, str], dict[str, Any]],
    server: str,
    transport: str,
) -> None:
    ts_calls = ts_views[server, transport]["calls"]
    py_calls = python_views[server]["calls"]
    assert [(c["tool"], c["kind"]) for c in ts_calls] == [(c["tool"], c["kind"]) for c in py_calls]
    for ts_call, py_call in zip(ts_calls, py_calls, strict=True):
        label = f"{server} {ts_call['tool']} ({ts_call['kind']}) over {transport}"
        assert "error" not in ts_call, f"{label}: the TypeScript client raised {ts_call['error']}"
        assert normalise_result(ts_call["result"]) == normalise_result(py_call["result"]), label
        # Same progress notifications, in order. The TypeScript SDK (1.32.2) dispatches notifications
        # in a microtask but responses at once, so the ones that arrive in the same read as the
        # response are dropped ("unknown token"): what it reports is a prefix of what was sent.
        ts_progress, py_progress = normalise(ts_call["progress"]), normalise(py_call["progress"])
        assert ts_progress == py_progress[: len(ts_progress)], f"{label}: progress notifications differ"


@pytest.mark.parametrize(("server", "transport"), CASES)
async def test_valid_calls_succeed_and_invalid_calls_fail_in_the_seed_format(
    ts_views: dict[tuple[str, str], dict[str, Any]], server: str, transport: str
) -> None:
    tools = {t["name"]: t for t in ts_views[server, transport]["tools"]}
    for call in ts_views[server, transport]["calls"]:
        label = f"{server} {call['tool']} ({call['kind']}) over {transport}"
        result = call["result"]
        content = result["content"]
        assert content and content[0]["type"] == "text", label
        if call["kind"] == "valid":
            assert not result.get("isError"), f"{label} failed: {content[0]['text'][:500]}"
            if "outputSchema" in tools[call["tool"]]:
                assert isinstance(result.get("structuredContent"), dict), f"{label}: no structured content"
        else:
            assert result.get("isError") is True, f"{label} did not fail: {content[0]['text'][:300]}"
            assert len(content) == 1 and "structuredContent" not in result, label
            match = ERROR_TEXT.match(content[0]["text"])
            assert match and match["code"] in SEED_CODES, (
                f"{label}: not 'Error: <CODE>: ...': {content[0]['text']}"
            )
            assert match["code"] == CALLS[server][call["tool"]]["invalid"]["code"], label


def inspector(args: list[str], env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run the MCP Inspector in CLI mode (``mcp-inspector-cli --cli ...``) and parse its JSON output.

    The working directory is node_modules: inspector-cli 1.0.3 looks for its own package.json with
    ``fs.existsSync("../package.json")``, relative to the working directory, then imports that path
    relative to its module; from node_modules both resolve to a real file.
    """
    done = subprocess.run(
        [str(TS_DIR / "node_modules" / ".bin" / "mcp-inspector-cli"), "--cli", *args],
        cwd=TS_DIR / "node_modules",
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert done.returncode == 0, f"inspector failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    out: dict[str, Any] = json.loads(done.stdout[done.stdout.index("{") :])
    return out


@pytest.mark.parametrize("server", list(SERVERS))
@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_inspector_cli_lists_the_same_tools(
    node: str, python_views: dict[str, dict[str, Any]], server_env: Any, server: str, transport: str
) -> None:
    env = server_env(server)
    if transport == "stdio":
        env_args = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
        listed = inspector([*env_args, sys.executable, "-m", SERVERS[server], "--method", "tools/list"])
    else:
        with http_server(SERVERS[server], env) as url:
            listed = inspector([url, "--transport", "http", "--method", "tools/list"])
    assert normalise(listed["tools"]) == normalise(python_views[server]["tools"])


@pytest.mark.parametrize(
    ("server", "tool", "args"),
    [
        ("research-mcp", "source-rate", {"source_url": "https://arxiv.org/abs/1706.03762"}),
        ("papers-mcp", "query-paper", {"arxivID": "arxiv:1706.03762", "level": "abstract"}),
    ],
)
async def test_inspector_cli_calls_a_tool_like_the_python_client(
    node: str, server_env: Any, server: str, tool: str, args: dict[str, str]
) -> None:
    env = server_env(server)
    env_args = [arg for key, value in env.items() for arg in ("-e", f"{key}={value}")]
    tool_args = [f"{key}={value}" for key, value in args.items()]
    called = await anyio.to_thread.run_sync(
        inspector,
        [
            *env_args,
            sys.executable,
            "-m",
            SERVERS[server],
            "--method",
            "tools/call",
            "--tool-name",
            tool,
            "--tool-arg",
            *tool_args,
        ],
    )
    params = StdioServerParameters(
        command=sys.executable, args=["-m", SERVERS[server]], env=child_environment(server_env(server))
    )
    async with Client(params) as client:
        expected = (await client.call_tool(tool, args)).model_dump(
            by_alias=True, exclude_none=True, mode="json"
        )
    assert normalise_result(called) == normalise_result(expected)
