"""Every identifier form SPEC.md lists resolves to one canonical id; anything else is rejected."""

from __future__ import annotations

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.ids import ArxivId, canonical_id, parse_arxiv_id

# The forms and their meaning come from SPEC.md ("Identifiers a user will paste").
SPEC_FORMS = [
    ("1706.03762", ArxivId("1706.03762")),
    ("1706.03762v5", ArxivId("1706.03762", 5)),
    ("arxiv:1706.03762", ArxivId("1706.03762")),
    ("arXiv:1706.03762v5", ArxivId("1706.03762", 5)),
    ("https://arxiv.org/abs/1706.03762", ArxivId("1706.03762")),
    ("https://arxiv.org/pdf/1706.03762v5.pdf", ArxivId("1706.03762", 5)),
    ("10.48550/arXiv.1706.03762", ArxivId("1706.03762")),
    ("hep-th/9901001", ArxivId("hep-th/9901001")),
    # arXiv's canonical old-style id drops the subject class (math.GT/0309136 is math/0309136).
    ("math.GT/0309136v1", ArxivId("math/0309136", 1)),
]


@pytest.mark.parametrize(("raw", "expected"), SPEC_FORMS)
def test_every_spec_form_resolves_to_the_canonical_id(raw: str, expected: ArxivId) -> None:
    assert canonical_id(raw) == expected


def test_surrounding_space_and_trailing_slash_are_tolerated() -> None:
    assert canonical_id("  https://arxiv.org/abs/1706.03762v5/ ") == ArxivId("1706.03762", 5)
    assert canonical_id("http://export.arxiv.org/abs/quant-ph/9508027v2") == ArxivId("quant-ph/9508027", 2)


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "../../etc/passwd",
        "1706.03762/../../x",
        "..\\1706.03762",
        "/etc/passwd",
        "1706.03762v5/../secret",
        "abc",
        "1713.03762",  # month 13
        "1706.037",
        "1706.03762v0",
        "https://evil.example/abs/1706.03762",
        "file:///etc/passwd",
        "arxiv:hep-th/../9901001",
        "hep-th/990100",
        "1706.03762 OR 1",
        "x" * 5000,
    ],
)
def test_anything_else_is_a_validation_error(raw: str) -> None:
    assert parse_arxiv_id(raw) is None
    with pytest.raises(ToolFailure) as info:
        canonical_id(raw)
    assert info.value.code is ErrorCode.VALIDATION_ERROR


def test_file_stem_never_contains_a_path_separator() -> None:
    aid = canonical_id("quant-ph/9508027v2")
    assert aid.file_stem == "quant-ph_9508027v2"
    assert "/" not in aid.file_stem and "\\" not in aid.file_stem


def test_text_is_the_form_arxiv_spells() -> None:
    assert canonical_id("arXiv:1706.03762v5").text == "1706.03762v5"
    assert canonical_id("https://arxiv.org/abs/1706.03762").text == "1706.03762"
