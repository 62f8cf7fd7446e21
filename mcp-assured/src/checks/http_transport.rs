//! The checks of the HTTP transport a remote server is reached over, where its security
//! faults live: `Host` and `Origin` validation (DNS rebinding), the session lifecycle, the
//! `MCP-Protocol-Version` header, `202` for notifications and responses, `Accept`
//! negotiation, the `GET` stream, resumability and concurrent streams. Each sends its own
//! requests, in a session of its own, beside the connection.
//!
//! Over the older HTTP+SSE transport, the checks that apply to it run (`Host`, `Origin`, an
//! unknown session, `202`); the others skip, saying why. Over stdio and in process, all skip.

use std::fmt::Write as _;

use futures::future::join_all;
use http::Method;
use serde_json::{Value, json};

use super::{
    clauses::{Revision, by},
    http_probe::{Exchange, Probe, Read, is_loopback},
    recorder::Recorder,
    transport_clauses,
};
use crate::client::McpClient;

/// The names of these checks, in the order they run.
pub(super) const NAMES: [&str; 11] = [
    "http.host_validation",
    "http.origin_validation",
    "http.session_required",
    "http.session_unknown",
    "http.protocol_version_header",
    "http.accepted_with_202",
    "http.accept",
    "http.get_stream",
    "http.resumability",
    "http.concurrent_streams",
    "http.session_delete",
];

/// A host no loopback server serves.
const FOREIGN_HOST: &str = "evil.example.com";
/// An origin no server trusts.
const FOREIGN_ORIGIN: &str = "http://evil.example.com";
/// A session id no server issued.
const UNKNOWN_SESSION: &str = "mcp-assured-unknown-session-5c1d";
/// A protocol version no server speaks.
const BOGUS_VERSION: &str = "1999-01-01";
/// The newest revision with `initialize` and sessions.
const LEGACY_VERSION: &str = "2025-11-25";
/// How many requests [`concurrent_streams`] sends at once.
const CONCURRENT: usize = 4;

const JSON: &str = "application/json";
const EVENTS: &str = "text/event-stream";

pub(super) async fn check(client: &McpClient, report: &mut Recorder) {
    let Some(access) = client.diagnostics().http.get() else {
        for name in NAMES {
            report.skip(name, "the server is not reached over HTTP");
        }
        return;
    };
    let probe = Probe::new(access, client.timeout());
    if probe.is_oauth() {
        for name in NAMES {
            report.skip(
                name,
                "the connection authorizes with OAuth, whose token rmcp holds: requests \
                 written by hand would go without it (give a bearer token to run these checks)",
            );
        }
        return;
    }
    if probe.is_sse() {
        return check_sse(&probe, report).await;
    }
    let legacy = if client.discovery().is_none() {
        client.protocol_version().to_owned()
    } else {
        LEGACY_VERSION.to_owned()
    };
    host_validation(&probe, &legacy, report).await;
    origin_validation(&probe, &legacy, report).await;
    let conversation = match Conversation::open(client, &probe, &legacy).await {
        Ok(conversation) => conversation,
        Err(why) => {
            report.fail(
                "http.session_required",
                format!("a session of the checks' own could not be opened: {why}"),
            );
            for name in &NAMES[3..] {
                report.skip(
                    name,
                    "no session of the checks' own (see http.session_required)",
                );
            }
            return;
        }
    };
    session_required(&conversation, report).await;
    session_unknown(&conversation, report).await;
    protocol_version_header(&conversation, report).await;
    accepted_with_202(&conversation, report).await;
    accept(&conversation, report).await;
    get_stream(&conversation, report).await;
    resumability(&conversation, report).await;
    concurrent_streams(&conversation, report).await;
    session_delete(&conversation, report).await;
}

/// An `initialize` of `version`, as a client opening a session sends it.
fn initialize(version: &str, id: &str) -> Value {
    json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "mcp-assured-checks", "version": env!("CARGO_PKG_VERSION")},
        },
    })
}

/// Ends a session a check opened by the way, if it got one: nothing is left behind.
async fn end_session(probe: &Probe, exchange: &Exchange) {
    if let Some(session) = exchange.header("mcp-session-id") {
        let headers = [("mcp-session-id", Some(session))];
        let _ = probe
            .send(Method::DELETE, probe.url(), &headers, None, Read::Body)
            .await;
    }
}

/// `http.host_validation`: a loopback server refuses a request whose `Host` is another
/// (4xx: DNS rebinding) and serves one with its own.
async fn host_validation(probe: &Probe, version: &str, report: &mut Recorder) {
    const NAME: &str = "http.host_validation";
    let Some(url) = probe.url().parse::<reqwest::Url>().ok() else {
        return report.skip(NAME, "the server's URL cannot be parsed");
    };
    if !is_loopback(&url) {
        return report.skip(
            NAME,
            "the server is not on a loopback address: DNS rebinding reaches local servers",
        );
    }
    let foreign = probe
        .post(
            &initialize(version, "mcp-assured/check-host"),
            &[("host", Some(FOREIGN_HOST))],
        )
        .await;
    let own = probe
        .post(&initialize(version, "mcp-assured/check-own-host"), &[])
        .await;
    for exchange in [&foreign, &own].into_iter().flatten() {
        end_session(probe, exchange).await;
    }
    let expected = format!(
        "expected HTTP 403 (or another 4xx) for an `initialize` with `Host: {FOREIGN_HOST}`: a \
         server on a loopback address must refuse other hosts, or a web page can reach it \
         through DNS rebinding"
    );
    match (foreign, own) {
        (Err(error), _) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        (Ok(foreign), _) if !foreign.is_client_error() => {
            report.fail(NAME, format!("{expected}; got {}", foreign.describe()));
        }
        (Ok(_), Err(error)) => report.fail(
            NAME,
            format!("a foreign Host is refused, but an `initialize` with its own failed: {error}"),
        ),
        (Ok(_), Ok(own)) if !own.is_success() => report.fail(
            NAME,
            format!(
                "a foreign Host is refused, but so is an `initialize` with its own: {}",
                own.describe()
            ),
        ),
        (Ok(foreign), Ok(_)) => report.pass(
            NAME,
            format!(
                "`Host: {FOREIGN_HOST}` refused with HTTP {}",
                foreign.status
            ),
        ),
    }
}

/// `http.origin_validation`: a request with a foreign `Origin` gets 403.
async fn origin_validation(probe: &Probe, version: &str, report: &mut Recorder) {
    const NAME: &str = "http.origin_validation";
    let answer = probe
        .post(
            &initialize(version, "mcp-assured/check-origin"),
            &[("origin", Some(FOREIGN_ORIGIN))],
        )
        .await;
    if let Ok(exchange) = &answer {
        end_session(probe, exchange).await;
    }
    let expected = format!(
        "expected HTTP 403 for an `initialize` with `Origin: {FOREIGN_ORIGIN}` (servers must \
         validate Origin and refuse one they do not trust with 403, against DNS rebinding)"
    );
    match answer {
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(exchange) if exchange.status == 403 => {
            report.pass(NAME, format!("`Origin: {FOREIGN_ORIGIN}` refused with 403"));
        }
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
    }
}

/// A session the checks open for themselves, on a revision with `initialize` when the
/// server speaks one, else stateless on 2026-07-28.
struct Conversation {
    probe: Probe,
    /// The `Mcp-Session-Id` issued at `initialize`.
    session: Option<String>,
    /// The protocol version for `MCP-Protocol-Version`.
    version: String,
    /// Stateless 2026-07-28: every request carries its `_meta` and `Mcp-Method`.
    revision_2026: bool,
    /// The answer to `notifications/initialized`.
    initialized: Option<Exchange>,
    /// Whether the server answered `initialize` with an event stream.
    events: Vec<Exchange>,
}

impl Conversation {
    async fn open(client: &McpClient, probe: &Probe, version: &str) -> Result<Self, String> {
        let id = json!("mcp-assured/check-session");
        let answer = probe
            .post(&initialize(version, "mcp-assured/check-session"), &[])
            .await?;
        let result = answer
            .answer(&id)
            .and_then(|message| message.get("result").cloned());
        let Some(result) = result.filter(|_| answer.is_success()) else {
            if client.discovery().is_some() {
                // A server of 2026-07-28 only: no `initialize`, no sessions.
                return Ok(Conversation {
                    probe: probe.clone(),
                    session: None,
                    version: client.protocol_version().to_owned(),
                    revision_2026: true,
                    initialized: None,
                    events: Vec::new(),
                });
            }
            return Err(format!(
                "`initialize` of {version} got {}",
                answer.describe()
            ));
        };
        let mut conversation = Conversation {
            probe: probe.clone(),
            session: answer.header("mcp-session-id").map(str::to_owned),
            version: result
                .get("protocolVersion")
                .and_then(Value::as_str)
                .unwrap_or(version)
                .to_owned(),
            revision_2026: false,
            initialized: None,
            events: vec![answer],
        };
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        conversation.initialized = Some(conversation.post(&initialized, &[]).await?);
        Ok(conversation)
    }

    /// The headers of every request of the session, then `changes`.
    fn headers<'a>(
        &'a self,
        message: &'a Value,
        changes: &[(&'a str, Option<&'a str>)],
    ) -> Vec<(&'a str, Option<&'a str>)> {
        let mut headers = vec![
            ("mcp-session-id", self.session.as_deref()),
            ("mcp-protocol-version", Some(self.version.as_str())),
        ];
        if self.revision_2026 {
            headers.push(("mcp-method", message.get("method").and_then(Value::as_str)));
        }
        headers.extend_from_slice(changes);
        headers
    }

    async fn post(
        &self,
        message: &Value,
        changes: &[(&str, Option<&str>)],
    ) -> Result<Exchange, String> {
        self.probe
            .post(message, &self.headers(message, changes))
            .await
    }

    /// A request every server answers: `ping`, or `server/discover` on 2026-07-28.
    fn request(&self, id: &str) -> Value {
        if self.revision_2026 {
            json!({
                "jsonrpc": "2.0",
                "id": id,
                "method": "server/discover",
                "params": {"_meta": {
                    "io.modelcontextprotocol/protocolVersion": self.version,
                    "io.modelcontextprotocol/clientCapabilities": {},
                }},
            })
        } else {
            json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
        }
    }

    fn method(&self) -> &'static str {
        if self.revision_2026 {
            "server/discover"
        } else {
            "ping"
        }
    }

    /// Sends [`request`](Self::request) with `changes`.
    async fn ask(&self, id: &str, changes: &[(&str, Option<&str>)]) -> Result<Exchange, String> {
        self.post(&self.request(id), changes).await
    }

    /// Why session checks do not apply, if they do not.
    fn no_session(&self) -> Option<String> {
        if self.revision_2026 {
            Some("2026-07-28 has no sessions (SEP-2567)".to_owned())
        } else if self.session.is_none() {
            Some("the server issued no Mcp-Session-Id at `initialize`: it keeps no sessions".into())
        } else {
            None
        }
    }
}

/// `http.session_required`: a request without the session's id gets 400.
async fn session_required(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.session_required";
    if let Some(why) = conversation.no_session() {
        return report.skip(NAME, why);
    }
    let expected = format!(
        "expected HTTP 400 for a `{}` without the Mcp-Session-Id issued at `initialize`",
        conversation.method()
    );
    match conversation
        .ask("mcp-assured/check-no-session", &[("mcp-session-id", None)])
        .await
    {
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(exchange) if exchange.is_client_error() => report.pass(
            NAME,
            format!(
                "a request without the session id is refused with HTTP {}",
                exchange.status
            ),
        ),
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
    }
}

/// `http.session_unknown`: a request under a session id never issued gets 404.
async fn session_unknown(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.session_unknown";
    if let Some(why) = conversation.no_session() {
        return report.skip(NAME, why);
    }
    let expected = format!(
        "expected HTTP 404 for a `{}` under `Mcp-Session-Id: {UNKNOWN_SESSION}`, which the \
         server never issued (a client then starts a new session)",
        conversation.method()
    );
    match conversation
        .ask(
            "mcp-assured/check-unknown-session",
            &[("mcp-session-id", Some(UNKNOWN_SESSION))],
        )
        .await
    {
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(exchange) if exchange.status == 404 => {
            report.pass(NAME, "an unknown session id gets 404");
        }
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
    }
}

/// `http.protocol_version_header`: a request whose `MCP-Protocol-Version` names a version
/// nobody speaks gets 400.
async fn protocol_version_header(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.protocol_version_header";
    if conversation.version.as_str() < "2025-06-18" {
        return report.skip(
            NAME,
            format!(
                "the session speaks {}; the header came with 2025-06-18",
                conversation.version
            ),
        );
    }
    let expected = format!(
        "expected HTTP 400 for a `{}` with `MCP-Protocol-Version: {BOGUS_VERSION}`, a version \
         the server does not speak",
        conversation.method()
    );
    match conversation
        .ask(
            "mcp-assured/check-version-header",
            &[("mcp-protocol-version", Some(BOGUS_VERSION))],
        )
        .await
    {
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(exchange) if exchange.status == 400 => {
            report.pass(
                NAME,
                format!("`MCP-Protocol-Version: {BOGUS_VERSION}` refused with 400"),
            );
        }
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
    }
}

/// `http.accepted_with_202`: a notification and a response are accepted with `202` and no
/// body (or refused with an HTTP error, for a response nobody asked for).
async fn accepted_with_202(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.accepted_with_202";
    let accepted = |exchange: &Exchange| exchange.status == 202 && exchange.body.trim().is_empty();
    let notification = match &conversation.initialized {
        Some(exchange) => Ok(("notifications/initialized", exchange.clone())),
        None => {
            let cancelled = json!({
                "jsonrpc": "2.0",
                "method": "notifications/cancelled",
                "params": {"requestId": "mcp-assured/nothing", "reason": "a check"},
            });
            conversation
                .post(&cancelled, &[])
                .await
                .map(|exchange| ("notifications/cancelled", exchange))
        }
    };
    let unsolicited = json!({"jsonrpc": "2.0", "id": "mcp-assured/check-response", "result": {}});
    let response = conversation.post(&unsolicited, &[]).await;
    let mut problems = Vec::new();
    match notification {
        Err(error) => problems.push(format!("the notification: {error}")),
        Ok((_, exchange)) if accepted(&exchange) => {}
        Ok((method, exchange)) => {
            problems.push(format!("`{method}` got {}", exchange.describe()));
        }
    }
    match response {
        Err(error) => problems.push(format!("the response: {error}")),
        Ok(exchange) if accepted(&exchange) || exchange.is_client_error() => {}
        Ok(exchange) => problems.push(format!(
            "a response to a request the server never sent got {} (accepted is 202 with no \
             body; refused is an HTTP error such as 400)",
            exchange.describe()
        )),
    }
    if problems.is_empty() {
        report.pass(NAME, "a notification is accepted with 202 and no body");
    } else {
        report.fail(
            NAME,
            format!(
                "expected HTTP 202 with no body for a notification or a response the server \
                 accepts; {}",
                problems.join("; ")
            ),
        );
    }
}

/// `http.accept`: the answer comes as JSON or as events, whichever the request accepted:
/// both accepted, either may come; one accepted, only it (or an HTTP error).
async fn accept(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.accept";
    // Problems with a request that accepts both (a MUST), and with one that accepts one
    // type (no sentence says what then).
    let (mut problems, mut one_type) = (Vec::new(), Vec::new());
    let mut seen = Vec::new();
    for (n, accepted) in [
        format!("{JSON}, {EVENTS}"),
        JSON.to_owned(),
        EVENTS.to_owned(),
    ]
    .iter()
    .enumerate()
    {
        let id = format!("mcp-assured/check-accept-{n}");
        let both = n == 0;
        let problems = if both { &mut problems } else { &mut one_type };
        match conversation.ask(&id, &[("accept", Some(accepted))]).await {
            Err(error) => problems.push(format!("`Accept: {accepted}`: {error}")),
            Ok(exchange) if !both && exchange.is_client_error() => {
                seen.push(format!("`{accepted}` refused ({})", exchange.status));
            }
            Ok(exchange) => {
                let media = exchange.media_type();
                let as_asked = accepted.split(", ").any(|one| one == media);
                if !exchange.is_success() || !as_asked {
                    problems.push(format!("`Accept: {accepted}` got {}", exchange.describe()));
                } else if exchange.answer(&json!(id)).is_none() {
                    problems.push(format!(
                        "`Accept: {accepted}` got {media} without the answer: {}",
                        exchange.describe()
                    ));
                } else {
                    seen.push(format!("`{accepted}` → {media}"));
                }
            }
        }
    }
    let expected = "expected each answer as `application/json` or `text/event-stream`, as the \
                    request's Accept asked (or an HTTP error for a request accepting only one)";
    if !problems.is_empty() {
        problems.extend(one_type);
        report.fail(NAME, format!("{expected}; {}", problems.join("; ")));
    } else if !one_type.is_empty() {
        report.broke(
            NAME,
            by(Revision::Handshake, &transport_clauses::ACCEPT_ONE),
            format!("{expected}; {}", one_type.join("; ")),
        );
    } else {
        report.pass(NAME, seen.join(", "));
    }
}

/// `http.get_stream`: a `GET` accepting events opens an event stream, or is refused with
/// 405.
async fn get_stream(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.get_stream";
    let message = Value::Null;
    let headers = conversation.headers(&message, &[("accept", Some(EVENTS))]);
    let expected = "expected a `GET` accepting text/event-stream to open an event stream (200, \
                    text/event-stream) or be refused with 405";
    match conversation
        .probe
        .send(
            Method::GET,
            conversation.probe.url(),
            &headers,
            None,
            Read::Headers,
        )
        .await
    {
        Err(error) => report.fail(NAME, format!("{expected}; sending it failed: {error}")),
        Ok(exchange) if exchange.status == 405 => {
            report.pass(NAME, "no stream from the server: GET refused with 405");
        }
        Ok(exchange) if exchange.status == 200 && exchange.media_type() == EVENTS => {
            report.pass(NAME, "GET opens an event stream");
        }
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
    }
}

/// `http.resumability`: where a server gives its events ids (it offers resumption), each
/// `retry` is a number of milliseconds and a `GET` with `Last-Event-ID` resumes (an event
/// stream, not an error).
async fn resumability(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.resumability";
    let mut seen = conversation.events.clone();
    match conversation
        .ask(
            "mcp-assured/check-resume",
            &[("accept", Some(&format!("{JSON}, {EVENTS}")))],
        )
        .await
    {
        Ok(exchange) => seen.push(exchange),
        Err(error) => {
            return report.fail(NAME, format!("a request to read events failed: {error}"));
        }
    }
    let (mut ids, mut retries) = (Vec::new(), Vec::new());
    for exchange in seen.iter().filter(|e| e.media_type() == EVENTS) {
        let (more_ids, more_retries) = exchange.event_fields();
        ids.extend(more_ids);
        retries.extend(more_retries);
    }
    let Some(last) = ids.iter().rev().find(|id| !id.is_empty()) else {
        return report.skip(NAME, "not offered: the server's events carry no ids");
    };
    let mut problems = Vec::new();
    if let Some(retry) = retries.iter().find(|r| r.trim().parse::<u64>().is_err()) {
        problems.push(format!("`retry: {retry}` is not a number of milliseconds"));
    }
    let message = Value::Null;
    let headers = conversation.headers(
        &message,
        &[
            ("accept", Some(EVENTS)),
            ("last-event-id", Some(last.as_str())),
        ],
    );
    match conversation
        .probe
        .send(
            Method::GET,
            conversation.probe.url(),
            &headers,
            None,
            Read::Headers,
        )
        .await
    {
        Err(error) => problems.push(format!("the GET with `Last-Event-ID: {last}`: {error}")),
        Ok(exchange) if exchange.status == 200 && exchange.media_type() == EVENTS => {}
        Ok(exchange) => problems.push(format!(
            "a GET with `Last-Event-ID: {last}` got {}",
            exchange.describe()
        )),
    }
    if problems.is_empty() {
        let mut message = format!("events carry ids; a GET with `Last-Event-ID: {last}` resumes");
        match retries.first() {
            Some(retry) => {
                let _ = write!(message, "; retry {retry} ms");
                report.pass(NAME, message);
            }
            // SEP-1699: a server that offers resumption SHOULD say when to come back.
            None => report.broke(
                NAME,
                by(Revision::Handshake, &transport_clauses::RETRY),
                format!(
                    "{message}, but no event has a `retry` field: clients guess when to \
                     reconnect (SEP-1699 asks servers to send one)"
                ),
            ),
        }
    } else {
        report.fail(
            NAME,
            format!(
                "the server's events carry ids, so clients resume with a GET and \
                 `Last-Event-ID`: expected an event stream (200, text/event-stream) and `retry` \
                 in milliseconds; {}",
                problems.join("; ")
            ),
        );
    }
}

/// `http.concurrent_streams`: several requests posted at once are each answered, on their
/// own streams, under their own ids.
async fn concurrent_streams(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.concurrent_streams";
    let ids: Vec<String> = (0..CONCURRENT)
        .map(|n| format!("mcp-assured/check-concurrent-{n}"))
        .collect();
    let answers = join_all(ids.iter().map(|id| conversation.ask(id, &[]))).await;
    let mut problems = Vec::new();
    for (id, answer) in ids.iter().zip(answers) {
        match answer {
            Err(error) => problems.push(format!("`{id}`: {error}")),
            Ok(exchange) if exchange.is_success() && exchange.answer(&json!(id)).is_some() => {}
            Ok(exchange) => problems.push(format!("`{id}` got {}", exchange.describe())),
        }
    }
    if problems.is_empty() {
        report.pass(
            NAME,
            format!("{CONCURRENT} requests posted at once, each answered"),
        );
    } else {
        report.fail(
            NAME,
            format!(
                "expected {CONCURRENT} `{}` requests posted at once each answered under its \
                 own id; {}",
                conversation.method(),
                problems.join("; ")
            ),
        );
    }
}

/// `http.session_delete`: `DELETE` ends the session (then its id gets 404), or is refused
/// with 405.
async fn session_delete(conversation: &Conversation, report: &mut Recorder) {
    const NAME: &str = "http.session_delete";
    if let Some(why) = conversation.no_session() {
        return report.skip(NAME, why);
    }
    let message = Value::Null;
    let headers = conversation.headers(&message, &[]);
    let deleted = match conversation
        .probe
        .send(
            Method::DELETE,
            conversation.probe.url(),
            &headers,
            None,
            Read::Body,
        )
        .await
    {
        Ok(exchange) => exchange,
        Err(error) => return report.fail(NAME, format!("the DELETE failed: {error}")),
    };
    if deleted.status == 405 {
        return report.pass(
            NAME,
            "clients may not end sessions: DELETE refused with 405",
        );
    }
    if !deleted.is_success() {
        return report.fail(
            NAME,
            format!(
                "expected a DELETE with the session id to end the session (2xx) or be refused \
                 with 405; got {}",
                deleted.describe()
            ),
        );
    }
    match conversation
        .ask("mcp-assured/check-after-delete", &[])
        .await
    {
        Err(error) => report.fail(
            NAME,
            format!("the request after the DELETE failed: {error}"),
        ),
        Ok(exchange) if exchange.status == 404 => report.pass(
            NAME,
            format!(
                "DELETE ends the session (HTTP {}); its id then gets 404",
                deleted.status
            ),
        ),
        Ok(exchange) => report.fail(
            NAME,
            format!(
                "DELETE answered HTTP {}, so the session should be over and its id get 404; a \
                 `{}` under it got {}",
                deleted.status,
                conversation.method(),
                exchange.describe()
            ),
        ),
    }
}

/// Over HTTP+SSE: the event stream refuses a foreign `Host` and `Origin`, the message
/// endpoint an unknown session; the rest does not apply.
async fn check_sse(probe: &Probe, report: &mut Recorder) {
    let open = |changes: Vec<(&'static str, Option<&'static str>)>| async move {
        probe
            .send(Method::GET, probe.url(), &changes, None, Read::Headers)
            .await
    };
    let loopback = probe
        .url()
        .parse::<reqwest::Url>()
        .is_ok_and(|url| is_loopback(&url));
    if loopback {
        let foreign = open(vec![("accept", Some(EVENTS)), ("host", Some(FOREIGN_HOST))]).await;
        let own = open(vec![("accept", Some(EVENTS))]).await;
        let expected = format!(
            "expected HTTP 403 (or another 4xx) for the event stream's GET with `Host: \
             {FOREIGN_HOST}` (DNS rebinding)"
        );
        match (foreign, own) {
            (Err(error), _) | (_, Err(error)) => {
                report.fail("http.host_validation", format!("{expected}; {error}"));
            }
            (Ok(foreign), Ok(_)) if !foreign.is_client_error() => report.fail(
                "http.host_validation",
                format!("{expected}; got {}", foreign.describe()),
            ),
            (Ok(_), Ok(own)) if !own.is_success() => report.fail(
                "http.host_validation",
                format!(
                    "a foreign Host is refused, but so is its own: {}",
                    own.describe()
                ),
            ),
            (Ok(foreign), Ok(_)) => report.pass(
                "http.host_validation",
                format!(
                    "`Host: {FOREIGN_HOST}` refused with HTTP {}",
                    foreign.status
                ),
            ),
        }
    } else {
        report.skip(
            "http.host_validation",
            "the server is not on a loopback address: DNS rebinding reaches local servers",
        );
    }
    let expected =
        format!("expected HTTP 403 for the event stream's GET with `Origin: {FOREIGN_ORIGIN}`");
    match open(vec![
        ("accept", Some(EVENTS)),
        ("origin", Some(FOREIGN_ORIGIN)),
    ])
    .await
    {
        Ok(exchange) if exchange.status == 403 => report.pass(
            "http.origin_validation",
            format!("`Origin: {FOREIGN_ORIGIN}` refused with 403"),
        ),
        Ok(exchange) => report.fail(
            "http.origin_validation",
            format!("{expected}; got {}", exchange.describe()),
        ),
        Err(error) => report.fail("http.origin_validation", format!("{expected}; {error}")),
    }
    report.skip(
        "http.session_required",
        "HTTP+SSE names its session in the endpoint the stream gives",
    );
    session_unknown_sse(probe, report).await;
    for name in &NAMES[4..] {
        report.skip(name, "checked over streamable HTTP only");
    }
}

/// Over HTTP+SSE: a message posted to the endpoint under a session that does not exist is
/// refused (404, or another 4xx).
async fn session_unknown_sse(probe: &Probe, report: &mut Recorder) {
    const NAME: &str = "http.session_unknown";
    // The endpoint the stream names has the session in its query; the same path with an
    // unknown one is refused.
    let endpoint = match endpoint_of(probe).await {
        Ok(endpoint) => endpoint,
        Err(error) => return report.fail(NAME, format!("could not read the endpoint: {error}")),
    };
    let mut url = endpoint;
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(key, value)| {
            let value = if key.eq_ignore_ascii_case("sessionid") || key == "session_id" {
                UNKNOWN_SESSION.to_owned()
            } else {
                value.into_owned()
            };
            (key.into_owned(), value)
        })
        .collect();
    url.query_pairs_mut().clear().extend_pairs(pairs);
    let ping =
        json!({"jsonrpc": "2.0", "id": "mcp-assured/check-unknown-session", "method": "ping"});
    let expected = "expected HTTP 404 (or another 4xx) for a message posted under a session \
                    the server never issued";
    match probe
        .send(Method::POST, url.as_str(), &[], Some(&ping), Read::Body)
        .await
    {
        Ok(exchange) if exchange.is_client_error() => report.pass(
            NAME,
            format!(
                "an unknown session is refused with HTTP {}",
                exchange.status
            ),
        ),
        Ok(exchange) => report.fail(NAME, format!("{expected}; got {}", exchange.describe())),
        Err(error) => report.fail(NAME, format!("{expected}; {error}")),
    }
}

/// The message endpoint a new HTTP+SSE stream names in its `endpoint` event.
async fn endpoint_of(probe: &Probe) -> Result<reqwest::Url, String> {
    let stream = probe
        .url()
        .parse::<reqwest::Url>()
        .map_err(|e| e.to_string())?;
    let exchange = probe
        .send(
            Method::GET,
            probe.url(),
            &[("accept", Some(EVENTS))],
            None,
            Read::Event("endpoint"),
        )
        .await?;
    let mut event = None;
    for line in exchange.body.lines() {
        if let Some(name) = line.strip_prefix("event:") {
            event = Some(name.trim().to_owned());
        } else if let Some(data) = line.strip_prefix("data:")
            && event.as_deref() == Some("endpoint")
        {
            return stream.join(data.trim()).map_err(|e| e.to_string());
        }
    }
    Err(format!("no `endpoint` event in {}", exchange.describe()))
}
