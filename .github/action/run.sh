#!/usr/bin/env bash
# The work of the mcp-assured GitHub Action (action.yml at the repository's root): install
# the binary (unless MCP_ASSURED_BIN names one), run `mcp-assured check` with a JUnit
# report, then `mcp-assured snapshot --check` when a snapshot directory is given, then
# `mcp-assured fuzz` (its JUnit report in INPUT_FUZZ_JUNIT) when INPUT_FUZZ is `true`, then
# `mcp-assured lint` when INPUT_LINT is `true`, then `mcp-assured coverage` when INPUT_COVERAGE
# names a directory. Exits with the first failing command's status (1 failed checks, snapshots or
# findings, 2 usage, 3 unreachable).
#
# Inputs, as the action passes them: INPUT_SERVER (a URL, or the command line that starts
# the server over stdio) or INPUT_CONFIG (+ INPUT_SERVER_NAME), INPUT_JUNIT, INPUT_SNAPSHOTS,
# INPUT_CALLS (one TOOL=JSON per line), INPUT_SKIP (checks to report as skipped, separated by
# spaces or lines), INPUT_STRICT (`true`: every warning fails, of check and fuzz), INPUT_FUZZ
# (`true`: fuzz too), INPUT_FUZZ_ARGS (more options for `fuzz`), INPUT_LINT (`true`: lint
# too), INPUT_LINT_ARGS (more options for `lint`), INPUT_ARGS (more options for every command),
# INPUT_SARIF (`true`: each of check, fuzz and lint writes INPUT_SARIF_DIR/<command>.sarif,
# its results pointing to INPUT_SARIF_ARTIFACT, else to INPUT_CONFIG, else to the first word
# of INPUT_SERVER that is a file), INPUT_COVERAGE (a directory of coverage records: the
# commands record into it, then `mcp-assured coverage` reports it, with INPUT_COVERAGE_ARGS
# and an HTML page at INPUT_COVERAGE_HTML).
set -euo pipefail

bin=${MCP_ASSURED_BIN:-}
if [[ -z $bin ]]; then
    root=${RUNNER_TEMP:-/tmp}/mcp-assured
    cargo install --locked --quiet --root "$root" --path "${ACTION_PATH:?}/mcp-assured-cli"
    bin=$root/bin/mcp-assured
fi
"$bin" --version

# The server, last on each command line (a command goes after `--`).
target=()
if [[ -n ${INPUT_CONFIG:-} ]]; then
    target=(--config "$INPUT_CONFIG")
    if [[ -n ${INPUT_SERVER_NAME:-} ]]; then
        target+=(--server "$INPUT_SERVER_NAME")
    fi
elif [[ ${INPUT_SERVER:-} == http://* || ${INPUT_SERVER:-} == https://* ]]; then
    target=("$INPUT_SERVER")
elif [[ -n ${INPUT_SERVER:-} ]]; then
    read -r -a words <<<"$INPUT_SERVER"
    target=(-- "${words[@]}")
else
    echo "mcp-assured action: give \`server\` (a URL or a command line) or \`config\`" >&2
    exit 2
fi
read -r -a options <<<"${INPUT_ARGS:-}"
check_options=()
for check in ${INPUT_SKIP:-}; do
    check_options+=(--skip "$check")
done
if [[ ${INPUT_STRICT:-false} == true ]]; then
    check_options+=(--strict)
fi

# SARIF for code scanning: one file per command, each result pointing to a repository file.
sarif_options() {
    :
}
if [[ ${INPUT_SARIF:-false} == true ]]; then
    sarif_dir=${INPUT_SARIF_DIR:-mcp-assured-sarif}
    mkdir -p "$sarif_dir"
    artifact=${INPUT_SARIF_ARTIFACT:-${INPUT_CONFIG:-}}
    if [[ -z $artifact && -z ${INPUT_CONFIG:-} ]]; then
        # The script a program runs (`python server.py`, `node build/index.js`), else the
        # program itself when it is a file of the repository (`./server`).
        read -r -a words <<<"${INPUT_SERVER:-}"
        for word in "${words[@]:1}" "${words[0]:-}"; do
            if [[ -f $word && ( $word != /* || $word == "$PWD"/* ) ]]; then
                artifact=$word
                break
            fi
        done
    fi
    if [[ -z $artifact ]]; then
        echo "mcp-assured action: code scanning needs a file for each alert; give \`sarif-artifact\` (the server's entry file, say)" >&2
    fi
    sarif_options() {
        printf '%s\n' --sarif "$sarif_dir/$1.sarif"
        if [[ -n $artifact ]]; then
            printf '%s\n' --sarif-artifact "$artifact"
        fi
    }
fi

# Coverage: every command records into the directory, reported last.
if [[ -n ${INPUT_COVERAGE:-} ]]; then
    mkdir -p "$INPUT_COVERAGE"
    export MCP_ASSURED_COVERAGE=$INPUT_COVERAGE
fi

status=0
mapfile -t check_sarif < <(sarif_options check)
"$bin" check --junit "${INPUT_JUNIT:-mcp-assured-junit.xml}" "${check_options[@]}" "${check_sarif[@]}" \
    "${options[@]}" "${target[@]}" || status=$?

if [[ -n ${INPUT_SNAPSHOTS:-} ]]; then
    calls=()
    while IFS= read -r call; do
        if [[ -n $call ]]; then
            calls+=(--call "$call")
        fi
    done <<<"${INPUT_CALLS:-}"
    snapshot_status=0
    "$bin" snapshot --check --dir "$INPUT_SNAPSHOTS" "${calls[@]}" "${options[@]}" "${target[@]}" ||
        snapshot_status=$?
    if [[ $status -eq 0 ]]; then
        status=$snapshot_status
    fi
fi

if [[ ${INPUT_FUZZ:-false} == true ]]; then
    read -r -a fuzz_options <<<"${INPUT_FUZZ_ARGS:-}"
    if [[ ${INPUT_STRICT:-false} == true ]]; then
        fuzz_options+=(--strict)
    fi
    fuzz_status=0
    mapfile -t fuzz_sarif < <(sarif_options fuzz)
    "$bin" fuzz --junit "${INPUT_FUZZ_JUNIT:-mcp-assured-fuzz-junit.xml}" "${fuzz_options[@]}" \
        "${fuzz_sarif[@]}" "${options[@]}" "${target[@]}" || fuzz_status=$?
    if [[ $status -eq 0 ]]; then
        status=$fuzz_status
    fi
fi

if [[ ${INPUT_LINT:-false} == true ]]; then
    read -r -a lint_options <<<"${INPUT_LINT_ARGS:-}"
    if [[ ${INPUT_STRICT:-false} == true ]]; then
        lint_options+=(--strict)
    fi
    lint_status=0
    mapfile -t lint_sarif < <(sarif_options lint)
    "$bin" lint "${lint_options[@]}" "${lint_sarif[@]}" "${options[@]}" "${target[@]}" || lint_status=$?
    if [[ $status -eq 0 ]]; then
        status=$lint_status
    fi
fi
if [[ -n ${INPUT_COVERAGE:-} ]]; then
    read -r -a coverage_options <<<"${INPUT_COVERAGE_ARGS:-}"
    coverage_status=0
    mapfile -t coverage_sarif < <(sarif_options coverage)
    "$bin" coverage "$INPUT_COVERAGE" --html "${INPUT_COVERAGE_HTML:-mcp-assured-coverage.html}" \
        "${coverage_sarif[@]}" "${coverage_options[@]}" || coverage_status=$?
    if [[ $status -eq 0 ]]; then
        status=$coverage_status
    fi
fi
exit "$status"
