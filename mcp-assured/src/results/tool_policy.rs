//! A hybrid server's tool policy, as it lists it: `permissions` (the scopes a caller's token
//! needs) and `limits` (the protocol's `ResourceLimits`), read leniently, with what breaks
//! the protocol's types said rather than dropped. Over REST they sit beside the tool's
//! `metadata`; an MCP tool may list them in `_meta.permissions` and `_meta.limits`.

use std::time::Duration;

use serde_json::{Map, Value};

/// What a call gets when `maxConcurrency` calls of its tool are already running.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum OnConcurrencyLimit {
    /// Refused with `RATE_LIMIT_ERROR` (`"reject"`, and what a server that says nothing is
    /// held to: the protocol's code for it).
    #[default]
    Reject,
    /// Waits for a place (`"wait"`).
    Wait,
}

/// The hybrid protocol's `ResourceLimits`. [`Default`] gives the protocol's values: 5
/// minutes, 512 MB, 10 at once, 10 MB; a limit the server does not list keeps its default.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ResourceLimits {
    /// `maxExecutionTime` (milliseconds on the wire).
    pub max_execution_time: Duration,
    /// `maxMemory`, in megabytes.
    pub max_memory_mb: f64,
    /// `maxConcurrency`: calls of the tool at once.
    pub max_concurrency: u32,
    /// `maxPayloadSize`, in megabytes.
    pub max_payload_size_mb: f64,
    /// `onConcurrencyLimit`: what a call over `maxConcurrency` gets.
    pub on_concurrency_limit: OnConcurrencyLimit,
}

impl Default for ResourceLimits {
    fn default() -> Self {
        Self {
            max_execution_time: Duration::from_millis(300_000),
            max_memory_mb: 512.0,
            max_concurrency: 10,
            max_payload_size_mb: 10.0,
            on_concurrency_limit: OnConcurrencyLimit::Reject,
        }
    }
}

impl ResourceLimits {
    /// `maxPayloadSize` in bytes (a megabyte is 1,048,576 bytes).
    pub fn max_payload_bytes(&self) -> usize {
        (self.max_payload_size_mb * 1024.0 * 1024.0).ceil() as usize
    }
}

/// A listed tool's permissions and limits.
///
/// ```
/// use mcp_assured::rest::{OnConcurrencyLimit, ToolPolicy};
/// use serde_json::json;
///
/// let policy = ToolPolicy::read(
///     Some(&json!(["weather:read"])),
///     Some(&json!({"maxConcurrency": 2, "onConcurrencyLimit": "wait"})),
/// );
/// assert_eq!(policy.permissions, ["weather:read"]);
/// assert_eq!(policy.limits.max_concurrency, 2);
/// assert_eq!(policy.limits.on_concurrency_limit, OnConcurrencyLimit::Wait);
/// assert_eq!(policy.limits.max_payload_size_mb, 10.0, "the protocol's default");
/// let wrong = ToolPolicy::read(Some(&json!("admin")), Some(&json!({"maxConcurrency": 0})));
/// assert_eq!(wrong.problems.len(), 2, "{:?}", wrong.problems);
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct ToolPolicy {
    /// The scopes a caller's token needs to run the tool.
    pub permissions: Vec<String>,
    /// Its limits, the protocol's defaults for those not listed.
    pub limits: ResourceLimits,
    /// Whether it listed `permissions` or `limits` at all.
    pub declared: bool,
    /// Where the listing breaks the protocol's types: permissions that are not strings, a
    /// limit that is not a positive number, an unknown `onConcurrencyLimit`.
    pub problems: Vec<String>,
}

impl ToolPolicy {
    /// Reads `permissions` and `limits` as the server sent them; absent ones are the
    /// protocol's defaults and no problem.
    pub fn read(permissions: Option<&Value>, limits: Option<&Value>) -> ToolPolicy {
        let mut policy = ToolPolicy::default();
        match permissions {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                policy.declared = true;
                for item in items {
                    match item {
                        Value::String(scope) => policy.permissions.push(scope.clone()),
                        other => policy
                            .problems
                            .push(format!("a permission is not a string: {other}")),
                    }
                }
            }
            Some(other) => policy
                .problems
                .push(format!("`permissions` is not an array of strings: {other}")),
        }
        match limits {
            None | Some(Value::Null) => {}
            Some(Value::Object(limits)) => {
                policy.declared = true;
                read_limits(limits, &mut policy);
            }
            Some(other) => policy
                .problems
                .push(format!("`limits` is not an object: {other}")),
        }
        policy
    }

    /// The policy an MCP tool lists in `_meta.permissions` and `_meta.limits`.
    pub fn of_mcp_tool(tool: &rmcp::model::Tool) -> ToolPolicy {
        let meta = tool.meta.as_ref();
        ToolPolicy::read(
            meta.and_then(|meta| meta.get("permissions")),
            meta.and_then(|meta| meta.get("limits")),
        )
    }
}

fn read_limits(limits: &Map<String, Value>, policy: &mut ToolPolicy) {
    let positive = |name: &str, problems: &mut Vec<String>| -> Option<f64> {
        match limits.get(name) {
            None | Some(Value::Null) => None,
            Some(Value::Number(number)) => match number.as_f64() {
                Some(value) if value > 0.0 && value.is_finite() => Some(value),
                _ => {
                    problems.push(format!("`limits.{name}` must be above 0: {number}"));
                    None
                }
            },
            Some(other) => {
                problems.push(format!("`limits.{name}` is not a number: {other}"));
                None
            }
        }
    };
    let problems = &mut policy.problems;
    let target = &mut policy.limits;
    if let Some(millis) = positive("maxExecutionTime", problems) {
        target.max_execution_time = Duration::from_secs_f64(millis / 1000.0);
    }
    if let Some(megabytes) = positive("maxMemory", problems) {
        target.max_memory_mb = megabytes;
    }
    if let Some(count) = positive("maxConcurrency", problems) {
        if count.fract() == 0.0 && count <= f64::from(u32::MAX) {
            target.max_concurrency = count as u32;
        } else {
            problems.push(format!(
                "`limits.maxConcurrency` is not a whole number: {count}"
            ));
        }
    }
    if let Some(megabytes) = positive("maxPayloadSize", problems) {
        target.max_payload_size_mb = megabytes;
    }
    match limits.get("onConcurrencyLimit") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) if text == "reject" => {
            target.on_concurrency_limit = OnConcurrencyLimit::Reject;
        }
        Some(Value::String(text)) if text == "wait" => {
            target.on_concurrency_limit = OnConcurrencyLimit::Wait;
        }
        Some(other) => problems.push(format!(
            "`limits.onConcurrencyLimit` is neither \"reject\" nor \"wait\": {other}"
        )),
    }
}
