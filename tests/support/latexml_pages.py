"""Synthetic LaTeXML pages for tests that need a case no stored page shows (each test says so)."""

from __future__ import annotations

__all__ = ["latexml_page"]


def latexml_page(article: str, title: str = "T") -> bytes:
    """A minimal LaTeXML document: ``article.ltx_document`` with a title, then ``article`` (HTML)."""
    return (
        '<html><body><article class="ltx_document"><h1 class="ltx_title ltx_title_document">'
        f"{title}</h1>{article}</article></body></html>"
    ).encode()
