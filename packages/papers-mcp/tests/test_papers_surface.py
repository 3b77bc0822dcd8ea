"""papers_mcp's public surface is small and pinned: what the demo and other packages may import."""

from __future__ import annotations

import papers_mcp


def test_papers_mcp_exports_only_the_documented_names() -> None:
    assert sorted(papers_mcp.__all__) == ["Settings", "build_server"]
