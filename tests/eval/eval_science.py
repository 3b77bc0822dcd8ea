"""research-mcp on scientific text: methods, datasets, metrics and tasks as entities, and results as facts.

Three systems over the same texts in the same run: ours (this checkout), the code as it was before
scientific reading (commit ``BASELINE_COMMIT``, unpacked with ``git archive`` into a temporary folder
and run in its own process), and bare spaCy (its entity labels, which have no scientific type).

- Entities: SciREX training documents' own labels (Method, Material = dataset, Metric, Task) on 124
  passages of three sentences from 31 documents (data/science/, PROVENANCE.md). A mention counts when
  its span (a leading "the" and edge punctuation dropped) equals a gold span and the types agree. The
  "named" rows keep only gold names with a capital or a digit ("BLEU", "ResNet-50"), the ones an NER can be
  asked to find; SciREX also labels generic phrases ("the network"). "typed as company/person/location":
  gold scientific names that a system returns as a company, person or place.
- Papers: two shared fixture papers read through papers-mcp's own code (the PDF route for 1706.03762,
  the HTML route for 2409.01666), with results and names labelled by eye (fixture_results.json). A
  result is found when a fact has its value and (the "+metric" and "full" rows) its metric, dataset and
  method; the baseline has no metric field, so its attribute or entity counts as the metric there.
  Precision: facts that state a metric (ours only), right when they match a labelled result.
  Noise: facts that count a plain noun ("two versions"): a value with no unit, no currency, no percent,
  no metric, written in words or holding no digit, or whose entity holds markup.
- SciREX sentences that state a leaderboard score (most of SciREX's scores are only in tables, which the
  corpus leaves out): the same result rows.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
DATA = HERE / "data" / "science"
REPO = HERE.parents[1]
BASELINE_COMMIT = "08dad59"
SCI_TYPES = ("method", "dataset", "metric", "task")
BARE_TYPES = {"ORG": "company", "PERSON": "person", "GPE": "location", "LOC": "location", "FAC": "location"}
WRONG_TYPES = {"company", "person", "location"}
_NAMED = re.compile(r"[A-Z0-9]")


# ----------------------------------------------------------------------------- predictions (worker)


def _fact_view(f: dict[str, Any]) -> dict[str, Any]:
    keys = ("entity", "attribute", "value", "value_type", "numeric_value", "unit", "currency", "confidence")
    out = {k: f.get(k) for k in keys}
    for k in ("metric", "dataset", "task", "sentence", "value_span"):
        out[k] = f.get(k)
    return out


def predict(texts: list[str], want_facts: list[bool]) -> list[dict[str, Any]]:
    """entity-extract and fact-extract as the server runs them, for whichever research_mcp is importable."""
    from research_mcp.entities import extract_entities, prepare_text
    from research_mcp.facts import extract_from_doc
    from research_mcp.markup import mask_markup
    from research_mcp.nlp import load_nlp
    from research_mcp.settings import Settings

    fact_text = mask_markup
    try:  # this checkout reads a paper's numbers written as math
        from research_mcp.runtime import fact_parser_text

        fact_text = fact_parser_text
    except ImportError:
        pass
    nlp = load_nlp(Settings.from_env().model)
    out: list[dict[str, Any]] = []
    edocs = nlp.pipe([prepare_text(t) for t in texts], batch_size=16)
    for text, edoc, facts_wanted in zip(texts, edocs, want_facts, strict=True):
        ents = extract_entities(edoc, None, True, source_text=text)
        item: dict[str, Any] = {
            "entities": [
                [s, e, ent["type"], ent["name"]] for ent in ent_list(ents) for s, e in ent["offsets"]
            ],
            "names": [[ent["name"], ent["type"]] for ent in ent_list(ents)],
            "edges": [[e["source"], e["relation"], e["target"]] for e in ents["edges"]],
            "facts": [],
        }
        if facts_wanted:
            doc = nlp(fact_text(text))
            item["facts"] = [_fact_view(f) for f in extract_from_doc(doc, source_text=text)["facts"]]
        out.append(item)
    return out


def ent_list(result: dict[str, Any]) -> list[dict[str, Any]]:
    return list(result["entities"])


def bare_predict(texts: list[str]) -> list[dict[str, Any]]:
    from research_mcp.nlp import load_nlp
    from research_mcp.settings import Settings

    nlp = load_nlp(Settings.from_env().model)
    out = []
    for doc in nlp.pipe(texts, batch_size=16):
        ents = [
            [e.start_char, e.end_char, BARE_TYPES.get(e.label_, e.label_.lower()), e.text] for e in doc.ents
        ]
        out.append({"entities": ents, "names": [[e[3], e[2]] for e in ents], "edges": [], "facts": []})
    return out


def run_worker(texts: list[str], want_facts: list[bool], src: list[Path] | None) -> list[dict[str, Any]]:
    """``predict`` in a fresh process; ``src`` (the baseline's source folders) go first on the path."""
    with tempfile.TemporaryDirectory() as tmp:
        inp, outp = Path(tmp) / "in.json", Path(tmp) / "out.json"
        inp.write_text(json.dumps({"texts": texts, "facts": want_facts}), encoding="utf-8")
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join([*map(str, src), env.get("PYTHONPATH", "")]).rstrip(
                os.pathsep
            )
        subprocess.run([sys.executable, __file__, "--worker", str(inp), str(outp)], check=True, env=env)
        return list(json.loads(outp.read_text(encoding="utf-8")))


def baseline_source(tmp: Path) -> list[Path]:
    """research-mcp's and mcp-shared's source as they were at BASELINE_COMMIT (``git archive``; nothing in
    the checkout changes): the old research-mcp imports names mcp-shared has since moved."""
    tar = tmp / "baseline.tar"
    with tar.open("wb") as fh:
        subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "archive",
                BASELINE_COMMIT,
                "packages/research-mcp/src",
                "packages/mcp-shared/src",
            ],
            check=True,
            stdout=fh,
        )
    with tarfile.open(tar) as tf:
        tf.extractall(tmp, filter="data")
    return [tmp / "packages" / "research-mcp" / "src", tmp / "packages" / "mcp-shared" / "src"]


# ----------------------------------------------------------------------------- texts


def paper_bodies() -> list[tuple[dict[str, Any], str]]:
    """The labelled fixture papers' bodies as papers-mcp renders them today (its PDF and HTML routes)."""
    from papers_mcp.fulltext import extract_paper_text
    from papers_mcp.latexml import parse_page

    shared = Path(os.environ.get("SHARED_FIXTURES", REPO.parent / "shared" / "fixtures"))
    if not shared.is_dir():
        shared = Path("/work/shared/fixtures")
    labels = json.loads((DATA / "fixture_results.json").read_text(encoding="utf-8"))
    out = []
    for paper in labels["papers"]:
        path = shared / paper["path"]
        if paper["route"] == "pdf":
            body = extract_paper_text(path).body
        else:
            body = parse_page(path.read_bytes(), "html").text.body
        out.append((paper, body))
    return out


# ----------------------------------------------------------------------------- scoring


def norm_span(text: str, start: int, end: int) -> tuple[int, int]:
    piece = text[start:end]
    lead = re.match(r"(?:the|The|a|an|our|Our)\s+", piece)
    if lead and len(piece) > lead.end():
        start += lead.end()
    while end > start + 1 and text[end - 1] in " ,;:\"'()[].":
        end -= 1
    while start < end - 1 and text[start] in " ,;:\"'()[]":
        start += 1
    return start, end


def entity_counts(cases: list[dict[str, Any]], preds: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    c: dict[str, Counter[str]] = defaultdict(Counter)
    for case, pred in zip(cases, preds, strict=True):
        text = case["text"]
        gold = {norm_span(text, s, e): t for s, e, t in case["entities"]}
        named = {span for span in gold if _NAMED.search(text[span[0] : span[1]])}
        predicted = {(norm_span(text, s, e), t) for s, e, t, _ in pred["entities"]}
        for span, t in predicted:
            if t not in SCI_TYPES:
                continue
            right = gold.get(span) == t
            c[t]["tp" if right else "fp"] += 1
            if span in named or span not in gold:
                c[f"named {t}"]["tp" if right else "fp"] += 1
        for span, t in gold.items():
            hit = (span, t) in predicted
            for row in (t, f"named {t}") if span in named else (t,):
                c[row]["gold"] += 1
                c[row]["hit"] += hit
            if span in named:
                c["named any"]["gold"] += 1
                c["named any"]["wrong_type"] += any(s == span and pt in WRONG_TYPES for s, pt in predicted)
        c["all"]["pred"] += len(predicted)
        c["all"]["pred_wrong_kind"] += sum(1 for s, t in predicted if t in WRONG_TYPES and s in gold)
    return c


def prf(c: Counter[str]) -> tuple[float, float, float]:
    p = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 0.0
    r = c["hit"] / c["gold"] if c["gold"] else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def norm_words(s: str | None) -> str:
    s = (s or "").lower().replace("&", " and ")
    s = re.sub(r"\[\d+(?:,\s*\d+)*\]", " ", s)
    return " ".join(re.findall(r"[a-z0-9.]+", s.replace("-", " ")))


METRIC_NAMES = {"acc": "accuracy", "acc.": "accuracy", "f1 score": "f1", "f1": "f1", "bleu score": "bleu"}


def norm_metric(s: str | None) -> str:
    n = norm_words(s)
    n = re.sub(r"\b(score|scores|metric)\b", "", n).strip()
    return METRIC_NAMES.get(n, n)


def loose(a: str, b: str) -> bool:
    return bool(a) and bool(b) and (a == b or f" {a} " in f" {b} " or f" {b} " in f" {a} ")


def matches(
    fact: dict[str, Any], gold: dict[str, Any], datasets: dict[str, list[str]], level: str, base: bool
) -> bool:
    value = fact.get("numeric_value")
    if value is None or abs(float(value) - float(gold["value"])) > 1e-6:
        return False
    if level == "value":
        return True
    where = f"{fact.get('attribute') or ''} {fact.get('entity') or ''}"
    metric_ok = loose(norm_metric(gold["metric"]), norm_metric(where if base else fact.get("metric")))
    if level == "metric" or not metric_ok:
        return metric_ok
    aliases = datasets.get(gold["dataset"], [gold["dataset"]])
    ds = where if base else fact.get("dataset")
    ds_ok = any(loose(norm_words(a), norm_words(ds)) for a in aliases)
    methods = gold["method"] if isinstance(gold["method"], list) else [gold["method"]]
    me_ok = any(loose(norm_words(m), norm_words(fact.get("entity"))) for m in methods)
    return ds_ok and me_ok


def result_counts(
    gold: list[dict[str, Any]],
    facts: list[dict[str, Any]],
    datasets: dict[str, list[str]],
    base: bool,
    ignore_metrics: list[str],
    ignored_values: set[float],
) -> Counter[str]:
    c: Counter[str] = Counter(gold=len(gold))
    for g in gold:
        for level in ("value", "metric", "full"):
            c[level] += any(matches(f, g, datasets, level, base) for f in facts)
    for f in facts:
        if base or not f.get("metric"):
            continue
        if any(loose(norm_metric(m), norm_metric(f["metric"])) for m in ignore_metrics):
            continue
        if f.get("numeric_value") is not None and float(f["numeric_value"]) in ignored_values:
            continue
        c["claimed"] += 1
        c["right"] += any(matches(f, g, datasets, "full", base) for g in gold)
    c["facts"] += len(facts)
    c["noise"] += sum(is_noise(f) for f in facts)
    return c


_MARKUP = re.compile(r"[|<>_*\\$]|\d[A-Za-z]{2}")


def is_noise(f: dict[str, Any]) -> bool:
    """A count of a plain noun ("two versions": a value written in words, counting a lower-case noun, with no
    currency or metric), or an entity holding markup or a footnote mark ("5We", "|Transformer(4")."""
    if _MARKUP.search(str(f.get("entity") or "")):
        return True
    if f.get("currency") or f.get("metric") or f.get("value_type") not in {"number", None}:
        return False
    counted = str(f.get("unit") or "")
    spelled = not re.search(r"\d", str(f.get("value") or ""))
    return spelled and not re.search(r"[A-Z0-9]", counted)


def ignored_table_values(body: str, starts: list[str]) -> set[float]:
    """Numbers inside the tables nobody labelled (their first line given)."""
    values: set[float] = set()
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if any(line.startswith(s) for s in starts):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                values.update(float(x) for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])", lines[j]))
                j += 1
    return values


# ----------------------------------------------------------------------------- report


def entity_table(rows: dict[str, dict[str, Counter[str]]]) -> str:
    systems = list(rows)
    head = "  " + f"{'type':<16}{'gold':>6}" + "".join(f"{s + ' P':>12}{'R':>6}{'F1':>6}" for s in systems)
    lines = [head]
    for row in (*SCI_TYPES, *(f"named {t}" for t in SCI_TYPES)):
        g = rows[systems[0]][row]["gold"]
        cells = "".join(
            f"{prf(rows[s][row])[0]:>12.2f}{prf(rows[s][row])[1]:>6.2f}{prf(rows[s][row])[2]:>6.2f}"
            for s in systems
        )
        lines.append(f"  {row:<16}{g:>6}{cells}")
    n = rows[systems[0]]["named any"]["gold"]
    lines.append(
        "  named gold names typed as company/person/location: "
        + ", ".join(f"{s} {rows[s]['named any']['wrong_type']}/{n}" for s in systems)
    )
    return "\n".join(lines)


def result_line(name: str, c: Counter[str]) -> str:
    g = c["gold"] or 1
    prec = (
        f"{c['right']}/{c['claimed']} ({c['right'] / c['claimed']:.2f})"
        if c["claimed"]
        else "n/a (no metric field)"
    )
    noise = f"{c['noise']}/{c['facts']} ({c['noise'] / max(c['facts'], 1):.2f})"
    return (
        f"  {name:<10} value {c['value']:>3}/{c['gold']} ({c['value'] / g:.2f})  +metric {c['metric']:>3} ({c['metric'] / g:.2f})"
        f"  full {c['full']:>3} ({c['full'] / g:.2f})  precision {prec}  noise {noise}"
    )


def main() -> int:
    sys.path.insert(0, str(HERE.parents[1]))
    passages = [
        json.loads(line) for line in (DATA / "scirex_passages.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    sentences = [
        json.loads(line) for line in (DATA / "scirex_results.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    papers = paper_bodies()
    texts = [p["text"] for p in passages] + [s["text"] for s in sentences] + [body for _, body in papers]
    want = [False] * len(passages) + [True] * (len(sentences) + len(papers))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        preds = {
            "ours": run_worker(texts, want, None),
            "baseline": run_worker(texts, want, baseline_source(Path(tmp))),
        }
    preds["bare spaCy"] = bare_predict(texts)
    n_p, n_s = len(passages), len(sentences)
    print(
        f"SciREX train: {n_p} passages ({sum(p['sentences'] for p in passages)} sentences), {n_s} result sentences; "
        f"{len(papers)} fixture papers via papers-mcp; baseline = research-mcp at {BASELINE_COMMIT}"
    )
    print("entities on SciREX passages (span and type; P over predictions of the four types)")
    print(entity_table({name: entity_counts(passages, p[:n_p]) for name, p in preds.items()}))
    print(
        "results (value found; +metric; full = metric, dataset and method right), precision of facts with a metric, noise"
    )
    for (paper, body), k in zip(papers, range(len(papers)), strict=True):
        ignored = ignored_table_values(body, paper["ignore_tables"])
        held = "; held out: not looked at while writing the code" if paper.get("held_out") else ""
        print(f" {paper['id']} ({paper['route']} route, {len(paper['results'])} labelled results{held})")
        for name in ("ours", "baseline"):
            facts = preds[name][n_p + n_s + k]["facts"]
            c = result_counts(
                paper["results"],
                facts,
                paper["datasets"],
                name == "baseline",
                paper["ignore_metrics"],
                ignored,
            )
            print(result_line(name, c))
        for name in ("ours", "baseline", "bare spaCy"):
            got = {n.lower(): t for n, t in preds[name][n_p + n_s + k]["names"]}
            right = sum(got.get(n.lower()) == t for t, names in paper["entities"].items() for n in names)
            total = sum(len(v) for v in paper["entities"].values())
            wrong = [
                n
                for t, names in paper["entities"].items()
                for n in names
                if got.get(n.lower()) in WRONG_TYPES
            ]
            heads = [h for h in paper["not_entities"] if h.lower() in got]
            rel = Counter(r for _, r, _ in preds[name][n_p + n_s + k]["edges"])
            print(
                f"  {name:<10} labelled names typed right {right}/{total}; as company/person/location {len(wrong)}"
                f" {wrong[:6]}; headings/columns as entities {len(heads)} {heads}; entities {len(got)}; edges {dict(rel)}"
            )
    print(" SciREX sentences stating a leaderboard score")
    for name in ("ours", "baseline"):
        total: Counter[str] = Counter()
        for i, s in enumerate(sentences):
            total += result_counts(
                s["results"], preds[name][n_p + i]["facts"], {}, name == "baseline", [], set()
            )
        print(result_line(name, total))
    print(f"time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        job = json.loads(Path(sys.argv[2]).read_text(encoding="utf-8"))
        Path(sys.argv[3]).write_text(json.dumps(predict(job["texts"], job["facts"])), encoding="utf-8")
        sys.exit(0)
    sys.exit(main())
