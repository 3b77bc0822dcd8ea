"""Rebuild source-rate's shipped domain lists from local snapshots of maintained public data (run by hand).

Usage::

    python build_source_lists.py WIKIDATA_NEWSPAPERS_JSON IPTV_CHANNELS_CSV UT1_BLACKLISTS_DIR HIPO_JSON OUT_DIR

The inputs and their licences are listed in ``src/research_mcp/data/sources/README.md``. Rules:

- an outlet's or university's own site only: its listed website must be a site root or one path
  segment (``example.com/``, ``example.com/en/``), without a query; a page deeper inside another
  site (an archive record, a streaming platform's channel page) names that site, not the outlet;
- never a domain under an academic or government suffix (those are A by rule already, and in these
  lists they are archives and regulators: ``loc.gov``, ``fcc.gov``);
- never a domain that the user-content lists (UT1 ``blog``, ``forums``, ``social_networks``) hold,
  nor a news "site" named like a platform that the user-content list holds under three or more
  suffixes (``blogspot.co.uk`` beside ``blogspot.de``, ``blogspot.es``...):
  a newspaper "site" on wordpress.com or facebook.com is a page on a platform.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from urllib.parse import urlsplit

import tldextract

EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
INSTITUTIONAL_FIRST = {"edu", "ac", "gov", "gouv", "gob", "govt", "go", "gv", "gub", "mil"}
UT1_NEWS = ("press", "radio")
UT1_USER_CONTENT = ("social_networks", "forums", "blog")


def institutional(suffix: str) -> bool:
    return suffix in {"edu", "gov", "mil", "int"} or suffix.split(".")[0] in INSTITUTIONAL_FIRST


def own_site(url: str) -> str | None:
    """The registered domain of ``url`` when it is a site root or one segment deep, else None."""
    url = url.strip()
    parts = urlsplit(url if "//" in url else "http://" + url)
    if parts.query or len([p for p in parts.path.split("/") if p]) > 1:
        return None
    ext = EXTRACT(url)
    if not ext.domain or not ext.suffix or institutional(ext.suffix):
        return None
    return f"{ext.domain}.{ext.suffix}".lower()


def read_lines(path: Path) -> set[str]:
    return {line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def write(path: Path, header: str, names: set[str]) -> None:
    body = "\n".join(sorted(names))
    path.write_text(header.strip() + "\n" + body + "\n", encoding="utf-8")
    sys.stderr.write(f"{path.name}: {len(names)} names\n")


def main(argv: list[str]) -> None:
    wikidata, iptv, ut1, hipo, out = (Path(a) for a in argv)
    user_content: set[str] = set()
    for category in UT1_USER_CONTENT:
        user_content |= read_lines(ut1 / category / "domains")
    ut1_news: set[str] = set()
    for category in UT1_NEWS:
        ut1_news |= read_lines(ut1 / category / "domains")

    suffixes_of: dict[str, set[str]] = {}
    for name in user_content:
        label, _, rest = name.partition(".")
        suffixes_of.setdefault(label, set()).add(rest)
    platform_labels = {label for label, rests in suffixes_of.items() if len(label) >= 5 and len(rests) >= 3}

    def not_a_platform(names: set[str | None]) -> set[str]:
        return {n for n in names if n and n not in user_content and n.split(".", 1)[0] not in platform_labels}

    bindings = json.loads(wikidata.read_text(encoding="utf-8"))["results"]["bindings"]
    newspapers = not_a_platform({own_site(b["offurl"]["value"]) for b in bindings})

    broadcasters: set[str | None] = set()
    with iptv.open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            categories = set(row["categories"].split(";"))
            if row["is_nsfw"] == "TRUE" or row["closed"] or not categories & {"news", "public"}:
                continue
            broadcasters |= {own_site(w) for w in row["website"].split(";") if w.strip()}
    broadcasters = not_a_platform(broadcasters)

    press = not_a_platform({n for n in ut1_news if not institutional(EXTRACT(n).suffix)})
    universities = {own_site(d) for u in json.loads(hipo.read_text(encoding="utf-8")) for d in u["domains"]}

    write(
        out / "news_wikidata.txt",
        """
# Newspapers with an official website in Wikidata (instance of newspaper, Q11032; official website, P856).
# Source: Wikidata query results as saved in github.com/patrickswickard/international_newspapers
#   @ 1cc8ac4c18c7f7a5d70772c2c9ea8b418ff293f5 : full_list_of_newspapers.json (2023-04-25)
# Licence: CC0 1.0 (Wikidata). Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        newspapers,
    )
    write(
        out / "news_iptv_org.txt",
        """
# Websites of TV channels in the news or public-broadcaster categories of the iptv-org channel database.
# Source: github.com/iptv-org/database (fork snapshot thomraider12/database
#   @ e041f20c4eda68f53f726fa046117bc84134480c) : data/channels.csv (2026-06-17)
# Licence: Unlicense (public domain). Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        broadcasters,
    )
    write(
        out / "news_ut1.txt",
        """
# Press and radio sites of the Université Toulouse Capitole blacklists (categories press, radio).
# Source: github.com/olbat/ut1-blacklists @ 804da92a9177149204d9a3d0c4ab5bd1cafe120d :
#   blacklists/press/domains, blacklists/radio/domains (2026-08-17)
# Licence: CC BY-SA 4.0, Fabrice Prigent, Université Toulouse 1 Capitole. This file is an adaptation
# of that database and stays under CC BY-SA 4.0. Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        press,
    )
    write(
        out / "user_content_ut1.txt",
        """
# Social networks, forums and blog platforms of the Université Toulouse Capitole blacklists.
# Source: github.com/olbat/ut1-blacklists @ 804da92a9177149204d9a3d0c4ab5bd1cafe120d :
#   blacklists/{social_networks,forums,blog}/domains (2026-08-17)
# Licence: CC BY-SA 4.0, Fabrice Prigent, Université Toulouse 1 Capitole. This file is an adaptation
# of that database and stays under CC BY-SA 4.0. Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        {n for n in user_content if not institutional(EXTRACT(n).suffix)},
    )
    write(
        out / "universities_hipo.txt",
        """
# University domains outside academic suffixes (.edu, .ac.*, edu.* are A by rule already).
# Source: github.com/Hipo/university-domains-list @ bb07faf064e1c68be9b26fb71de31f01e361f974 :
#   world_universities_and_domains.json (2026-06-20)
# Licence: MIT, Copyright (c) 2014-2025 Hipo. Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        {n for n in universities if n},
    )


if __name__ == "__main__":
    main(sys.argv[1:])
