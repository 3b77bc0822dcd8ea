"""Value parsing: money, percentages, points, quantities with units, counts, ranges, dates and periods.

Pure functions over strings (no spaCy), shared by fact-extract (which scans text) and conflict-detect
(which parses one value string per fact). Each concept has its module:

- ``lexicon``: the word lists (currencies, units, scales), read from the JSON data shipped in the package
  on first use;  ``lazy``: patterns compiled on first use (importing this package compiles nothing);
- ``amounts``: finding amounts in text (``find_values``) and the rules that keep a wrong number out;
- ``units``: the physical unit after a number, and when an ambiguous word is one (``in``, ``pounds``);
- ``ranges``: joining two values into one range, and a list's unit given to each number;
- ``words``: amounts written in words;  ``fractions``: ``2 1/2 in``;  ``notation``: ``5×10−4``;
- ``periods``: dates and periods with their precision;  ``strings``: one fact's value string on its own;
- ``model``: the ``Value`` and ``Period`` records.

Rules that matter for correctness (a wrong number is worse than none):

- A scale letter is never a physical unit: ``£3.2m`` is 3.2 million pounds. Single-letter scales
  (``k m M b B T``) count only when a currency is present or when glued to the number (``3.2m``).
- A bare year (``2024``) is a date, never a value; numbers inside dates, quarters (``Q3``), fiscal
  years (``FY2024``), references (``[12]``, ``Table 2``) and identifiers (``GPT-4``) are not values.
- A duration is a value with its time word as unit (``84 days``); a window of time is a period, not a
  value (``the first nine months``, ``the 12 months ended June 30``).
- ``%`` is a percentage, ``percentage points``/``pp``/``bps`` are points (``bps`` divided by 100).
"""

from __future__ import annotations

from typing import Any

from .amounts import find_values
from .model import Period, Value
from .periods import find_periods, parse_period_text
from .strings import parse_value_string
from .units import unit_dimension

__all__ = [
    "SCALES",
    "Period",
    "Value",
    "find_periods",
    "find_values",
    "parse_period_text",
    "parse_value_string",
    "unit_dimension",
]


def __getattr__(name: str) -> Any:
    """``SCALES`` comes from the lexicon, which reads its files on first use."""
    if name == "SCALES":
        from . import lexicon

        return lexicon.SCALES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
