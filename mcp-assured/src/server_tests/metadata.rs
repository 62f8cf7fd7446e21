//! A test tool as discovered: its `testMetadata` read leniently, with what is malformed in it
//! noted rather than fatal.

use std::time::Duration;

use serde::Serialize;
use serde_json::Value;

/// The prefix of test tools.
pub const TEST_TOOL_PREFIX: &str = "mcp.test.";

/// The priority of an optional test.
pub(crate) const OPTIONAL: u64 = 3;
/// Priority when `testMetadata` gives none: with the optional tests, last.
const DEFAULT_PRIORITY: u64 = OPTIONAL;
/// Timeout when `testMetadata` gives none.
pub(crate) const DEFAULT_TEST_TIMEOUT: Duration = Duration::from_secs(30);

/// Whether a tool name follows the `mcp.test.*` convention.
pub fn is_test_tool(name: &str) -> bool {
    name.starts_with(TEST_TOOL_PREFIX)
}

/// A server's `mcp.test.*` tool and its metadata.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestTool {
    /// e.g. `mcp.test.protocol`.
    pub name: String,
    /// What it tests.
    pub description: Option<String>,
    /// `testMetadata.category`, e.g. `protocol`.
    pub category: Option<String>,
    /// `testMetadata.priority`: 1 critical, 2 important, 3 optional (the default, which
    /// orders a test without one last).
    pub priority: u64,
    /// `testMetadata` says the test is optional (priority 3): a failure of it is a warning,
    /// not a failure (`--strict` fails it). A test that gives no priority runs with the
    /// optional ones but is not one: its failure fails.
    pub optional: bool,
    /// `testMetadata.timeout` (default 30 s).
    #[serde(serialize_with = "millis")]
    pub timeout: Duration,
    /// The tool's input schema.
    pub input_schema: Value,
    /// What is wrong with its `testMetadata`: the test still runs, with defaults, and then
    /// fails for it.
    pub metadata_problems: Vec<String>,
    /// Where it strays from the convention's naming: a name not of the form
    /// `mcp.test.<namespace>[.<name>…]` in lowercase words, or a namespace
    /// (`mcp.test.resources.list`) that disagrees with `testMetadata.category`. A test that
    /// passes warns for them.
    pub naming_warnings: Vec<String>,
}

/// The namespace a custom test goes under, whatever its category.
const CUSTOM_NAMESPACE: &str = "custom";

/// Where `name` strays from the convention's form, and its namespace from `category`.
fn naming_warnings(name: &str, category: Option<&str>) -> Vec<String> {
    let mut warnings = Vec::new();
    let words: Vec<&str> = name
        .strip_prefix(TEST_TOOL_PREFIX)
        .unwrap_or(name)
        .split('.')
        .collect();
    let well_formed = words.iter().all(|word| {
        !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    });
    if !well_formed {
        warnings.push(format!(
            "`{name}` is not of the convention's form `mcp.test.<namespace>[.<name>]`, in \
             lowercase words (a-z, 0-9, `_`, `-`) separated by single dots"
        ));
    }
    // `mcp.test.<namespace>.<name>`: the namespace says the category.
    if let (Some(category), [namespace, _, ..]) = (category, words.as_slice())
        && well_formed
        && *namespace != CUSTOM_NAMESPACE
        && *namespace != category
    {
        warnings.push(format!(
            "named under `{namespace}` (mcp.test.{namespace}.*) but testMetadata.category is \
             `{category}`: rename it, or make its category `{namespace}`"
        ));
    }
    warnings
}

fn millis<S: serde::Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(u64::try_from(duration.as_millis()).unwrap_or(u64::MAX))
}

impl TestTool {
    /// Reads a tool as the server sent it (see `McpClient::list_tools_json`).
    pub fn from_json(tool: &Value) -> Option<TestTool> {
        let name = tool.get("name")?.as_str()?;
        if !is_test_tool(name) {
            return None;
        }
        let mut problems = Vec::new();
        let metadata = tool.get("testMetadata");
        let field = |key: &str| metadata.and_then(|m| m.get(key));
        match metadata {
            None => problems.push("no testMetadata".to_owned()),
            Some(Value::Object(_)) => {}
            Some(other) => problems.push(format!("testMetadata is not an object: {other}")),
        }
        let category = match field("category") {
            None => None,
            Some(Value::String(category)) => Some(category.clone()),
            Some(other) => {
                problems.push(format!("testMetadata.category is not a string: {other}"));
                None
            }
        };
        let optional = field("priority").and_then(Value::as_u64) == Some(OPTIONAL);
        let priority = match field("priority") {
            None => DEFAULT_PRIORITY,
            Some(value) => match value.as_u64() {
                Some(priority @ 1..=3) => priority,
                _ => {
                    problems.push(format!(
                        "testMetadata.priority must be 1, 2 or 3, not {value}; using {DEFAULT_PRIORITY}"
                    ));
                    DEFAULT_PRIORITY
                }
            },
        };
        let timeout = match field("timeout") {
            None => DEFAULT_TEST_TIMEOUT,
            Some(value) => match value.as_f64() {
                Some(ms) if ms > 0.0 && ms.is_finite() => Duration::from_secs_f64(ms / 1000.0),
                _ => {
                    problems.push(format!(
                        "testMetadata.timeout must be a positive number of milliseconds, not {value}; using {} ms",
                        DEFAULT_TEST_TIMEOUT.as_millis()
                    ));
                    DEFAULT_TEST_TIMEOUT
                }
            },
        };
        let naming_warnings = naming_warnings(name, category.as_deref());
        Some(TestTool {
            name: name.to_owned(),
            description: tool
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_owned),
            category,
            priority,
            optional,
            timeout,
            input_schema: tool.get("inputSchema").cloned().unwrap_or(Value::Null),
            metadata_problems: problems,
            naming_warnings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_metadata() {
        let tool = TestTool::from_json(&json!({
            "name": "mcp.test.protocol",
            "inputSchema": {"type": "object"},
            "testMetadata": {"category": "protocol", "priority": 1, "timeout": 5000},
        }))
        .unwrap();
        assert_eq!(tool.category.as_deref(), Some("protocol"));
        assert_eq!(tool.priority, 1);
        assert!(!tool.optional);
        assert_eq!(tool.timeout, Duration::from_secs(5));
        assert!(tool.metadata_problems.is_empty());
    }

    #[test]
    fn only_a_declared_priority_3_is_optional() {
        let optional = |metadata: Value| {
            let tool =
                TestTool::from_json(&json!({"name": "mcp.test.x", "testMetadata": metadata}));
            let tool = tool.unwrap();
            (tool.priority, tool.optional)
        };
        assert_eq!(optional(json!({"priority": 3})), (3, true));
        assert_eq!(optional(json!({"priority": 2})), (2, false));
        assert_eq!(
            optional(json!({})),
            (3, false),
            "no priority: last, not optional"
        );
        assert_eq!(
            optional(json!({"priority": 7})),
            (3, false),
            "malformed: not optional"
        );
    }

    #[test]
    fn malformed_metadata_is_noted_and_defaulted() {
        let tool = TestTool::from_json(&json!({
            "name": "mcp.test.x",
            "testMetadata": {"category": 7, "priority": "high", "timeout": -1},
        }))
        .unwrap();
        assert_eq!((tool.priority, tool.timeout), (3, DEFAULT_TEST_TIMEOUT));
        assert_eq!(
            tool.metadata_problems.len(),
            3,
            "{:?}",
            tool.metadata_problems
        );
    }

    #[test]
    fn names_of_the_conventions_form_with_their_category_raise_nothing() {
        for (name, category) in [
            ("mcp.test.protocol", Some("protocol")),
            ("mcp.test.capabilities", Some("protocol")),
            ("mcp.test.protocol.basic", Some("protocol")),
            ("mcp.test.resources.read_text", Some("resources")),
            ("mcp.test.custom.weather-alerts", Some("weather")),
            ("mcp.test.tools.echo", None),
        ] {
            assert_eq!(
                naming_warnings(name, category),
                Vec::<String>::new(),
                "{name}"
            );
        }
    }

    #[test]
    fn a_misshapen_name_or_a_namespace_against_the_category_warns() {
        let shape = naming_warnings("mcp.test.Resources..List", Some("resources"));
        assert_eq!(shape.len(), 1, "{shape:?}");
        assert!(
            shape[0].contains("is not of the convention's form"),
            "{shape:?}"
        );
        assert_eq!(naming_warnings("mcp.test.", None).len(), 1);
        let namespace = naming_warnings("mcp.test.resources.echo", Some("tools"));
        assert_eq!(
            namespace,
            [
                "named under `resources` (mcp.test.resources.*) but testMetadata.category is \
              `tools`: rename it, or make its category `resources`"
            ]
        );
        let tool = TestTool::from_json(&json!({
            "name": "mcp.test.tools.list",
            "testMetadata": {"category": "protocol", "priority": 1, "timeout": 5000},
        }))
        .unwrap();
        assert_eq!(tool.naming_warnings.len(), 1);
        assert!(
            tool.metadata_problems.is_empty(),
            "a warning, not a malformed metadata"
        );
    }

    #[test]
    fn ordinary_tools_are_not_tests() {
        assert_eq!(TestTool::from_json(&json!({"name": "echo"})), None);
    }
}
