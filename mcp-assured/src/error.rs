//! The one error type of the crate, and the JSON-RPC error codes as named constants.

use std::time::Duration;

use serde_json::Value;

/// `Result` with [`Error`] as the default error type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// JSON-RPC and MCP error codes, as servers send them in an error response.
///
/// ```
/// use mcp_assured::code;
/// assert_eq!(code::INVALID_PARAMS, -32602);
/// ```
pub mod code {
    /// The server could not parse the JSON it received.
    pub const PARSE_ERROR: i32 = -32700;
    /// The JSON sent is not a valid request object.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not offered.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// Invalid method parameters (MCP servers use it for an unknown tool, too).
    pub const INVALID_PARAMS: i32 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// MCP: the resource asked for does not exist.
    pub const RESOURCE_NOT_FOUND: i32 = -32002;
    /// MCP: the request needs a URL-mode elicitation first.
    pub const URL_ELICITATION_REQUIRED: i32 = -32042;

    /// The conventional name of a code, for messages (`"INVALID_PARAMS"`), if it has one.
    pub fn name(code: i32) -> Option<&'static str> {
        Some(match code {
            PARSE_ERROR => "PARSE_ERROR",
            INVALID_REQUEST => "INVALID_REQUEST",
            METHOD_NOT_FOUND => "METHOD_NOT_FOUND",
            INVALID_PARAMS => "INVALID_PARAMS",
            INTERNAL_ERROR => "INTERNAL_ERROR",
            RESOURCE_NOT_FOUND => "RESOURCE_NOT_FOUND",
            URL_ELICITATION_REQUIRED => "URL_ELICITATION_REQUIRED",
            _ => return None,
        })
    }
}

/// Everything that can go wrong between the harness and the server under test.
///
/// A tool that reports a failure (`isError: true`) is **not** an error: MCP defines it as a
/// successful call, so [`McpClient::call_tool`](crate::McpClient::call_tool) returns `Ok`. A
/// JSON-RPC error response (an unknown tool, bad parameters, an unknown resource) is
/// [`Error::JsonRpc`].
///
/// Errors never contain credentials: tokens and authorization headers are not part of any
/// message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server could not be reached, or refused the connection at the HTTP level.
    #[error("could not connect to {target}: {reason}{}", http_details(*.status, .www_authenticate.as_deref()))]
    Connect {
        /// The URL or command the client tried.
        target: String,
        /// The HTTP status the server answered with, if it answered.
        status: Option<u16>,
        /// The `WWW-Authenticate` challenge of a 401/403, if the server sent one.
        www_authenticate: Option<String>,
        /// What happened, in words.
        reason: String,
    },

    /// The TLS handshake with an `https://` server failed: its certificate is not trusted,
    /// expired, or for another host, or it does not speak TLS at all. [`TlsProblem`] says
    /// which; the message says what to do.
    #[error("TLS with {target} failed: {problem}. {}", problem.remedy())]
    Tls {
        /// The URL the client tried.
        target: String,
        /// What was wrong.
        problem: TlsProblem,
        /// The TLS library's own words, for the rare case they say more.
        reason: String,
    },

    /// OAuth authorization with the server failed: a discovery document that is missing or
    /// malformed, a registration or token request the authorization server refused, an
    /// authorization endpoint that does not redirect back, or a server that keeps asking for
    /// more after [`OAuth::max_authorizations`](crate::OAuth::max_authorizations).
    /// [`AuthorizationStep`] says which step; the message says what to do.
    #[error("OAuth authorization with {target} failed at {step}: {reason}. {}", step.remedy())]
    Authorization {
        /// The MCP server's URL.
        target: String,
        /// The step that failed.
        step: AuthorizationStep,
        /// What happened (never a token or a secret).
        reason: String,
    },

    /// The server process could not be started.
    #[error(
        "could not start the server `{command}`: {source}. Check that the program exists and is executable."
    )]
    Spawn {
        /// The program that was run.
        command: String,
        /// Why the operating system refused.
        #[source]
        source: std::io::Error,
    },

    /// The connection was made but the MCP `initialize` handshake failed.
    #[error("the MCP handshake with {target} failed: {reason}{}", tail(.stderr_tail))]
    Initialize {
        /// The URL or command of the server.
        target: String,
        /// What went wrong.
        reason: String,
        /// The last lines the server process wrote to stderr, if it is a child process.
        stderr_tail: Option<String>,
    },

    /// The server does not speak the protocol revision the client was pinned to
    /// ([`ClientBuilder::protocol_version`](crate::ClientBuilder::protocol_version)), or none
    /// the client knows: the connection is not made, rather than made on another revision.
    #[error("{target} does not speak protocol {requested}: {detail}{}", offered_list(.offered))]
    ProtocolVersion {
        /// The URL or command of the server.
        target: String,
        /// The revision asked for (`newest` when negotiating).
        requested: String,
        /// What the server offered instead, as far as it said.
        offered: Vec<String>,
        /// What it answered.
        detail: String,
    },

    /// The server answered a request with a JSON-RPC error.
    #[error("`{method}` failed with JSON-RPC error {code}{}: {message}{}", code_name(*.code), data_suffix(.data.as_ref()))]
    JsonRpc {
        /// The request's method, e.g. `tools/call`.
        method: String,
        /// The error code (see [`code`](crate::code)).
        code: i32,
        /// The server's message.
        message: String,
        /// The server's `data` field, if any.
        data: Option<Value>,
    },

    /// No answer arrived within the timeout; the request was cancelled with
    /// `notifications/cancelled`.
    #[error("`{method}` got no answer within {timeout:?}; {}{}", raise(method), tail(.stderr_tail))]
    Timeout {
        /// The request's method.
        method: String,
        /// The limit that was exceeded.
        timeout: Duration,
        /// The last lines the server process wrote to stderr, if it is a child process.
        stderr_tail: Option<String>,
    },

    /// The server process exited.
    #[error("the server process exited ({status}){}{}", during(.method.as_deref()), tail(.stderr_tail))]
    ServerExited {
        /// The request that was waiting, if any.
        method: Option<String>,
        /// The exit status, e.g. `exit status: 3`.
        status: String,
        /// The last lines the server wrote to stderr.
        stderr_tail: Option<String>,
    },

    /// A server the harness started to listen for HTTP did not: it exited first, or every
    /// free port it was given was taken by someone else before it bound it.
    #[error("`{command}`: {reason}{}", printed(.stderr_tail))]
    Startup {
        /// The server's command line.
        command: String,
        /// What happened, e.g. `the server exited (exit status: 1) before listening on
        /// 127.0.0.1:20001`.
        reason: String,
        /// The last lines the server printed (stderr, and stdout for an HTTP server).
        stderr_tail: Option<String>,
    },

    /// The server sent something that is not a JSON-RPC message.
    #[error("the server sent a message that is not valid JSON-RPC ({reason}){}: {line}{}", during(.method.as_deref()), tail(.stderr_tail))]
    Undecodable {
        /// The offending line or event data (cut to 1000 characters), or a response body
        /// (over streamable HTTP, its first 256 bytes, which is all rmcp keeps).
        line: String,
        /// Why it could not be decoded.
        reason: String,
        /// The request that was waiting, if any.
        method: Option<String>,
        /// The last lines the server process wrote to stderr, if it is a child process.
        stderr_tail: Option<String>,
    },

    /// The transport failed or closed without a more specific cause.
    #[error("the connection to the server failed{}: {reason}{}", during(.method.as_deref()), http_details(*.status, None))]
    Transport {
        /// The request that was waiting, if any.
        method: Option<String>,
        /// The HTTP status, for HTTP transports, when the failure was an HTTP error.
        status: Option<u16>,
        /// What happened (for an HTTP `429` or `503` with a `Retry-After` header, ending in
        /// `Retry-After: <value>`: see [`Error::retry_after`]).
        reason: String,
    },

    /// The server answered with something the request cannot use: a result of the wrong
    /// shape, pages that loop, or (over streamable HTTP) a response under another id on the
    /// request's stream, which rmcp takes in place of the answer.
    #[error("`{method}` got an unexpected answer: {detail}")]
    UnexpectedResponse {
        /// The request's method.
        method: String,
        /// What arrived instead.
        detail: String,
    },

    /// An HTTP answer that is an error status without the body the request expects (a REST
    /// envelope, say): a proxy's `413 Payload Too Large`, a `429` without an envelope, an
    /// HTML error page.
    #[error("`{request}` was answered HTTP {status}{}{}: {}", content_type.as_ref().map(|t| format!(" ({t})")).unwrap_or_default(), retry_after.as_ref().map(|r| format!(", Retry-After: {r}")).unwrap_or_default(), if body.is_empty() { "<empty body>" } else { body })]
    Http {
        /// The request, e.g. `POST /mcp/tools/echo/execute`.
        request: String,
        /// The HTTP status.
        status: u16,
        /// The `Retry-After` header, if any.
        retry_after: Option<String>,
        /// The `Content-Type` of the body, if any.
        content_type: Option<String>,
        /// The body (cut to 1000 characters).
        body: String,
    },

    /// A tool, prompt or resource looked up by name is not offered by the server.
    #[error("{kind} `{name}` not found; the server offers: {}", list(.available))]
    NotFound {
        /// `"tool"`, `"prompt"`, `"resource"`.
        kind: &'static str,
        /// The name or URI asked for.
        name: String,
        /// The names the server does offer.
        available: Vec<String>,
    },

    /// The test passed the harness something it cannot use.
    #[error("invalid {what}: {reason}")]
    InvalidInput {
        /// What was invalid, e.g. `tool arguments`.
        what: String,
        /// Why, and what to pass instead.
        reason: String,
    },
}

/// The step of OAuth authorization that failed, in [`Error::Authorization`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum AuthorizationStep {
    /// Finding the protected resource metadata (RFC 9728): from `WWW-Authenticate`'s
    /// `resource_metadata`, or the well-known URLs.
    ResourceMetadata,
    /// Finding the authorization server's metadata (RFC 8414 or OpenID Connect discovery).
    ServerMetadata,
    /// Identifying the client: dynamic client registration, or the pre-registered or
    /// metadata-document client the authorization server must accept.
    Registration,
    /// The authorization endpoint, and its redirect back with a code.
    Authorization,
    /// The token request (the code exchange, or client credentials).
    Token,
    /// Refreshing an expired token.
    Refresh,
    /// The server still refuses after the limit of authorizations: the token never gets
    /// the scope it asks for, or it never accepts one.
    Retry,
}

impl AuthorizationStep {
    /// What to do about it.
    pub fn remedy(self) -> &'static str {
        match self {
            AuthorizationStep::ResourceMetadata => {
                "Check that the server's 401 names its metadata (`WWW-Authenticate: Bearer \
                 resource_metadata=\"..\"`) or serves it at \
                 /.well-known/oauth-protected-resource, as JSON naming its \
                 `authorization_servers`"
            }
            AuthorizationStep::ServerMetadata => {
                "Check that the authorization server serves its metadata as JSON at \
                 /.well-known/oauth-authorization-server or /.well-known/openid-configuration, \
                 with the `issuer` it is reached at"
            }
            AuthorizationStep::Registration => {
                "Register a client with the authorization server and give its ID (and secret) \
                 with `OAuth::client_id(..)`, or check that dynamic client registration is on"
            }
            AuthorizationStep::Authorization => {
                "A test authorization server should approve at once and redirect to the \
                 redirect URI; for one that shows a login page, log in from \
                 `OAuth::authorize_with(..)` and return the code"
            }
            AuthorizationStep::Token => {
                "Check the client's ID and secret, and the token endpoint's authentication \
                 methods"
            }
            AuthorizationStep::Refresh => "Authorize again: connect a new client",
            AuthorizationStep::Retry => {
                "The server asks for what the authorization server does not grant; check the \
                 scopes the client may have (`OAuth::scopes(..)`), or raise \
                 `OAuth::max_authorizations(..)`"
            }
        }
    }
}

impl std::fmt::Display for AuthorizationStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AuthorizationStep::ResourceMetadata => "protected resource metadata discovery",
            AuthorizationStep::ServerMetadata => "authorization server metadata discovery",
            AuthorizationStep::Registration => "client registration",
            AuthorizationStep::Authorization => "the authorization endpoint",
            AuthorizationStep::Token => "the token request",
            AuthorizationStep::Refresh => "the token refresh",
            AuthorizationStep::Retry => "the retry after authorizing",
        })
    }
}

/// Why a TLS handshake failed, in [`Error::Tls`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TlsProblem {
    /// The certificate chain ends at an issuer the client does not trust: a self-signed
    /// certificate or a private CA.
    UnknownIssuer,
    /// The certificate has expired.
    Expired,
    /// The certificate is not valid yet.
    NotYetValid,
    /// The certificate is for another host name than the one in the URL.
    WrongHostName,
    /// The certificate was revoked.
    Revoked,
    /// The certificate is invalid for another reason (a bad signature, a CA used as a
    /// server's certificate, an unsupported algorithm, ...).
    BadCertificate,
    /// The server did not answer in TLS: most often a plain `http://` server asked for with
    /// `https://`.
    NotTls,
    /// The handshake failed otherwise (no common protocol version or cipher, an alert).
    Handshake,
}

impl TlsProblem {
    /// What to do about it.
    pub fn remedy(self) -> &'static str {
        match self {
            TlsProblem::UnknownIssuer => {
                "Trust the CA that signed it: `.ca_certificate_pem(..)` or \
                 `.ca_certificate_file(..)` on the builder, `--cacert FILE` on the command line, \
                 `cacert` in connect_to_server, or SSL_CERT_FILE; for a throwaway self-signed \
                 test server, accept any certificate with `.accept_invalid_certificates(true)` \
                 / `-k`"
            }
            TlsProblem::Expired | TlsProblem::NotYetValid => {
                "Renew the server's certificate (or check this machine's clock); to test anyway, \
                 accept invalid certificates with `.accept_invalid_certificates(true)` / `-k`"
            }
            TlsProblem::WrongHostName => {
                "Use the host name the certificate names in the URL, or issue the certificate \
                 for this host (for 127.0.0.1, an IP address SAN); to test anyway, accept \
                 invalid certificates with `.accept_invalid_certificates(true)` / `-k`"
            }
            TlsProblem::Revoked | TlsProblem::BadCertificate => {
                "Give the server a valid certificate; to test anyway, accept invalid \
                 certificates with `.accept_invalid_certificates(true)` / `-k`"
            }
            TlsProblem::NotTls => "If the server speaks plain HTTP, use an `http://` URL",
            TlsProblem::Handshake => {
                "Check that the server offers TLS 1.2 or 1.3 with a common cipher suite"
            }
        }
    }
}

impl std::fmt::Display for TlsProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TlsProblem::UnknownIssuer => {
                "the server's certificate is signed by an unknown issuer (not a trusted CA)"
            }
            TlsProblem::Expired => "the server's certificate has expired",
            TlsProblem::NotYetValid => "the server's certificate is not valid yet",
            TlsProblem::WrongHostName => {
                "the server's certificate is for another host name than the URL's"
            }
            TlsProblem::Revoked => "the server's certificate was revoked",
            TlsProblem::BadCertificate => "the server's certificate is invalid",
            TlsProblem::NotTls => "the server did not answer in TLS",
            TlsProblem::Handshake => "the TLS handshake failed",
        })
    }
}

impl Error {
    /// The JSON-RPC error code, for [`Error::JsonRpc`].
    pub fn code(&self) -> Option<i32> {
        match self {
            Error::JsonRpc { code, .. } => Some(*code),
            _ => None,
        }
    }

    /// The HTTP status the server answered with, for connect and HTTP transport failures.
    pub fn http_status(&self) -> Option<u16> {
        match self {
            Error::Connect { status, .. } | Error::Transport { status, .. } => *status,
            Error::Http { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// How long the server asked to be left alone, for an HTTP answer (`429 Too Many
    /// Requests`, `503 Service Unavailable`) with a `Retry-After` header: its seconds, or the
    /// time until its HTTP date (zero for a date past). `None` without the header, or when
    /// it is neither.
    ///
    /// ```
    /// use std::time::Duration;
    /// use mcp_assured::Error;
    ///
    /// let throttled = Error::Http {
    ///     request: "POST /mcp/tools/echo/execute".into(),
    ///     status: 429,
    ///     retry_after: Some("2".into()),
    ///     content_type: None,
    ///     body: String::new(),
    /// };
    /// assert_eq!(throttled.retry_after(), Some(Duration::from_secs(2)));
    /// ```
    pub fn retry_after(&self) -> Option<Duration> {
        let value = match self {
            Error::Http { retry_after, .. } => retry_after.as_deref()?,
            Error::Transport { reason, .. } => {
                let at = reason.rfind(RETRY_AFTER)?;
                &reason[at + RETRY_AFTER.len()..]
            }
            _ => return None,
        };
        parse_retry_after(value, std::time::SystemTime::now())
    }

    /// The last lines the server process wrote to stderr, when the error carries them.
    pub fn stderr_tail(&self) -> Option<&str> {
        match self {
            Error::Initialize { stderr_tail, .. }
            | Error::Timeout { stderr_tail, .. }
            | Error::ServerExited { stderr_tail, .. }
            | Error::Startup { stderr_tail, .. }
            | Error::Undecodable { stderr_tail, .. } => stderr_tail.as_deref(),
            _ => None,
        }
    }

    /// Whether this is a timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Timeout { .. })
    }

    pub(crate) fn invalid(what: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::InvalidInput {
            what: what.into(),
            reason: reason.into(),
        }
    }
}

/// What ends an [`Error::Transport`]'s reason when the answer had a `Retry-After` header.
pub(crate) const RETRY_AFTER: &str = "Retry-After: ";

/// A `Retry-After` value (RFC 9110 §10.2.3): delay-seconds, or an HTTP date, read at `now`.
fn parse_retry_after(value: &str, now: std::time::SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or_default())
}

fn http_details(status: Option<u16>, challenge: Option<&str>) -> String {
    let mut out = String::new();
    if let Some(status) = status {
        out.push_str(&format!(" (HTTP {status})"));
        if status == 401 || status == 403 {
            match challenge {
                Some(challenge) => out.push_str(&format!("; WWW-Authenticate: {challenge}")),
                None => out.push_str("; no WWW-Authenticate challenge"),
            }
            out.push_str(". Check the credentials given with `.bearer_token(..)`, `.basic_auth(..)` or `.header(..)`");
        }
    }
    out
}

fn code_name(code: i32) -> String {
    code::name(code)
        .map(|n| format!(" ({n})"))
        .unwrap_or_default()
}

fn data_suffix(data: Option<&Value>) -> String {
    data.map(|d| format!(" (data: {d})")).unwrap_or_default()
}

fn offered_list(offered: &[String]) -> String {
    if offered.is_empty() {
        String::new()
    } else {
        format!(
            ". It offers {}; pin one of those (`.protocol_version(..)`, `--protocol` on the \
             command line, `protocol_version` in connect_to_server), or leave the version \
             unpinned",
            offered.join(", ")
        )
    }
}

fn during(method: Option<&str>) -> String {
    method.map(|m| format!(" during `{m}`")).unwrap_or_default()
}

/// What to do about a timeout: start-up has a limit of its own.
fn raise(method: &str) -> &'static str {
    if method == "initialize" {
        "the server did not start in time (the start-up timeout). Raise it with \
         `.startup_timeout(..)` on the builder (`startup_timeout = \"..\"` in `#[mcp_test]`, \
         `--startup-timeout` on the command line, `startup_timeout_ms` in connect_to_server) if \
         the server is just slow to boot."
    } else {
        "the request was cancelled. Raise the limit with `.timeout(..)` on the builder or \
         `client.with_timeout(..)` if the server is just slow."
    }
}

fn tail(stderr: &Option<String>) -> String {
    match stderr.as_deref().map(str::trim_end) {
        Some(s) if !s.is_empty() => format!("\n--- server stderr (last lines) ---\n{s}"),
        _ => String::new(),
    }
}

fn printed(output: &Option<String>) -> String {
    match output.as_deref().map(str::trim_end) {
        Some(s) if !s.is_empty() => format!("; its output ended with:\n{s}"),
        _ => "; it printed nothing".to_owned(),
    }
}

fn list(items: &[String]) -> String {
    if items.is_empty() {
        "nothing".to_owned()
    } else {
        items
            .iter()
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::parse_retry_after;

    #[test]
    fn retry_after_is_seconds_or_an_http_date() {
        let now = httpdate::parse_http_date("Sun, 29 Nov 2026 10:00:00 GMT").unwrap();
        assert_eq!(parse_retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after(" 0 ", now), Some(Duration::ZERO));
        assert_eq!(
            parse_retry_after("Sun, 29 Nov 2026 10:00:05 GMT", now),
            Some(Duration::from_secs(5))
        );
        assert_eq!(
            parse_retry_after("Sun, 29 Nov 2026 09:00:00 GMT", now),
            Some(Duration::ZERO),
            "a date past asks for no wait"
        );
        assert_eq!(parse_retry_after("soon", SystemTime::now()), None);
        assert_eq!(parse_retry_after("-1", SystemTime::now()), None);
    }

    #[test]
    fn a_transport_failure_carries_its_retry_after_in_its_reason() {
        let throttled = super::Error::Transport {
            method: Some("tools/call".into()),
            status: Some(429),
            reason: "HTTP 429; Retry-After: 7".into(),
        };
        assert_eq!(throttled.retry_after(), Some(Duration::from_secs(7)));
        let bare = super::Error::Transport {
            method: None,
            status: Some(500),
            reason: "HTTP 500".into(),
        };
        assert_eq!(bare.retry_after(), None);
    }
}
