"""mcp-shared: what papers-mcp and research-mcp both need, written once.

- the seed's error format and codes (``ErrorCode``, ``ToolFailure``, ``error_result``)
- an ``MCPServer`` whose every failure has that format (``GuardedMCPServer``)
- TTL caches with statistics and single flight (``TTLStatsCache``, ``CacheRegistry``), in memory or,
  for a fleet, made by a ``CacheFactory`` from ``mcp_shared.fleet``
- the batch runner behind the batch-* tools (``run_batch``, ``BatchOptions``)
- progress and log messages to the client (``client_progress``)
- settings from environment variables (``env_float``, ``env_int``, ``env_flag``, ``env_url``, ``SettingsError``)
- stderr logging (``configure_logging``)
- a tool result with text and structured content (``structured_result``)

Two subpackages hold the rest: ``mcp_shared.fleet`` (Redis store, Redis cache, lease, fleet-wide gate,
``connect_store``; the ``fleet`` extra installs ``redis``) and ``mcp_shared.hosting`` (the command line,
stdio, HTTP with bearer tokens).
"""

from .batch import BatchOptions, ProgressFn, run_batch
from .cache import CacheFactory, CacheRegistry, CacheStats, Lookup, StatsCache, TTLStatsCache, cache_key
from .env import SettingsError, env_flag, env_float, env_int, env_url
from .errors import ErrorCode, ToolFailure, error_result, error_text
from .logging import configure_logging
from .progress import client_progress
from .results import structured_result
from .server import GuardedMCPServer
from .validation import describe_validation_error

__all__ = [
    "BatchOptions",
    "CacheFactory",
    "CacheRegistry",
    "CacheStats",
    "ErrorCode",
    "GuardedMCPServer",
    "Lookup",
    "ProgressFn",
    "SettingsError",
    "StatsCache",
    "TTLStatsCache",
    "ToolFailure",
    "cache_key",
    "client_progress",
    "configure_logging",
    "describe_validation_error",
    "env_flag",
    "env_float",
    "env_int",
    "env_url",
    "error_result",
    "error_text",
    "run_batch",
    "structured_result",
]
