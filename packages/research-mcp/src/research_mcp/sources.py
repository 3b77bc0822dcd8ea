"""source-rate: seed 004's A-E scale, decided on the registered domain, never on the claimed type.

The registered domain comes from tldextract's bundled Public Suffix List snapshot (no
network, no cache directory). Categories and grades:

- A  academic and government suffixes of every country (``.edu``, ``.ac.uk``, ``.edu.au``,
     ``.gov``, ``.gov.uk``, ``.gouv.fr``, ``.go.jp``, ``.int``...), peer-reviewed publishers and
     journals (nature.com, science.org, springer, elsevier, ieee, acm, plos...), known research
     institutions and intergovernmental bodies.
- B  preprint servers (academic but *not peer reviewed*), industry analysts, official company sites.
- C  established news outlets.
- D  blog platforms, personal sites, user-edited and user-generated sites.
- E  everything else, bare IP addresses, look-alike domains (``stanford.edu.evil.io``), punycode
     homoglyphs and near-miss spellings of known domains.

``source_type`` informs but never overrides: it is compared with what the domain says and
reported in the indicators and the confidence.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .urls import ParsedUrl, UrlError, parse_url

if TYPE_CHECKING:
    import tldextract

__all__ = ["SOURCE_TYPES", "rate_parsed", "rate_source"]

logger = logging.getLogger(__name__)

SOURCE_TYPES = ("academic", "industry", "news", "blog", "official")

ACADEMIC_FIRST_LABELS = {"edu", "ac"}
GOV_FIRST_LABELS = {"gov", "gouv", "gob", "govt", "go", "gv", "gub", "government", "mil", "nic"}
# (nic.in is India's government network; gc.ca is Canada's; gv.at Austria's; gub.uy Uruguay's)
GOV_SUFFIXES = {"gov", "mil", "int", "gc.ca", "gov.uk", "gouv.fr", "europa.eu"}

PUBLISHERS = {
    "nature.com", "science.org", "sciencemag.org", "cell.com", "thelancet.com", "nejm.org", "bmj.com",
    "jamanetwork.com", "springer.com", "springeropen.com", "biomedcentral.com", "elsevier.com",
    "sciencedirect.com", "wiley.com", "tandfonline.com", "sagepub.com", "ieee.org", "acm.org", "plos.org",
    "pnas.org", "oup.com", "cambridge.org", "frontiersin.org", "mdpi.com", "aps.org", "iop.org", "acs.org",
    "rsc.org", "annualreviews.org", "jstor.org", "aclanthology.org", "neurips.cc", "mlr.press", "jmlr.org",
    "aaai.org", "ijcai.org", "usenix.org", "aip.org", "ams.org", "siam.org", "aaas.org", "karger.com",
    "degruyter.com", "emerald.com", "informs.org", "apa.org", "royalsocietypublishing.org",
    "elifesciences.org", "embopress.org", "jneurosci.org", "ahajournals.org", "asm.org", "cvf.com",
    "thecvf.com", "openaccess.thecvf.com", "iclr.cc", "icml.cc", "aeaweb.org", "nber.org",
}  # fmt: skip
RESEARCH_INSTITUTIONS = {
    "ethz.ch", "epfl.ch", "mpg.de", "cnrs.fr", "inria.fr", "fraunhofer.de", "helmholtz.de", "csiro.au",
    "riken.jp", "cern.ch", "embl.org", "ox.ac.uk", "max-planck.de", "kit.edu", "tum.de", "lmu.de",
    "uni-heidelberg.de", "utoronto.ca", "mcgill.ca", "ubc.ca", "ku.dk", "kth.se", "ki.se", "uva.nl",
    "tudelft.nl", "nus.edu.sg", "u-tokyo.ac.jp", "tsinghua.edu.cn", "pku.edu.cn", "rand.org",
    "brookings.edu", "pewresearch.org", "nih.gov", "who.int", "un.org", "oecd.org", "worldbank.org",
    "imf.org", "wto.org", "iea.org", "ipcc.ch", "europa.eu", "canada.ca", "bund.de", "admin.ch",
    "ncbi.nlm.nih.gov",
}  # fmt: skip
PREPRINTS = {
    "arxiv.org", "biorxiv.org", "medrxiv.org", "ssrn.com", "chemrxiv.org", "preprints.org", "osf.io",
    "techrxiv.org", "researchsquare.com", "psyarxiv.com", "eartharxiv.org", "iacr.org", "hal.science",
    "zenodo.org", "openreview.net", "researchgate.net", "semanticscholar.org", "paperswithcode.com",
}  # fmt: skip
INDUSTRY_ANALYSTS = {
    "gartner.com", "mckinsey.com", "forrester.com", "idc.com", "statista.com", "pwc.com", "deloitte.com",
    "bcg.com", "accenture.com", "kpmg.com", "ey.com", "bain.com", "cbinsights.com", "pitchbook.com",
    "crunchbase.com", "grandviewresearch.com", "marketsandmarkets.com", "nielsen.com", "ibisworld.com",
    "spglobal.com", "moodys.com", "fitchratings.com", "morningstar.com", "goldmansachs.com", "jpmorgan.com",
    "morganstanley.com", "weforum.org", "cbre.com",
}  # fmt: skip
COMPANIES = {
    "microsoft.com", "google.com", "blog.google", "abc.xyz", "openai.com", "anthropic.com", "apple.com",
    "amazon.com", "aboutamazon.com", "aws.amazon.com", "nvidia.com", "meta.com", "fb.com", "ibm.com",
    "intel.com", "amd.com", "oracle.com", "salesforce.com", "sap.com", "adobe.com", "cisco.com",
    "samsung.com", "sony.com", "tesla.com", "deepmind.com", "deepmind.google", "huggingface.co",
    "qualcomm.com", "arm.com", "tsmc.com", "siemens.com", "bosch.com", "toyota.com", "netflix.com",
    "uber.com", "airbnb.com", "stripe.com", "shopify.com", "alibabagroup.com", "tencent.com", "baidu.com",
    "huawei.com", "mistral.ai", "cohere.com", "databricks.com", "snowflake.com",
}  # fmt: skip
NEWS = {
    "reuters.com", "apnews.com", "bbc.co.uk", "bbc.com", "nytimes.com", "wsj.com", "ft.com",
    "bloomberg.com", "economist.com", "theguardian.com", "washingtonpost.com", "cnn.com", "cnbc.com",
    "npr.org", "forbes.com", "techcrunch.com", "theverge.com", "wired.com", "arstechnica.com", "axios.com",
    "politico.com", "politico.eu", "latimes.com", "usatoday.com", "aljazeera.com", "lemonde.fr",
    "spiegel.de", "nikkei.com", "scmp.com", "theatlantic.com", "newyorker.com", "time.com", "fortune.com",
    "businessinsider.com", "venturebeat.com", "zdnet.com", "engadget.com", "technologyreview.com",
    "sciencenews.org", "newscientist.com", "scientificamerican.com", "theinformation.com", "semafor.com",
    "abc.net.au", "cbc.ca", "dw.com", "france24.com", "lefigaro.fr", "faz.net", "zeit.de", "elpais.com",
    "corriere.it", "asahi.com", "nhk.or.jp", "thehindu.com", "indiatimes.com", "straitstimes.com",
    "smh.com.au", "independent.co.uk", "telegraph.co.uk", "thetimes.co.uk", "nbcnews.com", "cbsnews.com",
    "abcnews.go.com", "pbs.org", "marketwatch.com", "barrons.com", "economictimes.com", "caixinglobal.com",
    "nature.com/news",
}  # fmt: skip
BLOG_PLATFORMS = {
    "medium.com", "substack.com", "github.io", "blogspot.com", "wordpress.com", "tumblr.com", "blogger.com",
    "wixsite.com", "weebly.com", "dev.to", "hashnode.dev", "ghost.io", "notion.site", "squarespace.com",
    "livejournal.com", "typepad.com", "netlify.app", "vercel.app", "pages.dev", "gitlab.io", "reddit.com",
    "quora.com", "linkedin.com", "facebook.com", "x.com", "twitter.com", "youtube.com", "tiktok.com",
    "instagram.com", "wikipedia.org", "wikia.com", "fandom.com", "stackexchange.com", "stackoverflow.com",
    "github.com", "news.ycombinator.com", "ycombinator.com",
}  # fmt: skip
USER_GENERATED = {
    "reddit.com", "quora.com", "linkedin.com", "facebook.com", "x.com", "twitter.com", "youtube.com",
    "tiktok.com", "instagram.com", "wikipedia.org", "wikia.com", "fandom.com", "stackexchange.com",
    "stackoverflow.com", "github.com", "ycombinator.com",
}  # fmt: skip

KNOWN: dict[str, str] = {}
for _names, _category in (
    (PUBLISHERS, "publisher"),
    (RESEARCH_INSTITUTIONS, "institution"),
    (PREPRINTS, "preprint"),
    (INDUSTRY_ANALYSTS, "industry"),
    (COMPANIES, "company"),
    (NEWS, "news"),
    (BLOG_PLATFORMS, "blog"),
):
    for _name in _names:
        KNOWN.setdefault(_name, _category)

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
def _known_by_label() -> dict[str, str]:
    """First label of each well-known registered domain -> the domain (for near-miss detection)."""
    out: dict[str, str] = {}
    for name in KNOWN:
        if "/" in name:
            continue
        label = name.split(".", 1)[0]
        if len(label) >= 5:
            out.setdefault(label, name)
    return out


_TRUSTED_TOKEN = re.compile(r"(?:^|[.-])(edu|gov|gouv|ac-uk|gov-uk)(?:[.-]|$)")


def _institutional_suffix(suffix: str) -> bool:
    labels = suffix.split(".")
    return (
        suffix in {"edu", "gov", "mil", "int"}
        or suffix in GOV_SUFFIXES
        or (len(labels) >= 2 and labels[0] in ACADEMIC_FIRST_LABELS | GOV_FIRST_LABELS)
    )


def _lookalike(host: str, registered: str, subdomain: str, domain_label: str, suffix: str) -> str | None:
    """Why this host imitates a domain it is not, or None."""
    sub_labels = subdomain.split(".") if subdomain else []
    if _institutional_suffix(suffix):
        # a real .edu/.gov/.ac.uk name: only a punycode label can still be a disguise
        if domain_label.startswith("xn--") or any(label.startswith("xn--") for label in sub_labels):
            return f"{host} uses a punycode (internationalised) name that can imitate another domain"
        return None
    for i in range(len(sub_labels)):
        tail = ".".join(sub_labels[i:])
        # stanford.edu.evil.io: the subdomain itself looks like an academic/government or known domain
        if tail in KNOWN or any(
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
    for label, known in _known_by_label().items():
        if _edit_distance_at_most_one(domain_label, label) and registered != known:
            return f"{registered} is one character away from the well-known {known}"
    for known in KNOWN:
        stem = known.split(".", 1)[0]
        if "/" in known or len(stem) < 5:
            continue
        dashed = known.replace(".", "-")
        if dashed in domain_label and registered != known:
            return f"{registered} embeds {known!r} in its name but is not {known}"
    same = _known_by_label().get(domain_label)
    if same is not None and registered != same:
        return f"{registered} borrows the name of the well-known {same} under another suffix"
    before_suffix = host[: -len(suffix) - 1] if host.endswith("." + suffix) else host
    token = _TRUSTED_TOKEN.search(before_suffix)
    if token is not None:
        # stanford-edu.com, harvard.edu-research.org: an academic/government marker outside the suffix
        return f"{host} puts {token.group(1)!r} in its name, but its real suffix is .{suffix}"
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
    suffix_labels = suffix.split(".")
    why_fake = _lookalike(host, registered, ext.subdomain, ext.domain, suffix)
    if why_fake is not None and registered not in KNOWN and host not in KNOWN:
        return _Verdict("lookalike", why_fake, ("lookalike_domain",), 0.85), registered

    # host-level entries first (aws.amazon.com, news.ycombinator.com), then the registered domain
    sub_hosts = [host]
    labels = host.split(".")
    sub_hosts += [".".join(labels[i:]) for i in range(1, len(labels) - 1)]
    for candidate in [*sub_hosts, registered]:
        category = KNOWN.get(candidate)
        if category is None:
            continue
        return _known_verdict(category, candidate, parsed), registered

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
    return (
        _Verdict(
            "unknown",
            f"{registered} is not a recognised publisher, institution, company or outlet",
            ("unverified_domain",),
            0.6,
        ),
        registered,
    )


def _known_verdict(category: str, name: str, parsed: ParsedUrl) -> _Verdict:
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
            "news", f"established news outlet ({name})", ("established_media", "editorial_oversight"), 0.8
        )
    indicators = ["user_generated"] if name in USER_GENERATED else ["blog_platform", "no_editorial_oversight"]
    if name in {"github.io", "gitlab.io", "netlify.app", "vercel.app", "pages.dev"}:
        indicators = ["personal_site", "no_editorial_oversight"]
    kind = (
        "user-generated or user-edited site" if name in USER_GENERATED else "blog platform or personal site"
    )
    return _Verdict("blog", f"{kind} ({name})", tuple(indicators), 0.85)


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
