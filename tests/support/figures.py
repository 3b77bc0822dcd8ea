"""Figures the hardening tests record, for ``make figures`` to print.

When ``HARDENING_FIGURES`` names a file, each record is appended to it as one JSON line;
otherwise recording does nothing, so ordinary test runs write nothing.
"""

from __future__ import annotations

import json
import os
from typing import Any


def record_figure(kind: str, data: dict[str, Any]) -> None:
    target = os.environ.get("HARDENING_FIGURES")
    if not target:
        return
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({"kind": kind, **data}) + "\n")
