"""Rebuild source-rate's shipped domain lists from local snapshots of maintained public data (run by hand).

Usage::

    python build_source_lists.py WIKIDATA_NEWSPAPERS_JSON IPTV_DATA_DIR UT1_BLACKLISTS_DIR HIPO_JSON \
        KITE_DIR SMALLWEB_TXT OUT_DIR

(``IPTV_DATA_DIR`` holds iptv-org's ``channels.csv`` and ``countries.csv``; ``KITE_DIR`` holds Kagi
News' ``kite_feeds.json`` and ``media_data.json``.) The inputs and their licences are listed in
``src/research_mcp/data/sources/README.md``. Rules:

- an outlet's or university's own site only: its listed website must be a site root or one path
  segment (``example.com/``, ``example.com/en/``), without a query; a page deeper inside another
  site (an archive record, a streaming platform's channel page) names that site, not the outlet;
- never a domain under an academic or government suffix (those are A by rule already, and in these
  lists they are archives and regulators: ``loc.gov``, ``fcc.gov``);
- never a domain that the user-content lists (UT1 ``blog``, ``forums``, ``social_networks``) hold,
  nor a news "site" named like a platform that the user-content list holds under three or more
  suffixes (``blogspot.co.uk`` beside ``blogspot.de``, ``blogspot.es``...):
  a newspaper "site" on wordpress.com or facebook.com is a page on a platform;
- iptv-org: channels in the ``general``, ``news`` or ``public`` categories (a general channel's site is
  a broadcaster's), never NSFW or closed ones;
- Kagi News: the hosts of the feeds in its country and region categories (``Argentina``,
  ``UK | Scotland``, ``Switzerland (FR)``...; topic categories such as ``AI`` hold personal blogs), less
  feed services, whose host is not the outlet (``FEED_SERVICES``), and the domains of its media data;
- Kagi Small Web: personal blogs, listed by host (``alice.example.org`` leaves ``example.org`` alone);
- user content: UT1 ``social_networks``, ``forums``, ``blog`` and ``filehosting`` (file and photo sharing).
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path
from urllib.parse import urlsplit

import tldextract

EXTRACT = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
INSTITUTIONAL_FIRST = {"edu", "ac", "gov", "gouv", "gob", "govt", "go", "gv", "gub", "mil"}
UT1_NEWS = ("press", "radio")
UT1_USER_CONTENT = ("social_networks", "forums", "blog", "filehosting")
IPTV_CATEGORIES = {"general", "news", "public"}
# feed readers, proxies and aggregators: a feed served from them names another outlet, not them
FEED_SERVICES = {
    "baidu.com",
    "bing.com",
    "feedblitz.com",
    "feedburner.com",
    "feedx.net",
    "fetchrss.com",
    "flipboard.com",
    "google.com",
    "hnrss.org",
    "libsyn.com",
    "nextfeed.net",
    "nitter.net",
    "politepol.com",
    "rss.app",
    "rsseverything.com",
    "rsshub.app",
    "rssmix.com",
    "siftrss.com",
    "yahoo.co.jp",
    "yahoo.com",
}
# Kagi News category names that are places but not in iptv-org's country names
PLACE_ALIASES = {"UK", "USA", "DR Congo", "Macau", "The Netherlands", "Turkey", "Czechia", "South Korea"}


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


def host_of(url: str) -> str | None:
    """The lower-case host of ``url`` without ``www.``, when it is under a public suffix."""
    url = url.strip()
    host = (urlsplit(url if "//" in url else "http://" + url).hostname or "").lower().removeprefix("www.")
    ext = EXTRACT(host)
    if not ext.domain or not ext.suffix or institutional(ext.suffix):
        return None
    return host


def registered(url: str) -> str | None:
    host = host_of(url)
    if host is None:
        return None
    ext = EXTRACT(host)
    return f"{ext.domain}.{ext.suffix}"


def kite_outlets(kite: Path, places: set[str]) -> set[str | None]:
    """Registered domains of the feeds in Kagi News' place categories, and of its media data."""
    out: set[str | None] = set()
    for name, category in json.loads((kite / "kite_feeds.json").read_text(encoding="utf-8")).items():
        place = re.sub(r" \(.*\)$", "", name.split(" | ")[0])
        if place in places or category.get("category_type") in {"region", "city"}:
            out |= {registered(feed) for feed in category["feeds"]}
    media = json.loads((kite / "media_data.json").read_text(encoding="utf-8"))
    out |= {registered(domain) for entry in media for domain in entry["domains"]}
    return {name for name in out if name not in FEED_SERVICES}


def read_lines(path: Path) -> set[str]:
    return {line.strip().lower() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()}


def write(path: Path, header: str, names: set[str]) -> None:
    body = "\n".join(sorted(names))
    path.write_text(header.strip() + "\n" + body + "\n", encoding="utf-8")
    sys.stderr.write(f"{path.name}: {len(names)} names\n")


def main(argv: list[str]) -> None:
    wikidata, iptv, ut1, hipo, kite, smallweb, out = (Path(a) for a in argv)
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
    with (iptv / "channels.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            categories = set(row["categories"].split(";"))
            if row["is_nsfw"] == "TRUE" or row["closed"] or not categories & IPTV_CATEGORIES:
                continue
            broadcasters |= {own_site(w) for w in row["website"].split(";") if w.strip()}
    broadcasters = not_a_platform(broadcasters)

    press = not_a_platform({n for n in ut1_news if not institutional(EXTRACT(n).suffix)})
    with (iptv / "countries.csv").open(encoding="utf-8") as f:
        places = {row["name"] for row in csv.DictReader(f)} | PLACE_ALIASES
    kite_news = not_a_platform(kite_outlets(kite, places))
    personal = {
        host
        for line in smallweb.read_text(encoding="utf-8").splitlines()
        if (host := host_of(line)) and registered(host) not in user_content | FEED_SERVICES
    }
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
# Websites of TV channels in the general, news or public categories of the iptv-org channel database.
# Source: github.com/iptv-org/database (fork snapshot thomraider12/database
#   @ e041f20c4eda68f53f726fa046117bc84134480c) : data/channels.csv (2026-06-17)
# Licence: Unlicense (public domain). Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        broadcasters,
    )
    write(
        out / "news_kite.txt",
        """
# News outlets of Kagi News: hosts of the feeds in its country and region categories, and its media data.
# Source: github.com/kagisearch/kite-public @ c4fc3b579c3bbdcce5277d1956347131283170e5 :
#   kite_feeds.json, media_data.json (2026-05-12)
# Licence: MIT, Copyright (c) 2024 Kagi Search. Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        kite_news,
    )
    write(
        out / "personal_smallweb.txt",
        """
# Personal blogs (hosts) of Kagi Small Web: single-author, non-commercial sites.
# Source: github.com/kagisearch/smallweb @ 761ee5c71fc48895114c209bf1f0c38b460dccee : smallweb.txt (2026-08-22)
# Licence: MIT, Copyright (c) 2023 Kagi Search. Built by packages/research-mcp/scripts/build_source_lists.py.
""",
        personal,
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
# Social networks, forums, blog platforms and file/photo sharing of the Université Toulouse Capitole blacklists.
# Source: github.com/olbat/ut1-blacklists @ 804da92a9177149204d9a3d0c4ab5bd1cafe120d :
#   blacklists/{social_networks,forums,blog,filehosting}/domains (2026-08-17)
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
