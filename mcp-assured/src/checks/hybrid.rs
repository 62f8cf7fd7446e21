//! The hybrid checks: a hybrid server honours what it declares of each tool, on both faces
//! (REST and MCP) alike: its `permissions`, its resource limits (`maxExecutionTime`,
//! `maxConcurrency` with `onConcurrencyLimit`, `maxPayloadSize`) and its streamed results
//! with their progress.

use std::{
    collections::BTreeSet,
    time::{Duration, Instant},
};

use rmcp::model::Tool;
use serde_json::Value;

use super::recorder::Recorder;
use crate::{
    client::McpClient,
    credentials::Credentials,
    error::Result,
    report::Report,
    rest::{ErrorCode, Execution, OnConcurrencyLimit, RestClient, RestTool, ToolPolicy},
    results::mcp::ToolResult,
    server_tests::valid_object,
};

/// The suite of the hybrid checks' entries.
pub const HYBRID_SUITE: &str = "hybrid";

/// The hybrid checks, in run order.
pub const HYBRID_CHECKS: [&str; 6] = [
    "hybrid.declarations",
    "hybrid.permissions",
    "hybrid.max_execution_time",
    "hybrid.max_concurrency",
    "hybrid.max_payload_size",
    "hybrid.streaming",
];

/// The longest `maxExecutionTime` the check waits out.
const LONGEST_WAIT: Duration = Duration::from_secs(60);
/// The most calls at once `hybrid.max_concurrency` sends to one tool.
const MOST_AT_ONCE: u32 = 16;
/// The largest request `hybrid.max_payload_size` sends, in megabytes.
const LARGEST_PAYLOAD_MB: f64 = 16.0;
/// How long a call must run at the server for timing to tell whether calls ran together or
/// waited for a place, and a stream must take to tell whether its lines came as written.
const TELLING_DURATION: Duration = Duration::from_millis(100);

/// What the hybrid checks need beyond the two clients.
#[derive(Debug, Clone, Default)]
pub struct HybridOptions {
    arguments: Vec<(String, Value)>,
    slow: Vec<(String, Value)>,
    limited: Option<(Credentials, BTreeSet<String>)>,
}

impl HybridOptions {
    /// Arguments generated from each tool's input schema, no slow call, no limited
    /// credentials (so `hybrid.max_execution_time` and `hybrid.permissions` are skipped).
    pub fn new() -> Self {
        Self::default()
    }

    /// Calls `tool` with `arguments` (instead of arguments generated from its schema).
    #[must_use]
    pub fn arguments(mut self, tool: impl Into<String>, arguments: Value) -> Self {
        self.arguments.push((tool.into(), arguments));
        self
    }

    /// A call of `tool` that runs longer than its `maxExecutionTime` (its backend made
    /// slow, say): `hybrid.max_execution_time` sends it on both faces and expects
    /// `TIMEOUT_ERROR` in time. Repeatable.
    #[must_use]
    pub fn slow_call(mut self, tool: impl Into<String>, arguments: Value) -> Self {
        self.slow.push((tool.into(), arguments));
        self
    }

    /// Credentials that grant only `scopes` (a token without some tool's permissions):
    /// `hybrid.permissions` calls every tool that declares permissions with them, on both
    /// faces, expecting a refusal exactly where a permission is missing.
    #[must_use]
    pub fn limited_credentials<S: Into<String>>(
        mut self,
        credentials: Credentials,
        scopes: impl IntoIterator<Item = S>,
    ) -> Self {
        self.limited = Some((credentials, scopes.into_iter().map(Into::into).collect()));
        self
    }

    fn arguments_for(&self, tool: &Tool) -> Value {
        self.arguments
            .iter()
            .rev()
            .find(|(name, _)| name.as_str() == tool.name)
            .map_or_else(
                || valid_object(&Value::Object(tool.input_schema.as_ref().clone())),
                |(_, arguments)| arguments.clone(),
            )
    }
}

/// [`check_hybrid_with`] with [`HybridOptions::new`].
pub async fn check_hybrid(mcp: &McpClient, rest: &RestClient) -> Report {
    check_hybrid_with(mcp, rest, &HybridOptions::new()).await
}

/// Checks that a hybrid server honours what it declares of each tool, on both faces; one
/// timed [`Entry`](crate::report::Entry) of [`HYBRID_SUITE`] per check, each failure naming
/// the tool, the face and what came back:
///
/// - `hybrid.declarations`: each tool's `permissions` and `limits` in the REST listing break
///   none of the protocol's types, and equal the MCP tool's `_meta.permissions` and
///   `_meta.limits` where it lists them (skipped when no tool declares any);
/// - `hybrid.permissions`: with [limited credentials](HybridOptions::limited_credentials),
///   a tool whose permissions they lack is refused with `PERMISSION_ERROR` over REST and a
///   tool error over MCP (over HTTP; stdio has no token), and a tool whose permissions they
///   grant is not;
/// - `hybrid.max_execution_time`: each [slow call](HybridOptions::slow_call) ends with
///   `TIMEOUT_ERROR` over REST and a tool error over MCP, within its `maxExecutionTime` plus
///   half (at least a second);
/// - `hybrid.max_concurrency`: for each tool that lists its limits, `maxConcurrency + 1`
///   calls at once on each face: with `onConcurrencyLimit: "reject"` (the default) at least
///   one gets `RATE_LIMIT_ERROR` (a tool error naming it over MCP) once they were all in
///   flight together; with `"wait"` none is refused, and when calls take long enough to
///   tell, one waited (the slowest took at least 1.5 times the fastest);
/// - `hybrid.max_payload_size`: for each tool that lists its limits, a request just over
///   `maxPayloadSize` (a string argument padded) is refused without running:
///   `VALIDATION_ERROR` (413 or 400) over REST, an error or a tool error over MCP;
/// - `hybrid.streaming`: each tool that answers `Accept: application/x-ndjson` with JSON
///   lines ends them with an envelope that agrees with the unstreamed one, sends its lines
///   as they come (not all at the end), and, where it streams progress, sends
///   `notifications/progress` for the same call over MCP (skipped when no tool streams).
///
/// The tools are the REST listing's that the MCP side lists too; their arguments are
/// generated from their schemas unless given with [`HybridOptions::arguments`]. A tool
/// annotated `destructiveHint: true` is called only with arguments given (or as a slow
/// call). A limit is the REST listing's, else the MCP `_meta`'s, else the protocol's
/// default.
pub async fn check_hybrid_with(
    mcp: &McpClient,
    rest: &RestClient,
    options: &HybridOptions,
) -> Report {
    let mut report = Recorder::new(HYBRID_SUITE, None);
    let (mcp_tools, rest_tools) = match super::parity::both_lists(mcp, rest).await {
        Ok(lists) => lists,
        Err(reason) => {
            report.fail(HYBRID_CHECKS[0], reason);
            for name in &HYBRID_CHECKS[1..] {
                report.skip(name, "the tool lists could not be read");
            }
            return report.finish();
        }
    };
    let tools: Vec<Subject<'_>> = rest_tools
        .iter()
        .filter_map(|rest_tool| {
            let mcp_tool = mcp_tools.iter().find(|tool| tool.name == rest_tool.name)?;
            Some(Subject::new(mcp_tool, rest_tool, options))
        })
        .collect();
    declarations(&tools, &mut report);
    permissions(mcp, rest, &tools, options, &mut report).await;
    execution_time(mcp, rest, &tools, options, &mut report).await;
    concurrency(mcp, rest, &tools, &mut report).await;
    payload_size(mcp, rest, &tools, &mut report).await;
    streaming(mcp, rest, &tools, &mut report).await;
    report.finish()
}

/// One tool listed on both faces.
struct Subject<'a> {
    name: &'a str,
    rest: &'a RestTool,
    mcp: &'a Tool,
    /// The REST listing's policy, else the MCP `_meta`'s.
    policy: ToolPolicy,
    arguments: Value,
    /// Whether the checks may call it: not annotated `destructiveHint: true`, or given
    /// arguments to call it with.
    callable: bool,
}

impl<'a> Subject<'a> {
    fn new(mcp: &'a Tool, rest: &'a RestTool, options: &HybridOptions) -> Self {
        let listed = rest.tool_policy();
        let policy = if listed.declared {
            listed
        } else {
            ToolPolicy::of_mcp_tool(mcp)
        };
        let destructive = mcp
            .annotations
            .as_ref()
            .and_then(|annotations| annotations.destructive_hint)
            == Some(true);
        let given = options
            .arguments
            .iter()
            .chain(&options.slow)
            .any(|(name, _)| name.as_str() == rest.name);
        Self {
            name: &rest.name,
            rest,
            mcp,
            policy,
            arguments: options.arguments_for(mcp),
            callable: given || !destructive,
        }
    }
}

/// Why a tool was not called.
fn held_back(tool: &Subject<'_>) -> String {
    format!(
        "`{}` (destructiveHint: not called unless given arguments with HybridOptions::arguments)",
        tool.name
    )
}

fn outcome(report: &mut Recorder, name: &str, problems: &[String], fine: String) {
    if problems.is_empty() {
        report.pass(name, fine);
    } else {
        report.fail(name, problems.join("\n"));
    }
}

/// `hybrid.declarations`.
fn declarations(tools: &[Subject<'_>], report: &mut Recorder) {
    let mut problems = Vec::new();
    let mut declared = 0;
    for tool in tools {
        let over_rest = tool.rest.tool_policy();
        let over_mcp = ToolPolicy::of_mcp_tool(tool.mcp);
        if !(over_rest.declared || over_mcp.declared) {
            continue;
        }
        declared += 1;
        for problem in &over_rest.problems {
            problems.push(format!("REST `{}`: {problem}", tool.name));
        }
        for problem in &over_mcp.problems {
            problems.push(format!("MCP `{}`: {problem}", tool.name));
        }
        if over_rest.declared && over_mcp.declared {
            let sorted = |policy: &ToolPolicy| -> BTreeSet<String> {
                policy.permissions.iter().cloned().collect()
            };
            if sorted(&over_rest) != sorted(&over_mcp) {
                problems.push(format!(
                    "`{}` needs {:?} over REST but {:?} over MCP",
                    tool.name, over_rest.permissions, over_mcp.permissions
                ));
            }
            if over_rest.limits != over_mcp.limits {
                problems.push(format!(
                    "`{}`'s limits differ: REST {:?}, MCP {:?}",
                    tool.name, over_rest.limits, over_mcp.limits
                ));
            }
        } else if over_mcp.declared {
            problems.push(format!(
                "`{}` lists permissions or limits over MCP (_meta) but not over REST",
                tool.name
            ));
        }
    }
    if declared == 0 {
        report.skip(HYBRID_CHECKS[0], "no tool declares permissions or limits");
        return;
    }
    outcome(
        report,
        HYBRID_CHECKS[0],
        &problems,
        format!(
            "{declared} tools declare permissions or limits, well formed and alike on both faces"
        ),
    );
}

/// The hybrid protocol's code an MCP tool error names: its `_meta.error.code`, else a
/// `…_ERROR` word its text starts with.
fn mcp_code(result: &ToolResult) -> Option<String> {
    if let Some(code) = result
        .meta
        .as_ref()
        .and_then(|meta| meta.get("error"))
        .and_then(|error| error.get("code"))
        .and_then(Value::as_str)
    {
        return Some(code.to_owned());
    }
    let text = result.text();
    let word: String = text
        .chars()
        .take_while(|c| c.is_ascii_uppercase() || *c == '_')
        .collect();
    word.ends_with("_ERROR").then_some(word)
}

fn is_tool_error(result: &ToolResult) -> bool {
    result.is_error == Some(true)
}

fn describe_rest(execution: &Execution) -> String {
    match &execution.error {
        Some(error) => format!(
            "{} (HTTP {}): {}",
            error.code, execution.status, error.message
        ),
        None => format!("success (HTTP {})", execution.status),
    }
}

fn describe_mcp(result: &Result<ToolResult>) -> String {
    match result {
        Ok(result) if is_tool_error(result) => format!("a tool error: {}", result.text()),
        Ok(_) => "a result".to_owned(),
        Err(error) => error.to_string(),
    }
}

fn over_http(mcp: &McpClient) -> bool {
    let target = mcp.target();
    target.starts_with("http://") || target.starts_with("https://")
}

/// `hybrid.permissions`.
async fn permissions(
    mcp: &McpClient,
    rest: &RestClient,
    tools: &[Subject<'_>],
    options: &HybridOptions,
    report: &mut Recorder,
) {
    let name = HYBRID_CHECKS[1];
    let guarded: Vec<&Subject<'_>> = tools
        .iter()
        .filter(|tool| tool.callable && !tool.policy.permissions.is_empty())
        .collect();
    if guarded.is_empty() {
        report.skip(name, "no tool declares permissions");
        return;
    }
    let Some((credentials, scopes)) = &options.limited else {
        report.skip(
            name,
            "no limited credentials to call with: give a token that lacks some tool's permissions \
             (HybridOptions::limited_credentials; check --limited-token with --limited-scopes)",
        );
        return;
    };
    let mut problems = Vec::new();
    let limited_rest = match rest.with_credentials(credentials.clone()) {
        Ok(client) => client,
        Err(error) => {
            report.fail(name, format!("REST with the limited credentials: {error}"));
            return;
        }
    };
    let limited_mcp = if over_http(mcp) {
        let session = crate::client::McpAssured::client()
            .base_uri(mcp.target())
            .timeout(mcp.timeout())
            .credentials(credentials.clone())
            .build()
            .await;
        match session {
            Ok(client) => Some(client),
            Err(error) => {
                problems.push(format!(
                    "MCP refused a session with the limited credentials, which REST accepts: {error}"
                ));
                None
            }
        }
    } else {
        None
    };
    let (mut refused, mut allowed) = (0, 0);
    for tool in &guarded {
        let missing: Vec<&str> = tool
            .policy
            .permissions
            .iter()
            .filter(|permission| !scopes.contains(*permission))
            .map(String::as_str)
            .collect();
        let expect_refusal = !missing.is_empty();
        if expect_refusal {
            refused += 1;
        } else {
            allowed += 1;
        }
        let what = if expect_refusal {
            format!("`{}` without {}", tool.name, missing.join(", "))
        } else {
            format!("`{}` with every permission it needs", tool.name)
        };
        match limited_rest
            .execute(tool.name, tool.arguments.clone())
            .await
        {
            Ok(execution) => {
                let denied = execution.error_code() == Some(&ErrorCode::PermissionError);
                if expect_refusal && !denied {
                    problems.push(format!(
                        "REST {what}: expected PERMISSION_ERROR, got {}",
                        describe_rest(&execution)
                    ));
                } else if !expect_refusal && denied {
                    problems.push(format!(
                        "REST {what}: refused, {}",
                        describe_rest(&execution)
                    ));
                }
            }
            Err(error) => problems.push(format!("REST {what}: {error}")),
        }
        let Some(session) = &limited_mcp else {
            continue;
        };
        let result = session.call_tool(tool.name, tool.arguments.clone()).await;
        let code = result.as_ref().ok().and_then(mcp_code);
        let denied_by_tool_error = matches!(&result, Ok(result) if is_tool_error(result))
            && code
                .as_deref()
                .is_none_or(|code| code == "PERMISSION_ERROR");
        if expect_refusal && !denied_by_tool_error {
            problems.push(format!(
                "MCP {what}: expected a tool error (PERMISSION_ERROR), got {}",
                describe_mcp(&result)
            ));
        } else if !expect_refusal && code.as_deref() == Some("PERMISSION_ERROR") {
            problems.push(format!("MCP {what}: refused, {}", describe_mcp(&result)));
        }
    }
    if let Some(session) = limited_mcp {
        let _ = session.close().await;
    }
    let faces = if over_http(mcp) {
        "REST (PERMISSION_ERROR) and MCP (a tool error)"
    } else {
        "REST (PERMISSION_ERROR; MCP is not over HTTP, so it has no token)"
    };
    outcome(
        report,
        name,
        &problems,
        format!(
            "with the limited credentials, {} refused on {faces}, {allowed} served",
            counted(refused, "tool")
        ),
    );
}

/// `hybrid.max_execution_time`.
async fn execution_time(
    mcp: &McpClient,
    rest: &RestClient,
    tools: &[Subject<'_>],
    options: &HybridOptions,
    report: &mut Recorder,
) {
    let name = HYBRID_CHECKS[2];
    if options.slow.is_empty() {
        report.skip(
            name,
            "no call known to run longer than its tool's maxExecutionTime: give one \
             (HybridOptions::slow_call; check --slow-call TOOL=JSON), its backend made slow, say",
        );
        return;
    }
    let mut problems = Vec::new();
    let mut judged = Vec::new();
    for (tool_name, arguments) in &options.slow {
        let Some(tool) = tools.iter().find(|tool| tool.name == tool_name) else {
            problems.push(format!(
                "slow call of `{tool_name}`: no such tool on both faces"
            ));
            continue;
        };
        let limit = tool.policy.limits.max_execution_time;
        if limit > LONGEST_WAIT {
            problems.push(format!(
                "`{tool_name}`'s maxExecutionTime is {} s, longer than this check waits ({} s): \
                 declare a shorter one for the test",
                limit.as_secs(),
                LONGEST_WAIT.as_secs()
            ));
            continue;
        }
        let grace = (limit / 2).max(Duration::from_secs(1));
        let deadline = limit + grace;
        let patience = deadline + Duration::from_secs(5);
        let limit_ms = limit.as_millis();
        let started = Instant::now();
        let over_rest = rest
            .with_timeout(patience)
            .execute(tool_name, arguments.clone())
            .await;
        let took = started.elapsed();
        match &over_rest {
            Ok(execution) if execution.error_code() == Some(&ErrorCode::TimeoutError) => {
                if took > deadline {
                    problems.push(format!(
                        "REST `{tool_name}`: TIMEOUT_ERROR only after {} ms, maxExecutionTime {limit_ms} ms",
                        took.as_millis()
                    ));
                }
            }
            Ok(execution) => problems.push(format!(
                "REST `{tool_name}` (maxExecutionTime {limit_ms} ms): expected TIMEOUT_ERROR, got {} after {} ms",
                describe_rest(execution),
                took.as_millis()
            )),
            Err(error) => problems.push(format!("REST `{tool_name}`: {error}")),
        }
        let started = Instant::now();
        let over_mcp =
            tokio::time::timeout(patience, mcp.call_tool(tool_name, arguments.clone())).await;
        let took = started.elapsed();
        match over_mcp {
            Err(_) => problems.push(format!(
                "MCP `{tool_name}` (maxExecutionTime {limit_ms} ms): no answer within {} ms",
                patience.as_millis()
            )),
            Ok(result) => {
                let code = result.as_ref().ok().and_then(mcp_code);
                let timed_out = matches!(&result, Ok(result) if is_tool_error(result))
                    && code.as_deref().is_none_or(|code| code == "TIMEOUT_ERROR");
                if !timed_out {
                    problems.push(format!(
                        "MCP `{tool_name}` (maxExecutionTime {limit_ms} ms): expected a tool error (TIMEOUT_ERROR), got {} after {} ms",
                        describe_mcp(&result),
                        took.as_millis()
                    ));
                } else if took > deadline {
                    problems.push(format!(
                        "MCP `{tool_name}`: a tool error only after {} ms, maxExecutionTime {limit_ms} ms",
                        took.as_millis()
                    ));
                }
            }
        }
        judged.push(format!("`{tool_name}` ({limit_ms} ms)"));
    }
    outcome(
        report,
        name,
        &problems,
        format!(
            "TIMEOUT_ERROR over REST and a tool error over MCP, in time: {}",
            judged.join(", ")
        ),
    );
}

/// One call of a burst: when it started and ended, from the burst's start, and whether it
/// was refused for want of a place.
struct Timed {
    start: Duration,
    end: Duration,
    refused: bool,
    failure: Option<String>,
}

/// `hybrid.max_concurrency`.
async fn concurrency(
    mcp: &McpClient,
    rest: &RestClient,
    tools: &[Subject<'_>],
    report: &mut Recorder,
) {
    let name = HYBRID_CHECKS[3];
    let mut problems = Vec::new();
    let mut judged = Vec::new();
    let mut unjudged = Vec::new();
    for tool in tools.iter().filter(|tool| tool.policy.declared) {
        let limits = tool.policy.limits;
        if !tool.callable {
            unjudged.push(held_back(tool));
            continue;
        }
        if limits.max_concurrency >= MOST_AT_ONCE {
            unjudged.push(format!(
                "`{}` (maxConcurrency {} is more calls than this check sends at once)",
                tool.name, limits.max_concurrency
            ));
            continue;
        }
        let Some(server_time) = server_time(rest, tool).await else {
            unjudged.push(format!(
                "`{}` (no REST metadata.duration to tell how long its calls run)",
                tool.name
            ));
            continue;
        };
        let count = limits.max_concurrency + 1;
        for face in ["REST", "MCP"] {
            let burst = if face == "REST" {
                rest_burst(rest, tool, count).await
            } else {
                mcp_burst(mcp, tool, count).await
            };
            match judge_burst(
                &burst,
                limits.max_concurrency,
                limits.on_concurrency_limit,
                server_time,
            ) {
                Verdict::Fine => judged.push(format!("`{}` over {face}", tool.name)),
                Verdict::Broken(problem) => problems.push(format!(
                    "{face} `{}`, {count} calls at once: {problem}",
                    tool.name
                )),
                Verdict::CannotTell(why) => {
                    unjudged.push(format!("`{}` over {face} ({why})", tool.name));
                }
            }
        }
    }
    let hint = "; give arguments that make calls take longer (HybridOptions::arguments, check --tool-args)";
    judged_outcome(
        report,
        name,
        Judged {
            problems,
            judged,
            unjudged,
        },
        "maxConcurrency honoured",
        hint,
    );
}

/// What a check that goes tool by tool found: problems, what it judged fine, and what it
/// could not judge (with why).
struct Judged {
    problems: Vec<String>,
    judged: Vec<String>,
    unjudged: Vec<String>,
}

/// Skipped when nothing was judged (saying why, and `hint`), else passed or failed, naming
/// what was judged and what was not.
fn judged_outcome(report: &mut Recorder, name: &str, found: Judged, fine: &str, hint: &str) {
    let Judged {
        problems,
        judged,
        unjudged,
    } = found;
    let not_judged = format!("not judged: {}", unjudged.join("; "));
    if judged.is_empty() && problems.is_empty() {
        if unjudged.is_empty() {
            report.skip(name, "no tool lists its limits");
        } else {
            report.skip(name, format!("{not_judged}{hint}"));
        }
        return;
    }
    let mut fine = format!("{fine}: {}", judged.join(", "));
    if !unjudged.is_empty() {
        fine.push_str(&format!("; {not_judged}"));
    }
    outcome(report, name, &problems, fine);
}

enum Verdict {
    Fine,
    Broken(String),
    CannotTell(String),
}

/// The verdict on a burst of `places + 1` calls at once, for a tool whose calls run for
/// `server_time` at the server. Timing on the client's side alone cannot tell calls that ran
/// together from calls the transport or a loaded machine kept apart, so nothing is judged
/// on timing unless each call runs long at the server.
fn judge_burst(
    burst: &[Timed],
    places: u32,
    on_limit: OnConcurrencyLimit,
    server_time: Duration,
) -> Verdict {
    if let Some(failure) = burst.iter().find_map(|call| call.failure.clone()) {
        return Verdict::Broken(failure);
    }
    let refused = burst.iter().filter(|call| call.refused).count();
    let too_quick = || {
        Verdict::CannotTell(format!(
            "its calls run {} ms at the server: too quick to be sure they ran together",
            server_time.as_millis()
        ))
    };
    match on_limit {
        OnConcurrencyLimit::Reject if refused > 0 => Verdict::Fine,
        OnConcurrencyLimit::Wait if refused > 0 => Verdict::Broken(format!(
            "{refused} refused with RATE_LIMIT_ERROR, though the tool declares onConcurrencyLimit wait"
        )),
        _ if server_time < TELLING_DURATION => too_quick(),
        OnConcurrencyLimit::Reject => {
            let last_start = burst
                .iter()
                .map(|call| call.start)
                .max()
                .unwrap_or_default();
            let first_end = burst.iter().map(|call| call.end).min().unwrap_or_default();
            if last_start < first_end {
                Verdict::Broken(format!(
                    "all were in flight together, each running {} ms at the server, and none was refused with RATE_LIMIT_ERROR (maxConcurrency {places}, onConcurrencyLimit reject)",
                    server_time.as_millis()
                ))
            } else {
                Verdict::CannotTell("the calls were never all in flight together".to_owned())
            }
        }
        OnConcurrencyLimit::Wait => {
            let durations = burst.iter().map(|call| call.end.saturating_sub(call.start));
            let fastest = durations.clone().min().unwrap_or_default();
            let slowest = durations.max().unwrap_or_default();
            if slowest.as_secs_f64() < 1.5 * fastest.as_secs_f64() {
                Verdict::Broken(format!(
                    "none waited: each took {}–{} ms, all running at once though maxConcurrency is {places}",
                    fastest.as_millis(),
                    slowest.as_millis()
                ))
            } else {
                Verdict::Fine
            }
        }
    }
}

/// How long a call of `tool` runs at the server: the `metadata.duration` of one REST call.
async fn server_time(rest: &RestClient, tool: &Subject<'_>) -> Option<Duration> {
    let execution = rest.execute(tool.name, tool.arguments.clone()).await.ok()?;
    let millis = execution.metadata?.duration?;
    (millis.is_finite() && millis >= 0.0).then(|| Duration::from_secs_f64(millis / 1000.0))
}

async fn rest_burst(rest: &RestClient, tool: &Subject<'_>, count: u32) -> Vec<Timed> {
    let began = Instant::now();
    let calls = (0..count).map(|_| async {
        let start = began.elapsed();
        let answer = rest.execute(tool.name, tool.arguments.clone()).await;
        let end = began.elapsed();
        let (refused, failure) = match &answer {
            Ok(execution) => (
                execution.error_code() == Some(&ErrorCode::RateLimitError),
                None,
            ),
            Err(error) => (false, Some(error.to_string())),
        };
        Timed {
            start,
            end,
            refused,
            failure,
        }
    });
    futures::future::join_all(calls).await
}

async fn mcp_burst(mcp: &McpClient, tool: &Subject<'_>, count: u32) -> Vec<Timed> {
    let began = Instant::now();
    let calls = (0..count).map(|_| async {
        let start = began.elapsed();
        let answer = mcp.call_tool(tool.name, tool.arguments.clone()).await;
        let end = began.elapsed();
        let (refused, failure) = match &answer {
            Ok(result) => (
                is_tool_error(result) && mcp_code(result).as_deref() == Some("RATE_LIMIT_ERROR"),
                None,
            ),
            Err(error) => (false, Some(error.to_string())),
        };
        Timed {
            start,
            end,
            refused,
            failure,
        }
    });
    futures::future::join_all(calls).await
}

/// `arguments` with one string argument (or the first string of an array of strings)
/// padded by `bytes`; `None` when no argument is or holds a string.
fn padded(arguments: &Value, schema: &Value, bytes: usize) -> Option<Value> {
    let pad = "x".repeat(bytes);
    let mut padded = arguments.clone();
    let object = padded.as_object_mut()?;
    if let Some(text) = object.values_mut().find_map(|value| match value {
        Value::String(text) => Some(text),
        Value::Array(items) => items.iter_mut().find_map(|item| match item {
            Value::String(text) => Some(text),
            _ => None,
        }),
        _ => None,
    }) {
        text.push_str(&pad);
        return Some(padded);
    }
    let key = schema
        .get("properties")?
        .as_object()?
        .iter()
        .find(|(_, property)| property.get("type") == Some(&Value::from("string")))
        .map(|(key, _)| key.clone())?;
    object.insert(key, Value::String(pad));
    Some(padded)
}

/// `count` `thing`s, the plural with an `s`.
fn counted(count: usize, thing: &str) -> String {
    if count == 1 {
        format!("1 {thing}")
    } else {
        format!("{count} {thing}s")
    }
}

/// `hybrid.max_payload_size`.
async fn payload_size(
    mcp: &McpClient,
    rest: &RestClient,
    tools: &[Subject<'_>],
    report: &mut Recorder,
) {
    let name = HYBRID_CHECKS[4];
    let mut problems = Vec::new();
    let mut judged = Vec::new();
    let mut unjudged = Vec::new();
    for tool in tools.iter().filter(|tool| tool.policy.declared) {
        let limits = tool.policy.limits;
        if !tool.callable {
            unjudged.push(held_back(tool));
            continue;
        }
        if limits.max_payload_size_mb > LARGEST_PAYLOAD_MB {
            unjudged.push(format!(
                "`{}` (maxPayloadSize {} MB is larger than this check sends)",
                tool.name, limits.max_payload_size_mb
            ));
            continue;
        }
        let schema = Value::Object(tool.mcp.input_schema.as_ref().clone());
        let Some(arguments) = padded(&tool.arguments, &schema, limits.max_payload_bytes() + 1024)
        else {
            unjudged.push(format!("`{}` (no string argument to pad)", tool.name));
            continue;
        };
        let size_mb = limits.max_payload_size_mb;
        let patience = Duration::from_secs(30);
        match rest.with_timeout(patience).execute(tool.name, arguments.clone()).await {
            Ok(execution) if execution.error_code() == Some(&ErrorCode::ValidationError) => {}
            Ok(execution) => problems.push(format!(
                "REST `{}` over its maxPayloadSize of {size_mb} MB: expected VALIDATION_ERROR before it runs, got {}",
                tool.name,
                describe_rest(&execution)
            )),
            // A 413 without an envelope (a proxy's) still refuses it.
            Err(error) if error.http_status() == Some(413) => {}
            Err(error) => problems.push(format!("REST `{}` over its maxPayloadSize: {error}", tool.name)),
        }
        let result = mcp.call_tool(tool.name, arguments).await;
        let refused = match &result {
            Ok(result) => {
                is_tool_error(result)
                    && mcp_code(result)
                        .as_deref()
                        .is_none_or(|code| code == "VALIDATION_ERROR")
            }
            // A JSON-RPC error, or the transport's 413 before the tool was reached.
            Err(error) => error.code().is_some() || error.http_status() == Some(413),
        };
        if !refused {
            problems.push(format!(
                "MCP `{}` over its maxPayloadSize of {size_mb} MB: expected an error or a tool error (VALIDATION_ERROR) before it runs, got {}",
                tool.name,
                describe_mcp(&result)
            ));
        }
        judged.push(format!("`{}` ({size_mb} MB)", tool.name));
    }
    judged_outcome(
        report,
        name,
        Judged {
            problems,
            judged,
            unjudged,
        },
        "a request over maxPayloadSize refused on both faces",
        "",
    );
}

/// `hybrid.streaming`.
async fn streaming(
    mcp: &McpClient,
    rest: &RestClient,
    tools: &[Subject<'_>],
    report: &mut Recorder,
) {
    let name = HYBRID_CHECKS[5];
    let mut problems = Vec::new();
    let mut streamed = Vec::new();
    for tool in tools.iter().filter(|tool| tool.callable) {
        let stream = match rest
            .execute_streaming(tool.name, tool.arguments.clone())
            .await
        {
            Ok(stream) => stream,
            Err(error) => {
                problems.push(format!("REST `{}` asked for a stream: {error}", tool.name));
                continue;
            }
        };
        if !stream.is_streamed() {
            continue;
        }
        let done = match stream.finish().await {
            Ok(done) => done,
            Err(error) => {
                problems.push(format!("REST `{}`'s stream: {error}", tool.name));
                continue;
            }
        };
        streamed.push(format!(
            "`{}` ({}, {})",
            tool.name,
            counted(done.items().len(), "item"),
            counted(done.progress_count(), "progress line")
        ));
        let plain = rest.execute(tool.name, tool.arguments.clone()).await;
        match &plain {
            Ok(plain)
                if plain.success == done.execution.success
                    && plain.error_code() == done.execution.error_code() => {}
            Ok(plain) => problems.push(format!(
                "REST `{}`: the stream ended with {}, the same call unstreamed gave {}",
                tool.name,
                describe_rest(&done.execution),
                describe_rest(plain)
            )),
            Err(error) => problems.push(format!("REST `{}` unstreamed: {error}", tool.name)),
        }
        if !done.events.is_empty()
            && done.finished_at >= TELLING_DURATION
            && done.lead() < Duration::from_millis(2)
        {
            problems.push(format!(
                "REST `{}`: every line came with the envelope, after {} ms: nothing was streamed as it came",
                tool.name,
                done.finished_at.as_millis()
            ));
        }
        if done.progress_count() > 0 {
            match mcp_progress(mcp, tool).await {
                Ok(0) => problems.push(format!(
                    "`{}` streams {} progress lines over REST but sent no notifications/progress over MCP for the same call (with a progressToken)",
                    tool.name,
                    done.progress_count()
                )),
                Ok(_) => {}
                Err(error) => problems.push(format!("MCP `{}` with a progressToken: {error}", tool.name)),
            }
        }
    }
    if streamed.is_empty() && problems.is_empty() {
        report.skip(
            name,
            "no tool answered Accept: application/x-ndjson with a stream",
        );
        return;
    }
    outcome(
        report,
        name,
        &problems,
        format!(
            "streamed as they came, ending as unstreamed, progress on both faces: {}",
            streamed.join(", ")
        ),
    );
}

/// How many progress notifications the MCP call of `tool` brought.
async fn mcp_progress(mcp: &McpClient, tool: &Subject<'_>) -> Result<usize> {
    let pending = mcp
        .start_call_tool(tool.name, tool.arguments.clone())
        .await?;
    let token = pending.progress_token().clone();
    pending.result().await?;
    Ok(mcp.progress_seen(&token))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(start: u64, end: u64, refused: bool) -> Timed {
        Timed {
            start: Duration::from_millis(start),
            end: Duration::from_millis(end),
            refused,
            failure: None,
        }
    }

    #[test]
    fn a_burst_is_judged_only_when_timing_can_tell() {
        let reject = OnConcurrencyLimit::Reject;
        let wait = OnConcurrencyLimit::Wait;
        let long = Duration::from_millis(200);
        let quick = Duration::from_millis(5);
        let judge = |burst: &[Timed], on_limit, time| judge_burst(burst, 1, on_limit, time);
        // A refusal tells, whatever the timing.
        let refused = [call(0, 5, false), call(1, 5, true)];
        assert!(matches!(judge(&refused, reject, quick), Verdict::Fine));
        assert!(matches!(judge(&refused, wait, quick), Verdict::Broken(_)));
        // Overlapping on the client's side tells only when calls run long at the server.
        let together = [call(0, 300, false), call(1, 301, false)];
        assert!(matches!(judge(&together, reject, long), Verdict::Broken(_)));
        assert!(matches!(
            judge(&together, reject, quick),
            Verdict::CannotTell(_)
        ));
        assert!(matches!(judge(&together, wait, long), Verdict::Broken(_)));
        let apart = [call(0, 300, false), call(400, 700, false)];
        assert!(matches!(
            judge(&apart, reject, long),
            Verdict::CannotTell(_)
        ));
        let waited = [call(0, 200, false), call(1, 400, false)];
        assert!(matches!(judge(&waited, wait, long), Verdict::Fine));
    }

    #[test]
    fn a_destructive_tool_is_called_only_with_arguments_given() {
        let mcp: Tool = serde_json::from_value(serde_json::json!({
            "name": "wipe", "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": true},
        }))
        .unwrap();
        let rest: RestTool =
            serde_json::from_value(serde_json::json!({"name": "wipe", "inputSchema": {}})).unwrap();
        assert!(!Subject::new(&mcp, &rest, &HybridOptions::new()).callable);
        let given = HybridOptions::new().arguments("wipe", serde_json::json!({"dry_run": true}));
        assert!(Subject::new(&mcp, &rest, &given).callable);
        let safe: Tool = serde_json::from_value(serde_json::json!({
            "name": "wipe", "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": false},
        }))
        .unwrap();
        assert!(Subject::new(&safe, &rest, &HybridOptions::new()).callable);
    }

    #[test]
    fn a_string_argument_is_padded_past_the_limit() {
        let schema = serde_json::json!({"properties": {"city": {"type": "string"}, "days": {"type": "integer"}}});
        let padded = padded(&serde_json::json!({"days": 1}), &schema, 2000).unwrap();
        assert!(padded["city"].as_str().unwrap().len() >= 2000);
        assert_eq!(padded["days"], 1);
        let cities =
            super::padded(&serde_json::json!({"cities": ["a", "b"]}), &schema, 10).unwrap();
        assert_eq!(cities["cities"], serde_json::json!(["axxxxxxxxxx", "b"]));
        assert!(
            super::padded(&serde_json::json!({"days": 1}), &serde_json::json!({}), 10).is_none()
        );
    }
}
