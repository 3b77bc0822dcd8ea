"""``make eval``: run every ``tests/eval/eval_*.py`` in its own process and let each print its table.

Each evaluation scores the servers' logic on labelled real-world data kept beside it (with its
provenance) and prints the same figures for a baseline measured in the same run, so a number
never stands alone. The tests run a small slice of each set; this runs all of it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main(argv: list[str]) -> int:
    wanted = set(argv)
    failed = 0
    for script in sorted(HERE.glob("eval_*.py")):
        if wanted and script.stem.removeprefix("eval_") not in wanted:
            continue
        sys.stdout.write(f"\n== {script.stem} ==\n")
        sys.stdout.flush()
        failed += subprocess.run([sys.executable, str(script)], check=False).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
