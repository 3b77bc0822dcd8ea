"""Build the science evaluation's cases and the scientific-name gazetteer from SciREX train documents.

    python tests/eval/data/science/build.py RAW_DIR

RAW_DIR holds allenai/SciREX's ``docs/train_docs/*.json`` (the training split only; see
PROVENANCE.md). The documents, sorted by id, are split once: every 10th is an evaluation
document, the other nine in ten feed the gazetteer (``research_mcp/entity/data/science_names.tsv``),
so no name is learnt from a document it is scored on.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).parent
GAZETTEER = (
    HERE.parents[3]
    / "packages"
    / "research-mcp"
    / "src"
    / "research_mcp"
    / "entity"
    / "data"
    / "science_names.tsv"
)
TYPES = {"Method": "method", "Material": "dataset", "Metric": "metric", "Task": "task"}
NO_SPACE_BEFORE = {",", ".", ";", ":", ")", "]", "%", "'s", "?", "!", "'"}
NO_SPACE_AFTER = {"(", "["}
PASSAGE = 3  # sentences per case
PASSAGES_PER_DOC = 4


def detokenise(words: list[str]) -> tuple[str, list[tuple[int, int]]]:
    """SciREX's tokens joined back into prose ("state - of - the - art" -> "state-of-the-art"), with each
    token's character span."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    for i, w in enumerate(words):
        prev = words[i - 1] if i else ""
        glue = (
            i == 0
            or w in NO_SPACE_BEFORE
            or prev in NO_SPACE_AFTER
            or (w == "-" and i + 1 < len(words))
            or prev == "-"
        )
        if not glue:
            out.append(" ")
            pos += 1
        spans.append((pos, pos + len(w)))
        out.append(w)
        pos += len(w)
    return "".join(out), spans


def is_eval(index: int) -> bool:
    return index % 10 == 0


def passages(doc: dict) -> list[dict]:
    """PASSAGES_PER_DOC runs of PASSAGE sentences at an even stride through the document (section
    title lines skipped), with the document's labels inside each run as character spans."""
    sents = [s for s in doc["sentences"] if s[1] - s[0] >= 6 and doc["words"][s[0]] != "section"]
    if len(sents) < PASSAGE:
        return []
    stride = max(1, (len(sents) - PASSAGE) // PASSAGES_PER_DOC)
    cases = []
    for k in range(PASSAGES_PER_DOC):
        run = sents[k * stride : k * stride + PASSAGE]
        if len(run) < PASSAGE:
            break
        start, end = run[0][0], run[-1][1]
        text, spans = detokenise(doc["words"][start:end])
        ents = sorted(
            {
                (spans[a - start][0], spans[b - 1 - start][1], TYPES[t])
                for a, b, t in doc["ner"]
                if start <= a and b <= end and t in TYPES
            }
        )
        cases.append(
            {"id": f"{doc['doc_id'][:10]}:{start}", "sentences": PASSAGE, "text": text, "entities": ents}
        )
    return cases


def results(doc: dict) -> list[dict]:
    """Sentences that state a SciREX result's score (most scores are only in the papers' tables, which
    SciREX leaves out); each with the (method, dataset, metric, task, score) tuples it states."""
    cases = []
    words = doc["words"]
    for a, b in doc["sentences"]:
        sent = words[a:b]
        if b - a < 8 or sum(w.isalpha() for w in sent) < (b - a) / 2:
            continue  # figure code and table debris ("(0.4, 0.6) rectangle"), not a sentence
        gold = []
        for rel in doc["n_ary_relations"]:
            score = str(rel["score"]).strip().rstrip("%").strip()
            if score and score in sent:
                gold.append(
                    {
                        "method": rel["Method"].replace("_", " ").strip(),
                        "dataset": rel["Material"].replace("_", " ").strip(),
                        "metric": rel["Metric"].replace("_", " ").strip(),
                        "task": rel["Task"].replace("_", " ").strip(),
                        "value": float(score),
                    }
                )
        if gold:
            text, _ = detokenise(sent)
            cases.append({"id": f"{doc['doc_id'][:10]}:{a}", "text": text, "results": gold})
    return cases


_NAMED = re.compile(r"[A-Z0-9]")
# Not what our types mean, though SciREX's annotators sometimes labelled them: a language is no dataset
# (SciREX's Material covers both), a processor is no method.
NOT_SCIENTIFIC = re.compile(
    r"(?i)^(?:english|german|french|chinese|japanese|spanish|russian|arabic|czech|romanian|italian|"
    r"portuguese|korean|hindi|turkish|finnish|dutch|languages?|gpus?|cpus?|tpus?|nvidia\b.*|.*\bgpus?)$"
)


def gazetteer(docs: list[dict]) -> list[tuple[str, str, int]]:
    """Names typed the same way in at least two training documents (or a document's canonical entity
    name): the document-level names (Papers with Code's, via SciREX) and surface forms with a capital or a
    digit (a name, not "the model"), or lower-case phrases of two or more words seen in three documents."""
    seen: dict[str, Counter[str]] = defaultdict(Counter)
    forms: Counter[str] = Counter()  # how often each word is written as is, across the documents
    for doc in docs:
        forms.update(doc["words"])
        names: set[tuple[str, str]] = set()
        for rel in doc["n_ary_relations"]:
            for field, etype in (
                ("Method", "method"),
                ("Material", "dataset"),
                ("Metric", "metric"),
                ("Task", "task"),
            ):
                name = rel[field].replace("_", " ").strip()
                if 2 <= len(name) <= 60:
                    names.add((name, etype))
        text_words = doc["words"]
        for a, b, t in doc["ner"]:
            if t not in TYPES or b - a > 6:
                continue
            surface, _ = detokenise(text_words[a:b])
            surface = surface.strip(" .,;:()[]")
            if surface.count("(") != surface.count(")") or surface.count("“") != surface.count("”"):
                continue
            if len(surface) < 2 or len(surface) > 60 or not re.search(r"[A-Za-z]", surface):
                continue
            names.add((surface, TYPES[t]))
        for name, etype in names:
            seen[name][etype] += 1
    out = []
    for name, votes in seen.items():
        etype, n = votes.most_common(1)[0]
        if n < sum(votes.values()) * 0.75:
            continue  # typed differently in different papers
        named = bool(_NAMED.search(name))
        if NOT_SCIENTIFIC.match(name):
            continue
        if re.search(r"\s(?:data\s*sets?|datasets?|corpus|corpora|benchmarks?)$", name, re.IGNORECASE):
            continue  # "Cityscapes dataset": the name is "Cityscapes"
        if re.fullmatch(r"[A-Z][a-z]+", name) and forms[name.lower()] >= forms[name]:
            continue  # "Images", "Network", "Company": a common word at the start of a sentence
        if (named and n >= 2) or (not named and " " in name and n >= 3):
            out.append((name, etype, n))
    return sorted(out, key=lambda x: (x[1], x[0].lower()))


def main(raw: Path) -> None:
    files = sorted(raw.glob("*.json"))
    eval_docs, train_docs = [], []
    for i, f in enumerate(files):
        (eval_docs if is_eval(i) else train_docs).append(json.loads(f.read_text(encoding="utf-8")))
    with (HERE / "scirex_passages.jsonl").open("w", encoding="utf-8") as fh:
        for doc in eval_docs:
            for case in passages(doc):
                fh.write(json.dumps(case) + "\n")
    with (HERE / "scirex_results.jsonl").open("w", encoding="utf-8") as fh:
        for doc in eval_docs:
            for case in results(doc):
                fh.write(json.dumps(case) + "\n")
    with (HERE / "eval_doc_ids.txt").open("w", encoding="utf-8") as fh:
        fh.write("".join(d["doc_id"] + "\n" for d in eval_docs))
    rows = gazetteer(train_docs)
    header = (
        "# Scientific names typed by SciREX's annotators (allenai/SciREX @ 7daad66, docs/train_docs, Apache-2.0),\n"
        "# built by tests/eval/data/science/build.py from the 9 in 10 training documents the evaluation does not\n"
        "# score (eval_doc_ids.txt lists those it scores). name<TAB>type<TAB>documents\n"
    )
    GAZETTEER.write_text(header + "".join(f"{n}\t{t}\t{k}\n" for n, t, k in rows), encoding="utf-8")
    print(f"{len(eval_docs)} eval docs, {len(train_docs)} gazetteer docs, {len(rows)} names")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
