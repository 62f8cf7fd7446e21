//! The checks of what protocol 2026-07-28 asks of a server: `server/discover` answered as the
//! revision says, an unsupported version and a request without its metadata refused with
//! the right errors, the standard HTTP headers required, and the capabilities the revision
//! deprecates reported. On older revisions they are skipped.

use serde_json::{Value, json};

use super::recorder::Recorder;
use crate::{
    client::McpClient,
    error::{Error, code},
};

/// `UnsupportedProtocolVersionError` (2026-07-28).
const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
/// `HeaderMismatchError` (2026-07-28, SEP-2243).
const HEADER_MISMATCH: i64 = -32020;
/// A version no server speaks.
const NO_SUCH_VERSION: &str = "1999-01-01";

/// The names of these checks, in the order they run.
pub(super) const NAMES: [&str; 5] = [
    "discover.result",
    "discover.unsupported_version",
    "requests.missing_metadata",
    "http.standard_headers",
    "capabilities.deprecated",
];

pub(super) async fn check(client: &McpClient, report: &mut Recorder) {
    if client.discovery().is_none() {
        let why = format!(
            "the connection speaks {}, not 2026-07-28",
            client.protocol_version()
        );
        for name in NAMES {
            report.skip(name, why.clone());
        }
        return;
    }
    check_discover(client, report).await;
    check_unsupported_version(client, report).await;
    check_missing_metadata(client, report).await;
    check_standard_headers(client, report).await;
    check_deprecated(client, report);
}

/// `discover.result`: `supportedVersions` (strings, the connection's among them) and
/// `capabilities` (an object).
async fn check_discover(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "discover.result";
    let result = match client.request("server/discover", json!({})).await {
        Ok(result) => result,
        Err(error) => return report.fail(NAME, format!("server/discover failed: {error}")),
    };
    let mut problems = Vec::new();
    let mut lacks_the_version_in_use = false;
    match result.get("supportedVersions").and_then(Value::as_array) {
        None => problems.push("no `supportedVersions` array".to_owned()),
        Some(versions) if !versions.iter().all(Value::is_string) => {
            problems.push(format!(
                "`supportedVersions` holds more than strings: {versions:?}"
            ));
        }
        Some(versions) if !versions.iter().any(|v| v == client.protocol_version()) => {
            lacks_the_version_in_use = true;
            problems.push(format!(
                "`supportedVersions` {versions:?} lacks {}, the version in use",
                client.protocol_version()
            ));
        }
        Some(_) => {}
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        problems.push("no `capabilities` object".to_owned());
    }
    let message = format!(
        "expected a DiscoverResult with `supportedVersions` (strings, {} among them) and \
         `capabilities`; it has {}: {result}",
        client.protocol_version(),
        problems.join("; ")
    );
    if problems.is_empty() {
        report.pass(
            NAME,
            format!("supportedVersions {}", result["supportedVersions"]),
        );
    } else if lacks_the_version_in_use && problems.len() == 1 {
        // The schema asks for the fields; listing the version in use is what they imply.
        report.broke(NAME, super::clauses::SUPPORTED_VERSIONS, message);
    } else {
        report.fail(NAME, message);
    }
}

/// `discover.unsupported_version`: a `server/discover` naming a version nobody speaks gets
/// -32022 with `data.supported`.
async fn check_unsupported_version(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "discover.unsupported_version";
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": NO_SUCH_VERSION,
        "io.modelcontextprotocol/clientInfo": {"name": "mcp-assured", "version": env!("CARGO_PKG_VERSION")},
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    let message = json!({
        "jsonrpc": "2.0",
        "id": "mcp-assured/check-unsupported-version",
        "method": "server/discover",
        "params": {"_meta": meta},
    });
    let expected = format!(
        "expected error {UNSUPPORTED_PROTOCOL_VERSION} (unsupported protocol version) with \
         `data.supported` listing the versions it speaks"
    );
    // Over HTTP the header says the same version, or the server rightly answers -32020.
    let header = [("MCP-Protocol-Version", Some(NO_SUCH_VERSION))];
    match client.send_raw_with_headers(message, &header).await {
        Err(error) if cannot_send_by_hand(&error) => report.skip(NAME, error.to_string()),
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(answer) => {
            let supported = answer
                .message
                .as_ref()
                .and_then(|m| m.pointer("/error/data/supported"))
                .filter(|s| s.is_array());
            match (answer.error_code(), supported) {
                // Over HTTP the status says it too (a MUST).
                (Some(UNSUPPORTED_PROTOCOL_VERSION), Some(_))
                    if answer.http_status.is_some_and(|status| status != 400) =>
                {
                    report.fail(
                        NAME,
                        format!(
                            "{expected}, with HTTP 400 Bad Request; the error came with HTTP {}",
                            answer.http_status.unwrap_or_default()
                        ),
                    );
                }
                (Some(UNSUPPORTED_PROTOCOL_VERSION), Some(supported)) => report.pass(
                    NAME,
                    format!("{NO_SUCH_VERSION} refused with -32022, supported {supported}"),
                ),
                _ => report.fail(
                    NAME,
                    format!(
                        "{expected} for a request of version {NO_SUCH_VERSION}; got {}",
                        shown(&answer.message)
                    ),
                ),
            }
        }
    }
}

/// `requests.missing_metadata`: a request without the per-request `_meta` gets -32602.
async fn check_missing_metadata(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "requests.missing_metadata";
    let message = json!({
        "jsonrpc": "2.0",
        "id": "mcp-assured/check-missing-metadata",
        "method": "tools/list",
    });
    let expected = "expected error -32602 (invalid params) for a `tools/list` without the \
                    `_meta` (protocolVersion, clientCapabilities) every 2026-07-28 request carries";
    match client.send_raw(message).await {
        Err(error) if cannot_send_by_hand(&error) => report.skip(NAME, error.to_string()),
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        // Over HTTP the status says it too (a MUST).
        Ok(answer)
            if answer.error_code() == Some(i64::from(code::INVALID_PARAMS))
                && answer.http_status.is_some_and(|status| status != 400) =>
        {
            report.fail(
                NAME,
                format!(
                    "{expected}, with HTTP 400 Bad Request; the error came with HTTP {}",
                    answer.http_status.unwrap_or_default()
                ),
            );
        }
        Ok(answer) if answer.error_code() == Some(i64::from(code::INVALID_PARAMS)) => {
            report.pass(
                NAME,
                "a request without its metadata is refused with -32602",
            );
        }
        Ok(answer) => report.fail(NAME, format!("{expected}; got {}", shown(&answer.message))),
    }
}

/// `http.standard_headers`: over streamable HTTP, a request without `Mcp-Method`, and one
/// whose `Mcp-Method` names another method, get HTTP 400 with -32020.
async fn check_standard_headers(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "http.standard_headers";
    if !client.target().starts_with("http") {
        return report.skip(NAME, "the server is not reached over HTTP");
    }
    let request = |id: &str| {
        json!({
            "jsonrpc": "2.0",
            "id": id,
            "method": "tools/list",
            "params": {"_meta": {
                "io.modelcontextprotocol/protocolVersion": client.protocol_version(),
                "io.modelcontextprotocol/clientCapabilities": {},
            }},
        })
    };
    let mut problems = Vec::new();
    for (id, header, what) in [
        (
            "mcp-assured/check-no-method-header",
            None,
            "without `Mcp-Method`",
        ),
        (
            "mcp-assured/check-wrong-method-header",
            Some("prompts/list"),
            "with `Mcp-Method: prompts/list`",
        ),
    ] {
        match client
            .send_raw_with_headers(request(id), &[("Mcp-Method", header)])
            .await
        {
            Err(error) if cannot_send_by_hand(&error) => {
                return report.skip(NAME, error.to_string());
            }
            Err(error) => problems.push(format!("{what}: {error}")),
            Ok(answer)
                if answer.http_status == Some(400)
                    && answer.error_code() == Some(HEADER_MISMATCH) => {}
            Ok(answer) => problems.push(format!(
                "{what}: HTTP {} {}",
                answer.http_status.unwrap_or_default(),
                shown(&answer.message)
            )),
        }
    }
    if problems.is_empty() {
        report.pass(
            NAME,
            "a missing or mismatched Mcp-Method is refused: 400, -32020",
        );
    } else {
        report.fail(
            NAME,
            format!(
                "expected HTTP 400 with error {HEADER_MISMATCH} (header mismatch) for a \
                 `tools/list` {}",
                problems.join("; ")
            ),
        );
    }
}

/// The methods 2026-07-28 removed, and one nobody has: over HTTP each must get
/// `404 Not Found` with -32601. What is wrong with their answers, if anything.
pub(super) async fn methods_not_found_over_http(client: &McpClient) -> Vec<String> {
    const METHODS: [&str; 6] = [
        "mcp-assured/no-such-method",
        "initialize",
        "ping",
        "logging/setLevel",
        "resources/subscribe",
        "resources/unsubscribe",
    ];
    let mut problems = Vec::new();
    for (n, method) in METHODS.into_iter().enumerate() {
        // Only the metadata: a removed method's own parameters (a `uri`) would ask for an
        // `Mcp-Name` header, a question before the method's.
        let params = json!({"_meta": {
            "io.modelcontextprotocol/protocolVersion": client.protocol_version(),
            "io.modelcontextprotocol/clientCapabilities": {},
        }});
        let message = json!({
            "jsonrpc": "2.0",
            "id": format!("mcp-assured/check-method-not-found-{n}"),
            "method": method,
            "params": params,
        });
        match client.send_raw(message).await {
            Err(error) if cannot_send_by_hand(&error) => return Vec::new(),
            Err(error) => problems.push(format!("`{method}`: {error}")),
            Ok(answer)
                if answer.http_status == Some(404)
                    && answer.error_code() == Some(i64::from(code::METHOD_NOT_FOUND)) => {}
            Ok(answer) => problems.push(format!(
                "`{method}`: HTTP {} {}",
                answer.http_status.unwrap_or_default(),
                shown(&answer.message)
            )),
        }
    }
    problems
}

/// `capabilities.deprecated`: 2026-07-28 deprecates logging (SEP-2577); a server that still
/// declares it works, and gets a warning.
fn check_deprecated(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "capabilities.deprecated";
    if client.server_capabilities().get("logging").is_some() {
        report.warn(
            NAME,
            "`logging` is deprecated in 2026-07-28 (SEP-2577): new implementations should not \
             adopt it and existing ones should migrate to stderr or OpenTelemetry; clients still \
             handle it",
        );
    } else {
        report.pass(NAME, "no deprecated capability declared");
    }
}

/// The connection cannot carry a message sent by hand (OAuth, HTTP+SSE): the check does
/// not apply, rather than fails.
fn cannot_send_by_hand(error: &Error) -> bool {
    matches!(error, Error::InvalidInput { .. })
}

fn shown(message: &Option<Value>) -> String {
    message
        .as_ref()
        .map_or("no answer".to_owned(), Value::to_string)
}
