//! What the tool modules share: their definition's shape, reading arguments, and turning
//! answers and failures into tool results.

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::{Serialize, de::DeserializeOwned};

use crate::api::ApiError;

/// The definition of a tool that reads from the weather API: read-only and open-world, its
/// input schema that of `Args`, its output schema that of `Output`.
pub(crate) fn api_tool<Args: JsonSchema + 'static, Output: JsonSchema + 'static>(
    name: &'static str,
    title: &str,
    description: &'static str,
) -> Tool {
    Tool::new(name, description, JsonObject::new())
        .with_title(title)
        .with_input_schema::<Args>()
        .with_output_schema::<Output>()
        .with_annotations(
            ToolAnnotations::with_title(title)
                .read_only(true)
                .open_world(true),
        )
}

/// The hybrid protocol's tool metadata (version, author, category, tags, `deprecates`,
/// `custom`), listed over REST as `metadata` and over MCP in the tool's `_meta.metadata`.
pub(crate) fn with_metadata(mut tool: Tool, metadata: serde_json::Value) -> Tool {
    let mut meta = rmcp::model::MetaObject::default();
    meta.insert("metadata".to_owned(), metadata);
    tool.meta = Some(meta);
    tool
}

/// The metadata every tool shares, with its own version, tags and custom fields.
pub(crate) fn metadata(
    version: &str,
    tags: &[&str],
    custom: serde_json::Value,
) -> serde_json::Value {
    serde_json::json!({
        "version": version,
        "author": "mcp-assured examples",
        "category": "weather",
        "tags": tags,
        "custom": custom,
    })
}

/// The arguments as `T`, or the tool error that tells the model what is wrong with them.
pub(crate) fn parse_args<T: DeserializeOwned>(
    tool: &str,
    args: JsonObject,
) -> Result<T, CallToolResult> {
    serde_json::from_value(serde_json::Value::Object(args))
        .map_err(|error| tool_error(format!("invalid arguments for `{tool}`: {error}")))
}

/// A tool error: the request was fine, executing it was not.
pub(crate) fn tool_error(message: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.into())])
}

pub(crate) fn api_error(error: ApiError) -> CallToolResult {
    tool_error(error.to_string())
}

/// `structuredContent` plus the same JSON as text, for clients that read only text.
pub(crate) fn structured(value: &impl Serialize) -> CallToolResult {
    match serde_json::to_value(value) {
        Ok(value) => CallToolResult::structured(value),
        Err(error) => tool_error(format!("cannot encode the result: {error}")),
    }
}
