"""Logging for stdio servers: stderr only, because stdout is the MCP transport."""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["configure_logging"]


def configure_logging(verbosity: int = 0, *, env_var: str | None = None) -> None:
    """Send logs to stderr; ``-v`` is INFO, ``-vv`` is DEBUG, else ``$<env_var>`` or WARNING."""
    level_name = os.environ.get(env_var, "") if env_var else ""
    level = {0: logging.WARNING, 1: logging.INFO}.get(verbosity, logging.DEBUG)
    if verbosity == 0 and level_name:
        level = logging.getLevelNamesMapping().get(level_name.upper(), logging.WARNING)
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
