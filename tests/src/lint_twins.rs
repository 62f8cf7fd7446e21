//! The lint twins (`tests/peers/lint_twins_server.py`): for every rule family of
//! `mcp-assured lint`, a vulnerable server and its safe twin, on the Python SDK.

use std::{ffi::OsString, process::Command};

use serde_json::Value;

use crate::peers;

/// The script, to run with [`peers::python`]: `SCRIPT TWIN vulnerable|safe`, `SCRIPT --mail`
/// or `SCRIPT --many N`.
pub fn script() -> OsString {
    peers::sources_file("lint_twins_server.py").into_os_string()
}

/// Every twin: `{"twin", "category", "profile", "needs", "vulnerable", "safe"}`.
pub fn twins() -> Vec<Value> {
    let output = Command::new(peers::python())
        .arg(script())
        .arg("--list")
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("the twins are UTF-8 JSON lines")
        .lines()
        .map(|line| serde_json::from_str(line).expect("a twin is one JSON line"))
        .collect()
}
