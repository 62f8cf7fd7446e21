//! The parity check of hybrid servers: their REST surface and their MCP side must offer the
//! same tools, with the same descriptions and schemas, behaving the same way.

use std::collections::BTreeSet;

use serde_json::{Value, json};

use rmcp::model::Tool;

use super::recorder::Recorder;
use crate::{
    client::McpClient,
    credentials::Credentials,
    error::{Error, code},
    report::Report,
    rest::{ErrorCode, Execution, RestClient, RestTool},
    results::mcp::ToolResult,
    server_tests::valid_object,
};

/// The suite of the parity checks' entries.
pub const PARITY_SUITE: &str = "parity";

/// The parity checks, in run order.
pub const PARITY_CHECKS: [&str; 8] = [
    "parity.tool_names",
    "parity.descriptions",
    "parity.input_schemas",
    "parity.execution",
    "parity.unknown_tool",
    "parity.validation",
    "parity.auth",
    "parity.metadata",
];

/// The key of an MCP tool's `_meta` under which a hybrid server may list the tool's
/// metadata too, which `parity.metadata` then holds to the REST listing's.
pub const MCP_METADATA_KEY: &str = "metadata";

/// The tool the unknown-tool and auth checks call: unknown, so that a server that lets the
/// call through runs nothing.
const NO_SUCH_TOOL: &str = "mcp_assured_parity_no_such_tool";

/// The bearer token and header value no server can know, for the auth check.
const WRONG_CREDENTIAL: &str = "mcp-assured-parity-wrong-credential";

/// Argument sets for [`check_parity_with`], on top of one generated from each tool's schema.
#[derive(Debug, Clone, Default)]
pub struct ParityOptions {
    arguments: Vec<(String, Value)>,
    generated: bool,
}

impl ParityOptions {
    /// Arguments generated from each tool's input schema, and no others.
    pub fn new() -> Self {
        Self {
            arguments: Vec::new(),
            generated: true,
        }
    }

    /// Also runs `tool` with `arguments` on both sides (repeatable, per tool).
    #[must_use]
    pub fn arguments(mut self, tool: impl Into<String>, arguments: Value) -> Self {
        self.arguments.push((tool.into(), arguments));
        self
    }

    /// Only the argument sets given with [`arguments`](Self::arguments): for tools with side
    /// effects, or whose generated arguments would mean nothing to the server.
    #[must_use]
    pub fn without_generated_arguments(mut self) -> Self {
        self.generated = false;
        self
    }
}

/// Checks that `rest` and `mcp`, the two faces of one hybrid server, agree; see
/// [`check_parity_with`].
pub async fn check_parity(mcp: &McpClient, rest: &RestClient) -> Report {
    check_parity_with(mcp, rest, &ParityOptions::new()).await
}

/// Checks that `rest` and `mcp` agree, one timed [`Entry`](crate::report::Entry) of the suite
/// [`PARITY_SUITE`] per aspect, each failure listing every difference:
///
/// - `parity.tool_names`: the same tools;
/// - `parity.descriptions`, `parity.input_schemas`: the same, field by field;
/// - `parity.execution`: for each argument set (one generated per tool, plus those given),
///   both succeed with equivalent content (REST `result` against MCP `structuredContent`,
///   else the text), or both fail the same way where the protocols let one tell (an MCP
///   -32602 is not a REST `EXECUTION_ERROR`, an MCP `isError` not a `TOOL_NOT_FOUND`);
/// - `parity.unknown_tool`: `TOOL_NOT_FOUND` on REST, `-32602` on MCP;
/// - `parity.validation`: arguments missing a required field are `VALIDATION_ERROR` on REST
///   and a JSON-RPC error or `isError` on MCP;
/// - `parity.auth`: when the REST client has credentials, REST refuses both listing and
///   executing (an unknown tool, so nothing runs) without them or with wrong ones (the bearer
///   token and every header given, each with a wrong value), and an HTTP MCP endpoint
///   refuses a fresh session the same two ways (skipped when there are no credentials);
/// - `parity.metadata`: each REST tool's `metadata` breaks none of the protocol's types
///   (`version` and `deprecates` semantic versions, `deprecates` the older, `tags` strings,
///   `custom` an object; see [`ToolMetadata`](crate::rest::ToolMetadata)), and where the MCP
///   tool lists its metadata too (`_meta.metadata`), it is the same (skipped when no tool
///   declares any).
pub async fn check_parity_with(
    mcp: &McpClient,
    rest: &RestClient,
    options: &ParityOptions,
) -> Report {
    let mut report = Recorder::new(PARITY_SUITE, None);
    let (mcp_tools, rest_tools) = match both_lists(mcp, rest).await {
        Ok(lists) => lists,
        Err(reason) => {
            report.fail(PARITY_CHECKS[0], reason);
            for name in &PARITY_CHECKS[1..] {
                report.skip(name, "the tool lists could not be compared");
            }
            return report.finish();
        }
    };
    let pairs = tool_names(&mcp_tools, &rest_tools, &mut report);
    compare_definitions(&pairs, &mut report);
    compare_executions(mcp, rest, &pairs, options, &mut report).await;
    compare_unknown_tool(mcp, rest, &mut report).await;
    compare_validation(mcp, rest, &pairs, &mut report).await;
    compare_auth(mcp, rest, &mut report).await;
    compare_metadata(&rest_tools, &pairs, &mut report);
    report.finish()
}

/// The tools of both faces, or why either list could not be read.
pub(super) async fn both_lists(
    mcp: &McpClient,
    rest: &RestClient,
) -> Result<(Vec<Tool>, Vec<RestTool>), String> {
    match (mcp.list_tools().await, rest.list_tools().await) {
        (Ok(mcp_tools), Ok(rest_tools)) => Ok((mcp_tools.to_vec(), rest_tools.tools)),
        (mcp_tools, rest_tools) => Err([
            mcp_tools
                .err()
                .map(|e| format!("MCP tools/list failed: {e}")),
            rest_tools
                .err()
                .map(|e| format!("REST GET /mcp/tools failed: {e}")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join("; ")),
    }
}

/// `parity.metadata`: what each REST tool declares is well formed, and the same over MCP
/// where the MCP tool declares it too.
fn compare_metadata(rest: &[RestTool], pairs: &[(&Tool, &RestTool)], report: &mut Recorder) {
    let declared: Vec<&RestTool> = rest.iter().filter(|tool| tool.metadata.is_some()).collect();
    if declared.is_empty() {
        report.skip(PARITY_CHECKS[7], "no REST tool declares metadata");
        return;
    }
    let mut problems: Vec<String> = declared
        .iter()
        .flat_map(|tool| {
            tool.tool_metadata()
                .problems
                .into_iter()
                .map(move |problem| format!("{}: {problem}", tool.name))
        })
        .collect();
    let mut compared = 0;
    for (mcp, rest) in pairs {
        let Some(over_mcp) = mcp
            .meta
            .as_ref()
            .and_then(|meta| meta.get(MCP_METADATA_KEY))
        else {
            continue;
        };
        compared += 1;
        let over_rest = rest.metadata.clone().unwrap_or(Value::Null);
        for difference in json_differences(over_mcp, &over_rest, "") {
            problems.push(format!("{}: metadata{difference}", mcp.name));
        }
    }
    let passed = if compared == 0 {
        format!("{} tools declare well-formed metadata", declared.len())
    } else {
        format!(
            "{} tools declare well-formed metadata, the same over MCP for {compared}",
            declared.len()
        )
    };
    outcome(report, PARITY_CHECKS[7], &problems, &passed);
}

/// The tools both sides have, paired; fails `parity.tool_names` unless the sets are equal.
fn tool_names<'a>(
    mcp: &'a [Tool],
    rest: &'a [RestTool],
    report: &mut Recorder,
) -> Vec<(&'a Tool, &'a RestTool)> {
    let mcp_names: BTreeSet<&str> = mcp.iter().map(|tool| tool.name.as_ref()).collect();
    let rest_names: BTreeSet<&str> = rest.iter().map(|tool| tool.name.as_str()).collect();
    let only_mcp: Vec<_> = mcp_names.difference(&rest_names).collect();
    let only_rest: Vec<_> = rest_names.difference(&mcp_names).collect();
    if only_mcp.is_empty() && only_rest.is_empty() {
        report.pass(
            PARITY_CHECKS[0],
            format!("the same {} tools on both sides", mcp_names.len()),
        );
    } else {
        let mut differences = Vec::new();
        if !only_mcp.is_empty() {
            differences.push(format!("only over MCP: {}", join(&only_mcp)));
        }
        if !only_rest.is_empty() {
            differences.push(format!("only over REST: {}", join(&only_rest)));
        }
        report.fail(PARITY_CHECKS[0], differences.join("; "));
    }
    mcp.iter()
        .filter_map(|tool| {
            let twin = rest.iter().find(|rest| rest.name == tool.name.as_ref())?;
            Some((tool, twin))
        })
        .collect()
}

fn compare_definitions(pairs: &[(&Tool, &RestTool)], report: &mut Recorder) {
    let mut descriptions = Vec::new();
    let mut schemas = Vec::new();
    for (mcp, rest) in pairs {
        if mcp.description.as_deref() != rest.description.as_deref() {
            descriptions.push(format!(
                "{}: MCP {}, REST {}",
                mcp.name,
                quoted(mcp.description.as_deref()),
                quoted(rest.description.as_deref())
            ));
        }
        let mcp_schema = Value::Object(mcp.input_schema.as_ref().clone());
        for difference in json_differences(&mcp_schema, &rest.input_schema, "") {
            schemas.push(format!("{}: {difference}", mcp.name));
        }
    }
    outcome(
        report,
        PARITY_CHECKS[1],
        &descriptions,
        "the same descriptions",
    );
    outcome(report, PARITY_CHECKS[2], &schemas, "the same input schemas");
}

/// Every place where `mcp` and `rest` differ, as `<pointer>: MCP <a>, REST <b>`.
fn json_differences(mcp: &Value, rest: &Value, at: &str) -> Vec<String> {
    match (mcp, rest) {
        (Value::Object(left), Value::Object(right)) => {
            let keys: BTreeSet<&String> = left.keys().chain(right.keys()).collect();
            keys.into_iter()
                .flat_map(|key| {
                    let here = format!("{at}/{}", key.replace('~', "~0").replace('/', "~1"));
                    match (left.get(key), right.get(key)) {
                        (Some(a), Some(b)) => json_differences(a, b, &here),
                        (Some(a), None) => vec![format!("{here}: MCP {a}, REST has none")],
                        (None, Some(b)) => vec![format!("{here}: MCP has none, REST {b}")],
                        (None, None) => Vec::new(),
                    }
                })
                .collect()
        }
        (a, b) if a == b => Vec::new(),
        (a, b) => vec![format!(
            "{}: MCP {a}, REST {b}",
            if at.is_empty() { "/" } else { at }
        )],
    }
}

async fn compare_executions(
    mcp: &McpClient,
    rest: &RestClient,
    pairs: &[(&Tool, &RestTool)],
    options: &ParityOptions,
    report: &mut Recorder,
) {
    let mut runs: Vec<(String, Value)> = Vec::new();
    if options.generated {
        for (tool, _) in pairs {
            let schema = Value::Object(tool.input_schema.as_ref().clone());
            runs.push((tool.name.to_string(), valid_object(&schema)));
        }
    }
    runs.extend(options.arguments.iter().cloned());
    if runs.is_empty() {
        report.skip(
            PARITY_CHECKS[3],
            "no argument sets (none given, generation off)",
        );
        return;
    }
    let mut differences = Vec::new();
    for (tool, arguments) in &runs {
        let over_mcp = mcp.call_tool(tool, arguments.clone()).await;
        let over_rest = rest.execute(tool, arguments.clone()).await;
        if let Some(difference) = execution_difference(&over_mcp, &over_rest) {
            differences.push(format!("{tool} {arguments}: {difference}"));
        }
    }
    outcome(
        report,
        PARITY_CHECKS[3],
        &differences,
        &format!("{} argument sets: both sides agree", runs.len()),
    );
}

/// Why the two answers to the same call disagree, if they do.
fn execution_difference(
    mcp: &crate::error::Result<ToolResult>,
    rest: &crate::error::Result<Execution>,
) -> Option<String> {
    let rest = match rest {
        Ok(execution) => execution,
        Err(error) => return Some(format!("REST failed: {error}")),
    };
    let mcp_succeeded = matches!(mcp, Ok(result) if result.is_error != Some(true));
    match (mcp_succeeded, rest.success) {
        (true, true) => {
            let Ok(result) = mcp else { return None };
            let mcp_value = result
                .structured_content
                .clone()
                .unwrap_or_else(|| Value::String(result.text()));
            let rest_value = rest.result.clone().unwrap_or(Value::Null);
            let differences = json_differences(&mcp_value, &rest_value, "");
            (!differences.is_empty())
                .then(|| format!("different results: {}", differences.join("; ")))
        }
        (false, false) => (!failures_agree(mcp, rest.error_code())).then(|| {
            format!(
                "both failed, differently: MCP {}, REST {}",
                describe_mcp_failure(mcp),
                describe_rest_failure(rest)
            )
        }),
        (true, false) => Some(format!(
            "MCP succeeded, REST failed with {}",
            describe_rest_failure(rest)
        )),
        (false, true) => Some(format!(
            "REST succeeded, MCP failed: {}",
            describe_mcp_failure(mcp)
        )),
    }
}

/// Whether two failures mean the same where the protocols let one tell: an MCP -32602 (the
/// request refused before the tool ran) is not a REST `EXECUTION_ERROR` or `TIMEOUT_ERROR`
/// (the tool ran), and an MCP `isError` (the tool ran) is not a REST `TOOL_NOT_FOUND`.
/// `isError` and `VALIDATION_ERROR` agree: MCP servers report bad arguments either way. An
/// MCP call that got no answer (timed out, the server crashed) agrees with no REST error.
/// Every other pair is named with why it cannot disagree.
fn failures_agree(mcp: &crate::error::Result<ToolResult>, rest: Option<&ErrorCode>) -> bool {
    // The MCP call got no answer at all (a timeout, a crash, a broken connection) where REST
    // answered with an error: the faces differ, whatever REST's code.
    if matches!(mcp, Err(error) if !matches!(error, Error::JsonRpc { .. })) {
        return false;
    }
    let Some(rest) = rest else {
        // REST failed with an HTTP status and no envelope code: nothing to tell apart.
        return true;
    };
    match (mcp, rest) {
        // MCP refused the request before the tool ran.
        (
            Err(Error::JsonRpc { code: got, .. }),
            ErrorCode::ToolNotFound | ErrorCode::ValidationError,
        ) if *got == code::INVALID_PARAMS => true,
        (
            Err(Error::JsonRpc { code: got, .. }),
            ErrorCode::ExecutionError | ErrorCode::TimeoutError,
        ) if *got == code::INVALID_PARAMS => false,
        // Another JSON-RPC error (internal, or the server's own code) does not say whether the
        // tool ran.
        (
            Err(Error::JsonRpc { .. }),
            ErrorCode::ToolNotFound
            | ErrorCode::ValidationError
            | ErrorCode::ExecutionError
            | ErrorCode::TimeoutError,
        ) => true,
        // No answer at all is told apart above.
        (
            Err(_),
            ErrorCode::ToolNotFound
            | ErrorCode::ValidationError
            | ErrorCode::ExecutionError
            | ErrorCode::TimeoutError,
        ) => false,
        // The tool ran and reported an error.
        (Ok(_), ErrorCode::ToolNotFound) => false,
        (
            Ok(_),
            ErrorCode::ValidationError | ErrorCode::ExecutionError | ErrorCode::TimeoutError,
        ) => true,
        // MCP has no code for permissions or rate limits, nor for a REST code of the server's
        // own: any MCP failure may stand for them.
        (_, ErrorCode::PermissionError | ErrorCode::RateLimitError | ErrorCode::Other(_)) => true,
    }
}

async fn compare_unknown_tool(mcp: &McpClient, rest: &RestClient, report: &mut Recorder) {
    let name = NO_SUCH_TOOL;
    let mut problems = Vec::new();
    match mcp.call_tool(name, json!({})).await {
        Err(Error::JsonRpc { code: got, .. }) if got == code::INVALID_PARAMS => {}
        other => problems.push(format!(
            "MCP: expected JSON-RPC error -32602, got {}",
            describe_mcp_failure(&other)
        )),
    }
    match rest.execute(name, json!({})).await {
        Ok(execution) if execution.error_code() == Some(&ErrorCode::ToolNotFound) => {}
        Ok(execution) => problems.push(format!(
            "REST: expected TOOL_NOT_FOUND, got {}",
            describe_rest_failure(&execution)
        )),
        Err(error) => problems.push(format!("REST: expected TOOL_NOT_FOUND, got {error}")),
    }
    outcome(
        report,
        PARITY_CHECKS[4],
        &problems,
        "an unknown tool is TOOL_NOT_FOUND over REST and -32602 over MCP",
    );
}

async fn compare_validation(
    mcp: &McpClient,
    rest: &RestClient,
    pairs: &[(&Tool, &RestTool)],
    report: &mut Recorder,
) {
    let Some((tool, _)) = pairs.iter().find(|(tool, _)| {
        tool.input_schema
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|required| !required.is_empty())
    }) else {
        report.skip(
            PARITY_CHECKS[5],
            "no tool has a required argument to leave out",
        );
        return;
    };
    let mut problems = Vec::new();
    let mcp_refused = match mcp.call_tool(&tool.name, json!({})).await {
        Err(Error::JsonRpc { .. }) => true,
        Ok(result) => result.is_error == Some(true),
        Err(_) => false,
    };
    if !mcp_refused {
        problems.push("MCP accepted arguments missing a required field".to_owned());
    }
    match rest.execute(&tool.name, json!({})).await {
        Ok(execution) if execution.error_code() == Some(&ErrorCode::ValidationError) => {}
        Ok(execution) => problems.push(format!(
            "REST: expected VALIDATION_ERROR, got {}",
            describe_rest_failure(&execution)
        )),
        Err(error) => problems.push(format!("REST: expected VALIDATION_ERROR, got {error}")),
    }
    outcome(
        report,
        PARITY_CHECKS[5],
        &problems,
        &format!(
            "`{}` without its required arguments is refused on both sides",
            tool.name
        ),
    );
}

async fn compare_auth(mcp: &McpClient, rest: &RestClient, report: &mut Recorder) {
    let given = rest.credentials();
    if given.is_empty() {
        report.skip(PARITY_CHECKS[6], "no credentials given to compare against");
        return;
    }
    // Every credential the user gave is replaced, on both sides alike: a server that checks
    // a header and not the bearer token (or the other way round) must still refuse.
    let wrong = format!("with {}", given.describe_replaced());
    let cases = [
        ("without credentials", Credentials::new()),
        (wrong.as_str(), given.replaced_by(WRONG_CREDENTIAL)),
    ];
    let mut problems = Vec::new();
    for (what, credentials) in &cases {
        let client = match rest.with_credentials(credentials.clone()) {
            Ok(client) => client,
            Err(error) => {
                problems.push(format!("REST {what}: {error}"));
                continue;
            }
        };
        if let Some(problem) = rest_list_refused(&client, what).await {
            problems.push(problem);
        }
        if let Some(problem) = rest_execute_refused(&client, what).await {
            problems.push(problem);
        }
    }
    let target = mcp.target();
    let over_http = target.starts_with("http://") || target.starts_with("https://");
    if over_http {
        for (what, credentials) in &cases {
            if let Some(problem) = mcp_refused(mcp, credentials, what).await {
                problems.push(problem);
            }
        }
    }
    outcome(
        report,
        PARITY_CHECKS[6],
        &problems,
        &if over_http {
            format!(
                "both sides refuse requests without credentials or {wrong} (REST: listing and executing)"
            )
        } else {
            format!(
                "REST refuses listing and executing without credentials or {wrong} (MCP is not over HTTP)"
            )
        },
    );
}

fn refused(status: Option<u16>) -> bool {
    matches!(status, Some(401 | 403))
}

async fn rest_list_refused(client: &RestClient, what: &str) -> Option<String> {
    match client.list_tools().await {
        Err(error) if refused(error.http_status()) => None,
        Ok(_) => Some(format!("REST answered GET /mcp/tools {what}")),
        Err(error) => Some(format!(
            "REST GET /mcp/tools {what}: expected 401/403, got {error}"
        )),
    }
}

async fn rest_execute_refused(client: &RestClient, what: &str) -> Option<String> {
    let request = format!("POST /mcp/tools/{NO_SUCH_TOOL}/execute");
    match client.execute(NO_SUCH_TOOL, json!({})).await {
        Ok(execution) if refused(Some(execution.status)) => None,
        Err(error) if refused(error.http_status()) => None,
        Ok(execution) => Some(format!(
            "REST answered {request} {what}: {}",
            describe_rest_failure(&execution)
        )),
        Err(error) => Some(format!(
            "REST {request} {what}: expected 401/403, got {error}"
        )),
    }
}

/// A fresh MCP session to the same URL, with `credentials` instead of the client's.
async fn mcp_refused(mcp: &McpClient, credentials: &Credentials, what: &str) -> Option<String> {
    let builder = crate::client::McpAssured::client()
        .base_uri(mcp.target())
        .timeout(mcp.timeout())
        .credentials(credentials.clone());
    match builder.build().await {
        Err(error) if refused(error.http_status()) => None,
        Ok(client) => {
            let _ = client.close().await;
            Some(format!(
                "MCP accepted a session {what} while REST requires credentials"
            ))
        }
        Err(error) => Some(format!("MCP {what}: expected 401/403, got {error}")),
    }
}

fn describe_rest_failure(execution: &Execution) -> String {
    match &execution.error {
        Some(error) => format!(
            "{} (HTTP {}): {}",
            error.code, execution.status, error.message
        ),
        None if execution.success => format!("success (HTTP {})", execution.status),
        None => format!("a failure without an error (HTTP {})", execution.status),
    }
}

fn describe_mcp_failure(result: &crate::error::Result<ToolResult>) -> String {
    match result {
        Ok(result) if result.is_error == Some(true) => format!("isError: {}", result.text()),
        Ok(_) => "success".to_owned(),
        Err(error) => error.to_string(),
    }
}

fn outcome(report: &mut Recorder, name: &str, problems: &[String], fine: &str) {
    if problems.is_empty() {
        report.pass(name, fine);
    } else {
        report.fail(name, problems.join("\n"));
    }
}

/// A description as `"text"`, or `none`.
fn quoted(description: Option<&str>) -> String {
    description.map_or_else(|| "none".to_owned(), |text| format!("{text:?}"))
}

fn join(names: &[&&str]) -> String {
    names
        .iter()
        .map(|name| format!("`{name}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::{ErrorCode, failures_agree, json_differences};
    use crate::error::Error;
    use serde_json::json;

    #[test]
    fn an_mcp_call_with_no_answer_agrees_with_no_rest_error() {
        let timed_out = || {
            Err(Error::Timeout {
                method: "tools/call current_weather".into(),
                timeout: Duration::from_secs(5),
                stderr_tail: None,
            })
        };
        for rest in [
            None,
            Some(ErrorCode::TimeoutError),
            Some(ErrorCode::ExecutionError),
            Some(ErrorCode::PermissionError),
            Some(ErrorCode::RateLimitError),
        ] {
            assert!(!failures_agree(&timed_out(), rest.as_ref()), "{rest:?}");
        }
        let refused = Err(Error::JsonRpc {
            method: "tools/call".into(),
            code: crate::error::code::INVALID_PARAMS,
            message: "bad".into(),
            data: None,
        });
        assert!(failures_agree(&refused, Some(&ErrorCode::ValidationError)));
    }

    #[test]
    fn differences_are_listed_field_by_field() {
        let mcp = json!({"properties": {"days": {"type": "integer", "maximum": 7}}, "required": ["city"]});
        let rest = json!({"properties": {"days": {"type": "integer", "maximum": 14}, "x": {}}, "required": ["city"]});
        assert_eq!(
            json_differences(&mcp, &rest, ""),
            [
                "/properties/days/maximum: MCP 7, REST 14",
                "/properties/x: MCP has none, REST {}",
            ]
        );
        assert!(json_differences(&mcp, &mcp, "").is_empty());
    }
}
