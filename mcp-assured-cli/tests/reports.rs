//! The reports people's tools read, from every command that judges a server: `--sarif FILE`
//! from `check`, `fuzz`, `lint`, `diff` and `bench`, each validated against the official
//! SARIF 2.1.0 schema (and what GitHub's code scanning adds: a rule id, a file and a
//! fingerprint on every result, absolute help links); the same fuzz seed giving the same
//! rule ids and fingerprints.

mod support;

use std::path::Path;

use mcp_assured_tests::{
    example_server_binary,
    lint_twins::script as twins_script,
    peers::{self, SELFTEST_SERVER},
    schemas::assert_sarif,
};
use serde_json::{Value, json};

use support::{printed, rendered, run, scratch};

/// Runs `mcp-assured args`, which must exit with `status` and write SARIF to `sarif`; the
/// log, validated.
#[track_caller]
fn sarif_of(args: &[&str], sarif: &Path, status: i32) -> Value {
    let output = run(args, &[]);
    assert_eq!(output.status.code(), Some(status), "{}", printed(&output));
    let log = read_json(sarif);
    assert_sarif(&log);
    log
}

fn read_json(path: &Path) -> Value {
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Each result's (ruleId, level, fingerprint, file, fully qualified logical location).
fn results(sarif: &Value) -> Vec<(String, String, String, String, String)> {
    sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|result| {
            let location = &result["locations"][0];
            let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
            (
                text(&result["ruleId"]),
                text(&result["level"]),
                text(&result["partialFingerprints"]["mcpAssured/v1"]),
                text(&location["physicalLocation"]["artifactLocation"]["uri"]),
                text(&location["logicalLocations"][0]["fullyQualifiedName"]),
            )
        })
        .collect()
}

fn rule_ids(sarif: &Value) -> Vec<String> {
    sarif["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|rule| rule["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn check_writes_sarif_of_its_failures_pointing_to_the_config_file() {
    let dir = scratch("reports-check");
    let config = dir.join("mcp.json");
    let python = peers::python();
    std::fs::write(
        &config,
        json!({"mcpServers": {"selftest": {"command": python, "args": [SELFTEST_SERVER]}}})
            .to_string(),
    )
    .unwrap();
    let sarif = dir.join("check.sarif");
    let log = sarif_of(
        &[
            "check",
            "--config",
            config.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--sarif-artifact",
            "servers/mcp.json",
        ],
        &sarif,
        1,
    );
    let found = results(&log);
    assert!(
        found
            .iter()
            .any(|(rule, level, ..)| rule.starts_with("mcp.test.") && level == "error"),
        "{found:?}"
    );
    assert!(
        found.iter().all(|(.., file, _)| file == "servers/mcp.json"),
        "{found:?}"
    );
    assert!(
        found.iter().all(|(.., server)| server == "selftest-server"),
        "{found:?}"
    );
    let driver = &log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["name"], "mcp-assured");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    // Without --sarif-artifact, the config file, as given.
    let log = sarif_of(
        &[
            "check",
            "--config",
            config.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
        ],
        &sarif,
        1,
    );
    let config_uri = config.to_str().unwrap();
    assert!(
        results(&log).iter().all(|(.., file, _)| file == config_uri),
        "{:?}",
        results(&log)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn check_pinned_points_its_result_to_the_pinned_file() {
    let dir = scratch("reports-pinned");
    let pinned = dir.join("surface.json");
    // A pin of a server that had one tool, `add`, since gone or changed.
    std::fs::write(
        &pinned,
        json!({"tools": [{"name": "add", "description": "Adds two numbers.",
            "inputSchema": {"type": "object"}}]})
        .to_string(),
    )
    .unwrap();
    let sarif = dir.join("pinned.sarif");
    let example = example_server_binary();
    let log = sarif_of(
        &[
            "check",
            "--no-server-tests",
            "--pinned",
            pinned.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--",
            example.to_str().unwrap(),
        ],
        &sarif,
        1,
    );
    let found = results(&log);
    let pinned_result = found
        .iter()
        .find(|(rule, ..)| rule == "pinned")
        .unwrap_or_else(|| panic!("no pinned result: {found:?}"));
    assert_eq!(pinned_result.3, pinned.to_str().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn fuzz_planted(dir: &Path, name: &str, extra: &[&str]) -> Value {
    let sarif = dir.join(format!("{name}.sarif"));
    let python = peers::python();
    let script = peers::planted_bugs_server_script();
    let mut args = vec![
        "fuzz",
        "--seed",
        "21",
        "--cases",
        "20",
        "--call-timeout",
        "2",
        "--tool",
        "greet",
        "--tool",
        "scale",
        "--tool",
        "lookup",
        "--sarif",
        sarif.to_str().unwrap(),
    ];
    args.extend(extra);
    args.extend(["--", python.to_str().unwrap(), script.to_str().unwrap()]);
    sarif_of(&args, &sarif, 1)
}

#[test]
fn fuzz_sarif_names_each_finding_and_the_same_seed_gives_the_same_alerts() {
    let dir = scratch("reports-fuzz");
    let regressions = dir.join("regressions.json");
    let first = fuzz_planted(&dir, "first", &[]);
    let second = fuzz_planted(&dir, "second", &[]);
    assert_sarif(&first);
    assert_sarif(&second);
    let identity = |sarif: &Value| -> Vec<(String, String, String)> {
        let mut found: Vec<_> = results(sarif)
            .into_iter()
            .map(|(rule, _, print, _, subject)| (rule, print, subject))
            .collect();
        found.sort();
        found
    };
    assert_eq!(identity(&first), identity(&second));
    let found = results(&first);
    assert!(
        found
            .iter()
            .any(|(rule, level, _, _, subject)| rule == "fuzz.crash"
                && level == "error"
                && subject == "mcp-assured-planted-bugs/tool/greet"),
        "{found:?}"
    );
    assert!(
        found.iter().any(|(rule, ..)| rule == "fuzz.output_schema"),
        "{found:?}"
    );
    // A finding carries its input and reproductions, for the reader of the alert.
    let crash = first["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|result| result["ruleId"] == "fuzz.crash")
        .unwrap();
    assert_eq!(crash["properties"]["seed"], 21);
    assert!(
        crash["properties"]["reproduce"]["command"]
            .as_str()
            .unwrap()
            .starts_with("mcp-assured call greet"),
        "{crash:#}"
    );
    assert!(
        rule_ids(&first).contains(&"fuzz.crash".to_owned()),
        "{:?}",
        rule_ids(&first)
    );
    // With a regression file, the results point to it.
    let with_file = fuzz_planted(
        &dir,
        "regressions",
        &["--regressions", regressions.to_str().unwrap()],
    );
    assert_sarif(&with_file);
    assert!(
        results(&with_file)
            .iter()
            .all(|(.., file, _)| file == regressions.to_str().unwrap()),
        "{:?}",
        results(&with_file)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn lint_sarif_tags_security_rules_and_names_the_tool_and_where() {
    let dir = scratch("reports-lint");
    let sarif = dir.join("lint.sarif");
    let python = peers::python();
    let script = twins_script();
    let log = sarif_of(
        &[
            "lint",
            "--sarif",
            sarif.to_str().unwrap(),
            "--sarif-artifact",
            "server.py",
            "--",
            python.to_str().unwrap(),
            script.to_str().unwrap(),
            "tag-characters",
            "vulnerable",
        ],
        &sarif,
        1,
    );
    let found = results(&log);
    let (_, level, _, file, subject) = found
        .iter()
        .find(|(rule, ..)| rule == "hidden-unicode.tag-characters")
        .unwrap_or_else(|| panic!("{found:?}"));
    assert_eq!(level, "error");
    assert_eq!(file, "server.py");
    assert!(subject.contains("/tool/"), "{subject}");
    let rule = log["runs"][0]["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|rule| rule["id"] == "hidden-unicode.tag-characters")
        .unwrap();
    assert_eq!(
        rule["helpUri"],
        "https://github.com/mcp-assured/mcp-assured/blob/main/docs/lint-rules.md#hidden-unicodetag-characters"
    );
    assert!(
        rule["properties"]["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("security")),
        "{rule:#}"
    );
    // The safe twin: a log with no result.
    let log = sarif_of(
        &[
            "lint",
            "--sarif",
            sarif.to_str().unwrap(),
            "--",
            python.to_str().unwrap(),
            script.to_str().unwrap(),
            "tag-characters",
            "safe",
        ],
        &sarif,
        0,
    );
    assert!(
        !results(&log)
            .iter()
            .any(|(rule, ..)| rule.starts_with("hidden-unicode")),
        "{:?}",
        results(&log)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn diff_sarif_points_to_the_baseline_and_breaking_is_an_error() {
    let dir = scratch("reports-diff");
    let old = dir.join("old.json");
    let new = dir.join("new.json");
    let tool = |required: Value| {
        json!({"name": "weather", "inputSchema": {"type": "object",
            "properties": {"city": {"type": "string"}, "units": {"type": "string"}},
            "required": required}})
    };
    std::fs::write(&old, json!({"tools": [tool(json!(["city"]))]}).to_string()).unwrap();
    std::fs::write(
        &new,
        json!({"tools": [tool(json!(["city", "units"])), {"name": "radar", "inputSchema": {"type": "object"}}]})
            .to_string(),
    )
    .unwrap();
    let sarif = dir.join("diff.sarif");
    let log = sarif_of(
        &[
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
            "--name",
            "weather-server",
        ],
        &sarif,
        0,
    );
    let found = results(&log);
    let summary: Vec<(&str, &str, &str, &str)> = found
        .iter()
        .map(|(rule, level, _, file, subject)| {
            (
                rule.as_str(),
                level.as_str(),
                file.as_str(),
                subject.as_str(),
            )
        })
        .collect();
    let old_uri = old.to_str().unwrap();
    assert_eq!(
        summary,
        [
            (
                "diff.argument_made_required",
                "error",
                old_uri,
                "weather-server/tool/weather/inputSchema/properties/units"
            ),
            (
                "diff.tool_added",
                "note",
                old_uri,
                "weather-server/tool/radar"
            ),
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The issue's case: two surface files that carry `server.name`. The results are named after
/// it (not `server`), the run says which name each side gives, and when they differ says so;
/// `--name` still wins.
#[test]
fn diff_sarif_names_the_server_the_surfaces_name_and_says_when_they_differ() {
    let dir = scratch("reports-diff-names");
    let (old, new, sarif) = (
        dir.join("old.json"),
        dir.join("new.json"),
        dir.join("diff.sarif"),
    );
    let surface = |name: &str, tools: Value| json!({"server": {"name": name, "version": "1.0.0"}, "tools": tools});
    let weather = json!([{"name": "weather", "inputSchema": {"type": "object"}}]);
    std::fs::write(&old, surface("holdout-surface", weather).to_string()).unwrap();
    let diff_sarif = |extra: &[&str]| {
        let mut args = vec![
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--sarif",
            sarif.to_str().unwrap(),
        ];
        args.extend(extra);
        let log = sarif_of(&args, &sarif, 0);
        let run = log["runs"][0].clone();
        (results(&log), run)
    };

    std::fs::write(&new, surface("holdout-surface", json!([])).to_string()).unwrap();
    let (same, run) = diff_sarif(&[]);
    assert_eq!(same.len(), 1, "{same:?}");
    assert_eq!(same[0].0, "diff.tool_removed");
    assert_eq!(same[0].4, "holdout-surface/tool/weather");
    assert_eq!(
        run["properties"]["servers"],
        json!({"old": "holdout-surface", "new": "holdout-surface"})
    );
    assert_eq!(run.get("invocations"), None, "{run:#}");

    std::fs::write(&new, surface("holdout-surface-next", json!([])).to_string()).unwrap();
    let (renamed, run) = diff_sarif(&[]);
    assert_eq!(renamed[0].4, "holdout-surface-next/tool/weather");
    assert_ne!(
        renamed[0].2, same[0].2,
        "the server's name is in the fingerprint"
    );
    assert_eq!(
        run["properties"]["servers"],
        json!({"old": "holdout-surface", "new": "holdout-surface-next"})
    );
    let note = &run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
    assert!(
        note.as_str().unwrap().contains(
            "`holdout-surface` (old) and `holdout-surface-next` (new); the results are named \
             after the new side"
        ),
        "{run:#}"
    );

    let (named, _) = diff_sarif(&["--name", "weather-server"]);
    assert_eq!(named[0].4, "weather-server/tool/weather");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `lint --json` says which server was linted, as `check` and `list` do, and each finding's
/// subject in parts; with `--config` and several servers, each server by the name its
/// findings carry.
#[test]
fn lint_json_names_the_linted_server_and_each_subject_in_parts() {
    let python = peers::python();
    let script = twins_script();
    let (python, script) = (python.to_str().unwrap(), script.to_str().unwrap());
    let output = run(
        &[
            "lint",
            "--json",
            "--",
            python,
            script,
            "conceal",
            "vulnerable",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["server"],
        json!({"name": "lint-twin-conceal-vulnerable", "version": "1.0.0"})
    );
    assert_eq!(report.get("servers"), None);
    let conceal = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|finding| finding["rule"] == "instruction-injection.conceal")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(conceal["subject"], "tool `conceal`");
    assert_eq!(
        conceal["subject_ref"],
        json!({"kind": "tool", "name": "conceal", "server": "lint-twin-conceal-vulnerable"})
    );

    let dir = scratch("reports-lint-servers");
    let config = dir.join("mcp.json");
    let servers = json!({"mcpServers": {
        "mail": {"command": python, "args": [script, "--mail"]},
        "twin": {"command": python, "args": [script, "conceal", "vulnerable"]},
    }});
    std::fs::write(&config, servers.to_string()).unwrap();
    let page = dir.join("lint.html");
    let output = run(
        &[
            "lint",
            "--json",
            "--config",
            config.to_str().unwrap(),
            "--html",
            page.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report.get("server"), None);
    assert_eq!(
        report["servers"],
        json!([
            {"name": "mail", "server": {"name": "lint-mail", "version": "1.0.0"}},
            {"name": "twin", "server": {"name": "lint-twin-conceal-vulnerable", "version": "1.0.0"}},
        ])
    );
    let conceal = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|finding| finding["rule"] == "instruction-injection.conceal")
        .unwrap_or_else(|| panic!("{report:#}"));
    assert_eq!(conceal["server"], "twin");
    assert_eq!(conceal["subject_ref"]["server"], "twin");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains(
            "<h2>What the model sees: lint of mail (lint-mail 1.0.0), twin \
             (lint-twin-conceal-vulnerable 1.0.0)</h2>"
        ),
        "{html}"
    );
    assert!(
        html.contains("<dt>Servers</dt><dd>mail (lint-mail 1.0.0), twin"),
        "{html}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_sarif_holds_each_missed_threshold() {
    let dir = scratch("reports-bench");
    let sarif = dir.join("bench.sarif");
    let example = example_server_binary();
    let log = sarif_of(
        &[
            "bench",
            "--call",
            r#"echo={"message":"hi"}"#,
            "--calls",
            "30",
            "--max-p50",
            "0.0001",
            "--sarif",
            sarif.to_str().unwrap(),
            "--sarif-artifact",
            "bench.toml",
            "--",
            example.to_str().unwrap(),
        ],
        &sarif,
        1,
    );
    let found = results(&log);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "load-run.max_p50");
    assert_eq!(found[0].1, "error");
    assert_eq!(found[0].3, "bench.toml");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sarif_artifact_without_sarif_is_a_usage_error() {
    let output = run(&["lint", "--sarif-artifact", "x.json", "--", "true"], &[]);
    assert_eq!(output.status.code(), Some(2), "{}", printed(&output));
    assert!(printed(&output).contains("--sarif"), "{}", printed(&output));
}

#[test]
fn check_html_shows_each_verdict_with_its_grade_in_a_browser() {
    let dir = scratch("reports-check-html");
    let page = dir.join("check.html");
    let output = run(
        &[
            "check",
            "--html",
            page.to_str().unwrap(),
            "--",
            peers::python().to_str().unwrap(),
            SELFTEST_SERVER,
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    let dom = rendered(&page);
    assert!(
        dom.contains("<dt>Server</dt><dd>selftest-server 1.0.0</dd>"),
        "{dom}"
    );
    assert!(
        dom.contains("<dt>Revision</dt><dd>2025-11-25</dd>"),
        "{dom}"
    );
    assert!(
        dom.contains("<td class=\"verdict failed\">FAIL</td><td><code>mcp.test."),
        "{dom}"
    );
    assert!(
        dom.contains("<td class=\"verdict passed\">PASS</td><td><code>ping</code>"),
        "{dom}"
    );
    // A check's grade and the sentence it tests, linked.
    assert!(dom.contains("<td>MUST</td>"), "{dom}");
    assert!(
        dom.contains("<a href=\"https://modelcontextprotocol.io/specification/"),
        "{dom}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn fuzz_html_shows_each_finding_with_its_reproductions_in_a_browser() {
    let dir = scratch("reports-fuzz-html");
    let page = dir.join("fuzz.html");
    let log = fuzz_planted(&dir, "fuzz-html", &["--html", page.to_str().unwrap()]);
    let dom = rendered(&page);
    assert!(dom.contains("<dt>Seed</dt><dd>21</dd>"), "{dom}");
    // Every finding of the run, with its input, answer and both reproductions.
    for result in log["runs"][0]["results"].as_array().unwrap() {
        let kind = result["ruleId"]
            .as_str()
            .unwrap()
            .trim_start_matches("fuzz.");
        let tool = result["locations"][0]["logicalLocations"][0]["name"]
            .as_str()
            .unwrap();
        assert!(
            dom.contains(&format!("<code>{kind}</code> in tool <code>{tool}</code>")),
            "{kind} in {tool}: {dom}"
        );
    }
    assert!(dom.contains("<pre class=\"input\">"), "{dom}");
    assert!(dom.contains("<pre class=\"answer\">"), "{dom}");
    assert!(
        dom.contains("<pre class=\"command\">mcp-assured call greet"),
        "{dom}"
    );
    assert!(dom.contains("<pre class=\"test\">#[mcp_test("), "{dom}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn lint_html_groups_findings_by_category_in_a_browser() {
    let dir = scratch("reports-lint-html");
    let page = dir.join("lint.html");
    let output = run(
        &[
            "lint",
            "--html",
            page.to_str().unwrap(),
            "--",
            peers::python().to_str().unwrap(),
            twins_script().to_str().unwrap(),
            "conceal",
            "vulnerable",
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(1), "{}", printed(&output));
    let dom = rendered(&page);
    assert!(
        dom.contains("<h3 id=\"category-instruction-injection\">instruction-injection</h3>"),
        "{dom}"
    );
    assert!(
        dom.contains("<td><code>instruction-injection.conceal</code></td><td>tool `conceal`</td>"),
        "{dom}"
    );
    assert!(dom.contains("the surface costs"), "{dom}");
    // Which server it was of: in the title and the section's heading.
    assert!(
        dom.contains("<h1>mcp-assured lint: lint-twin-conceal-vulnerable 1.0.0</h1>"),
        "{dom}"
    );
    assert!(
        dom.contains("<h2>What the model sees: lint of lint-twin-conceal-vulnerable 1.0.0</h2>"),
        "{dom}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bench_html_plots_latency_and_throughput_in_a_browser() {
    let dir = scratch("reports-bench-html");
    let page = dir.join("bench.html");
    let example = example_server_binary();
    let output = run(
        &[
            "bench",
            "--call",
            r#"echo={"message":"hi"}@3"#,
            "--call",
            r#"add={"a":1,"b":2}"#,
            "--duration",
            "1.2",
            "--concurrency",
            "4",
            "--html",
            page.to_str().unwrap(),
            "--",
            example.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(output.status.code(), Some(0), "{}", printed(&output));
    let dom = rendered(&page);
    // A histogram and a percentile curve per tool, drawn; throughput over time.
    for tool in ["echo", "add"] {
        assert!(
            dom.contains(&format!("<title>{tool}: latency histogram</title>")),
            "{dom}"
        );
        assert!(
            dom.contains(&format!("<title>{tool}: latency by percentile</title>")),
            "{dom}"
        );
    }
    assert!(dom.matches("<rect class=\"bar\"").count() >= 2, "{dom}");
    assert!(dom.contains("<polyline class=\"series\""), "{dom}");
    assert!(dom.contains("<title>Throughput over time</title>"), "{dom}");
    assert!(
        dom.contains("<h3>Errors</h3>\n<p>No call failed.</p>"),
        "{dom}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The proof above can fail: a page that loads something from another host shows it as a
/// request of its own.
#[test]
fn the_browser_shows_each_request_a_page_makes() {
    let dir = scratch("reports-browser");
    let page = dir.join("loads.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><html><head><link rel=\"icon\" href=\"data:,\"></head><body>\
         <img src=\"http://cdn.example/logo.png\"></body></html>",
    )
    .unwrap();
    let rendered = mcp_assured_tests::browser::render(&page);
    assert!(
        rendered
            .requests
            .contains(&"GET /logo.png (cdn.example)".to_owned()),
        "{:?}",
        rendered.requests
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
