"""Settings for papers-mcp, read once from the environment."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_ARXIV_API_URL = "https://export.arxiv.org/api/query"
DEFAULT_PDF_URL = "https://arxiv.org/pdf/"
DEFAULT_HOME = Path.home() / ".papers-mcp"


@dataclass(frozen=True)
class Settings:
    """Where arXiv is and where the local library lives."""

    arxiv_api_url: str = DEFAULT_ARXIV_API_URL
    pdf_url: str = DEFAULT_PDF_URL
    home: Path = field(default=DEFAULT_HOME)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            arxiv_api_url=env.get("PAPERS_MCP_ARXIV_API_URL", DEFAULT_ARXIV_API_URL),
            pdf_url=env.get("PAPERS_MCP_PDF_URL", DEFAULT_PDF_URL),
            home=Path(env.get("PAPERS_MCP_HOME", str(DEFAULT_HOME))).expanduser(),
        )
