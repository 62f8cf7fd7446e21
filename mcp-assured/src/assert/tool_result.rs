//! Checks on a `tools/call` result: success or tool error, its text, its JSON, its structured
//! content, its content blocks.

use regex::Regex;
use rmcp::model::{CallToolResult, Tool};
use serde::Serialize;
use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check},
    json,
};
use crate::{
    results::{
        mcp::{ToolResult, text_of},
        wire::Wire,
    },
    schema,
};

/// Checks on a tool result; from `result.assert()` (see [`AssertToolResult`]).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> mcp_assured::Result<()> {
/// use mcp_assured::{McpAssured, prelude::*};
/// use mcp_assured_examples::ExampleServer;
/// use serde_json::json;
///
/// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
/// let result = client.call_tool("weather", json!({"city": "London"})).await?;
/// result.assert()
///     .is_success()
///     .json_at("/temperature", 15)
///     .structured_contains(json!({"conditions": "cloudy"}));
/// # Ok(()) }
/// ```
///
/// A failure names the tool and shows what it returned:
///
/// ```should_panic
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> mcp_assured::Result<()> {
/// # use mcp_assured::{McpAssured, prelude::*};
/// # use mcp_assured_examples::ExampleServer;
/// # use serde_json::json;
/// # let client = McpAssured::client().service(ExampleServer::new()).build().await?;
/// let result = client.call_tool("fail", json!({})).await?;
/// result.assert().is_success();
/// // panics with:
/// // Expected tool `fail` to succeed, but it returned a tool error (isError: true).
/// // tool=fail
/// // content=```Connection refused: http://localhost:9999/weather```
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolResultAssert<'a> {
    tool: &'a str,
    result: &'a CallToolResult,
    /// The result as the server sent it, when it is known: what the JSON checks read.
    sent: Option<&'a Value>,
}

/// `.assert()` on a tool result.
pub trait AssertToolResult {
    /// Starts a chain of checks on the result.
    fn assert(&self) -> ToolResultAssert<'_>;
}

impl AssertToolResult for ToolResult {
    fn assert(&self) -> ToolResultAssert<'_> {
        ToolResultAssert {
            tool: self.tool(),
            result: self,
            sent: self.wire().map(Wire::json),
        }
    }
}

impl AssertToolResult for CallToolResult {
    fn assert(&self) -> ToolResultAssert<'_> {
        ToolResultAssert {
            tool: "<unnamed>",
            result: self,
            sent: None,
        }
    }
}

impl<'a> ToolResultAssert<'a> {
    /// The text of every text block, joined by newlines.
    pub fn text(&self) -> String {
        text_of(self.result)
    }

    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline)
            .fact("tool", self.tool)
            .block("content", self.text())
    }

    fn blocks(&self) -> Vec<Value> {
        if let Some(Value::Array(blocks)) = self.sent.and_then(|sent| sent.get("content")) {
            return blocks.clone();
        }
        self.result
            .content
            .iter()
            .map(|c| serde_json::to_value(c).unwrap_or(Value::Null))
            .collect()
    }

    /// The call succeeded (`isError` is absent or false).
    #[track_caller]
    pub fn is_success(self) -> Self {
        check(self.try_is_success())
    }

    /// [`is_success`](Self::is_success), returning the failure.
    pub fn try_is_success(self) -> Result<Self, AssertionError> {
        if self.result.is_error == Some(true) {
            return self
                .failure(format!(
                    "Expected tool `{}` to succeed, but it returned a tool error (isError: true).",
                    self.tool
                ))
                .err();
        }
        Ok(self)
    }

    /// The tool reported a failure (`isError: true`).
    #[track_caller]
    pub fn is_tool_error(self) -> Self {
        check(self.try_is_tool_error())
    }

    /// [`is_tool_error`](Self::is_tool_error), returning the failure.
    pub fn try_is_tool_error(self) -> Result<Self, AssertionError> {
        if self.result.is_error != Some(true) {
            return self
                .failure(format!(
                    "Expected tool `{}` to return a tool error (isError: true), but it succeeded.",
                    self.tool
                ))
                .err();
        }
        Ok(self)
    }

    /// The text content is exactly `expected`.
    #[track_caller]
    pub fn text_equals(self, expected: &str) -> Self {
        check(self.try_text_equals(expected))
    }

    /// [`text_equals`](Self::text_equals), returning the failure.
    pub fn try_text_equals(self, expected: &str) -> Result<Self, AssertionError> {
        let text = self.text();
        if text != expected {
            return Failure::new(format!(
                "Expected the text of tool `{}` to equal the expected text.",
                self.tool
            ))
            .fact("tool", self.tool)
            .block("expected", expected)
            .block("actual", text)
            .err();
        }
        Ok(self)
    }

    /// The text content contains `needle`.
    #[track_caller]
    pub fn text_contains(self, needle: &str) -> Self {
        check(self.try_text_contains(needle))
    }

    /// [`text_contains`](Self::text_contains), returning the failure.
    pub fn try_text_contains(self, needle: &str) -> Result<Self, AssertionError> {
        if !self.text().contains(needle) {
            return self
                .failure(format!(
                    "Expected the text of tool `{}` to contain `{needle}`.",
                    self.tool
                ))
                .err();
        }
        Ok(self)
    }

    /// The text content matches the regular expression `pattern`.
    #[track_caller]
    pub fn text_matches(self, pattern: &str) -> Self {
        check(self.try_text_matches(pattern))
    }

    /// [`text_matches`](Self::text_matches), returning the failure.
    pub fn try_text_matches(self, pattern: &str) -> Result<Self, AssertionError> {
        let regex = match Regex::new(pattern) {
            Ok(regex) => regex,
            Err(error) => {
                return Failure::new(format!(
                    "`{pattern}` is not a valid regular expression: {error}"
                ))
                .err();
            }
        };
        if !regex.is_match(&self.text()) {
            return self
                .failure(format!(
                    "Expected the text of tool `{}` to match /{pattern}/.",
                    self.tool
                ))
                .err();
        }
        Ok(self)
    }

    /// The text content parses as JSON, and the value at the JSON `pointer` equals `expected`
    /// (numbers by value: `15` equals `15.0`).
    #[track_caller]
    pub fn json_at(self, pointer: &str, expected: impl Serialize) -> Self {
        check(self.try_json_at(pointer, expected))
    }

    /// [`json_at`](Self::json_at), returning the failure.
    pub fn try_json_at(
        self,
        pointer: &str,
        expected: impl Serialize,
    ) -> Result<Self, AssertionError> {
        let expected = serde_json::to_value(expected).unwrap_or(Value::Null);
        let text = self.text();
        let parsed: Value = match serde_json::from_str(&text) {
            Ok(parsed) => parsed,
            Err(error) => {
                return self
                    .failure(format!(
                        "Expected the text of tool `{}` to be JSON, but it does not parse ({error}).",
                        self.tool
                    ))
                    .err();
            }
        };
        match json::check_at("JSON", self.tool, &parsed, pointer, &expected) {
            Ok(()) => Ok(self),
            Err(headline) => Failure::new(headline)
                .fact("tool", self.tool)
                .json("json", &parsed)
                .err(),
        }
    }

    /// The structured content equals `expected` (a diff shows the difference).
    #[track_caller]
    pub fn structured_equals(self, expected: impl Serialize) -> Self {
        check(self.try_structured_equals(expected))
    }

    /// [`structured_equals`](Self::structured_equals), returning the failure.
    pub fn try_structured_equals(self, expected: impl Serialize) -> Result<Self, AssertionError> {
        let expected = serde_json::to_value(expected).unwrap_or(Value::Null);
        let actual = self.structured()?;
        json::expect_equal("structured content", self.tool, &expected, actual)?;
        Ok(self)
    }

    /// The structured content contains `subset`: every key given, with a containing value.
    #[track_caller]
    pub fn structured_contains(self, subset: impl Serialize) -> Self {
        check(self.try_structured_contains(subset))
    }

    /// [`structured_contains`](Self::structured_contains), returning the failure.
    pub fn try_structured_contains(self, subset: impl Serialize) -> Result<Self, AssertionError> {
        let subset = serde_json::to_value(subset).unwrap_or(Value::Null);
        let actual = self.structured()?;
        if !json::contains(actual, &subset) {
            return Failure::new(format!(
                "Expected the structured content of tool `{}` to contain the expected JSON.",
                self.tool
            ))
            .fact("tool", self.tool)
            .json("expected (subset)", &subset)
            .json("actual", actual)
            .err();
        }
        Ok(self)
    }

    /// The structured content as the server sent it (as rmcp decoded it when the text is
    /// not known).
    fn structured(&self) -> Result<&'a Value, AssertionError> {
        let structured = match self.sent {
            Some(sent) => sent.get("structuredContent").filter(|s| !s.is_null()),
            None => self.result.structured_content.as_ref(),
        };
        structured.map_or_else(
            || {
                self.failure(format!(
                    "Expected tool `{}` to return structured content, but it has none.",
                    self.tool
                ))
                .err()
            },
            Ok,
        )
    }

    /// The structured content conforms to `tool`'s `outputSchema`; a failure lists every
    /// violation.
    #[track_caller]
    pub fn conforms_to_output_schema(self, tool: &Tool) -> Self {
        check(self.try_conforms_to_output_schema(tool))
    }

    /// [`conforms_to_output_schema`](Self::conforms_to_output_schema), returning the failure.
    pub fn try_conforms_to_output_schema(self, tool: &Tool) -> Result<Self, AssertionError> {
        let actual = self.structured()?;
        match schema::validate_structured_content(tool, actual) {
            None => Failure::new(format!(
                "Expected tool `{}` to declare an outputSchema to check against, but it has none.",
                tool.name
            ))
            .fact("tool", &tool.name)
            .err(),
            Some(violations) if violations.is_empty() => Ok(self),
            Some(violations) => Failure::new(format!(
                "Expected the structured content of tool `{}` to conform to its outputSchema, but it breaks it in {} place(s).",
                self.tool,
                violations.len()
            ))
            .fact("tool", self.tool)
            .block("violations", format!("\n{}\n", schema::describe(&violations)))
            .json("structuredContent", actual)
            .json("outputSchema", &serde_json::to_value(&tool.output_schema).unwrap_or(Value::Null))
            .err(),
        }
    }

    /// The result has exactly `count` content blocks.
    #[track_caller]
    pub fn has_content_count(self, count: usize) -> Self {
        check(self.try_has_content_count(count))
    }

    /// [`has_content_count`](Self::has_content_count), returning the failure.
    pub fn try_has_content_count(self, count: usize) -> Result<Self, AssertionError> {
        if self.result.content.len() != count {
            return Failure::new(format!(
                "Expected tool `{}` to return {count} content block(s), but it returned {}.",
                self.tool,
                self.result.content.len()
            ))
            .fact("tool", self.tool)
            .json("content", &Value::Array(self.blocks()))
            .err();
        }
        Ok(self)
    }

    /// The result has an image block of MIME type `mime_type`.
    #[track_caller]
    pub fn has_image(self, mime_type: &str) -> Self {
        check(self.try_has_image(mime_type))
    }

    /// [`has_image`](Self::has_image), returning the failure.
    pub fn try_has_image(self, mime_type: &str) -> Result<Self, AssertionError> {
        self.has_block("an image", mime_type, |b| {
            b["type"] == "image" && b["mimeType"] == mime_type
        })
    }

    /// The result has a resource link, of MIME type `mime_type` if one is given.
    #[track_caller]
    pub fn has_resource_link(self, mime_type: Option<&str>) -> Self {
        check(self.try_has_resource_link(mime_type))
    }

    /// [`has_resource_link`](Self::has_resource_link), returning the failure.
    pub fn try_has_resource_link(self, mime_type: Option<&str>) -> Result<Self, AssertionError> {
        self.has_block("a resource link", mime_type.unwrap_or("any"), |b| {
            b["type"] == "resource_link" && mime_type.is_none_or(|m| b["mimeType"] == m)
        })
    }

    /// The result has an embedded resource of MIME type `mime_type`.
    #[track_caller]
    pub fn has_embedded_resource(self, mime_type: &str) -> Self {
        check(self.try_has_embedded_resource(mime_type))
    }

    /// [`has_embedded_resource`](Self::has_embedded_resource), returning the failure.
    pub fn try_has_embedded_resource(self, mime_type: &str) -> Result<Self, AssertionError> {
        self.has_block("an embedded resource", mime_type, |b| {
            b["type"] == "resource" && b["resource"]["mimeType"] == mime_type
        })
    }

    fn has_block(
        self,
        what: &str,
        mime_type: &str,
        matches: impl Fn(&Value) -> bool,
    ) -> Result<Self, AssertionError> {
        let blocks = self.blocks();
        if !blocks.iter().any(matches) {
            return Failure::new(format!(
                "Expected tool `{}` to return {what} of MIME type `{mime_type}`.",
                self.tool
            ))
            .fact("tool", self.tool)
            .json("content", &Value::Array(blocks))
            .err();
        }
        Ok(self)
    }
}
