#!/bin/bash
# Instructions the companion executes per `call_tool echo` under the companion_overhead bench:
# the first `mcp-assured serve` the bench starts runs under callgrind (the start-up runs after
# it plainly), at two call counts; the difference of the two totals over the difference of the
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
cat > "$work/companion" <<SCRIPT
#!/bin/bash
if mkdir "$work/first" 2>/dev/null; then
  exec valgrind --tool=callgrind --callgrind-out-file="$work/out.\$CALLS" "$companion" "\$@" 2>/dev/null
fi
exec "$companion" "\$@"
SCRIPT
chmod +x "$work/companion"
for calls in 300 900; do
  rm -rf "$work/first"
  CALLS=$calls MCP_ASSURED_BIN="$work/companion" "$bench" "$calls" > /dev/null
done
first=$(awk '/^summary:/ {print $2}' "$work/out.300")
second=$(awk '/^summary:/ {print $2}' "$work/out.900")
echo "$companion: $(( (second - first) / 600 )) instructions per call_tool echo"
