//! The official schemas our reports are held to (`tests/schemas/`): SARIF 2.1.0 for every
//! `--sarif` file and `to_sarif()` log.

use std::{path::PathBuf, sync::OnceLock};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The OASIS schema's SHA-256, as `tests/schemas/README.md` records it.
const SARIF_SCHEMA_SHA256: &str =
    "c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e";

fn schema_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schemas")
}

fn sarif_validator() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let path = schema_dir().join("sarif-schema-2.1.0.json");
        let bytes =
            std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            digest,
            SARIF_SCHEMA_SHA256,
            "{} is not the OASIS schema the README names",
            path.display()
        );
        let schema: Value = serde_json::from_slice(&bytes).expect("the SARIF schema is JSON");
        jsonschema::options()
            .with_draft(jsonschema::Draft::Draft4)
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles")
    })
}

/// Every way `log` breaks the official SARIF 2.1.0 schema, as `pointer: message`.
pub fn sarif_violations(log: &Value) -> Vec<String> {
    sarif_validator()
        .iter_errors(log)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

/// Panics, listing each violation, unless `log` is valid SARIF 2.1.0 that code scanning
/// takes: the official schema, and what GitHub adds (every result has a rule id, a
/// location, and a fingerprint; every rule an absolute `helpUri`).
#[track_caller]
pub fn assert_sarif(log: &Value) {
    let violations = sarif_violations(log);
    assert!(
        violations.is_empty(),
        "not valid SARIF 2.1.0:\n{}\n{log:#}",
        violations.join("\n")
    );
    for run in log["runs"].as_array().expect("runs") {
        for rule in run["tool"]["driver"]["rules"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let uri = rule["helpUri"].as_str().unwrap_or_default();
            assert!(
                uri.starts_with("https://"),
                "helpUri not absolute: {rule:#}"
            );
        }
        for result in run["results"].as_array().into_iter().flatten() {
            assert!(result["ruleId"].is_string(), "no ruleId: {result:#}");
            assert!(
                result["locations"]
                    .as_array()
                    .is_some_and(|l| !l.is_empty()),
                "no location: {result:#}"
            );
            assert!(
                result["partialFingerprints"]["mcpAssured/v1"].is_string(),
                "no fingerprint: {result:#}"
            );
        }
    }
}

/// The published schema of every `--json` output (`schemas/report.schema.json`), held to
/// document `name` (`Check`, `Fuzz`, `Lint`, `Bench`, `Diff`, `Coverage`, `List`, `Failed`).
fn report_validator(name: &str) -> &'static jsonschema::Validator {
    static VALIDATORS: OnceLock<
        std::sync::Mutex<std::collections::HashMap<String, &'static jsonschema::Validator>>,
    > = OnceLock::new();
    let validators = VALIDATORS.get_or_init(Default::default);
    let mut validators = validators.lock().unwrap();
    validators.entry(name.to_owned()).or_insert_with(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../schemas/report.schema.json");
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        let mut schema: Value = serde_json::from_str(&text).expect("the report schema is JSON");
        let object = schema.as_object_mut().expect("an object");
        object.remove("anyOf");
        object.insert("$ref".into(), Value::String(format!("#/$defs/{name}")));
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .build(&schema)
            .expect("the report schema compiles");
        Box::leak(Box::new(validator))
    })
}

/// Every way `output` breaks document `name` of the published report schema, as
/// `pointer: message`.
pub fn report_violations(name: &str, output: &Value) -> Vec<String> {
    report_validator(name)
        .iter_errors(output)
        .map(|error| format!("{}: {error}", error.instance_path()))
        .collect()
}

/// The document of `command`'s `--json` output in the published schema, for the commands it
/// covers.
pub fn document_of(command: &str) -> Option<&'static str> {
    Some(match command {
        "check" => "Check",
        "fuzz" => "Fuzz",
        "lint" => "Lint",
        "bench" => "Bench",
        "diff" => "Diff",
        "coverage" => "Coverage",
        "list" => "List",
        _ => return None,
    })
}

/// Panics, listing each violation, unless `output` (what `mcp-assured command --json`
/// printed) is valid against the published schema: `command`'s document, or `Failed` when
/// it holds an `error`.
#[track_caller]
pub fn assert_report(command: &str, output: &Value) {
    let Some(document) = document_of(command) else {
        return;
    };
    let document = if output.get("error").is_some() {
        "Failed"
    } else {
        document
    };
    let violations = report_violations(document, output);
    assert!(
        violations.is_empty(),
        "`{command} --json` breaks schemas/report.schema.json ({document}):\n{}\n{output:#}",
        violations.join("\n")
    );
}

/// Holds what `mcp-assured args` printed on stdout to the published schema, when `args` ask
/// for `--json` from a command the schema covers and stdout is JSON (a usage error of
/// clap's is not).
#[track_caller]
pub fn assert_json_output(args: &[&str], stdout: &[u8]) {
    if !args.contains(&"--json") {
        return;
    }
    let Some(command) = args.iter().find(|arg| document_of(arg).is_some()) else {
        return;
    };
    if let Ok(document) = serde_json::from_slice::<Value>(stdout) {
        assert_report(command, &document);
    }
}
