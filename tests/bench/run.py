"""``make bench``: run every ``tests/bench/bench_*.py`` in its own process and let each print its figures.

Each benchmark compares against a baseline run in the same process, so the figures are
ratios that survive a noisy machine.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main() -> int:
    failed = 0
    for script in sorted(HERE.glob("bench_*.py")):
        sys.stdout.write(f"\n== {script.stem} ==\n")
        sys.stdout.flush()
        failed += subprocess.run([sys.executable, str(script)], check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
