"""Settings for papers-mcp, read once from the environment.

Nothing below this module reads ``os.environ``: tests and the demo point the server at a
replay arXiv and a scratch library purely through these variables.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from mcp_shared import env_float, env_int, env_url

DEFAULT_ARXIV_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_PDF_URL = "https://arxiv.org/pdf/"
# arXiv's LaTeXML rendering of a paper: {HTML_URL}{versioned id}; ar5iv's of older papers: {AR5IV_URL}{bare id}.
DEFAULT_HTML_URL = "https://arxiv.org/html/"
DEFAULT_AR5IV_URL = "https://ar5iv.labs.arxiv.org/html/"
DEFAULT_HOME = Path.home() / ".papers-mcp"
# arXiv's terms of use: no more than one request every three seconds.
DEFAULT_MIN_INTERVAL_SECONDS = 3.0
DEFAULT_TIMEOUT_SECONDS = 30.0
DEFAULT_MAX_RETRIES = 3
DEFAULT_RETRY_BACKOFF_SECONDS = 3.0
DEFAULT_MAX_PDF_MEGABYTES = 50.0
# Claude Code caps a tool answer at about 25k tokens; stay below it with room to spare.
DEFAULT_MAX_ANSWER_TOKENS = 20_000
# query-paper's `query`: how many passages at most (they also share a budget of about 1,500 tokens).
DEFAULT_MAX_PASSAGES = 5
# A fleet (PAPERS_MCP_REDIS_URL): see fleet.py.
DEFAULT_REDIS_TIMEOUT_SECONDS = 2.0
DEFAULT_GATE_MAX_WAIT_SECONDS = 60.0
DEFAULT_LEASE_SECONDS = 30.0
DEFAULT_LEASE_WAIT_SECONDS = 600.0
DEFAULT_SHARED_TTL_SECONDS = 30 * 24 * 3600.0
# Scholarly indexes for paper-graph (see scholar_api.py); an empty URL disables a source.
DEFAULT_S2_URL = "https://api.semanticscholar.org/graph/v1"
DEFAULT_OPENALEX_URL = "https://api.openalex.org"
# Semantic Scholar's shared pool allows about one request a second; OpenAlex ten.
DEFAULT_S2_MIN_INTERVAL_SECONDS = 1.0
DEFAULT_OPENALEX_MIN_INTERVAL_SECONDS = 0.1
DEFAULT_SCHOLAR_MAX_RETRY_AFTER_SECONDS = 10.0
DEFAULT_CITATIONS_TTL_SECONDS = 24 * 3600.0
DEFAULT_REFERENCES_TTL_SECONDS = 30 * 24 * 3600.0


def default_convert_workers() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one), at least 1."""
    affinity = getattr(os, "sched_getaffinity", None)
    count = len(affinity(0)) if affinity is not None else os.cpu_count()
    return max(1, count or 1)


@dataclass(frozen=True)
class Settings:
    """Where arXiv is, how politely to call it, where the library lives, how long an answer may be."""

    arxiv_api_url: str = DEFAULT_ARXIV_API_URL
    pdf_url: str = DEFAULT_PDF_URL
    html_url: str = DEFAULT_HTML_URL
    ar5iv_url: str = DEFAULT_AR5IV_URL  # "" disables the ar5iv route
    home: Path = field(default=DEFAULT_HOME)
    min_interval_seconds: float = DEFAULT_MIN_INTERVAL_SECONDS
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    max_retries: int = DEFAULT_MAX_RETRIES
    retry_backoff_seconds: float = DEFAULT_RETRY_BACKOFF_SECONDS
    max_pdf_bytes: int = int(DEFAULT_MAX_PDF_MEGABYTES * 1024 * 1024)
    max_answer_tokens: int = DEFAULT_MAX_ANSWER_TOKENS
    # Processes converting one PDF's pages at once (this one included); 1 converts in this process only.
    convert_workers: int = field(default_factory=default_convert_workers)
    max_passages: int = DEFAULT_MAX_PASSAGES
    redis_url: str | None = None
    """A fleet: share the arXiv gate, metadata, converted text and conversion leases through this Redis."""
    redis_timeout_seconds: float = DEFAULT_REDIS_TIMEOUT_SECONDS
    gate_max_wait_seconds: float = DEFAULT_GATE_MAX_WAIT_SECONDS
    lease_seconds: float = DEFAULT_LEASE_SECONDS
    lease_wait_seconds: float = DEFAULT_LEASE_WAIT_SECONDS
    shared_ttl_seconds: float = DEFAULT_SHARED_TTL_SECONDS
    s2_url: str = DEFAULT_S2_URL  # "" disables Semantic Scholar
    s2_api_key: str | None = field(default=None, repr=False)  # sent as x-api-key, never logged
    openalex_url: str = DEFAULT_OPENALEX_URL  # "" disables OpenAlex
    contact_email: str | None = None  # OpenAlex's polite pool (mailto)
    s2_min_interval_seconds: float = DEFAULT_S2_MIN_INTERVAL_SECONDS
    openalex_min_interval_seconds: float = DEFAULT_OPENALEX_MIN_INTERVAL_SECONDS
    scholar_max_retry_after_seconds: float = DEFAULT_SCHOLAR_MAX_RETRY_AFTER_SECONDS
    citations_ttl_seconds: float = DEFAULT_CITATIONS_TTL_SECONDS
    references_ttl_seconds: float = DEFAULT_REFERENCES_TTL_SECONDS

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read every ``PAPERS_MCP_*`` variable once; a malformed value is a CONFIGURATION_ERROR."""
        env = os.environ if env is None else env
        return cls(
            arxiv_api_url=env.get("PAPERS_MCP_ARXIV_API_URL") or DEFAULT_ARXIV_API_URL,
            pdf_url=env.get("PAPERS_MCP_PDF_URL") or DEFAULT_PDF_URL,
            html_url=env_url(env, "PAPERS_MCP_HTML_URL", DEFAULT_HTML_URL),
            ar5iv_url=env_url(env, "PAPERS_MCP_AR5IV_URL", DEFAULT_AR5IV_URL, allow_empty=True),
            home=Path(env.get("PAPERS_MCP_HOME") or str(DEFAULT_HOME)).expanduser(),
            min_interval_seconds=env_float(
                env, "PAPERS_MCP_MIN_INTERVAL_SECONDS", DEFAULT_MIN_INTERVAL_SECONDS, 0.0
            ),
            timeout_seconds=env_float(env, "PAPERS_MCP_TIMEOUT_SECONDS", DEFAULT_TIMEOUT_SECONDS, 0.1),
            max_retries=int(env_float(env, "PAPERS_MCP_MAX_RETRIES", DEFAULT_MAX_RETRIES, 0)),
            retry_backoff_seconds=env_float(
                env, "PAPERS_MCP_RETRY_BACKOFF_SECONDS", DEFAULT_RETRY_BACKOFF_SECONDS, 0.0
            ),
            max_pdf_bytes=int(
                env_float(env, "PAPERS_MCP_MAX_PDF_MB", DEFAULT_MAX_PDF_MEGABYTES, 0.01) * 1024 * 1024
            ),
            max_answer_tokens=int(
                env_float(env, "PAPERS_MCP_MAX_ANSWER_TOKENS", DEFAULT_MAX_ANSWER_TOKENS, 500)
            ),
            convert_workers=env_int(env, "PAPERS_MCP_CONVERT_WORKERS", default_convert_workers(), 1),
            max_passages=env_int(env, "PAPERS_MCP_MAX_PASSAGES", DEFAULT_MAX_PASSAGES, 1),
            redis_url=(env.get("PAPERS_MCP_REDIS_URL") or "").strip() or None,
            redis_timeout_seconds=env_float(
                env, "PAPERS_MCP_REDIS_TIMEOUT_SECONDS", DEFAULT_REDIS_TIMEOUT_SECONDS, 0.0, inclusive=False
            ),
            gate_max_wait_seconds=env_float(
                env, "PAPERS_MCP_GATE_MAX_WAIT_SECONDS", DEFAULT_GATE_MAX_WAIT_SECONDS, 0.0
            ),
            lease_seconds=env_float(
                env, "PAPERS_MCP_LEASE_SECONDS", DEFAULT_LEASE_SECONDS, 0.0, inclusive=False
            ),
            lease_wait_seconds=env_float(
                env, "PAPERS_MCP_LEASE_WAIT_SECONDS", DEFAULT_LEASE_WAIT_SECONDS, 0.0
            ),
            shared_ttl_seconds=env_float(
                env, "PAPERS_MCP_SHARED_TTL_SECONDS", DEFAULT_SHARED_TTL_SECONDS, 0.0, inclusive=False
            ),
            s2_url=env_url(env, "PAPERS_MCP_S2_URL", DEFAULT_S2_URL, allow_empty=True).rstrip("/"),
            s2_api_key=(env.get("PAPERS_MCP_S2_API_KEY") or "").strip() or None,
            openalex_url=env_url(
                env, "PAPERS_MCP_OPENALEX_URL", DEFAULT_OPENALEX_URL, allow_empty=True
            ).rstrip("/"),
            contact_email=(env.get("PAPERS_MCP_CONTACT_EMAIL") or "").strip() or None,
            s2_min_interval_seconds=env_float(
                env, "PAPERS_MCP_S2_MIN_INTERVAL_SECONDS", DEFAULT_S2_MIN_INTERVAL_SECONDS, 0.0
            ),
            openalex_min_interval_seconds=env_float(
                env, "PAPERS_MCP_OPENALEX_MIN_INTERVAL_SECONDS", DEFAULT_OPENALEX_MIN_INTERVAL_SECONDS, 0.0
            ),
            scholar_max_retry_after_seconds=env_float(
                env,
                "PAPERS_MCP_SCHOLAR_MAX_RETRY_AFTER_SECONDS",
                DEFAULT_SCHOLAR_MAX_RETRY_AFTER_SECONDS,
                0.0,
            ),
            citations_ttl_seconds=env_float(
                env, "PAPERS_MCP_CITATIONS_TTL_SECONDS", DEFAULT_CITATIONS_TTL_SECONDS, 0.0
            ),
            references_ttl_seconds=env_float(
                env, "PAPERS_MCP_REFERENCES_TTL_SECONDS", DEFAULT_REFERENCES_TTL_SECONDS, 0.0
            ),
        )
