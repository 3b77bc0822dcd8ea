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
import re
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


def _handle_sign(text: str, current: list[object], start: int) -> bool:
    """Whether the open span is a lone "@" or "#" that the next token, written against it, continues."""
    begin, end = current[0], current[1]
    return end == start and isinstance(begin, int) and end == begin + 1 and text[begin] in "@#"


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
        elif (
            current is not None and current[2] == kind and (not begins or _handle_sign(text, current, start))
        ):
            current[1] = end  # "@" tagged B-PER, then "MathiasCormann" tagged B-PER again: one handle
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


# ---- shapes: real sentences of the failure classes of issue 9, one class per case -------------------------

SHAPE_SOURCES = (  # file in RAW_DIR, kind ("finer" CSV, "conll" sentences, "wiki" documents)
    ("finer_train.csv", "finer"), ("finer_val.csv", "finer"), ("wikigold.txt", "wiki"),
    ("btc_a.conll", "conll"), ("btc_b.conll", "conll"), ("btc_e.conll", "conll"), ("btc_g.conll", "conll"),
    ("btc_h.conll", "conll"), ("wnut17_train.conll", "conll"), ("wnut17_dev.conll", "conll"),
    ("sec_fin5.txt", "conll"),
)  # fmt: skip
ORG_LABELS = {"ORG", "corporation", "group"}
PER_CAP = 30  # cases per class at most
SAME_NAME_CAP = 2  # cases with the same target name at most ("Malaysia Airlines" heads 20 tweets)
_CENTRAL = re.compile(
    r"(?i)\b(?:central|reserve|development) bank\b|federal reserve|\bbank of (?:england|japan|canada|korea|"
    r"israel|thailand|france|italy|spain|greece|portugal|russia|mexico)\b|bundesbank|\b(?:swiss|czech) national bank"
)


def _shape_documents(raw: Path) -> Iterator[tuple[str, list[tuple[str, list[list[object]]]]]]:
    """(source id, sentences as (text, spans)) for every document of the shape sources."""
    for name, kind in SHAPE_SOURCES:
        if kind == "finer":
            docs: dict[int, dict[int, list[Token]]] = {}
            with (raw / name).open(encoding="utf-8") as fh:
                for row in csv.DictReader(fh):
                    docs.setdefault(int(row["doc_idx"]), {}).setdefault(int(row["sent_idx"]), []).append(
                        (row["gold_token"], FINER_LABELS[row["gold_label"]])
                    )
            for d, sents in sorted(docs.items()):
                yield f"{name}:doc{d}", [detokenize(sents[k]) for k in sorted(sents)]
        elif kind == "wiki":
            wiki: dict[int, list[list[Token]]] = {}
            for d, sent in conll_sentences(raw / name, docstart=True):
                wiki.setdefault(d, []).append(sent)
            for d, sents in sorted(wiki.items()):
                yield f"{name}:doc{d}", [detokenize(s) for s in sents]
        else:
            for i, (_, sent) in enumerate(conll_sentences(raw / name, docstart=False)):
                yield f"{name}:s{i}", [detokenize(sent)]


def _shape_of(text: str, span: list[object], spans: list[list[object]], lex: object) -> str | None:
    """The failure class a gold span belongs to, by its own words and what stands before it."""
    from research_mcp.entity.places import place_kind

    start, end, label = span
    assert isinstance(start, int) and isinstance(end, int)
    name = text[start:end]
    words = re.sub(r"[^\w\s&'-]", " ", name).split()
    before = re.search(r"([a-z]+)\s+$", text[:start])
    if before and before.group(1) in lex.group_nouns:  # type: ignore[attr-defined]
        return "descriptor"
    if label not in ORG_LABELS or len(words) < 2:
        return None
    if _CENTRAL.search(name):
        return "public_bank"
    last = words[-1].lower().rstrip(".")
    if last in lex.business_words and any(place_kind(w) for w in words[:-1]):  # type: ignore[attr-defined]
        return "place_business"
    if re.match(r"Bank of [A-Z]", name):
        return "place_business"
    if last in lex.legal_forms and words[-1][:1].isupper():  # type: ignore[attr-defined]
        return "legal_form"
    return None


def _acronym_definitions(text: str, spans: list[list[object]]) -> list[tuple[int, int, int, int]]:
    """(long start, long end, short start, short end) of gold "Long Name (LN)" pairs."""
    from research_mcp.entity.acronyms import abbreviates

    out = []
    for ls, le, _ in spans:
        after = re.match(r"\s*\(\s*", text[le:])  # type: ignore[misc]
        if not after:
            continue
        for ss, se, _ in spans:
            short = text[ss:se]  # type: ignore[misc]
            if ss == le + after.end() and text[se : se + 1] == ")" and abbreviates(short, text[ls:le]):  # type: ignore[operator,misc]
                out.append((ls, le, ss, se))  # type: ignore[arg-type]
    return out


def shapes(raw: Path) -> None:
    """shapes.jsonl: up to PER_CAP cases per class, in source order, each scored on its target spans."""
    from research_mcp.entity.lexicons import lexicons

    lex = lexicons()
    cases: dict[str, list[dict[str, object]]] = {k: [] for k in
                                                 ("acronym", "descriptor", "place_business", "legal_form", "public_bank")}  # fmt: skip
    names_seen: dict[tuple[str, str], int] = {}
    for source, sents in _shape_documents(raw):
        for j, (text, spans) in enumerate(sents):
            for cls in cases:
                if len(cases[cls]) >= PER_CAP:
                    continue
                if cls == "acronym":
                    pairs = _acronym_definitions(text, spans)
                    if not pairs:
                        continue
                    # the defining sentence and the document's next sentences that use the short form again
                    shorts = {text[ss:se] for _, _, ss, se in pairs}
                    parts, all_spans, offset = [text], list(spans), len(text) + 1
                    for later, later_spans in sents[j + 1 :]:
                        if len(parts) == 4:
                            break
                        if any(re.search(rf"(?<!\w){re.escape(x)}(?!\w)", later) for x in shorts):
                            parts.append(later)
                            all_spans += [[s + offset, e + offset, k] for s, e, k in later_spans]  # type: ignore[operator]
                            offset += len(later) + 1
                    joined = " ".join(parts)
                    targets = [[ls, le, ss, se] for ls, le, ss, se in pairs]
                    key = (cls, text[pairs[0][2] : pairs[0][3]])
                    if names_seen.get(key, 0) >= SAME_NAME_CAP:
                        continue
                    names_seen[key] = names_seen.get(key, 0) + 1
                    cases[cls].append({"id": f"{cls}-{source}:{j}", "class": cls, "source": f"{source}:sentence{j}",
                                       "text": joined, "entities": all_spans, "targets": targets})  # fmt: skip
                    continue
                targets = [sp for sp in spans if _shape_of(text, sp, spans, lex) == cls]
                if not targets:
                    continue
                key = (cls, text[targets[0][0] : targets[0][1]])  # type: ignore[misc]
                if names_seen.get(key, 0) >= SAME_NAME_CAP:
                    continue
                names_seen[key] = names_seen.get(key, 0) + 1
                cases[cls].append({"id": f"{cls}-{source}:{j}", "class": cls, "source": f"{source}:sentence{j}",
                                   "text": text, "entities": spans, "targets": [t[:2] for t in targets]})  # fmt: skip
    write("shapes", [c for cls in cases for c in cases[cls]])
    for cls, found in cases.items():
        print(f"  {cls}: {len(found)} cases")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[2] == "shapes":
        shapes(Path(sys.argv[1]))
    else:
        main(Path(sys.argv[1]))
