"""The public surface of mcp_shared is pinned: other packages import only these names."""

from __future__ import annotations

import mcp_shared


def test_mcp_shared_exports_only_the_documented_names() -> None:
    assert sorted(mcp_shared.__all__) == [
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


def test_error_codes_are_the_five_of_the_seed() -> None:
    assert [c.value for c in mcp_shared.ErrorCode] == [
        "VALIDATION_ERROR",
        "PROCESSING_ERROR",
        "RESOURCE_ERROR",
        "DATA_FORMAT_ERROR",
        "CONFIGURATION_ERROR",
    ]
