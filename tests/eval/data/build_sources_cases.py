"""Rebuild ``sources_cases.tsv`` from local snapshots of the third-party lists (a recipe, run by hand).

Every label comes from a third party, mapped to seed 004's A-E scale by the rules in
``sources_cases.md``; nothing here calls research-mcp. Usage::

    python build_sources_cases.py CITIZENLAB_DIR MBFC_CSV PERENNIAL_JSONL UT1_FAKENEWS ENDSLY_CSV \
        AWESOME_USES_DATA_JS > sources_cases.tsv

where the arguments are the files named in ``sources_cases.md`` (git snapshot working trees or
``git show`` extracts). Sampling is deterministic: within each stratum, entries are ordered by the
SHA-1 of their URL and the first N are kept.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

import tldextract

EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)

CITIZENLAB_GRADES = {"NEWS": "C", "HOST": "D", "MMED": "D", "GRP": "D", "GOVT": "A", "IGO": "A"}
CITIZENLAB_PER_LIST = {"C": 2, "D": 1, "A": 1}
MBFC_NEWS_TYPES = {"Newspaper", "TV Station", "Radio Station", "News Agency", "Magazine"}
MBFC_C_PER_COUNTRY, MBFC_C_US, MBFC_E = 3, 25, 70
# the entry's first two sentences call the site user-generated, self-published or an open wiki
UGC_WORDS = re.compile(
    r"user-generated|user generated|self-published|self published|open wiki", re.IGNORECASE
)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z'\[])")
LOOKALIKES, PER_IMITATED_NAME = 60, 3
UNIVERSITIES_PER_COUNTRY, UNIVERSITIES = 2, 120
PERSONAL_SITES = 80
USES_URL = re.compile(r"^\s*url:\s*'([^']+)'", re.MULTILINE)
ACADEMIC_OR_GOVERNMENT = re.compile(r"(^|\.)(edu|ac|gov|gouv|gob|mil)(\.|$)")


def key(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def registered(url: str) -> str:
    ext = EXTRACT(url if "//" in url else "http://" + url)
    return ext.top_domain_under_public_suffix or ext.fqdn


def pick(rows: list[tuple[str, ...]], n: int) -> list[tuple[str, ...]]:
    return sorted(rows, key=lambda r: key(r[0]))[:n]


def citizenlab(folder: Path) -> list[tuple[str, str, str, str]]:
    out = []
    for path in sorted(folder.glob("*.csv")):
        if path.name.startswith("00-"):
            continue
        by_grade: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        with path.open(encoding="utf-8") as f:
            for row in csv.DictReader(f):
                grade = CITIZENLAB_GRADES.get(row["category_code"])
                if grade:
                    by_grade[grade].append((row["url"].strip(), row["category_code"]))
        for grade, rows in by_grade.items():
            for url, code in pick(rows, CITIZENLAB_PER_LIST[grade]):
                out.append((url, grade, f"citizenlab:{path.stem}", code))
    return out


def mbfc(path: Path) -> list[tuple[str, str, str, str]]:
    news: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    low: list[tuple[str, ...]] = []
    with path.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            url = row["source"].strip()
            if not url.startswith("http"):
                continue
            country = row["country"].split(" (")[0] or "Unknown"
            label = f"{row['credibility_rating']}/{row['factual_reporting']}/{row['media_type']}"
            if (
                row["credibility_rating"] == "HIGH CREDIBILITY"
                and row["factual_reporting"] in {"VERY HIGH", "HIGH"}
                and row["media_type"] in MBFC_NEWS_TYPES
            ):
                news[country].append((url, label))
            elif row["credibility_rating"] == "LOW CREDIBILITY" and row["factual_reporting"] in {
                "LOW",
                "VERY LOW",
            }:
                low.append((url, label))
    out = []
    for country, rows in sorted(news.items()):
        for url, label in pick(rows, MBFC_C_US if country == "USA" else MBFC_C_PER_COUNTRY):
            out.append((url, "C", f"mbfc:{country}", label))
    out += [(url, "E", "mbfc", label) for url, label in pick(low, MBFC_E)]
    return out


def perennial(path: Path) -> list[tuple[str, str, str, str]]:
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            domain, status = row.get("domain"), row.get("status")
            summary = (row.get("summary") or "").strip()
            if not domain or "." not in domain or "preprint" in summary.lower():
                continue
            opening = " ".join(SENTENCE_END.split(summary, maxsplit=2)[:2])
            if status in {"gu", "d"} and UGC_WORDS.search(opening):
                grade = "D"
            elif status in {"gu", "d"}:
                grade = "E"
            elif status == "gr":
                grade = "C"
            else:
                continue
            out.append((f"https://{domain.lower()}/", grade, "perennial", status))
    return out


def lookalikes(path: Path, outlets: set[str]) -> list[tuple[str, str, str, str]]:
    labels = {d.split(".", 1)[0] for d in outlets if len(d.split(".", 1)[0]) >= 5}
    rows: list[tuple[str, ...]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        domain = line.strip().lower()
        if not domain or domain in outlets:
            continue
        label = EXTRACT("http://" + domain).domain
        hit = next(
            (known for known in labels if known == label or (len(known) >= 6 and known in label)), None
        )
        if hit:
            rows.append((f"https://{domain}/", f"ut1:fakenews imitates {hit}"))
    per_name: dict[str, int] = defaultdict(int)
    kept = []
    for url, why in pick(rows, len(rows)):
        per_name[why] += 1
        if per_name[why] <= PER_IMITATED_NAME:
            kept.append((url, "E", "ut1-fakenews", why))
    return kept[:LOOKALIKES]


def universities(path: Path) -> list[tuple[str, str, str, str]]:
    by_country: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    with path.open(encoding="utf-8") as f:
        for row in csv.reader(f):
            if len(row) == 3 and row[2].startswith("http"):
                by_country[row[0]].append((row[2].strip(), row[1]))
    chosen = [r for rows in by_country.values() for r in pick(rows, UNIVERSITIES_PER_COUNTRY)]
    return [(url, "A", "webometrics-universities", "university") for url, _ in pick(chosen, UNIVERSITIES)]


def personal_sites(path: Path) -> list[tuple[str, str, str, str]]:
    """People's own sites, as listed by awesome-uses (each entry is one person's /uses page) -> D.

    A page under an academic or government suffix is left out: by the seed that is the institution's.
    """
    rows = [
        (url, "personal /uses page")
        for url in USES_URL.findall(path.read_text(encoding="utf-8"))
        if not ACADEMIC_OR_GOVERNMENT.search(EXTRACT(url).suffix)
    ]
    return [(url, "D", "awesome-uses", label) for url, label in pick(rows, PERSONAL_SITES)]


def main(argv: list[str]) -> None:
    cl, mb, pe, fake, uni, uses = (Path(a) for a in argv)
    cases = citizenlab(cl) + mbfc(mb) + perennial(pe) + universities(uni) + personal_sites(uses)
    outlets = {registered(u) for u, g, _, _ in cases if g == "C"}
    cases += lookalikes(fake, outlets)
    grades: dict[str, set[str]] = defaultdict(set)
    for url, grade, _, _ in cases:
        grades[registered(url)].add(grade)
    seen: set[str] = set()
    kept, dropped = [], 0
    for case in cases:
        reg = registered(case[0])
        if len(grades[reg]) > 1:
            dropped += 1
            continue
        if reg in seen:
            continue
        seen.add(reg)
        kept.append(case)
    sys.stderr.write(f"{len(kept)} cases, {dropped} dropped (sources disagree on the grade)\n")
    writer = csv.writer(sys.stdout, delimiter="\t", lineterminator="\n")
    writer.writerow(("url", "grade", "labelled_by", "third_party_label"))
    writer.writerows(sorted(kept, key=lambda c: (c[1], c[2], c[0])))


if __name__ == "__main__":
    main(sys.argv[1:])
