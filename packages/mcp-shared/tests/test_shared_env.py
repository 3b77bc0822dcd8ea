"""Settings from environment variables: defaults, ranges, and errors that name the variable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from mcp_shared import ErrorCode, SettingsError, ToolFailure, env_flag, env_float, env_int


def test_unset_or_blank_gives_the_default() -> None:
    assert env_float({}, "X", 3.0) == 3.0
    assert env_float({"X": "  "}, "X", 3.0) == 3.0
    assert env_int({}, "N", 7) == 7
    assert env_flag({}, "F") is False


def test_values_are_parsed() -> None:
    assert env_float({"X": "0.5"}, "X", 3.0) == 0.5
    assert env_float({"X": "0"}, "X", 3.0, 0.0) == 0.0, "0 is allowed when the minimum is inclusive"
    assert env_int({"N": "12"}, "N", 7) == 12
    assert [env_flag({"F": v}, "F") for v in ("1", "TRUE", "yes", "on", "0", "no", "")] == [True] * 4 + [
        False
    ] * 3


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: env_float({"PAPERS_MCP_TIMEOUT": "soon"}, "PAPERS_MCP_TIMEOUT", 1.0), "must be a number"),
        (lambda: env_float({"T": "0"}, "T", 1.0, 0.0, inclusive=False), "must be > 0"),
        (lambda: env_float({"T": "-1"}, "T", 1.0), "must be >= 0"),
        (lambda: env_float({"T": "nan"}, "T", 1.0), "must be >= 0"),
        (lambda: env_int({"N": "2.5"}, "N", 1), "must be an integer"),
        (lambda: env_int({"N": "0"}, "N", 1), "must be >= 1"),
    ],
)
def test_bad_values_are_configuration_errors_naming_the_variable(call: Callable[[], Any], words: str) -> None:
    with pytest.raises(SettingsError) as info:
        call()
    assert words in info.value.message
    assert isinstance(info.value, ToolFailure) and info.value.code is ErrorCode.CONFIGURATION_ERROR
    assert isinstance(info.value, ValueError)
