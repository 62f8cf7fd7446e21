//! Cassettes: a session with an MCP server, recorded as a readable JSON file, and looked up by
//! request to answer as the server did.
//!
//! A cassette is written by [`ClientBuilder::record_to`](crate::ClientBuilder::record_to)
//! (every exchange of the client's session) and by `mcp-assured record` (a proxy between an
//! MCP client, an AI assistant say, and a server). It holds what the server said of itself
//! when the session began and, for each request of the client's in the order sent, what
//! answered it, the notifications and requests the server sent while it was in flight, and
//! how long it took:
//!
//! ```json
//! {
//!   "cassette": 1,
//!   "recorded": "2026-11-20T10:31:07.412Z",
//!   "server": {
//!     "serverInfo": {"name": "example-server", "version": "1.0.0"},
//!     "protocolVersion": "2025-11-25",
//!     "capabilities": {"tools": {"listChanged": true}}
//!   },
//!   "interactions": [
//!     {
//!       "method": "tools/call",
//!       "params": {"name": "progress", "arguments": {"steps": 2}, "_meta": {"progressToken": 0}},
//!       "result": {"content": [{"type": "text", "text": "completed 2 steps"}], "isError": false},
//!       "notifications": [
//!         {"method": "notifications/progress", "params": {"progress": 1, "total": 2, "progressToken": 0}, "atMs": 10.2}
//!       ],
//!       "elapsedMs": 21.7
//!     },
//!     {
//!       "method": "resources/read",
//!       "params": {"uri": "example://nope"},
//!       "error": {"code": -32002, "message": "no resource example://nope"},
//!       "elapsedMs": 0.4
//!     }
//!   ]
//! }
//! ```
//!
//! What the server sent while no request was in flight (a `roots/list` right after
//! `initialize`, a `list_changed` between calls) is in the cassette's own `notifications` and
//! `serverRequests`, each with `after`: how many interactions had begun by then. The
//! `initialize` (or `server/discover`) exchange is not an interaction: its answer is `server`.
//!
//! Secrets stay out: the client's credentials are HTTP headers, which are not recorded, and
//! every value under a key that names a secret is written as `"<redacted>"` (see
//! [`is_secret_key`] for the rule).
//!
//! [`Cassette::answer`] finds the recorded interaction that answers a request, as a replaying
//! double does; see [`Matching`] for what must agree.
//!
//! ```
//! use mcp_assured::cassette::{Cassette, Matching};
//! use serde_json::json;
//!
//! let cassette: Cassette = serde_json::from_value(json!({
//!     "cassette": 1,
//!     "recorded": "2026-11-20T10:31:07Z",
//!     "server": {"serverInfo": {"name": "s", "version": "1"}, "protocolVersion": "2025-11-25", "capabilities": {}},
//!     "interactions": [{
//!         "method": "tools/call",
//!         "params": {"name": "echo", "arguments": {"message": "hi"}},
//!         "result": {"content": [{"type": "text", "text": "hi"}]},
//!         "elapsedMs": 1.5
//!     }]
//! })).unwrap();
//!
//! let asked = json!({"name": "echo", "arguments": {"message": "hi"}, "_meta": {"progressToken": 7}});
//! let answer = cassette.answer("tools/call", &asked, &Matching::new()).unwrap();
//! assert_eq!(answer.result.as_ref().unwrap()["content"][0]["text"], "hi");
//!
//! let missed = cassette
//!     .answer("tools/call", &json!({"name": "echo", "arguments": {"message": "hello"}}), &Matching::new())
//!     .unwrap_err();
//! assert!(missed.to_string().contains(r#"/arguments/message: recorded "hi", asked "hello""#), "{missed}");
//! ```

mod matching;
mod redact;

use std::{
    collections::HashMap,
    fs, io,
    path::{Path, PathBuf},
    sync::Mutex,
};

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use self::{
    matching::{Closest, Matching, NoMatch},
    redact::{REDACTED, is_secret_key, redact},
};

/// The version of the format this library writes and reads.
pub const VERSION: u32 = 1;

/// A recorded session: what the server said of itself, then every request of the client's
/// with what answered it. Read with [`load`](Self::load), written with [`save`](Self::save);
/// the module docs show the format.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cassette {
    /// The format's version, [`VERSION`].
    pub cassette: u32,
    /// When recording began, RFC 3339 (UTC).
    pub recorded: String,
    /// The server's answer to `initialize` (or `server/discover`).
    pub server: RecordedServer,
    /// Each request of the client's, in the order sent.
    pub interactions: Vec<Interaction>,
    /// The notifications the server sent while no request was in flight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notifications: Vec<RecordedNotification>,
    /// The requests the server sent while no request of the client's was in flight, with
    /// the client's answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub server_requests: Vec<RecordedServerRequest>,
    /// How many times [`answer`](Self::answer) handed out an interaction, by the set of
    /// interactions that matched.
    #[serde(skip)]
    handed_out: Mutex<HashMap<Vec<usize>, usize>>,
}

/// What the server said of itself when the session began: its `initialize` result (on
/// protocol 2026-07-28, its `server/discover` result and the revision agreed).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedServer {
    /// `serverInfo`: name, version, and whatever else the server put there.
    #[serde(default)]
    pub server_info: Value,
    /// The protocol revision of the session.
    #[serde(default)]
    pub protocol_version: String,
    /// The capabilities, as the server sent them.
    #[serde(default)]
    pub capabilities: Value,
    /// The server's instructions for clients, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

/// One request of the client's and everything the server did about it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Interaction {
    /// E.g. `tools/call`.
    pub method: String,
    /// The request's params as sent (`null` when it had none), secrets redacted.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
    /// The result, when the server answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The JSON-RPC error, when the server answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordedError>,
    /// The notifications the server sent while the request was in flight: those carrying
    /// its progress token, and the others while it was the newest request in flight.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notifications: Vec<RecordedNotification>,
    /// The requests the server sent while it was the newest request in flight (sampling,
    /// elicitation, roots), with the client's answers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub server_requests: Vec<RecordedServerRequest>,
    /// Why the client cancelled the request (`notifications/cancelled`), if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<String>,
    /// Milliseconds from the request to its answer (to its cancellation, while unanswered);
    /// `None` for a request the session ended before answering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elapsed_ms: Option<f64>,
}

impl Interaction {
    /// A request not yet answered.
    pub fn new(method: impl Into<String>, params: Value) -> Self {
        Interaction {
            method: method.into(),
            params,
            result: None,
            error: None,
            notifications: Vec::new(),
            server_requests: Vec::new(),
            cancelled: None,
            elapsed_ms: None,
        }
    }

    /// Whether the server answered, with a result or an error.
    pub fn is_answered(&self) -> bool {
        self.result.is_some() || self.error.is_some()
    }

    /// What the request is about: the `name` of a tool or prompt, the `uri` of a resource,
    /// the name or URI of a completion's `ref`.
    pub fn subject(&self) -> Option<&str> {
        subject(&self.params)
    }
}

/// What `params` is about: a tool's or prompt's `name`, a resource's `uri`, or the name or
/// URI of a completion's `ref`.
pub(crate) fn subject(params: &Value) -> Option<&str> {
    fn of(value: &Value) -> Option<&str> {
        value
            .get("name")
            .or_else(|| value.get("uri"))
            .and_then(Value::as_str)
    }
    of(params).or_else(|| params.get("ref").and_then(of))
}

/// A JSON-RPC error answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedError {
    /// E.g. `-32602`.
    pub code: i64,
    /// The server's message.
    pub message: String,
    /// The error's `data`, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<Value>,
}

/// A notification the server sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedNotification {
    /// E.g. `notifications/progress`.
    pub method: String,
    /// Its params as sent (`null` when it had none), secrets redacted.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
    /// Milliseconds after the request it came during was sent (after recording began, for
    /// one outside any request).
    pub at_ms: f64,
    /// Outside any request: how many interactions had begun when it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
}

/// A request the server sent the client (sampling, elicitation, roots, ping), and the
/// client's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedServerRequest {
    /// E.g. `sampling/createMessage`.
    pub method: String,
    /// Its params as sent (`null` when it had none), secrets redacted.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub params: Value,
    /// The client's result, when it answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    /// The client's error, when it answered with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RecordedError>,
    /// Milliseconds after the request it came during was sent (after recording began, for
    /// one outside any request).
    pub at_ms: f64,
    /// Outside any request: how many interactions had begun when it came.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<usize>,
}

/// A cassette file that cannot be read or written, named with what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cassette {}: {problem}", path.display())]
pub struct CassetteError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: String,
}

impl CassetteError {
    fn new(path: &Path, problem: impl Into<String>) -> Self {
        CassetteError {
            path: path.to_owned(),
            problem: problem.into(),
        }
    }
}

impl Cassette {
    /// An empty cassette of `server`, recorded now.
    pub fn new(server: RecordedServer) -> Self {
        Cassette {
            cassette: VERSION,
            recorded: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            server,
            interactions: Vec::new(),
            notifications: Vec::new(),
            server_requests: Vec::new(),
            handed_out: Mutex::default(),
        }
    }

    /// Reads the cassette at `path`.
    ///
    /// # Errors
    ///
    /// A [`CassetteError`] naming the file and what is wrong: it cannot be read, is not
    /// JSON (with the line and column), is of another version, or lacks a field.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, CassetteError> {
        let path = path.as_ref();
        let text = fs::read_to_string(path)
            .map_err(|error| CassetteError::new(path, format!("cannot be read: {error}")))?;
        Self::parse(&text).map_err(|problem| CassetteError::new(path, problem))
    }

    /// The cassette in `text`, else what is wrong with it.
    fn parse(text: &str) -> Result<Self, String> {
        let json: Value =
            serde_json::from_str(text).map_err(|error| format!("is not JSON: {error}"))?;
        match json.get("cassette") {
            Some(Value::Number(version)) if version.as_u64() == Some(u64::from(VERSION)) => {}
            Some(Value::Number(version)) => {
                return Err(format!(
                    "is version {version} of the format; this mcp-assured reads version \
                     {VERSION}: record it again, or use the mcp-assured that wrote it"
                ));
            }
            _ => {
                return Err(
                    "has no `\"cassette\": <version>` at the top: is it a cassette? (one \
                     is written by `record_to` or `mcp-assured record`)"
                        .to_owned(),
                );
            }
        }
        serde_json::from_value(json).map_err(|error| format!("is not a cassette: {error}"))
    }

    /// Writes the cassette to `path` as pretty-printed JSON, creating its folder; the file
    /// is replaced whole (written beside it, then renamed), so a reader never sees half.
    ///
    /// # Errors
    ///
    /// A [`CassetteError`] naming the file when it cannot be written.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), CassetteError> {
        write_text(path.as_ref(), &self.to_text())
    }

    /// The cassette as the file holds it.
    pub(crate) fn to_text(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a cassette is JSON");
        text.push('\n');
        text
    }

    /// The methods of the interactions, in the order sent: the shape of the session.
    pub fn methods(&self) -> Vec<&str> {
        self.interactions
            .iter()
            .map(|i| i.method.as_str())
            .collect()
    }

    /// The first interaction of `method` about `subject` (a tool's or prompt's name, a
    /// resource's URI, as [`Interaction::subject`]; `None` for a request about nothing in
    /// particular), answered or not.
    ///
    /// ```
    /// # let cassette: mcp_assured::cassette::Cassette = serde_json::from_str(r#"{"cassette": 1,
    /// #     "recorded": "2026-11-20T10:31:07Z", "server": {}, "interactions": [
    /// #     {"method": "tools/list"}, {"method": "tools/call", "params": {"name": "echo"}}]}"#).unwrap();
    /// assert_eq!(cassette.methods(), ["tools/list", "tools/call"]);
    /// assert!(cassette.find("tools/call", Some("echo")).is_some());
    /// assert!(cassette.find("tools/list", None).is_some());
    /// ```
    pub fn find(&self, method: &str, subject: Option<&str>) -> Option<&Interaction> {
        self.interactions
            .iter()
            .find(|i| i.method == method && i.subject() == subject)
    }

    /// Hands out from the start again: the next [`answer`](Self::answer) to each request is
    /// the first that matches.
    pub fn rewind(&self) {
        self.handed_out().clear();
    }

    fn handed_out(&self) -> std::sync::MutexGuard<'_, HashMap<Vec<usize>, usize>> {
        self.handed_out
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Clone for Cassette {
    /// A copy, handing out from the start.
    fn clone(&self) -> Self {
        Cassette {
            cassette: self.cassette,
            recorded: self.recorded.clone(),
            server: self.server.clone(),
            interactions: self.interactions.clone(),
            notifications: self.notifications.clone(),
            server_requests: self.server_requests.clone(),
            handed_out: Mutex::default(),
        }
    }
}

impl PartialEq for Cassette {
    /// The same recording, however much of it was handed out.
    fn eq(&self, other: &Self) -> bool {
        self.cassette == other.cassette
            && self.recorded == other.recorded
            && self.server == other.server
            && self.interactions == other.interactions
            && self.notifications == other.notifications
            && self.server_requests == other.server_requests
    }
}

/// Writes `text` to `path` whole: into a file beside it, renamed over it.
pub(crate) fn write_text(path: &Path, text: &str) -> Result<(), CassetteError> {
    let failed = |error: io::Error| CassetteError::new(path, format!("cannot be written: {error}"));
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(failed)?;
    }
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    fs::write(&partial, text).map_err(failed)?;
    fs::rename(&partial, path).map_err(|error| {
        let _ = fs::remove_file(&partial);
        failed(error)
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cassette() -> Cassette {
        let mut cassette = Cassette::new(RecordedServer {
            server_info: json!({"name": "s", "version": "1"}),
            protocol_version: "2025-11-25".into(),
            capabilities: json!({"tools": {}}),
            instructions: None,
        });
        let mut call = Interaction::new("tools/call", json!({"name": "echo"}));
        call.result = Some(json!({"content": []}));
        call.elapsed_ms = Some(1.25);
        cassette.interactions.push(call);
        cassette
    }

    #[test]
    fn saves_and_loads_back() {
        let dir = std::env::temp_dir().join(format!("cassette-{}", std::process::id()));
        let path = dir.join("nested/session.json");
        let saved = cassette();
        saved.save(&path).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("{\n  \"cassette\": 1,\n"), "{text}");
        assert_eq!(Cassette::load(&path).unwrap(), saved);
        let _ = fs::remove_dir_all(dir);
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let missing = Cassette::load("/nonexistent/session.json").unwrap_err();
        assert_eq!(missing.path, Path::new("/nonexistent/session.json"));
        assert!(
            missing
                .to_string()
                .starts_with("cassette /nonexistent/session.json: cannot be read:"),
            "{missing}"
        );
        let problem = |text: &str| Cassette::parse(text).unwrap_err();
        assert!(
            problem("{").starts_with("is not JSON: EOF"),
            "{}",
            problem("{")
        );
        assert!(problem(r#"{"interactions": []}"#).contains("is it a cassette?"));
        assert!(problem(r#"{"cassette": 2}"#).starts_with("is version 2 of the format"));
        let no_server = problem(r#"{"cassette": 1, "recorded": "x", "interactions": []}"#);
        assert_eq!(no_server, "is not a cassette: missing field `server`");
    }

    #[test]
    fn a_subject_is_a_name_a_uri_or_a_reference() {
        assert_eq!(subject(&json!({"name": "echo"})), Some("echo"));
        assert_eq!(subject(&json!({"uri": "file:///a"})), Some("file:///a"));
        let completion = json!({"ref": {"type": "ref/prompt", "name": "greet"}});
        assert_eq!(subject(&completion), Some("greet"));
        assert_eq!(subject(&json!({"cursor": "2"})), None);
    }
}
