"""research-mcp's tool text: every description begins with seed 004's own sentence for its tool, and the
server publishes the text of ``descriptions.py`` (one place), on the wire too."""

from __future__ import annotations

import re

import pytest
from mcp import Client
from research_mcp import descriptions
from research_mcp.tools import SPECS
from support.required import missing
from support.servers import REPO_ROOT, server_client

pytestmark = pytest.mark.anyio


def seed_sentences() -> dict[str, str]:
    """Each tool's one-line description in seed 004: the line under its heading, or its batch table row."""
    seeds = sorted((REPO_ROOT.parent / "shared" / "seeds").glob("004_*.txt"))
    if not seeds:
        missing("seed 004 not found beside the repository (../shared/seeds)")
    text = seeds[0].read_text(encoding="utf-8")
    found = {m[1]: m[2].strip() for m in re.finditer(r"^### ([a-z-]+)\n\n(.+)$", text, re.MULTILINE)}
    found |= {
        m[1]: m[2].strip() for m in re.finditer(r"^\| `(batch-[a-z-]+)` \| (.+?) \|$", text, re.MULTILINE)
    }
    return found


def published() -> dict[str, str]:
    texts = {spec.name: spec.description for spec in SPECS}
    texts |= {spec.batch_name: spec.batch_description for spec in SPECS}
    return texts | {"cache-stats": descriptions.CACHE_STATS, "cache-clear": descriptions.CACHE_CLEAR}


def test_the_seed_names_the_twelve_tools() -> None:
    assert sorted(seed_sentences()) == sorted(published()), "one description per tool of seed 004"


@pytest.mark.parametrize("tool", sorted(published()))
def test_each_description_begins_with_the_seeds_sentence(tool: str) -> None:
    assert published()[tool].startswith(seed_sentences()[tool].rstrip(".")), tool


async def test_the_server_publishes_these_texts(tmp_path) -> None:
    client: Client
    async with server_client("research_mcp", env={}) as client:
        listed = {t.name: t.description for t in (await client.list_tools()).tools}
    assert listed == published()
