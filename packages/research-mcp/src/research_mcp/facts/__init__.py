"""fact-extract: atomic facts (entity, attribute, value) from a parsed document.

Values come from regex parsing (``research_mcp.values``); spaCy supplies sentences and the dependency
parse that says what each value is about. One pass over the text for values and periods, then a
short walk up the parse tree per value: no extra spaCy passes. Each concept has its module:

- ``extract``: the tool's entry point and one fact per value (``extract_from_doc``);
- ``fact``: the typed ``Fact`` each step refines, turned into the seed's dict once, at the end;
- ``about``: what a value is about (entity and attribute) from the parse, a label or proximity;
- ``measured``: what a value measures when no owner is named ("we granted 547,000 PSUs": the PSUs);
- ``phrases``: noun phrases and their roles in the parse;  ``labels``: ``Label:`` prefixes and tables;
- ``signals``: direction, projection, period choice, confidence;  ``events``: dates of events;
- ``respectively``: "respectively" lists paired in order;  ``vocabulary``: patterns and word lists.

Precision first: a value with no owner is anchored to what it measures, at lower confidence, or dropped
when it measures nothing (a bare number); every fact says how sure we are (``confidence`` plus the
features behind it). The rules are documented in the package README (section "fact-extract").
"""

from __future__ import annotations

from .extract import extract_from_doc, source_attribution

__all__ = ["extract_from_doc", "source_attribution"]
