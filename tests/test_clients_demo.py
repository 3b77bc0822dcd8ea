"""``make demo`` works on a machine without internet: it says so in one line, uses the replay, prints the report.

The demo runs as a user runs it (``python examples/demo.py``) with every outgoing HTTP request of
the demo process sent to a dead proxy, so the live-arXiv probe fails at once, as it does offline.
The servers it starts get only the SDK's safe environment, so they reach the replay on 127.0.0.1.
Expected values come from the paper itself (1706.03762v5, read by eye: title, "28.4 BLEU" in the
abstract) and from the demo's second source text (26.9 BLEU).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.servers import REPO_ROOT, free_port


def test_demo_falls_back_to_the_replay_and_prints_the_report(arxiv_fixtures: Path, tmp_path: Path) -> None:
    dead_proxy = f"http://127.0.0.1:{free_port()}"
    env = {
        **os.environ,
        "HTTPS_PROXY": dead_proxy,
        "HTTP_PROXY": dead_proxy,
        "NO_PROXY": "",
        "PAPERS_MCP_FIXTURES": str(arxiv_fixtures),
        "COLUMNS": "200",
    }
    done = subprocess.run(
        [sys.executable, "examples/demo.py", "--home", str(tmp_path / "home")],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    out = done.stdout
    assert done.returncode == 0, f"demo failed:\n{out[-3000:]}\n{done.stderr[-3000:]}"
    lines = out.splitlines()
    unreachable = [line for line in lines if line.startswith("arXiv is not reachable")]
    assert len(unreachable) == 1 and "using the replay arXiv on 127.0.0.1" in unreachable[0], out[:2000]
    assert any(line.startswith("arXiv source used: replay arXiv on http://127.0.0.1:") for line in lines)
    for needle in (
        "Research report",
        "Attention Is All You Need",  # the fixture paper's title
        "resolve-paper-id",  # the tool list of one session holds both servers' tools
        "batch-source-rate",
        "Facts from the body",
        "Entities",
        "Source ratings",
        "Citations:",
        "Conflicts: paper vs",
        "28.4",  # the paper's EN-DE BLEU, from its abstract
        "26.9",  # the second source's
    ):
        assert needle in out, f"the report lacks {needle!r}:\n{out[-4000:]}"
