#!/usr/bin/env bash
# A user's first build (BENCHMARKS.md): writes two fresh crates under $OUT and builds each cold,
# `cargo build --tests` with its own empty target directory, one after the other (the order
# alternating between rounds), printing wall time and the number of crates compiled.
#
#   user:  mcp-assured as a dev-dependency (a path to this checkout, or $MCP_ASSURED) and one
#          `#[mcp_test]` against a Python server over stdio
#   rmcp:  rmcp's client with the same transports as mcp-assured's default build (child
#          process and streamable HTTP client, `RMCP_FEATURES` to change), the same test by
#          hand
#
# Usage: tests/first-build/measure.sh            # one round, default features
#        ROUNDS=2 FEATURES='"tls"' tests/first-build/measure.sh
#        MCP_ASSURED=/tmp/old/mcp-assured tests/first-build/measure.sh   # another checkout
#        TIMINGS=1 tests/first-build/measure.sh  # also cargo's --timings HTML, per crate
# Dependencies are fetched (and the lock files written) before the clock starts: only the
# build is timed. Both builds run with CARGO_INCREMENTAL=0 unless it is set: cargo builds a
# path dependency incrementally, as it never builds one from crates.io, where users get
# mcp-assured (`CARGO_INCREMENTAL=1 tests/first-build/measure.sh` measures the path as it is).
set -euo pipefail

repo=$(cd "$(dirname "$0")/../.." && pwd)
out=${OUT:-/tmp/firstbuild}
rounds=${ROUNDS:-1}
mcp_assured=${MCP_ASSURED:-$repo/mcp-assured}
features=${FEATURES:-}
rmcp_features=${RMCP_FEATURES:-'"client", "transport-child-process", "transport-streamable-http-client-reqwest"'}
rmcp_version=$(sed -n 's/^rmcp = { version = "\([^"]*\)".*/\1/p' "$repo/Cargo.toml")
export CARGO_INCREMENTAL=${CARGO_INCREMENTAL:-0}
timings=()
[[ -n ${TIMINGS:-} ]] && timings=(--timings)

mkdir -p "$out"

write_user() {
    local dir=$out/user
    mkdir -p "$dir/src" "$dir/tests"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "first-build-user"
version = "0.1.0"
edition = "2024"
publish = false

[dev-dependencies]
mcp-assured = { path = "$mcp_assured", features = [$features] }
TOML
    echo '//! A crate whose tests use mcp-assured.' >"$dir/src/lib.rs"
    cat >"$dir/tests/server.rs" <<'RS'
use mcp_assured::{McpClient, mcp_test};

#[mcp_test(server = command("python3", "server.py"))]
async fn lists_tools(client: McpClient) {
    assert!(!client.list_tools().await.unwrap().is_empty());
}
RS
}

write_rmcp() {
    local dir=$out/rmcp
    mkdir -p "$dir/src" "$dir/tests"
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "first-build-rmcp"
version = "0.1.0"
edition = "2024"
publish = false

[dev-dependencies]
rmcp = { version = "$rmcp_version", features = [$rmcp_features] }
tokio = { version = "1", features = ["macros", "rt", "process"] }
TOML
    echo '//! A crate whose tests use rmcp client alone.' >"$dir/src/lib.rs"
    cat >"$dir/tests/server.rs" <<'RS'
use rmcp::{ServiceExt, transport::TokioChildProcess};
use tokio::process::Command;

#[tokio::test]
async fn lists_tools() {
    let mut command = Command::new("python3");
    command.arg("server.py");
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    assert!(!client.list_all_tools().await.unwrap().is_empty());
    client.cancel().await.unwrap();
}
RS
}

build() {
    local name=$1 dir=$out/$1
    rm -rf "$dir/target"
    local start end crates
    start=$(date +%s.%N)
    CARGO_TARGET_DIR=$dir/target cargo build --tests --manifest-path "$dir/Cargo.toml" \
        "${timings[@]}" 2>"$dir/build.log" || { cat "$dir/build.log" >&2; exit 1; }
    end=$(date +%s.%N)
    crates=$(grep -c '^ *Compiling ' "$dir/build.log" || true)
    printf '%-5s %7.1f s  %3d crates  (load %s)\n' "$name" "$(echo "$end - $start" | bc)" \
        "$crates" "$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$end - $start" | bc >"$dir/seconds"
}

write_user
write_rmcp
for name in user rmcp; do
    cargo fetch --manifest-path "$out/$name/Cargo.toml" >/dev/null 2>&1
done
echo "mcp-assured: $mcp_assured features: [${features}]; rmcp: [${rmcp_features}]; CARGO_INCREMENTAL=$CARGO_INCREMENTAL; $(uptime)"
for ((round = 1; round <= rounds; round++)); do
    if ((round % 2)); then order=(user rmcp); else order=(rmcp user); fi
    for name in "${order[@]}"; do build "$name"; done
    printf 'ratio user/rmcp: %.2f\n' "$(echo "$(cat "$out/user/seconds") / $(cat "$out/rmcp/seconds")" | bc -l)"
done
