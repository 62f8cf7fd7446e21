//! insta snapshots of what a server answers, made stable: lists sorted, volatile values
//! (timestamps, times of day, UUIDs, durations, session ids, progress tokens, loopback ports) redacted, and
//! the protocol version in the snapshot's name, so a protocol upgrade is a reviewable change
//! rather than noise.
//!
//! Use [`assert_mcp_snapshot!`](crate::assert_mcp_snapshot), then review with
//! `cargo insta review`.

use std::{
    borrow::Cow,
    sync::{LazyLock, OnceLock},
};

use regex::Regex;
use rmcp::model::{
    CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool,
};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::{
    client::ServerInfo,
    results::listed::{Listed, ListedItem},
    results::mcp::{PromptResult, ResourceResult, ToolResult},
};

mod filters;

/// Something [`assert_mcp_snapshot!`](crate::assert_mcp_snapshot) can snapshot: its JSON, in a
/// stable order.
pub trait Snapshot {
    /// The value as JSON, lists sorted by name or URI where the order carries no meaning.
    fn snapshot_json(&self) -> Value;
}

fn json(value: &impl Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn sorted_by(mut items: Vec<Value>, key: &str) -> Value {
    items.sort_by(|a, b| a[key].as_str().cmp(&b[key].as_str()));
    Value::Array(items)
}

macro_rules! sorted_list_snapshot {
    ($($ty:ty => $key:literal),* $(,)?) => {$(
        impl Snapshot for [$ty] {
            fn snapshot_json(&self) -> Value {
                sorted_by(self.iter().map(json).collect(), $key)
            }
        }
        impl Snapshot for Vec<$ty> {
            fn snapshot_json(&self) -> Value {
                self.as_slice().snapshot_json()
            }
        }
    )*};
}

sorted_list_snapshot! {
    Tool => "name",
    Prompt => "name",
    Resource => "uri",
    ResourceTemplate => "uriTemplate",
}

/// Each item as the server sent it, sorted by name, URI or URI template.
impl<T: ListedItem> Snapshot for Listed<T> {
    fn snapshot_json(&self) -> Value {
        sorted_by(self.wire().to_vec(), T::KEY)
    }
}

macro_rules! plain_snapshot {
    ($($ty:ty),* $(,)?) => {$(
        impl Snapshot for $ty {
            fn snapshot_json(&self) -> Value {
                json(self)
            }
        }
    )*};
}

plain_snapshot!(
    CallToolResult,
    ToolResult,
    ReadResourceResult,
    ResourceResult,
    GetPromptResult,
    PromptResult,
    ServerInfo,
    Value,
);

impl<T: Snapshot + ?Sized> Snapshot for &T {
    fn snapshot_json(&self) -> Value {
        (**self).snapshot_json()
    }
}

/// The settings an [`#[mcp_test]`](crate::mcp_test) body runs with, so that insta's own
/// macros in it get the default redactions too: timestamps, times of day, UUIDs and
/// loopback ports in any text, and the scalar values of volatile keys (`progressToken`,
/// `sessionId`, `durationMs`, `createdAt`, ...); maps sorted; the server and protocol
/// version in the metadata.
///
/// They start from insta's defaults, not the caller's settings (`#[mcp_test]` binds them
/// first thing on a fresh test thread, where the two are the same), and are built once per
/// process. The redactions are insta's filters, regular expressions over the snapshot's text:
/// for JSON (`assert_json_snapshot!`, `assert_compact_json_snapshot!`) and YAML
/// (`assert_yaml_snapshot!`) they give what redacting the value itself would (what
/// [`redact`] does to JSON), and text snapshots (`assert_snapshot!`,
/// `assert_debug_snapshot!`) get the timestamps, times, UUIDs and ports redacted. Lines of a
/// text snapshot shaped like JSON or YAML get the volatile keys' redaction too (`"durationMs":
/// 12`), and a YAML-shaped line's string with a UUID (`- id 123e4567-..`) its quotes. Other
/// formats (RON, TOML, CSV) get the text's redactions only. The filters cost milliseconds to
/// compile in a debug build, so `#[mcp_test]` binds them only around a body that names one of
/// insta's snapshot macros; bind these settings yourself around a helper that takes
/// snapshots.
///
/// Outside `#[mcp_test]` (a plain `#[tokio::test]`, say), bind them yourself to get the same
/// redactions:
///
/// ```
/// use mcp_assured::snapshot::test_settings;
///
/// test_settings(None).bind(|| {
///     insta::assert_snapshot!("2026-11-24T10:00:00Z", @"[timestamp]");
///     insta::assert_json_snapshot!(
///         serde_json::json!({"durationMs": 12, "at": "127.0.0.1:20345"}),
///         @r#"
///     {
///       "at": "127.0.0.1:[port]",
///       "durationMs": "[duration]"
///     }
///     "#
///     );
/// });
/// ```
#[must_use = "the settings apply only where they are bound: `settings.bind(|| ..)`"]
pub fn test_settings(server: Option<&ServerInfo>) -> insta::Settings {
    body_settings(server, BodySnapshots::Serialized)
}

/// Which of insta's snapshot macros an `#[mcp_test]` body names, and so which filters it
/// needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum BodySnapshots {
    /// None: no filters to compile.
    #[default]
    None,
    /// Text snapshots only: the text's redactions.
    Text,
    /// Serialised snapshots (and maybe text ones): every filter.
    Serialized,
}

/// [`test_settings`], with the filters `snapshots` need.
pub(crate) fn body_settings(
    server: Option<&ServerInfo>,
    snapshots: BodySnapshots,
) -> insta::Settings {
    let mut settings = match snapshots {
        BodySnapshots::None => plain().clone(),
        BodySnapshots::Text => text_filters().clone(),
        BodySnapshots::Serialized => serialized_filters().clone(),
    };
    if let Some(server) = server {
        settings.set_info(&serde_json::json!({
            "protocolVersion": server.protocol_version,
            "server": format!("{} {}", server.name, server.version),
        }));
    }
    settings
}

/// insta's defaults, maps sorted: cheap.
fn plain() -> &'static insta::Settings {
    static PLAIN: OnceLock<insta::Settings> = OnceLock::new();
    PLAIN.get_or_init(|| {
        let mut settings = insta::Settings::new();
        settings.set_sort_maps(true);
        settings.set_omit_expression(true);
        settings
    })
}

/// [`plain`] plus the filters of text snapshots, compiled once per process.
fn text_filters() -> &'static insta::Settings {
    static TEXT: OnceLock<insta::Settings> = OnceLock::new();
    TEXT.get_or_init(|| {
        let mut settings = plain().clone();
        // In the order of `redact_text`.
        settings.add_filter(LOOPBACK_PORT_PATTERN, LOOPBACK_PORT);
        settings.add_filter(TIMESTAMP_PATTERN, TIMESTAMP);
        settings.add_filter(UUID_PATTERN, UUID);
        settings.add_filter(TIME_PATTERN, TIME);
        settings
    })
}

/// [`plain`] plus the filters of serialised snapshots (which redact text the same way),
/// compiled once per process.
fn serialized_filters() -> &'static insta::Settings {
    static SERIALIZED: OnceLock<insta::Settings> = OnceLock::new();
    SERIALIZED.get_or_init(|| {
        let mut settings = plain().clone();
        for (pattern, replacement) in filters::serialized() {
            settings.add_filter(&pattern, replacement);
        }
        settings
    })
}

/// What the snapshot macros expand to calls into, through `mcp_assured::__private`; not
/// public API.
pub(crate) mod macro_support {
    use serde_json::Value;

    use super::{Snapshot, redact};
    use crate::client::McpClient;

    /// What goes into the snapshot file, and the settings it is taken with.
    #[derive(Debug)]
    pub struct Prepared {
        /// The redacted JSON.
        pub content: Value,
        /// The snapshot name suffix: the negotiated protocol version.
        pub suffix: String,
        /// Metadata written to the snapshot header (not compared).
        pub info: Value,
    }

    /// Redacts and pins a value for [`assert_mcp_snapshot!`](crate::assert_mcp_snapshot).
    pub fn prepare(client: &McpClient, value: &impl Snapshot) -> Prepared {
        let info = client.server_info();
        Prepared {
            content: redact(value.snapshot_json()),
            suffix: info.protocol_version.clone(),
            info: serde_json::json!({
                "protocolVersion": info.protocol_version,
                "server": format!("{} {}", info.name, info.version),
            }),
        }
    }

    /// The insta settings a snapshot is taken with: the caller's own, plus sorted maps, the
    /// protocol version as the name suffix, and the server in the metadata.
    pub fn settings(prepared: &Prepared) -> insta::Settings {
        let mut settings = insta::Settings::clone_current();
        settings.set_sort_maps(true);
        // Keep a suffix already set, such as the variant of a `#[mcp_test]` run on several
        // transports.
        let suffix = match settings.snapshot_suffix() {
            Some(outer) => format!("{outer}-{}", prepared.suffix),
            None => prepared.suffix.clone(),
        };
        settings.set_snapshot_suffix(suffix);
        settings.set_info(&prepared.info);
        settings.set_omit_expression(true);
        settings
    }

    /// The redacted, sorted JSON of a value, for
    /// [`assert_tool_snapshot!`](crate::assert_tool_snapshot).
    pub fn redacted(value: &impl Snapshot) -> Value {
        redact(value.snapshot_json())
    }

    /// The caller's insta settings with sorted maps and no expression in the header.
    pub fn plain_settings() -> insta::Settings {
        let mut settings = insta::Settings::clone_current();
        settings.set_sort_maps(true);
        settings.set_omit_expression(true);
        settings
    }
}

const TIMESTAMP: &str = "[timestamp]";
const TIME: &str = "[time]";
const UUID: &str = "[uuid]";
const DURATION: &str = "[duration]";
const SESSION_ID: &str = "[session-id]";
const PROGRESS_TOKEN: &str = "[progress-token]";
const LOOPBACK_PORT: &str = "${host}:[port]";

// ASCII classes (`(?-u)`): a timestamp's digits are ASCII, and Unicode classes make each
// pattern several times slower to compile in a debug build.
const TIMESTAMP_PATTERN: &str = r"(?-u)\b[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:Z|[+-][0-9]{2}:?[0-9]{2})?\b";
const TIME_PATTERN: &str = r"(?-u)\b[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:\s?[AP]M)?\b";
/// A loopback address's port: tests bind free ports, so it changes every run.
const LOOPBACK_PORT_PATTERN: &str = r"(?-u)\b(?P<host>127\.0\.0\.1|localhost|\[::1\]):[0-9]{1,5}\b";
/// The hosts [`LOOPBACK_PORT_PATTERN`] matches, followed by the port's colon.
const LOOPBACK_HOSTS: [&str; 3] = ["127.0.0.1:", "localhost:", "[::1]:"];
const UUID_LEN: usize = 36;
const UUID_PATTERN: &str =
    r"(?-u)\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b";

static TIMESTAMP_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(TIMESTAMP_PATTERN).expect("timestamp pattern"));
static TIME_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(TIME_PATTERN).expect("time pattern"));
static LOOPBACK_PORT_RE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(LOOPBACK_PORT_PATTERN).expect("port pattern"));
static UUID_RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(UUID_PATTERN).expect("uuid pattern"));

/// Key names whose values are volatile, lower-cased, words apart, with the placeholder of
/// each.
const VOLATILE_KEYS: [(&str, &[&str]); 4] = [
    (PROGRESS_TOKEN, &["progress token"]),
    (SESSION_ID, &["session id", "mcp session id"]),
    (
        DURATION,
        &[
            "duration",
            "duration ms",
            "elapsed",
            "elapsed ms",
            "latency",
            "latency ms",
            "took ms",
            "request time ms",
            "round trip ms",
        ],
    ),
    (
        TIMESTAMP,
        &[
            "timestamp",
            "created at",
            "updated at",
            "last updated at",
            "connected at",
            "disconnected at",
            "started at",
            "completed at",
            "retrieved at",
            "checked at",
            "sent at",
            "received at",
        ],
    ),
];

/// The placeholder of a volatile key's value: one of [`VOLATILE_KEYS`] in any case, with
/// `_` or `-` anywhere.
fn volatile_key(key: &str) -> Option<&'static str> {
    let key: String = key
        .chars()
        .filter(|c| *c != '_' && *c != '-')
        .collect::<String>()
        .to_lowercase();
    VOLATILE_KEYS
        .iter()
        .find(|(_, keys)| {
            keys.iter()
                .any(|volatile| volatile.chars().filter(|c| *c != ' ').eq(key.chars()))
        })
        .map(|(placeholder, _)| *placeholder)
}

/// Applies the default redactions: volatile keys anywhere, and timestamps, times of day and
/// UUIDs inside any string (a server may put them in a tool's text).
///
/// ```
/// use mcp_assured::snapshot::redact;
/// use serde_json::json;
/// let redacted = redact(json!({
///     "text": "created at 8:48:11 AM by job 123e4567-e89b-12d3-a456-426614174000",
///     "_meta": {"progressToken": 7},
///     "durationMs": 12,
/// }));
/// assert_eq!(redacted, json!({
///     "text": "created at [time] by job [uuid]",
///     "_meta": {"progressToken": "[progress-token]"},
///     "durationMs": "[duration]",
/// }));
/// ```
pub fn redact(value: Value) -> Value {
    match value {
        Value::String(text) => Value::String(redact_text(&text)),
        Value::Array(items) => Value::Array(items.into_iter().map(redact).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| {
                    let value = match volatile_key(&key) {
                        // Only scalars: a schema may well describe a property called `duration`.
                        Some(placeholder) if value.is_string() || value.is_number() => {
                            Value::String(placeholder.to_owned())
                        }
                        _ => redact(value),
                    };
                    (key, value)
                })
                .collect::<Map<_, _>>(),
        ),
        other => other,
    }
}

/// Each pattern runs only on text that has the characters it needs, so a process whose
/// snapshots hold none never compiles it (four regular expressions cost ~10 ms in debug,
/// which a runner starting a process per test pays per test).
fn redact_text(text: &str) -> String {
    let mut text = Cow::Borrowed(text);
    let has_colon = text.contains(':');
    if has_colon && LOOPBACK_HOSTS.iter().any(|host| text.contains(host)) {
        text = Cow::Owned(
            LOOPBACK_PORT_RE
                .replace_all(&text, LOOPBACK_PORT)
                .into_owned(),
        );
    }
    let has_dash = text.contains('-');
    if has_colon && has_dash {
        text = Cow::Owned(TIMESTAMP_RE.replace_all(&text, TIMESTAMP).into_owned());
    }
    if has_dash && text.len() >= UUID_LEN {
        text = Cow::Owned(UUID_RE.replace_all(&text, UUID).into_owned());
    }
    if text.contains(':') {
        text = Cow::Owned(TIME_RE.replace_all(&text, TIME).into_owned());
    }
    text.into_owned()
}

/// Snapshots what a server answered with insta, redacted and sorted, named with the
/// protocol version the client negotiated (`name@2025-11-25.snap`).
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
/// use serde_json::json;
/// let tools = client.list_tools().await?;
/// mcp_assured::assert_mcp_snapshot!(client, tools); // named after the test function
/// let result = client.call_tool("weather", json!({"city": "London"})).await?;
/// mcp_assured::assert_mcp_snapshot!(client, "weather_london", result);
/// # Ok(()) }
/// ```
///
/// The first argument is the [`McpClient`](crate::McpClient) (for the protocol version); the
/// value is a [`ToolResult`], a list of tools, resources, templates or prompts, a
/// [`ResourceResult`], a [`PromptResult`], [`ServerInfo`] or any `serde_json::Value` (see
/// [`Snapshot`]).
///
/// Snapshots live in `snapshots/` next to the test. Review new or changed ones with
/// `cargo insta review`; with `CI=true` a missing or changed snapshot fails and nothing is
/// written. Your own insta settings apply: wrap the call in `insta::with_settings!({filters =>
/// ...}, { ... })` or add redactions with `insta::Settings` to hide more.
#[macro_export]
macro_rules! assert_mcp_snapshot {
    ($client:expr, $value:expr $(,)?) => {{
        let __prepared = $crate::__private::snapshot::prepare(&$client, &$value);
        $crate::__private::snapshot::settings(&__prepared).bind(|| {
            $crate::__private::insta::assert_json_snapshot!(__prepared.content);
        });
    }};
    ($client:expr, $name:expr, $value:expr $(,)?) => {{
        let __prepared = $crate::__private::snapshot::prepare(&$client, &$value);
        $crate::__private::snapshot::settings(&__prepared).bind(|| {
            $crate::__private::insta::assert_json_snapshot!($name, __prepared.content);
        });
    }};
}

/// Snapshots a tool result (or any [`Snapshot`] value) with insta, redacted and sorted,
/// named after the test function (or the name given).
///
/// Made for [`#[mcp_test]`](crate::mcp_test) bodies, which already bind the server and
/// protocol version into the snapshot metadata; outside them it works the same, without that
/// metadata. [`assert_mcp_snapshot!`](crate::assert_mcp_snapshot) also puts the protocol
/// version into the snapshot's name.
///
/// ```no_run
/// use mcp_assured::{McpClient, assert_tool_snapshot, mcp_test};
/// use serde_json::json;
///
/// #[mcp_test(server = command("weather-server"))]
/// async fn london(client: McpClient) {
///     let result = client.call_tool("current_weather", json!({"city": "London"})).await.unwrap();
///     assert_tool_snapshot!(result); // snapshots/<file>__london.snap
///     let tools = client.list_tools().await.unwrap();
///     assert_tool_snapshot!("tools", tools); // snapshots/<file>__tools.snap
/// }
/// ```
#[macro_export]
macro_rules! assert_tool_snapshot {
    ($value:expr $(,)?) => {{
        let __content = $crate::__private::snapshot::redacted(&$value);
        $crate::__private::snapshot::plain_settings().bind(|| {
            $crate::__private::insta::assert_json_snapshot!(__content);
        });
    }};
    ($name:expr, $value:expr $(,)?) => {{
        let __content = $crate::__private::snapshot::redacted(&$value);
        $crate::__private::snapshot::plain_settings().bind(|| {
            $crate::__private::insta::assert_json_snapshot!($name, __content);
        });
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn redacts_timestamps_and_ids_inside_text() {
        let value = redact(json!({
            "content": [{"type": "text", "text": "at 2026-11-22T08:48:11.123Z, session 123e4567-e89b-12d3-a456-426614174000"}],
            "sessionId": "abc",
        }));
        assert_eq!(
            value,
            json!({
                "content": [{"type": "text", "text": "at [timestamp], session [uuid]"}],
                "sessionId": "[session-id]",
            })
        );
    }

    #[test]
    fn keeps_schemas_of_volatile_looking_properties() {
        let schema = json!({"properties": {"duration": {"type": "number"}}});
        assert_eq!(redact(schema.clone()), schema);
    }

    #[test]
    fn redacts_loopback_ports() {
        let value =
            redact(json!({"url": "http://127.0.0.1:40123/mcp", "other": "example.com:443"}));
        assert_eq!(
            value,
            json!({"url": "http://127.0.0.1:[port]/mcp", "other": "example.com:443"})
        );
    }

    #[test]
    fn skipping_patterns_by_their_characters_changes_nothing() {
        let every_pattern = |text: &str| {
            let text = LOOPBACK_PORT_RE.replace_all(text, LOOPBACK_PORT);
            let text = TIMESTAMP_RE.replace_all(&text, TIMESTAMP);
            let text = UUID_RE.replace_all(&text, UUID);
            TIME_RE.replace_all(&text, TIME).into_owned()
        };
        for text in [
            "",
            "plain words",
            "2025-11-25",
            "at 2026-11-22T08:48:11.123Z",
            "2026-11-22 08:48",
            "at 8:48:11 AM",
            "08:48:11",
            "123e4567-e89b-12d3-a456-426614174000",
            "id=123E4567-E89B-12D3-A456-426614174000;",
            "http://127.0.0.1:40123/mcp at 2026-11-22T08:48:11Z",
            "http://localhost:8080 and http://[::1]:9/x",
            "localhost:80 at 12:00:00.5 PM",
            "example.com:443 - 1:2",
        ] {
            assert_eq!(redact_text(text), every_pattern(text), "{text:?}");
        }
    }

    #[test]
    fn keeps_ordinary_numbers_and_text() {
        let value = json!({"temperature": 15, "text": "version 1.2.3 on port 8080"});
        assert_eq!(redact(value.clone()), value);
    }

    /// insta's JSON (pretty and compact) and YAML of `value`, as its macros write them.
    fn serialized(value: &Value) -> [String; 3] {
        use insta::_macro_support::{SerializationFormat, serialize_value};
        [
            serialize_value(value, SerializationFormat::Json),
            serialize_value(value, SerializationFormat::JsonCompact),
            serialize_value(value, SerializationFormat::Yaml),
        ]
    }

    /// What insta does with the filters of [`test_settings`]: each in turn, over the text.
    fn filtered(text: &str) -> String {
        let mut text = text.to_owned();
        for (pattern, replacement) in filters::serialized() {
            let regex = Regex::new(&pattern).unwrap_or_else(|e| panic!("{pattern}: {e}"));
            text = regex.replace_all(&text, replacement.as_str()).into_owned();
        }
        text
    }

    /// [`redact`], and the text of keys redacted too: what the one insta redaction did
    /// before the filters.
    fn redacted_with_keys(value: Value) -> Value {
        fn keys(value: Value) -> Value {
            match value {
                Value::Object(map) => Value::Object(
                    map.into_iter()
                        .map(|(key, value)| (redact_text(&key), keys(value)))
                        .collect(),
                ),
                Value::Array(items) => Value::Array(items.into_iter().map(keys).collect()),
                other => other,
            }
        }
        keys(redact(value))
    }

    /// The filters over a snapshot of `value` give the snapshot of the redacted value.
    #[track_caller]
    fn assert_filters_redact(value: Value) {
        let expected = serialized(&redacted_with_keys(value.clone()));
        for (format, (text, expected)) in ["JSON", "compact JSON", "YAML"]
            .iter()
            .zip(serialized(&value).iter().zip(expected))
        {
            assert_eq!(filtered(text), expected, "{format} of {value}");
        }
    }

    #[test]
    fn filters_redact_volatile_keys_at_any_depth() {
        assert_filters_redact(json!({
            "result": {
                "_meta": {"progressToken": 7, "sessionId": "abc"},
                "items": [
                    {"createdAt": "2026-11-22T08:48:11Z", "name": "x"},
                    {"durationMs": 1.5, "nested": [[{"elapsed": -3}]]},
                ],
            },
            "latency": "12 ms",
        }));
        assert_filters_redact(json!([{"durationMs": 5}, [{"sessionId": "s"}, 4]]));
    }

    #[test]
    fn filters_redact_every_spelling_of_a_volatile_key() {
        assert_filters_redact(json!({
            "Created_At": 1,
            "created-at": "x",
            "CREATEDAT": 2,
            "_sessionId": "s",
            "-progress-token": 4,
            "Mcp-Session-Id": "m",
            "round_trip_ms": 3,
            "LAST_UPDATED_AT__": 6,
            "too\u{212A}ms": 5,
            // Not a volatile key: `volatile_key` keeps the long s.
            "\u{17F}essionid": "kept",
        }));
    }

    #[test]
    fn filters_keep_other_keys_and_non_scalar_values() {
        let value = json!({
            "temperature": 15,
            "created": "yesterday",
            "sessionIdentifier": "x",
            "duration": {"type": "number"},
            "timestamp": {"format": "date-time"},
            "createdAt": ["a", 1],
            "updatedAt": null,
            "startedAt": true,
            "sentAt": false,
            "properties": {"durationMs": {"type": "integer"}},
        });
        assert_filters_redact(value.clone());
        assert_eq!(redact(value.clone()), value);
        for text in serialized(&value) {
            assert_eq!(filtered(&text), text);
        }
    }

    #[test]
    fn filters_redact_volatile_values_whatever_they_hold() {
        assert_filters_redact(json!({
            "sessionId": "",
            "progressToken": "with \"quotes\", a \\ and a\nnewline",
            "createdAt": "true",
            "updatedAt": "-5",
            "checkedAt": "~",
            "durationMs": -5,
            "latency": 123456789012345678u64,
            "elapsed": 0.25,
            "timestamp": "2026-11-22 08:48",
            "retrievedAt": "plain words",
            "sentAt": "123e4567-e89b-12d3-a456-426614174000",
        }));
    }

    #[test]
    fn filters_redact_text_inside_strings_and_keys() {
        assert_filters_redact(json!({
            "text": "at 2026-11-22T08:48:11.123Z\n12:00:00\tPM by 123e4567-e89b-12d3-a456-426614174000\tok",
            "url": "http://127.0.0.1:40123/mcp and http://[::1]:9/x",
            "log": "line\n2026-11-22 08:48\r\nlocalhost:8080\u{1}08:48:11",
            "quote": "say \"createdAt\": 5 at 12:00:00",
            "plain": "job 123e4567-e89b-12d3-a456-426614174000 done",
            "uuid": "123E4567-E89B-12D3-A456-426614174000",
            "uuids": ["123e4567-e89b-12d3-a456-426614174000", "a 123e4567-e89b-12d3-a456-426614174000"],
            "123e4567-e89b-12d3-a456-426614174000": "a key",
            "at 2026-11-22T08:48:11Z": {"k": 1},
            "backslashes": "C:\\temp\\12:00:00 and \\n12:00:00 and \\\\\n12:00:00",
            "words": "version 1.2.3 on port 8080, example.com:443 - 1:2",
            "control": "\u{1}123e4567-e89b-12d3-a456-426614174000",
        }));
    }

    #[test]
    fn filters_leave_debug_output_of_structs_alone() {
        let text = "Call {\n    duration_ms: 12,\n    created_at: \"x\",\n}";
        assert_eq!(filtered(text), text);
    }

    #[test]
    fn only_ascii_letters_and_the_kelvin_sign_lower_case_to_ascii_letters() {
        // What `filters::letter_class` assumes of `volatile_key`'s `to_lowercase`.
        let lowered: Vec<char> = (0..=u32::from(char::MAX))
            .filter_map(char::from_u32)
            .filter(|c| {
                let mut lower = c.to_lowercase();
                matches!((lower.next(), lower.next()), (Some(l), None) if l.is_ascii_lowercase())
            })
            .filter(|c| !c.is_ascii_alphabetic())
            .collect();
        assert_eq!(lowered, ['\u{212A}']);
    }

    #[test]
    fn test_settings_redact_insta_s_own_snapshots() {
        test_settings(None).bind(|| {
            insta::assert_yaml_snapshot!(
                json!({"items": [{"createdAt": 5, "id": "123e4567-e89b-12d3-a456-426614174000"}]}),
                @r#"
            items:
              - createdAt: "[timestamp]"
                id: "[uuid]"
            "#
            );
            insta::assert_compact_json_snapshot!(
                json!({"sessionId": "a", "at": "08:48:11"}),
                @r#"{"at": "[time]", "sessionId": "[session-id]"}"#
            );
        });
    }

    #[test]
    fn lists_are_sorted_by_name() {
        let tools: Vec<Tool> = serde_json::from_value(json!([
            {"name": "b", "inputSchema": {"type": "object"}},
            {"name": "a", "inputSchema": {"type": "object"}},
        ]))
        .unwrap();
        let names: Vec<Value> = tools
            .snapshot_json()
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].clone())
            .collect();
        assert_eq!(names, [json!("a"), json!("b")]);
    }
}
