"""Full-text extraction cost: ``extract_paper_text`` against a bare ``pymupdf4llm.to_markdown``.

Prints, for the 12 fixture papers, seconds per paper for both in the same process and the ratio
of the totals (target <= 1.15: our checks, batching for progress and the section split may add at
most 15% to the engine's own time). Then the peak RSS (VmHWM) of converting the 60-page 1311.2542v3 in a
fresh subprocess, against the same subprocess with the engine loaded but nothing converted.

To keep ``make bench`` near three minutes on a 2-core machine, the timing pass converts the first
``--pages`` pages of each paper (default 3, copied into a temporary PDF so both sides read the
same file); ``--pages 0`` converts whole papers. The memory pass always converts all 60 pages.
``--engines`` also times pymupdf4llm's older non-layout engine (the README's engine decision);
``--bare-memory`` also measures one bare ``to_markdown`` call over all 60 pages.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pymupdf
import pymupdf4llm
from papers_mcp.convert import markdown_options
from papers_mcp.fulltext import extract_paper_text

LONG_PAPER = "1311.2542v3.pdf"


def fixtures_dir() -> Path:
    env = os.environ.get("PAPERS_MCP_FIXTURES")
    root = Path(env) if env else Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "arxiv"
    return root / "pdfs"


def first_pages(source: Path, pages: int, out_dir: Path) -> Path:
    """A copy of the first ``pages`` pages of ``source`` (the whole file when pages == 0)."""
    if pages <= 0:
        return source
    target = out_dir / source.name
    with pymupdf.open(source) as doc:
        doc.select(list(range(min(pages, doc.page_count))))
        doc.save(target)
    return target


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def bare(path: Path) -> object:
    return pymupdf4llm.to_markdown(str(path), **markdown_options())


PROBE = """
import resource, sys
try:  # Linux: this process image's own high-water mark, reset at exec
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
except OSError:  # elsewhere: getrusage, which on Linux would also count the parent's pages at fork
    kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
sys.stdout.write(str(kib))
"""


def peak_rss_mib(code: str) -> float:
    """Peak RSS of a fresh interpreter running ``code``, read by the child itself at exit.

    ``getrusage(RUSAGE_SELF/RUSAGE_CHILDREN).ru_maxrss`` is not used on Linux: it keeps the high-water
    mark inherited across fork+exec, so every child would report at least this (large) bench process.
    """
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\n{PROBE}"], check=True, capture_output=True, text=True
    )
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3, help="pages per paper in the timing pass (0 = all)")
    parser.add_argument("--engines", action="store_true", help="also time the non-layout engine")
    parser.add_argument(
        "--bare-memory", action="store_true", help="also measure a bare to_markdown's peak RSS"
    )
    args = parser.parse_args()

    pdfs = sorted(fixtures_dir().glob("*.pdf"))
    if len(pdfs) != 12:
        sys.stdout.write(f"fixtures missing: found {len(pdfs)} PDFs in {fixtures_dir()}, expected 12\n")
        return 1
    pymupdf4llm.use_layout(True)
    bare(first_pages(pdfs[0], 1, Path(tempfile.mkdtemp())))  # warm-up: load the layout model once

    with tempfile.TemporaryDirectory() as tmp:
        samples = [first_pages(pdf, args.pages, Path(tmp)) for pdf in pdfs]
        total_ours = total_bare = total_old = 0.0
        label = f"first {args.pages} pages" if args.pages > 0 else "whole papers"
        sys.stdout.write(f"seconds per paper ({label}), same process, alternating:\n")
        sys.stdout.write(f"  {'paper':<24} {'bare':>7} {'ours':>7} {'ratio':>6}\n")
        for index, sample in enumerate(samples):
            # Alternate which side goes first so neither always profits from a warm page cache.
            if index % 2:
                t_ours = timed(lambda s=sample: extract_paper_text(s))
                t_bare = timed(lambda s=sample: bare(s))
            else:
                t_bare = timed(lambda s=sample: bare(s))
                t_ours = timed(lambda s=sample: extract_paper_text(s))
            total_bare += t_bare
            total_ours += t_ours
            sys.stdout.write(f"  {sample.stem:<24} {t_bare:7.2f} {t_ours:7.2f} {t_ours / t_bare:6.2f}\n")
        ratio = total_ours / total_bare
        verdict = "OK" if ratio <= 1.15 else "OVER TARGET"
        sys.stdout.write(
            f"  {'total':<24} {total_bare:7.2f} {total_ours:7.2f} {ratio:6.2f}  (target <= 1.15: {verdict})\n"
        )
        if args.engines:
            pymupdf4llm.use_layout(False)
            for sample in samples:
                total_old += timed(lambda s=sample: pymupdf4llm.to_markdown(str(s), page_chunks=True))
            pymupdf4llm.use_layout(True)
            sys.stdout.write(
                f"  non-layout engine total {total_old:7.2f} s = {total_old / total_bare:.2f} x the layout engine\n"
            )

    long_pdf = fixtures_dir() / LONG_PAPER
    ours_code = (
        "from pathlib import Path; from papers_mcp.fulltext import extract_paper_text; "
        f"extract_paper_text(Path({str(long_pdf)!r}))"
    )
    # Baseline: the same interpreter with PyMuPDF, pymupdf4llm and the layout model loaded, no conversion.
    base_code = "from papers_mcp.pdf_pages import _pymupdf4llm; _pymupdf4llm()"
    base_mib = peak_rss_mib(base_code)
    ours_mib = peak_rss_mib(ours_code)
    sys.stdout.write(
        f"peak RSS converting {LONG_PAPER} (60 pages) in a subprocess: {ours_mib:.0f} MiB "
        f"(engine loaded, nothing converted: {base_mib:.0f} MiB; {ours_mib / base_mib:.2f}x)\n"
    )
    if args.bare_memory:
        bare_code = (
            "import pymupdf4llm; from papers_mcp.convert import markdown_options; "
            f"pymupdf4llm.use_layout(True); pymupdf4llm.to_markdown({str(long_pdf)!r}, **markdown_options())"
        )
        bare_mib = peak_rss_mib(bare_code)
        sys.stdout.write(
            f"  bare to_markdown of all 60 pages in one call: {bare_mib:.0f} MiB ({ours_mib / bare_mib:.2f}x)\n"
        )
    return 0 if ratio <= 1.15 else 1


if __name__ == "__main__":
    sys.exit(main())
