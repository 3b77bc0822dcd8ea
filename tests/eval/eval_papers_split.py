"""The PDF splitter (front / body / references / appendix) on real papers of many layouts.

Data: ``data/papers_pdf/papers.json`` lists 30 real PDFs (29 arXiv papers and a thesis) found in
public repositories, with provenance (repository @ commit : path, sha256, licence), a layout note
and labels read by eye in each PDF's page text: the abstract's first words (front), the first
words of the body, a phrase of the last body section, the first and last reference entries, the
first appendix heading or words (or none), and a few structure-specific phrases (acknowledgments,
deferred figures, author lists, annotated bibliographies). The PDFs stay out of git: put them
under ``$PAPERS_EVAL_PDFS`` (default ``../cache/eval-pdfs/pdfs`` beside the repository); this
script says which are missing or differ from the manifest, and scores the rest.

For each paper it converts the PDF once (cached beside the PDFs, keyed by the file's sha256 and
the converter's version), then splits the same conversion with the current splitter and with the
splitter as it was before this evaluation existed (``BASELINE_COMMIT``, read with ``git show``),
and prints per paper and in total:

- the no-loss invariant: every word of the cleaned converted text in exactly one part;
- the labels passed: a phrase is found in its part and in none of the parts it must not be in,
  and a "first" phrase (body, reference, appendix) stands near the start of its part.

The 12 fixture papers (``../shared/fixtures/arxiv/pdfs``) are checked for the invariant too.
Papers marked "held-out" (``*`` in the table) were labelled after the splitter's development on
the others was finished and were not looked at in our output before scoring: their figure is the
one to trust for unseen papers.
Run: ``make eval ONLY=papers_split`` (``-v`` lists every failed label).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pymupdf4llm
from papers_mcp import convert, pdf_pages, sections

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).parent / "data" / "papers_pdf" / "papers.json"
# The splitter before issue 13's PDF work (main at the merge of the HTML route).
BASELINE_COMMIT = "77ce09ea0fd520696f5c99bd5fa06aae2446b946"
SECTIONS_PATH = "packages/papers-mcp/src/papers_mcp/sections.py"
NEAR_START = 500  # a "first" phrase must begin within this many characters of its part

# label kind -> (part it belongs to, parts it must not appear in, must stand near the part's start)
RULES: dict[str, tuple[str, tuple[str, ...], bool]] = {
    "front_abstract": ("front", ("body",), False),
    "front_extra": ("front", ("body",), False),
    "body_first": ("body", ("front", "references", "appendix"), True),
    "body_last": ("body", ("front", "references", "appendix"), False),
    "body_extra": ("body", ("front", "references", "appendix"), False),
    "reference_first": ("references", ("body", "appendix"), True),
    "reference_last": ("references", ("body", "appendix"), False),
    "reference_extra": ("references", ("body", "appendix"), False),
    "appendix_first": ("appendix", ("body", "references"), True),
    "appendix_extra": ("appendix", ("body", "references"), False),
}
PARTS = ("front", "body", "references", "appendix")


def pdf_root() -> Path:
    env = os.environ.get("PAPERS_EVAL_PDFS")
    return Path(env) if env else REPO.parent / "cache" / "eval-pdfs" / "pdfs"


def fixtures_dir() -> Path:
    env = os.environ.get("PAPERS_MCP_FIXTURES")
    return (Path(env) if env else REPO.parent / "shared" / "fixtures" / "arxiv") / "pdfs"


# --- matching ---------------------------------------------------------------------------------------

_SPACING_MARKS = re.compile("[´ˇ¨˜¸˚ˆ˘˙`]")
_TAGS = re.compile(r"</?(?:sup|sub|br|b|i|em|strong)>")


def flat(text: str) -> str:
    """Whitespace, markdown emphasis, inline tags, ligatures and accents folded away."""
    text = _TAGS.sub("", text)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = _SPACING_MARKS.sub("", text)
    text = re.sub(r"[*_]", "", text)
    text = re.sub(r"[#>|]", " ", text)
    return " ".join(text.split())


# --- conversion cache -------------------------------------------------------------------------------


def converter_tag() -> str:
    """Changes whenever the conversion itself may: the engine's version and our convert module."""
    source = Path(pdf_pages.__file__).read_bytes()
    return f"{pymupdf4llm.__version__}-{hashlib.sha256(source).hexdigest()[:8]}"


def converted(pdf: Path, sha: str, cache: Path) -> sections.ConvertedDocument:
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / f"{pdf.stem}.{sha[:12]}.{converter_tag()}.json"
    if target.is_file():
        data = json.loads(target.read_text(encoding="utf-8"))
    else:
        doc = convert.convert_pdf(pdf, workers=int(os.environ.get("PAPERS_MCP_CONVERT_WORKERS", "1")))
        data = {"pages_md": list(doc.pages_md), "toc": [[e.level, e.title, e.page] for e in doc.toc]}
        target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    toc = tuple(sections.TocEntry(int(lvl), str(title), int(page)) for lvl, title, page in data["toc"])
    return sections.ConvertedDocument(pages_md=tuple(data["pages_md"]), toc=toc, pages=len(data["pages_md"]))


# --- the two splitters ------------------------------------------------------------------------------


def baseline_module() -> ModuleType | None:
    """The splitter at ``BASELINE_COMMIT``, loaded from git into a private module (nothing written in the repo)."""
    try:
        source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{BASELINE_COMMIT}:{SECTIONS_PATH}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        sys.stdout.write(f"baseline splitter unavailable ({exc}); scoring the current splitter only\n")
        return None
    path = Path(tempfile.mkdtemp()) / "baseline_sections.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_sections", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_sections"] = module
    spec.loader.exec_module(module)
    return module


@dataclass
class Split:
    parts: dict[str, str]
    missing: Counter[str]
    extra: Counter[str]

    @property
    def invariant_holds(self) -> bool:
        return not self.missing and not self.extra


_WORD = re.compile(r"[^\s|*_#`>\-•]+")


def _words(text: str) -> Counter[str]:
    return Counter(_WORD.findall(text.replace("<br>", " ")))


def split_with(module: ModuleType, document: Any) -> Split:
    """Split with ``module`` and account for every word of its own cleaned text."""
    doc = module.ConvertedDocument(
        pages_md=document.pages_md,
        toc=tuple(module.TocEntry(e.level, e.title, e.page) for e in document.toc),
        pages=document.pages,
    )
    result = module.split_document(doc)
    parts = {name: getattr(result, name) for name in PARTS}
    kept = Counter[str]()
    for page in module.clean_pages(doc.pages_md):
        for block in page:
            kept.update(_words(block))
    got = _words("\n\n".join(parts.values()))
    return Split(parts, kept - got, got - kept)


# --- scoring ------------------------------------------------------------------------------------------


def check(kind: str, phrase: str | None, parts: dict[str, str]) -> str | None:
    """None when the label holds, else why it fails."""
    home, banned, near_start = RULES[kind]
    flats = {name: flat(text) for name, text in parts.items()}
    if phrase is None:  # "no appendix"
        return None if not parts[home].strip() else f"{home} should be empty, holds {flats[home][:80]!r}"
    want = flat(phrase)
    where = [name for name in PARTS if want in flats[name]]
    if home not in where:
        return f"not in {home} (found in: {', '.join(where) or 'no part'})"
    wrong = [name for name in banned if name in where]
    if wrong:
        return f"also in {', '.join(wrong)}"
    if near_start and flats[home].find(want) > NEAR_START:
        return f"{flats[home].find(want)} characters into {home}, not at its start"
    return None


def score(labels: dict[str, Any], parts: dict[str, str]) -> list[tuple[str, str, str | None]]:
    results = []
    for kind, value in labels.items():
        for phrase in value if isinstance(value, list) else [value]:
            results.append((kind, phrase or "(none)", check(kind, phrase, parts)))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failed label")
    parser.add_argument("--dump", type=Path, help="write each paper's parts (current splitter) here")
    args = parser.parse_args()

    manifest = json.loads(DATA.read_text(encoding="utf-8"))["papers"]
    root = pdf_root()
    cache = root.parent / "converted"
    baseline = baseline_module()
    splitters: dict[str, ModuleType] = {"ours": sections}
    if baseline is not None:
        splitters["main"] = baseline

    missing = []
    present = []
    for paper in manifest:
        pdf = root / f"{paper['name']}.pdf"
        if not pdf.is_file():
            missing.append(f"{paper['name']} (not found at {pdf})")
            continue
        sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
        if sha != paper["sha256"]:
            missing.append(
                f"{paper['name']} (sha256 {sha[:12]}..., the manifest says {paper['sha256'][:12]}...)"
            )
            continue
        present.append((paper, pdf, sha))
    if missing:
        sys.stdout.write(f"{len(missing)} of {len(manifest)} papers missing or different, skipped:\n")
        for line in missing:
            sys.stdout.write(f"  {line}\n")
        source = "git show <commit>:<path> in the repository named in data/papers_pdf/papers.json"
        sys.stdout.write(f"  (get them with {source}; PAPERS_EVAL_PDFS={root})\n")
    if not present:
        sys.stdout.write("no evaluation PDFs present: nothing scored\n")
        return 1

    totals = {(name, group): Counter[str]() for name in splitters for group in ("development", "held-out")}
    failures: list[str] = []
    header = f"{'paper':<26} {'pages':>5}  " + "  ".join(
        f"{name + ' labels':>12} {name + ' no-loss':>12}" for name in splitters
    )
    sys.stdout.write(header + "\n")
    for paper, pdf, sha in present:
        document = converted(pdf, sha, cache)
        mark = "*" if paper.get("set") == "held-out" else " "
        row = f"{paper['name'] + mark:<26} {document.pages:>5}  "
        for name, module in splitters.items():
            split = split_with(module, document)
            results = score(paper["labels"], split.parts)
            passed = sum(1 for *_, why in results if why is None)
            total = totals[name, paper.get("set", "development")]
            total["papers"] += 1
            total["passed"] += passed
            total["labels"] += len(results)
            total["papers_all_labels"] += passed == len(results)
            total["no_loss"] += split.invariant_holds
            row += f"{passed:>6}/{len(results):<5} {'yes' if split.invariant_holds else 'NO':>12}  "
            if name == "ours":
                for kind, phrase, why in results:
                    if why is not None:
                        failures.append(f"{paper['name']}: {kind} {phrase[:60]!r}: {why}")
                if not split.invariant_holds:
                    failures.append(
                        f"{paper['name']}: words lost {sum(split.missing.values())}, "
                        f"added {sum(split.extra.values())}: {list(split.missing)[:8]} {list(split.extra)[:8]}"
                    )
                if args.dump:
                    args.dump.mkdir(parents=True, exist_ok=True)
                    for part, text in split.parts.items():
                        (args.dump / f"{paper['name']}.{part}.md").write_text(text, encoding="utf-8")
        sys.stdout.write(row.rstrip() + "\n")
    for (name, group), total in totals.items():
        if not total["papers"]:
            continue
        count = total["papers"]
        sys.stdout.write(
            f"{name:>5} {group:<11}: labels {total['passed']}/{total['labels']} "
            f"({100 * total['passed'] / max(1, total['labels']):.1f}%), "
            f"papers with every label right {total['papers_all_labels']}/{count}, "
            f"no-loss invariant {total['no_loss']}/{count}\n"
        )

    fixtures = sorted(fixtures_dir().glob("*.pdf"))
    if fixtures:
        holds = 0
        for pdf in fixtures:
            sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
            split = split_with(sections, converted(pdf, sha, cache))
            holds += split.invariant_holds
            if not split.invariant_holds:
                failures.append(f"fixture {pdf.stem}: invariant broken: {list(split.missing)[:8]}")
        sys.stdout.write(f"fixture papers: no-loss invariant {holds}/{len(fixtures)} (current splitter)\n")
    if args.verbose and failures:
        sys.stdout.write("failed labels (current splitter):\n")
        for line in failures:
            sys.stdout.write(f"  {line}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
