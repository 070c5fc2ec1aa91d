#!/usr/bin/env bash
# Checks a running MCP endpoint with the official TypeScript SDK and the MCP
# Inspector CLI, both pinned by package-lock.json.
#
#   .ci/mcp/run.sh URL API_KEY        (or MCP_URL and MCP_API_KEY in the environment)
#
# URL is the endpoint (http://127.0.0.1:8080/api/mcp); API_KEY a key with every
# read scope, such as the demo key the server prints. Exits non-zero on the
# first failure.
set -euo pipefail
cd "$(dirname "$0")"

url="${1:-${MCP_URL:-}}"
key="${2:-${MCP_API_KEY:-}}"
if [ -z "$url" ] || [ -z "$key" ]; then
  echo "usage: $0 URL API_KEY (or MCP_URL and MCP_API_KEY)" >&2
  exit 2
fi

if [ ! -d node_modules/@modelcontextprotocol/sdk ] || [ ! -d node_modules/@modelcontextprotocol/inspector ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

echo "== TypeScript SDK"
node sdk-check.mjs "$url" "$key"

echo "== MCP Inspector CLI"
inspector() {
  node node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js \
    --cli "$url" --transport http --header "X-API-Key: $1" "${@:2}"
}
# expect KEY WHAT NODE-CHECK ARGS...: the call succeeds and its JSON output
# passes the check (a JavaScript expression over `r`).
expect() {
  local k="$1" what="$2" check="$3"
  shift 3
  local out
  if ! out=$(inspector "$k" "$@" 2>/tmp/venue-mcp-inspector.err); then
    echo "inspector: $what failed:" >&2
    cat /tmp/venue-mcp-inspector.err >&2 || true
    printf '%s\n' "$out" >&2
    exit 1
  fi
  if ! printf '%s' "$out" | node -e "
    let s = ''; process.stdin.on('data', d => s += d).on('end', () => {
      const r = JSON.parse(s);
      if (!($check)) { console.error('unexpected answer: ' + s.slice(0, 500)); process.exit(1); }
    });"; then
    echo "inspector: $what gave an unexpected answer" >&2
    exit 1
  fi
  echo "inspector: $what ok"
}

today=$(date -u +%F)
expect "$key" "tools/list" 'r.tools.length === 10 && r.tools.every(t => t.inputSchema.type === "object")' --method tools/list
expect "$key" "tools/call search_schedule" 'r.isError === false && r.structuredContent.count <= 100' \
  --method tools/call --tool-name search_schedule --tool-arg "date=$today"
expect "$key" "tools/call get_revenue_summary" 'Array.isArray(r.structuredContent.totals)' \
  --method tools/call --tool-name get_revenue_summary --tool-arg period=month
expect "$key" "resources/list" 'r.resources.length === 2' --method resources/list
expect "$key" "resources/templates/list" 'r.resourceTemplates.length === 6' --method resources/templates/list
expect "$key" "resources/read venue://passes" 'r.contents[0].mimeType === "application/json"' \
  --method resources/read --uri venue://passes
expect "$key" "resources/read venue://schedule/$today" 'JSON.parse(r.contents[0].text).count >= 0' \
  --method resources/read --uri "venue://schedule/$today"

# A bad key must fail: the Inspector exits non-zero on the -32001 error.
if inspector "vk_bad" --method tools/list >/dev/null 2>&1; then
  echo "inspector: a bad key was accepted" >&2
  exit 1
fi
echo "inspector: bad key refused ok"
echo "mcp client checks passed"
