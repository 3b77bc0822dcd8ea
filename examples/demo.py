"""``make demo``: mount papers-mcp and research-mcp in one MCP client session and run a research workflow.

The workflow is what an agent does with the two servers: resolve a paper, read its abstract
and body, extract facts and entities from the body, rate the sources, validate the
citations, and detect conflicts between the paper's numbers and a second source's. It
prints a progress display while it works and a report at the end.

arXiv: live when ``export.arxiv.org`` answers within a few seconds; otherwise (or with
``--offline``) the project's replay arXiv on 127.0.0.1 serves the real fixture papers from
``$PAPERS_MCP_FIXTURES`` or ``../shared/fixtures/arxiv``. The report says which one was used.

    uv run python examples/demo.py [--offline] [--installed] [--query "Attention Is All You Need"]

``--installed`` starts the ``papers-mcp``/``research-mcp`` commands on PATH (``uv tool install``)
instead of this clone's ``python -m papers_mcp``/``python -m research_mcp``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from collections.abc import Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import httpx
from mcp import StdioServerParameters
from mcp.client.session_group import ClientSessionGroup
from mcp.client.stdio import get_default_environment
from mcp.types import CallToolResult, TextContent

try:
    from rich.console import Console
    from rich.markdown import Markdown
    from rich.panel import Panel
    from rich.progress import BarColumn, Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
    from rich.table import Table
except ImportError:  # pragma: no cover - the workspace's dev group installs rich
    sys.exit("examples/demo.py needs 'rich': run it with `make demo` or `uv run python examples/demo.py`")

REPO = Path(__file__).resolve().parents[1]
LIVE_API = "https://export.arxiv.org/api/query"
LIVE_PROBE = f"{LIVE_API}?id_list=1706.03762&max_results=1"
PROBE_TIMEOUT_SECONDS = 3.0
DEFAULT_QUERY = 'ti:"Attention Is All You Need"'
TOOL_TIMEOUT_SECONDS = 600.0

# The second source: a (made-up, clearly labelled) reproduction report whose numbers differ from the paper's.
SECOND_SOURCE_URL = "https://ml-reproductions.example.org/blog/transformer-rerun"
SECOND_SOURCE_TITLE = "Re-running the Transformer (a reproduction blog post, written for this demo)"
SECOND_SOURCE_TEXT = (
    "A reproduction report: the big Transformer achieves 26.9 BLEU on the WMT 2014 English-to-German "
    "translation task after training for 3.5 days on eight GPUs."
)

console = Console(stderr=False)


# --------------------------------------------------------------------------- arXiv source


@dataclass
class ArxivSource:
    label: str
    env: dict[str, str] = field(default_factory=dict)


def live_arxiv_answers() -> tuple[bool, str]:
    """One small metadata request with a short timeout: is live arXiv reachable from here?"""
    try:
        response = httpx.get(
            LIVE_PROBE, timeout=PROBE_TIMEOUT_SECONDS, headers={"User-Agent": "papers-mcp-demo/0.1"}
        )
    except httpx.HTTPError as exc:
        return False, str(exc) or type(exc).__name__
    ok = response.status_code == 200 and "<feed" in response.text
    return ok, "" if ok else f"HTTP {response.status_code}"


def fixtures_dir(explicit: str | None) -> Path | None:
    candidate = Path(
        explicit or os.environ.get("PAPERS_MCP_FIXTURES") or REPO.parent / "shared" / "fixtures" / "arxiv"
    )
    return candidate if (candidate / "MANIFEST.md").is_file() else None


@contextmanager
def arxiv_source(offline: bool, fixtures: str | None) -> Iterator[ArxivSource]:
    """Live arXiv if it answers (and --offline was not given), else the replay arXiv on 127.0.0.1."""
    if not offline:
        ok, why = live_arxiv_answers()
        if ok:
            yield ArxivSource(f"live arXiv ({LIVE_API})")
            return
        console.print(
            f"[yellow]arXiv is not reachable ({why}); using the replay arXiv on 127.0.0.1 instead.[/]",
            soft_wrap=True,
        )
    directory = fixtures_dir(fixtures)
    if directory is None:
        sys.exit(
            "No arXiv fixtures found for the offline demo: set PAPERS_MCP_FIXTURES to the fixtures/arxiv "
            "directory, or put shared/ beside the clone."
        )
    sys.path.insert(0, str(REPO / "tests"))
    from support.arxiv_replay import serve_replay  # the project's replay arXiv (tests/support)

    with serve_replay(directory) as replay:
        env = {
            "PAPERS_MCP_ARXIV_API_URL": replay.api_url,
            "PAPERS_MCP_PDF_URL": replay.pdf_url,
            "PAPERS_MCP_HTML_URL": replay.html_url,
            "PAPERS_MCP_AR5IV_URL": replay.ar5iv_url,
            "PAPERS_MCP_MIN_INTERVAL_SECONDS": "0",
        }
        yield ArxivSource(f"replay arXiv on {replay.base_url} serving {directory}", env)


# --------------------------------------------------------------------------- servers


def server_params(installed: bool, source: ArxivSource, home: Path) -> list[StdioServerParameters]:
    env = get_default_environment()
    env.update({k: v for k, v in os.environ.items() if k.startswith(("PAPERS_MCP_", "RESEARCH_MCP_"))})
    env.update(source.env)
    env["PAPERS_MCP_HOME"] = str(home)
    params = []
    for command, module in (("papers-mcp", "papers_mcp"), ("research-mcp", "research_mcp")):
        if installed:
            path = shutil.which(command)
            if path is None:
                sys.exit(f"--installed: {command} is not on PATH (uv tool install ./packages/{command})")
            params.append(StdioServerParameters(command=path, env=env))
        else:
            params.append(StdioServerParameters(command=sys.executable, args=["-m", module], env=env))
    return params


class ToolError(RuntimeError):
    """A tool answered with the seed's ``Error: <CODE>: ...`` result."""


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


class Workflow:
    """The session (both servers mounted in one ``ClientSessionGroup``) and the progress display."""

    def __init__(self, group: ClientSessionGroup, progress: Progress) -> None:
        self.group = group
        self.progress = progress

    async def call(self, step: str, tool: str, arguments: dict[str, Any]) -> CallToolResult:
        task: TaskID = self.progress.add_task(f"{step} [dim]({tool})[/]", total=None)

        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            description = f"{step} [dim]{message or ''}[/]"
            self.progress.update(task, completed=progress, total=total, description=description)

        result: CallToolResult = await self.group.call_tool(
            tool, arguments, read_timeout_seconds=TOOL_TIMEOUT_SECONDS, progress_callback=on_progress
        )
        self.progress.update(task, completed=1, total=1, description=f"{step} [dim]({tool})[/]")
        if result.is_error:
            raise ToolError(text_of(result))
        return result

    async def structured(self, step: str, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.call(step, tool, arguments)
        if not isinstance(result.structured_content, dict):
            raise ToolError(f"{tool} returned no structured content")
        return result.structured_content


# --------------------------------------------------------------------------- the research workflow

ARXIV_ID = re.compile(r"^- Arxiv ID: arxiv:(\S+)", re.MULTILINE)
FIELD = re.compile(r"^- (Title|Authors|Published|Year|Category): (.+)$", re.MULTILINE)
NEXT_PAGE = re.compile(r"page=(\d+)\.\]\s*$")
MAX_BODY_PAGES = 6


@dataclass
class Findings:
    arxiv_id: str = ""
    listing: str = ""
    meta: dict[str, str] = field(default_factory=dict)
    abstract: str = ""
    body: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    entities: dict[str, Any] = field(default_factory=dict)
    second_facts: dict[str, Any] = field(default_factory=dict)
    ratings: dict[str, Any] = field(default_factory=dict)
    citations: dict[str, Any] = field(default_factory=dict)
    conflicts: dict[str, Any] = field(default_factory=dict)
    compared: list[dict[str, Any]] = field(default_factory=list)


def shared_numbers(paper: list[dict[str, Any]], other: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The paper's facts about the same (entity, attribute) as the second source's, and its results on the
    same metric: the numbers both may report (conflict-detect then matches method, metric and dataset)."""
    keys = {(f["entity"].lower(), f["attribute"].lower()) for f in other}
    metrics = {str(f["metric"]).lower() for f in other if f.get("metric")}
    return [
        f
        for f in paper
        if (f["entity"].lower(), f["attribute"].lower()) in keys or str(f.get("metric")).lower() in metrics
    ]


async def run_workflow(flow: Workflow, query: str) -> Findings:
    found = Findings()
    listing = text_of(
        await flow.call("Resolve the paper", "resolve-paper-id", {"query": query, "max_results": 3})
    )
    match = ARXIV_ID.search(listing)
    if match is None:
        raise ToolError(f"resolve-paper-id found nothing for {query!r}:\n{listing}")
    found.arxiv_id, found.listing = match.group(1), listing
    paper_ref = f"arxiv:{found.arxiv_id}"

    abstract = text_of(
        await flow.call("Read the abstract", "query-paper", {"arxivID": paper_ref, "level": "abstract"})
    )
    found.abstract = abstract
    found.meta = dict(FIELD.findall(abstract))
    heading = re.search(r"^# (.+)$", abstract, re.MULTILINE)
    if heading and "Title" not in found.meta:
        found.meta["Title"] = heading.group(1).strip()

    pages: list[str] = []
    page = 1
    while page and len(pages) < MAX_BODY_PAGES:
        step = "Read the body (download + PDF to markdown)" if page == 1 else f"Read the body, page {page}"
        text = text_of(
            await flow.call(step, "query-paper", {"arxivID": paper_ref, "level": "body", "page": page})
        )
        pages.append(text)
        next_page = NEXT_PAGE.search(text)
        page = int(next_page.group(1)) if next_page else 0
    found.body = "\n\n".join(pages)

    abs_url = f"https://arxiv.org/abs/{found.arxiv_id}"
    metadata = {
        "title": found.meta.get("Title", ""),
        "author": found.meta.get("Authors", ""),
        "date": found.meta.get("Published", found.meta.get("Year", "")),
    }
    found.facts = await flow.structured(
        "Extract facts from the body",
        "fact-extract",
        {"text": found.body[:100_000], "source_url": abs_url, "source_metadata": metadata},
    )
    found.entities = await flow.structured(
        "Extract entities and relations from the body",
        "entity-extract",
        {"text": found.body[:100_000], "entity_types": None, "extract_relations": True},
    )
    found.second_facts = await flow.structured(
        "Extract facts from the second source",
        "fact-extract",
        {
            "text": SECOND_SOURCE_TEXT,
            "source_url": SECOND_SOURCE_URL,
            "source_metadata": {"title": SECOND_SOURCE_TITLE},
        },
    )
    found.ratings = await flow.structured(
        "Rate the sources",
        "batch-source-rate",
        {"items": [{"source_url": abs_url, "source_type": "academic"}, {"source_url": SECOND_SOURCE_URL}]},
    )
    paper_fact = next((f for f in found.facts.get("facts", []) if f.get("value_type") != "text"), None)
    second_fact = next(iter(found.second_facts.get("facts", [])), None)
    citations = [
        {
            "claim": (paper_fact or {}).get("sentence")
            or found.abstract.split("## Abstract", 1)[-1].strip()[:300],
            "author": metadata["author"],
            "date": metadata["date"],
            "title": metadata["title"],
            "url": abs_url,
        },
        {"claim": (second_fact or {}).get("sentence") or SECOND_SOURCE_TEXT, "url": SECOND_SOURCE_URL},
    ]
    found.citations = await flow.structured(
        "Validate the citations", "citation-validate", {"citations": citations, "verify_urls": False}
    )
    found.compared = shared_numbers(found.facts.get("facts", []), found.second_facts.get("facts", []))
    found.conflicts = await flow.structured(
        "Detect conflicts: paper vs second source",
        "conflict-detect",
        {
            "facts": found.compared + found.second_facts.get("facts", []),
            "tolerance": {"numerical_threshold": 0.05},
        },
    )
    return found


# --------------------------------------------------------------------------- the report


def source_name(source: Any) -> str:
    if isinstance(source, dict):
        return str(source.get("title") or source.get("url") or "")
    return str(source or "")


def report(found: Findings, source: ArxivSource, tools: dict[str, Any]) -> None:
    console.rule("[bold]Research report")
    console.print(f"arXiv source used: [bold]{source.label}[/]", soft_wrap=True)
    console.print(f"Tools mounted in one session: {', '.join(sorted(tools))}\n")

    paper = Table(title="Paper", show_header=False, title_justify="left")
    paper.add_column(style="bold")
    paper.add_column()
    paper.add_row("arXiv id", found.arxiv_id)
    for key in ("Title", "Authors", "Published", "Category"):
        if key in found.meta:
            paper.add_row(key, found.meta[key])
    paper.add_row("Body", f"{len(found.body):,} characters of markdown")
    console.print(paper)
    abstract = found.abstract.split("## Abstract", 1)[-1].split("\n## ", 1)[0].strip()  # BibTeX follows
    console.print(Panel(Markdown(abstract[:1200]), title="Abstract", title_align="left"))

    facts = found.facts.get("facts", [])
    table = Table(
        title=f"Facts from the body ({len(facts)}; quality {found.facts.get('extraction_quality')}/10)"
    )
    for col in ("entity", "attribute", "value", "type", "confidence"):
        table.add_column(col)
    ranked = sorted(facts, key=lambda f: {"High": 0, "Medium": 1, "Low": 2}.get(f.get("confidence", ""), 3))
    for fact in ranked[:15]:
        table.add_row(
            fact.get("entity", ""),
            fact.get("attribute", ""),
            str(fact.get("value", "")),
            fact.get("value_type", ""),
            fact.get("confidence", ""),
        )
    console.print(table)

    results = [f for f in facts if f.get("metric")]
    table = Table(title=f"Results in the paper ({len(results)}: tables and prose)")
    for col in ("method", "metric", "dataset", "value", "found by", "confidence"):
        table.add_column(col)
    for fact in sorted(results, key=lambda f: (f.get("found_by") != "table", f.get("dataset") or ""))[:20]:
        table.add_row(
            fact.get("entity", ""),
            fact.get("metric", ""),
            fact.get("dataset") or "",
            str(fact.get("value", "")),
            fact.get("found_by", ""),
            fact.get("confidence", ""),
        )
    console.print(table)

    entities = found.entities.get("entities", [])
    table = Table(title=f"Entities ({len(entities)}) and relations ({len(found.entities.get('edges', []))})")
    table.add_column("entity")
    table.add_column("type")
    named_first = sorted(entities, key=lambda e: (e.get("name", "").islower(), -e.get("mentions", 0)))
    shown = 0
    for etype, most in (("method", 8), ("dataset", 6), ("metric", 4), ("task", 3)):
        for entity in [e for e in named_first if e.get("type") == etype][:most]:
            table.add_row(entity.get("name", ""), etype)
            shown += 1
    if not shown:  # not a paper: the entities as they come
        for entity in entities[:12]:
            table.add_row(entity.get("name", ""), entity.get("type", ""))
    science_edges = [
        e for e in found.entities.get("edges", []) if e.get("relation") in {"outperforms", "evaluated_on"}
    ]
    for edge in (science_edges or found.entities.get("edges", []))[:6]:
        table.add_row(f"{edge.get('source')} -[{edge.get('relation')}]-> {edge.get('target')}", "relation")
    console.print(table)

    table = Table(title="Source ratings (A best, E worst)")
    for col in ("source", "rating", "why"):
        table.add_column(col)
    urls = [f"https://arxiv.org/abs/{found.arxiv_id}", SECOND_SOURCE_URL]
    for url, item in zip(urls, found.ratings.get("results", []), strict=False):
        data = item.get("data") or {}
        table.add_row(
            url, data.get("quality_rating", "?"), data.get("justification") or item.get("error") or ""
        )
    console.print(table)

    cit = found.citations
    table = Table(
        title=f"Citations: {cit.get('complete_citations')} of {cit.get('total_citations')} complete"
    )
    for col in ("#", "field", "issue", "severity"):
        table.add_column(col)
    for issue in cit.get("issues", [])[:10]:
        table.add_row(
            str(issue.get("citation_index")),
            str(issue.get("field")),
            str(issue.get("issue")),
            str(issue.get("severity")),
        )
    console.print(table)
    console.print(f"Quality distribution: {cit.get('quality_distribution')}")

    conflicts = found.conflicts.get("conflicts", [])
    compared = ", ".join(f"{f['entity']}/{f['attribute']}={f['value']}" for f in found.compared) or "none"
    table = Table(title=f"Conflicts: paper vs {SECOND_SOURCE_URL} ({len(conflicts)})")
    for col in ("entity", "attribute", "values", "sources", "difference", "severity"):
        table.add_column(col)
    for c in conflicts:
        table.add_row(
            c.get("entity", ""),
            c.get("attribute", ""),
            " vs ".join(map(str, c.get("values", []))),
            "\n".join(source_name(s) for s in c.get("sources", [])),
            f"{c.get('difference_percentage')}%",
            c.get("severity", ""),
        )
    console.print(table)
    console.print(f"Paper numbers compared with the second source: {compared}")
    console.print(f"Severity summary: {found.conflicts.get('severity_summary')}")


# --------------------------------------------------------------------------- main


async def demo(args: argparse.Namespace) -> None:
    with ExitStack() as stack:
        source = stack.enter_context(arxiv_source(args.offline, args.fixtures))
        console.print(f"arXiv source: [bold]{source.label}[/]", soft_wrap=True)
        kind = "live" if not source.env else "replay"
        home = Path(args.home) if args.home else REPO / ".papers-mcp-home" / kind
        async with AsyncExitStack() as astack:
            group = await astack.enter_async_context(ClientSessionGroup())
            for params in server_params(args.installed, source, home):
                console.print(
                    f"mounting over stdio: {' '.join([params.command, *params.args])}", soft_wrap=True
                )
                await group.connect_to_server(params)
            progress = stack.enter_context(
                Progress(
                    SpinnerColumn(),
                    TextColumn("{task.description}"),
                    BarColumn(),
                    TimeElapsedColumn(),
                    console=console,
                    transient=False,
                )
            )
            found = await run_workflow(Workflow(group, progress), args.query)
            progress.stop()
            report(found, source, group.tools)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--offline", action="store_true", help="skip the live-arXiv probe; use the replay arXiv"
    )
    parser.add_argument("--installed", action="store_true", help="start the uv-installed commands from PATH")
    parser.add_argument(
        "--fixtures", help="the fixtures/arxiv directory (default: $PAPERS_MCP_FIXTURES or ../shared)"
    )
    parser.add_argument(
        "--home", help="PAPERS_MCP_HOME for this run (default: .papers-mcp-home/<live|replay>)"
    )
    parser.add_argument("--query", default=DEFAULT_QUERY, help=f"what to resolve (default: {DEFAULT_QUERY})")
    args = parser.parse_args(argv)
    try:
        anyio.run(demo, args)
    except ToolError as exc:
        console.print(f"[red]A tool failed:[/] {exc}")
        sys.exit(1)


if __name__ == "__main__":
    main()
