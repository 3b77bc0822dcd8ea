#!/usr/bin/env sh
# Mount both servers in Claude Code. Pick ONE of the two blocks; run it from your project directory.
# --scope project writes .mcp.json there (shared through git); use --scope user for all your projects.

# 1. After `uv tool install ./packages/papers-mcp` and `uv tool install ./packages/research-mcp`:
claude mcp add --scope project --transport stdio -e PAPERS_MCP_HOME=~/.papers-mcp papers-mcp -- papers-mcp
claude mcp add --scope project --transport stdio research-mcp -- research-mcp

# 2. Or straight from a clone (after `make setup` in it), without installing anything:
# CLONE=/ABSOLUTE/PATH/TO/CLONE
# claude mcp add --scope project --transport stdio -e PAPERS_MCP_HOME=~/.papers-mcp papers-mcp -- uv run --directory "$CLONE" --frozen papers-mcp
# claude mcp add --scope project --transport stdio research-mcp -- uv run --directory "$CLONE" --frozen research-mcp

# 3. Or over streamable HTTP, with each server started separately:
#   papers-mcp --transport http --port 8001 &   research-mcp --transport http --port 8002 &
# claude mcp add --scope project --transport http papers-mcp http://127.0.0.1:8001/mcp
# claude mcp add --scope project --transport http research-mcp http://127.0.0.1:8002/mcp
