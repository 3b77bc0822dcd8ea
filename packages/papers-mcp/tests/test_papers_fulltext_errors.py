"""extract_paper_text on files that are not readable PDFs, the PaperText round trip, lazy imports.

Bad files are made in tmp_path from the real fixture bytes (or plain text), never mocked.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.fulltext import EXTRACTOR_VERSION, PaperText, extract_paper_text
from papers_mcp.headings import Heading
from papers_mcp.ids import ArxivId
from papers_mcp.library import Library
from support.required import missing

FIXTURE = "1608.03417v1.pdf"  # 7 pages, the smallest real paper


@pytest.fixture(scope="module")
def real_pdf() -> Path:
    env = os.environ.get("PAPERS_MCP_FIXTURES")
    root = Path(env) if env else Path(__file__).resolve().parents[3].parent / "shared" / "fixtures" / "arxiv"
    path = root / "pdfs" / FIXTURE
    if not path.is_file():
        message = "arXiv fixtures not found: set PAPERS_MCP_FIXTURES or put shared/ beside the repository"
        missing(message)
    return path


def _data_format_error(path: Path) -> ToolFailure:
    with pytest.raises(ToolFailure) as caught:
        extract_paper_text(path)
    assert caught.value.code is ErrorCode.DATA_FORMAT_ERROR, f"{path.name}: wrong code {caught.value.code}"
    assert path.name in caught.value.message, "the message names the file so the agent knows which paper"
    return caught.value


def test_plain_text_is_not_a_pdf(tmp_path: Path) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("These are my notes on attention, not a PDF.\n", encoding="utf-8")
    assert "not a PDF" in _data_format_error(path).message


def test_html_error_page_saved_as_pdf_is_rejected(tmp_path: Path) -> None:
    # What a proxy or a rate-limited server hands back instead of the PDF.
    path = tmp_path / "1706.03762v5.pdf"
    path.write_text("<!DOCTYPE html><html><body>Too many requests</body></html>", encoding="utf-8")
    _data_format_error(path)


def test_empty_file_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    _data_format_error(path)


def test_missing_file_is_a_data_format_error(tmp_path: Path) -> None:
    _data_format_error(tmp_path / "never-downloaded.pdf")


def test_truncated_download_is_rejected(tmp_path: Path, real_pdf: Path) -> None:
    data = real_pdf.read_bytes()
    path = tmp_path / "truncated.pdf"
    path.write_bytes(data[: len(data) // 2])  # an interrupted download
    assert "truncated" in _data_format_error(path).message


def test_encrypted_pdf_is_rejected(tmp_path: Path, real_pdf: Path) -> None:
    import pymupdf

    path = tmp_path / "locked.pdf"
    with pymupdf.open(real_pdf) as doc:
        doc.save(path, encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="reader", owner_pw="owner")
    assert "encrypted" in _data_format_error(path).message


def _zero_page_pdf() -> bytes:
    """A well-formed PDF whose page tree is empty (valid xref offsets, so MuPDF need not repair it)."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_pdf_without_pages_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "blank.pdf"
    path.write_bytes(_zero_page_pdf())
    assert "no pages" in _data_format_error(path).message


@pytest.mark.slow
def test_progress_counts_pages_up_to_the_total(real_pdf: Path) -> None:
    calls: list[tuple[int, int]] = []
    paper = extract_paper_text(real_pdf, progress=lambda done, total: calls.append((done, total)))
    assert paper.pages == 7, "MANIFEST.md: 1608.03417v1 has 7 pages"
    assert calls, "progress was never reported"
    assert calls[-1] == (7, 7), f"last progress call should be (7, 7), got {calls[-1]}"
    assert [done for done, _ in calls] == sorted({done for done, _ in calls}), (
        "progress must only move forward"
    )


def test_paper_text_round_trips_through_a_dict() -> None:
    paper = PaperText(
        front="# T\n\nAbstract", body="## 1 Intro", references="[1] A. B.", appendix="", pages=3
    )
    assert PaperText.from_dict(paper.to_dict()) == paper
    headed = replace(paper, headings=(Heading("body", 0, "1 Intro", "1", 1),))
    assert PaperText.from_dict(json.loads(json.dumps(headed.to_dict()))) == headed


_TEXTS = {"front": "", "body": "## 1 Intro", "references": "", "appendix": "", "pages": 1}


@pytest.mark.parametrize(
    "headings",
    [
        {"part": "body"},  # not a list
        [
            {"part": "front", "start": 0, "title": "T", "number": None, "depth": 0}
        ],  # the front has no sections
        [{"part": "body", "start": 99, "title": "1 Intro", "number": "1", "depth": 1}],  # outside its part
        [{"part": "body", "start": "0", "title": "1 Intro", "number": "1", "depth": 1}],  # start not a number
        [{"part": "body", "start": 0, "title": "1 Intro", "number": 1, "depth": 1}],  # number not text
        [{"part": "body", "start": 0, "title": "1 Intro", "number": "1", "depth": -1}],
    ],
)
def test_headings_from_a_corrupt_cache_entry_raise_value_error(headings: object) -> None:
    with pytest.raises(ValueError, match="heading"):
        PaperText.from_dict({**_TEXTS, "headings": headings})


@pytest.mark.parametrize(
    "broken",
    [
        {"front": "", "body": "", "references": "", "appendix": ""},  # no pages
        {"front": "", "body": 1, "references": "", "appendix": "", "pages": 1},  # body not text
        {"front": "", "body": "", "references": "", "appendix": "", "pages": True},  # bool is not a count
        {"front": "", "body": "", "references": "", "appendix": "", "pages": -1},
    ],
)
def test_paper_text_from_a_corrupt_cache_entry_raises_value_error(broken: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="PaperText field"):
        PaperText.from_dict(broken)


def test_text_cached_by_an_older_extractor_is_not_read_back(tmp_path: Path) -> None:
    # The library keys cached markdown by the extractor version, so new rules re-make the text.
    library = Library(tmp_path)
    aid = ArxivId("1706.03762", 5)
    library.write_text(aid, "pdf", "0-older", {"front": "stale"})
    assert library.read_text(aid, "pdf", "0-older") == {"front": "stale"}
    assert EXTRACTOR_VERSION != "0-older"
    assert library.read_text(aid, "pdf", EXTRACTOR_VERSION) is None


def test_fulltext_imports_without_pymupdf() -> None:
    # The server imports fulltext at start-up; PyMuPDF (about a second) must wait for the first PDF.
    code = "import sys, papers_mcp.fulltext; print(sorted(m for m in sys.modules if m.startswith('pymupdf')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]", f"pymupdf was imported at module level: {out.stdout.strip()}"


@pytest.mark.slow
def test_owner_password_only_pdf_is_still_read(tmp_path: Path, real_pdf: Path) -> None:
    # "Copy protection" (an owner password, no user password) does not stop reading.
    import pymupdf

    path = tmp_path / "protected.pdf"
    with pymupdf.open(real_pdf) as doc:
        doc.save(
            path, encryption=pymupdf.PDF_ENCRYPT_AES_256, owner_pw="owner", permissions=pymupdf.PDF_PERM_PRINT
        )
    paper = extract_paper_text(path)
    # p1 of 1608.03417v1, section 1, first sentence.
    assert "Monitoring birds by their sound" in paper.body, "p1 §1 first sentence"
