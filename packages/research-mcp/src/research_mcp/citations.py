"""citation-validate: completeness (claim, author, date, title, url), validity, source quality, and optional checks.

A citation is *complete* when all five fields are present and none of them is invalid
(an impossible date, a malformed URL or DOI, a title that is only a URL). Missing fields
are warnings; invalid values are errors. ``quality_distribution`` rates each citation's
URL with source-rate; a missing or malformed URL counts as E, so the counts add up to the
number of citations.

``verify_urls`` fetches each URL (see ``fetch.py`` for the private-address policy) and
looks each citation's DOI up in the scholarly record (``crossref.py``): registered or not,
retracted, corrected, under an expression of concern, and whether the given title, author and
year are the registered ones (``doi_match.py``). A DOI link in ``url`` is checked there rather
than fetched. ``check_accuracy`` also reads the page (or the citation's ``source_text``) and judges
the claim against it (``claims``: a verdict, the evidence passages, the numbers compared by value).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import UTC, date, datetime
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio

from .claims.report import accuracy, accuracy_issues, unverifiable
from .claims.source import SourceText, Unreadable, read_body
from .claims.terms import check_accuracy, claim_terms
from .doi_match import (
    CONCERN_TYPES,
    CORRECTION_TYPES,
    RETRACTION_TYPES,
    TITLE_MATCH_THRESHOLD,
    author_matches,
    doi_from_url,
    normalise_doi,
    title_score,
    year_of,
    years_match,
)
from .models import CitationIn
from .settings import Settings
from .sources import rate_url_or_e
from .urls import UrlError, is_public_address, parse_url

if TYPE_CHECKING:
    from .crossref import DoiResolver

__all__ = [
    "check_accuracy",
    "check_date",
    "citation_doi",
    "claim_terms",
    "has_transient_failures",
    "judge_doi_record",
    "validate_citations",
]

REQUIRED_FIELDS = ("claim", "author", "date", "title", "url")
MONTHS = {name.lower(): i for i, name in enumerate(calendar.month_name) if name}
MONTHS |= {name.lower(): i for i, name in enumerate(calendar.month_abbr) if name}
MONTHS["sept"] = 9
DOI_RE = re.compile(r"^10\.\d{4,9}/[^\s]+$")
URLISH_RE = re.compile(r"^(?:https?://|www\.)\S+$|^[\w-]+(?:\.[\w-]+)+/\S*$", re.IGNORECASE)
CONCURRENT_FETCHES = 5


def _present(value: str | None) -> bool:
    return value is not None and value.strip() != ""


def _valid_ymd(year: int, month: int, day: int | None) -> bool:
    if not 1 <= month <= 12:
        return False
    if day is None:
        return True
    return 1 <= day <= calendar.monthrange(year, month)[1]


def check_date(raw: str, today: date | None = None) -> tuple[str, str] | None:
    """``(issue, detail)`` for a date that is impossible, in the future, implausible or unreadable; None if fine.

    Accepts ISO (``2024``, ``2024-03``, ``2024-03-05``, with ``/`` or ``.`` too, and datetimes),
    ``March 5, 2024``, ``5 March 2024``, ``Mar 2024`` and numeric ``DD/MM/YYYY`` or ``MM/DD/YYYY``
    (valid if either reading is).
    """
    today = today or datetime.now(UTC).date()
    text = raw.strip().rstrip(".")
    if text.lower() in {"n.d", "nd", "no date", "undated"}:
        return "missing", f"date {raw!r} means no date"
    year: int | None = None
    candidates: list[tuple[int, int | None, int | None]] = []
    m = re.fullmatch(
        r"(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?",
        text,
    )
    if m:
        candidates = [
            (
                int(m.group(1)),
                int(m.group(2)) if m.group(2) else None,
                int(m.group(3)) if m.group(3) else None,
            )
        ]
    if not candidates:
        m = re.fullmatch(r"(\d{4})(\d{2})(\d{2})", text)  # 20240305
        if m:
            candidates = [(int(m.group(1)), int(m.group(2)), int(m.group(3)))]
    if not candidates:
        m = re.fullmatch(r"(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})", text)
        if m:
            a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
            candidates = [(y, b, a), (y, a, b)]
    if not candidates:
        m = re.fullmatch(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})", text)
        if m and m.group(1).lower() in MONTHS:
            candidates = [(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))]
        m2 = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})", text)
        if m2 and m2.group(2).lower() in MONTHS:
            candidates = [(int(m2.group(3)), MONTHS[m2.group(2).lower()], int(m2.group(1)))]
        m3 = re.fullmatch(r"([A-Za-z]+)\.?,?\s+(\d{4})", text)
        if m3 and m3.group(1).lower() in MONTHS:
            candidates = [(int(m3.group(2)), MONTHS[m3.group(1).lower()], None)]
        if not candidates and (m or m2 or m3):
            return "invalid", f"date {raw!r} names a month that does not exist"
    if not candidates:
        return "unparseable", f"date {raw!r} is not in a recognised format (use YYYY-MM-DD)"
    valid = [(y, mo, d) for y, mo, d in candidates if mo is None or _valid_ymd(y, mo, d)]
    if not valid:
        return "impossible", f"date {raw!r} cannot exist (no such month or day)"
    year, month, day = valid[0]
    earliest = date(year, month or 1, day or 1)
    if earliest > today:
        return "future", f"date {raw!r} is after today ({today.isoformat()})"
    if year < 1450:
        return "implausible", f"date {raw!r} is before printed publication existed"
    return None


def _check_doi(raw: str) -> str | None:
    doi = raw.strip()
    doi = re.sub(r"(?i)^(?:doi:\s*|https?://(?:dx\.)?doi\.org/)", "", doi)
    if not DOI_RE.match(doi):
        return f"{raw!r} is not a DOI (expected 10.<registrant>/<suffix>)"
    return None


def _issue(index: int, field: str, issue: str, severity: str, detail: str) -> dict[str, Any]:
    return {"citation_index": index, "field": field, "issue": issue, "severity": severity, "detail": detail}


def _static_issues(
    index: int, c: CitationIn, today: date | None, allow_private: bool
) -> list[dict[str, Any]]:
    issues: list[dict[str, Any]] = []
    for name in REQUIRED_FIELDS:
        if not _present(getattr(c, name)):
            issues.append(_issue(index, name, "missing", "warning", f"{name} is missing"))
    if _present(c.date):
        assert c.date is not None
        found = check_date(c.date, today)
        if found is not None:
            kind, detail = found
            severity = "warning" if kind in {"unparseable", "missing", "implausible"} else "error"
            issues.append(
                _issue(index, "date", f"{kind}_date" if kind != "missing" else "missing", severity, detail)
            )
    if _present(c.url):
        assert c.url is not None
        url = c.url.strip()
        if url.lower().startswith("doi:"):
            bad = _check_doi(url)
            if bad:
                issues.append(_issue(index, "url", "malformed_doi", "error", bad))
        else:
            try:
                parsed = parse_url(url)
            except UrlError as exc:
                issues.append(_issue(index, "url", "malformed_url", "error", f"{url!r}: {exc}"))
            else:
                if parsed.ip is not None and not is_public_address(parsed.ip) and not allow_private:
                    detail = f"{parsed.host} is a private, loopback or link-local address ({parsed.ip}), not a public source"
                    issues.append(_issue(index, "url", "non_public_address", "error", detail))
                elif parsed.ip is not None and str(parsed.ip) != parsed.host:
                    detail = f"{parsed.host} is an obfuscated form of the address {parsed.ip}"
                    issues.append(_issue(index, "url", "obfuscated_ip_host", "warning", detail))
                if parsed.host in {"doi.org", "dx.doi.org"}:
                    bad = _check_doi(url)
                    if bad:
                        issues.append(_issue(index, "url", "malformed_doi", "error", bad))
    if _present(c.doi):
        assert c.doi is not None
        bad = _check_doi(c.doi)
        if bad:
            issues.append(_issue(index, "doi", "malformed_doi", "error", bad))
    if _present(c.title):
        assert c.title is not None
        if URLISH_RE.match(c.title.strip()):
            issues.append(
                _issue(index, "title", "title_is_url", "error", "the title is only a URL, not a title")
            )
    if _present(c.author):
        assert c.author is not None
        author = c.author.strip()
        if URLISH_RE.match(author) or not re.search(r"[^\W\d_]", author):
            issues.append(_issue(index, "author", "invalid_author", "error", f"{author!r} is not a name"))
    return issues


def citation_doi(c: CitationIn) -> str | None:
    """The DOI a citation names: its ``doi`` field, else a ``doi:`` form or doi.org URL in ``url``."""
    for raw in (c.doi, c.url):
        if raw is not None and raw.strip():
            doi = normalise_doi(raw)
            if doi is not None:
                return doi
    return None


def _notice_text(notices: Sequence[dict[str, Any]]) -> str:
    """``retraction notice 10.x/y (2010-02-06, source retraction-watch); ...``"""
    parts = []
    for n in notices:
        when = ", ".join(x for x in (n.get("date"), n.get("source") and f"source {n['source']}") if x)
        kind = (n.get("type") or "update").replace("_", " ")
        parts.append(f"{kind} notice {n.get('doi')}" + (f" ({when})" if when else ""))
    return "; ".join(parts)


def _doi_check_fields(doi: str, record: dict[str, Any]) -> dict[str, Any]:
    """The ``doi_check`` of a citation before it is judged: what the registry holds for ``doi``."""
    return {
        "checked": True,
        "doi": doi,
        "found": bool(record.get("found")),
        "source": record.get("source"),
        "agency": record.get("agency"),
        "title": record.get("title"),
        "container": record.get("container"),
        "published": record.get("published"),
        "type": record.get("type"),
        "retracted": None,
        "notices": list(record.get("notices") or []),
        "updates": list(record.get("updates") or []),
        "relations": list(record.get("relations") or []),
        "title_match": None,
        "author_match": None,
        "date_match": None,
    }


def _notice_issues(index: int, check: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Retraction, correction and concern issues from the notices registered for the work; sets
    ``check["retracted"]``."""
    issues: list[dict[str, Any]] = []
    notices = check["notices"]
    retractions = [n for n in notices if n["type"] in RETRACTION_TYPES]
    check["retracted"] = bool(retractions) or bool(record.get("title_marked_retracted"))
    if retractions:
        issues.append(
            _issue(index, "doi", "retracted", "error", f"the work is retracted: {_notice_text(retractions)}")
        )
    elif check["retracted"]:
        detail = f"the registered title is marked as retracted ({check['title']!r}); no retraction notice is registered"
        issues.append(_issue(index, "doi", "retracted", "error", detail))
    corrections = [n for n in notices if n["type"] in CORRECTION_TYPES]
    if corrections:
        issues.append(
            _issue(
                index, "doi", "corrected", "warning", f"the work was corrected: {_notice_text(corrections)}"
            )
        )
    concerns = [n for n in notices if n["type"] in CONCERN_TYPES]
    if concerns:
        detail = f"an expression of concern was published: {_notice_text(concerns)}"
        issues.append(_issue(index, "doi", "expression_of_concern", "warning", detail))
    return issues


def _match_issues(
    index: int, c: CitationIn, doi: str, check: dict[str, Any], record: dict[str, Any]
) -> list[dict[str, Any]]:
    """Title, author and year mismatches between the citation and the registered record; sets the
    ``*_match`` fields of ``check``."""
    issues: list[dict[str, Any]] = []
    registered_title = check["title"]
    if _present(c.title) and registered_title:
        assert c.title is not None
        score = title_score(c.title, registered_title)
        check["title_match"] = score
        if score < TITLE_MATCH_THRESHOLD:
            detail = (
                f"the given title does not match the title registered for {doi}: {registered_title!r} "
                f"(similarity {score:.2f}, below {TITLE_MATCH_THRESHOLD:.2f})"
            )
            issues.append(_issue(index, "doi", "title_mismatch", "warning", detail))
    authors: list[str] = list(record.get("authors") or [])
    if _present(c.author) and authors:
        assert c.author is not None
        check["author_match"] = author_matches(c.author, authors)
        if check["author_match"] is False:
            shown = ", ".join(authors[:6]) + (", ..." if len(authors) > 6 else "")
            detail = f"none of the registered authors ({shown}) appears in {c.author.strip()!r}"
            issues.append(_issue(index, "doi", "author_mismatch", "warning", detail))
    years: list[int] = list(record.get("years") or [])
    year = year_of(c.date) if _present(c.date) and c.date is not None else None
    if year is not None and years:
        check["date_match"] = years_match(year, years)
        if check["date_match"] is False:
            shown = "/".join(str(y) for y in years)
            detail = f"the given year {year} is more than one year from the registered {shown}"
            issues.append(_issue(index, "doi", "date_mismatch", "warning", detail))
    return issues


def judge_doi_record(
    index: int, c: CitationIn, doi: str, record: dict[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """``doi_check`` and the ``doi`` issues of one citation, from the registered record of its DOI."""
    issues: list[dict[str, Any]] = []
    check = _doi_check_fields(doi, record)
    if not check["found"]:
        issues.append(
            _issue(
                index,
                "doi",
                "doi_not_found",
                "error",
                f"{doi} is not registered (neither Crossref nor the DOI resolver knows it)",
            )
        )
        return check, issues
    if record.get("source") != "crossref":
        check["resolves_to"] = record.get("resolves_to")
        return check, issues  # registered with another agency: no metadata to compare
    issues += _notice_issues(index, check, record)
    issues += _match_issues(index, c, doi, check, record)
    return check, issues


async def _doi_checks(
    index: int, c: CitationIn, doi: str, resolver: DoiResolver
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from .crossref import DoiUnverified  # httpx is needed only when a caller asks for network checks

    try:
        record = await resolver.lookup(doi)
    except DoiUnverified as exc:
        check = {"checked": False, "doi": doi, "found": None, "reason": str(exc)}
        detail = f"{doi} could not be checked against the scholarly record: {exc}"
        return check, [_issue(index, "doi", "doi_unverified", "warning", detail)]
    return judge_doi_record(index, c, doi, record)


def _doi_link(url: str | None) -> str | None:
    """The DOI of a ``doi:`` form or doi.org URL; None for any other URL."""
    if url is None:
        return None
    text = url.strip()
    if text.lower().startswith("doi:") or doi_from_url(text) is not None:
        return normalise_doi(text)
    return None


def has_transient_failures(result: dict[str, Any]) -> bool:
    """Whether a result holds a check that may give another answer soon (not worth caching whole)."""
    return any(x["issue"] == "doi_unverified" for x in result["issues"])


async def _network_checks(
    index: int,
    c: CitationIn,
    settings: Settings,
    verify_urls: bool,
    want_accuracy: bool,
    limiter: anyio.Semaphore,
    entities: Sequence[str] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    from .fetch import fetch_url  # httpx is needed only when a caller asks for network checks

    details: dict[str, Any] = {}
    issues: list[dict[str, Any]] = []
    assert c.url is not None
    url = c.url.strip()
    if url.lower().startswith("doi:"):
        url = "https://doi.org/" + url[4:].strip()
    async with limiter:
        fetched = await fetch_url(url, settings, read_body=want_accuracy)
    if verify_urls:
        details["url_check"] = fetched.summary()
    if fetched.error is not None:
        issue = "refused_url" if fetched.error_kind == "refused_address" else "unreachable"
        issues.append(_issue(index, "url", issue, "error", fetched.error))
    elif fetched.status_code is not None and fetched.status_code >= 400:
        issues.append(
            _issue(index, "url", "http_error", "error", f"the URL answered HTTP {fetched.status_code}")
        )
    if want_accuracy:
        if fetched.reachable:
            try:  # CPU work (main text, the judge) runs off the event loop, as the NER does
                source = await anyio.to_thread.run_sync(read_body, fetched.body, fetched.content_type)
            except Unreadable as exc:
                details["accuracy"] = {**unverifiable(str(exc)), "page_truncated": fetched.truncated}
            else:
                judge = partial(accuracy, c.claim, source, entities, truncated=fetched.truncated)
                details["accuracy"] = await anyio.to_thread.run_sync(judge)
                issues.extend(accuracy_issues(index, details["accuracy"]))
        else:
            why = fetched.error or f"the URL answered HTTP {fetched.status_code}"
            details["accuracy"] = unverifiable(f"the page could not be fetched: {why}")
    return details, issues


async def _given_text_accuracy(
    index: int,
    c: CitationIn,
    found: tuple[dict[str, Any], list[dict[str, Any]]],
    entities: Sequence[str] | None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The claim judged on the caller's ``source_text``; or why there is no page to judge it on."""
    details, issues = found
    if c.source_text is not None and not c.source_text.strip():
        return {
            **details,
            "accuracy": unverifiable("source_text is empty: there is no text to check against"),
        }, issues
    if c.source_text is not None:
        judge = partial(accuracy, c.claim, SourceText(c.source_text, "source_text"), entities)
        result = await anyio.to_thread.run_sync(judge)
        return {**details, "accuracy": result}, issues + accuracy_issues(index, result)
    if "accuracy" not in details:
        return {**details, "accuracy": unverifiable("no valid URL to read and no source_text")}, issues
    return found


def _settle(
    c: CitationIn,
    per: dict[str, Any],
    static: list[dict[str, Any]],
    network: tuple[dict[str, Any], list[dict[str, Any]]],
    doi: tuple[dict[str, Any], list[dict[str, Any]]],
) -> list[dict[str, Any]]:
    """One citation's breakdown (``per``, completed in place) from all its checks; returns its issues."""
    details, net_issues = network
    doi_details, doi_issues = doi
    found = static + net_issues + doi_issues
    has_all = all(_present(getattr(c, name)) for name in REQUIRED_FIELDS)
    invalid = any(x["severity"] == "error" and x["field"] in REQUIRED_FIELDS for x in static)
    per.update(
        {
            "complete": has_all and not invalid,
            "missing_fields": [n for n in REQUIRED_FIELDS if not _present(getattr(c, n))],
            "errors": sum(1 for x in found if x["severity"] == "error"),
            "warnings": sum(1 for x in found if x["severity"] == "warning"),
            **details,
            **doi_details,
        }
    )
    return found


def _grade(c: CitationIn, static: list[dict[str, Any]]) -> str:
    """The citation's source rated A-E from its URL (E when the URL itself is in error)."""
    broken = any(x["field"] == "url" and x["severity"] == "error" for x in static)
    return rate_url_or_e(None if broken else c.url)


async def validate_citations(
    citations: Sequence[CitationIn],
    settings: Settings,
    *,
    verify_urls: bool = False,
    check_accuracy: bool = False,
    today: date | None = None,
    claim_entities: Sequence[Sequence[str]] | None = None,
    doi_resolver: DoiResolver | None = None,
) -> dict[str, Any]:
    """seed 004's citation-validate result, plus a per-citation breakdown under ``citations``.

    ``claim_entities[i]`` are the named entities of citation ``i``'s claim (from spaCy), used by
    ``check_accuracy``. With ``verify_urls`` and a ``doi_resolver``, each citation's DOI is looked
    up (``citations[i].doi_check``, issues in field ``doi``).
    """
    issues: list[dict[str, Any]] = []
    static = [_static_issues(i, c, today, settings.allow_private_urls) for i, c in enumerate(citations)]
    per = [{"index": i, "quality_rating": _grade(c, static[i])} for i, c in enumerate(citations)]
    distribution = {grade: sum(1 for p in per if p["quality_rating"] == grade) for grade in "ABCDE"}
    network: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [({}, []) for _ in citations]
    doi_results: list[tuple[dict[str, Any], list[dict[str, Any]]]] = [({}, []) for _ in citations]
    check_dois = verify_urls and doi_resolver is not None
    if verify_urls or check_accuracy:
        limiter = anyio.Semaphore(CONCURRENT_FETCHES)

        async def run(i: int, c: CitationIn, read_page: bool) -> None:
            names = claim_entities[i] if claim_entities is not None else None
            network[i] = await _network_checks(i, c, settings, verify_urls, read_page, limiter, names)

        async def run_doi(i: int, c: CitationIn, doi: str, resolver: DoiResolver) -> None:
            check, found = await _doi_checks(i, c, doi, resolver)
            doi_results[i] = ({"doi_check": check}, found)

        async with anyio.create_task_group() as tg:
            for i, c in enumerate(citations):
                doi = citation_doi(c) if check_dois else None
                if doi is not None and doi_resolver is not None:
                    tg.start_soon(run_doi, i, c, doi, doi_resolver)
                elif check_dois:
                    doi_results[i] = ({"doi_check": {"checked": False, "reason": "no DOI in doi or url"}}, [])
                url_ok = _present(c.url) and not any(
                    x["field"] == "url" and x["severity"] == "error" for x in static[i]
                )
                read_page = check_accuracy and c.source_text is None  # the caller's text is never fetched
                if (
                    url_ok
                    and doi is not None
                    and not read_page
                    and (_doi_link(c.url) or "").lower() == doi.lower()
                ):
                    reason = "a DOI link: checked against the scholarly record (see doi_check)"
                    network[i] = ({"url_check": {"checked": False, "reason": reason}}, [])
                elif url_ok and (verify_urls or read_page):
                    tg.start_soon(run, i, c, read_page)
                elif verify_urls:
                    network[i] = ({"url_check": {"checked": False, "reason": "no valid URL to check"}}, [])
    if check_accuracy:
        for i, c in enumerate(citations):
            network[i] = await _given_text_accuracy(
                i, c, network[i], claim_entities[i] if claim_entities else None
            )
    for i, c in enumerate(citations):
        issues.extend(_settle(c, per[i], static[i], network[i], doi_results[i]))
    return {
        "total_citations": len(citations),
        "complete_citations": sum(1 for p in per if p["complete"]),
        "quality_distribution": distribution,
        "issues": issues,
        "valid_citations": sum(1 for p in per if p["errors"] == 0),
        "citations": per,
        "checks": {"verify_urls": verify_urls, "check_accuracy": check_accuracy, "doi_lookup": check_dois},
    }
