use serde_json::json;

use super::*;
use crate::report::{Clause, Entry, Level as Keyword, Report, Status};

const NAMES: Clause = Clause {
    level: Keyword::Should,
    spec: "MCP 2025-11-25",
    section: "Server › Tools › Tool Names",
    url: "https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names",
    text: "Tool names SHOULD be unique within a server.",
};

fn sample() -> Report {
    let mut warned = Entry::new("protocol-checks", "tools.names", Status::Warned, "twice");
    warned.clause = Some(NAMES);
    let mut test = Entry::new("server-tests", "mcp.test.echo", Status::Failed, "wrong");
    test.problems = vec!["no testMetadata".into()];
    [
        Entry::new("protocol-checks", "ping", Status::Passed, "answered"),
        Entry::new(
            "protocol-checks",
            "logging",
            Status::Skipped,
            "not advertised",
        ),
        warned,
        test,
        Entry::new(
            "load-run",
            "max_p99",
            Status::Failed,
            "p99 ≤ 1 ms: measured 3 ms",
        ),
        Entry::new(
            "fuzz",
            "fuzz.tools.add",
            Status::Warned,
            "not fuzzed: no input",
        ),
    ]
    .into_iter()
    .collect()
}

#[test]
fn failures_and_warnings_are_results_and_their_rules_are_listed_once() {
    let mut report = sample();
    report.push(Entry::new(
        "protocol-checks",
        "tools.names",
        Status::Warned,
        "again",
    ));
    let sarif = report.to_sarif().server("calc").to_json();
    let run = &sarif["runs"][0];
    let ids: Vec<&str> = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| result["ruleId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "tools.names",
            "mcp.test.echo",
            "load-run.max_p99",
            "fuzz.not_fuzzed",
            "tools.names"
        ]
    );
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        [
            "tools.names",
            "mcp.test.echo",
            "load-run.max_p99",
            "fuzz.not_fuzzed"
        ]
    );
    assert_eq!(run["results"][4]["ruleIndex"], 0);
    assert_eq!(run["tool"]["driver"]["name"], "mcp-assured");
    assert_eq!(run["tool"]["driver"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(sarif["$schema"], SCHEMA_URI);
}

#[test]
fn a_rule_says_its_clause_and_links_to_it() {
    let sarif = sample().to_sarif().to_json();
    let rule = &sarif["runs"][0]["tool"]["driver"]["rules"][0];
    assert_eq!(rule["shortDescription"]["text"], NAMES.text);
    assert_eq!(rule["fullDescription"]["text"], NAMES.to_string());
    assert_eq!(rule["helpUri"], NAMES.url);
    assert_eq!(rule["defaultConfiguration"]["level"], "warning");
    let test_rule = &sarif["runs"][0]["tool"]["driver"]["rules"][1];
    assert_eq!(
        test_rule["helpUri"],
        "https://docs.rs/mcp-assured/latest/mcp_assured/server_tests/index.html"
    );
    assert_eq!(test_rule["defaultConfiguration"]["level"], "error");
}

#[test]
fn levels_follow_the_status_and_problems_follow_the_message() {
    let sarif = sample().to_sarif().to_json();
    let results = &sarif["runs"][0]["results"];
    assert_eq!(results[0]["level"], "warning");
    assert_eq!(results[1]["level"], "error");
    assert_eq!(results[1]["message"]["text"], "wrong [no testMetadata]");
}

#[test]
fn each_result_names_the_server_and_its_subject() {
    let sarif = sample().to_sarif().server("calc").to_json();
    let results = &sarif["runs"][0]["results"];
    assert_eq!(
        results[0]["locations"][0]["logicalLocations"][0],
        json!({"name": "calc", "kind": "module", "fullyQualifiedName": "calc"})
    );
    assert_eq!(
        results[3]["locations"][0]["logicalLocations"][0],
        json!({"name": "add", "kind": "function", "fullyQualifiedName": "calc/tool/add"})
    );
    assert_eq!(results[0]["locations"][0].get("physicalLocation"), None);
}

#[test]
fn an_artifact_gives_every_result_a_file_and_a_result_may_have_its_own() {
    let mut log = sample().to_sarif();
    let mut own = SarifResult::new("pinned", Level::Error, "changed");
    own.artifact = Some("surface.json".into());
    log.push(
        Rule {
            id: "pinned".into(),
            short_description: "pinned".into(),
            full_description: "pinned".into(),
            help_uri: "https://docs.rs/mcp-assured".into(),
            default_level: Level::Error,
            tags: vec![],
        },
        own,
    );
    let sarif = log.artifact("./servers/mcp.json").to_json();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let uris: Vec<&str> = results
        .iter()
        .map(|result| {
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(uris[0], "servers/mcp.json");
    assert_eq!(uris[4], "surface.json");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"]["startLine"],
        1
    );
}

#[test]
fn fingerprints_hold_what_a_finding_is_and_nothing_that_changes_between_runs() {
    let first = sample().to_sarif().server("calc").to_json();
    let mut again = sample();
    // Another run: other timings and messages, the same findings.
    again.push(Entry::new(
        "protocol-checks",
        "ping",
        Status::Passed,
        "3 ms",
    ));
    let second = again.to_sarif().server("calc").to_json();
    let prints = |sarif: &serde_json::Value| -> Vec<String> {
        sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|result| {
                result["partialFingerprints"][FINGERPRINT_KEY]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    };
    assert_eq!(prints(&first), prints(&second));
    let other_server = sample().to_sarif().server("weather").to_json();
    assert_ne!(prints(&first)[0], prints(&other_server)[0]);
    let unique: std::collections::HashSet<_> = prints(&first).into_iter().collect();
    assert_eq!(unique.len(), 4, "each finding its own");
}

#[test]
fn a_clean_run_is_a_log_with_no_results() {
    let report = Report::from_iter([Entry::new("protocol-checks", "ping", Status::Passed, "")]);
    let sarif = report.to_sarif().to_json();
    assert_eq!(sarif["runs"][0]["results"], json!([]));
    assert_eq!(sarif["runs"][0]["tool"]["driver"]["rules"], json!([]));
}

#[test]
fn logs_extend_one_another() {
    let mut log = sample().to_sarif().server("calc");
    let pinned = Report::from_iter([Entry::new("pinned", "pinned", Status::Failed, "changed")]);
    log.extend(pinned.to_sarif());
    assert_eq!(log.results().len(), 5);
    assert_eq!(log.rules().last().unwrap().id, "pinned");
    assert_eq!(log.to_json()["runs"][0]["results"][4]["ruleIndex"], 4);
}

#[test]
fn subjects_read_as_the_findings_write_them() {
    assert_eq!(
        Subject::parse("resource template `file:///{path}`"),
        Some(Subject::new("resource template", "file:///{path}"))
    );
    assert_eq!(Subject::parse("the server"), None);
}

/// Each result's fully qualified logical location and fingerprint.
#[cfg(feature = "diff")]
fn located(sarif: &serde_json::Value) -> Vec<(String, String)> {
    let text = |value: &serde_json::Value| value.as_str().unwrap().to_owned();
    sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            (
                text(&result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]),
                text(&result["partialFingerprints"][FINGERPRINT_KEY]),
            )
        })
        .collect()
}

#[test]
fn a_run_carries_its_properties_and_notes_and_extending_keeps_them() {
    let mut log = sample()
        .to_sarif()
        .property("servers", json!({"new": "calc"}))
        .note("one thing about the run");
    log.extend(
        Report::default()
            .to_sarif()
            .property("servers", json!({"new": "other"}))
            .property("extra", true)
            .note("another"),
    );
    let run = &log.to_json()["runs"][0];
    assert_eq!(
        run["properties"],
        json!({"servers": {"new": "calc"}, "extra": true})
    );
    let invocation = &run["invocations"][0];
    assert_eq!(invocation["executionSuccessful"], true);
    let notes: Vec<&str> = invocation["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|note| {
            assert_eq!(note["level"], "note");
            note["message"]["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(notes, ["one thing about the run", "another"]);
    let bare = sample().to_sarif().to_json();
    assert_eq!(bare["runs"][0].get("properties"), None);
    assert_eq!(bare["runs"][0].get("invocations"), None);
}

#[cfg(feature = "diff")]
mod diff {
    use serde_json::{Value, json};

    use crate::diff::{Surface, compare};

    fn surface(server: Option<&str>, tools: Value) -> Surface {
        let mut json = json!({"tools": tools});
        if let Some(name) = server {
            json["server"] = json!({"name": name, "version": "1.0.0"});
        }
        Surface::from_json(json).unwrap()
    }

    /// Each result's fully qualified logical location and fingerprint, and the run.
    fn located(old: &Surface, new: &Surface) -> (Vec<(String, String)>, Value) {
        let sarif = compare(old, new).to_sarif_between(old, new).to_json();
        (super::located(&sarif), sarif["runs"][0].clone())
    }

    #[test]
    fn the_changes_are_named_after_the_server_the_surfaces_name() {
        let tools = json!([{"name": "add", "inputSchema": {"type": "object"}}]);
        let old = surface(Some("calc"), tools);
        let same = surface(Some("calc"), json!([]));
        let (results, run) = located(&old, &same);
        assert_eq!(results[0].0, "calc/tool/add");
        assert_eq!(
            run["properties"]["servers"],
            json!({"old": "calc", "new": "calc"})
        );
        assert_eq!(run.get("invocations"), None, "the same name: no note");

        let renamed = surface(Some("calculator"), json!([]));
        let (renamed_results, run) = located(&old, &renamed);
        assert_eq!(renamed_results[0].0, "calculator/tool/add");
        assert_ne!(
            renamed_results[0].1, results[0].1,
            "the name is in the print"
        );
        assert_eq!(
            run["properties"]["servers"],
            json!({"old": "calc", "new": "calculator"})
        );
        let note = run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
            .as_str()
            .unwrap();
        assert!(
            note.contains("`calc` (old) and `calculator` (new)"),
            "{note}"
        );

        // Only the old side knows: its name. Neither: as `to_sarif`, and a name given after wins.
        let unknown = surface(None, json!([]));
        assert_eq!(located(&old, &unknown).0[0].0, "calc/tool/add");
        let anonymous = surface(
            None,
            json!([{"name": "add", "inputSchema": {"type": "object"}}]),
        );
        let (results, run) = located(&anonymous, &unknown);
        assert_eq!(results[0].0, "server/tool/add");
        assert_eq!(run.get("properties"), None);
        let given = compare(&old, &renamed)
            .to_sarif_between(&old, &renamed)
            .server("weather")
            .to_json();
        assert_eq!(
            given["runs"][0]["results"][0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
            "weather/tool/add"
        );
    }
}

#[cfg(feature = "lint")]
#[test]
fn a_lint_log_is_named_after_the_linted_server() {
    let surface = crate::diff::Surface::from_json(json!({
        "server": {"name": "calc"},
        "tools": [{"name": "add", "description": "Adds\u{200b}two.", "inputSchema": {"type": "object"}}],
    }))
    .unwrap();
    let sarif = crate::lint::Lint::new().run(&surface).to_sarif().to_json();
    let names = located(&sarif);
    assert!(!names.is_empty());
    assert!(
        names.iter().all(|(name, _)| name.starts_with("calc/")),
        "{names:?}"
    );
}
