"""entity-extract throughput, against bare ``nlp.pipe`` over the same texts in the same process.

- in process: ``nlp.pipe`` + ``extract_entities`` (relations on) vs ``nlp.pipe`` alone;
- over MCP (stdio): batch-entity-extract vs bare ``nlp.pipe`` (target ratio >= 0.8, as for facts);
- the first call's extra cost of loading the word lists and the place gazetteer.
Texts: bench_research's generated news-like texts.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_research import make_texts
from research_mcp.entities import extract_entities, prepare_text
from research_mcp.nlp import load_nlp
from research_mcp.runtime import PIPE_CHUNK
from research_mcp.settings import Settings
from support.servers import server_client

N_TEXTS = 80


async def main() -> None:
    texts = make_texts(N_TEXTS)
    words = sum(len(t.split()) for t in texts)
    nlp = load_nlp(Settings.from_env().model)
    list(nlp.pipe(texts[:5]))

    t0 = time.perf_counter()
    extract_entities(nlp("Warm-up: Acme Corp hired Maria Lopez in Kenya."))
    print(
        f"first extract_entities call (loads the word lists and gazetteer): {time.perf_counter() - t0:.3f} s"
    )

    def bare() -> float:
        t = time.perf_counter()
        list(nlp.pipe(texts, batch_size=PIPE_CHUNK))
        return time.perf_counter() - t

    def ours() -> float:
        t = time.perf_counter()
        for text, doc in zip(
            texts, nlp.pipe([prepare_text(x) for x in texts], batch_size=PIPE_CHUNK), strict=True
        ):
            extract_entities(doc, None, True, source_text=text)
        return time.perf_counter() - t

    # CPU time of the entity pass alone against nlp.pipe's, over the same parses: on a shared machine this
    # says what the pass costs even when wall-clock ratios swing with other processes' load
    docs = list(nlp.pipe([prepare_text(x) for x in texts], batch_size=PIPE_CHUNK))
    c0 = time.process_time()
    list(nlp.pipe(texts, batch_size=PIPE_CHUNK))
    pipe_cpu = time.process_time() - c0
    c0 = time.process_time()
    for text, doc in zip(texts, docs, strict=True):
        extract_entities(doc, None, True, source_text=text)
    pass_cpu = time.process_time() - c0
    print(
        f"CPU time: nlp.pipe {pipe_cpu:.2f} s, extract_entities {pass_cpu:.3f} s "
        f"({pass_cpu / pipe_cpu:.1%} of the parse); ratio {pipe_cpu / (pipe_cpu + pass_cpu):.2f} (target >= 0.8)"
    )

    b1, o1, b2, o2 = bare(), ours(), bare(), ours()
    base, mine = (b1 + b2) / 2, (o1 + o2) / 2
    print(f"{N_TEXTS} texts, {words} words; bare nlp.pipe {words / base:,.0f} words/s")
    print(
        f"in process, nlp.pipe + extract_entities: {words / mine:,.0f} words/s; ratio {base / mine:.2f} (target >= 0.8)"
    )

    async with server_client("research_mcp") as client:
        await client.call_tool("entity-extract", {"text": "Warm-up: Acme Corp hired Maria Lopez."})
        await client.call_tool("cache-clear", {})
        t = time.perf_counter()
        result = await client.call_tool(
            "batch-entity-extract", {"items": texts, "options": {"useCache": False}}
        )
        batch = time.perf_counter() - t
        assert not result.is_error
        again = bare()
        base_mcp = (base + again) / 2
        print(
            f"batch-entity-extract over MCP: {words / batch:,.0f} words/s; "
            f"ratio vs bare nlp.pipe {base_mcp / batch:.2f} (target >= 0.8)"
        )


if __name__ == "__main__":
    anyio.run(main)
