"""Rebuild the entity evaluation cases from the corpora's own files (run by hand, never by tests).

Usage: ``python build.py RAW_DIR`` where RAW_DIR holds the files named in PROVENANCE.md, written
with ``git show <commit>:<path>`` from the repositories listed there. Writes one JSONL file per
corpus beside this script: ``{"id", "text", "entities": [[start, end, label], ...]}`` with the
corpus's own labels and character offsets into ``text`` (the tokens joined back into prose).
Sampling is a fixed stride over the training/development files, so a rebuild gives the same cases.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterator
from pathlib import Path

HERE = Path(__file__).parent

NO_SPACE_BEFORE = {
    ",",
    ".",
    ";",
    ":",
    "!",
    "?",
    ")",
    "]",
    "}",
    "%",
    "'s",
    "n't",
    "'re",
    "'ve",
    "'ll",
    "'d",
    "'m",
    "...",
    "''",
}
NO_SPACE_AFTER = {"(", "[", "{", "$", "``", "#", "@"}
CLITICS = {"s", "ve", "ll", "re", "d", "t", "m"}

Token = tuple[str, str]  # (text, label in BIO/IO form, "O" outside)


def detokenize(tokens: list[Token]) -> tuple[str, list[list[object]]]:
    """Prose from tokens, and the entity spans ([start, end, label]) over it."""
    text = ""
    spans: list[list[object]] = []
    open_quote = False
    prev = ""
    current: list[object] | None = None
    for i, (tok, label) in enumerate(tokens):
        attach = False
        if (
            not text
            or tok in NO_SPACE_BEFORE
            or prev in NO_SPACE_AFTER
            or (tok in {"'", "´", "’"} and i + 1 < len(tokens) and tokens[i + 1][0].lower() in CLITICS)
            or (
                prev in {"'", "´", "’"}
                and tok.lower() in CLITICS
                and text.endswith(prev)
                and len(text) > 1
                and text[-2] != " "
            )
        ):
            attach = True
        elif tok == '"':
            attach = open_quote
        elif prev == '"' and open_quote:
            attach = True
        if tok == '"':
            open_quote = not open_quote
        start = len(text) + (0 if attach else 1)
        text += ("" if attach else " ") + tok
        end = len(text)
        kind = label.split("-", 1)[1] if label != "O" else None
        begins = label.startswith("B-")
        if kind is None:
            current = None
        elif current is not None and current[2] == kind and not begins:
            current[1] = end
        else:
            current = [start, end, kind]
            spans.append(current)
        prev = tok
    return text, spans


def conll_sentences(path: Path, *, docstart: bool) -> Iterator[tuple[int, list[Token]]]:
    """(document number, tokens) per sentence of a CoNLL file whose last column is the label."""
    doc, sent = 0, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("-DOCSTART-"):
            doc += 1
            continue
        parts = line.split()
        if not parts:
            if sent:
                yield doc, sent
            sent = []
            continue
        sent.append((parts[0], parts[-1]))
    if sent:
        yield doc, sent


def write(name: str, cases: list[dict[str, object]]) -> None:
    with (HERE / f"{name}.jsonl").open("w", encoding="utf-8") as out:
        for case in cases:
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
    n_ents = sum(len(c["entities"]) for c in cases)  # type: ignore[arg-type]
    print(f"{name}: {len(cases)} texts, {n_ents} entities")


def passages(name: str, docs: dict[int, list[list[Token]]], every: int, max_sentences: int) -> None:
    """Every ``every``-th document, its first ``max_sentences`` sentences as one text (coreference spans them)."""
    cases = []
    for d in sorted(docs)[::every]:
        parts, spans, offset = [], [], 0
        for sent in docs[d][:max_sentences]:
            text, sent_spans = detokenize(sent)
            parts.append(text)
            spans += [[s + offset, e + offset, k] for s, e, k in sent_spans]
            offset += len(text) + 1
        cases.append(
            {"id": f"{name}-doc{d}", "sentences": len(parts), "text": " ".join(parts), "entities": spans}
        )
    write(name, cases)


def sentences(name: str, sents: list[list[Token]], every: int) -> None:
    cases = []
    for i in range(0, len(sents), every):
        text, spans = detokenize(sents[i])
        if len(text) > 600:
            continue
        cases.append({"id": f"{name}-s{i}", "sentences": 1, "text": text, "entities": spans})
    write(name, cases)


FINER_LABELS = {"0": "O", "1": "B-PER", "2": "I-PER", "3": "B-LOC", "4": "I-LOC", "5": "B-ORG", "6": "I-ORG"}


def main(raw: Path) -> None:
    finer: dict[int, dict[int, list[Token]]] = {}
    with (raw / "finer_train.csv").open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            finer.setdefault(int(row["doc_idx"]), {}).setdefault(int(row["sent_idx"]), []).append(
                (row["gold_token"], FINER_LABELS[row["gold_label"]])
            )
    passages("finer_ord", {d: [s[k] for k in sorted(s)] for d, s in finer.items()}, every=4, max_sentences=10)

    wiki: dict[int, list[list[Token]]] = {}
    for d, sent in conll_sentences(raw / "wikigold.txt", docstart=True):
        wiki.setdefault(d, []).append(sent)
    passages("wikigold", wiki, every=3, max_sentences=5)

    wnut = [s for _, s in conll_sentences(raw / "wnut17_dev.conll", docstart=False)]
    sentences("wnut17_dev", wnut, every=4)
    btc = [s for _, s in conll_sentences(raw / "btc_g.conll", docstart=False)]
    sentences("btc_news", btc, every=10)
    sec = [s for _, s in conll_sentences(raw / "sec_fin5.txt", docstart=True)]
    sentences("sec_filings", sec, every=5)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
