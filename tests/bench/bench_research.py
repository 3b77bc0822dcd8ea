"""research-mcp throughput and latency over MCP (stdio), each against a baseline in this process.

- fact-extract throughput (words/s) through batch-fact-extract on 200 texts of ~150 words,
  vs bare ``nlp.pipe`` with the same model and components here (target ratio >= 0.8);
- that batch vs 200 single fact-extract calls (speedup);
- a cached repeat call, p50 (target < 5 ms);
- the server process's peak memory (VmHWM).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from research_mcp.nlp import load_nlp
from research_mcp.runtime import PIPE_CHUNK
from research_mcp.settings import Settings
from support.servers import server_client

N_TEXTS = 200
TARGET_WORDS = 150

COMPANIES = [
    "Acme Corp",
    "Globex",
    "Initech",
    "Umbrella Labs",
    "Stark Industries",
    "Wayne Enterprises",
    "Hooli",
    "Vandelay Industries",
    "Cyberdyne Systems",
    "Soylent Foods",
    "Tyrell Corporation",
]
PEOPLE = ["Maria Lopez", "Kenji Sato", "Aisha Bello", "Tom Becker", "Priya Nair", "Lars Olsen"]
PLACES = ["Germany", "Brazil", "Japan", "Canada", "Kenya", "India", "France"]
TECH = ["machine learning", "quantum computing", "solid-state batteries", "CRISPR", "computer vision"]
TEMPLATES = [
    "{c} reported revenue of ${m}.{d} billion in {y}, up {p}% from the previous year.",
    "The global market for {t} was valued at ${m}.{d} billion in {y}, according to analysts at {c2}.",
    "{c} acquired {c2} for ${m}{d}0 million in {y}, its largest deal since {y2}.",
    "Shares of {c} fell {p}% on Tuesday after the company cut its forecast for {y}.",
    "{person}, chief executive of {c}, said the firm would hire {n} engineers in {place} by {y}.",
    "{c} and {c2} invested in a {t} start-up based in {place}.",
    "Operating margin at {c} widened to {p}.{d}% in the third quarter of {y}.",
    "The company employs about {n},{d}00 people across {k} countries.",
    "Analysts expect {t} spending to reach ${m} billion by {y3}, a compound growth rate of {p}%.",
    "{c2} was founded by {person} in {y2} and now serves {n} million customers.",
    "In {place}, adoption of {t} rose to {p}% of large firms in {y}, a survey of {n}00 executives found.",
    "Net income at {c} was ${m}.{d} million, compared with ${m2}.{d} million a year earlier.",
]


def make_texts(n: int = N_TEXTS, seed: int = 7) -> list[str]:
    """Deterministic ~150-word texts built from varied sentence templates."""
    rng = random.Random(seed)
    texts: list[str] = []
    for _ in range(n):
        sentences: list[str] = []
        words = 0
        while words < TARGET_WORDS:
            c, c2 = rng.sample(COMPANIES, 2)
            sentence = rng.choice(TEMPLATES).format(
                c=c,
                c2=c2,
                person=rng.choice(PEOPLE),
                place=rng.choice(PLACES),
                t=rng.choice(TECH),
                m=rng.randint(1, 90),
                m2=rng.randint(1, 90),
                d=rng.randint(0, 9),
                p=rng.randint(2, 45),
                n=rng.randint(2, 40),
                k=rng.randint(3, 60),
                y=rng.randint(2019, 2024),
                y2=rng.randint(1990, 2015),
                y3=rng.randint(2026, 2032),
            )
            sentences.append(sentence)
            words += len(sentence.split())
        texts.append(" ".join(sentences))
    return texts


def peak_rss_mb_of_child(name: str) -> float | None:
    """VmHWM of this process's child running ``-m <name>`` (Linux /proc), in MB."""
    me = os.getpid()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("PPid:")), -1)
        if ppid == me and f"-m {name}" in cmdline:
            for line in status.splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    return None


async def main() -> None:
    texts = make_texts()
    total_words = sum(len(t.split()) for t in texts)
    print(f"{len(texts)} texts, {total_words} words ({total_words / len(texts):.0f} per text)")

    nlp = load_nlp(Settings.from_env().model)
    list(nlp.pipe(texts[:10]))  # warm up

    def bare_pipe() -> float:
        # the server's batch size, so the ratio measures the MCP path, not a batch-size effect
        t0 = time.perf_counter()
        list(nlp.pipe(texts, batch_size=PIPE_CHUNK))
        return time.perf_counter() - t0

    bare = bare_pipe()
    print(
        f"bare nlp.pipe(batch_size={PIPE_CHUNK}) ({', '.join(nlp.pipe_names)}): {bare:.2f} s, "
        f"{total_words / bare:,.0f} words/s"
    )

    async with server_client("research_mcp") as client:
        await client.call_tool(
            "fact-extract", {"text": "Warm-up: revenue rose 5% in 2024."}
        )  # loads the model
        await client.call_tool("cache-clear", {})
        t0 = time.perf_counter()
        result = await client.call_tool(
            "batch-fact-extract", {"items": texts, "options": {"useCache": False}}
        )
        batch = time.perf_counter() - t0
        assert not result.is_error and result.structured_content is not None
        ok = result.structured_content["summary"]["successful"]
        batch_wps = total_words / batch
        # the machine is shared: time the baseline again right after, and compare with the mean of both
        again = bare_pipe()
        bare_wps = total_words / ((bare + again) / 2)
        print(f"bare nlp.pipe again: {again:.2f} s; mean {bare_wps:,.0f} words/s")
        print(
            f"batch-fact-extract over MCP: {batch:.2f} s, {batch_wps:,.0f} words/s, {ok}/{len(texts)} ok; "
            f"ratio vs bare nlp.pipe {batch_wps / bare_wps:.2f} (target >= 0.8)"
        )

        await client.call_tool("cache-clear", {})
        t0 = time.perf_counter()
        for text in texts:
            single_result = await client.call_tool("fact-extract", {"text": text})
            assert not single_result.is_error
        singles = time.perf_counter() - t0
        print(f"200 single fact-extract calls: {singles:.2f} s; batch speedup x{singles / batch:.2f}")

        latencies: list[float] = []
        for _ in range(200):
            t0 = time.perf_counter()
            await client.call_tool("fact-extract", {"text": texts[0]})
            latencies.append((time.perf_counter() - t0) * 1000)
        p50 = statistics.median(latencies)
        p95 = sorted(latencies)[int(0.95 * len(latencies))]
        print(f"cached repeat fact-extract over MCP: p50 {p50:.2f} ms, p95 {p95:.2f} ms (target p50 < 5 ms)")

        source_lat: list[float] = []
        for _ in range(100):
            t0 = time.perf_counter()
            await client.call_tool("cache-stats", {})
            source_lat.append((time.perf_counter() - t0) * 1000)
        print(f"baseline round trip (cache-stats): p50 {statistics.median(source_lat):.2f} ms")

        peak = peak_rss_mb_of_child("research_mcp")
        print(
            f"server peak memory (VmHWM): {peak:.0f} MB"
            if peak is not None
            else "server peak memory: unknown"
        )


if __name__ == "__main__":
    anyio.run(main)
