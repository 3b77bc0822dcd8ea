"""The version line of an answer, from what the library knows of a paper's versions.

Expected values: arXiv's own history of 1706.03762 (v2 submitted 2017-06-19, v5 2017-12-06, the latest).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from papers_mcp.metadata import PaperMeta
from papers_mcp.service import PapersService
from papers_mcp.settings import Settings

pytestmark = pytest.mark.anyio


def version(number: int, date: str) -> PaperMeta:
    return PaperMeta(
        id=f"1706.03762v{number}",
        title="Attention Is All You Need",
        authors=("Ashish Vaswani",),
        abstract="",
        published="2017-06-12T17:57:34+00:00",
        updated=f"{date}T00:00:00+00:00",
        primary_category="cs.CL",
    )


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_older_version_names_the_latest(tmp_path: Path) -> None:
    service = PapersService(
        Settings(home=tmp_path, arxiv_api_url="http://127.0.0.1:9/api/query", max_retries=0)
    )
    v2, v5 = version(2, "2017-06-19"), version(5, "2017-12-06")
    service.library.remember([v2, v5])
    assert await service.versions.line(v2) == "- Version: v2 of 5; latest v5, 2017-12-06"


async def test_the_latest_says_so_once_arxiv_confirmed_it(tmp_path: Path) -> None:
    service = PapersService(
        Settings(home=tmp_path, arxiv_api_url="http://127.0.0.1:9/api/query", max_retries=0)
    )
    v5 = version(5, "2017-12-06")
    service.library.remember([v5])
    service.versions.saw_latest([v5])  # a bare-id lookup or a search just described it
    assert await service.versions.line(v5) == "- Version: v5 of 5 (the latest, 2017-12-06)"


async def test_an_unreachable_arxiv_is_said_not_hidden(tmp_path: Path) -> None:
    service = PapersService(
        Settings(
            home=tmp_path, arxiv_api_url="http://127.0.0.1:9/api/query", max_retries=0, timeout_seconds=2
        )
    )
    v5 = version(5, "2017-12-06")
    service.library.remember([v5])
    line = await service.versions.line(v5)
    assert line == "- Version: v5, 2017-12-06 (newer versions not checked: arXiv could not be asked)"
