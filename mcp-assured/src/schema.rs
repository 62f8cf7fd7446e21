//! JSON Schema checks: a tool's arguments against its `inputSchema`, its structured content
//! against its `outputSchema`. Every violation is listed, each with where it is.
//!
//! Validation needs the `schema` feature (off by default: the `jsonschema` crate is a large part
//! of a first build). Without it this module is still here, and every check reports, as its one
//! violation, that the feature is needed and how to turn it on.

use std::fmt;

use rmcp::model::{JsonObject, Tool};
use serde_json::Value;

/// One way a value breaks a schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// A JSON pointer to the offending value (`""` for the whole value).
    pub path: String,
    /// What is wrong with it.
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "/"
        } else {
            &self.path
        };
        write!(f, "at {path}: {}", self.message)
    }
}

/// Every violation of `schema` by `value`; empty when it conforms. An invalid schema is a
/// violation too (at the root), since nothing can conform to it.
///
/// Compiles `schema` each time; to check many values against one schema, compile it once
/// with [`Schema::compile`].
pub fn violations(schema: &Value, value: &Value) -> Vec<Violation> {
    Schema::compile(schema).violations(value)
}

/// A JSON Schema compiled once, for checking many values (compiling costs far more than
/// checking).
///
#[cfg_attr(feature = "schema", doc = "```")]
#[cfg_attr(not(feature = "schema"), doc = "```ignore")]
/// use mcp_assured::schema::Schema;
/// use serde_json::json;
///
/// let schema = Schema::compile(&json!({"type": "object", "required": ["city"]}));
/// assert!(schema.violations(&json!({"city": "Oslo"})).is_empty());
/// assert_eq!(schema.violations(&json!({})).len(), 1);
/// ```
pub struct Schema {
    compiled: Result<Validator, String>,
}

#[cfg(feature = "schema")]
type Validator = jsonschema::Validator;

/// Nothing to validate with: compiling always fails with [`NEEDS_FEATURE`].
#[cfg(not(feature = "schema"))]
enum Validator {}

/// What every check says without the `schema` feature.
const NEEDS_FEATURE: &str = "JSON Schema validation needs mcp-assured's `schema` feature: \
    `mcp-assured = { version = \"0.1\", features = [\"schema\"] }` in Cargo.toml";

/// Why schemas cannot be checked in this build (the `schema` feature is off), if they cannot.
pub(crate) fn unavailable() -> Option<&'static str> {
    (!cfg!(feature = "schema")).then_some(NEEDS_FEATURE)
}

impl fmt::Debug for Schema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schema")
            .field("valid", &self.compiled.is_ok())
            .finish_non_exhaustive()
    }
}

impl Schema {
    /// Compiles `schema`. An invalid schema compiles to one that every value violates, with
    /// the reason.
    ///
    /// Without the `schema` feature, every value violates it, with a message that says so.
    pub fn compile(schema: &Value) -> Schema {
        #[cfg(feature = "schema")]
        let compiled = jsonschema::validator_for(schema)
            .map_err(|error| format!("the schema itself is invalid: {error}"));
        #[cfg(not(feature = "schema"))]
        let compiled = {
            let _ = schema;
            Err(NEEDS_FEATURE.to_owned())
        };
        Schema { compiled }
    }

    /// Every violation of this schema by `value`; empty when it conforms.
    pub fn violations(&self, value: &Value) -> Vec<Violation> {
        match &self.compiled {
            #[cfg(feature = "schema")]
            Ok(validator) => validator
                .iter_errors(value)
                .map(|error| Violation {
                    path: error.instance_path().to_string(),
                    message: error.to_string(),
                })
                .collect(),
            #[cfg(not(feature = "schema"))]
            Ok(never) => {
                let _ = value;
                match *never {}
            }
            Err(reason) => vec![Violation {
                path: String::new(),
                message: reason.clone(),
            }],
        }
    }
}

/// Checks `arguments` against `tool`'s `inputSchema` before a call.
///
#[cfg_attr(feature = "schema", doc = "```")]
#[cfg_attr(not(feature = "schema"), doc = "```ignore")]
/// use mcp_assured::{model::Tool, schema};
/// use serde_json::json;
///
/// let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
/// let tool = Tool::new("weather", "Weather by city", schema.as_object().unwrap().clone());
/// assert!(schema::validate_arguments(&tool, &json!({"city": "London"})).is_empty());
/// let wrong = schema::validate_arguments(&tool, &json!({"city": 7}));
/// assert_eq!(wrong.len(), 1);
/// assert_eq!(wrong[0].path, "/city");
/// ```
pub fn validate_arguments(tool: &Tool, arguments: &Value) -> Vec<Violation> {
    violations(&object(&tool.input_schema), arguments)
}

/// Checks structured content against `tool`'s `outputSchema`; `None` when the tool declares
/// no output schema.
pub fn validate_structured_content(tool: &Tool, structured: &Value) -> Option<Vec<Violation>> {
    let schema = tool.output_schema.as_ref()?;
    Some(violations(&object(schema), structured))
}

fn object(schema: &JsonObject) -> Value {
    Value::Object(schema.clone())
}

/// The violations, one per line, for failure messages.
pub(crate) fn describe(violations: &[Violation]) -> String {
    violations
        .iter()
        .map(|v| format!("- {v}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(all(test, feature = "schema"))]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lists_every_violation() {
        let schema = json!({
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"]
        });
        let found = violations(&schema, &json!({"a": "x"}));
        assert_eq!(found.len(), 2, "{found:?}");
        let text = describe(&found);
        assert!(text.contains("at /a:"), "{text}");
        assert!(text.contains("\"b\" is a required property"), "{text}");
    }

    #[test]
    fn an_invalid_schema_is_reported() {
        let found = violations(&json!({"type": 12}), &json!({}));
        assert_eq!(found.len(), 1);
        assert!(
            found[0].message.contains("schema itself is invalid"),
            "{found:?}"
        );
    }
}

#[cfg(all(test, not(feature = "schema")))]
mod without_the_feature {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_check_says_the_feature_is_needed() {
        let found = violations(&json!({"type": "object"}), &json!({}));
        assert_eq!(found.len(), 1);
        assert!(found[0].message.contains("`schema` feature"), "{found:?}");
        assert_eq!(unavailable(), Some(NEEDS_FEATURE));
    }
}
