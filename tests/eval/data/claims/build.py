"""Build ``cases.jsonl`` for ``eval_claims.py`` from the public snapshots named in PROVENANCE.md.

Usage: ``python build.py HEALTHVER_GIT COVIDFACT_GIT`` (two git directories; files are read with
``git show <commit>:<path>``, so nothing else is needed). It never calls research-mcp.

Each case is one claim and one source text: the passage a third party labelled for the claim, placed
among three passages labelled for other claims of another dataset (seeded shuffle), so that the
checker has to find the evidence and an evidence hit can be scored by offsets.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent
HEALTHVER = ("b20ac99ceed62f5264a319fa25a854df1668d85b", "data/healthver_dev.csv")
COVIDFACT = "ceeb613cde5a6c19dea4f2c165654e510ff52b10"
SCIFACT_PATH = "RTE-scifact/train.tsv"
COVIDFACT_PATH = "RTE-covidfact/train.tsv"
PER_CLASS = {"scifact": 50, "covidfact": 40, "healthver": 30}
NOT_FOUND = {
    "healthver": 80,
    "scifact": 20,
    "covidfact": 20,
}  # the last two: claim with other claims' passages
NUMERIC = {
    "scifact": 15,
    "covidfact": 25,
    "healthver": 12,
}  # of each class's draw, claims with a number come first
DISTRACTORS = 3
# the verdict model's training draw (train.jsonl), per dataset and class
TRAIN_PER_CLASS = {
    "scifact": {"supported": 90, "contradicted": 60},
    "covidfact": {"supported": 90, "contradicted": 110},
    "healthver": {"supported": 120, "contradicted": 110, "not_found": 200},
}
NUMBER_RE = re.compile(r"(?<![\w-])\d")  # a number that is not part of a name (SARS-CoV-2, COVID-19, B12)


def _show(git_dir: str, commit: str, path: str) -> str:
    out = subprocess.run(
        ["git", "--git-dir", git_dir, "show", f"{commit}:{path}"], check=True, capture_output=True
    )
    return out.stdout.decode("utf-8")


def _tsv(text: str) -> list[tuple[str, str, str]]:
    rows = []
    for line in text.splitlines()[1:]:
        parts = line.split("\t")
        if len(parts) == 4:
            rows.append((parts[1].strip(), parts[2].strip(), parts[3].strip()))
    return rows


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def load(hv_git: str, cf_git: str) -> dict[str, list[dict[str, str]]]:
    """Every labelled pair, by dataset: claim, evidence, label (supported|contradicted|not_found)."""
    out: dict[str, list[dict[str, str]]] = {"scifact": [], "covidfact": [], "healthver": []}
    rte = {"entailment": "supported", "not_entailment": "contradicted"}
    for name, path in (("scifact", SCIFACT_PATH), ("covidfact", COVIDFACT_PATH)):
        for evidence, claim, label in _tsv(_show(cf_git, COVIDFACT, path)):
            if label in rte:
                out[name].append({"claim": _clean(claim), "evidence": _clean(evidence), "label": rte[label]})
    hv = {"Supports": "supported", "Refutes": "contradicted", "Neutral": "not_found"}
    for row in csv.DictReader(io.StringIO(_show(hv_git, *HEALTHVER))):
        out["healthver"].append(
            {
                "claim": _clean(row["claim"]),
                "evidence": _clean(row["evidence"]),
                "label": hv[row["label"]],
                "topic": row["topic_ip"],
            }
        )
    return out


def _pick(
    rows: list[dict[str, str]], label: str, n: int, rng: random.Random, used: set[str], numeric_first: int = 0
) -> list[dict[str, str]]:
    pool = [r for r in rows if r["label"] == label and r["claim"] not in used and len(r["claim"]) > 15]
    rng.shuffle(pool)
    numeric = [r for r in pool if NUMBER_RE.search(r["claim"])][:numeric_first]
    pool = numeric + [r for r in pool if r not in numeric]
    picked: list[dict[str, str]] = []
    seen_evidence: set[str] = set()
    for r in pool:
        if r["evidence"] in seen_evidence or len(r["evidence"]) < 30:
            continue
        seen_evidence.add(r["evidence"])
        used.add(r["claim"])
        picked.append(r)
        if len(picked) == n:
            break
    return picked


def _write(path: Path, cases: list[dict[str, object]]) -> None:
    with path.open("w", encoding="utf-8") as fh:
        for c in cases:
            fh.write(json.dumps(c, ensure_ascii=False) + "\n")
    print(path.name, len(cases), "cases")


def _pages(
    chosen: list[tuple[str, dict[str, str], bool]],
    pool: dict[str, list[str]],
    rng: random.Random,
    prefix: str,
) -> list[dict[str, object]]:
    """Each claim with its source: its labelled passage (unless left off) among three of another dataset."""
    cases: list[dict[str, object]] = []
    for i, (name, row, on_page) in enumerate(chosen):
        others = [d for d in pool if d != name]
        passages = [rng.choice(pool[rng.choice(others)]) for _ in range(DISTRACTORS)]
        slot = rng.randrange(DISTRACTORS + 1) if on_page else -1
        if on_page:
            passages.insert(slot, row["evidence"])
        text, rationales = "", []
        for j, p in enumerate(passages):
            if j:
                text += "\n\n"
            if j == slot:
                rationales.append([len(text), len(text) + len(p)])
            text += p
        cases.append(
            {
                "id": f"{prefix}{name}-{i:03d}",
                "dataset": name,
                "split": "dev" if name == "healthver" else "train",
                "claim": row["claim"],
                "label": row["label"],
                "third_party_label": on_page,
                "numeric": bool(NUMBER_RE.search(row["claim"])),
                "source": text,
                "rationales": rationales,
            }
        )
    return cases


def main(hv_git: str, cf_git: str) -> None:
    rng = random.Random(20)
    data = load(hv_git, cf_git)
    used: set[str] = set()
    chosen: list[tuple[str, dict[str, str], bool]] = []  # (dataset, row, its passage on the page)
    for name, n in PER_CLASS.items():
        for label in ("supported", "contradicted"):
            chosen += [(name, r, True) for r in _pick(data[name], label, n, rng, used, NUMERIC[name])]
    for name, n in NOT_FOUND.items():
        if name == "healthver":
            chosen += [(name, r, True) for r in _pick(data[name], "not_found", n, rng, used, NUMERIC[name])]
        else:  # a claim whose own passage is left off the page: its evidence is not in the source
            rows = _pick(data[name], "supported", n // 2, rng, used) + _pick(
                data[name], "contradicted", n // 2, rng, used
            )
            chosen += [(name, {**r, "label": "not_found"}, False) for r in rows]
    pool = {name: sorted({r["evidence"] for r in rows}) for name, rows in data.items()}
    _write(HERE / "cases.jsonl", _pages(chosen, pool, rng, ""))
    # the verdict model's training cases: other claims of the same splits, never a claim or a labelled
    # passage of the evaluation cases (COVID-Fact's counter-claims share their original's passage)
    held = {r["claim"] for _, r, _ in chosen} | {r["evidence"] for _, r, _ in chosen}
    rest = {
        n: [r for r in rows if r["claim"] not in held and r["evidence"] not in held]
        for n, rows in data.items()
    }
    train: list[tuple[str, dict[str, str], bool]] = []
    for name, rows in rest.items():
        for label, n in TRAIN_PER_CLASS[name].items():
            train += [(name, r, True) for r in _pick(rows, label, n, rng, used, n // 3)]
    for name in ("scifact", "covidfact"):
        rows = _pick(rest[name], "supported", 25, rng, used) + _pick(
            rest[name], "contradicted", 25, rng, used
        )
        train += [(name, {**r, "label": "not_found"}, False) for r in rows]
    _write(HERE / "train.jsonl", _pages(train, pool, rng, "train-"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
