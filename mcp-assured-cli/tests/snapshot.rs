//! `mcp-assured snapshot` writes a server's surface and chosen calls as insta-format files,
//! and `--check` passes on the same server, fails with a diff on a changed file, and fails
//! on a missing one: against the example server (Rust) and a Python server run by `python3`.

mod support;

use std::path::{Path, PathBuf};

use mcp_assured::fixture::free_port;
use mcp_assured_tests::{example_server_binary, peers::SELFTEST_SERVER};
use serde_json::Value;

use support::{printed, run};

/// A fresh directory for the snapshots, removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!(
            "mcp-assured-snapshots-{}-{}",
            std::process::id(),
            free_port().unwrap()
        ));
        Self(dir)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn snapshot(dir: &Dir, extra: &[&str], server: &[&str]) -> std::process::Output {
    let mut args = vec!["snapshot", "--dir", dir.path()];
    args.extend_from_slice(extra);
    args.push("--");
    args.extend_from_slice(server);
    run(&args, &[])
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

#[test]
fn writes_the_surface_and_calls_then_checks_them() {
    let dir = Dir::new();
    let example = example_server_binary();
    let server = [example.to_str().unwrap()];
    let calls = [
        "--call",
        r#"echo={"message":"hi"}"#,
        "--call",
        r#"echo={"message":"again"}"#,
    ];

    let written = snapshot(&dir, &calls, &server);
    assert!(written.status.success(), "{}", printed(&written));
    for name in [
        "tools",
        "resources",
        "resource_templates",
        "prompts",
        "call_echo",
        "call_echo_2",
    ] {
        let file = dir.file(&format!("mcp-assured-example__{name}.snap"));
        let text = read(&file);
        assert!(
            text.starts_with(&format!(
                "---\nsource: mcp-assured snapshot\nexpression: {name}\n---\n"
            )),
            "{text}"
        );
        assert!(printed(&written).contains(&format!("new {}", file.display())));
    }
    let call = read(&dir.file("mcp-assured-example__call_echo.snap"));
    let body: Value = serde_json::from_str(call.split("\n---\n").nth(1).unwrap()).unwrap();
    assert_eq!(body["arguments"]["message"], "hi");
    assert_eq!(body["result"]["content"][0]["text"], "hi");

    // The same server: nothing differs.
    let same = snapshot(&dir, &[&["--check"][..], &calls].concat(), &server);
    assert!(same.status.success(), "{}", printed(&same));
    assert!(printed(&same).contains("unchanged"), "{}", printed(&same));

    // A changed file: a diff and exit 1; a missing one: what it would hold.
    let changed = dir.file("mcp-assured-example__call_echo.snap");
    std::fs::write(&changed, read(&changed).replace("\"hi\"", "\"HI\"")).unwrap();
    std::fs::remove_file(dir.file("mcp-assured-example__prompts.snap")).unwrap();
    let differs = snapshot(&dir, &[&["--check"][..], &calls].concat(), &server);
    assert_eq!(differs.status.code(), Some(1), "{}", printed(&differs));
    let shown = printed(&differs);
    assert!(shown.contains("-        \"text\": \"HI\","), "{shown}");
    assert!(shown.contains("+        \"text\": \"hi\","), "{shown}");
    assert!(
        shown.contains("mcp-assured-example__prompts.snap is missing"),
        "{shown}"
    );
    assert!(shown.contains("without --check to update them"), "{shown}");
    // --check never writes.
    assert!(!dir.file("mcp-assured-example__prompts.snap").exists());

    // Writing again brings them back in line.
    let rewritten = snapshot(&dir, &calls, &server);
    assert!(rewritten.status.success(), "{}", printed(&rewritten));
    let again = snapshot(&dir, &[&["--check"][..], &calls].concat(), &server);
    assert!(again.status.success(), "{}", printed(&again));
}

/// A Python server (no SDK, run by `python3`), named by `--name`; its volatile fields are
/// redacted, so a second run on a new process matches.
#[test]
fn snapshots_a_python_server_stably() {
    let dir = Dir::new();
    let server = ["python3", SELFTEST_SERVER];
    let written = snapshot(&dir, &["--name", "selftest"], &server);
    assert!(written.status.success(), "{}", printed(&written));
    assert!(dir.file("selftest__tools.snap").is_file());
    let check = snapshot(&dir, &["--name", "selftest", "--check"], &server);
    assert!(check.status.success(), "{}", printed(&check));
}

#[test]
fn bad_calls_are_usage_errors_and_failed_calls_failures() {
    let dir = Dir::new();
    let example = example_server_binary();
    let server = [example.to_str().unwrap()];
    let not_json = snapshot(&dir, &["--call", "echo={"], &server);
    assert_eq!(not_json.status.code(), Some(2), "{}", printed(&not_json));
    let unknown = snapshot(&dir, &["--call", "no_such_tool={}"], &server);
    assert_eq!(unknown.status.code(), Some(1), "{}", printed(&unknown));
    assert!(
        printed(&unknown).contains("tools/call no_such_tool failed"),
        "{}",
        printed(&unknown)
    );
}
