//! The echoing tool the checks send their markers through.

use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};

use crate::{client::McpClient, results::mcp::ToolResult, server_tests::is_test_tool};

/// A tool whose answer carries what it is given, and the string arguments to give it.
#[derive(Debug)]
pub(super) struct Echo {
    pub(super) tool: String,
    pub(super) fields: Vec<String>,
}

impl Echo {
    pub(super) fn arguments(&self, marker: &str) -> Value {
        let object: Map<String, Value> = self
            .fields
            .iter()
            .map(|field| (field.clone(), json!(marker)))
            .collect();
        Value::Object(object)
    }
}

/// Whether the answer carries `marker`, in its text or its structured content.
pub(super) fn carries(result: &ToolResult, marker: &str) -> bool {
    result.text().contains(marker)
        || result
            .structured_content
            .as_ref()
            .is_some_and(|content| content.to_string().contains(marker))
}

/// The tool `named`, or one whose name says `echo` (never another: a tool may act on what it
/// is given), that answers with a marker it is given in each string argument.
pub(super) async fn find_echo(client: &McpClient, named: Option<&str>) -> Result<Echo, String> {
    if client.server_info().capabilities.tools.is_none() {
        return Err("the server has no tools: no echoing tool to call".to_owned());
    }
    let tools = client
        .list_tools_json()
        .await
        .map_err(|error| format!("could not list the tools: {error}"))?;
    let mut tried = Vec::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap_or_default();
        let wanted = match named {
            Some(named) => name == named,
            None => name.to_ascii_lowercase().contains("echo") && !is_test_tool(name),
        };
        if !wanted {
            continue;
        }
        let echo = match string_fields(&tool["inputSchema"]) {
            Ok(fields) => Echo {
                tool: name.to_owned(),
                fields,
            },
            Err(why) => {
                tried.push(format!("`{name}` {why}"));
                continue;
            }
        };
        let marker = format!("mcp-assured-load-probe-{}", nonce());
        match client.call_tool(name, echo.arguments(&marker)).await {
            Ok(result) if result.is_error != Some(true) && carries(&result, &marker) => {
                return Ok(echo);
            }
            Ok(result) => tried.push(format!(
                "`{name}` did not answer with its argument: {}",
                shorten(&result.text())
            )),
            Err(error) => tried.push(format!("`{name}` failed: {error}")),
        }
    }
    Err(match (named, tried.is_empty()) {
        (Some(named), true) => {
            format!("the server has no tool `{named}` (CheckOptions::echo_tool)")
        }
        (None, true) => "no tool named like `echo` to send markers through (name one with \
                         CheckOptions::echo_tool, `--echo-tool` on the command line)"
            .to_owned(),
        (_, false) => format!("no echoing tool: {}", tried.join("; ")),
    })
}

/// The string arguments to put a marker in: the required ones, which must all be strings, or
/// every string property when none is required.
pub(super) fn string_fields(schema: &Value) -> Result<Vec<String>, String> {
    let properties = schema["properties"].as_object();
    let is_string = |field: &str| {
        properties
            .and_then(|properties| properties.get(field))
            .and_then(|property| property.get("type"))
            .and_then(Value::as_str)
            == Some("string")
    };
    let required: Vec<String> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    if let Some(other) = required.iter().find(|field| !is_string(field)) {
        return Err(format!("requires `{other}`, not a string"));
    }
    let fields = if required.is_empty() {
        properties
            .into_iter()
            .flatten()
            .filter(|(field, _)| is_string(field))
            .map(|(field, _)| field.clone())
            .collect()
    } else {
        required
    };
    if fields.is_empty() {
        return Err("has no string argument".to_owned());
    }
    Ok(fields)
}

/// Different on every run, so that no answer can carry a marker by chance or from a cache.
pub(super) fn nonce() -> String {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    format!("{:x}", nanos & 0xffff_ffff_ffff)
}

pub(super) fn shorten(text: &str) -> String {
    const MAX: usize = 120;
    match text.char_indices().nth(MAX) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_go_in_the_required_strings_or_every_string() {
        let required = json!({
            "type": "object",
            "properties": {"message": {"type": "string"}, "times": {"type": "integer"}},
            "required": ["message"]
        });
        assert_eq!(string_fields(&required).unwrap(), ["message"]);
        let optional = json!({"type": "object", "properties": {"text": {"type": "string"}}});
        assert_eq!(string_fields(&optional).unwrap(), ["text"]);
        let number = json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}},
            "required": ["n"]
        });
        assert_eq!(
            string_fields(&number).unwrap_err(),
            "requires `n`, not a string"
        );
    }
}
