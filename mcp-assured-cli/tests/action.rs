//! The GitHub Action's script (`.github/action/run.sh`, which `action.yml` runs) against the
//! example server, with this build of the binary: `check` writes the JUnit report,
//! `snapshot --check` passes on matching snapshots, and a difference fails the step.

mod support;

use std::{
    path::{Path, PathBuf},
    process::{Command, Output},
};

use mcp_assured::fixture::free_port;
use mcp_assured_tests::{example_server_binary, peers};

use support::{printed, run};

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The action's script, run at the repository's root as a workflow's step runs at the
/// checkout's.
fn action(env: &[(&str, &str)]) -> Output {
    Command::new("bash")
        .current_dir(repository())
        .arg(repository().join(".github/action/run.sh"))
        .env("MCP_ASSURED_BIN", env!("CARGO_BIN_EXE_mcp-assured"))
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .output()
        .expect("run the action's script")
}

#[test]
fn the_action_checks_and_compares_snapshots() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-action-{}-{}",
        std::process::id(),
        free_port().unwrap()
    ));
    let snapshots = dir.join("snapshots");
    let junit = dir.join("junit.xml");
    let example = example_server_binary();
    let server = example.to_str().unwrap();
    let call = r#"echo={"message":"hi"}"#;
    let written = run(
        &[
            "snapshot",
            "--dir",
            snapshots.to_str().unwrap(),
            "--call",
            call,
            "--",
            server,
        ],
        &[],
    );
    assert!(written.status.success(), "{}", printed(&written));
    let inputs = [
        ("INPUT_SERVER", server),
        ("INPUT_SNAPSHOTS", snapshots.to_str().unwrap()),
        ("INPUT_CALLS", call),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_ARGS", "--timeout 20"),
    ];

    let passed = action(&inputs);
    assert!(passed.status.success(), "{}", printed(&passed));
    let report = std::fs::read_to_string(&junit).unwrap();
    assert!(report.contains("<testsuites"), "{report}");
    assert!(
        printed(&passed).contains("unchanged"),
        "{}",
        printed(&passed)
    );

    let changed = snapshots.join("mcp-assured-example__call_echo.snap");
    let text = std::fs::read_to_string(&changed).unwrap();
    std::fs::write(&changed, text.replace("\"hi\"", "\"bye\"")).unwrap();
    let failed = action(&inputs);
    assert_eq!(failed.status.code(), Some(1), "{}", printed(&failed));
    assert!(
        printed(&failed).contains("+        \"text\": \"hi\","),
        "{}",
        printed(&failed)
    );

    // A check named in `skip` (the example server passes everything: skipped, it says so).
    let skipping = action(&[
        ("INPUT_SERVER", server),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_SKIP", "errors.unknown_tool\nhttp.*"),
    ]);
    assert!(skipping.status.success(), "{}", printed(&skipping));
    assert!(
        printed(&skipping).contains("SKIP errors.unknown_tool: skipped on request; it found: PASS"),
        "{}",
        printed(&skipping)
    );

    let nothing = action(&[("INPUT_JUNIT", junit.to_str().unwrap())]);
    assert_eq!(nothing.status.code(), Some(2), "{}", printed(&nothing));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `action.yml` hands every input it declares to the script, which reads each one.
#[test]
fn the_action_passes_every_input_to_its_script() {
    let action = std::fs::read_to_string(repository().join("action.yml")).unwrap();
    let script = std::fs::read_to_string(repository().join(".github/action/run.sh")).unwrap();
    assert!(action.contains("run: bash \"$GITHUB_ACTION_PATH/.github/action/run.sh\""));
    for input in [
        "server",
        "config",
        "server-name",
        "snapshots",
        "calls",
        "skip",
        "lint",
        "lint-args",
        "sarif",
        "sarif-dir",
        "sarif-artifact",
        "coverage",
        "coverage-args",
        "coverage-html",
        "args",
        "junit",
    ] {
        let variable = format!("INPUT_{}", input.to_uppercase().replace('-', "_"));
        assert!(
            action.contains(&format!("  {input}:\n")),
            "input `{input}` is not declared"
        );
        assert!(
            action.contains(&format!("{variable}: ${{{{ inputs.{input} }}}}")),
            "input `{input}` is not passed as {variable}"
        );
        assert!(
            script.contains(&variable),
            "the script does not read {variable}"
        );
    }
    // What it writes with `sarif: true`, it uploads.
    assert!(action.contains("uses: github/codeql-action/upload-sarif@v4"));
    assert!(action.contains("sarif_file: ${{ inputs.sarif-dir }}"));
}

#[test]
fn the_action_fuzzes_when_asked_and_fails_on_a_finding() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-action-fuzz-{}-{}",
        std::process::id(),
        free_port().unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let junit = dir.join("junit.xml");
    let fuzz_junit = dir.join("fuzz.xml");
    let example = example_server_binary();
    let clean = action(&[
        ("INPUT_SERVER", example.to_str().unwrap()),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_FUZZ", "true"),
        ("INPUT_FUZZ_ARGS", "--tool echo --cases 20 --seed 4"),
        ("INPUT_FUZZ_JUNIT", fuzz_junit.to_str().unwrap()),
    ]);
    assert!(clean.status.success(), "{}", printed(&clean));
    assert!(
        printed(&clean).contains("PASS fuzz.tools.echo"),
        "{}",
        printed(&clean)
    );
    let report = std::fs::read_to_string(&fuzz_junit).unwrap();
    assert!(report.contains("fuzz.tools.echo"), "{report}");

    // The example's `hang` tool never answers: a finding, and the step fails.
    let found = action(&[
        ("INPUT_SERVER", example.to_str().unwrap()),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_FUZZ", "true"),
        (
            "INPUT_FUZZ_ARGS",
            "--tool hang --cases 4 --call-timeout 1 --seed 4",
        ),
        ("INPUT_FUZZ_JUNIT", fuzz_junit.to_str().unwrap()),
    ]);
    assert_eq!(found.status.code(), Some(1), "{}", printed(&found));
    let report = std::fs::read_to_string(&fuzz_junit).unwrap();
    assert!(report.contains("fuzz.tools.hang.hang"), "{report}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_action_lints_when_asked_and_fails_on_a_finding() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-action-lint-{}-{}",
        std::process::id(),
        free_port().unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let junit = dir.join("junit.xml");
    let twin = |side: &str| {
        format!(
            "{} {} conceal {side}",
            peers::python().display(),
            peers::sources_file("lint_twins_server.py").display()
        )
    };
    let clean = action(&[
        ("INPUT_SERVER", &twin("safe")),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_LINT", "true"),
    ]);
    assert!(clean.status.success(), "{}", printed(&clean));
    assert!(
        printed(&clean).contains("0 failed, 0 warned; the surface costs"),
        "{}",
        printed(&clean)
    );
    let found = action(&[
        ("INPUT_SERVER", &twin("vulnerable")),
        ("INPUT_JUNIT", junit.to_str().unwrap()),
        ("INPUT_LINT", "true"),
    ]);
    assert_eq!(found.status.code(), Some(1), "{}", printed(&found));
    assert!(
        printed(&found).contains("FAIL instruction-injection.conceal tool `conceal`"),
        "{}",
        printed(&found)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `sarif: true`: check, fuzz and lint each write valid SARIF in `sarif-dir`, each its own
/// code-scanning category, every result pointing to the script the server runs, which is
/// what `action.yml` uploads with `github/codeql-action/upload-sarif`.
#[test]
fn the_action_writes_sarif_for_code_scanning_when_asked() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-action-sarif-{}-{}",
        std::process::id(),
        free_port().unwrap()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let sarif_dir = dir.join("sarif");
    let server = format!(
        "{} {} conceal vulnerable",
        peers::python().display(),
        peers::sources_file("lint_twins_server.py").display()
    );
    let found = action(&[
        ("INPUT_SERVER", &server),
        ("INPUT_JUNIT", dir.join("junit.xml").to_str().unwrap()),
        ("INPUT_FUZZ", "true"),
        ("INPUT_FUZZ_ARGS", "--cases 5 --seed 4"),
        (
            "INPUT_FUZZ_JUNIT",
            dir.join("fuzz-junit.xml").to_str().unwrap(),
        ),
        ("INPUT_LINT", "true"),
        ("INPUT_SARIF", "true"),
        ("INPUT_SARIF_DIR", sarif_dir.to_str().unwrap()),
    ]);
    assert_eq!(found.status.code(), Some(1), "{}", printed(&found));
    let mut categories = Vec::new();
    for command in ["check", "fuzz", "lint"] {
        let path = sarif_dir.join(format!("{command}.sarif"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}\n{}", path.display(), printed(&found)));
        let log: serde_json::Value = serde_json::from_str(&text).unwrap();
        mcp_assured_tests::schemas::assert_sarif(&log);
        categories.push(log["runs"][0]["automationDetails"]["id"].clone());
        for result in log["runs"][0]["results"].as_array().unwrap() {
            let uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                .as_str()
                .unwrap_or_default();
            assert!(uri.ends_with("lint_twins_server.py"), "{result:#}");
        }
        if command == "lint" {
            assert!(text.contains("instruction-injection.conceal"), "{text}");
        }
    }
    assert_eq!(
        categories,
        [
            "mcp-assured/check/",
            "mcp-assured/fuzz/",
            "mcp-assured/lint/"
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_action_reports_the_coverage_recorded_and_fails_below_a_threshold() {
    let dir = std::env::temp_dir().join(format!(
        "mcp-assured-action-coverage-{}-{}",
        std::process::id(),
        free_port().unwrap()
    ));
    let records = dir.join("records");
    let html = dir.join("coverage.html");
    let example = example_server_binary();
    // What a test step recorded before: one call of `echo`.
    let recorded = run(
        &[
            "call",
            "echo",
            "--args-json",
            r#"{"message":"hi"}"#,
            "--",
            example.to_str().unwrap(),
        ],
        &[("MCP_ASSURED_COVERAGE", records.to_str().unwrap())],
    );
    assert!(recorded.status.success(), "{}", printed(&recorded));
    let records = records.to_str().unwrap();
    let junit = dir.join("junit.xml");
    let run_with_minimum = |minimum: &str| {
        let minimum = format!("--min-tools {minimum}");
        action(&[
            ("INPUT_SERVER", example.to_str().unwrap()),
            ("INPUT_JUNIT", junit.to_str().unwrap()),
            ("INPUT_COVERAGE", records),
            ("INPUT_COVERAGE_ARGS", &minimum),
            ("INPUT_COVERAGE_HTML", html.to_str().unwrap()),
        ])
    };
    let passed = run_with_minimum("1");
    assert!(passed.status.success(), "{}", printed(&passed));
    let shown = printed(&passed);
    assert!(
        shown.contains("MCP surface coverage of mcp-assured-example"),
        "{shown}"
    );
    // The test step's record, and those of `check`, merged.
    assert!(!shown.contains("(1 record)"), "{shown}");
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("mcp-assured-example"), "{page}");

    let failed = run_with_minimum("100");
    assert_eq!(failed.status.code(), Some(1), "{}", printed(&failed));
    assert!(
        printed(&failed).contains("below the minimum of 100%"),
        "{}",
        printed(&failed)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
