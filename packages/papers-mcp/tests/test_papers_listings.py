"""Code listings on LaTeXML pages: the exact source the page carries, as a fenced code block.

The listing pages here are synthetic, and say so: LaTeXML's markup for an ``lstlisting`` (one
``div.ltx_listingline`` per line with its number in an ``ltx_tag``, the source in a base64
``data:`` link drawn as "⬇"), copied in shape from arXiv's pages 2608.29808v1 and 2501.11120v1,
which we may not store. The algorithm listing is the real one of shared/fixtures 2410.00260v2.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from papers_mcp.latexml import parse_page
from support.latexml_pages import latexml_page
from support.required import missing
from support.servers import fixtures_dir

SOURCE = (
    "def refined_em(pred, gts):\n"
    "    for gt in gts:\n"
    "        if pred == gt:\n"
    "            return True  # case 1\n"
    "\n"
    "    return False\n"
    "print('```')\n"
)


def listing(source: bytes | str, language: str = "python") -> bytes:
    """A page holding one paragraph and one listing of ``source`` (synthetic, LaTeXML's markup)."""
    data = source if isinstance(source, str) else base64.b64encode(source).decode()
    lines = "".join(
        f'<div class="ltx_listingline">\n  <span class="ltx_tag ltx_tag_listingline">{n}</span>\n  '
        f'<span class="ltx_text ltx_font_typewriter">{line.strip()}</span>\n</div>'
        for n, line in enumerate(SOURCE.splitlines(), 1)
    )
    return latexml_page(
        '<section class="ltx_section"><h2 class="ltx_title ltx_title_section">'
        '<span class="ltx_tag ltx_tag_section">1 </span>Code</h2>'
        '<div class="ltx_para"><p class="ltx_p">The protocol reads as follows.</p></div>'
        f'<div class="ltx_listing ltx_lst_language_{language} ltx_lst_numbers_left ltx_lstlisting ltx_listing">'
        f'<div class="ltx_listing_data"><a href="data:text/plain;base64,{data}" download="">⬇</a></div>'
        f"{lines}</div></section>",
        "A Paper",
    )


def test_a_listing_is_its_source_in_a_fenced_block() -> None:
    body = parse_page(listing(SOURCE.encode()), "html").text.body
    assert "⬇" not in body
    block = body[body.index("````python\n") :]
    fence_end = block.index("\n````", 10)
    code = block[len("````python\n") : fence_end]
    # Exact source: indentation and the comment kept, no line numbers, the empty line one space
    # (so the block is never cut at a blank line), a fence longer than the ``` inside the code.
    assert code == SOURCE.rstrip("\n").replace("\n\n", "\n \n")
    assert "\n\n" not in block[: fence_end + 5]


def test_a_listing_whose_source_does_not_decode_is_read_line_by_line() -> None:
    body = parse_page(listing("not base64!"), "html").text.body
    assert "````" not in body and "⬇" not in body
    assert "1 def refined_em(pred, gts):" in body


def test_an_algorithm_without_a_source_keeps_its_lines() -> None:
    arxiv = fixtures_dir()
    if arxiv is None:
        missing("shared/fixtures is missing")
        return
    page = arxiv.parent / "arxiv-html" / "oxide" / "2410.00260v2.html"
    body = parse_page(Path(page).read_bytes(), "html").text.body
    assert "1: Input Documents $D$, Encoder Model $E$" in body
    assert "4: for $d\\in D$ do" in body
    assert "⬇" not in body and "```" not in body


@pytest.mark.parametrize("language", ["python", "C++", "Java"])
def test_the_fence_names_the_listing_language(language: str) -> None:
    body = parse_page(listing(SOURCE.encode(), language), "html").text.body
    assert f"````{language.lower()}\n" in body
