//! A hybrid server's tool metadata, as `GET /mcp/tools` lists it: `version`, `author`,
//! `category`, `tags`, `deprecates` and `custom`, read leniently, with what breaks the
//! hybrid protocol's types said rather than dropped.

use serde_json::{Map, Value};

/// The `metadata` of a listed tool (the hybrid protocol's `MCPTool.metadata`, with its
/// versioning's `deprecates` and its extensions' `custom`).
///
/// ```
/// use mcp_assured::rest::ToolMetadata;
/// use serde_json::json;
///
/// let metadata = ToolMetadata::read(&json!({
///     "version": "2.1.0", "deprecates": "1.0.0", "tags": ["code"], "custom": {"sla": "99.9%"}
/// }));
/// assert_eq!(metadata.version.as_deref(), Some("2.1.0"));
/// assert!(metadata.problems.is_empty());
/// let wrong = ToolMetadata::read(&json!({"version": "2.1.0", "deprecates": "3.0.0", "tags": "code"}));
/// assert_eq!(wrong.problems.len(), 2, "{:?}", wrong.problems);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ToolMetadata {
    /// The tool's version, e.g. `2.1.0`.
    pub version: Option<String>,
    /// Who wrote it.
    pub author: Option<String>,
    /// What kind of tool it is, e.g. `analysis`.
    pub category: Option<String>,
    /// Words to find it by.
    pub tags: Vec<String>,
    /// The version it replaces, older than [`version`](Self::version).
    pub deprecates: Option<String>,
    /// Anything else the server says of it (`pricing`, `sla`, `region`, ...).
    pub custom: Map<String, Value>,
    /// Where the metadata breaks the protocol's types: a field of the wrong type, a version
    /// that is not semantic versioning, `deprecates` not older than `version`.
    pub problems: Vec<String>,
}

impl ToolMetadata {
    /// Reads `metadata` as the server sent it; an absent one is empty and has no problem.
    pub fn read(metadata: &Value) -> ToolMetadata {
        let mut read = ToolMetadata::default();
        let object = match metadata {
            Value::Null => return read,
            Value::Object(object) => object,
            other => {
                read.problems
                    .push(format!("`metadata` is not an object: {other}"));
                return read;
            }
        };
        let text = |field: &str, problems: &mut Vec<String>| match object.get(field) {
            None | Some(Value::Null) => None,
            Some(Value::String(value)) => Some(value.clone()),
            Some(other) => {
                problems.push(format!("`metadata.{field}` is not a string: {other}"));
                None
            }
        };
        read.version = text("version", &mut read.problems);
        read.author = text("author", &mut read.problems);
        read.category = text("category", &mut read.problems);
        read.deprecates = text("deprecates", &mut read.problems);
        match object.get("tags") {
            None | Some(Value::Null) => {}
            Some(Value::Array(tags)) if tags.iter().all(Value::is_string) => {
                read.tags = tags
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect();
            }
            Some(other) => read.problems.push(format!(
                "`metadata.tags` is not an array of strings: {other}"
            )),
        }
        match object.get("custom") {
            None | Some(Value::Null) => {}
            Some(Value::Object(custom)) => read.custom = custom.clone(),
            Some(other) => read
                .problems
                .push(format!("`metadata.custom` is not an object: {other}")),
        }
        read.check_versions();
        read
    }

    /// `version` and `deprecates` are semantic versions, and what is deprecated is older.
    fn check_versions(&mut self) {
        let parse = |field: &str, value: &Option<String>, problems: &mut Vec<String>| {
            let value = value.as_deref()?;
            semver::Version::parse(value)
                .map_err(|error| {
                    problems.push(format!(
                        "`metadata.{field}` {value:?} is not a semantic version: {error}"
                    ));
                })
                .ok()
        };
        let version = parse("version", &self.version, &mut self.problems);
        let deprecates = parse("deprecates", &self.deprecates, &mut self.problems);
        if let (Some(version), Some(deprecates)) = (version, deprecates)
            && deprecates >= version
        {
            self.problems.push(format!(
                "`metadata.deprecates` {deprecates} is not older than `metadata.version` {version}"
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn every_field_is_read() {
        let metadata = ToolMetadata::read(&json!({
            "version": "2.0.0", "author": "weather team", "category": "weather",
            "tags": ["forecast", "daily"], "deprecates": "1.4.2",
            "custom": {"source": "open-meteo"},
        }));
        assert_eq!(metadata.author.as_deref(), Some("weather team"));
        assert_eq!(metadata.category.as_deref(), Some("weather"));
        assert_eq!(metadata.tags, ["forecast", "daily"]);
        assert_eq!(metadata.deprecates.as_deref(), Some("1.4.2"));
        assert_eq!(metadata.custom["source"], "open-meteo");
        assert_eq!(metadata.problems, Vec::<String>::new());
    }

    #[test]
    fn each_wrong_type_is_a_problem_and_the_rest_is_read() {
        let metadata = ToolMetadata::read(&json!({
            "version": "two", "author": 7, "tags": ["a", 1], "custom": [], "category": "x",
        }));
        assert_eq!(metadata.category.as_deref(), Some("x"));
        assert_eq!(metadata.problems.len(), 4, "{:?}", metadata.problems);
        assert!(metadata.problems[0].contains("`metadata.author` is not a string"));
        assert_eq!(ToolMetadata::read(&Value::Null), ToolMetadata::default());
        assert_eq!(ToolMetadata::read(&json!("v1")).problems.len(), 1);
    }
}
