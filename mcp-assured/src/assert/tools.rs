//! Checks on `tools/list`: which tools there are, and what each one declares.

use rmcp::model::Tool;
use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check, listing},
    json,
    listed::TOOLS,
};
use crate::{results::listed::Listed, schema};

/// Checks on a list of tools; from `tools.assert()` (see [`AssertTools`]).
///
/// ```
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// use mcp_assured::prelude::*;
/// let tools = client.list_tools().await?;
/// tools.assert()
///     .contains_tool("weather")
///     .does_not_contain_tool("removed-tool")
///     .tool("weather")
///     .requires(["city"])
///     .has_property_of_type("city", "string")
///     .has_output_schema();
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct ToolListAssert<'a> {
    tools: &'a [Tool],
    /// Each tool as the server sent it, when known (from a [`Listed`]).
    sent: Option<&'a [Value]>,
}

/// `.assert()` on a list of tools.
pub trait AssertTools {
    /// Starts a chain of checks on the list.
    fn assert(&self) -> ToolListAssert<'_>;
}

impl AssertTools for [Tool] {
    fn assert(&self) -> ToolListAssert<'_> {
        ToolListAssert {
            tools: self,
            sent: None,
        }
    }
}

/// Checks that read each tool as the server sent it (e.g. [`ToolAssert::json_at`] on a
/// field rmcp's `Tool` does not model).
impl AssertTools for Listed<Tool> {
    fn assert(&self) -> ToolListAssert<'_> {
        ToolListAssert {
            tools: self,
            sent: Some(self.wire()),
        }
    }
}

impl<'a> ToolListAssert<'a> {
    /// Each tool as the server sent it when known, else as rmcp's `Tool` serialises.
    #[cfg(feature = "lint")]
    pub(crate) fn as_sent(&self) -> Vec<Value> {
        match self.sent {
            Some(sent) => sent.to_vec(),
            None => self
                .tools
                .iter()
                .map(|tool| serde_json::to_value(tool).unwrap_or(Value::Null))
                .collect(),
        }
    }

    fn names(&self) -> Vec<String> {
        self.tools.iter().map(|t| t.name.to_string()).collect()
    }

    /// The list has a tool named `name`.
    #[track_caller]
    pub fn contains_tool(self, name: &str) -> Self {
        check(self.try_contains_tool(name))
    }

    /// [`contains_tool`](Self::contains_tool), returning the failure instead of panicking.
    pub fn try_contains_tool(self, name: &str) -> Result<Self, AssertionError> {
        self.try_tool(name).map(|_| self)
    }

    /// The list has no tool named `name`.
    #[track_caller]
    pub fn does_not_contain_tool(self, name: &str) -> Self {
        check(self.try_does_not_contain_tool(name))
    }

    /// [`does_not_contain_tool`](Self::does_not_contain_tool), returning the failure.
    pub fn try_does_not_contain_tool(self, name: &str) -> Result<Self, AssertionError> {
        if self.tools.iter().any(|t| t.name == name) {
            return TOOLS.unwanted(name, &self.names());
        }
        Ok(self)
    }

    /// The list has exactly `count` tools.
    #[track_caller]
    pub fn has_count(self, count: usize) -> Self {
        check(self.try_has_count(count))
    }

    /// [`has_count`](Self::has_count), returning the failure.
    pub fn try_has_count(self, count: usize) -> Result<Self, AssertionError> {
        if self.tools.len() != count {
            return TOOLS.wrong_count(count, &self.names());
        }
        Ok(self)
    }

    /// Continues with checks on the tool named `name` (which must be there).
    #[track_caller]
    pub fn tool(self, name: &str) -> ToolAssert<'a> {
        check(self.try_tool(name))
    }

    /// [`tool`](Self::tool), returning the failure.
    pub fn try_tool(self, name: &str) -> Result<ToolAssert<'a>, AssertionError> {
        match self.tools.iter().position(|t| t.name == name) {
            Some(at) => Ok(ToolAssert {
                tool: &self.tools[at],
                sent: self.sent.and_then(|sent| sent.get(at)),
            }),
            None => TOOLS.missing(name, &self.names()),
        }
    }
}

/// Checks on one tool's definition; from [`ToolListAssert::tool`] or `tool.assert()`.
#[derive(Debug, Clone, Copy)]
pub struct ToolAssert<'a> {
    tool: &'a Tool,
    sent: Option<&'a Value>,
}

/// `.assert()` on one tool.
pub trait AssertTool {
    /// Starts a chain of checks on the tool.
    fn assert(&self) -> ToolAssert<'_>;
}

impl AssertTool for Tool {
    fn assert(&self) -> ToolAssert<'_> {
        ToolAssert {
            tool: self,
            sent: None,
        }
    }
}

macro_rules! hint_check {
    ($name:ident, $try_name:ident, $field:ident, $hint:literal) => {
        #[doc = concat!("The tool's `", $hint, "` annotation is `expected`.")]
        #[track_caller]
        pub fn $name(self, expected: bool) -> Self {
            check(self.$try_name(expected))
        }

        #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), "), returning the failure.")]
        pub fn $try_name(self, expected: bool) -> Result<Self, AssertionError> {
            let actual = self.tool.annotations.as_ref().and_then(|a| a.$field);
            if actual != Some(expected) {
                return self
                    .failure(format!(
                        "Expected tool `{}` to have {}={expected}, but it has {}.",
                        self.tool.name,
                        $hint,
                        actual.map_or("no such annotation".to_owned(), |a| format!("{}={a}", $hint))
                    ))
                    .err();
            }
            Ok(self)
        }
    };
}

impl<'a> ToolAssert<'a> {
    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline)
            .fact("tool", &self.tool.name)
            .json("definition", &self.definition())
    }

    /// The definition as the server sent it, or as rmcp encodes it when that is not known.
    fn definition(&self) -> Value {
        match self.sent {
            Some(sent) => sent.clone(),
            None => serde_json::to_value(self.tool).unwrap_or(Value::Null),
        }
    }

    /// The value at the JSON `pointer` in the tool's definition, as the server sent it,
    /// equals `expected` (numbers by value), e.g. `.json_at("/execution/taskSupport",
    /// "required")`. Reads what arrived when the list came from the client (a
    /// [`Listed`]), so fields rmcp's `Tool` does not model can be checked.
    #[track_caller]
    pub fn json_at(self, pointer: &str, expected: impl serde::Serialize) -> Self {
        check(self.try_json_at(pointer, expected))
    }

    /// The tool's `execution.taskSupport` (as sent) is `expected`: `"forbidden"` (also what
    /// an absent one means), `"optional"` or `"required"`.
    #[track_caller]
    pub fn has_task_support(self, expected: &str) -> Self {
        check(self.try_has_task_support(expected))
    }

    /// [`has_task_support`](Self::has_task_support), returning the failure.
    pub fn try_has_task_support(self, expected: &str) -> Result<Self, AssertionError> {
        let definition = self.definition();
        let actual = definition
            .pointer("/execution/taskSupport")
            .and_then(Value::as_str)
            .unwrap_or("forbidden");
        if actual != expected {
            return self
                .failure(format!(
                    "Expected tool `{}` to have taskSupport {expected:?}, but it has {actual:?}.",
                    self.tool.name
                ))
                .err();
        }
        Ok(self)
    }

    /// [`json_at`](Self::json_at), returning the failure.
    pub fn try_json_at(
        self,
        pointer: &str,
        expected: impl serde::Serialize,
    ) -> Result<Self, AssertionError> {
        let expected = serde_json::to_value(expected).unwrap_or(Value::Null);
        let definition = self.definition();
        match json::check_at(
            "definition",
            &self.tool.name,
            &definition,
            pointer,
            &expected,
        ) {
            Ok(()) => Ok(self),
            Err(headline) => self.failure(headline).err(),
        }
    }

    fn input_schema(&self) -> &'a rmcp::model::JsonObject {
        &self.tool.input_schema
    }

    /// The tool's description is exactly `expected`.
    #[track_caller]
    pub fn has_description(self, expected: &str) -> Self {
        check(self.try_has_description(expected))
    }

    /// [`has_description`](Self::has_description), returning the failure.
    pub fn try_has_description(self, expected: &str) -> Result<Self, AssertionError> {
        let actual = self.tool.description.as_deref();
        if actual != Some(expected) {
            return Failure::new(format!(
                "Expected tool `{}` to have the description `{expected}`.",
                self.tool.name
            ))
            .fact("tool", &self.tool.name)
            .block("description", actual.unwrap_or("<none>"))
            .err();
        }
        Ok(self)
    }

    /// The tool's description contains `text`.
    #[track_caller]
    pub fn description_contains(self, text: &str) -> Self {
        check(self.try_description_contains(text))
    }

    /// [`description_contains`](Self::description_contains), returning the failure.
    pub fn try_description_contains(self, text: &str) -> Result<Self, AssertionError> {
        let actual = self.tool.description.as_deref().unwrap_or_default();
        if !actual.contains(text) {
            return Failure::new(format!(
                "Expected the description of tool `{}` to contain `{text}`.",
                self.tool.name
            ))
            .fact("tool", &self.tool.name)
            .block("description", actual)
            .err();
        }
        Ok(self)
    }

    /// The input schema lists every one of `properties` as required.
    #[track_caller]
    pub fn requires<I, S>(self, properties: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        check(self.try_requires(properties))
    }

    /// [`requires`](Self::requires), returning the failure.
    pub fn try_requires<I, S>(self, properties: I) -> Result<Self, AssertionError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let required: Vec<String> = self
            .input_schema()
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(|p| p.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default();
        let missing: Vec<String> = properties
            .into_iter()
            .map(|p| p.as_ref().to_owned())
            .filter(|p| !required.contains(p))
            .collect();
        if !missing.is_empty() {
            return Failure::new(format!(
                "Expected tool `{}` to require {}, but its input schema does not.",
                self.tool.name,
                listing(&missing)
            ))
            .fact("tool", &self.tool.name)
            .fact("required", listing(&required))
            .json("inputSchema", &Value::Object(self.input_schema().clone()))
            .err();
        }
        Ok(self)
    }

    /// The input schema has a property `name`.
    #[track_caller]
    pub fn has_property(self, name: &str) -> Self {
        check(self.try_has_property(name))
    }

    /// [`has_property`](Self::has_property), returning the failure.
    pub fn try_has_property(self, name: &str) -> Result<Self, AssertionError> {
        self.property(name).map(|_| self)
    }

    /// The input schema has a property `name` of JSON Schema type `json_type`
    /// (`"string"`, `"number"`, `"integer"`, `"boolean"`, `"object"`, `"array"`).
    #[track_caller]
    pub fn has_property_of_type(self, name: &str, json_type: &str) -> Self {
        check(self.try_has_property_of_type(name, json_type))
    }

    /// [`has_property_of_type`](Self::has_property_of_type), returning the failure.
    pub fn try_has_property_of_type(
        self,
        name: &str,
        json_type: &str,
    ) -> Result<Self, AssertionError> {
        let property = self.property(name)?;
        let declared = match property.get("type") {
            Some(Value::String(t)) => vec![t.clone()],
            Some(Value::Array(types)) => types
                .iter()
                .filter_map(|t| t.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        };
        if !declared.iter().any(|t| t == json_type) {
            return Failure::new(format!(
                "Expected property `{name}` of tool `{}` to be of type `{json_type}`, but it is {}.",
                self.tool.name,
                if declared.is_empty() { "untyped".to_owned() } else { format!("`{}`", declared.join("|")) }
            ))
            .fact("tool", &self.tool.name)
            .json("property", property)
            .err();
        }
        Ok(self)
    }

    fn property(&self, name: &str) -> Result<&'a Value, AssertionError> {
        let properties = self
            .input_schema()
            .get("properties")
            .and_then(Value::as_object);
        match properties.and_then(|p| p.get(name)) {
            Some(property) => Ok(property),
            None => {
                let names: Vec<String> = properties
                    .map(|p| p.keys().cloned().collect())
                    .unwrap_or_default();
                Failure::new(format!(
                    "Expected tool `{}` to have an input property `{name}`.",
                    self.tool.name
                ))
                .fact("tool", &self.tool.name)
                .fact("properties", listing(&names))
                .err()
            }
        }
    }

    /// The tool declares an `outputSchema`.
    #[track_caller]
    pub fn has_output_schema(self) -> Self {
        check(self.try_has_output_schema())
    }

    /// [`has_output_schema`](Self::has_output_schema), returning the failure.
    pub fn try_has_output_schema(self) -> Result<Self, AssertionError> {
        if self.tool.output_schema.is_none() {
            return self
                .failure(format!(
                    "Expected tool `{}` to declare an outputSchema.",
                    self.tool.name
                ))
                .err();
        }
        Ok(self)
    }

    /// The tool's title (its `title`, or else its annotations' title) is `expected`.
    #[track_caller]
    pub fn has_title(self, expected: &str) -> Self {
        check(self.try_has_title(expected))
    }

    /// [`has_title`](Self::has_title), returning the failure.
    pub fn try_has_title(self, expected: &str) -> Result<Self, AssertionError> {
        let title = self.tool.title.as_deref().or_else(|| {
            self.tool
                .annotations
                .as_ref()
                .and_then(|a| a.title.as_deref())
        });
        if title != Some(expected) {
            return self
                .failure(format!(
                    "Expected tool `{}` to have the title `{expected}`, but it has {}.",
                    self.tool.name,
                    title.map_or("none".to_owned(), |t| format!("`{t}`"))
                ))
                .err();
        }
        Ok(self)
    }

    hint_check!(
        has_read_only_hint,
        try_has_read_only_hint,
        read_only_hint,
        "readOnlyHint"
    );
    hint_check!(
        has_destructive_hint,
        try_has_destructive_hint,
        destructive_hint,
        "destructiveHint"
    );
    hint_check!(
        has_idempotent_hint,
        try_has_idempotent_hint,
        idempotent_hint,
        "idempotentHint"
    );
    hint_check!(
        has_open_world_hint,
        try_has_open_world_hint,
        open_world_hint,
        "openWorldHint"
    );

    /// `arguments` conform to the tool's input schema; a failure lists every violation.
    #[track_caller]
    pub fn accepts_arguments(self, arguments: &Value) -> Self {
        check(self.try_accepts_arguments(arguments))
    }

    /// [`accepts_arguments`](Self::accepts_arguments), returning the failure.
    pub fn try_accepts_arguments(self, arguments: &Value) -> Result<Self, AssertionError> {
        let violations = schema::validate_arguments(self.tool, arguments);
        if !violations.is_empty() {
            return Failure::new(format!(
                "Expected tool `{}` to accept the arguments, but they break its input schema in {} place(s).",
                self.tool.name,
                violations.len()
            ))
            .fact("tool", &self.tool.name)
            .block("violations", format!("\n{}\n", schema::describe(&violations)))
            .json("arguments", arguments)
            .err();
        }
        Ok(self)
    }

    /// `arguments` break the tool's input schema.
    #[track_caller]
    pub fn rejects_arguments(self, arguments: &Value) -> Self {
        check(self.try_rejects_arguments(arguments))
    }

    /// [`rejects_arguments`](Self::rejects_arguments), returning the failure.
    pub fn try_rejects_arguments(self, arguments: &Value) -> Result<Self, AssertionError> {
        if let Some(unavailable) = schema::unavailable() {
            return Failure::new(format!(
                "Cannot tell whether tool `{}` rejects the arguments: {unavailable}.",
                self.tool.name
            ))
            .fact("tool", &self.tool.name)
            .err();
        }
        if schema::validate_arguments(self.tool, arguments).is_empty() {
            return Failure::new(format!(
                "Expected tool `{}` to reject the arguments, but they conform to its input schema.",
                self.tool.name
            ))
            .fact("tool", &self.tool.name)
            .json("arguments", arguments)
            .json("inputSchema", &Value::Object(self.input_schema().clone()))
            .err();
        }
        Ok(self)
    }
}
