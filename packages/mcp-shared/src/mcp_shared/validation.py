"""Readable wording for pydantic validation errors: field paths and reasons, never the values.

The values are the caller's data (possibly huge or sensitive); the model only needs to
know which argument was wrong and why.
"""

from __future__ import annotations

from pydantic import ValidationError

__all__ = ["describe_validation_error"]

_MAX_ISSUES = 5


def describe_validation_error(exc: ValidationError) -> str:
    """``"arxivID: Field required; level: Input should be 'abstract' or 'body'"``."""
    parts: list[str] = []
    for err in exc.errors(include_url=False, include_input=False):
        loc = ".".join(str(p) for p in err["loc"]) or "arguments"
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown argument"
        parts.append(f"{loc}: {msg}")
    extra = len(parts) - _MAX_ISSUES
    text = "; ".join(parts[:_MAX_ISSUES])
    return f"{text}; and {extra} more" if extra > 0 else text
