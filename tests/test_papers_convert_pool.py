"""``convert_pool.HelperPool``: chunks shared between the calling thread and spawned helper processes.

Real processes, real pipes; the work functions (``support/pool_work.py``) are trivial so that the
tests measure the pool, not the PDF engine. Each case makes helpers behave one way (slow, crash,
fail, refuse to start, lose their parent) and checks what the caller sees and that no helper
process is left behind. The PDF conversion over the pool is tested in
``packages/papers-mcp/tests/test_papers_fulltext_errors.py`` (2 workers vs 1, byte for byte).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from papers_mcp.convert_pool import ChunkFailed, HelperDied, HelperPool
from support import pool_work

CHUNKS = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10,)]
EXPECTED = [[n * n for n in chunk] for chunk in CHUNKS]


def alive(pid: int) -> bool:
    """A process that exists and is not a zombie waiting to be reaped."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def helper_pids(pool: HelperPool[str, list[int]]) -> list[int]:
    return [p.pid for p in pool.processes if p.pid is not None]


def test_results_come_back_in_chunk_order_with_progress(tmp_path: Path) -> None:
    done: list[int] = []
    with HelperPool(tmp_path, pool_work.open_text, pool_work.squares_shared, helpers=2) as pool:
        results = pool.run(CHUNKS, str(tmp_path), done.append)
        pids = helper_pids(pool)
    assert results == EXPECTED
    assert list(tmp_path.glob("by-helper-*")), "no helper computed a chunk"
    if Path("/proc/self/status").is_file():
        assert len(pool.peak_rss_kib) == len(pids) and min(pool.peak_rss_kib) > 1000, "peak RSS per helper"
    assert done == sorted(done) and done[-1] == sum(len(c) for c in CHUNKS), done
    assert pids and not any(alive(pid) for pid in pids), "helpers must end with their run"


def test_a_slow_helper_never_makes_the_run_wait(tmp_path: Path) -> None:
    # Helpers sleep a minute per chunk; the calling thread takes over what they hold.
    start = time.monotonic()
    with HelperPool(tmp_path, pool_work.open_text, pool_work.squares_slow_in_helper, helpers=2) as pool:
        results = pool.run(CHUNKS, str(tmp_path))
        pids = helper_pids(pool)
    assert results == EXPECTED
    assert time.monotonic() - start < 30, "the run waited for a helper"
    assert not any(alive(pid) for pid in pids)


def test_a_helper_that_crashes_fails_the_run_not_the_caller(tmp_path: Path) -> None:
    with (
        pytest.raises(HelperDied, match="ended with status 3"),
        HelperPool(tmp_path, pool_work.open_text, pool_work.squares_crash_in_helper, helpers=1) as pool,
    ):
        pool.run(CHUNKS, str(tmp_path))
    assert not any(alive(pid) for pid in helper_pids(pool))


def test_an_expected_error_in_a_helper_comes_back_with_its_message(tmp_path: Path) -> None:
    with (
        pytest.raises(ChunkFailed, match="damaged chunk"),
        HelperPool(
            tmp_path, pool_work.open_text, pool_work.squares_fail_in_helper, helpers=1, expected=(ValueError,)
        ) as pool,
    ):
        pool.run(CHUNKS, str(tmp_path))


def test_a_helper_that_cannot_start_is_done_without(tmp_path: Path) -> None:
    with HelperPool(tmp_path, pool_work.open_refused_in_helper, pool_work.squares, helpers=1) as pool:
        assert pool.run(CHUNKS, str(tmp_path)) == EXPECTED


def test_concurrent_runs_share_one_limit_on_helpers(tmp_path: Path) -> None:
    with (
        HelperPool(tmp_path, pool_work.open_text, pool_work.squares, helpers=1, limit=1) as first,
        HelperPool(tmp_path, pool_work.open_text, pool_work.squares, helpers=1, limit=1) as second,
    ):
        assert (first.granted, second.granted) == (1, 0)
        assert second.run(CHUNKS, str(tmp_path)) == EXPECTED
        assert first.run(CHUNKS, str(tmp_path)) == EXPECTED
    with HelperPool(tmp_path, pool_work.open_text, pool_work.squares, helpers=1, limit=1) as third:
        assert third.granted == 1, "slots are given back when a run ends"


PARENT = """
import sys
sys.path[:0] = {paths!r}
from pathlib import Path
from papers_mcp.convert_pool import HelperPool
from support import pool_work

if __name__ == "__main__":
    with HelperPool(Path({state!r}), pool_work.open_text, pool_work.record_pid_then_sleep, helpers=1) as pool:
        pool.run([(0,), (1,), (2,), (3,)], {state!r})
"""


def test_helpers_exit_when_their_parent_is_killed(tmp_path: Path) -> None:
    """SIGKILL leaves no chance to clean up (as ``os._exit`` after a SIGTERM does not either)."""
    script = tmp_path / "parent.py"
    tests_dir = str(Path(__file__).parent)
    script.write_text(textwrap.dedent(PARENT.format(paths=[tests_dir], state=str(tmp_path))))
    parent = subprocess.Popen([sys.executable, str(script)])
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob("helper-*.pid")) and time.monotonic() < deadline:
            time.sleep(0.2)
        pids = [int(p.read_text()) for p in tmp_path.glob("helper-*.pid")]
        assert pids, "the helper never started"
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in pids if alive(pid)], "a helper outlived its parent"
    finally:
        if parent.poll() is None:
            parent.kill()
