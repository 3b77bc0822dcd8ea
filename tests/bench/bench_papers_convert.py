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

Parallel conversion (issue 13, figure (b)): the first ``body`` read of the 60-page 1311.2542v3 over
MCP, cold (a fresh server, an empty library, the replay arXiv), with the default
``PAPERS_MCP_CONVERT_WORKERS`` (the number of CPUs) against 1 worker; ``--runs`` of each,
alternating, medians and their ratio (target <= 0.85 on a 2-core machine). Then the peak RSS of
each process of a 2-worker conversion of the same paper (the server's and its helper's).
``--equality`` converts each of the 12 fixture papers whole with 1 worker, with 2 workers and with
one bare ``to_markdown`` call, and says whether the three are byte for byte the same (slow: about
three times ``--pages 0``).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pymupdf
import pymupdf4llm
from mcp.types import TextContent
from papers_mcp.convert import convert_pdf, markdown_options
from papers_mcp.fulltext import extract_paper_text
from papers_mcp.settings import default_convert_workers

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from support.arxiv_replay import Replay, serve_replay
from support.servers import server_client

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


def bare(path: Path) -> Any:
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


async def cold_body_seconds(replay: Replay, arxiv_id: str, workers: str | None) -> float:
    """The first body read in a fresh server with an empty library, timed from call to answer."""
    overrides = {"CONVERT_WORKERS": workers} if workers else {}
    with tempfile.TemporaryDirectory() as home:
        env = replay.papers_env(Path(home), **overrides)
        async with server_client("papers_mcp", env=env) as papers:
            start = time.perf_counter()
            result = await papers.call_tool("query-paper", {"arxivID": arxiv_id, "level": "body"})
            seconds = time.perf_counter() - start
    content = result.content[0]
    assert isinstance(content, TextContent) and not result.is_error, content
    assert "Source: PDF" in content.text, "figure (b) is about the PDF route"
    return seconds


async def parallel_figure(runs: int) -> None:
    fixtures = fixtures_dir().parent
    arxiv_id = LONG_PAPER.removesuffix(".pdf")
    default = default_convert_workers()
    times: dict[str, list[float]] = {"default": [], "1": []}
    with serve_replay(fixtures) as replay:
        for run in range(runs):
            order = ["default", "1"] if run % 2 == 0 else ["1", "default"]
            for side in order:
                times[side].append(
                    await cold_body_seconds(replay, arxiv_id, None if side == "default" else "1")
                )
    d, one = statistics.median(times["default"]), statistics.median(times["1"])
    verdict = "OK" if d / one <= 0.85 else "over target"
    sys.stdout.write(
        f"(b) cold first body read of {arxiv_id} (60 pages) over MCP, median of {runs} runs each, alternating: "
        f"default workers ({default}) {d:.1f} s [{', '.join(f'{t:.1f}' for t in times['default'])}] vs 1 worker "
        f"{one:.1f} s [{', '.join(f'{t:.1f}' for t in times['1'])}]: ratio {d / one:.2f} (target <= 0.85: {verdict}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end)\n"
    )


CPU_PROBE = """
import resource, sys, time
from pathlib import Path
if __name__ == "__main__":
    from papers_mcp.convert import convert_pdf
    start = time.perf_counter()
    convert_pdf(Path(sys.argv[1]), workers=int(sys.argv[2]))
    wall = time.perf_counter() - start
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    print(f"{wall:.2f} {cpu:.2f}")
"""


def conversion_cpu(runs: int) -> None:
    """The same conversion in a fresh process, 1 vs 2 workers: wall time and CPU time of the process
    and its helpers. CPU time does not depend on what else the machine runs: it shows what the
    parallel run costs in extra work (helper start-up, a duplicated last chunk)."""
    pdf = str(fixtures_dir() / LONG_PAPER)
    figures: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    for run in range(runs):
        for workers in (1, 2) if run % 2 == 0 else (2, 1):
            out = subprocess.run(
                [sys.executable, "-c", CPU_PROBE, pdf, str(workers)],
                check=True,
                capture_output=True,
                text=True,
            )
            wall, cpu = (float(x) for x in out.stdout.split())
            figures[workers].append((wall, cpu))
    (w1, c1), (w2, c2) = (
        (statistics.median(w for w, _ in figures[n]), statistics.median(c for _, c in figures[n]))
        for n in (1, 2)
    )
    sys.stdout.write(
        f"    the conversion alone, fresh process, median of {runs}: 1 worker {w1:.1f} s wall, {c1:.1f} s CPU "
        f"({c1 / w1:.2f} cores busy); 2 workers {w2:.1f} s wall, {c2:.1f} s CPU ({c2 / w2:.2f} cores busy); "
        f"wall ratio {w2 / w1:.2f}, CPU ratio {c2 / c1:.2f}\n"
    )


def worker_memory() -> None:
    """Peak RSS of the server-side process and of its helper in a 2-worker conversion of the long paper."""
    code = (
        "import logging, sys; from pathlib import Path; "
        "logging.basicConfig(level=logging.INFO, stream=sys.stderr, format='%(message)s'); "
        "from papers_mcp.convert import convert_pdf; "
        f"convert_pdf(Path({str(fixtures_dir() / LONG_PAPER)!r}), workers=2)"
    )
    out = subprocess.run(
        [sys.executable, "-c", f"if __name__ == '__main__':\n    {code}\n{PROBE}"],
        check=True,
        capture_output=True,
        text=True,
    )
    parent = int(out.stdout.strip().splitlines()[-1]) / 1024
    helpers = re.findall(r"peak RSS ([\d/]+) MiB", out.stderr)
    sys.stdout.write(
        f"peak RSS of a 2-worker conversion of {LONG_PAPER}: calling process {parent:.0f} MiB, "
        f"helper {helpers[-1] if helpers else '?'} MiB\n"
    )


def equality_pass(pdfs: list[Path]) -> bool:
    """Each paper whole: 1 worker, 2 workers and one bare to_markdown call, byte for byte."""
    same = 0
    for pdf in pdfs:
        one = convert_pdf(pdf, workers=1).pages_md
        two = convert_pdf(pdf, workers=2).pages_md
        whole = tuple(str(c["text"]) for c in bare(pdf))
        ok = one == two == whole
        same += ok
        sys.stdout.write(
            f"  {pdf.stem:<24} {len(one):>3} pages  {'identical' if ok else 'DIFFERENT'}"
            f"{'' if one == two else ' (1 vs 2 workers differ)'}{'' if one == whole else ' (vs to_markdown differ)'}\n"
        )
    sys.stdout.write(
        f"byte-for-byte equal (1 worker = 2 workers = one to_markdown call): {same}/{len(pdfs)}\n"
    )
    return same == len(pdfs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3, help="pages per paper in the timing pass (0 = all)")
    parser.add_argument("--engines", action="store_true", help="also time the non-layout engine")
    parser.add_argument(
        "--bare-memory", action="store_true", help="also measure a bare to_markdown's peak RSS"
    )
    parser.add_argument("--runs", type=int, default=3, help="cold reads per side for figure (b) (0 = skip)")
    parser.add_argument(
        "--equality", action="store_true", help="1 vs 2 workers vs to_markdown on all 12 papers"
    )
    parser.add_argument("--only-parallel", action="store_true", help="figure (b), memory and --equality only")
    args = parser.parse_args()

    pdfs = sorted(fixtures_dir().glob("*.pdf"))
    if len(pdfs) != 12:
        sys.stdout.write(f"fixtures missing: found {len(pdfs)} PDFs in {fixtures_dir()}, expected 12\n")
        return 1
    if args.only_parallel:
        return parallel_passes(args, pdfs)
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
    return parallel_passes(args, pdfs) or (0 if ratio <= 1.15 else 1)


def parallel_passes(args: argparse.Namespace, pdfs: list[Path]) -> int:
    if args.runs > 0:
        anyio.run(parallel_figure, args.runs)
        conversion_cpu(args.runs)
    worker_memory()
    if args.equality:
        pymupdf4llm.use_layout(True)
        return 0 if equality_pass(pdfs) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
