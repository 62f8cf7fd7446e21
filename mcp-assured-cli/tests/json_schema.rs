//! `schemas/report.schema.json` is `mcp_assured_cli::output::schema()`, generated from the
//! types every `--json` output is serialised from; with `MCP_ASSURED_UPDATE_SCHEMA=1`, the
//! test writes it instead of comparing. It is a valid draft 2020-12 schema, and its typed
//! enums hold what the outputs say. (Every `--json` output of the tests is validated against
//! it: `support::run` and `mcp_assured_tests::schemas::assert_report`.)

use std::path::Path;

use serde_json::{Value, json};

fn published() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/report.schema.json")
}

#[test]
fn the_published_schema_is_generated_from_the_output_types() {
    let schema = mcp_assured_cli::output::schema();
    let text = format!("{}\n", serde_json::to_string_pretty(&schema).unwrap());
    if std::env::var_os("MCP_ASSURED_UPDATE_SCHEMA").is_some() {
        std::fs::write(published(), &text).unwrap();
        return;
    }
    let written = std::fs::read_to_string(published()).unwrap_or_default();
    assert!(
        written == text,
        "schemas/report.schema.json is out of date: run `MCP_ASSURED_UPDATE_SCHEMA=1 cargo test \
         -p mcp-assured-cli --test json_schema`, and bump output::VERSION as its docs say \
         (a field removed or retyped is a major version)"
    );
}

#[test]
fn the_schema_is_valid_draft_2020_12_with_typed_enums() {
    let schema = mcp_assured_cli::output::schema();
    jsonschema::meta::validate(&schema).expect("a valid JSON Schema");
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["x-version"], mcp_assured_cli::output::VERSION);
    let defs = &schema["$defs"];
    let values = |name: &str| -> Vec<String> {
        let def = &defs[name];
        let mut found: Vec<String> = def["enum"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(
                def["oneOf"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|one| one.get("const").or(one.get("enum").and_then(|e| e.get(0)))),
            )
            .map(|value| value.as_str().unwrap().to_owned())
            .collect();
        found.sort();
        found
    };
    assert_eq!(values("Status"), ["failed", "passed", "skipped", "warned"]);
    assert!(values("FuzzFindingKind").contains(&"crash_as_tool_error".to_owned()));
    assert!(values("FuzzFindingKind").contains(&"jsonrpc_error".to_owned()));
    assert_eq!(values("LintSeverity"), ["fail", "info", "warn"]);
    assert_eq!(
        values("SubjectKind"),
        ["prompt", "resource", "resource_template", "server", "tool"]
    );
    assert_eq!(values("ChangeSeverity"), ["breaking", "compatible"]);
    assert!(values("ChangeKind").contains(&"required_argument_added".to_owned()));
    assert_eq!(
        values("Level"),
        ["MUST", "MUST NOT", "SHOULD", "SHOULD NOT", "no keyword"]
    );
    for document in [
        "Check", "Fuzz", "Lint", "Bench", "Diff", "Coverage", "List", "Failed",
    ] {
        assert!(defs[document].is_object(), "{document}");
    }
}

#[test]
fn an_output_that_breaks_the_schema_is_refused() {
    let check = json!({
        "protocol_checks": [{"suite": "protocol-checks", "name": "ping", "status": "fine", "message": ""}],
        "target": "x", "server": {"name": "s", "version": "1", "protocolVersion": "2025-11-25", "capabilities": {}},
        "summary": {"total": 1, "passed": 1, "failed": 0, "skipped": 0, "all_passed": true},
    });
    let violations = mcp_assured_tests::schemas::report_violations("Check", &check);
    assert!(
        violations
            .iter()
            .any(|violation| violation.contains("/protocol_checks/0/status")),
        "{violations:?}"
    );
    let mut fixed: Value = check.clone();
    fixed["protocol_checks"][0]["status"] = json!("passed");
    assert_eq!(
        mcp_assured_tests::schemas::report_violations("Check", &fixed),
        Vec::<String>::new()
    );
}
