#!/usr/bin/env bash
# A whole fleet on one machine: Redis, two replicas of each server, HAProxy in front, bearer tokens.
# Run from anywhere after `make setup`; Ctrl-C stops everything. Needs redis-server and haproxy
# (Debian: apt-get install -y redis-server haproxy). State (tokens, libraries) goes to $FLEET_STATE.
set -euo pipefail
cd "$(dirname "$0")/../.."
state=${FLEET_STATE:-${TMPDIR:-/tmp}/mcp-fleet}
redis_port=${FLEET_REDIS_PORT:-6390}
mkdir -p "$state"
tokens=$state/tokens
if [ ! -s "$tokens" ]; then
  (umask 077 && python3 -c 'import secrets; print(secrets.token_urlsafe(32))' > "$tokens")
  echo "fleet: made a bearer token in $tokens"
fi
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT INT TERM

redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --loglevel warning &
pids+=($!)
sleep 0.5
redis="redis://127.0.0.1:$redis_port/0"

common=(--transport http --stateless --redis-url "$redis" --auth-tokens-file "$tokens")
for i in 1 2; do
  PAPERS_MCP_HOME="$state/papers-home-$i" uv run --frozen papers-mcp "${common[@]}" --port "810$i" &
  pids+=($!)
  uv run --frozen research-mcp "${common[@]}" --port "820$i" &
  pids+=($!)
done
"$haproxy" -db -f examples/fleet/haproxy.cfg &
pids+=($!)

for port in 8101 8102 8201 8202; do
  until curl -fs "http://127.0.0.1:$port/healthz/ready" >/dev/null 2>&1; do sleep 0.5; done
done
cat <<INFO
fleet: ready.
  papers-mcp    http://127.0.0.1:8100/mcp   (replicas :8101 :8102)
  research-mcp  http://127.0.0.1:8200/mcp   (replicas :8201 :8202)
  every request needs: Authorization: Bearer \$(cat $tokens)
  try: curl -i http://127.0.0.1:8200/mcp            # 401, WWW-Authenticate: Bearer
       curl http://127.0.0.1:8200/healthz           # open: liveness
Ctrl-C stops the fleet.
INFO
wait
