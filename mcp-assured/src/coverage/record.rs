//! What a run exercised of a server's surface, as one coverage file holds it, and how the
//! records of many processes and machines merge into one.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The `format` of every coverage file this version writes and reads.
pub const FORMAT: &str = "mcp-assured-coverage/1";

/// One coverage file: what one client recorded, for each server it connected to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// [`FORMAT`].
    pub format: String,
    /// One entry per server (by name and version) the client reached.
    pub servers: Vec<ServerCoverage>,
}

/// A server, as its `initialize` (or `server/discover`) answer names it.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ServerId {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
}

impl std::fmt::Display for ServerId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.version.is_empty() {
            f.write_str(&self.name)
        } else {
            write!(f, "{} {}", self.name, self.version)
        }
    }
}

/// What one server listed and what was exercised of it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerCoverage {
    /// Which server.
    pub server: ServerId,
    /// How many records were merged into this one (1 as written).
    #[serde(default = "one")]
    pub records: u64,
    /// What the server listed.
    pub listed: Surface,
    /// What the client sent it and what it answered.
    pub exercised: Exercised,
}

fn one() -> u64 {
    1
}

/// What a server listed (all pages), each kind `None` when no record listed it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Surface {
    /// `tools/list`: each tool by name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<BTreeMap<String, ToolSurface>>,
    /// `prompts/list`: the prompts' names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<BTreeSet<String>>,
    /// `resources/list`: the resources' URIs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<BTreeSet<String>>,
    /// `resources/templates/list`: the templates' URI templates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub templates: Option<BTreeSet<String>>,
}

/// A listed tool: its top-level arguments, and whether it declares an output schema.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolSurface {
    /// The input schema's `properties`, by name.
    #[serde(default)]
    pub arguments: BTreeMap<String, ArgumentSurface>,
    /// Whether the tool declares an `outputSchema`.
    #[serde(default)]
    pub output_schema: bool,
}

/// A listed argument.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArgumentSurface {
    /// Named in the input schema's `required`.
    #[serde(default)]
    pub required: bool,
    /// The values a test can cover one by one: the schema's `enum` (or `const`), or
    /// `false` and `true` for a boolean; empty for any other argument.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Value>,
}

impl ToolSurface {
    /// The surface of a tool as `tools/list` gives it.
    pub fn from_tool(tool: &Value) -> ToolSurface {
        let schema = tool.get("inputSchema");
        let required: BTreeSet<&str> = schema
            .and_then(|schema| schema.get("required"))
            .and_then(Value::as_array)
            .map(|names| names.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let arguments = schema
            .and_then(|schema| schema.get("properties"))
            .and_then(Value::as_object)
            .map(|properties| {
                properties
                    .iter()
                    .map(|(name, property)| {
                        let argument = ArgumentSurface {
                            required: required.contains(name.as_str()),
                            values: countable_values(property),
                        };
                        (name.clone(), argument)
                    })
                    .collect()
            })
            .unwrap_or_default();
        ToolSurface {
            arguments,
            output_schema: tool.get("outputSchema").is_some_and(Value::is_object),
        }
    }
}

/// The values of an argument a test can cover one by one.
fn countable_values(property: &Value) -> Vec<Value> {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        return values.clone();
    }
    if let Some(value) = property.get("const") {
        return vec![value.clone()];
    }
    // `anyOf`/`oneOf` of constants, as some SDKs write an enum with titles.
    for key in ["anyOf", "oneOf"] {
        if let Some(branches) = property.get(key).and_then(Value::as_array) {
            let constants: Option<Vec<Value>> = branches
                .iter()
                .map(|branch| branch.get("const").cloned())
                .collect();
            if let Some(constants) = constants.filter(|c| !c.is_empty()) {
                return constants;
            }
        }
    }
    let boolean = match property.get("type") {
        Some(Value::String(kind)) => kind == "boolean",
        Some(Value::Array(kinds)) => kinds.iter().any(|kind| kind == "boolean"),
        _ => false,
    };
    if boolean {
        vec![Value::Bool(false), Value::Bool(true)]
    } else {
        Vec::new()
    }
}

/// What was sent to a server and what it answered.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Exercised {
    /// `tools/call`, by tool name.
    #[serde(default)]
    pub tools: BTreeMap<String, ToolUse>,
    /// `prompts/get`: how often each prompt was got.
    #[serde(default)]
    pub prompts: BTreeMap<String, u64>,
    /// `resources/read`: how often each URI was read.
    #[serde(default)]
    pub resources: BTreeMap<String, u64>,
    /// The server's notifications, by method: how many came.
    #[serde(default)]
    pub notifications: BTreeMap<String, u64>,
}

/// The calls of one tool.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolUse {
    /// How many `tools/call` named it.
    pub calls: u64,
    /// Each top-level argument sent, by name (an argument never sent is absent here).
    #[serde(default)]
    pub arguments: BTreeMap<String, ArgumentUse>,
    /// How the server answered.
    #[serde(default)]
    pub outcomes: Outcomes,
    /// The structured outputs checked against the tool's output schema.
    #[serde(default)]
    pub output: OutputChecks,
}

/// One argument of one tool's calls.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ArgumentUse {
    /// In how many calls it was present.
    pub present: u64,
    /// The scalar values sent, each as its JSON text, with how often; at most
    /// [`MAX_VALUES`] different ones besides the listed values of the argument.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, u64>,
}

/// How many different values of an argument the schema does not list are kept: a fuzz run
/// sends thousands, and only the listed ones count.
pub const MAX_VALUES: usize = 64;

/// How a tool's calls were answered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Outcomes {
    /// Results without `isError: true`.
    pub success: u64,
    /// Results with `isError: true`.
    pub is_error: u64,
    /// JSON-RPC errors.
    pub protocol_error: u64,
}

/// A tool's structured outputs against its output schema.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct OutputChecks {
    /// Successful results whose `structuredContent` conforms.
    pub valid: u64,
    /// Successful results whose `structuredContent` is missing or does not conform.
    pub invalid: u64,
    /// Successful results not checked: the schema was not listed on that session before
    /// the call, or the `schema` feature is off.
    pub unchecked: u64,
}

impl Record {
    /// A record of `servers`, in this version's format.
    pub fn new(servers: Vec<ServerCoverage>) -> Record {
        Record {
            format: FORMAT.to_owned(),
            servers,
        }
    }
}

impl ServerCoverage {
    /// An empty record of `server`.
    pub fn new(server: ServerId) -> ServerCoverage {
        ServerCoverage {
            server,
            records: 1,
            ..ServerCoverage::default()
        }
    }

    /// Adds `other` (a record of the same server) to this one: surfaces united, counts added.
    pub fn merge(&mut self, other: ServerCoverage) {
        self.records += other.records;
        self.listed.merge(other.listed);
        self.exercised.merge(other.exercised);
    }
}

impl Surface {
    /// Unites `other` with this surface.
    pub fn merge(&mut self, other: Surface) {
        merge_option(&mut self.tools, other.tools, |tools, more| {
            for (name, tool) in more {
                match tools.get_mut(&name) {
                    Some(known) => known.merge(tool),
                    None => {
                        tools.insert(name, tool);
                    }
                }
            }
        });
        merge_option(&mut self.prompts, other.prompts, BTreeSet::extend);
        merge_option(&mut self.resources, other.resources, BTreeSet::extend);
        merge_option(&mut self.templates, other.templates, BTreeSet::extend);
    }
}

fn merge_option<T>(into: &mut Option<T>, other: Option<T>, merge: impl FnOnce(&mut T, T)) {
    match (into.as_mut(), other) {
        (Some(known), Some(more)) => merge(known, more),
        (None, Some(more)) => *into = Some(more),
        (_, None) => {}
    }
}

impl ToolSurface {
    /// Unites `other` (the same tool, listed elsewhere) with this one.
    pub fn merge(&mut self, other: ToolSurface) {
        self.output_schema |= other.output_schema;
        for (name, argument) in other.arguments {
            match self.arguments.get_mut(&name) {
                Some(known) => {
                    known.required |= argument.required;
                    for value in argument.values {
                        if !known.values.contains(&value) {
                            known.values.push(value);
                        }
                    }
                }
                None => {
                    self.arguments.insert(name, argument);
                }
            }
        }
    }
}

impl Exercised {
    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: Exercised) {
        for (name, tool) in other.tools {
            self.tools.entry(name).or_default().merge(tool);
        }
        add_counts(&mut self.prompts, other.prompts);
        add_counts(&mut self.resources, other.resources);
        add_counts(&mut self.notifications, other.notifications);
    }
}

impl ToolUse {
    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: ToolUse) {
        self.calls += other.calls;
        for (name, argument) in other.arguments {
            let known = self.arguments.entry(name).or_default();
            known.present += argument.present;
            add_counts(&mut known.values, argument.values);
        }
        self.outcomes.success += other.outcomes.success;
        self.outcomes.is_error += other.outcomes.is_error;
        self.outcomes.protocol_error += other.outcomes.protocol_error;
        self.output.valid += other.output.valid;
        self.output.invalid += other.output.invalid;
        self.output.unchecked += other.output.unchecked;
    }
}

fn add_counts(into: &mut BTreeMap<String, u64>, more: BTreeMap<String, u64>) {
    for (key, count) in more {
        *into.entry(key).or_default() += count;
    }
}
