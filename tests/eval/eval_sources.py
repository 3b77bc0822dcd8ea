"""source-rate on ~1,060 real URLs labelled by third parties, against a suffix-rules baseline.

The cases (``data/sources_cases.tsv``, provenance and mapping rules in ``data/sources_cases.md``)
carry seed 004's A-E grade as a third party labelled them: Citizen Lab's censorship test lists
(news media, hosting/blogging, media sharing, social networking, government), Media Bias/Fact
Check's credibility ratings, Wikipedia's perennial-sources list, UT1's fake-news category, a
webometrics list of universities and awesome-uses' personal sites. Nothing here was labelled by
research-mcp.

The baseline is what a few lines of code give: an academic or government suffix (``.edu``,
``.ac.*``, ``.gov``, ``.gouv.*``...) is A, everything else E.
"""

from __future__ import annotations

import csv
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import tldextract
from research_mcp.source_lists import listing_of
from research_mcp.sources import rate_source

DATA = Path(__file__).parent / "data" / "sources_cases.tsv"
GRADES = "ABCDE"
ACADEMIC_LABELS = {"edu", "ac"}
GOVERNMENT_LABELS = {"gov", "gouv", "gob", "govt", "go", "gv", "gub", "mil", "int"}
_EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)


def load_cases(path: Path = DATA) -> list[tuple[str, str, str]]:
    """(url, expected grade, who labelled it) for every case."""
    with path.open(encoding="utf-8") as f:
        return [(row["url"], row["grade"], row["labelled_by"]) for row in csv.DictReader(f, delimiter="\t")]


def baseline_grade(url: str) -> str:
    """Suffix rules only: academic or government suffix -> A, else E."""
    suffix = _EXTRACT(url).suffix
    labels = suffix.split(".")
    if suffix in {"edu", "gov", "mil", "int"} or labels[0] in ACADEMIC_LABELS | GOVERNMENT_LABELS:
        return "A"
    return "E"


def ours_grade(url: str) -> str:
    return str(rate_source(url)["quality_rating"])


def _decided_by(url: str) -> str:
    """Which shipped list (or rule) names the case's host or registered domain."""
    ext = _EXTRACT(url)
    labels = ext.fqdn.split(".")
    for name in [".".join(labels[i:]) for i in range(len(labels) - 1)]:
        listing = listing_of(name)
        if listing is not None:
            return listing.source
    return "rules (suffix, PSL private section, look-alike, unknown)"


def score(pairs: list[tuple[str, str]]) -> dict[str, tuple[float, float, int]]:
    """Per grade: (precision, recall, support) over (expected, predicted) pairs."""
    out = {}
    for g in GRADES:
        tp = sum(1 for e, p in pairs if e == g and p == g)
        predicted = sum(1 for _, p in pairs if p == g)
        support = sum(1 for e, _ in pairs if e == g)
        out[g] = (tp / predicted if predicted else 0.0, tp / support if support else 0.0, support)
    return out


def accuracy(pairs: list[tuple[str, str]]) -> float:
    return sum(e == p for e, p in pairs) / len(pairs)


def run(rate: Callable[[str], str], cases: list[tuple[str, str, str]]) -> tuple[list[tuple[str, str]], float]:
    start = time.perf_counter()
    pairs = [(grade, rate(url)) for url, grade, _ in cases]
    return pairs, time.perf_counter() - start


def print_table(name: str, pairs: list[tuple[str, str]], seconds: float) -> None:
    print(f"\n{name}: accuracy {accuracy(pairs):.3f} over {len(pairs)} cases ({seconds * 1000:.0f} ms)")
    print("grade  precision  recall  support")
    for g, (p, r, n) in score(pairs).items():
        print(f"  {g}      {p:6.3f}   {r:6.3f}   {n:5d}")
    confusion = Counter(pairs)
    print("confusion (rows: label, columns: predicted)")
    print("      " + "".join(f"{g:>6}" for g in GRADES))
    for e in GRADES:
        print(f"  {e}   " + "".join(f"{confusion[(e, p)]:6d}" for p in GRADES))


def main() -> None:
    cases = load_cases()
    by_labeller = Counter(who.split(":")[0] for _, _, who in cases)
    print(f"{len(cases)} cases: " + ", ".join(f"{k} {v}" for k, v in sorted(by_labeller.items())))
    ours_grade("https://example.org/")  # load the lists once, outside the timing
    base, base_s = run(baseline_grade, cases)
    ours, ours_s = run(ours_grade, cases)
    print_table("baseline (suffix rules)", base, base_s)
    print_table("source-rate", ours, ours_s)
    print("\nper labeller (accuracy ours / baseline):")
    for labeller in sorted(by_labeller):
        idx = [i for i, (_, _, who) in enumerate(cases) if who.split(":")[0] == labeller]
        print(
            f"  {labeller:26s} {accuracy([ours[i] for i in idx]):.3f} / {accuracy([base[i] for i in idx]):.3f}"
            f"  ({len(idx)} cases)"
        )
    decided = Counter(_decided_by(url) for url, _, _ in cases)
    print(
        "\nwhere source-rate's verdict came from (cases): "
        + ", ".join(f"{k} {v}" for k, v in decided.most_common())
    )
    fresh = [i for i, (url, _, _) in enumerate(cases) if _decided_by(url) != "curated"]
    print(
        f"without the {len(cases) - len(fresh)} cases a hand-curated name decides: "
        f"ours {accuracy([ours[i] for i in fresh]):.3f} / baseline {accuracy([base[i] for i in fresh]):.3f}"
    )
    for g, (p, r, n) in score([ours[i] for i in fresh]).items():
        if n:
            print(f"  {g}  precision {p:.3f}  recall {r:.3f}  ({n})")
    if "-v" in sys.argv:
        print("\nmisses:")
        for (url, grade, who), (_, got) in zip(cases, ours, strict=True):
            if grade != got:
                print(f"  {grade}->{got}  {url}  [{who}]")


if __name__ == "__main__":
    main()
