"""The public surface of mcp_shared is pinned: other packages import only these names."""

from __future__ import annotations

import subprocess
import sys

import mcp_shared
import pytest
from mcp_shared import ErrorCode, SettingsError
from mcp_shared.fleet import connect_store


def test_mcp_shared_exports_only_the_documented_names() -> None:
    assert sorted(mcp_shared.__all__) == [
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


def test_error_codes_are_the_five_of_the_seed() -> None:
    assert [c.value for c in mcp_shared.ErrorCode] == [
        "VALIDATION_ERROR",
        "PROCESSING_ERROR",
        "RESOURCE_ERROR",
        "DATA_FORMAT_ERROR",
        "CONFIGURATION_ERROR",
    ]


def test_the_fleet_and_hosting_parts_export_their_own_names() -> None:
    import mcp_shared.fleet
    import mcp_shared.hosting

    assert sorted(mcp_shared.fleet.__all__) == [
        "FleetGate",
        "LeaseLock",
        "LeaseWaitTimeout",
        "RedisStore",
        "RedisTTLCache",
        "RedisUnavailable",
        "connect_store",
        "produce_once",
        "redact_url",
        "redis_caches",
    ]
    assert sorted(mcp_shared.hosting.__all__) == ["StaticTokenVerifier", "serve"]


def test_importing_every_part_never_imports_redis() -> None:
    # The fleet is an optional extra: a single-user install has no redis, so nothing may import it
    # before a Redis URL is given.
    code = "import sys, mcp_shared, mcp_shared.fleet, mcp_shared.hosting; print('redis' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


def test_a_redis_url_without_the_fleet_extra_names_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "redis", None)  # what an install without the extra looks like
    with pytest.raises(SettingsError) as info:
        connect_store(
            "redis://:pw@10.0.0.5:6379/0", "x:", variable="X_REDIS_URL", timeout=1, extra="papers-mcp[fleet]"
        )
    assert info.value.code is ErrorCode.CONFIGURATION_ERROR
    assert "install papers-mcp[fleet]" in info.value.message
    assert "X_REDIS_URL=redis://***@10.0.0.5:6379/0" in info.value.message


def test_no_redis_url_is_the_embedded_default() -> None:
    assert connect_store(None, "x:", variable="X_REDIS_URL", timeout=1, extra="x[fleet]") is None
    assert connect_store("", "x:", variable="X_REDIS_URL", timeout=1, extra="x[fleet]") is None
