//! The binary driven by another MCP client implementation: the official Python SDK's
//! (`tests/python_client.py`), over stdio, testing our example server.

use mcp_assured_tests::{example_server_binary, peers};
use serde_json::{Value, json};

#[test]
fn the_python_sdk_client_drives_the_binary() {
    let output = std::process::Command::new(peers::python())
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python_client.py"
        ))
        .arg(env!("CARGO_BIN_EXE_mcp-assured"))
        .arg(example_server_binary())
        .output()
        .expect("run python");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "python failed: {stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    assert_eq!(report["server"], json!("mcp-assured"));
    assert!(
        report["tools"]
            .as_array()
            .unwrap()
            .contains(&json!("connect_to_server"))
    );
    assert_eq!(report["connected"]["success"], json!(true));
    assert_eq!(
        report["connected"]["connection"]["transport"],
        json!("stdio")
    );
    assert_eq!(report["called_is_error"], json!(false));
    assert_eq!(
        report["called"]["tool_call"]["result"]["content"][0]["text"],
        json!("from python")
    );
    assert_eq!(report["unknown_is_error"], json!(true));
    assert_eq!(
        report["unknown"]["error"]["type"],
        json!("resource_not_found")
    );
}
