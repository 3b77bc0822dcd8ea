"""The local library: atomic files, paths confined to the home, metadata reuse and offline search."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_shared import ErrorCode, ToolFailure
from papers_mcp.ids import ArxivId, canonical_id
from papers_mcp.library import Library
from papers_mcp.metadata import PaperMeta


def _meta(
    pid: str, title: str, abstract: str = "An abstract.", authors: tuple[str, ...] = ("Ann Author",)
) -> PaperMeta:
    return PaperMeta(
        pid, title, authors, abstract, "2017-06-12T00:00:00+00:00", "2017-12-06T00:00:00+00:00", "cs.CL"
    )


def test_nothing_is_created_until_something_is_written(tmp_path: Path) -> None:
    home = tmp_path / "home"
    library = Library(home)
    assert library.meta(canonical_id("1706.03762")) is None
    assert library.search("attention", 5) == []
    assert not home.exists()


def test_a_failed_write_leaves_no_file_behind(tmp_path: Path) -> None:
    library = Library(tmp_path)
    target = library.pdf_path(ArxivId("1706.03762", 5))

    def interrupted_download() -> None:
        with library.atomic_file(target) as handle:
            handle.write(b"%PDF-1.5 half a file")
            raise RuntimeError("killed mid-download")

    with pytest.raises(RuntimeError):
        interrupted_download()
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_a_finished_write_appears_whole(tmp_path: Path) -> None:
    library = Library(tmp_path)
    target = library.pdf_path(ArxivId("quant-ph/9508027", 2))
    with library.atomic_file(target) as handle:
        handle.write(b"%PDF-1.5 whole %%EOF")
    assert target.read_bytes() == b"%PDF-1.5 whole %%EOF"
    assert target.name == "quant-ph_9508027v2.pdf"
    assert [p.name for p in target.parent.iterdir()] == [target.name]


def test_paths_need_a_versioned_id_and_stay_inside_the_home(tmp_path: Path) -> None:
    library = Library(tmp_path)
    with pytest.raises(ValueError, match="versioned"):
        library.pdf_path(ArxivId("1706.03762"))
    forged = ArxivId("../../outside", 1)  # never produced by canonical_id; still lands inside the home
    assert library.pdf_path(forged).is_relative_to(tmp_path.resolve())


def test_converted_text_is_keyed_by_source_and_extractor_version(tmp_path: Path) -> None:
    library = Library(tmp_path)
    aid = ArxivId("1706.03762", 5)
    library.write_text(aid, "pdf", "1", {"body": "x"})
    assert library.read_text(aid, "pdf", "1") == {"body": "x"}
    assert library.read_text(aid, "pdf", "2") is None
    assert library.read_text(aid, "html", "1") is None, "a PDF conversion is not the HTML one"
    with pytest.raises(ValueError, match="source"):
        library.text_path(aid, "../pdf", "1")


def test_a_corrupt_conversion_is_ignored(tmp_path: Path) -> None:
    library = Library(tmp_path)
    aid = ArxivId("1706.03762", 5)
    library.write_text(aid, "pdf", "1", {"body": "x"})
    library.text_path(aid, "pdf", "1").write_text("{not json", encoding="utf-8")
    assert library.read_text(aid, "pdf", "1") is None


def test_an_unversioned_id_finds_the_latest_version_seen(tmp_path: Path) -> None:
    library = Library(tmp_path)
    library.remember([_meta("1706.03762v5", "Attention Is All You Need"), _meta("1706.03762v2", "Old title")])
    assert library.meta(canonical_id("1706.03762")) == _meta("1706.03762v5", "Attention Is All You Need")
    assert library.meta(canonical_id("1706.03762v2")) == _meta("1706.03762v2", "Old title")
    assert library.meta(canonical_id("1706.03762v9")) is None


def test_offline_search_ranks_title_matches_first(tmp_path: Path) -> None:
    library = Library(tmp_path)
    library.remember(
        [
            _meta("1810.04805v2", "BERT: Pre-training of Deep Bidirectional Transformers", "uses attention"),
            _meta("1706.03762v5", "Attention Is All You Need", "The Transformer."),
            _meta("1512.03385v1", "Deep Residual Learning for Image Recognition", "Residual nets."),
        ]
    )
    found = library.search("attention", 5)
    assert [m.id for m in found] == ["1706.03762v5", "1810.04805v2"]
    assert library.search("ti:residual", 5)[0].id == "1512.03385v1"  # field prefixes are ignored offline
    assert library.count() == 3


def test_an_unusable_home_is_a_configuration_error(tmp_path: Path) -> None:
    home = tmp_path / "not-a-directory"
    home.write_text("a file where the library should be", encoding="utf-8")
    library = Library(home)
    with pytest.raises(ToolFailure) as info:
        library.remember([_meta("1706.03762v5", "Attention Is All You Need")])
    assert info.value.code is ErrorCode.CONFIGURATION_ERROR
    assert "PAPERS_MCP_HOME" in info.value.message
