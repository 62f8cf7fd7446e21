//! `naming` and `missing-description`: what makes a model pick the wrong tool or call it
//! wrong. Tool names follow MCP's naming guidance (2025-11-25, "Tool Names": 1 to 128
//! characters, ASCII letters, digits, `_`, `-` and `.`, unique in a server); tools and their
//! parameters have descriptions.

use std::collections::HashMap;

use serde_json::Value;

use super::{Finding, rules};

/// Whether MCP's naming guidance allows `c` in a tool name.
fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')
}

/// The naming findings of a server's tools.
pub(crate) fn naming(tools: &[Value]) -> Vec<Finding> {
    let mut found = Vec::new();
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for tool in tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
        let subject = format!("tool `{name}`");
        let length = name.chars().count();
        if !(1..=128).contains(&length) {
            found.push(rules::NAME_LENGTH.finding(
                &subject,
                "/name",
                format!("the name is {length} characters long; MCP asks for 1 to 128"),
            ));
        }
        if !name.chars().all(allowed) {
            let odd: String = name.chars().filter(|&c| !allowed(c)).collect();
            found.push(rules::NAME_CHARACTERS.finding(
                &subject,
                "/name",
                format!("the name has characters MCP's guidance leaves out: {odd:?}"),
            ));
        }
        *seen.entry(name).or_default() += 1;
    }
    let mut duplicates: Vec<(&str, usize)> = seen.into_iter().filter(|(_, n)| *n > 1).collect();
    duplicates.sort();
    for (name, times) in duplicates {
        found.push(rules::NAME_DUPLICATE.finding(
            &format!("tool `{name}`"),
            "/name",
            format!("{times} tools of the server are named `{name}`"),
        ));
    }
    found
}

fn described(value: &Value) -> bool {
    value
        .get("description")
        .and_then(Value::as_str)
        .is_some_and(|text| !text.trim().is_empty())
}

/// The missing descriptions of one tool: its own and its parameters' (top-level
/// properties of its input schema).
pub(crate) fn descriptions(subject: &str, tool: &Value) -> Vec<Finding> {
    let mut found = Vec::new();
    if !described(tool) {
        found.push(rules::NO_TOOL_DESCRIPTION.finding(
            subject,
            "/description",
            "the tool has no description: a model picks tools by what they say they do".into(),
        ));
    }
    if let Some(properties) = tool
        .pointer("/inputSchema/properties")
        .and_then(Value::as_object)
    {
        let missing: Vec<&str> = properties
            .iter()
            .filter(|(_, schema)| !described(schema) && schema.get("$ref").is_none())
            .map(|(name, _)| name.as_str())
            .collect();
        for name in missing {
            found.push(rules::NO_PARAMETER_DESCRIPTION.finding(
                subject,
                &format!("/inputSchema/properties/{}", super::walk::escape(name)),
                format!("the parameter `{name}` has no description"),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn names_are_held_to_mcps_guidance() {
        let tools = [
            json!({"name": "get_weather"}),
            json!({"name": "admin.tools.list"}),
            json!({"name": "get weather"}),
            json!({"name": "get_weather"}),
            json!({"name": ""}),
        ];
        let found: Vec<(&str, String)> = naming(&tools)
            .into_iter()
            .map(|finding| (finding.rule, finding.subject))
            .collect();
        assert_eq!(
            found,
            [
                ("naming.characters", "tool `get weather`".to_owned()),
                ("naming.length", "tool ``".to_owned()),
                ("naming.duplicate", "tool `get_weather`".to_owned()),
            ]
        );
    }

    #[test]
    fn missing_descriptions_are_found() {
        let tool = json!({
            "name": "search",
            "description": " ",
            "inputSchema": {"type": "object", "properties": {
                "q": {"type": "string", "description": "The query."},
                "limit": {"type": "integer"}
            }}
        });
        let found: Vec<(&str, String)> = descriptions("tool `search`", &tool)
            .into_iter()
            .map(|finding| (finding.rule, finding.location))
            .collect();
        assert_eq!(
            found,
            [
                ("missing-description.tool", "/description".to_owned()),
                (
                    "missing-description.parameter",
                    "/inputSchema/properties/limit".to_owned()
                ),
            ]
        );
    }
}
