"""source-rate: seed 004's A-E scale, decided on the registered domain, never on the claimed type.

The registered domain comes from tldextract's bundled Public Suffix List snapshot (no
network, no cache directory). The names it is looked up in are data files shipped with the
package (``source_lists``: Wikidata, iptv-org, Kagi News, Kagi Small Web, UT1, Hipo and a curated file). Categories and grades:

- A  academic and government suffixes of every country (``.edu``, ``.ac.uk``, ``.edu.au``,
     ``.gov``, ``.gov.uk``, ``.gouv.fr``, ``.go.jp``, ``.int``...), universities under any suffix,
     peer-reviewed publishers and journals (nature.com, science.org, springer, elsevier, ieee, acm,
     plos...), known research institutions and intergovernmental bodies.
- B  preprint servers (academic but *not peer reviewed*), industry analysts, official company sites.
- C  established news outlets: newspapers, broadcasters, press and radio sites.
- D  blog platforms, personal sites, user-edited and user-generated sites (social networks, forums,
     wikis, film/book/music databases, photo and video sharing), sites under a hosting platform's
     shared suffix (``*.github.io``, ``*.herokuapp.com``: the Public Suffix List's private section).
- E  everything else, bare IP addresses, look-alike domains (``stanford.edu.evil.io``), punycode
     homoglyphs and near-miss spellings of well-known domains. A listed name is never a look-alike.

``source_type`` informs but never overrides: it is compared with what the domain says and
reported in the indicators and the confidence.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .source_lists import Listing, listing_of, well_known
from .urls import ParsedUrl, UrlError, parse_url

if TYPE_CHECKING:
    import tldextract

__all__ = ["SOURCE_TYPES", "rate_parsed", "rate_source", "rate_url_or_e"]

logger = logging.getLogger(__name__)

SOURCE_TYPES = ("academic", "industry", "news", "blog", "official")

ACADEMIC_FIRST_LABELS = {"edu", "ac"}
GOV_FIRST_LABELS = {"gov", "gouv", "gob", "govt", "go", "gv", "gub", "government", "mil", "nic"}
# (nic.in is India's government network; gc.ca is Canada's; gv.at Austria's; gub.uy Uruguay's)
GOV_SUFFIXES = {"gov", "mil", "int", "gc.ca", "gov.uk", "gouv.fr", "europa.eu"}

EDITORIAL_SECTIONS = {"news", "blog", "blogs", "opinion", "comment", "editorial", "careers", "podcast"}

GRADES = {
    "academic": "A",
    "government": "A",
    "publisher": "A",
    "institution": "A",
    "preprint": "B",
    "industry": "B",
    "company": "B",
    "news": "C",
    "blog": "D",
    "unknown": "E",
    "ip_address": "E",
    "lookalike": "E",
}
# which claimed source_type agrees with which category
AGREEING_TYPES = {
    "academic": {"academic", "official"},
    "government": {"official", "academic"},
    "publisher": {"academic"},
    "institution": {"academic", "official"},
    "preprint": {"academic"},
    "industry": {"industry"},
    "company": {"industry", "official", "blog"},
    "news": {"news"},
    "blog": {"blog"},
}


@functools.cache
def _extractor() -> tldextract.TLDExtract:
    """tldextract with its bundled suffix list only: no download, no cache directory (loaded on first use)."""
    import tldextract  # imported lazily: it costs ~0.4 s at start-up

    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None, include_psl_private_domains=False)


@dataclass(frozen=True)
class _Verdict:
    category: str
    reason: str
    indicators: tuple[str, ...]
    confidence: float


def _edit_distance_at_most_one(a: str, b: str) -> bool:
    if a == b:
        return False
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diffs = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diffs) == 1:
            return True
        return (
            len(diffs) == 2
            and diffs[1] == diffs[0] + 1
            and a[diffs[0]] == b[diffs[1]]
            and a[diffs[1]] == b[diffs[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


@functools.cache
def _well_known_by_label() -> dict[str, str]:
    """First label of each well-known registered domain -> the domain (for near-miss detection)."""
    out: dict[str, str] = {}
    for name in sorted(well_known()):
        label = name.split(".", 1)[0]
        if len(label) >= 5:
            out.setdefault(label, name)
    return out


def _deletions(label: str) -> set[str]:
    return {label, *(label[:i] + label[i + 1 :] for i in range(len(label)))}


@functools.cache
def _near_miss_index() -> dict[str, tuple[str, ...]]:
    """Each well-known label and its one-letter deletions -> the labels (a symmetric-delete index)."""
    index: dict[str, list[str]] = {}
    for label in _well_known_by_label():
        for variant in _deletions(label):
            index.setdefault(variant, []).append(label)
    return {variant: tuple(labels) for variant, labels in index.items()}


def _near_miss(label: str) -> str | None:
    """The well-known label one edit (or one transposition) from ``label``, found without a scan."""
    index = _near_miss_index()
    candidates = {known for variant in _deletions(label) for known in index.get(variant, ())}
    matches = sorted(known for known in candidates if _edit_distance_at_most_one(label, known))
    return matches[0] if matches else None


@functools.cache
def _well_known_dashed() -> tuple[tuple[str, str], ...]:
    """(``nature-com``, ``nature.com``) for each well-known name with a stem of five letters or more."""
    return tuple(
        (name.replace(".", "-"), name) for name in sorted(well_known()) if len(name.split(".", 1)[0]) >= 5
    )


_TRUSTED_TOKEN = re.compile(r"(?:^|[.-])(edu|gov|gouv|ac-uk|gov-uk)(?:[.-]|$)")


def _institutional_suffix(suffix: str) -> bool:
    labels = suffix.split(".")
    return (
        suffix in {"edu", "gov", "mil", "int"}
        or suffix in GOV_SUFFIXES
        or (len(labels) >= 2 and labels[0] in ACADEMIC_FIRST_LABELS | GOV_FIRST_LABELS)
    )


def _lookalike(host: str, registered: str, subdomain: str, domain_label: str, suffix: str) -> str | None:
    """Why this host imitates a domain it is not, or None (only asked of names on no list)."""
    sub_labels = subdomain.split(".") if subdomain else []
    if _institutional_suffix(suffix):
        # a real .edu/.gov/.ac.uk name: only a punycode label can still be a disguise
        if domain_label.startswith("xn--") or any(label.startswith("xn--") for label in sub_labels):
            return f"{host} uses a punycode (internationalised) name that can imitate another domain"
        return None
    for i in range(len(sub_labels)):
        tail = ".".join(sub_labels[i:])
        # stanford.edu.evil.io: the subdomain itself looks like an academic/government or known domain
        if listing_of(tail) is not None or any(
            tail.endswith("." + k) or tail == k for k in ("edu", "gov", "ac.uk", "gov.uk")
        ):
            return f"{host} only contains {tail!r} as a subdomain of {registered}"
        parts = tail.split(".")
        if len(parts) >= 2 and parts[-1] in {"edu", "gov", "mil", "int"}:
            return f"{host} only contains {tail!r} as a subdomain of {registered}"
        inner = _extractor()(tail)
        if len(parts) >= 2 and inner.domain and inner.suffix and len(inner.domain) >= 3:
            # paypal.com.secure-login.net: a whole domain name worn as a subdomain
            return f"{host} wears the domain name {tail!r} as a subdomain of {registered}"
    if domain_label.startswith("xn--") or any(label.startswith("xn--") for label in sub_labels):
        return f"{host} uses a punycode (internationalised) name that can imitate another domain"
    near = _near_miss(domain_label)
    if near is not None:
        return f"{registered} is one character away from the well-known {_well_known_by_label()[near]}"
    for dashed, known in _well_known_dashed():
        if dashed in domain_label:
            return f"{registered} embeds {known!r} in its name but is not {known}"
    same = _well_known_by_label().get(domain_label)
    if same is not None and registered != same:
        return f"{registered} borrows the name of the well-known {same} under another suffix"
    before_suffix = host[: -len(suffix) - 1] if host.endswith("." + suffix) else host
    token = _TRUSTED_TOKEN.search(before_suffix)
    if token is not None:
        # stanford-edu.com, harvard.edu-research.org: an academic/government marker outside the suffix
        return f"{host} puts {token.group(1)!r} in its name, but its real suffix is .{suffix}"
    return None


def _listed(host: str, registered: str) -> tuple[str, Listing] | None:
    """The most specific listed name for ``host``: the host, its parent hosts, then the registered domain."""
    labels = host.split(".")
    for candidate in [".".join(labels[i:]) for i in range(len(labels) - 1)] + [registered]:
        listing = listing_of(candidate)
        if listing is not None:
            return candidate, listing
    return None


def _classify(parsed: ParsedUrl) -> tuple[_Verdict, str]:
    """Category of a parsed URL and its registered domain."""
    host = parsed.host
    if parsed.ip is not None:
        return _Verdict(
            "ip_address", f"{host} is a bare IP address, not a named publisher", ("ip_address_host",), 0.9
        ), host
    ext = _extractor()(host)
    suffix = ext.suffix
    registered = f"{ext.domain}.{suffix}" if ext.domain and suffix else host
    if not suffix:
        return _Verdict("unknown", f"{host} has no known public suffix", ("unknown_suffix",), 0.8), registered
    if not ext.domain:
        return _Verdict(
            "unknown", f"{host} is a public suffix, not a site", ("bare_suffix",), 0.8
        ), registered
    found = _listed(host, registered)
    if found is not None:
        # a listed site is what its list says, never a look-alike of another (time.com is not tim.com)
        return _listed_verdict(found[1], found[0], parsed), registered
    why_fake = _lookalike(host, registered, ext.subdomain, ext.domain, suffix)
    if why_fake is not None:
        return _Verdict("lookalike", why_fake, ("lookalike_domain",), 0.85), registered

    suffix_labels = suffix.split(".")
    if suffix == "edu" or (len(suffix_labels) >= 2 and suffix_labels[0] in ACADEMIC_FIRST_LABELS):
        return (
            _Verdict(
                "academic",
                f"academic institution domain ({registered}, suffix .{suffix})",
                ("institutional_affiliation", "academic_domain"),
                0.85,
            ),
            registered,
        )
    if suffix in GOV_SUFFIXES or (len(suffix_labels) >= 2 and suffix_labels[0] in GOV_FIRST_LABELS):
        return (
            _Verdict(
                "government",
                f"government or intergovernmental domain ({registered}, suffix .{suffix})",
                ("government_source", "official_statistics_likely"),
                0.85,
            ),
            registered,
        )
    platform = _extractor()(host, include_psl_private_domains=True)
    if platform.is_private and platform.domain:
        # alice.herokuapp.com: the Public Suffix List's private section names shared hosting suffixes
        return (
            _Verdict(
                "blog",
                f"a user's site on the shared hosting suffix .{platform.suffix} (Public Suffix List, private section)",
                ("personal_site", "no_editorial_oversight"),
                0.75,
            ),
            registered,
        )
    return (
        _Verdict(
            "unknown",
            f"{registered} is not a recognised publisher, institution, company or outlet",
            ("unverified_domain",),
            0.6,
        ),
        registered,
    )


def _listed_verdict(listing: Listing, name: str, parsed: ParsedUrl) -> _Verdict:
    category = listing.category
    where = "" if listing.curated else f", listed in {listing.source}"
    if category == "publisher":
        first_label = parsed.host.split(".", 1)[0]
        section = parsed.path.lower().lstrip("/").split("/", 1)[0]
        if first_label in {"blog", "blogs", "news", "community"} or section in EDITORIAL_SECTIONS:
            # blogs.nature.com, nature.com/news/...: the publisher's journalism, not its journals
            return _Verdict(
                "news",
                f"editorial or news section of a publisher ({name}), not peer reviewed",
                ("established_publisher", "editorial_content", "not_peer_reviewed"),
                0.75,
            )
        return _Verdict(
            "publisher",
            f"peer-reviewed publisher or journal ({name})",
            ("peer_reviewed", "established_publisher"),
            0.9,
        )
    if category == "institution":
        return _Verdict(
            "institution",
            f"research institution or intergovernmental body ({name})",
            ("institutional_affiliation", "official_source"),
            0.85,
        )
    if category == "university":
        return _Verdict(
            "academic",
            f"university domain ({name}{where})",
            ("institutional_affiliation", "academic_domain"),
            0.85,
        )
    if category == "preprint":
        return _Verdict(
            "preprint",
            f"preprint or scholarly repository ({name}): academic but not peer reviewed",
            ("preprint", "not_peer_reviewed", "academic_authors_likely"),
            0.85,
        )
    if category == "industry":
        return _Verdict(
            "industry",
            f"industry analyst or research firm ({name})",
            ("industry_report", "commercial_interest_possible"),
            0.8,
        )
    if category == "company":
        return _Verdict(
            "company", f"official company source ({name})", ("official_company_source", "self_reported"), 0.8
        )
    if category == "news":
        return _Verdict(
            "news",
            f"established news outlet ({name}{where})",
            ("established_media", "editorial_oversight"),
            0.8 if listing.curated else 0.75,
        )
    if category == "user_generated":
        return _Verdict(
            "blog",
            f"user-generated or user-edited site ({name}{where})",
            ("user_generated", "no_editorial_oversight"),
            0.85,
        )
    if category == "personal_host":
        return _Verdict(
            "blog",
            f"blog platform or personal site ({name}{where})",
            ("personal_site", "no_editorial_oversight"),
            0.85,
        )
    return _Verdict(
        "blog", f"blog platform or personal site ({name})", ("blog_platform", "no_editorial_oversight"), 0.85
    )


def rate_parsed(parsed: ParsedUrl, source_type: str | None = None) -> dict[str, Any]:
    """Rate an already parsed URL."""
    verdict, registered = _classify(parsed)
    grade = GRADES[verdict.category]
    indicators = list(verdict.indicators)
    confidence = verdict.confidence
    justification = verdict.reason
    if parsed.has_userinfo:
        indicators.append("userinfo_in_url")
        justification += "; the URL hides its real host behind a user-info part"
    if parsed.scheme == "https":
        indicators.append("https")
    if source_type is not None:
        agrees = source_type in AGREEING_TYPES.get(verdict.category, set())
        if agrees:
            indicators.append("source_type_consistent")
            confidence = min(0.95, confidence + 0.05)
        else:
            indicators.append("source_type_unverified")
            justification += (
                f"; the claimed type {source_type!r} is not what the domain shows, so the domain decides"
            )
            confidence = max(0.5, confidence - 0.1)
    return {
        "quality_rating": grade,
        "justification": justification,
        "credibility_indicators": indicators,
        "domain": registered,
        "host": parsed.host,
        "category": verdict.category,
        "confidence": round(confidence, 2),
        "source_type": source_type,
    }


def rate_source(
    url: str, source_type: str | None = None, metadata: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Rate ``url`` (a scheme is optional here: ``nature.com`` is accepted) on seed 004's A-E scale.

    Raises:
        UrlError: the URL is malformed.
    """
    parsed = parse_url(url, assume_scheme=True)
    result = rate_parsed(parsed, source_type)
    if metadata:
        result["metadata_considered"] = sorted(str(k) for k in metadata)[:20]
    return result


def rate_url_or_e(url: str | None) -> str:
    """The grade of a citation's URL; a missing or malformed URL is E (unknown)."""
    if not url:
        return "E"
    try:
        return str(rate_parsed(parse_url(url, assume_scheme=True))["quality_rating"])
    except UrlError:
        return "E"
