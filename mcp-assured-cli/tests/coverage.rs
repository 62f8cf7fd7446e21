//! `mcp-assured coverage DIR` over what real runs recorded: `mcp-assured call` against the
//! Python planted-bugs server with `MCP_ASSURED_COVERAGE=DIR`, then the report as JSON (held
//! to the published schema), as a page (rendered in headless Chromium) and as SARIF (held to
//! the official 2.1.0 schema); and its exit codes: 2 for a directory with no record, 1 below
//! a `--min-*` threshold, 0 at or above it.

mod support;

use std::path::Path;

use mcp_assured_tests::{
    peers::{self, SELFTEST_SERVER},
    schemas::{assert_sarif, report_violations},
};
use serde_json::Value;

use support::{printed, rendered, run, scratch};

/// The planted-bugs server's name, as its `initialize` answer gives it.
const SERVER: &str = "mcp-assured-planted-bugs";

/// Calls `tool` with `args` on the planted-bugs server, recording coverage into `dir`.
#[track_caller]
fn call(dir: &Path, tool: &str, args: &[&str]) {
    let script = peers::planted_bugs_server_script();
    call_on(dir, script.to_str().unwrap(), tool, args);
}

/// Calls `tool` with `args` on the Python server `script`, recording coverage into `dir`.
#[track_caller]
fn call_on(dir: &Path, script: &str, tool: &str, args: &[&str]) {
    let python = peers::python();
    let mut command = vec!["call", tool];
    command.extend(args);
    command.extend(["--", python.to_str().unwrap(), script]);
    let output = run(&command, &[("MCP_ASSURED_COVERAGE", dir.to_str().unwrap())]);
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
}

/// Two runs' records: `convert` with `unit` `celsius` (never `fahrenheit` or `kelvin`),
/// and `echo`; 2 of the server's 13 tools.
fn record_two_calls(dir: &Path) {
    call(
        dir,
        "convert",
        &["--arg", "unit=celsius", "--arg", "value=10"],
    );
    call(dir, "echo", &["--arg", "message=hi"]);
}

fn read_json(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Each SARIF result's (ruleId, level, fully qualified logical location, fingerprint).
fn results(sarif: &Value) -> Vec<(String, String, String, String)> {
    sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
            (
                text(&result["ruleId"]),
                text(&result["level"]),
                text(&result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]),
                text(&result["partialFingerprints"]["mcpAssured/v1"]),
            )
        })
        .collect()
}

/// Where `needle` first is in `text`, which must hold it.
#[track_caller]
fn at(text: &str, needle: &str) -> usize {
    text.find(needle)
        .unwrap_or_else(|| panic!("no {needle:?} in:\n{text}"))
}

#[test]
fn coverage_of_real_calls_as_json_a_page_in_a_browser_and_sarif() {
    let dir = scratch("coverage-reports");
    let records = dir.join("records");
    record_two_calls(&records);
    let page = dir.join("coverage.html");
    let sarif = dir.join("coverage.sarif");
    let output = run(
        &[
            "coverage",
            records.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--sarif-artifact",
            "tests/mcp.json",
            "--json",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));

    // The JSON: the published schema's `Coverage` document, of the two runs merged.
    let json: Value = serde_json::from_slice(&output.stdout).expect("--json prints JSON");
    assert_eq!(report_violations("Coverage", &json), Vec::<String>::new());
    let server = &json["servers"][0];
    assert_eq!(server["server"]["name"], SERVER);
    assert_eq!(server["records"], 2);
    assert_eq!(
        (&server["tools"]["covered"], &server["tools"]["total"]),
        (&2.into(), &13.into())
    );
    assert_eq!(json["directory"], records.to_str().unwrap());
    // The schema can fail: a tally's count as a string is refused.
    let mut broken = json.clone();
    broken["servers"][0]["tools"]["covered"] = "two".into();
    assert!(
        report_violations("Coverage", &broken)
            .iter()
            .any(|violation| violation.contains("/servers/0/tools/covered")),
        "{:?}",
        report_violations("Coverage", &broken)
    );

    // The page, in a browser: headed by the server and the directory, what was never
    // exercised first.
    let dom = rendered(&page);
    assert!(
        dom.contains(&format!("<h1>mcp-assured coverage: {SERVER} 1.0.0</h1>")),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("<dt>Server</dt><dd>{SERVER} 1.0.0</dd>")),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("<dt>Directory</dt><dd>{}</dd>", records.display())),
        "{dom}"
    );
    let order = [
        "<h3>Never exercised</h3>",
        "<li>tool <code>add</code>: never called</li>",
        "of <code>convert.unit</code>: never sent</li>",
        "<h3>Tallies</h3>",
        "<tr><td>tools</td><td class=\"number\">2/13</td><td class=\"number\">15.4%</td></tr>",
        "<h3>Tools</h3>",
        "<tr><td><code>convert</code></td><td class=\"number\">1</td><td class=\"number\">1</td>",
        "<h3>Notifications seen</h3>",
    ];
    let places: Vec<usize> = order.iter().map(|needle| at(&dom, needle)).collect();
    assert!(
        places.windows(2).all(|pair| pair[0] < pair[1]),
        "out of order {places:?}:\n{dom}"
    );
    assert!(
        dom.contains(
            "<tr><td>prompts</td><td class=\"number\" colspan=\"2\">none listed</td></tr>"
        ),
        "{dom}"
    );
    assert!(
        !dom.contains("<li>tool <code>convert</code>: never called"),
        "{dom}"
    );

    // The SARIF: valid, each item a note about the server by its own name, at the file given.
    let log = read_json(&sarif);
    assert_sarif(&log);
    assert_eq!(
        log["runs"][0]["automationDetails"]["id"],
        "mcp-assured/coverage/"
    );
    let found = results(&log);
    let add = format!("{SERVER}/tool/add");
    assert!(
        found.iter().any(
            |(rule, level, place, _)| rule == "coverage.tool_never_called"
                && level == "note"
                && *place == add
        ),
        "{found:?}"
    );
    assert!(
        found.iter().any(
            |(rule, level, place, _)| rule == "coverage.value_never_sent"
                && level == "note"
                && place == &format!("{SERVER}/tool/convert/inputSchema/properties/unit")
        ),
        "{found:?}"
    );
    assert!(
        found
            .iter()
            .all(|(_, level, place, _)| level == "note" && place.starts_with(&format!("{SERVER}/"))),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(rule, _, place, _)| rule == "coverage.tool_never_called"
                && (place.ends_with("/convert") || place.ends_with("/echo"))),
        "{found:?}"
    );
    let files: Vec<&Value> = log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| &result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"])
        .collect();
    assert!(
        files.iter().all(|uri| *uri == "tests/mcp.json"),
        "{files:?}"
    );

    // Another run of the suite that also calls `add`: the alerts of what is still uncovered
    // keep their fingerprints, and `add`'s closes.
    call(&records, "add", &["--arg", "a=1", "--arg", "b=2"]);
    let again = dir.join("again.sarif");
    let output = run(
        &[
            "coverage",
            records.to_str().unwrap(),
            "--sarif",
            again.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let later = results(&read_json(&again));
    for result in &found {
        let still = later.iter().any(|other| other == result);
        let closed = result.0 == "coverage.tool_never_called" && result.2 == add;
        assert_eq!(still, !closed, "{result:?} in {later:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_with_no_record_is_a_usage_error_that_says_how_to_record() {
    let dir = scratch("coverage-empty");
    let output = run(&["coverage", dir.to_str().unwrap()], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", printed(&output));
    let said = printed(&output);
    assert!(said.contains("holds no coverage record"), "{said}");
    assert!(
        said.contains(&format!("MCP_ASSURED_COVERAGE={}", dir.display())),
        "{said}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_threshold_above_what_was_covered_fails_and_one_below_passes() {
    let dir = scratch("coverage-thresholds");
    record_two_calls(&dir);
    let sarif = dir.join("below.sarif");
    let output = run(
        &[
            "coverage",
            dir.to_str().unwrap(),
            "--min-tools",
            "100",
            "--sarif",
            sarif.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    assert!(
        printed(&output).contains(&format!(
            "FAIL {SERVER} 1.0.0: tools covered 15.4%, below the minimum of 100%"
        )),
        "{}",
        printed(&output)
    );
    let log = read_json(&sarif);
    assert_sarif(&log);
    let warnings: Vec<_> = results(&log)
        .into_iter()
        .filter(|(_, level, ..)| level == "warning")
        .map(|(rule, _, place, _)| (rule, place))
        .collect();
    assert_eq!(
        warnings,
        [("coverage.below_threshold".to_owned(), SERVER.to_owned())]
    );

    let output = run(
        &["coverage", dir.to_str().unwrap(), "--min-tools", "5"],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    assert!(!printed(&output).contains("FAIL"), "{}", printed(&output));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn several_servers_each_have_their_section_and_their_own_alerts() {
    let dir = scratch("coverage-servers");
    let records = dir.join("records");
    call(&records, "echo", &["--arg", "message=hi"]);
    call_on(&records, SELFTEST_SERVER, "echo", &["--arg", "message=hi"]);
    let page = dir.join("servers.html");
    let sarif = dir.join("servers.sarif");
    let output = run(
        &[
            "coverage",
            records.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--json",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let dom = rendered(&page);
    let both = format!("{SERVER} 1.0.0, selftest-server 1.0.0");
    assert!(
        dom.contains(&format!("<h1>mcp-assured coverage: {both}</h1>")),
        "{dom}"
    );
    assert!(
        dom.contains(&format!("<dt>Servers</dt><dd>{both}</dd>")),
        "{dom}"
    );
    let first = at(
        &dom,
        &format!("<h2>Coverage of {SERVER} 1.0.0 (1 record)</h2>"),
    );
    let second = at(
        &dom,
        "<h2>Coverage of selftest-server 1.0.0 (1 record)</h2>",
    );
    assert!(first < second, "{dom}");
    // Each result about its own server, never a placeholder.
    let log = read_json(&sarif);
    assert_sarif(&log);
    let places: Vec<String> = results(&log)
        .into_iter()
        .map(|(_, _, place, _)| place)
        .collect();
    assert!(places.contains(&format!("{SERVER}/tool/add")), "{places:?}");
    assert!(
        places.contains(&"selftest-server/tool/mcp.test.protocol".to_owned()),
        "{places:?}"
    );
    assert!(
        places
            .iter()
            .all(|place| place.starts_with(&format!("{SERVER}/"))
                || place.starts_with("selftest-server/")),
        "{places:?}"
    );
    // --server keeps one.
    let output = run(
        &[
            "coverage",
            records.to_str().unwrap(),
            "--server",
            "selftest-server",
            "--json",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&Value> = json["servers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|server| &server["server"]["name"])
        .collect();
    assert_eq!(names, ["selftest-server"]);
    std::fs::remove_dir_all(&dir).unwrap();
}
