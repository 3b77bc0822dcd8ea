"""Build author_lists.jsonl: real author lists from arXiv's API answers, every name a person.

Reads the arXiv API recordings in ../shared/fixtures/arxiv/feeds/ (Atom XML, as arXiv served them;
see that folder's MANIFEST.md). Each paper with three or more authors gives one case: its authors
as arXiv lists them, joined as prose ("A, B and C") in one of three frames that papers and reports
use. The names are arXiv's; the frames are ours. Collaborations and teams are left out (not persons).

    python tests/eval/data/entities/build_author_lists.py [FEEDS_DIR]
"""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).parent
FEEDS = HERE.parents[4] / "shared" / "fixtures" / "arxiv" / "feeds"
ATOM = {"a": "http://www.w3.org/2005/Atom"}
FRAMES = (
    "{names} wrote the paper.",
    "The study was carried out by {names}.",
    "We thank {names} for helpful discussions.",
)
NOT_PERSONS = ("collaboration", "team", "group", "consortium", "project")


def main(feeds: Path) -> None:
    papers: dict[str, list[str]] = {}
    for path in sorted(feeds.glob("*.xml")):
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for entry in root.findall("a:entry", ATOM):
            paper = (entry.findtext("a:id", default="", namespaces=ATOM) or "").split("/abs/")[-1]
            names = [
                " ".join((a.findtext("a:name", default="", namespaces=ATOM) or "").split())
                for a in entry.findall("a:author", ATOM)
            ]
            names = [n for n in names if n and not any(w in n.lower() for w in NOT_PERSONS)]
            if len(names) >= 3 and paper:
                papers.setdefault(paper.rsplit("v", 1)[0] if "v" in paper[-3:] else paper, names)
    lines = []
    for i, (paper, names) in enumerate(sorted(papers.items())):
        joined = ", ".join(names[:-1]) + " and " + names[-1]
        text = FRAMES[i % len(FRAMES)].format(names=joined)
        at = text.index(joined)
        spans = []
        for name in names:
            start = text.index(name, at)
            spans.append([start, start + len(name), "PER"])
            at = start + len(name)
        lines.append(
            json.dumps(
                {"id": f"arxiv:{paper}", "sentences": 1, "text": text, "entities": spans}, ensure_ascii=False
            )
        )
    (HERE / "author_lists.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} author lists, {sum(len(n) for n in papers.values())} names")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else FEEDS)
