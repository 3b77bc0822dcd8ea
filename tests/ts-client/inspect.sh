#!/usr/bin/env bash
# `make inspect`: list both servers' tools with the MCP Inspector in CLI mode, over stdio.
# Uses the pinned node packages of this directory (npm ci from package-lock.json when missing).
# inspector-cli 1.0.3 resolves its own package.json relative to the working directory, hence the cd.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x "$here/node_modules/.bin/mcp-inspector-cli" ]; then
  (cd "$here" && npm ci --no-audit --no-fund --loglevel=error)
fi
python="${PYTHON:-python}"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
for module in papers_mcp research_mcp; do
  echo "== ${module//_/-}: tools/list from the MCP Inspector CLI" >&2
  (cd "$here/node_modules" && ./.bin/mcp-inspector-cli --cli -e "PAPERS_MCP_HOME=$home" \
    "$python" -m "$module" --method tools/list)
done
