"""Tool text, verbatim from seed 003: it is written for the model and is part of the product.

``tests/test_papers_descriptions.py`` compares each constant with the seed file, so an edit here
that drifts from the contract fails the build. Text we add (paging, ``max_results``) lives
below the seed constants and is marked as ours.
"""

from __future__ import annotations

RESOLVE_PAPER_ID = """Resolves a paper title, author name, or search query to a arxiv ID and returns matching papers.

You MUST call this function before 'query-paper' to obtain a valid arxiv ID
UNLESS the user explicitly includes the arxiv ID in the query

Uses arXiv query syntax (Lucene-style field prefixes) to search. For example `abs:"attention mechanism" AND submittedDate:[202301010000 TO 202312312359]` or `all:2512.16906`. Prefer `all:` to maximize coverage.

IMPORTANT: Do not call this tool more than 3 times per question. If you cannot
find what you need after 3 calls, use the best result you have."""

RESOLVE_QUERY_PARAM = "Paper title, author name, or keywords to search for."

QUERY_PAPER = """Retrieves detailed content from a specific academic paper with arxivID

Call this tool if information returned from `resolve-paper-id` is not sufficient and detailed paper content is required. Prefer this tool than fetching webpages or downloading PDFs as it's more accurate and is in markdown format.

This tool can extract paper content in different level:
- "abstract": Title, author list and abstract for quick preview
- "body": Abstract as well as main body of the paper. Default option for in-depth understanding of the paper.
- "appendix": Appendix section
- "all": abstract, body, references and appendix. May return a lengthy document."""

ARXIV_ID_PARAM = "arxivID ID (e.g., 'arxiv:1706.03762') retrieved from 'resolve-paper-id'."

LEVEL_PARAM = 'Level of content: "abstract", "body"(default), "appendix" and "all"'

RESULTS_HEADER = """Available Papers:

Each result includes:
- Title: Full paper title
- Arxiv ID: arxiv identifier (format: arxiv:XXXX.XXXXX)
- Authors: List of authors
- Year: Publication year
- Category: Primary subject category (e.g., cs.CV, cs.CL)
- Comment: Author comments (page count, conference acceptance, code links)
- Journal/DOI: Publication venue and DOI if available
- Abstract: Brief summary of the paper"""

RESULT_SEPARATOR = "----------"

NO_RESULTS = (
    "No related papers found, please use a less specific query term or use `all:` query prefix "
    "to maximize coverage."
)

NO_FULL_TEXT = "Full text is not available, please use other tools to access the full text."

# --- Ours, not the seed's: optional parameters the issue allows, and the server instructions. ---

MAX_RESULTS_PARAM = "How many papers to list (1-50, default 10)."

PAGE_PARAM = (
    "Page of a long answer (default 1). A long paper is split at section or paragraph "
    "boundaries; the end of each page says whether more pages follow."
)

QUERY_PARAM = (
    "Question or keywords to look up in the paper (1-500 characters). Returns only the passages that "
    "best answer it, each under its section with the call that reads the whole section, instead of a "
    'whole level: use it when you need one fact or topic. Searches every level unless "level" is given. '
    'Not together with "section".'
)

SECTION_PARAM = (
    'One section to read, with its subsections: its number ("3.2", "A") or words of its title '
    '("Related Work"). Use it instead of "body" when you know where the answer is; the "abstract" level '
    "of a paper already read ends with its list of sections. Long sections come in pages. "
    'Not together with "query".'
)

PAPER_GRAPH = """Lists the papers a paper cites ("references") or the papers that cite it ("citations"), 20 per page.

Each item comes in resolve-paper-id's format (Title, Arxiv ID, DOI, Authors, Year, Venue, Citations), so you can go straight on to 'query-paper'. References are the paper's own bibliography, resolved through Semantic Scholar or OpenAlex where they know them; citations come from those indexes."""

PAPER_PARAM = "arXiv ID (e.g., 'arxiv:1706.03762') or DOI (e.g., 'doi:10.1145/3174781.3174785') of the paper."

DIRECTION_PARAM = '"references" (default): the papers it cites; "citations": the papers citing it.'

GRAPH_PAGE_PARAM = "Page of the list (default 1); the end of each page says whether more follow."

INSTRUCTIONS = (
    "papers-mcp finds arXiv papers and reads them as markdown. First call 'resolve-paper-id' "
    "with a title, author or arXiv query to get an arxiv ID (skip this when the user already gave "
    "an arXiv ID), then call 'query-paper' with that ID and the level you need: 'abstract' for a "
    "quick look, 'body' (default) for the paper itself, 'appendix', or 'all'. To answer one "
    "question, give 'query' and read only the passages that answer it; to read one part, give "
    "'section' (a number or title words). Long answers come in pages; ask for the next page only "
    "if you need it."
)
