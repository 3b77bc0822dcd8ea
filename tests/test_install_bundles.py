"""One-click installs: the MCP Bundles ``make bundles`` builds and the registry's ``server.json`` files.

The bundles are built once for this module, the way ``make bundles`` builds them, with the
pinned official MCPB CLI. Each is unpacked with that CLI, its manifest passes ``mcpb validate``,
and the server starts the way a host starts it: the MCPB library's own
``getMcpConfigForManifest`` turns the manifest's ``mcp_config`` and a person's settings into the
command (``examples/bundles/mcp-config.mjs``), which runs over stdio with the Python MCP client.
Expected values come from the issue (what a person may set), the workspace's ``uv.lock`` and
pyproject versions, and the servers as the workspace runs them. ``server.json`` is validated
against the registry's published schema, vendored in ``examples/bundles/registry/``.

Without ``node`` the module is skipped with a loud reason, except under ``CI=true`` where it fails.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent
from support.arxiv_replay import Replay
from support.required import missing
from support.servers import REPO_ROOT

pytestmark = pytest.mark.anyio

BUNDLES_DIR = REPO_ROOT / "examples" / "bundles"
SERVERS = {"papers-mcp": "papers_mcp", "research-mcp": "research_mcp"}
# The issue: the library folder, a contact e-mail for the polite API pools, API keys (sensitive).
PERSONAL_SETTINGS = {
    "papers-mcp": {"library_folder", "contact_email", "s2_api_key"},
    "research-mcp": {"contact_email"},
}
SENSITIVE = {"s2_api_key"}
SEED_ERROR = re.compile(r"^Error: (?P<code>[A-Z_]+): \S")
CALLS = json.loads((REPO_ROOT / "tests" / "ts-client" / "calls.json").read_text())


def version_of(server: str) -> str:
    text = (REPO_ROOT / "packages" / server / "pyproject.toml").read_text()
    version: str = tomllib.loads(text)["project"]["version"]
    return version


@pytest.fixture(scope="module")
def node() -> str:
    path = shutil.which("node")
    if path is None or shutil.which("npm") is None:
        message = (
            "NODE.JS NOT FOUND: the MCP Bundle tests did not run. Install Node.js >= 20 (CI requires them)."
        )
        missing(message)
    return path


@pytest.fixture(scope="module")
def built(node: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make bundles`` into a scratch folder: ``bundles/*.mcpb`` and ``registry/<server>/server.json``."""
    out = tmp_path_factory.mktemp("make-bundles")
    done = subprocess.run(
        [
            sys.executable,
            str(BUNDLES_DIR / "build.py"),
            *("--out", str(out / "bundles"), "--registry-out", str(out / "registry")),
        ],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"make bundles failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    return out


def mcpb(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BUNDLES_DIR / "node_modules" / ".bin" / "mcpb"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture(scope="module")
def unpacked(built: Path) -> dict[str, Path]:
    """Each bundle unpacked with ``mcpb unpack``, as a host installs it."""
    out = {}
    for server in SERVERS:
        bundle = built / "bundles" / f"{server}-{version_of(server)}.mcpb"
        assert bundle.is_file(), f"make bundles made no {bundle.name}: {sorted(os.listdir(bundle.parent))}"
        target = built / "unpacked" / server
        done = mcpb("unpack", str(bundle), str(target))
        assert done.returncode == 0, done.stderr
        out[server] = target
    return out


def manifest_of(unpacked: dict[str, Path], server: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((unpacked[server] / "manifest.json").read_text())
    return data


def host_config(node: str, bundle: Path, home: Path, user_config: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [node, str(BUNDLES_DIR / "mcp-config.mjs"), str(bundle), str(home), json.dumps(user_config)],
        cwd=BUNDLES_DIR,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = json.loads(done.stdout)
    return config


def test_make_bundles_builds_one_bundle_per_server(built: Path) -> None:
    names = sorted(p.name for p in (built / "bundles").iterdir())
    assert names == sorted(f"{server}-{version_of(server)}.mcpb" for server in SERVERS)


@pytest.mark.parametrize("server", SERVERS)
def test_mcpb_validate_passes(unpacked: dict[str, Path], server: str) -> None:
    done = mcpb("validate", str(unpacked[server] / "manifest.json"))
    assert done.returncode == 0 and "passes" in done.stdout, done.stdout + done.stderr


def test_mcpb_validate_can_fail(unpacked: dict[str, Path], tmp_path: Path) -> None:
    broken = manifest_of(unpacked, "papers-mcp")
    broken["server"]["type"] = "conda"
    (tmp_path / "manifest.json").write_text(json.dumps(broken))
    assert mcpb("validate", str(tmp_path / "manifest.json")).returncode != 0


@pytest.mark.parametrize("server", SERVERS)
def test_bundle_uses_the_uv_runtime_with_the_workspace_lock(unpacked: dict[str, Path], server: str) -> None:
    manifest = manifest_of(unpacked, server)
    assert manifest["server"]["type"] == "uv" and manifest["version"] == version_of(server)
    folder = unpacked[server]
    assert (folder / "pyproject.toml").is_file() and (folder / manifest["server"]["entry_point"]).is_file()
    assert not (folder / "server" / "lib").exists() and not (folder / "server" / "venv").exists()
    bundle_lock = tomllib.loads((folder / "uv.lock").read_text())["package"]
    workspace_lock = tomllib.loads((REPO_ROOT / "uv.lock").read_text())["package"]
    workspace = {p["name"]: p["version"] for p in workspace_lock}
    versions = {p["name"]: p["version"] for p in bundle_lock}
    assert {"mcp", "mcp-shared", server} <= set(versions)
    differ = {n: (v, workspace.get(n)) for n, v in versions.items() if n in workspace and workspace[n] != v}
    assert not differ, f"the {server} bundle locks other versions than the workspace: {differ}"


@pytest.mark.parametrize("server", SERVERS)
def test_user_config_holds_only_what_a_person_sets(unpacked: dict[str, Path], server: str) -> None:
    manifest = manifest_of(unpacked, server)
    user_config = manifest["user_config"]
    assert set(user_config) == PERSONAL_SETTINGS[server]
    for key, option in user_config.items():
        assert option.get("sensitive", False) == (key in SENSITIVE), key
        assert option.get("required", False) is False, key
    used = {
        m
        for value in manifest["server"]["mcp_config"]["env"].values()
        for m in re.findall(r"user_config\.(\w+)", value)
    }
    assert used == set(user_config), "every setting reaches the server's environment, and nothing else"


@pytest.mark.parametrize("server", SERVERS)
def test_without_settings_no_placeholder_reaches_the_server(
    node: str, unpacked: dict[str, Path], server: str, tmp_path: Path
) -> None:
    config = host_config(node, unpacked[server], tmp_path, {})
    assert config["env"] and all("${" not in value for value in config["env"].values()), config["env"]


@pytest.mark.parametrize("server", SERVERS)
async def test_unpacked_bundle_starts_as_the_manifest_says_and_lists_its_tools(
    node: str, unpacked: dict[str, Path], server: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    manifest = manifest_of(unpacked, server)
    settings = {"library_folder": str(tmp_path / "library")} if server == "papers-mcp" else {}
    config = host_config(node, unpacked[server], tmp_path, settings)
    assert config["command"] == "uv"
    # A host passes its own environment (PATH, and what uv needs to reach the index), plus the manifest's;
    # papers-mcp's arXiv is the replay server (real recordings), its library the folder set above.
    env = {key: value for key, value in os.environ.items() if key != "VIRTUAL_ENV"} | config["env"]
    if server == "papers-mcp":
        replay: Replay = request.getfixturevalue("replay")
        env |= {k: v for k, v in replay.papers_env(tmp_path / "unused").items() if k != "PAPERS_MCP_HOME"}
    uv = shutil.which("uv") or str(Path(sys.executable).with_name("uv"))
    params = StdioServerParameters(command=uv, args=config["args"], env=env, cwd=tmp_path)
    async with Client(params, read_timeout_seconds=300) as client:
        assert client.server_info is not None
        assert (client.server_info.name, client.server_info.version) == (server, version_of(server))
        listed = (await client.list_tools()).tools
        tools = [{"name": t.name, "description": t.description} for t in listed]
        bad = await client.call_tool(listed[0].name, {"no_such_argument": 1})
        if server == "papers-mcp":
            read = await client.call_tool("query-paper", {"arxivID": "1706.03762", "level": "abstract"})
            assert not read.is_error and "Attention Is All You Need" in str(read.content[0]), read.content
    assert tools == manifest["tools"]
    # The tools the client tests' call table covers (tests/test_clients_typescript.py keeps it complete).
    assert {t["name"] for t in tools} == set(CALLS[server])
    text = bad.content[0].text if isinstance(bad.content[0], TextContent) else ""
    assert bad.is_error and SEED_ERROR.match(text), text
    if server == "papers-mcp":
        assert (tmp_path / "library" / "library.sqlite3").is_file(), (
            "the library setting did not reach the server"
        )


@pytest.fixture(scope="module")
def registry_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((BUNDLES_DIR / "registry" / "server.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize("server", SERVERS)
def test_server_json_is_valid_and_up_to_date(
    built: Path, registry_schema: dict[str, Any], unpacked: dict[str, Path], server: str
) -> None:
    committed_path = REPO_ROOT / "packages" / server / "server.json"
    committed = json.loads(committed_path.read_text())
    generated = json.loads((built / "registry" / server / "server.json").read_text())
    assert committed == generated, f"{committed_path} is stale: run make bundles"
    jsonschema.Draft7Validator(registry_schema, format_checker=jsonschema.FormatChecker()).validate(committed)
    assert committed["$schema"] == registry_schema["$id"]
    assert committed["version"] == version_of(server)
    (package,) = committed["packages"]
    assert (package["registryType"], package["identifier"], package["version"]) == (
        "pypi",
        server,
        version_of(server),
    )
    assert package["transport"] == {"type": "stdio"}
    bundle_env = manifest_of(unpacked, server)["server"]["mcp_config"]["env"]
    assert [v["name"] for v in package["environmentVariables"]] == list(bundle_env)
    assert all(v["description"] for v in package["environmentVariables"])


def test_registry_schema_rejects_what_the_registry_rejects(registry_schema: dict[str, Any]) -> None:
    entry = json.loads((REPO_ROOT / "packages" / "papers-mcp" / "server.json").read_text())
    validator = jsonschema.Draft7Validator(registry_schema)
    for change in ({"description": "x" * 101}, {"name": "papers-mcp"}, {"version": None}):
        broken = copy.deepcopy(entry) | change
        assert not validator.is_valid({k: v for k, v in broken.items() if v is not None}), change


@pytest.mark.parametrize("server", SERVERS)
def test_package_readme_names_the_registry_entry(server: str) -> None:
    """The registry ties a PyPI package to its entry by an ``mcp-name:`` line in the published README."""
    name = json.loads((REPO_ROOT / "packages" / server / "server.json").read_text())["name"]
    readme = (REPO_ROOT / "packages" / server / "README.md").read_text()
    assert f"mcp-name: {name}" in readme
