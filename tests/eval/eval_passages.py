"""query-paper's ``query``: do the passages it returns hold the sentence that answers the question?

Cases: ``data/passages.json``, questions about the 12 arXiv fixture papers, each with a sentence
of the paper read by eye (see its ``about``). Each paper is converted as the server converts it
(conversions are cached under ``$PAPERS_EVAL_CACHE`` or ``.bench/eval-conversions``), indexed
exactly as the server indexes it, and asked each question at level "all".

Scored: a case is a hit when its sentence is inside the passages returned (at most
``PAPERS_MCP_MAX_PASSAGES``=5 and about 1,500 tokens, as served). Baselines in the same run,
each given the same token budget:
- lead: the first 1,500 tokens of the paper (what reading level "body" gives within that budget);
- plain paragraphs: the same FTS5 BM25, over the raw blank-line paragraphs, every query word kept
  and no section titles (what the chunking, the stop words and the title column add).
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from papers_mcp.fulltext import EXTRACTOR_VERSION, PaperText, extract_paper_text
from papers_mcp.levels import passage_parts
from papers_mcp.library import Library
from papers_mcp.outline import build_outline
from papers_mcp.passages import (
    Chunk,
    PassageIndex,
    candidates_for,
    check_query,
    chunk_paper,
    index_key,
    select_passages,
)
from papers_mcp.reading import PASSAGE_BUDGET_TOKENS
from papers_mcp.render import CHARS_PER_TOKEN
from support.servers import REPO_ROOT, fixtures_dir

MAX_PASSAGES = 5
CASES = Path(__file__).resolve().parent / "data" / "passages.json"


def flat(text: str) -> str:
    """Tags and markdown emphasis out, whitespace collapsed: how a sentence is matched."""
    return " ".join(re.sub(r"<[^<>\n]{1,40}>|[*_]", "", text).split())


def converted(stem: str, pdfs: Path, cache: Path) -> PaperText:
    path = cache / f"{stem}.x{EXTRACTOR_VERSION}.json"
    if path.is_file():
        return PaperText.from_dict(json.loads(path.read_text(encoding="utf-8")))
    started = time.perf_counter()
    text = extract_paper_text(pdfs / f"{stem}.pdf")
    cache.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(text.to_dict(), ensure_ascii=False), encoding="utf-8")
    print(f"  converted {stem} in {time.perf_counter() - started:.0f} s", flush=True)
    return text


def plain_chunks(text: PaperText) -> list[Chunk]:
    chunks = []
    for part in ("body", "references", "appendix"):
        for block in re.split(r"\n\s*\n", str(getattr(text, part))):
            if block.strip():
                chunks.append(Chunk(part, part, "", "", block.strip()))
    return chunks


def main() -> int:
    fixtures = fixtures_dir()
    if fixtures is None:
        print(
            "skipped: arXiv fixtures not found (set PAPERS_MCP_FIXTURES or put shared/ beside the repository)"
        )
        return 0
    cache = Path(os.environ.get("PAPERS_EVAL_CACHE") or REPO_ROOT / ".bench" / "eval-conversions")
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"]
    by_paper: dict[str, list[dict[str, str]]] = defaultdict(list)
    for case in cases:
        by_paper[case["paper"]].append(case)
    budget_chars = int(PASSAGE_BUDGET_TOKENS * CHARS_PER_TOKEN)
    scores: dict[str, list[int]] = {"passages": [], "lead": [], "plain": []}
    ranks: list[int] = []
    tokens: list[int] = []
    latencies: list[float] = []
    missing: list[str] = []
    rows = []
    with tempfile.TemporaryDirectory() as home:
        index = PassageIndex(Library(Path(home)))
        for stem in sorted(by_paper):
            text = converted(stem, fixtures / "pdfs", cache)
            outline = build_outline(text)
            doc = index.build(
                index_key(stem, text.source, (text.front, text.body, text.references, text.appendix)),
                stem,
                chunk_paper(outline, text.front),
            )
            plain_doc = index.build(f"plain|{stem}", f"plain|{stem}", plain_chunks(text))
            whole = flat("\n\n".join((text.front, text.body, text.references, text.appendix)))
            lead = flat("\n\n".join((text.front, text.body)))[:budget_chars]
            hits = {"passages": 0, "lead": 0, "plain": 0}
            for case in by_paper[stem]:
                expect = flat(case["expect"])
                if expect not in whole:
                    missing.append(f"{stem}: {case['expect'][:60]!r} is not in the converted text")
                    continue
                _, terms = check_query(case["question"])
                started = time.perf_counter()
                ranked = index.search(doc, terms, passage_parts("all"), candidates_for(MAX_PASSAGES))
                chosen = select_passages(ranked, MAX_PASSAGES, PASSAGE_BUDGET_TOKENS)
                latencies.append((time.perf_counter() - started) * 1000)
                tokens.append(sum(p.tokens for p in chosen))
                found = [i for i, p in enumerate(chosen, 1) if expect in flat(p.text)]
                hit = int(bool(found))
                if found:
                    ranks.append(found[0])
                words = [w for w in re.findall(r"[^\W_]+", case["question"].lower())]
                plain_ranked = index.search(plain_doc, words, ("body", "references", "appendix"), 20)
                plain = select_passages(plain_ranked, MAX_PASSAGES, PASSAGE_BUDGET_TOKENS)
                outcomes = {
                    "passages": hit,
                    "lead": int(expect in lead),
                    "plain": int(any(expect in flat(p.text) for p in plain)),
                }
                for name, value in outcomes.items():
                    scores[name].append(value)
                    hits[name] += value
                if not hit:
                    print(f"  miss {stem} [{case['section']}] {case['question']!r}")
            rows.append((stem, len(by_paper[stem]), hits))
    total = len(scores["passages"])
    print(f"\n{'paper':22} cases  passages  plain  lead")
    for stem, n, hits in rows:
        print(f"{stem:22} {n:5}  {hits['passages']:8}  {hits['plain']:5}  {hits['lead']:4}")
    for name, label in (
        ("passages", "query (as served)"),
        ("plain", "baseline: plain paragraphs"),
        ("lead", "baseline: first 1,500 tokens"),
    ):
        print(f"{label:32} hit rate {sum(scores[name]) / total:.0%} ({sum(scores[name])}/{total})")
    print(
        f"answer size: median {statistics.median(tokens):.0f} tokens (budget {PASSAGE_BUDGET_TOKENS}); "
        f"rank of the hit: median {statistics.median(ranks) if ranks else float('nan'):.0f}; "
        f"search in-process: median {statistics.median(latencies):.2f} ms"
    )
    for line in missing:
        print(f"  case skipped: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
