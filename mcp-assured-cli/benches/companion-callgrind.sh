#!/bin/bash
# Instructions the companion executes per `call_tool echo` under the companion_overhead bench,
# and those of the bench's bare relay per `echo` (the second process hop alone: an rmcp server
# on the same line transport and runtime, forwarding with McpClient): the first `mcp-assured
# serve` the bench starts, and its relay, run under callgrind (the start-ups after them run
# plainly), at two call counts; the difference of the two totals over the difference of the
# counts is one call, start-up and shutdown cancelled out.
#
#   cargo bench -p mcp-assured-cli --bench companion_overhead --no-run
#   bash mcp-assured-cli/benches/companion-callgrind.sh [COMPANION] [BENCH]
#
# COMPANION defaults to target/release/mcp-assured; BENCH to the newest companion_overhead
# binary in target/release/deps. Needs valgrind.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
companion=${1:-$root/target/release/mcp-assured}
bench=${2:-$(ls -t "$root"/target/release/deps/companion_overhead-* | grep -v '\.d$' | head -1)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# $1: the wrapper's name and its output's; $2: the program it runs.
wrapper() {
  cat > "$work/$1" <<SCRIPT
#!/bin/bash
if mkdir "$work/first-$1" 2>/dev/null; then
  exec valgrind --tool=callgrind --callgrind-out-file="$work/$1.\$CALLS" "$2" "\$@" 2>/dev/null
fi
exec "$2" "\$@"
SCRIPT
  chmod +x "$work/$1"
}
wrapper companion "$companion"
wrapper relay "$bench"
for calls in 300 900; do
  rm -rf "$work"/first-*
  CALLS=$calls MCP_ASSURED_BIN="$work/companion" RELAY_BIN="$work/relay" "$bench" "$calls" > /dev/null
done
per_call() {
  local first second
  first=$(awk '/^summary:/ {print $2}' "$work/$1.300")
  second=$(awk '/^summary:/ {print $2}' "$work/$1.900")
  echo $(( (second - first) / 600 ))
}
companion_calls=$(per_call companion)
relay_calls=$(per_call relay)
echo "$companion: $companion_calls instructions per call_tool echo"
echo "the bench's relay: $relay_calls instructions per echo"
echo "the companion's own: $(( companion_calls - relay_calls )) per call"
