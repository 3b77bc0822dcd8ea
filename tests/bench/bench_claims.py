"""The claim check's cost on a 2 MB page with 20 claims (issue 20: "well under a second after fetching").

The page is real text: the source texts of the claims evaluation (tests/eval/data/claims/cases.jsonl)
repeated in shuffled order up to 2 MB, as plain text and as HTML paragraphs. Figures, each against
today's check (``check_accuracy``: substring search of numbers and names) on the same page here:

- 20 claims judged on a page never seen (its index built once, then reused by every claim), in a
  process that has judged one claim before (the value parser's patterns are compiled on first use);
- the same 20 again (results cached per claim and text);
- reading the 2 MB HTML page's main text (trafilatura) before that;
- importing ``research_mcp.claims`` and judging one claim in a fresh process (cold start).

Wall and CPU seconds are both printed: on a shared machine the wall time grows with the load; the
target is read on CPU time.
"""

from __future__ import annotations

import html
import json
import random
import subprocess
import sys
import time
from pathlib import Path

from research_mcp.citations import check_accuracy
from research_mcp.claims import judge_claim
from research_mcp.claims.source import read_body

CASES = Path(__file__).resolve().parents[1] / "eval" / "data" / "claims" / "cases.jsonl"
PAGE_BYTES = 2_000_000
TARGET_S = 1.0


def main() -> int:
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()]
    rng = random.Random(7)
    paragraphs = [p for c in cases for p in c["source"].split("\n\n")]
    out: list[str] = []
    size = 0
    while size < PAGE_BYTES:
        rng.shuffle(paragraphs)
        for p in paragraphs:
            out.append(p)
            size += len(p.encode("utf-8")) + 2
            if size >= PAGE_BYTES:
                break
    page = "\n\n".join(out)
    claims = [c["claim"] for c in rng.sample(cases, 20)]
    print(f"page {len(page.encode('utf-8')) / 1e6:.2f} MB, {len(claims)} claims")

    judge_claim("Revenue rose 12% in 2023.", "Revenue fell 12% in 2023.")  # a server that has run once
    t0, c0 = time.perf_counter(), time.process_time()
    verdicts = [judge_claim(c, page)["verdict"] for c in claims]
    cold, cold_cpu = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.perf_counter()
    for c in claims:
        judge_claim(c, page)
    warm = time.perf_counter() - t0
    t0, c0 = time.perf_counter(), time.process_time()
    for c in claims:
        check_accuracy(c, page)
    base, base_cpu = time.perf_counter() - t0, time.process_time() - c0
    status = "OK" if cold_cpu < TARGET_S else "OVER TARGET"
    print(
        f"judge_claim, 20 claims, new page: {cold:.3f} s wall, {cold_cpu:.3f} s CPU "
        f"(target < {TARGET_S:g} s: {status}); {verdicts.count('supported')} supported"
    )
    print(f"judge_claim, same 20 again (cached): {warm * 1000:.1f} ms")
    print(f"baseline check_accuracy, 20 claims: {base:.3f} s wall, {base_cpu:.3f} s CPU")

    doc = (
        "<html><body><nav>Home | About</nav><article>"
        + "".join(f"<p>{html.escape(p)}</p>" for p in out)
        + "</article><footer>Contact</footer></body></html>"
    )
    t0, c0 = time.perf_counter(), time.process_time()
    text = read_body(doc.encode("utf-8"), "text/html; charset=utf-8")
    read, read_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(
        f"HTML main text of a {len(doc) / 1e6:.2f} MB page: {read:.3f} s wall, {read_cpu:.3f} s CPU ({text.kind}, {len(text.text) / 1e6:.2f} M chars)"
    )

    code = (
        "import time; t=time.perf_counter(); from research_mcp.claims import judge_claim; "
        "judge_claim('Revenue rose 12% in 2023.', 'Revenue fell 12% in 2023.'); print(time.perf_counter()-t)"
    )
    start = float(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )
    print(f"cold start (import + first claim, fresh process): {start:.3f} s")
    return 0  # a figure, not a gate: a loaded machine must not fail `make bench`


if __name__ == "__main__":
    sys.exit(main())
