//! `mcp-assured diff OLD NEW`: the example server's snapshot (written by `mcp-assured
//! snapshot`) against the server live, surfaces written by `mcp-assured list --json` and
//! changed as a next version would, the Python SDK peer over HTTP against itself over stdio,
//! and two configured command servers; `--fail-on-breaking` exits 1 exactly on a breaking
//! change.

mod support;

use std::path::{Path, PathBuf};

use mcp_assured::fixture::free_port;
use mcp_assured_tests::{Transport, example_server_binary, peers, server};
use serde_json::{Value, json};

use support::{printed, run};

/// A fresh directory, removed on drop.
struct Dir(PathBuf);

impl Dir {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!(
            "mcp-assured-diff-{}-{}",
            std::process::id(),
            free_port().unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn example() -> String {
    example_server_binary().to_str().unwrap().to_owned()
}

fn diff(args: &[&str]) -> std::process::Output {
    run(&[&["diff"][..], args].concat(), &[])
}

/// The example server's surface as `mcp-assured list --json` prints it, written to `file`.
fn list_json(file: &str) -> Value {
    let listed = run(&["list", "--json", "--", &example()], &[]);
    assert!(listed.status.success(), "{}", printed(&listed));
    let surface: Value = serde_json::from_slice(&listed.stdout).unwrap();
    write_json(file, &surface);
    surface
}

fn write_json(file: &str, value: &Value) {
    std::fs::write(file, serde_json::to_string_pretty(value).unwrap()).unwrap();
}

/// The `weather` tool of a surface's JSON.
fn weather(surface: &mut Value) -> &mut Value {
    let tools = surface["tools"].as_array_mut().unwrap();
    tools.iter_mut().find(|t| t["name"] == "weather").unwrap()
}

fn printed_json(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("not JSON ({error}):\n{}", printed(output)))
}

#[test]
fn a_snapshot_and_the_same_server_live_have_no_changes() {
    let dir = Dir::new();
    let snapshots = dir.path("snapshots");
    let written = run(&["snapshot", "--dir", &snapshots, "--", &example()], &[]);
    assert!(written.status.success(), "{}", printed(&written));

    let same = diff(&["--fail-on-breaking", &snapshots, "--", &example()]);
    assert_eq!(same.status.code(), Some(0), "{}", printed(&same));
    assert!(printed(&same).contains("no changes"), "{}", printed(&same));
    // One of the files stands for them all.
    let tools = format!("{snapshots}/mcp-assured-example__tools.snap");
    let same = diff(&["--fail-on-breaking", &tools, "--", &example()]);
    assert_eq!(same.status.code(), Some(0), "{}", printed(&same));
}

#[test]
fn a_snapshot_of_a_version_with_another_tool_is_breaking_against_the_live_server() {
    let dir = Dir::new();
    let snapshots = dir.path("snapshots");
    let written = run(&["snapshot", "--dir", &snapshots, "--", &example()], &[]);
    assert!(written.status.success(), "{}", printed(&written));
    // The old version had a tool the server no longer offers.
    let file = Path::new(&snapshots).join("mcp-assured-example__tools.snap");
    let text = std::fs::read_to_string(&file).unwrap();
    let (header, body) = text.split_once("\n---\n").unwrap();
    let mut tools: Vec<Value> = serde_json::from_str(body).unwrap();
    tools.push(json!({"name": "retired", "inputSchema": {"type": "object"}}));
    let body = serde_json::to_string_pretty(&tools).unwrap();
    std::fs::write(&file, format!("{header}\n---\n{body}\n")).unwrap();

    let without_flag = diff(&[&snapshots, "--", &example()]);
    assert_eq!(
        without_flag.status.code(),
        Some(0),
        "{}",
        printed(&without_flag)
    );
    let shown = printed(&without_flag);
    assert!(shown.contains("Breaking (1):"), "{shown}");
    assert!(
        shown.contains("tool `retired`: removed: clients that use this tool fail [tool_removed]"),
        "{shown}"
    );
    assert!(shown.contains("1 breaking, 0 compatible change"), "{shown}");

    let failing = diff(&["--fail-on-breaking", "--json", &snapshots, "--", &example()]);
    assert_eq!(failing.status.code(), Some(1), "{}", printed(&failing));
    let answer = printed_json(&failing);
    assert_eq!(answer["breaking"], 1);
    assert_eq!(answer["changes"][0]["location"]["name"], "retired");
}

#[test]
fn fail_on_breaking_exits_1_exactly_on_breaking_changes_and_json_lists_them() {
    let dir = Dir::new();
    let (old, new) = (dir.path("old.json"), dir.path("new.json"));
    let listed = list_json(&old);

    // Compatible only: an optional argument and a new tool.
    let mut next = listed.clone();
    weather(&mut next)["inputSchema"]["properties"]["units"] = json!({"type": "string"});
    let tools = next["tools"].as_array_mut().unwrap();
    tools.push(json!({"name": "forecast", "inputSchema": {"type": "object"}}));
    write_json(&new, &next);
    let compatible = diff(&["--fail-on-breaking", &old, &new]);
    assert_eq!(
        compatible.status.code(),
        Some(0),
        "{}",
        printed(&compatible)
    );
    let shown = printed(&compatible);
    assert!(shown.contains("Compatible (2):"), "{shown}");
    assert!(!shown.contains("Breaking"), "{shown}");
    assert!(
        shown.contains("0 breaking, 2 compatible changes"),
        "{shown}"
    );

    // Breaking: the new argument required, a prompt gone.
    weather(&mut next)["inputSchema"]["required"]
        .as_array_mut()
        .unwrap()
        .push(json!("units"));
    next["prompts"].as_array_mut().unwrap().remove(0);
    write_json(&new, &next);
    let breaking = diff(&["--fail-on-breaking", "--json", &old, &new]);
    assert_eq!(breaking.status.code(), Some(1), "{}", printed(&breaking));
    let answer = printed_json(&breaking);
    assert_eq!(
        (answer["old"].as_str(), answer["new"].as_str()),
        (Some(old.as_str()), Some(new.as_str()))
    );
    assert_eq!(
        (answer["breaking"].as_u64(), answer["compatible"].as_u64()),
        (Some(2), Some(1))
    );
    let changes = answer["changes"].as_array().unwrap();
    let kinds: Vec<&str> = changes
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["required_argument_added", "prompt_removed", "tool_added"],
        "{answer:#}"
    );
    let required = &changes[0];
    assert_eq!(required["severity"], "breaking");
    assert_eq!(
        required["location"],
        json!({"item": "tool", "name": "weather", "pointer": "/inputSchema/properties/units"})
    );
    assert_eq!(required["new"], json!({"type": "string"}));
    assert!(required["message"].as_str().unwrap().contains("`units`"));
    assert_eq!(changes[2]["severity"], "compatible");

    // Without the flag, breaking changes are printed but do not fail.
    let reported = diff(&[&old, &new]);
    assert_eq!(reported.status.code(), Some(0), "{}", printed(&reported));
    assert!(printed(&reported).contains("Breaking (2):"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_python_sdk_server_over_http_and_over_stdio_offers_the_same_surface() {
    let http = server::python(Transport::StreamableHttp).await;
    let url = http.url().unwrap().to_owned();
    let python = peers::python();
    let script = peers::python_server_script();
    let args = [
        "--fail-on-breaking",
        "--json",
        &url,
        "--",
        python.to_str().unwrap(),
        script.to_str().unwrap(),
    ]
    .map(str::to_owned);
    let output = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        diff(&args)
    })
    .await
    .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let answer = printed_json(&output);
    assert_eq!(answer["changes"], json!([]), "{answer:#}");
    assert_eq!(answer["old"], json!(url));
}

#[test]
fn two_configured_command_servers_are_compared() {
    let dir = Dir::new();
    let config = dir.path("servers.json");
    write_json(
        &config,
        &json!({"mcpServers": {
            "paged": {"command": example(), "args": ["--page-size", "2"]},
            "whole": {"command": example()},
        }}),
    );
    let same = diff(&[
        "--fail-on-breaking",
        "--old-config",
        &config,
        "--old-server",
        "paged",
        "--new-config",
        &config,
        "--new-server",
        "whole",
    ]);
    assert_eq!(same.status.code(), Some(0), "{}", printed(&same));
    assert!(printed(&same).contains("no changes"), "{}", printed(&same));
}

#[test]
fn unreadable_sides_are_usage_errors_and_unreachable_servers_3() {
    let dir = Dir::new();
    let old = dir.path("old.json");
    list_json(&old);
    let missing = diff(&[&old, &dir.path("missing.json")]);
    assert_eq!(missing.status.code(), Some(2), "{}", printed(&missing));
    assert!(
        printed(&missing).contains("cannot be read"),
        "{}",
        printed(&missing)
    );

    let not_a_surface = dir.path("other.json");
    write_json(&not_a_surface, &json!({"name": "x"}));
    let wrong = diff(&["--json", &old, &not_a_surface]);
    assert_eq!(wrong.status.code(), Some(2), "{}", printed(&wrong));
    assert_eq!(printed_json(&wrong)["error"]["kind"], "usage");

    let one_side = diff(&[&old]);
    assert_eq!(one_side.status.code(), Some(2), "{}", printed(&one_side));

    let port = free_port().unwrap();
    let unreachable = diff(&[&old, &format!("http://127.0.0.1:{port}/mcp")]);
    assert_eq!(
        unreachable.status.code(),
        Some(3),
        "{}",
        printed(&unreachable)
    );
}

/// Each side is named after the server its surface names: `list --json`'s output names the
/// example server, live or stored; `--json` says who each side is, and the text says when
/// the two differ.
#[test]
fn each_side_names_its_server_and_a_note_says_when_they_differ() {
    let dir = Dir::new();
    let (old, new) = (dir.path("old.json"), dir.path("new.json"));
    let listed = list_json(&old);
    let version = listed["server"]["version"].as_str().unwrap().to_owned();
    assert_eq!(listed["server"]["name"], "mcp-assured-example");

    let live = diff(&["--json", &old, "--", &example()]);
    assert_eq!(live.status.code(), Some(0), "{}", printed(&live));
    let answer = printed_json(&live);
    for side in ["old_server", "new_server"] {
        assert_eq!(answer[side]["name"], "mcp-assured-example", "{answer:#}");
        assert_eq!(answer[side]["version"], json!(version), "{answer:#}");
    }
    let same = diff(&[&old, "--", &example()]);
    let shown = printed(&same);
    assert!(
        shown.starts_with(&format!("{old} (mcp-assured-example {version}) -> ")),
        "{shown}"
    );
    assert!(!shown.contains("note:"), "{shown}");

    let mut renamed = listed.clone();
    renamed["server"]["name"] = json!("mcp-assured-example-next");
    write_json(&new, &renamed);
    let other = diff(&[&old, &new]);
    assert_eq!(other.status.code(), Some(0), "{}", printed(&other));
    let shown = printed(&other);
    assert!(
        shown.contains(&format!(
            "{new} (mcp-assured-example-next {version})\nnote: the two sides name different \
             servers: `mcp-assured-example` (old) and `mcp-assured-example-next` (new)"
        )),
        "{shown}"
    );
    assert!(shown.contains("no changes"), "a name is no change: {shown}");
    let answer = printed_json(&diff(&["--json", &old, &new]));
    assert_eq!(answer["new_server"]["name"], "mcp-assured-example-next");
    assert_eq!(answer["changes"], json!([]));

    // A snapshot does not say who the server is: that side has no `*_server`.
    let snapshots = dir.path("snapshots");
    let written = run(&["snapshot", "--dir", &snapshots, "--", &example()], &[]);
    assert!(written.status.success(), "{}", printed(&written));
    let answer = printed_json(&diff(&["--json", &snapshots, &old]));
    assert_eq!(answer.get("old_server"), None, "{answer:#}");
    assert_eq!(answer["new_server"]["name"], "mcp-assured-example");
}
