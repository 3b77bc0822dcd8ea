"""entity-extract on third-party labelled text: per-type precision and recall, ours vs bare spaCy labels.

The cases (tests/eval/data/entities/*.jsonl, provenance in PROVENANCE.md there) are NER training and
development sentences of financial news (FiNER-ORD), loan agreements from SEC filings, Wikipedia
(wikigold), news-outlet tweets (Broad Twitter Corpus, section G) and web comments (WNUT-17 dev).
Gold labels are the corpora's own; corpora that lump companies and other bodies under ORG have a
company/organization label per name, given by eye (org_kinds.tsv).

A mention counts when its span (a leading "the" and a trailing possessive dropped on both sides)
equals a gold span and the types agree. Predictions over spans a corpus does not type for us (MISC,
creative works) are left out of precision. The baseline is spaCy's own entities with its labels
mapped to ours the plain way (ORG company, PERSON person, GPE/LOC/FAC location, PRODUCT product,
EVENT event), over the same parses in the same run.

The shapes section scores the failure classes of issue 9 one by one, on real sentences of each shape
taken from the same corpora's training and development files (shapes.jsonl, built by build.py):
acronyms defined beside their long form ("Long Name (LN)") and used again later, names after a
descriptor noun ("analysts A, B and C", "lender Nedbank"), a place followed by a business word
("Malaysia Airlines", "Bank of Ireland"), names ending in a legal form ("Volkswagen AG", "Trust Co
Ltd") and central or public banks ("Bank of Korea", "Central bank of Turkey"). A target counts when
its span and type are right; for acronyms also when the short form's mentions join the long form.

Alias rows use only the gold spans: a lone surname after the full name of a person in the same text,
and "Long Name (ACRONYM)" pairs; a pair counts when our extractor puts both in one entity. Wrong
merges are pairs of our mentions in one entity whose gold types differ.
"""

from __future__ import annotations

import json
import re
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

DATA = Path(__file__).parent / "data" / "entities"
CORPORA = ("finer_ord", "sec_filings", "wikigold", "btc_news", "wnut17_dev")
# corpus label -> our type; "org" is a lumped ORG whose kind comes from org_kinds.tsv; None: not scored
GOLD_TYPES: dict[str, str | None] = {
    "PER": "person",
    "LOC": "location",
    "ORG": "org",
    "MISC": None,
    "person": "person",
    "location": "location",
    "corporation": "company",
    "group": "organization",
    "product": "product",
    "creative-work": None,
}
BASELINE_TYPES = {
    "ORG": "company",
    "PERSON": "person",
    "GPE": "location",
    "LOC": "location",
    "FAC": "location",
    "PRODUCT": "product",
    "EVENT": "event",
}
ROWS = ("person", "location", "company", "organization", "company+organization", "product", "any type")
_LEAD = re.compile(r"^(?:the|The|THE)\s+")
_TAIL = re.compile(r"(?:['’´]s|['’])$")


@dataclass(frozen=True)
class Gold:
    start: int
    end: int
    label: str  # the corpus's label
    type: str | None  # ours: person, location, company, organization, product, "org" (unknown kind), None


@dataclass(frozen=True)
class Pred:
    start: int
    end: int
    type: str
    entity: int  # which returned entity (ours) the mention belongs to


@dataclass
class Case:
    corpus: str
    id: str
    text: str
    gold: list[Gold]


def load_org_kinds() -> dict[str, str]:
    kinds: dict[str, str] = {}
    for line in (DATA / "org_kinds.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, kind = line.split("\t")
        kinds[name] = kind
    return kinds


def _gold(raw: dict[str, Any], kinds: dict[str, str]) -> list[Gold]:
    """A case's labels in our types; an ORG is a company or an organization by org_kinds.tsv, else "org"."""
    gold = []
    for start, end, label in raw["entities"]:
        ours = GOLD_TYPES[label]
        if ours == "org":
            kind = kinds.get(raw["text"][start:end], "?")
            ours = kind if kind in {"company", "organization"} else "org"
        gold.append(Gold(start, end, label, ours))
    return gold


def load_cases(corpora: Iterable[str] = CORPORA, ids: set[str] | None = None) -> list[Case]:
    kinds = load_org_kinds()
    cases: list[Case] = []
    for corpus in corpora:
        for line in (DATA / f"{corpus}.jsonl").read_text(encoding="utf-8").splitlines():
            raw = json.loads(line)
            if ids is not None and raw["id"] not in ids:
                continue
            cases.append(Case(corpus, raw["id"], raw["text"], _gold(raw, kinds)))
    return cases


def norm_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Drop a leading "the", a trailing possessive and edge punctuation (a final dot too: "Ltd." and "Ltd"
    are one name, and some corpora split the dot off), as both systems may or may not."""
    piece = text[start:end]
    lead = _LEAD.match(piece)
    if lead and len(piece) > lead.end():
        start += lead.end()
    piece = text[start:end]
    tail = _TAIL.search(piece)
    if tail and tail.start() > 0:
        end = start + tail.start()
    while end > start + 1 and text[end - 1] in " ,;:\"'()[].":
        end -= 1
    while start < end - 1 and text[start] in " ,;:\"'()[]#@":
        start += 1
    return start, end


def ours_predict(nlp: Language, texts: list[str]) -> tuple[list[list[Pred]], float]:
    from research_mcp.entities import extract_entities, prepare_text

    out: list[list[Pred]] = []
    started = time.perf_counter()
    for text, doc in zip(texts, nlp.pipe([prepare_text(t) for t in texts], batch_size=32), strict=True):
        result = extract_entities(doc, None, True, source_text=text)
        preds = [
            Pred(start, end, entity["type"], i)
            for i, entity in enumerate(result["entities"])
            for start, end in entity["offsets"]
        ]
        out.append(preds)
    return out, time.perf_counter() - started


def baseline_predict(docs: list[Doc]) -> list[list[Pred]]:
    out = []
    for doc in docs:
        preds = []
        for i, ent in enumerate(doc.ents):
            etype = BASELINE_TYPES.get(ent.label_)
            if etype is not None:
                preds.append(Pred(ent.start_char, ent.end_char, etype, i))
        out.append(preds)
    return out


def _row_types(row: str) -> set[str]:
    if row == "company+organization":
        return {"company", "organization", "org"}
    if row == "any type":
        return {"person", "location", "company", "organization", "org", "product"}
    return {row}


def _scored_rows(corpus: str) -> set[str]:
    rows = {"person", "location", "company", "organization", "company+organization", "any type"}
    return rows | {"product"} if corpus == "wnut17_dev" else rows


def score(cases: list[Case], preds: list[list[Pred]]) -> dict[str, Counter[str]]:
    """Per row: tp (precision side), fp, hit (recall side), gold."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for case, predicted in zip(cases, preds, strict=True):
        gold_by_span: dict[tuple[int, int], Gold] = {}
        ignored: list[tuple[int, int]] = []
        for g in case.gold:
            span = norm_span(case.text, g.start, g.end)
            if g.type is None:
                ignored.append((g.start, g.end))
            else:
                gold_by_span[span] = g
        pred_spans = {(norm_span(case.text, p.start, p.end), p.type) for p in predicted}
        for row in _scored_rows(case.corpus):
            types = _row_types(row)
            pred_types = types - {"org"}
            any_row = row == "any type"
            for span, ptype in pred_spans:
                if ptype not in pred_types and not (any_row and ptype in {"company", "organization"}):
                    continue
                if row == "product" and case.corpus != "wnut17_dev":
                    continue
                g = gold_by_span.get(span)
                if g is None:
                    if any(s < span[1] and span[0] < e for s, e in ignored):
                        continue  # over a MISC / creative-work span: not ours to type
                    counts[row]["fp"] += 1
                elif g.type == "org" and row in {"company", "organization"}:
                    continue  # an ORG whose kind nobody labelled: scored only in the lumped row
                elif g.type in types or (any_row and g.type is not None):
                    counts[row]["tp"] += 1
                else:
                    counts[row]["fp"] += 1
            for span, g in gold_by_span.items():
                if g.type not in types or (g.type == "org" and row in {"company", "organization"}):
                    continue
                counts[row]["gold"] += 1
                if any_row:
                    hit = any(s == span for s, _ in pred_spans)
                else:
                    hit = any(s == span and t in pred_types for s, t in pred_spans)
                counts[row]["hit"] += hit
    return counts


def alias_pairs(case: Case) -> Iterator[tuple[str, Gold, Gold]]:
    """Gold-only alias pairs: ("surname", full, lone) and ("acronym", long, short)."""
    persons = [g for g in case.gold if g.label in {"PER", "person"}]
    for lone in persons:
        words = case.text[lone.start : lone.end].split()
        if len(words) != 1:
            continue
        for full in persons:
            full_words = case.text[full.start : full.end].split()
            if full.start < lone.start and len(full_words) >= 2 and full_words[-1] == words[0]:
                yield "surname", full, lone
                break
    for long in case.gold:
        m = re.match(r"\s*\(", case.text[long.end : long.end + 3])
        if not m:
            continue
        for short in case.gold:
            acr = case.text[short.start : short.end]
            if (
                short.start == long.end + m.end()
                and case.text[short.end : short.end + 1] == ")"
                and acr.upper() == acr
                and len(acr) >= 2
            ):
                yield "acronym", long, short


def alias_score(cases: list[Case], preds: list[list[Pred]]) -> tuple[Counter[str], Counter[str]]:
    found: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for case, predicted in zip(cases, preds, strict=True):
        entity_of = {norm_span(case.text, p.start, p.end): p.entity for p in predicted}
        for kind, a, b in alias_pairs(case):
            found[f"{kind} pairs"] += 1
            ea = entity_of.get(norm_span(case.text, a.start, a.end))
            eb = entity_of.get(norm_span(case.text, b.start, b.end))
            found[f"{kind} merged"] += ea is not None and ea == eb
        gold_label = {norm_span(case.text, g.start, g.end): g.label for g in case.gold}
        members: dict[int, list[str]] = defaultdict(list)
        for p in predicted:
            label = gold_label.get(norm_span(case.text, p.start, p.end))
            if label is not None:
                members[p.entity].append(label)
        for labels in members.values():
            for i in range(len(labels)):
                for j in range(i + 1, len(labels)):
                    wrong["pairs"] += 1
                    wrong["wrong"] += GOLD_TYPES[labels[i]] != GOLD_TYPES[labels[j]]
    return found, wrong


SHAPES = ("acronym", "descriptor", "place_business", "legal_form", "public_bank")


@dataclass
class ShapeCase:
    case: Case
    cls: str
    targets: list[list[int]]  # [start, end] (for acronyms [long start, long end, short start, short end])


def load_shape_cases() -> list[ShapeCase]:
    kinds = load_org_kinds()
    out: list[ShapeCase] = []
    for line in (DATA / "shapes.jsonl").read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        out.append(
            ShapeCase(Case("shapes", raw["id"], raw["text"], _gold(raw, kinds)), raw["class"], raw["targets"])
        )
    return out


def shape_score(cases: list[ShapeCase], preds: list[list[Pred]]) -> dict[str, Counter[str]]:
    """Per class: targets (typed by the gold), right (span and type), and for acronyms uses / joined."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for sc, predicted in zip(cases, preds, strict=True):
        text = sc.case.text
        gold_type = {norm_span(text, g.start, g.end): g.type for g in sc.case.gold}
        pred_type = {norm_span(text, p.start, p.end): p.type for p in predicted}
        entity_of = {norm_span(text, p.start, p.end): p.entity for p in predicted}
        c = counts[sc.cls]
        c["cases"] += 1
        spans: list[tuple[int, int]] = []
        if sc.cls == "acronym":
            for ls, le, ss, se in sc.targets:
                short = text[ss:se]
                uses = [
                    norm_span(text, g.start, g.end) for g in sc.case.gold if text[g.start : g.end] == short
                ]
                spans += uses
                long = entity_of.get(norm_span(text, ls, le))
                for use in uses:
                    c["uses"] += 1
                    c["joined"] += long is not None and entity_of.get(use) == long
        else:
            spans = [norm_span(text, t[0], t[1]) for t in sc.targets]
        for span in spans:
            expected = gold_type.get(span)
            if expected not in {"person", "location", "company", "organization", "product"}:
                continue  # an ORG whose kind nobody could tell
            c["targets"] += 1
            c["right"] += pred_type.get(span) == expected
    return counts


def shapes_table(ours: dict[str, Counter[str]], base: dict[str, Counter[str]]) -> str:
    lines = [
        "shapes (issue 9's failure classes on real sentences; span and type right)",
        f"  {'class':<16}{'cases':>6}{'targets':>8}   {'ours':>10}   {'bare spaCy':>10}   joined (ours; bare 0)",
    ]
    for cls in SHAPES:
        o, b = ours[cls], base[cls]
        n = o["targets"]
        joined = f"{o['joined']}/{o['uses']}" if cls == "acronym" else ""
        lines.append(
            f"  {cls:<16}{o['cases']:>6}{n:>8}   {o['right']:>4} {o['right'] / max(n, 1):>5.2f}"
            f"   {b['right']:>4} {b['right'] / max(n, 1):>5.2f}   {joined}"
        )
    return "\n".join(lines)


def evaluate_shapes(nlp: Language) -> tuple[dict[str, Counter[str]], dict[str, Counter[str]]]:
    cases = load_shape_cases()
    texts = [sc.case.text for sc in cases]
    ours, _ = ours_predict(nlp, texts)
    base = baseline_predict(list(nlp.pipe(texts, batch_size=32)))
    return shape_score(cases, ours), shape_score(cases, base)


def evaluate_author_lists(nlp: Language) -> Counter[str]:
    """Real author lists from arXiv's answers (author_lists.jsonl): names with span and type person.

    Counts ``names``, ``ours`` and ``base`` (bare spaCy's PERSON spans).
    """
    cases = [
        json.loads(line) for line in (DATA / "author_lists.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    texts = [c["text"] for c in cases]
    ours, _ = ours_predict(nlp, texts)
    base = baseline_predict(list(nlp.pipe(texts, batch_size=32)))
    right = Counter[str](papers=len(cases))
    for case, o, b in zip(cases, ours, base, strict=True):
        text = case["text"]
        right["names"] += len(case["entities"])
        for name, predicted in (("ours", o), ("base", b)):
            typed = {norm_span(text, p.start, p.end): p.type for p in predicted}
            for start, end, _label in case["entities"]:
                right[name] += typed.get(norm_span(text, start, end)) == "person"
    return right


def author_lists_line(c: Counter[str]) -> str:
    n = c["names"]
    return (
        f"author lists (arXiv's own author names, {c['papers']} papers, {n} names; span and type person): "
        f"ours {c['ours']}/{n} ({c['ours'] / n:.2f}), bare spaCy {c['base']}/{n} ({c['base'] / n:.2f})"
    )


def _pr(c: Counter[str]) -> tuple[float, float, float]:
    p = c["tp"] / (c["tp"] + c["fp"]) if c["tp"] + c["fp"] else 0.0
    r = c["hit"] / c["gold"] if c["gold"] else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def evaluate(nlp: Language, cases: list[Case]) -> dict[str, Any]:
    """Both systems over ``cases``: per-row counts, alias figures and timings."""
    texts = [c.text for c in cases]
    started = time.perf_counter()
    docs = list(nlp.pipe(texts, batch_size=32))
    bare_s = time.perf_counter() - started
    ours, ours_s = ours_predict(nlp, texts)
    base = baseline_predict(docs)
    return {
        "ours": score(cases, ours),
        "baseline": score(cases, base),
        "aliases": alias_score(cases, ours),
        "bare_s": bare_s,
        "ours_s": ours_s,
        "predictions": (ours, base),
    }


def table(title: str, ours: dict[str, Counter[str]], base: dict[str, Counter[str]]) -> str:
    lines = [
        title,
        f"  {'type':<22}{'gold':>6}  {'ours P':>7}{'ours R':>7}{'ours F':>7}   {'base P':>7}{'base R':>7}{'base F':>7}",
    ]
    for row in ROWS:
        if not ours[row]["gold"] and not ours[row]["fp"] and not base[row]["fp"]:
            continue
        op, orr, of = _pr(ours[row])
        bp, br, bf = _pr(base[row])
        lines.append(
            f"  {row:<22}{ours[row]['gold']:>6}  {op:>7.2f}{orr:>7.2f}{of:>7.2f}   {bp:>7.2f}{br:>7.2f}{bf:>7.2f}"
        )
    return "\n".join(lines)


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from research_mcp.nlp import load_nlp
    from research_mcp.settings import Settings

    nlp = load_nlp(Settings.from_env().model)
    cases = load_cases()
    n_sent = sum(
        json.loads(line)["sentences"]
        for corpus in CORPORA
        for line in (DATA / f"{corpus}.jsonl").read_text(encoding="utf-8").splitlines()
    )
    result = evaluate(nlp, cases)
    print(
        f"{len(cases)} texts ({n_sent} sentences) from {len(CORPORA)} corpora; model {nlp.meta['name']} "
        f"{nlp.meta['version']}"
    )
    print(table("all corpora", result["ours"], result["baseline"]))
    ours, base = result["predictions"]
    for corpus in CORPORA:
        idx = [i for i, c in enumerate(cases) if c.corpus == corpus]
        subset = [cases[i] for i in idx]
        print(
            table(
                f"{corpus} ({len(subset)} texts)",
                score(subset, [ours[i] for i in idx]),
                score(subset, [base[i] for i in idx]),
            )
        )
    found, wrong = result["aliases"]
    for kind in ("surname", "acronym"):
        pairs = found[f"{kind} pairs"]
        merged = found[f"{kind} merged"]
        print(
            f"alias {kind}: {merged}/{pairs} gold pairs merged into one entity (baseline merges nothing: 0/{pairs})"
        )
    print(f"merges across gold types (wrong): {wrong['wrong']} of {wrong['pairs']} merged mention pairs")
    print(shapes_table(*evaluate_shapes(nlp)))
    print(author_lists_line(evaluate_author_lists(nlp)))
    print(
        f"time: bare nlp.pipe {result['bare_s']:.2f} s; ours (pipe + extract_entities) {result['ours_s']:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
