"""PDF conversion with helper processes gives byte for byte the sequential output (issue 13).

Why it can: pymupdf4llm's only cross-page state is the set of heading font sizes, and ``convert``
sets heading depths once from all pages after parsing. These tests check the claim on real pages
(pages 2-3 of 1706.03762v5: sections on the first, subsections on the second, so two heading depths
that the second page alone would not show): with
two workers, and with a page parsed in another process. All 12 fixture papers are compared (and
checked against one ``pymupdf4llm.to_markdown`` call each) in ``tests/bench/bench_papers_convert.py``.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pymupdf
import pytest
from papers_mcp import convert, pdf_pages
from support import pool_work

pytestmark = pytest.mark.slow

PAGES = 2  # pages 2 and 3 of the paper


@pytest.fixture(scope="module")
def first_pages(arxiv_fixtures: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("pdf") / "1706.03762v5-first-pages.pdf"
    with pymupdf.open(arxiv_fixtures / "pdfs" / "1706.03762v5.pdf") as doc:
        doc.select([1, 2])
        doc.save(target)
    return target


@pytest.fixture(scope="module")
def sequential(first_pages: Path) -> convert.ConvertedDocument:
    return convert.convert_pdf(first_pages, workers=1)


def test_two_workers_give_the_sequential_output(
    first_pages: Path, sequential: convert.ConvertedDocument
) -> None:
    done: list[tuple[int, int]] = []
    parallel = convert.convert_pdf(
        first_pages, lambda n, total: done.append((n, total)), workers=2, pages_per_task=1
    )
    assert parallel.pages_md == sequential.pages_md and parallel.toc == sequential.toc
    assert [n for n, _ in done] == sorted(n for n, _ in done) and done[-1] == (PAGES, PAGES), done
    assert "\n## **3.1 Encoder and Decoder Stacks**" in sequential.pages_md[1], (
        "the subsections are second-level only beside the first page: else the test proves nothing"
    )


def test_a_page_parsed_in_another_process_renders_the_same(
    first_pages: Path, sequential: convert.ConvertedDocument
) -> None:
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as child:
        second = child.submit(pool_work.parse_pages_of, first_pages, (1,)).result(timeout=300)
    with pdf_pages.open_pdf(first_pages) as doc:
        first = pdf_pages.parse_pages(doc, (0,))
        mixed = pdf_pages.render(doc, first + second)
    assert tuple(mixed) == sequential.pages_md
