//! An rmcp server with planted bugs, one of each kind the fuzzer looks for, beside tools
//! that are correct: the proof that `client.fuzz()` finds what nobody wrote a test for, and
//! nothing where there is nothing. Its tools, schemas and bugs are those of
//! `tests/peers/planted_bugs_server.py` (the Python SDK twin, run as a child), except that a
//! panic in an rmcp handler leaves the request unanswered rather than killing a process:
//! in process, `greet`'s bug is found as a hang.
//!
//! | tool | bug |
//! | --- | --- |
//! | `greet` | panics on `name == ""` |
//! | `divide` | -32603 on `b == 0` |
//! | `search` | never answers a `query` with a non-ASCII character |
//! | `scale` | `scaled: 1001` at `value == 100`, beyond the outputSchema's maximum 1000 |
//! | `convert` | a Rust panic message with its source path for `unit == "kelvin"` |
//! | `lookup` | serves a call without the required `id` |
//! | `page` | serves a `page` outside 1..=1000 |
//! | `batch` | -32603 at exactly `maxItems` (5) items |
//! | `profile` | drops the required `email` when `include_email` is false and `include_phone` true |
//!
//! `echo`, `add` and `noop` are correct, and so is `delete_everything`, annotated
//! `destructiveHint`. [`PlantedBugs::correct`] serves the same tools without the bugs.

use std::sync::Arc;

use mcp_assured::{
    fuzz::{self, Finding, FindingKind},
    report::{Report, Status},
    schema,
};
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
        Tool, ToolAnnotations,
    },
    service::RequestContext,
};
use serde_json::{Value, json};

/// The server; [`PlantedBugs::new`] with its bugs, [`PlantedBugs::correct`] without.
#[derive(Debug, Clone, Copy)]
pub struct PlantedBugs {
    bugs: bool,
    /// Also lists `external`, whose input schema is a remote `$ref` no input can be
    /// generated from.
    external: bool,
}

impl PlantedBugs {
    /// Every tool with its bug.
    pub fn new() -> PlantedBugs {
        PlantedBugs {
            bugs: true,
            external: false,
        }
    }

    /// The same tools and schemas, each correct.
    pub fn correct() -> PlantedBugs {
        PlantedBugs {
            bugs: false,
            external: false,
        }
    }

    /// Also lists `external`, whose input schema is only a remote `$ref`.
    pub fn with_external_schema(self) -> PlantedBugs {
        PlantedBugs {
            external: true,
            ..self
        }
    }

    fn tools(&self) -> Vec<Tool> {
        let mut tools = tools();
        if self.external {
            tools.push(tool(
                "external",
                "Its arguments are described elsewhere.",
                json!({"$ref": "https://example.com/schemas/external.json"}),
            ));
        }
        tools
    }
}

impl Default for PlantedBugs {
    fn default() -> Self {
        PlantedBugs::new()
    }
}

/// The buggy tools' names, in the order of the table above.
pub const BUGGY_TOOLS: [&str; 9] = [
    "greet", "divide", "search", "scale", "convert", "lookup", "page", "batch", "profile",
];

/// The correct tools' names (`delete_everything` is skipped unless destructive tools are
/// included).
pub const CORRECT_TOOLS: [&str; 4] = ["echo", "add", "noop", "delete_everything"];

fn object(value: Value) -> Arc<JsonObject> {
    Arc::new(value.as_object().expect("a schema is an object").clone())
}

fn tool(name: &'static str, description: &'static str, input: Value) -> Tool {
    Tool::new(name, description, object(input))
}

fn tools() -> Vec<Tool> {
    vec![
        tool(
            "greet",
            "Greets someone by name.",
            json!({
            "type": "object",
            "properties": {"name": {"type": "string", "maxLength": 50}},
            "required": ["name"], "additionalProperties": false}),
        ),
        tool(
            "divide",
            "Divides a by b.",
            json!({
            "type": "object",
            "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
            "required": ["a", "b"], "additionalProperties": false}),
        )
        .with_raw_output_schema(object(json!({
            "type": "object", "properties": {"quotient": {"type": "number"}},
            "required": ["quotient"]}))),
        tool(
            "search",
            "Searches the catalogue.",
            json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "maxLength": 100},
                "limit": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}},
            "required": ["query"], "additionalProperties": false}),
        ),
        tool(
            "scale",
            "Multiplies by ten.",
            json!({
            "type": "object",
            "properties": {"value": {"type": "integer", "minimum": 0, "maximum": 100}},
            "required": ["value"], "additionalProperties": false}),
        )
        .with_raw_output_schema(object(json!({
            "type": "object",
            "properties": {"scaled": {"type": "integer", "maximum": 1000}},
            "required": ["scaled"]}))),
        tool(
            "convert",
            "Converts a temperature to Celsius.",
            json!({
            "type": "object",
            "properties": {
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit", "kelvin"]},
                "value": {"type": "number"}},
            "required": ["unit", "value"], "additionalProperties": false}),
        ),
        tool(
            "lookup",
            "Looks a record up by id.",
            json!({
            "type": "object",
            "properties": {"id": {"type": "string"}, "verbose": {"type": "boolean"}},
            "required": ["id"], "additionalProperties": false}),
        ),
        tool(
            "page",
            "Shows one page of results.",
            json!({
            "type": "object",
            "properties": {"page": {"type": "integer", "minimum": 1, "maximum": 1000}},
            "required": ["page"], "additionalProperties": false}),
        ),
        tool(
            "batch",
            "Processes a batch of items.",
            json!({
            "type": "object",
            "properties": {"items": {
                "type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5}},
            "required": ["items"], "additionalProperties": false}),
        ),
        tool(
            "profile",
            "A user's profile.",
            json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "include_email": {"type": "boolean"},
                "include_phone": {"type": "boolean"}},
            "required": ["name", "include_email", "include_phone"],
            "additionalProperties": false}),
        )
        .with_raw_output_schema(object(json!({
            "type": "object",
            "properties": {
                "name": {"type": "string"}, "email": {"type": "string"},
                "phone": {"type": "string"}},
            "required": ["name", "email", "phone"]}))),
        tool(
            "echo",
            "Echoes the message.",
            json!({
            "type": "object", "properties": {"message": {"type": "string"}},
            "required": ["message"], "additionalProperties": false}),
        ),
        tool(
            "add",
            "Adds two integers.",
            json!({
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"], "additionalProperties": false}),
        )
        .with_raw_output_schema(object(json!({
            "type": "object", "properties": {"sum": {"type": "integer"}},
            "required": ["sum"]}))),
        tool(
            "noop",
            "Does nothing.",
            json!({"type": "object", "properties": {}}),
        ),
        tool(
            "delete_everything",
            "Deletes everything (it does not).",
            json!({
            "type": "object", "properties": {"confirm": {"type": "boolean"}},
            "required": ["confirm"], "additionalProperties": false}),
        )
        .with_annotations(ToolAnnotations::new().destructive(true)),
    ]
}

fn text(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn structured(value: Value) -> CallToolResult {
    CallToolResult::structured(value)
}

fn refused(why: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(why.into())])
}

impl PlantedBugs {
    /// Which checks of the input schema a tool skips: its planted bug, when it has one.
    fn skips_validation(&self, name: &str, arguments: &Value) -> bool {
        if !self.bugs {
            return false;
        }
        match name {
            "lookup" => arguments.get("id").is_none(),
            "page" => {
                arguments
                    .as_object()
                    .is_some_and(|fields| fields.len() == 1)
                    && arguments.get("page").is_some_and(Value::is_i64)
            }
            _ => false,
        }
    }

    async fn call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ErrorData> {
        let Some(definition) = self.tools().into_iter().find(|tool| tool.name == name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{name}`"),
                None,
            ));
        };
        let schema = Value::Object((*definition.input_schema).clone());
        let violations = schema::violations(&schema, &arguments);
        if !violations.is_empty() && !self.skips_validation(name, &arguments) {
            let reasons: Vec<String> = violations.iter().map(ToString::to_string).collect();
            return Ok(refused(format!(
                "invalid arguments: {}",
                reasons.join("; ")
            )));
        }
        let bugs = self.bugs;
        let string = |key: &str| {
            arguments
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let number = |key: &str| {
            arguments
                .get(key)
                .and_then(Value::as_f64)
                .unwrap_or_default()
        };
        let flag = |key: &str| {
            arguments
                .get(key)
                .and_then(Value::as_bool)
                .unwrap_or_default()
        };
        Ok(match name {
            "greet" => {
                let name = string("name");
                if bugs && name.is_empty() {
                    panic!("greet: an empty name");
                }
                text(format!("Hello, {name}"))
            }
            "divide" => {
                let (a, b) = (number("a"), number("b"));
                if b == 0.0 {
                    if bugs {
                        return Err(ErrorData::internal_error("division by zero", None));
                    }
                    return Ok(refused("b must not be zero"));
                }
                structured(json!({"quotient": a / b}))
            }
            "search" => {
                let query = string("query");
                if bugs && !query.is_ascii() {
                    std::future::pending::<()>().await;
                }
                let limit = arguments.get("limit").and_then(Value::as_u64).unwrap_or(5);
                text(format!("{limit} results for {query:?}"))
            }
            "scale" => {
                let value = arguments["value"].as_i64().unwrap_or_default();
                let scaled = if bugs && value == 100 {
                    1001
                } else {
                    value * 10
                };
                structured(json!({"scaled": scaled}))
            }
            "convert" => {
                let (unit, value) = (string("unit"), number("value"));
                match unit.as_str() {
                    "kelvin" if bugs => refused(
                        "thread 'tokio-runtime-worker' panicked at /home/ci/planted/src/convert.rs:42:9:\n\
                         unsupported unit",
                    ),
                    "kelvin" => text(format!("{}", value - 273.15)),
                    "fahrenheit" => text(format!("{}", (value - 32.0) * 5.0 / 9.0)),
                    _ => text(format!("{value}")),
                }
            }
            "lookup" => text(format!("looked up {:?}", arguments.get("id"))),
            "page" => text(format!("page {}", arguments["page"])),
            "batch" => {
                let items = arguments["items"].as_array().cloned().unwrap_or_default();
                if bugs && items.len() == 5 {
                    return Err(ErrorData::internal_error(
                        "index out of bounds: the len is 5 but the index is 5",
                        None,
                    ));
                }
                text(format!("processed {} items", items.len()))
            }
            "profile" => {
                let (email, phone) = (flag("include_email"), flag("include_phone"));
                let mut profile = json!({
                    "name": string("name"),
                    "email": if email { "someone@example.com" } else { "" },
                    "phone": if phone { "+44 20 7946 0000" } else { "" },
                });
                if bugs && !email && phone {
                    profile.as_object_mut().expect("an object").remove("email");
                }
                structured(profile)
            }
            "echo" => text(string("message")),
            "add" => {
                let (a, b) = (arguments["a"].as_i64(), arguments["b"].as_i64());
                match (a, b) {
                    (Some(a), Some(b)) => match a.checked_add(b) {
                        Some(sum) => structured(json!({"sum": sum})),
                        None => refused("the sum overflows"),
                    },
                    _ => refused("a and b must be integers"),
                }
            }
            "noop" => text("ok"),
            _ => text("nothing was deleted"),
        })
    }
}

impl ServerHandler for PlantedBugs {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("planted-bugs", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|tool| tool.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        self.call(&request.name, arguments).await.map(Into::into)
    }
}

/// How a server with these bugs was reached, for what its findings must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reached {
    /// In process: `greet`'s panic leaves its request unanswered, a hang; shrinking is exact.
    InProcess,
    /// A child process: `greet` kills it, a crash; under load a call slow to answer may pass
    /// for hung while a hang shrinks, which the confirmation steps back from.
    Child,
}

/// The finding in `tool`, which must be its only one.
#[track_caller]
pub fn finding_in<'a>(findings: &'a [Finding], tool: &str) -> &'a Finding {
    let of_tool: Vec<&Finding> = findings.iter().filter(|f| f.name == tool).collect();
    assert_eq!(of_tool.len(), 1, "one finding in `{tool}`: {findings:#?}");
    of_tool[0]
}

/// Every planted bug found once, each of its kind and shrunk to its smallest input, and
/// nothing in the correct tools.
#[track_caller]
pub fn assert_every_bug_found(report: &Report, reached: Reached) {
    let findings = fuzz::findings(report);
    for tool in BUGGY_TOOLS {
        finding_in(&findings, tool);
    }
    assert_eq!(findings.len(), BUGGY_TOOLS.len(), "{report}");
    let greet = finding_in(&findings, "greet");
    let killed = match reached {
        Reached::InProcess => FindingKind::Hang,
        Reached::Child => FindingKind::Crash,
    };
    assert_eq!(
        (greet.kind, &greet.arguments),
        (killed, &json!({"name": ""}))
    );
    let divide = finding_in(&findings, "divide");
    assert_eq!(divide.kind, FindingKind::ErrorOnValidInput);
    assert_eq!(divide.arguments["b"].as_f64(), Some(0.0), "{divide:#?}");
    let search = finding_in(&findings, "search");
    assert_eq!(search.kind, FindingKind::Hang);
    let query = search.arguments["query"].as_str().unwrap();
    // Shrinking a hang has a time budget (two call timeouts): on a loaded machine a child
    // server's answers are slower and it may stop a step or two short of one character.
    let longest = if reached == Reached::InProcess { 1 } else { 5 };
    assert!(
        !query.is_ascii() && query.chars().count() <= longest,
        "{search:#?}"
    );
    let scale = finding_in(&findings, "scale");
    assert_eq!(
        (scale.kind, &scale.arguments),
        (FindingKind::OutputSchema, &json!({"value": 100}))
    );
    let convert = finding_in(&findings, "convert");
    assert_eq!(convert.kind, FindingKind::LeakedInternals);
    assert_eq!(convert.arguments["unit"], "kelvin");
    let lookup = finding_in(&findings, "lookup");
    assert_eq!(
        (lookup.kind, &lookup.arguments),
        (FindingKind::AcceptedInvalid, &json!({}))
    );
    let page = finding_in(&findings, "page");
    assert_eq!(page.kind, FindingKind::AcceptedInvalid);
    assert!(
        matches!(page.arguments["page"].as_i64(), Some(0 | 1001)),
        "{page:#?}"
    );
    let batch = finding_in(&findings, "batch");
    assert_eq!(batch.kind, FindingKind::ErrorOnValidInput);
    assert_eq!(
        batch.arguments["items"],
        json!(["", "", "", "", ""]),
        "{batch:#?}"
    );
    let profile = finding_in(&findings, "profile");
    assert_eq!(profile.kind, FindingKind::OutputSchema);
    assert_eq!(profile.arguments["include_email"], false);
    assert_eq!(profile.arguments["include_phone"], true);
    for tool in ["echo", "add", "noop"] {
        let entry = report.entry(&format!("fuzz.tools.{tool}")).unwrap();
        assert_eq!(entry.status, Status::Passed, "{report}");
    }
}
