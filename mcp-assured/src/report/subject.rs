//! [`SubjectRef`]: what a finding is about, in parts, beside the words people read
//! (``tool `greet` ``), so that a program reading a report's JSON need not parse them.

use serde::{Deserialize, Serialize};

/// The kind of thing a finding is about.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum SubjectKind {
    /// A tool, named by its name.
    Tool,
    /// A prompt, named by its name.
    Prompt,
    /// A resource, named by its URI.
    Resource,
    /// A resource template, named by its URI template.
    ResourceTemplate,
    /// The server as a whole (its surface, its instructions, a limit on its requests).
    Server,
}

/// What a finding is about, in parts: `{"kind": "tool", "name": "greet", "server": "weather"}`.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SubjectRef {
    /// What kind of thing.
    pub kind: SubjectKind,
    /// Its name: a tool's or prompt's name, a resource's URI, a template's URI template;
    /// for the server, its name where known (else empty).
    pub name: String,
    /// The server it is of, where known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<String>,
}

impl SubjectRef {
    /// `kind` `name`, of no server named.
    pub fn new(kind: SubjectKind, name: impl Into<String>) -> SubjectRef {
        SubjectRef {
            kind,
            name: name.into(),
            server: None,
        }
    }

    /// Reads the words reports write for people: ``tool `add` ``, ``prompt `greet` ``,
    /// ``resource `file:///a` ``, ``resource template `file:///{path}` ``, `the server`;
    /// `None` for other words.
    ///
    /// ```
    /// use mcp_assured::report::{SubjectKind, SubjectRef};
    ///
    /// let subject = SubjectRef::parse("resource template `file:///{path}`").unwrap();
    /// assert_eq!(subject.kind, SubjectKind::ResourceTemplate);
    /// assert_eq!(subject.name, "file:///{path}");
    /// let whole = SubjectRef::parse("the server").unwrap().of_server(Some("weather"));
    /// assert_eq!((whole.kind, whole.name.as_str()), (SubjectKind::Server, "weather"));
    /// assert_eq!(whole.server.as_deref(), Some("weather"));
    /// assert_eq!(SubjectRef::parse("a sentence"), None);
    /// ```
    pub fn parse(words: &str) -> Option<SubjectRef> {
        if words == "the server" {
            return Some(SubjectRef::new(SubjectKind::Server, ""));
        }
        let (kind, name) = split(words)?;
        let kind = match kind {
            "tool" => SubjectKind::Tool,
            "prompt" => SubjectKind::Prompt,
            "resource" => SubjectKind::Resource,
            "resource template" | "template" => SubjectKind::ResourceTemplate,
            _ => return None,
        };
        Some(SubjectRef::new(kind, name))
    }

    /// The subject as of `server` (when known); the server's own subject takes its name.
    #[must_use = "this returns the subject with its server and leaves `self` unchanged"]
    pub fn of_server(mut self, server: Option<&str>) -> SubjectRef {
        if let Some(server) = server {
            if self.kind == SubjectKind::Server && self.name.is_empty() {
                self.name = server.to_owned();
            }
            self.server = Some(server.to_owned());
        }
        self
    }
}

/// The kind and the name of words such as ``tool `add` ``: what precedes the first `` ` ``
/// and what the backticks hold.
pub(crate) fn split(words: &str) -> Option<(&str, &str)> {
    let (kind, rest) = words.split_once(" `")?;
    Some((kind, rest.strip_suffix('`')?))
}
