"""mcp-shared: what papers-mcp and research-mcp both need, written once.

- the seed's error format and codes (``ErrorCode``, ``ToolFailure``, ``error_result``)
- an ``MCPServer`` whose every failure has that format (``GuardedMCPServer``)
- TTL caches with statistics and single flight (``TTLStatsCache``, ``CacheRegistry``), in memory or,
  for a fleet, in Redis (``RedisTTLCache``, ``RedisStore``)
- fleet coordination in Redis: a fleet-wide rate gate (``FleetGate``), a lease lock (``LeaseLock``,
  ``produce_once``)
- bearer-token authentication for HTTP through the SDK's verifier (``StaticTokenVerifier``)
- the batch runner behind the batch-* tools (``run_batch``, ``BatchOptions``)
- progress and log messages to the client (``client_progress``)
- settings from environment variables (``env_float``, ``env_int``, ``env_flag``, ``env_url``, ``SettingsError``)
- stderr logging and the shared command line (``configure_logging``, ``serve``)
- a tool result with text and structured content (``structured_result``)
"""

from .batch import BatchOptions, ProgressFn, run_batch
from .cache import CacheRegistry, CacheStats, Lookup, StatsCache, TTLStatsCache, cache_key
from .cli import serve
from .env import SettingsError, env_flag, env_float, env_int, env_url
from .errors import ErrorCode, ToolFailure, error_result, error_text
from .fleet_gate import FleetGate
from .http_auth import StaticTokenVerifier
from .lease import LeaseLock, LeaseWaitTimeout, produce_once
from .logging import configure_logging
from .progress import client_progress
from .redis_cache import RedisTTLCache
from .redis_store import RedisStore, RedisUnavailable, redact_url
from .results import structured_result
from .server import GuardedMCPServer
from .validation import describe_validation_error

__all__ = [
    "BatchOptions",
    "CacheRegistry",
    "CacheStats",
    "ErrorCode",
    "FleetGate",
    "GuardedMCPServer",
    "LeaseLock",
    "LeaseWaitTimeout",
    "Lookup",
    "ProgressFn",
    "RedisStore",
    "RedisTTLCache",
    "RedisUnavailable",
    "SettingsError",
    "StaticTokenVerifier",
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
    "produce_once",
    "redact_url",
    "run_batch",
    "serve",
    "structured_result",
]
