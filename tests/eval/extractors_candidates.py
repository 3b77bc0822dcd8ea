"""Measure HTML main-text extractors for the claim check (README "Decisions"; not part of ``make eval``).

Data: scrapinghub/article-extraction-benchmark (MIT; 181 real article pages with their hand-made
``articleBody``), checked out at DIR (``git --git-dir ... show HEAD:<path>`` each ``html/*.html.gz`` and
``ground-truth.json`` into DIR). Run in an environment that has the candidates::

    uv run --frozen --with trafilatura --with readability-lxml --with resiliparse --with inscriptis \\
        python tests/eval/extractors_candidates.py DIR

Scores: word-multiset precision and recall against ``articleBody`` (mean over pages), and time per page.
Recall matters most here: a claim's evidence must survive extraction; precision keeps menus and
footers out of the evidence.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

WORD = re.compile(r"\w+")


def tags_stripped(html: str) -> str:
    """Today's reading (citations._page_text before this change): every tag out, scripts and styles too."""
    import html as h

    text = re.sub(r"(?is)<(script|style|noscript)\b.*?</\1>", " ", html)
    return h.unescape(re.sub(r"(?s)<[^>]+>", " ", text))


def trafilatura_text(html: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False, include_tables=True, favor_recall=True) or ""


def trafilatura_precision(html: str) -> str:
    import trafilatura

    return trafilatura.extract(html, include_comments=False, include_tables=True) or ""


def readability_text(html: str) -> str:
    from readability import Document

    return tags_stripped(Document(html).summary())


def resiliparse_text(html: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text

    return extract_plain_text(html, main_content=True)


def inscriptis_text(html: str) -> str:
    from inscriptis import get_text

    return get_text(html)


def score(gold: str, got: str) -> tuple[float, float]:
    g, p = Counter(WORD.findall(gold.lower())), Counter(WORD.findall(got.lower()))
    tp = sum((g & p).values())
    return (tp / sum(p.values()) if p else 0.0), (tp / sum(g.values()) if g else 1.0)


def main(folder: Path) -> int:
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    pages = {
        k: gzip.decompress((folder / f"{k}.html.gz").read_bytes()).decode("utf-8", "replace") for k in truth
    }
    systems: dict[str, Callable[[str], str]] = {
        "tags stripped (today)": tags_stripped,
        "trafilatura (favor_recall)": trafilatura_text,
        "trafilatura (default)": trafilatura_precision,
        "readability-lxml": readability_text,
        "resiliparse main_content": resiliparse_text,
        "inscriptis (whole page)": inscriptis_text,
    }
    print(f"{len(pages)} pages")
    for name, fn in systems.items():
        try:
            fn("<html><body><p>warm up</p></body></html>")
        except ImportError:
            print(f"  {name:<28} not installed")
            continue
        ps, rs, t0 = [], [], time.perf_counter()
        for key, html in pages.items():
            p, r = score(truth[key].get("articleBody", ""), fn(html))
            ps.append(p)
            rs.append(r)
        ms = (time.perf_counter() - t0) / len(pages) * 1000
        p, r = sum(ps) / len(ps), sum(rs) / len(rs)
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        print(f"  {name:<28} P {p:6.1%}  R {r:6.1%}  F1 {f1:6.1%}  {ms:6.1f} ms/page")
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
