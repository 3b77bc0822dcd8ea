"""Read numbers and flags from environment variables, once, with errors that name the variable.

Both servers are configured by environment (``PAPERS_MCP_*``, ``RESEARCH_MCP_*``); a value
that is not a valid number must stop start-up with one clear line, not a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlsplit

from .errors import ErrorCode, ToolFailure

__all__ = ["SettingsError", "env_flag", "env_float", "env_int", "env_url"]

_TRUE = {"1", "true", "yes", "on"}


class SettingsError(ToolFailure, ValueError):
    """A malformed setting: a CONFIGURATION_ERROR, and a ValueError for callers that parse values."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.CONFIGURATION_ERROR, message)


def _raw(env: Mapping[str, str], name: str) -> str | None:
    raw = env.get(name)
    return None if raw is None or raw.strip() == "" else raw


def env_float(
    env: Mapping[str, str], name: str, default: float, minimum: float = 0.0, *, inclusive: bool = True
) -> float:
    """``float($name)``, or ``default`` when unset; at least ``minimum`` (above it when not ``inclusive``).

    Raises:
        SettingsError: the value is not a number or is out of range.
    """
    raw = _raw(env, name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a number, got {raw!r}") from None
    if value != value or value < minimum or (not inclusive and value == minimum):
        raise SettingsError(f"{name} must be {'>=' if inclusive else '>'} {minimum:g}, got {raw!r}")
    return value


def env_int(env: Mapping[str, str], name: str, default: int, minimum: int = 1) -> int:
    """``int($name)``, or ``default`` when unset; at least ``minimum``.

    Raises:
        SettingsError: the value is not an integer or is below ``minimum``.
    """
    raw = _raw(env, name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be >= {minimum}, got {raw!r}")
    return value


def env_flag(env: Mapping[str, str], name: str) -> bool:
    """True for ``1``, ``true``, ``yes`` or ``on`` (any case); false when unset or anything else."""
    return env.get(name, "").strip().lower() in _TRUE


def env_url(env: Mapping[str, str], name: str, default: str, *, allow_empty: bool = False) -> str:
    """An http(s) URL from ``$name``, or ``default`` when unset; ``""`` when set empty and ``allow_empty``.

    An endpoint goes into every request the server makes, so a typo must stop start-up, not
    surface later as a confusing connection error.

    Raises:
        SettingsError: the value is not an http or https URL with a host.
    """
    raw = env.get(name)
    if raw is None:
        return default
    value = raw.strip()
    if not value:
        return "" if allow_empty else default
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise SettingsError(f"{name} must be an http(s) URL, got {raw!r}")
    return value
