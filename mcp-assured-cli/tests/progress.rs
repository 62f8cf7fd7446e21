//! Progress on long runs: on a terminal (a pseudo-terminal from util-linux's `script`),
//! `fuzz`, `bench`, `check --load` and `record` draw it on stderr; `--quiet` turns it off;
//! stdout (a `--json` document) never holds it; and without a terminal, as in every other
//! test and in CI logs, nothing is drawn.

mod support;

use std::process::Command;

use mcp_assured_tests::{example_server_binary, peers};
use serde_json::Value;

use support::{printed, run, scratch};

/// A word for the shell, quoted.
fn quoted(word: &str) -> String {
    format!("'{}'", word.replace('\'', r"'\''"))
}

/// Runs `shell` (a `sh -c` line) under a pseudo-terminal, its stdout and stderr the
/// terminal's; its exit status and everything the terminal showed.
fn on_terminal(shell: &str) -> (Option<i32>, String) {
    let output = Command::new("script")
        .args(["-q", "-e", "-f", "-c", shell, "/dev/null"])
        .env("TERM", "xterm-256color")
        .env("NO_COLOR", "1")
        .output()
        .expect("util-linux's `script` runs (it makes the pseudo-terminal)");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn binary() -> String {
    quoted(env!("CARGO_BIN_EXE_mcp-assured"))
}

fn fuzz_line(extra: &str) -> String {
    format!(
        "{} fuzz {extra} --seed 21 --cases 30 --call-timeout 2 --time-budget 30 -- {} {}",
        binary(),
        quoted(peers::python().to_str().unwrap()),
        quoted(peers::planted_bugs_server_script().to_str().unwrap()),
    )
}

#[test]
fn fuzz_draws_progress_on_a_terminal_and_quiet_turns_it_off() {
    let (status, shown) = on_terminal(&fuzz_line(""));
    assert_eq!(status, Some(1), "{shown}");
    assert!(shown.contains("fuzz"), "{shown}");
    assert!(shown.contains(" calls, "), "{shown}");
    assert!(shown.contains("subjects done"), "{shown}");
    assert!(shown.contains(" left"), "against the time budget: {shown}");
    let (status, quiet) = on_terminal(&fuzz_line("--quiet"));
    assert_eq!(status, Some(1), "{quiet}");
    assert!(!quiet.contains("subjects done"), "{quiet}");
    assert!(
        quiet.contains("finding 1:"),
        "the report is still printed: {quiet}"
    );
}

#[test]
fn without_a_terminal_nothing_is_drawn() {
    let python = peers::python();
    let script = peers::planted_bugs_server_script();
    let output = run(
        &[
            "fuzz",
            "--seed",
            "21",
            "--cases",
            "20",
            "--call-timeout",
            "2",
            "--",
            python.to_str().unwrap(),
            script.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("subjects done"), "{stderr}");
    assert!(!stderr.contains('\r'), "no redraws in a log: {stderr:?}");
}

#[test]
fn bench_draws_progress_on_stderr_and_its_json_stays_clean() {
    let dir = scratch("progress-bench");
    let json = dir.join("bench.json");
    let line = format!(
        "{} bench --json --call 'echo={{\"message\":\"hi\"}}' --duration 1.5 -- {} > {}",
        binary(),
        quoted(example_server_binary().to_str().unwrap()),
        quoted(json.to_str().unwrap()),
    );
    let (status, shown) = on_terminal(&line);
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains("bench"), "{shown}");
    assert!(shown.contains("measuring: "), "{shown}");
    assert!(shown.contains(" left"), "{shown}");
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap())
        .expect("stdout is the JSON document alone");
    mcp_assured_tests::schemas::assert_report("bench", &document);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_load_draws_a_spinner_above_which_each_check_is_printed() {
    let line = format!(
        "{} check --load --no-server-tests --load-sessions 10 -- {}",
        binary(),
        quoted(example_server_binary().to_str().unwrap()),
    );
    let (status, shown) = on_terminal(&line);
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains("check --load"), "{shown}");
    assert!(shown.contains(" done, the last `"), "{shown}");
    assert!(shown.contains("PASS initialize"), "{shown}");
    assert!(shown.contains("load.answers_match_requests"), "{shown}");
}

#[test]
fn record_says_how_much_it_recorded_so_far() {
    let dir = scratch("progress-record");
    let cassette = dir.join("session.json");
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    let list = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
    let line = format!(
        "(printf '%s\\n' {} {} {}; sleep 2) | {} record --out {} -- {} > /dev/null",
        quoted(initialize),
        quoted(initialized),
        quoted(list),
        binary(),
        quoted(cassette.to_str().unwrap()),
        quoted(example_server_binary().to_str().unwrap()),
    );
    let (status, shown) = on_terminal(&line);
    assert_eq!(status, Some(0), "{shown}");
    assert!(shown.contains("record"), "{shown}");
    // The count after the client's request (`initialize` is the cassette's session, not an
    // interaction); the spinner redraws as it grows.
    assert!(
        shown.contains(&format!("1 interaction(s) in {}", cassette.display())),
        "{shown}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
