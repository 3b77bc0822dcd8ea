"""What a test does when something it needs is not on the machine: ``../shared`` (the real third-party
data), a system binary (redis-server, haproxy), Node.js.

Under CI (``CI=true``) everything must be there, so the test fails and names what is missing; on a
developer's machine without it, the test is reported as skipped with the same reason (never a silent pass).
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(message: str) -> NoReturn:
    """Fail under CI, skip elsewhere, with ``message`` either way."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)
