//! `mcp-assured fuzz` against the Python SDK server with planted bugs: exit 1 and a shrunk
//! reproduction per bug, the seed printed, JSON and JUnit; exit 0 on the server run
//! `--correct`; a regression file written, then replayed first.

mod support;

use mcp_assured::fixture::free_port;
use mcp_assured_tests::peers;
use serde_json::Value;

use support::{printed, run};

fn planted(extra: &[&str], server_args: &[&str]) -> std::process::Output {
    let python = peers::python();
    let script = peers::planted_bugs_server_script();
    let mut args = vec!["fuzz", "--seed", "21", "--call-timeout", "2"];
    if !extra.contains(&"--cases") {
        args.extend(["--cases", "40"]);
    }
    args.extend(extra);
    args.push("--");
    args.push(python.to_str().unwrap());
    args.push(script.to_str().unwrap());
    args.extend(server_args);
    run(&args, &[])
}

#[test]
fn each_planted_bug_fails_with_a_shrunk_reproduction_and_the_seed() {
    let dir = std::env::temp_dir().join(format!("mcp-assured-cli-fuzz-{}", free_port().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    let junit = dir.join("fuzz.xml");
    let output = planted(&["--junit", junit.to_str().unwrap()], &[]);
    let text = printed(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("FAIL fuzz.tools.greet.crash: crash in tool `greet` with {\"name\":\"\"}"),
        "{text}"
    );
    assert!(
        text.contains("reproduce: mcp-assured call greet --args-json '{\"name\":\"\"}' -- "),
        "{text}"
    );
    assert!(text.contains("FAIL fuzz.tools.scale.output_schema: output_schema in tool `scale` with {\"value\":100}"), "{text}");
    assert!(text.contains("--seed 21"), "{text}");
    assert!(text.contains("#[mcp_test(server = command("), "{text}");
    assert!(text.contains("4 passed, 9 failed, 1 skipped"), "{text}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("fuzz.tools.lookup.accepted_invalid"), "{xml}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_correct_server_exits_0_and_json_lists_no_finding() {
    let output = planted(&["--json"], &["--correct"]);
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(json["findings"], serde_json::json!([]));
    assert_eq!(json["summary"]["failed"], 0);
    assert_eq!(json["fuzz"][0]["name"], "fuzz.run");
    assert_eq!(json["fuzz"][0]["details"]["seed"], 21);
}

#[test]
fn a_regression_file_is_written_then_replayed_first() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-cli-regressions-{}",
        free_port().unwrap()
    ));
    let file = dir.join("regressions.txt");
    let file = file.to_str().unwrap();
    let first = planted(&["--tool", "page", "--regressions", file], &[]);
    assert_eq!(first.status.code(), Some(1), "{}", printed(&first));
    let saved = std::fs::read_to_string(file).unwrap();
    assert!(
        saved.contains("tool \"page\" accepted_invalid {\"page\":"),
        "{saved}"
    );
    let again = planted(
        &["--tool", "page", "--cases", "0", "--regressions", file],
        &[],
    );
    let text = printed(&again);
    assert_eq!(again.status.code(), Some(1), "{text}");
    assert!(
        text.contains("(replayed from the regression file)"),
        "{text}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
