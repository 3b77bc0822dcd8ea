"""source-rate throughput on the evaluation URLs, against the suffix-rules baseline in this process.

The first rating loads the shipped domain lists (timed apart); then the best of five passes for each.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval"))

from eval_sources import baseline_grade, load_cases, ours_grade

PASSES = 5


def best_rate(rate: Callable[[str], str], urls: list[str]) -> float:
    best = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter()
        for url in urls:
            rate(url)
        best = min(best, time.perf_counter() - start)
    return len(urls) / best


def main() -> None:
    urls = [url for url, _, _ in load_cases()]
    baseline_grade(urls[0])
    start = time.perf_counter()
    ours_grade(urls[0])
    print(f"first source-rate call (loads the lists): {(time.perf_counter() - start) * 1000:.0f} ms")
    base = best_rate(baseline_grade, urls)
    ours = best_rate(ours_grade, urls)
    print(f"baseline (suffix rules): {base:,.0f} URLs/s")
    print(f"source-rate: {ours:,.0f} URLs/s (x{ours / base:.2f} of the baseline)")


if __name__ == "__main__":
    main()
