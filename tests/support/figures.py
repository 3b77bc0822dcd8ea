"""Figures the hardening tests record, for ``make figures`` to print.

When ``HARDENING_FIGURES`` names a file, each record is appended to it as one JSON line;
otherwise recording does nothing, so ordinary test runs write nothing.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree


def record_figure(kind: str, data: dict[str, Any]) -> None:
    target = os.environ.get("HARDENING_FIGURES")
    if not target:
        return
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"kind": kind, **data}) + "\n")


def _print_report(jsonl: Path, junit: Path) -> None:
    """Summarise the recorded figures and the JUnit results of the hardening run."""
    records = [json.loads(line) for line in jsonl.read_text().splitlines()] if jsonl.exists() else []
    out = sys.stdout.write
    out("\n== fuzzed calls (hypothesis, over stdio) ==\n")
    for rec in (r for r in records if r["kind"] == "fuzz"):
        total = sum(rec["calls_per_tool"].values())
        out(f"{rec['server']}: {total} calls; errors by code {rec['error_codes']}\n")
        for tool, count in sorted(rec["calls_per_tool"].items()):
            out(f"  {tool}: {count}\n")
    raw = [r for r in records if r["kind"] == "raw"]
    if raw:
        answered = sum(1 for r in raw if r["answered"])
        out(
            f"\n== raw JSON-RPC garbage ==\n{len(raw)} cases sent, all survived; {answered} answered, "
            f"{len(raw) - answered} dropped by the SDK's stdio reader\n"
        )
    out("\n== concurrent load (streamable HTTP, 127.0.0.1) ==\n")
    for rec in (r for r in records if r["kind"] == "load"):
        out(
            f"{rec['server']}: {rec['sessions']} sessions, {rec['calls']} calls in {rec['seconds']} s = "
            f"{rec['calls_per_second']} calls/s; p50 {rec['p50_ms']} ms, p95 {rec['p95_ms']} ms, p99 {rec['p99_ms']} ms; "
            f"protocol errors {rec['protocol_errors']}, wrong answers {rec['wrong_answers']}"
            + (f"; RSS MiB before/after/after-again {rec['rss_mb']}" if "rss_mb" in rec else "")
            + "\n"
        )
    faults = [r for r in records if r["kind"] == "fault"]
    if faults:
        out(
            f"\n== injected network faults ==\n{len(faults)} injected and survived: "
            + ", ".join(sorted(f"{r['server']}:{r['fault']}" for r in faults))
            + "\n"
        )
    for rec in (r for r in records if r["kind"] == "urls"):
        out(
            f"\n== hostile URLs ==\n{rec['tried']} tried, {rec['refused']} refused, "
            f"{rec['listener_hits']} requests reached the loopback listener\n"
        )
    if junit.exists():
        root = ElementTree.parse(junit).getroot()
        groups: dict[str, list[str]] = {}
        for case in root.iter("testcase"):
            failed = any(child.tag in ("failure", "error") for child in case)
            skipped = any(child.tag == "skipped" for child in case)
            status = "failed" if failed else "skipped" if skipped else "passed"
            groups.setdefault(case.get("classname", "?").rsplit(".", 1)[-1], []).append(status)
        out("\n== hardening tests by file ==\n")
        for name, statuses in sorted(groups.items()):
            out(
                f"{name}: {statuses.count('passed')} passed, {statuses.count('failed')} failed, "
                f"{statuses.count('skipped')} skipped\n"
            )


if __name__ == "__main__":
    _print_report(Path(sys.argv[1]), Path(sys.argv[2]))
