"""``make bundles``: an MCP Bundle (.mcpb) and a registry ``server.json`` for each server.

Everything comes from one place each: the settings a person may set from ``servers.toml`` beside
this file; version, licence and long description from the package's ``pyproject.toml``; tool names
and descriptions from the server itself, started over stdio and asked for ``tools/list`` (so a new
tool appears in the next build without anyone writing it down).

A bundle uses the MCPB ``uv`` server type: it carries the server's wheel and mcp-shared's, a
``pyproject.toml`` naming them, and a ``uv.lock`` resolved with the workspace lock's versions as
constraints, so the host installs the versions the tests ran against. The official MCPB CLI
(``@anthropic-ai/mcpb``, pinned in ``package.json``/``package-lock.json`` here) validates and packs it.

Usage: ``uv run --frozen python examples/bundles/build.py [--out DIR] [--registry-out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import jsonschema  # type: ignore[import-untyped]
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
SCHEMA_FILE = HERE / "registry" / "server.schema.json"
MANIFEST_VERSION = "0.4"  # the first MCPB manifest version with the uv server type
ENTRY_POINT = "server/main.py"
SHARED = "mcp-shared"


@dataclass(frozen=True)
class Setting:
    """One value a person may set: a ``user_config`` entry and the environment variable it feeds."""

    key: str
    env: str
    type: str
    title: str
    description: str
    sensitive: bool = False


@dataclass(frozen=True)
class ServerSpec:
    name: str
    module: str
    display_name: str
    summary: str
    keywords: list[str]
    settings: list[Setting]


@dataclass(frozen=True)
class Distribution:
    namespace: str
    author: str
    python: str
    platforms: list[str]
    servers: list[ServerSpec]


def load_distribution(path: Path = HERE / "servers.toml") -> Distribution:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    servers = [
        ServerSpec(
            name=name,
            module=spec["module"],
            display_name=spec["display_name"],
            summary=spec["summary"],
            keywords=list(spec["keywords"]),
            settings=[Setting(**item) for item in spec.get("settings", [])],
        )
        for name, spec in data["servers"].items()
    ]
    return Distribution(data["namespace"], data["author"], data["python"], list(data["platforms"]), servers)


def project_metadata(package: str) -> dict[str, Any]:
    """The ``[project]`` table of ``packages/<package>/pyproject.toml``."""
    text = (REPO_ROOT / "packages" / package / "pyproject.toml").read_text(encoding="utf-8")
    project: dict[str, Any] = tomllib.loads(text)["project"]
    return project


def registry_name(dist: Distribution, server: ServerSpec) -> str:
    return f"{dist.namespace}/{server.name}"


async def _list_tools(module: str) -> list[dict[str, str]]:
    with tempfile.TemporaryDirectory(prefix="bundle-tools-") as home:  # listing tools writes nothing
        env = {**get_default_environment(), "PAPERS_MCP_HOME": home}
        params = StdioServerParameters(command=sys.executable, args=["-m", module], env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            tools = (await client.list_tools()).tools
    return [{"name": tool.name, "description": tool.description or ""} for tool in tools]


def list_tools(module: str) -> list[dict[str, str]]:
    """Name and description of every tool ``python -m <module>`` lists, in its order."""
    return anyio.run(_list_tools, module)


def manifest(dist: Distribution, server: ServerSpec, tools: list[dict[str, str]]) -> dict[str, Any]:
    """The MCPB manifest: uv server type, user_config from servers.toml, tools from the server."""
    project = project_metadata(server.name)
    env = {s.env: f"${{user_config.{s.key}}}" for s in server.settings}
    user_config: dict[str, dict[str, Any]] = {}
    for s in server.settings:
        option: dict[str, Any] = {
            "type": s.type,
            "title": s.title,
            "description": s.description,
            "required": False,
            # Always "": a host leaves ``${user_config.KEY}`` as it is when the key has no value,
            # the MCPB library expands no ${HOME} inside a default, and "" is what the servers read
            # as "not set" (so they use their own default).
            "default": "",
        }
        if s.sensitive:
            option["sensitive"] = True
        user_config[s.key] = option
    return {
        "manifest_version": MANIFEST_VERSION,
        "name": server.name,
        "display_name": server.display_name,
        "version": project["version"],
        "description": server.summary,
        "long_description": project["description"],
        "author": {"name": dist.author},
        "license": project["license"],
        "keywords": server.keywords,
        "server": {
            "type": "uv",
            "entry_point": ENTRY_POINT,
            "mcp_config": {
                "command": "uv",
                "args": ["run", "--directory", "${__dirname}", "--frozen", ENTRY_POINT],
                "env": env,
            },
        },
        "tools": tools,
        "compatibility": {"platforms": dist.platforms, "runtimes": {"python": dist.python}},
        "user_config": user_config,
    }


def server_json(dist: Distribution, server: ServerSpec) -> dict[str, Any]:
    """The MCP Registry entry: the PyPI package run with uvx over stdio, and its settings."""
    version = project_metadata(server.name)["version"]
    schema_id = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["$id"]
    variables = []
    for s in server.settings:
        variable: dict[str, Any] = {
            "name": s.env,
            "description": s.description,
            "isRequired": False,
            "format": "filepath" if s.type in {"directory", "file"} else "string",
        }
        if s.sensitive:
            variable["isSecret"] = True
        variables.append(variable)
    return {
        "$schema": schema_id,
        "name": registry_name(dist, server),
        "title": server.display_name,
        "description": server.summary,
        "version": version,
        "packages": [
            {
                "registryType": "pypi",
                "registryBaseUrl": "https://pypi.org",
                "identifier": server.name,
                "version": version,
                "runtimeHint": "uvx",
                "transport": {"type": "stdio"},
                "environmentVariables": variables,
            }
        ],
    }


def uv(*args: str, cwd: Path) -> str:
    """Run the workspace's uv (``python -m uv``); its stdout, or SystemExit with its stderr."""
    # Fixed programs; the arguments are this script's own paths and names, never outside input.
    done = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "uv", *args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"uv {' '.join(args)} failed:\n{done.stderr[-4000:]}")
    return done.stdout


def build_wheel(package: str, out_dir: Path) -> Path:
    uv("build", "--package", package, "--wheel", "--out-dir", str(out_dir), "-q", cwd=REPO_ROOT)
    return next(out_dir.glob(f"{package.replace('-', '_')}-*.whl"))


def locked_pins(package: str) -> list[str]:
    """The workspace lock's versions of everything ``package`` needs (requirements lines with markers)."""
    text = uv(
        *("export", "--package", package, "--frozen", "--no-dev", "--no-emit-workspace", "--no-hashes"),
        *("--no-header", "--no-annotate", "--format", "requirements.txt"),
        cwd=REPO_ROOT,
    )
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(("#", "-"))]


def _toml_list(items: list[str]) -> str:
    return "[\n" + "".join(f"    {json.dumps(item)},\n" for item in items) + "]"


def stage_bundle(dist: Distribution, server: ServerSpec, tools: list[dict[str, str]], stage: Path) -> None:
    """Lay out the bundle directory: manifest, entry point, wheels, pyproject.toml and uv.lock."""
    project = project_metadata(server.name)
    wheels = stage / "wheels"
    wheels.mkdir(parents=True)
    built = {pkg: build_wheel(pkg, wheels) for pkg in (SHARED, server.name)}
    sources = "".join(f'{pkg} = {{ path = "wheels/{wheel.name}" }}\n' for pkg, wheel in sorted(built.items()))
    deps = [f"{pkg}=={project_metadata(pkg)['version']}" for pkg in sorted(built)]
    (stage / "pyproject.toml").write_text(
        "# The environment the host builds for this bundle (MCPB server type uv): this server's wheel and\n"
        "# mcp-shared's, and the workspace lock's versions of everything else (uv.lock).\n"
        f'[project]\nname = "{server.name}-bundle"\nversion = "{project["version"]}"\n'
        f'requires-python = "{dist.python}"\ndependencies = {_toml_list(deps)}\n\n'
        f"[tool.uv]\npackage = false\nconstraint-dependencies = {_toml_list(locked_pins(server.name))}\n\n"
        f"[tool.uv.sources]\n{sources}",
        encoding="utf-8",
    )
    (stage / "server").mkdir()
    (stage / ENTRY_POINT).write_text(
        f'"""The {server.name} bundle\'s entry point: the host runs it with uv in the bundle\'s environment."""\n\n'
        f"from {server.module}.__main__ import main\n\nmain()\n",
        encoding="utf-8",
    )
    shutil.copy(REPO_ROOT / "packages" / server.name / "LICENSE", stage / "LICENSE")
    (stage / "manifest.json").write_text(
        json.dumps(manifest(dist, server, tools), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    uv("lock", "--no-config", "--quiet", cwd=stage)


def mcpb_cli() -> Path:
    """The pinned MCPB CLI, installed from package-lock.json (``npm ci``) when it is missing."""
    cli = HERE / "node_modules" / ".bin" / "mcpb"
    lock, installed = HERE / "package-lock.json", HERE / "node_modules" / ".package-lock.json"
    if cli.is_file() and installed.is_file() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return cli
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("make bundles needs Node.js >= 20 and npm (for the MCPB CLI)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE, check=True)  # noqa: S603
    return cli


def check_server_json(entry: Mapping[str, Any]) -> None:
    """Refuse to write an entry the registry would reject (its schema, vendored in registry/)."""
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    checker = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    errors = [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in checker.iter_errors(entry)
    ]
    if errors:
        raise SystemExit(
            f"server.json for {entry.get('name')} does not fit the registry schema:\n" + "\n".join(errors)
        )


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def build(out: Path, registry_out: Path | None) -> list[Path]:
    """Build every bundle into ``out``; write each server.json under ``registry_out/<server>/``."""
    dist = load_distribution()
    entries = {server.name: server_json(dist, server) for server in dist.servers}
    for entry in entries.values():
        check_server_json(entry)  # before anything is built
    cli = mcpb_cli()
    out.mkdir(parents=True, exist_ok=True)
    bundles = []
    for server in dist.servers:
        tools = list_tools(server.module)
        version = project_metadata(server.name)["version"]
        with tempfile.TemporaryDirectory(prefix=f"{server.name}-bundle-") as tmp:
            stage = Path(tmp) / server.name
            stage_bundle(dist, server, tools, stage)
            target = out / f"{server.name}-{version}.mcpb"
            pack = [str(cli), "pack", str(stage), str(target)]
            subprocess.run(pack, check=True, stdout=subprocess.DEVNULL)  # noqa: S603
        bundles.append(target)
        sys.stderr.write(f"built {target}\n")
    if registry_out is not None:
        for name, entry in entries.items():
            write_json(registry_out / name / "server.json", entry)
    return bundles


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "dist" / "bundles", help="where the .mcpb go")
    parser.add_argument(
        "--registry-out",
        type=Path,
        default=REPO_ROOT / "packages",
        help="server.json goes to REGISTRY_OUT/<server>/server.json (default: each package's folder)",
    )
    args = parser.parse_args(argv)
    os.environ.pop("VIRTUAL_ENV", None)  # uv lock in the staging folder must not see the workspace venv
    build(args.out.resolve(), args.registry_out.resolve())


if __name__ == "__main__":
    main()
