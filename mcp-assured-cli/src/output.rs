//! What `--json` prints, as types: each command's document ([`Check`], [`Fuzz`], [`Lint`],
//! [`Bench`], [`Diff`], [`List`]) and a failure's ([`Failed`]). The commands serialise these,
//! and [`schema`] is generated from them, so the published schema
//! (`schemas/report.schema.json`, JSON Schema draft 2020-12) and the output cannot drift
//! apart.
//!
//! ```
//! let schema = mcp_assured_cli::output::schema();
//! assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
//! assert!(schema["$defs"]["Check"].is_object());
//! ```
//!
//! # What is breaking
//!
//! The schema's [`VERSION`] follows semantic versioning. A field removed or renamed, a
//! field's type changed, a value of an enum (`status`, `kind`, `severity`, `level`, …)
//! removed, or an optional field made required: a major version, announced in the
//! changelog. A field, a document or an enum value added: a minor version; consumers must
//! ignore fields they do not know, and treat an enum value they do not know as the most
//! severe they do.

use mcp_assured::{
    ServerInfo,
    diff::{Changes, SurfaceServer},
    lint,
    load::LoadReport,
    report::{Entry, Finding, Summary},
};
use schemars::{
    JsonSchema,
    generate::{Contract, SchemaSettings},
};
use serde::Serialize;
use serde_json::{Map, Value, json};

/// The schema's version (see "What is breaking").
pub const VERSION: &str = "1.3.0";

/// Where the schema is published.
pub const SCHEMA_ID: &str =
    "https://raw.githubusercontent.com/mcp-assured/mcp-assured/main/schemas/report.schema.json";

/// `mcp-assured check --json`: each part's entries under its own key, the target, the
/// server, and the counts.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Check {
    /// The server's own `mcp.test.*` tests (absent with `--no-server-tests`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_tests: Option<Vec<Entry>>,
    /// The protocol checks (and with `--load`, `load.*`).
    pub protocol_checks: Vec<Entry>,
    /// With `--pinned`: the one `pinned` entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<Vec<Entry>>,
    /// With `--rest`: the parity of the server's REST face with its MCP face.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parity_checks: Option<Vec<Entry>>,
    /// With `--rest`: whether the server honours what it declares of each tool (its
    /// permissions, limits and streaming), on both faces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hybrid_checks: Option<Vec<Entry>>,
    /// The URL or command line, or the server of a config file.
    pub target: String,
    /// What the server said about itself.
    pub server: ServerInfo,
    /// The counts over every part.
    pub summary: Summary,
}

/// `mcp-assured fuzz --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Fuzz {
    /// The URL or command line.
    pub target: String,
    /// What the server said about itself.
    pub server: ServerInfo,
    /// Every entry: `fuzz.run` first, then each subject's.
    pub fuzz: Vec<Entry>,
    /// Each finding in full (each also in its entry's `details.finding`).
    pub findings: Vec<Finding>,
    /// The counts.
    pub summary: Summary,
}

/// `mcp-assured lint --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Lint {
    /// No finding fails the run (with `--strict`, no warning either).
    pub passed: bool,
    /// Every finding, most severe first, its subject also in parts (`subject_ref`).
    pub findings: Vec<lint::ReportedFinding>,
    /// What the surface costs in tokens.
    pub tokens: lint::TokenCount,
    /// What the linted server said about itself (one server linted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<SurfaceServer>,
    /// With `--config` and several servers: each, by the name its findings carry, and what
    /// it said about itself.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub servers: Vec<lint::LintedServer>,
}

impl From<&lint::LintReport> for Lint {
    fn from(report: &lint::LintReport) -> Lint {
        Lint {
            passed: !report.failed(),
            findings: report.reported_findings(),
            tokens: report.tokens.clone(),
            server: report.server.clone(),
            servers: report.servers.clone(),
        }
    }
}

/// `mcp-assured bench --json` (and `--json-file`).
#[derive(Debug, Serialize, JsonSchema)]
pub struct Bench {
    /// The URL or command line.
    pub target: String,
    /// What the server said about itself.
    pub server: ServerInfo,
    /// What the run measured.
    pub load: LoadReport,
}

/// `mcp-assured diff --json`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Diff {
    /// The old side: a file, or a live server's URL or command.
    pub old: String,
    /// The new side.
    pub new: String,
    /// What the old side's server said about itself, when its surface knows (a live
    /// server, `list --json`'s output, a cassette; not snapshots).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_server: Option<SurfaceServer>,
    /// What the new side's server said about itself, when its surface knows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_server: Option<SurfaceServer>,
    /// How many changes may break a client of the old side.
    pub breaking: usize,
    /// How many do not.
    pub compatible: usize,
    /// Every change, breaking first.
    pub changes: Changes,
}

/// `mcp-assured coverage --json`: the surface coverage recorded in a directory.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Coverage {
    /// The directory the records were read from.
    pub directory: String,
    /// Each server's coverage, in name order.
    pub servers: Vec<mcp_assured::coverage::ServerReport>,
    /// The tallies below a `--min-*` threshold (the exit status is 1 when there is one).
    pub below: Vec<mcp_assured::coverage::Shortfall>,
}

/// `mcp-assured list --json`: what the server offers, each item as MCP's `*/list` result
/// has it (the specification's schema describes them).
#[derive(Debug, Serialize, JsonSchema)]
pub struct List {
    /// What the server said about itself.
    pub server: ServerInfo,
    /// Its tools.
    pub tools: Vec<McpItem>,
    /// Its resources.
    pub resources: Vec<McpItem>,
    /// Its resource templates.
    pub resource_templates: Vec<McpItem>,
    /// Its prompts.
    pub prompts: Vec<McpItem>,
    /// The lists that failed, by name, with the error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Map<String, Value>>,
}

/// A tool, resource, template or prompt, as MCP defines it.
pub type McpItem = Map<String, Value>;

/// What every command prints with `--json` when it could not do its work.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Failed {
    /// What went wrong.
    pub error: Failure,
}

/// A failure: its kind, its message, and the exit status.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Failure {
    /// `failure`, `usage`, `unreachable` or `output`.
    pub kind: FailureKind,
    /// What happened, and what to do.
    pub message: String,
    /// The process's exit status: 1, 2, 3 or 4.
    pub exit_status: u8,
}

/// How a command failed.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// What was checked failed.
    Failure,
    /// The command line is wrong.
    Usage,
    /// The server could not be reached or listed.
    Unreachable,
    /// The output could not be written.
    Output,
}

/// The JSON Schema (draft 2020-12) of every `--json` output: one definition per document
/// (`Check`, `Fuzz`, `Lint`, `Bench`, `Diff`, `Coverage`, `List`, `Failed`) under `$defs`, the root any
/// of them.
pub fn schema() -> Value {
    // What the commands write: a field skipped when empty is optional.
    let mut settings = SchemaSettings::draft2020_12();
    settings.contract = Contract::Serialize;
    let mut generator = settings.into_generator();
    let documents = [
        ("Check", generator.subschema_for::<Check>()),
        ("Fuzz", generator.subschema_for::<Fuzz>()),
        ("Lint", generator.subschema_for::<Lint>()),
        ("Bench", generator.subschema_for::<Bench>()),
        ("Diff", generator.subschema_for::<Diff>()),
        ("Coverage", generator.subschema_for::<Coverage>()),
        ("List", generator.subschema_for::<List>()),
        ("Failed", generator.subschema_for::<Failed>()),
    ];
    let any_of: Vec<Value> = documents
        .iter()
        .map(|(_, reference)| reference.clone().to_value())
        .collect();
    let commands: Map<String, Value> = documents
        .iter()
        .map(|(name, _)| (name.to_lowercase(), json!(format!("#/$defs/{name}"))))
        .collect();
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "mcp-assured --json output",
        "description": "What `mcp-assured check|fuzz|lint|bench|diff|coverage|list --json` prints; each \
            command's document is under $defs (x-documents names them), and a failure is `Failed`. \
            Generated from the Rust types (mcp_assured_cli::output); see its docs for what is breaking.",
        "x-version": VERSION,
        "x-documents": commands,
        "anyOf": any_of,
        "$defs": generator.take_definitions(true),
    })
}
