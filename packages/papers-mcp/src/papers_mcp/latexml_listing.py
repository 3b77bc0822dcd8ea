"""A code listing on a LaTeXML page, as a fenced code block of its exact source.

LaTeXML renders ``lstlisting`` / ``minted`` code as one ``div.ltx_listingline`` per line, with the
line number in an ``ltx_tag``, spaces in ``ltx_lst_space`` spans and each token in its own span, and
it puts the listing's source, byte for byte, in a download link (``div.ltx_listing_data >
a[href^="data:text/plain;base64,"]``, drawn as "⬇"). Read as text, those lines lose their
indentation and gain their numbers; the source in the link is the code itself. So a listing with
that link is written as a fenced block of the decoded source, its language from the
``ltx_lst_language_<name>`` class; a listing without it (an ``algorithmic`` block, whose lines
hold math) is rendered line by line as before. An empty line of code holds one space, so the
block is one block wherever the text is cut at blank lines.
"""

from __future__ import annotations

import base64
import binascii
import re

from lxml.etree import _Element

from .latexml_nodes import class_set

__all__ = ["DATA_CLASS", "code_block"]

DATA_CLASS = "ltx_listing_data"
_DATA_PREFIX = "data:text/plain;base64,"
_MAX_SOURCE_BYTES = 1 << 20  # a listing's source, decoded; a page is capped long before this
_LANGUAGE = re.compile(r"^ltx_lst_language_([A-Za-z0-9_+#.-]{1,30})$")
_BACKTICKS = re.compile(r"`{3,}")
_EMPTY_LINE = re.compile(r"\n(?=\n)")


def _source(listing: _Element) -> str | None:
    """The listing's source from its download link, or None when it has none that decodes."""
    for holder in listing:
        if DATA_CLASS not in class_set(holder):
            continue
        for link in holder.iter("a"):
            href = link.get("href") or ""
            if not href.startswith(_DATA_PREFIX) or len(href) > 2 * _MAX_SOURCE_BYTES:
                continue
            try:
                raw = base64.b64decode(href[len(_DATA_PREFIX) :], validate=True)
                return raw.decode("utf-8")
            except (binascii.Error, ValueError):
                return None
    return None


def code_block(listing: _Element) -> str | None:
    """The listing as a fenced code block of its source; None when the page does not carry it."""
    source = _source(listing)
    if source is None or not source.strip():
        return None
    language = next((m[1].lower() for c in class_set(listing) if (m := _LANGUAGE.match(c))), "")
    longest = max((len(run) for run in _BACKTICKS.findall(source)), default=2)
    fence = "`" * max(3, longest + 1)
    code = source.replace("\r\n", "\n").strip("\n")
    # An empty line holds one space, so the block stays one block wherever text is cut at blank
    # lines (pages, passages) and a fence is never split.
    code = _EMPTY_LINE.sub("\n ", code)
    return f"{fence}{language}\n{code}\n{fence}"
