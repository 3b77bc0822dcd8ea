"""Look a DOI up in the scholarly record: Crossref's REST API first, then the DOI resolver.

``{crossref_url}/works/{doi}`` gives the registered metadata: title, container, dates,
authors, and the editorial history Crossref carries — ``updated-by`` on a work (corrections,
retractions, expressions of concern, from the publisher or from Retraction Watch),
``update-to`` on a notice (the work it corrects or retracts) and ``relation``. A DOI that
Crossref does not know (DataCite, mEDRA, ... or none) is asked of ``{doi_url}{doi}`` without
following the redirect: a 3xx means registered with some agency, a 404 means not registered.

Both endpoints are operator configuration (``settings.py``), not user input, so they are not
subject to the private-address policy of ``fetch.py``; what reaches them from the user is only
a DOI that passed ``doi_match.normalise_doi`` and is percent-encoded as one path segment. Lookups are
polite (User-Agent with ``mailto:``), capped per process, wait out a 429/503 ``Retry-After``
up to a limit, and are cached per DOI in the citation cache. A lookup that could not reach an
answer raises ``DoiUnverified`` and is not cached.
"""

from __future__ import annotations

import email.utils
import html
import logging
import re
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

import anyio
import httpx
from mcp_shared import StatsCache, cache_key

from .doi_match import RETRACTED_MARKER
from .settings import Settings

__all__ = [
    "DoiResolver",
    "DoiUnverified",
    "parse_work",
]

logger = logging.getLogger(__name__)

REDIRECT_CODES = {301, 302, 303, 307, 308}
RETRY_CODES = {429, 503}
MAX_RETRIES = 2
AGENT = "research-mcp/0.1 (citation-validate; https://pypi.org/project/research-mcp/)"


class DoiUnverified(Exception):
    """Neither service gave an answer (network failure, timeout, rate limit beyond the wait, 5xx)."""


def _date(parts: Any) -> str | None:
    """``{"date-parts": [[2012, 3, 21]]}`` -> ``2012-03-21`` (``1998-02``, ``1998``); None if absent."""
    try:
        first = parts["date-parts"][0]
    except (KeyError, IndexError, TypeError):
        return None
    if not first or first[0] is None:
        return None
    fields = [int(first[0])] + [int(x) for x in first[1:3] if x is not None]
    return "-".join([f"{fields[0]:04d}", *(f"{x:02d}" for x in fields[1:])])


def _clean_title(raw: str) -> str:
    """Crossref titles carry JATS/HTML markup and entities (``<i>``, ``<mml:math>``, ``&amp;``)."""
    text = re.sub(r"<[^>]+>", "", raw)
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


def _first(value: Any) -> str | None:
    if isinstance(value, list):
        value = next((v for v in value if isinstance(v, str) and v.strip()), None)
    return _clean_title(value) if isinstance(value, str) and value.strip() else None


def _update(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "doi": str(entry.get("DOI") or "").lower() or None,
        "type": str(entry.get("type") or "").lower() or None,
        "source": entry.get("source"),
        "date": _date(entry.get("updated")),
    }


def _updates(entries: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[tuple[Any, Any]] = set()
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, Mapping):
            continue
        item = _update(entry)
        key = (item["doi"], item["type"])
        if key not in seen:
            seen.add(key)
            out.append(item)
    out.sort(key=lambda n: n["date"] or "")
    return out


def _names(people: Any) -> list[str]:
    """Family names (or an organisation's name) in the registered order."""
    out: list[str] = []
    for person in people if isinstance(people, list) else []:
        if not isinstance(person, Mapping):
            continue
        name = person.get("family") or person.get("name")
        if isinstance(name, str) and name.strip():
            out.append(name.strip())
    return out


def parse_work(message: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a Crossref work that a citation check needs, as plain JSON (it is cached).

    ``notices`` are the work's ``updated-by`` entries (each a correction, retraction, expression
    of concern ... with its notice DOI, source and date); ``updates`` are its own ``update-to``
    entries (the cited DOI *is* a notice about another work); ``relations`` flatten ``relation``.
    """
    title = _first(message.get("title"))
    subtitle = _first(message.get("subtitle"))
    if title and subtitle and subtitle.lower() not in title.lower():
        title = f"{title}: {subtitle}"
    years = sorted(
        {
            int(d[:4])
            for key in ("published", "issued", "published-print", "published-online")
            if (d := _date(message.get(key)))
        }
    )
    relations: list[dict[str, str]] = []
    relation = message.get("relation")
    if isinstance(relation, Mapping):
        for kind, targets in relation.items():
            for target in targets if isinstance(targets, list) else [targets]:
                if isinstance(target, Mapping) and target.get("id"):
                    relations.append({"type": str(kind), "id": str(target["id"])})
    notices = _updates(message.get("updated-by"))
    return {
        "found": True,
        "source": "crossref",
        "agency": "Crossref",
        "doi": str(message.get("DOI") or "").lower() or None,
        "type": message.get("type"),
        "title": title,
        "container": _first(message.get("container-title")),
        "published": next(
            (
                d
                for key in ("published", "issued", "published-print", "published-online")
                if (d := _date(message.get(key)))
            ),
            None,
        ),
        "years": years,
        "authors": _names(message.get("author")) or _names(message.get("editor")),
        "notices": notices,
        "updates": _updates(message.get("update-to")),
        "relations": relations[:20],
        "title_marked_retracted": bool(title and RETRACTED_MARKER.match(title)),
    }


def _retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header: delta-seconds or an HTTP date; None if unreadable."""
    if value is None:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class DoiResolver:
    """One process's DOI lookups: the concurrency cap, the shared back-off and the per-DOI cache."""

    def __init__(self, settings: Settings, cache: StatsCache | None) -> None:
        self.settings = settings
        self.cache = cache
        self._limiter: anyio.Semaphore | None = None
        self._not_before = 0.0  # time.monotonic() before which no request is sent (a 429's Retry-After)
        agent = AGENT if not settings.contact_email else f"{AGENT[:-1]}; mailto:{settings.contact_email})"
        self.headers = {"User-Agent": agent, "Accept": "application/json"}

    def _slots(self) -> anyio.Semaphore:
        if self._limiter is None:  # created on first use, inside the server's event loop
            self._limiter = anyio.Semaphore(self.settings.crossref_concurrency)
        return self._limiter

    async def lookup(self, doi: str) -> dict[str, Any]:
        """The registered record of ``doi`` (``found`` true or false), from the cache when it is there.

        Raises:
            DoiUnverified: no service gave an answer; nothing is cached.
        """
        if self.cache is None:
            return await self._resolve(doi)
        key = cache_key(tool="doi-record", doi=doi.lower())
        found: dict[str, Any] = (await self.cache.get_or_compute(key, lambda: self._resolve(doi))).value
        return found

    async def _resolve(self, doi: str) -> dict[str, Any]:
        timeout = httpx.Timeout(self.settings.http_timeout_seconds)
        async with httpx.AsyncClient(timeout=timeout, follow_redirects=False, trust_env=False) as client:
            segment = quote(doi, safe="")
            response = await self._get(client, f"{self.settings.crossref_url}/works/{segment}", "Crossref")
            if response.status_code == 200:
                try:
                    message = response.json()["message"]
                except (ValueError, KeyError, TypeError) as exc:
                    raise DoiUnverified(f"Crossref answered for {doi} with unreadable JSON") from exc
                if not isinstance(message, Mapping):
                    raise DoiUnverified(f"Crossref answered for {doi} without a work record")
                return parse_work(message)
            if response.status_code != 404:
                raise DoiUnverified(f"Crossref answered HTTP {response.status_code} for {doi}")
            response = await self._get(client, f"{self.settings.doi_url}{segment}", "the DOI resolver")
            if response.status_code in REDIRECT_CODES:
                return {
                    "found": True,
                    "source": "doi.org",
                    "agency": None,
                    "doi": doi.lower(),
                    "resolves_to": response.headers.get("location"),
                }
            if response.status_code == 404:
                return {"found": False, "source": "crossref+doi.org", "doi": doi.lower()}
            raise DoiUnverified(f"the DOI resolver answered HTTP {response.status_code} for {doi}")

    async def _get(self, client: httpx.AsyncClient, url: str, service: str) -> httpx.Response:
        """GET under the process-wide cap; a 429/503 is retried after its Retry-After, within limits."""
        max_wait = self.settings.crossref_max_wait_seconds
        for attempt in range(MAX_RETRIES + 1):
            async with self._slots():
                delay = self._not_before - time.monotonic()
                if delay > 0:
                    await anyio.sleep(delay)
                try:
                    with anyio.fail_after(self.settings.http_timeout_seconds):
                        response = await client.get(url, headers=self.headers)
                        await response.aread()
                except TimeoutError as exc:
                    raise DoiUnverified(
                        f"{service} did not answer within {self.settings.http_timeout_seconds:g} s"
                    ) from exc
                except httpx.HTTPError as exc:
                    raise DoiUnverified(f"{service} could not be reached ({type(exc).__name__})") from exc
            if response.status_code not in RETRY_CODES:
                return response
            wait = _retry_after(response.headers.get("retry-after"))
            if wait is None:
                wait = 1.0 if response.status_code == 429 else None
            if wait is None or wait > max_wait or attempt == MAX_RETRIES:
                raise DoiUnverified(
                    f"{service} answered HTTP {response.status_code}"
                    + (f" and asked to retry after {wait:g} s" if wait is not None else "")
                )
            logger.info("%s answered HTTP %s; retrying after %.1f s", service, response.status_code, wait)
            self._not_before = max(self._not_before, time.monotonic() + wait)
        raise DoiUnverified(f"{service} kept refusing")  # pragma: no cover - the loop returns or raises
