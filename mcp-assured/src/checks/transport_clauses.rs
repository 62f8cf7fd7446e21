//! The sentences the checks of the HTTP transport and of authorization test, by revision:
//! Streamable HTTP (2025-11-25's `basic/transports`, 2026-07-28's
//! `basic/transports/streamable-http`) and MCP authorization.

use super::clauses::{Revision, by};
use crate::report::{Clause, Level};

/// A loopback server refuses a foreign `Host` (DNS rebinding): what the security best
/// practices ask of a local server, as a SHOULD; the transport's MUST names only `Origin`.
const HOST: Clause = Clause {
    level: Level::Should,
    spec: "MCP Security Best Practices (2025-11-25)",
    section: "Local MCP Server Compromise › Mitigation",
    url: "https://modelcontextprotocol.io/docs/tutorials/security/security_best_practices#local-mcp-server-compromise",
    text: "An attacker accesses an insecure local server that's left running on localhost via \
           DNS rebinding … MCP servers intending for their servers to be run locally SHOULD \
           implement measures to prevent unauthorized usage from malicious processes",
};

const ORIGIN: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Security Warning",
    "basic/transports#security-warning",
    "basic/transports/streamable-http#security--endpoint",
    "Servers MUST validate the Origin header on all incoming connections to prevent DNS \
     rebinding attacks. If the Origin header is present and invalid, servers MUST respond \
     with HTTP 403 Forbidden.",
);

const SESSION_REQUIRED: [Clause; 2] = both!(
    Should,
    "Basic › Transports › Streamable HTTP › Session Management",
    "basic/transports#session-management",
    "basic/transports/streamable-http#earlier-streamable-http-revisions",
    "Servers that require a session ID SHOULD respond to requests without an MCP-Session-Id \
     header (other than initialization) with HTTP 400 Bad Request.",
);

/// The 404 is a MUST for a session the server ended; for an id it never issued, what the
/// SDKs do.
const SESSION_UNKNOWN: [Clause; 2] = both!(
    NoKeyword,
    "Basic › Transports › Streamable HTTP › Session Management",
    "basic/transports#session-management",
    "basic/transports/streamable-http#earlier-streamable-http-revisions",
    "The server MAY terminate the session at any time, after which it MUST respond to \
     requests containing that session ID with HTTP 404 Not Found. (An id never issued is not \
     named.)",
);

const PROTOCOL_VERSION_HEADER: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Protocol Version Header",
    "basic/transports#protocol-version-header",
    "basic/transports/streamable-http#protocol-version-header",
    "If the server receives a request with an invalid or unsupported MCP-Protocol-Version, \
     it MUST respond with 400 Bad Request.",
);

const ACCEPTED: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Sending Messages to the Server",
    "basic/transports#sending-messages-to-the-server",
    "basic/transports/streamable-http#sending-messages",
    "If the input is a JSON-RPC response or notification: If the server accepts the input, \
     the server MUST return HTTP status code 202 Accepted with no body.",
);

const ACCEPT: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Sending Messages to the Server",
    "basic/transports#sending-messages-to-the-server",
    "basic/transports/streamable-http#sending-messages",
    "If the input is a JSON-RPC request, the server MUST either return Content-Type: \
     text/event-stream, to initiate an SSE stream, or Content-Type: application/json, to \
     return one JSON object.",
);

/// `http.accept` with one type accepted: no sentence; HTTP lets a server disregard `Accept`.
pub(super) const ACCEPT_ONE: [Clause; 2] = both!(
    NoKeyword,
    "Basic › Transports › Streamable HTTP › Sending Messages to the Server",
    "basic/transports#sending-messages-to-the-server",
    "basic/transports/streamable-http#sending-messages",
    "The client MUST include an Accept header, listing both application/json and \
     text/event-stream (a request accepting one type is not named; RFC 9110 lets a server \
     answer 406 or disregard Accept)",
);

const GET_STREAM: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Listening for Messages from the Server",
    "basic/transports#listening-for-messages-from-the-server",
    "basic/transports/streamable-http#earlier-streamable-http-revisions",
    "The server MUST either return Content-Type: text/event-stream in response to this HTTP \
     GET, or else return HTTP 405 Method Not Allowed",
);

/// Resuming with `Last-Event-ID` where events carry ids: the server MAY replay; no MUST ties
/// ids to a resumable GET.
const RESUMABILITY: [Clause; 2] = both!(
    NoKeyword,
    "Basic › Transports › Streamable HTTP › Resumability and Redelivery",
    "basic/transports#resumability-and-redelivery",
    "basic/transports/streamable-http#earlier-streamable-http-revisions",
    "Servers MAY attach an id field to their SSE events … The server MAY use this header to \
     replay messages … Resumption is always via HTTP GET with Last-Event-ID.",
);

/// The `retry` field before a server closes a stream early (SEP-1699).
pub(super) const RETRY: [Clause; 2] = both!(
    Should,
    "Basic › Transports › Streamable HTTP › Sending Messages to the Server",
    "basic/transports#sending-messages-to-the-server",
    "basic/transports/streamable-http#sending-messages",
    "If the server does close the connection prior to terminating the SSE stream, it SHOULD \
     send an SSE event with a standard retry field before closing the connection.",
);

const CONCURRENT: [Clause; 2] = both!(
    Must,
    "Basic › Messages › Responses",
    "basic#responses",
    "Result responses MUST include the same ID as the request they correspond to.",
);

const SESSION_DELETE: [Clause; 2] = both!(
    Must,
    "Basic › Transports › Streamable HTTP › Session Management",
    "basic/transports#session-management",
    "basic/transports/streamable-http#earlier-streamable-http-revisions",
    "The server MAY terminate the session at any time, after which it MUST respond to \
     requests containing that session ID with HTTP 404 Not Found. … The server MAY respond \
     to this request with HTTP 405 Method Not Allowed",
);

const CHALLENGE: [Clause; 2] = both!(
    Must,
    "Basic › Authorization › Protected Resource Metadata Discovery Requirements",
    "basic/authorization#protected-resource-metadata-discovery-requirements",
    "basic/authorization/authorization-server-discovery#protected-resource-metadata-discovery-requirements",
    "MCP servers MUST implement one of the following discovery mechanisms …: WWW-Authenticate \
     Header … under resource_metadata when returning 401 Unauthorized responses … Well-Known \
     URI",
);

const PROTECTED_RESOURCE: [Clause; 2] = both!(
    Must,
    "Basic › Authorization › Authorization Server Location",
    "basic/authorization#authorization-server-location",
    "basic/authorization/authorization-server-discovery#authorization-server-location",
    "The Protected Resource Metadata document returned by the MCP server MUST include the \
     authorization_servers field containing at least one authorization server.",
);

const AUTHORIZATION_SERVER: [Clause; 2] = both!(
    Must,
    "Basic › Authorization › Overview",
    "basic/authorization#overview",
    "basic/authorization#overview",
    "MCP authorization servers MUST provide at least one of the following discovery \
     mechanisms: OAuth 2.0 Authorization Server Metadata (RFC8414), OpenID Connect Discovery \
     1.0",
);

const TOKENS: [Clause; 2] = both!(
    Must,
    "Basic › Authorization › Access Token Usage › Token Handling",
    "basic/authorization#token-handling",
    "basic/authorization#token-handling",
    "Invalid or expired tokens MUST receive a HTTP 401 response. … MCP servers MUST validate \
     that access tokens were issued specifically for them as the intended audience",
);

/// The clause of the transport or authorization check `name` on `revision`. The transport
/// checks speak 2025-11-25 on a session of their own whatever the connection speaks (they
/// test the server's sessions), so theirs are that revision's words.
pub(super) fn of(name: &str, revision: Revision) -> Option<Clause> {
    let revision = if name.starts_with("http.") {
        Revision::Handshake
    } else {
        revision
    };
    let clauses = match name {
        "http.host_validation" => return Some(HOST),
        "http.origin_validation" => &ORIGIN,
        "http.session_required" => &SESSION_REQUIRED,
        "http.session_unknown" => &SESSION_UNKNOWN,
        "http.protocol_version_header" => &PROTOCOL_VERSION_HEADER,
        "http.accepted_with_202" => &ACCEPTED,
        "http.accept" => &ACCEPT,
        "http.get_stream" => &GET_STREAM,
        "http.resumability" => &RESUMABILITY,
        "http.concurrent_streams" => &CONCURRENT,
        "http.session_delete" => &SESSION_DELETE,
        "auth.challenge" => &CHALLENGE,
        "auth.protected_resource_metadata" => &PROTECTED_RESOURCE,
        "auth.authorization_server_metadata" => &AUTHORIZATION_SERVER,
        "auth.tokens_refused" => &TOKENS,
        _ => return None,
    };
    Some(by(revision, clauses))
}
