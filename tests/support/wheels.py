"""Build each server's wheel on its own and print its requirements (``make wheels``)."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("mcp-shared", "papers-mcp", "research-mcp")


def build_wheel(package: str, out_dir: Path) -> Path:
    """``uv build --package <package> --wheel`` into ``out_dir``; the wheel's path."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "uv",
            "build",
            "--package",
            package,
            "--wheel",
            "--out-dir",
            str(out_dir),
            "-q",
        ],
        cwd=REPO_ROOT,
        check=True,
    )
    return next(out_dir.glob(f"{package.replace('-', '_')}-*.whl"))


def wheel_requirements(package: str, out_dir: Path) -> list[str]:
    """The Requires-Dist lines of ``package``'s wheel, built on its own."""
    wheel = build_wheel(package, out_dir)
    with zipfile.ZipFile(wheel) as zf:
        meta_name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = zf.read(meta_name).decode()
    return [line.split(":", 1)[1].strip() for line in meta.splitlines() if line.startswith("Requires-Dist:")]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for package in PACKAGES:
            reqs = wheel_requirements(package, Path(tmp) / package)
            sys.stdout.write(f"{package}: {', '.join(reqs)}\n")


if __name__ == "__main__":
    main()
