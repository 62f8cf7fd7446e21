//! What a SARIF log holds, in mcp-assured's words ([`Rule`], [`SarifResult`]), and the log
//! itself, built with `serde-sarif`'s types.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use serde_sarif::sarif;

use super::{FINGERPRINT_KEY, SCHEMA_URI, Sarif, fingerprint};
use crate::report::subject;

/// Where mcp-assured is told about.
const INFORMATION_URI: &str = "https://github.com/mcp-assured/mcp-assured";

/// How much a result matters: `error` for a failure, `warning` for a warning, `note` for
/// what is only worth knowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// It fails the run.
    Error,
    /// It warns (strict fails it).
    Warning,
    /// Worth knowing; no failure.
    Note,
}

impl Level {
    /// `error`, `warning` or `note`, as SARIF writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        }
    }

    fn to_sarif(self) -> sarif::ResultLevel {
        match self {
            Level::Error => sarif::ResultLevel::Error,
            Level::Warning => sarif::ResultLevel::Warning,
            Level::Note => sarif::ResultLevel::Note,
        }
    }
}

/// A rule a result breaks: its stable id and what a reader of the alert is told about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Stable from release to release: `tools.input_schemas`, `fuzz.crash`,
    /// `hidden-unicode.tag-characters`, `diff.required_argument_added`.
    pub id: String,
    /// One line: what the rule holds a server to.
    pub short_description: String,
    /// The whole of it: the specification's sentence and where it stands, or the rule's why.
    pub full_description: String,
    /// An absolute link to the rule's words: the specification's section, or mcp-assured's
    /// docs.
    pub help_uri: String,
    /// The level of a result that breaks it, unless the result says otherwise.
    pub default_level: Level,
    /// Words to group by (`security`, a lint category, `protocol`).
    pub tags: Vec<String>,
}

/// What a result is about beneath the server: a tool, prompt, resource or resource template,
/// by name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subject {
    /// `tool`, `prompt`, `resource`, `resource template` or `capabilities`.
    pub kind: String,
    /// Its name, URI or URI template.
    pub name: String,
}

impl Subject {
    /// `tool` `name`.
    pub fn new(kind: impl Into<String>, name: impl Into<String>) -> Subject {
        Subject {
            kind: kind.into(),
            name: name.into(),
        }
    }

    /// Reads the way lint findings and entries name what they are about: ``tool `add` ``,
    /// ``prompt `greet` ``, ``resource template `file:///{path}` ``.
    pub fn parse(words: &str) -> Option<Subject> {
        let (kind, name) = subject::split(words)?;
        Some(Subject::new(kind, name))
    }

    /// The kind of logical location SARIF gives it.
    fn sarif_kind(&self) -> &'static str {
        match self.kind.as_str() {
            "tool" => "function",
            "prompt" => "member",
            "resource" | "resource template" | "template" => "resource",
            _ => "object",
        }
    }
}

/// One result: a failure or a warning, about the server or one thing it offers.
#[derive(Debug, Clone, PartialEq)]
pub struct SarifResult {
    /// The id of its [`Rule`].
    pub rule_id: String,
    /// How much it matters.
    pub level: Level,
    /// What was found, with what to do about it.
    pub message: String,
    /// The server it is about, when the log covers several (lint's `--config` with many
    /// servers); `None`: the log's [`server`](Sarif::server).
    pub server: Option<String>,
    /// What it is about beneath the server; `None` for the server as a whole.
    pub subject: Option<Subject>,
    /// Where inside the subject's definition, as a JSON pointer (`/inputSchema/properties/q`).
    pub pointer: Option<String>,
    /// A repository file it is about, where it has one of its own.
    pub artifact: Option<String>,
    /// What else tells this finding from another of the same rule and subject (a
    /// property's name), hashed into its fingerprint.
    pub identity: Vec<String>,
    /// What a reader may want beside the message (a fuzz finding's input and
    /// reproductions), as the result's `properties`.
    pub properties: Map<String, Value>,
}

impl SarifResult {
    /// A result with no subject, pointer, file, identity or properties.
    pub fn new(rule_id: impl Into<String>, level: Level, message: impl Into<String>) -> Self {
        SarifResult {
            rule_id: rule_id.into(),
            level,
            message: message.into(),
            server: None,
            subject: None,
            pointer: None,
            artifact: None,
            identity: Vec::new(),
            properties: Map::new(),
        }
    }

    /// The fingerprint of this result, in a log about `server` (see the module's "Identity
    /// across runs").
    pub fn fingerprint(&self, server: Option<&str>) -> String {
        let server = self.server.as_deref().or(server);
        let subject = self
            .subject
            .as_ref()
            .map(|subject| format!("{}\u{1f}{}", subject.kind, subject.name));
        let mut parts = vec![
            self.rule_id.as_str(),
            server.unwrap_or(""),
            subject.as_deref().unwrap_or(""),
            self.pointer.as_deref().unwrap_or(""),
        ];
        parts.extend(self.identity.iter().map(String::as_str));
        fingerprint::of(&parts)
    }
}

/// The log of `log`, as `serde-sarif` writes it.
pub(super) fn build(log: &Sarif) -> sarif::Sarif {
    let server = log.server.as_deref();
    let rules: Vec<sarif::ReportingDescriptor> = log.rules.iter().map(descriptor).collect();
    let results: Vec<sarif::Result> = log
        .results
        .iter()
        .map(|result| {
            let rule_index = log
                .rules
                .iter()
                .position(|rule| rule.id == result.rule_id)
                .and_then(|index| i64::try_from(index).ok());
            let mut built = sarif_result(result, server, log.artifact.as_deref());
            built.rule_index = rule_index;
            built
        })
        .collect();
    let driver = sarif::ToolComponent::builder()
        .name("mcp-assured")
        .version(env!("CARGO_PKG_VERSION"))
        .semantic_version(env!("CARGO_PKG_VERSION"))
        .information_uri(INFORMATION_URI)
        .rules(rules)
        .build();
    let mut run = sarif::Run::builder()
        .tool(sarif::Tool::builder().driver(driver).build())
        .results(results)
        .column_kind(json!("unicodeCodePoints"))
        .build();
    if let Some(category) = &log.category {
        run.automation_details = Some(
            sarif::RunAutomationDetails::builder()
                .id(category.clone())
                .build(),
        );
    }
    if !log.properties.is_empty() {
        run.properties = Some(property_bag(&log.properties));
    }
    if !log.notes.is_empty() {
        run.invocations = Some(vec![invocation(&log.notes)]);
    }
    sarif::Sarif::builder()
        .schema(SCHEMA_URI)
        .version(json!("2.1.0"))
        .runs(vec![run])
        .build()
}

fn descriptor(rule: &Rule) -> sarif::ReportingDescriptor {
    sarif::ReportingDescriptor::builder()
        .id(rule.id.clone())
        .name(rule.id.clone())
        .short_description(text(&rule.short_description))
        .full_description(text(&rule.full_description))
        .help(text(&format!(
            "{}\n\n{}",
            rule.full_description, rule.help_uri
        )))
        .help_uri(rule.help_uri.clone())
        .default_configuration(
            sarif::ReportingConfiguration::builder()
                .level(json!(rule.default_level.as_str()))
                .build(),
        )
        .properties(
            sarif::PropertyBag::builder()
                .tags(rule.tags.clone())
                .additional_properties(BTreeMap::new())
                .build(),
        )
        .build()
}

fn sarif_result(
    result: &SarifResult,
    server: Option<&str>,
    artifact: Option<&str>,
) -> sarif::Result {
    let location = location(result, server, artifact);
    let mut fingerprints = BTreeMap::new();
    fingerprints.insert(FINGERPRINT_KEY.to_owned(), result.fingerprint(server));
    let mut built = sarif::Result::builder()
        .rule_id(result.rule_id.clone())
        .level(result.level.to_sarif())
        .message(
            sarif::Message::builder()
                .text(result.message.clone())
                .build(),
        )
        .locations(vec![location])
        .partial_fingerprints(fingerprints)
        .build();
    if !result.properties.is_empty() {
        built.properties = Some(property_bag(&result.properties));
    }
    built
}

fn property_bag(properties: &Map<String, Value>) -> sarif::PropertyBag {
    sarif::PropertyBag::builder()
        .additional_properties(properties.clone().into_iter().collect::<BTreeMap<_, _>>())
        .build()
}

/// The run's one invocation, which succeeded, with each note as a notification.
fn invocation(notes: &[String]) -> sarif::Invocation {
    let notifications = notes
        .iter()
        .map(|note| {
            sarif::Notification::builder()
                .level(json!("note"))
                .message(sarif::Message::builder().text(note.clone()).build())
                .build()
        })
        .collect::<Vec<_>>();
    sarif::Invocation::builder()
        .execution_successful(true)
        .tool_execution_notifications(notifications)
        .build()
}

/// The result's place: the server and its subject as a logical location, and a file where
/// the result or the log has one.
fn location(result: &SarifResult, server: Option<&str>, artifact: Option<&str>) -> sarif::Location {
    let server_name = result.server.as_deref().or(server).unwrap_or("server");
    let logical = match &result.subject {
        Some(subject) => sarif::LogicalLocation::builder()
            .name(subject.name.clone())
            .kind(subject.sarif_kind())
            .fully_qualified_name(format!(
                "{server_name}/{}/{}{}",
                subject.kind,
                subject.name,
                result.pointer.as_deref().unwrap_or("")
            ))
            .build(),
        None => sarif::LogicalLocation::builder()
            .name(server_name)
            .kind("module")
            .fully_qualified_name(server_name)
            .build(),
    };
    let mut location = sarif::Location::builder()
        .logical_locations(vec![logical])
        .build();
    if let Some(uri) = result.artifact.as_deref().or(artifact) {
        location.physical_location = Some(
            sarif::PhysicalLocation::builder()
                .artifact_location(sarif::ArtifactLocation::builder().uri(uri).build())
                .region(sarif::Region::builder().start_line(1).build())
                .build(),
        );
    }
    location
}

fn text(words: &str) -> sarif::MultiformatMessageString {
    sarif::MultiformatMessageString::builder()
        .text(words)
        .build()
}
