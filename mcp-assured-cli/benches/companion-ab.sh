#!/bin/bash
# Two builds of the companion_overhead bench, each with its own companion, alternated in the
# same conditions: the bench's client is in the bench binary, so a change to the client's side
# needs both binaries of each build (MCP_ASSURED_BIN alone swaps only the companion).
#
#   cp target/release/deps/companion_overhead-<hash> target/release/mcp-assured /tmp/old/   # on the old build
#   cargo bench -p mcp-assured-cli --bench companion_overhead --no-run                       # on the new
#   bash mcp-assured-cli/benches/companion-ab.sh /tmp/old/companion_overhead-<hash> /tmp/old/mcp-assured [ROUNDS] [CALLS]
#
# One line per run: through / direct means, through / direct p50s, added per call (means),
# start-up means, peak RSS, then (benches that have the relay leg) the added latency split
# into the second process hop and the companion's own.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
old_bench=$1
old_companion=$2
rounds=${3:-8}
calls=${4:-4000}
new_bench=$(ls -t "$root"/target/release/deps/companion_overhead-* | grep -v '\.d$' | head -1)
new_companion=$root/target/release/mcp-assured
run() {
  printf '%s ' "$1"
  out=$(MCP_ASSURED_BIN=$3 "$2" "$calls" 2>&1)
  grep -E '^\| (`call_tool echo`|the same, p50|added latency|start-up|peak RSS)' <<<"$out" \
    | awk -F'|' '{printf "%s %s | ", $3, $4}'
  grep -E '^\| of the added latency' <<<"$out" | awk -F'|' '{printf "split %s %s", $3, $4}' || true
  echo
}
uptime
for _ in $(seq "$rounds"); do
  run new "$new_bench" "$new_companion"
  run old "$old_bench" "$old_companion"
done
uptime
