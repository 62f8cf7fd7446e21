//! Built-in protocol checks: does the server do what MCP asks of every server?
//!
//! ```no_run
//! # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
//! let report = client.check().await;
//! println!("{report}"); // PASS/FAIL/SKIP per check, then "N passed, N failed, N skipped"
//! assert!(report.is_success(), "{report}");
//! let ping = report.entry("ping").unwrap();
//! println!("{:?} in {:?}: {}", ping.status, ping.duration, ping.message);
//! # Ok(()) }
//! ```
//!
//! The result is a [`Report`] (see [`crate::report`]), each check an entry of the suite
//! [`SUITE`], timed.
//!
//! Each check is graded by the sentence of the specification it tests, on the revision the
//! connection speaks, which its entry names ([`Entry::clause`](crate::report::Entry::clause):
//! keyword, section, sentence, link): it fails only for a MUST or MUST NOT broken; a SHOULD
//! broken, or a rule stated without a keyword, is [`Status::Warned`](crate::report::Status),
//! no failure, unless [`CheckOptions::strict`]. A deviation known to come from an SDK (the
//! TypeScript SDK's unknown tool as `isError`, the Python SDK's error code 0) says so.
//!
//! The checks: `initialize` (a protocol version and server name), `ping`, capability
//! consistency for logging, completions, tools, resources and prompts (advertised ⇒ it
//! works; not advertised ⇒ refused with -32601), `pagination.*` (cursors end, no item twice),
//! `tools.names` (unique, 1–128 of `A-Za-z0-9_-.`), `tools.input_schemas` and
//! `tools.output_schemas` (valid JSON Schemas of type object), `errors.unknown_tool`
//! (-32602), `errors.unknown_resource` (-32002), `errors.unknown_prompt` (-32602),
//! `errors.unknown_method` (-32601),
//! `tools.structured_output` (with arguments you give, structuredContent validates against
//! the output schema) and `tools.invalid_arguments` (a missing required field and a wrong
//! type are refused, not accepted, crashed on or hung on).
//!
//! On protocol 2026-07-28 they follow that revision: `ping` and `logging/setLevel` no longer
//! exist (the checks say so and skip; `server/discover` shows the server answers), and an
//! unknown resource is refused with -32602. Five more check what only that revision asks
//! (skipped on older ones): `discover.result` (`supportedVersions` with the version in use,
//! `capabilities`), `discover.unsupported_version` (-32022 with `data.supported`),
//! `requests.missing_metadata` (a request without its `_meta` refused with -32602),
//! `http.standard_headers` (over HTTP, a missing or mismatched `Mcp-Method` refused with 400
//! and -32020) and `capabilities.deprecated` (a warning for `logging`, which SEP-2577
//! deprecates).
//!
//! Over HTTP, the transport itself is checked ([`HTTP_TRANSPORT_CHECKS`], with requests of
//! their own beside the connection): `http.host_validation` and `http.origin_validation`
//! (a foreign `Host` on a loopback server, a foreign `Origin` anywhere, refused: DNS
//! rebinding), `http.session_required` (400 without the session id),
//! `http.session_unknown` (404 for one never issued), `http.protocol_version_header` (400
//! for a version nobody speaks), `http.accepted_with_202` (notifications and responses),
//! `http.accept` (JSON or events, as asked), `http.get_stream` (an event stream or 405),
//! `http.resumability` (where events carry ids, `Last-Event-ID` resumes, and a `retry` is
//! given or a warning says so), `http.concurrent_streams` and `http.session_delete` (ends
//! the session, or 405). The older HTTP+SSE transport gets those that apply to it.
//!
//! A server that answers a request without credentials with 401 gets the [`AUTH_CHECKS`]:
//! `auth.challenge` (`WWW-Authenticate: Bearer resource_metadata=...`),
//! `auth.protected_resource_metadata` (RFC 9728: this server as `resource`, authorization
//! servers named), `auth.authorization_server_metadata` (RFC 8414: found, endpoints, PKCE
//! S256) and `auth.tokens_refused` (a made-up token, and the expired and other-audience
//! tokens of [`CheckOptions`], refused with 401).
//!
//! With [`CheckOptions::load`], the torture checks [`LOAD_CHECKS`] run after them: many
//! sessions and many requests in flight at once, each answer matched to its request by
//! content (`load.answers_match_requests`, `load.sessions_isolated`), memory given back after
//! cancelled calls and closed sessions (`load.cancellation_frees`, `load.sessions_freed`),
//! and many sessions open at once, or refused clearly (`load.session_limit`).
//!
//! [`CheckOptions::progress`] sees each check as it ends.
//!
//! A hybrid server (its tools over REST too, [`crate::rest`]) gets two more suites:
//! [`check_parity_with`] (the two faces list and answer alike, [`PARITY_CHECKS`]) and
//! [`check_hybrid_with`] (it honours what it declares of each tool on both faces: permissions,
//! resource limits, streamed results; [`HYBRID_CHECKS`]).

mod auth;
// Its clause macros serve `transport_clauses` too.
#[macro_use]
pub(crate) mod clauses;
mod http_probe;
mod http_transport;
mod hybrid;
mod known_sdks;
mod load;
mod parity;
mod recorder;
mod revision_2026;
mod transport_clauses;
mod wire;

use std::{
    collections::{BTreeMap, HashSet},
    fmt,
    sync::Arc,
};

use serde_json::{Value, json};

pub use self::hybrid::{
    HYBRID_CHECKS, HYBRID_SUITE, HybridOptions, check_hybrid, check_hybrid_with,
};
pub use self::parity::{
    PARITY_CHECKS, PARITY_SUITE, ParityOptions, check_parity, check_parity_with,
};
use self::{
    clauses::{Revision, by},
    known_sdks::noted,
    recorder::Recorder,
};
use crate::{
    client::McpClient,
    error::{Error, code},
    report::{Entry, Report},
    secret::Secret,
    server_tests::{is_test_tool, valid_object},
};

/// The suite of the protocol checks' entries.
pub const SUITE: &str = "protocol-checks";

/// The name of every check, in the order they run (a report has exactly these, then
/// [`LOAD_CHECKS`] with [`CheckOptions::load`]).
pub const CHECKS: [&str; 40] = [
    "initialize",
    "ping",
    "capabilities.logging",
    "capabilities.completions",
    "capabilities.tools",
    "pagination.tools",
    "capabilities.resources",
    "pagination.resources",
    "capabilities.prompts",
    "pagination.prompts",
    "tools.names",
    "tools.input_schemas",
    "tools.output_schemas",
    "errors.unknown_tool",
    "errors.unknown_resource",
    "errors.unknown_prompt",
    "errors.unknown_method",
    "tools.structured_output",
    "tools.invalid_arguments",
    "discover.result",
    "discover.unsupported_version",
    "requests.missing_metadata",
    "http.standard_headers",
    "capabilities.deprecated",
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
    "auth.challenge",
    "auth.protected_resource_metadata",
    "auth.authorization_server_metadata",
    "auth.tokens_refused",
    "wire.schema",
];

/// The torture checks, run after [`CHECKS`] only with [`CheckOptions::load`].
pub const LOAD_CHECKS: [&str; 5] = load::NAMES;

/// Whether `pattern` (a check's name, or a prefix ending in `*`, as
/// [`CheckOptions::skip`] takes) names any of [`CHECKS`] or [`LOAD_CHECKS`].
pub fn names_a_check(pattern: &str) -> bool {
    CHECKS
        .iter()
        .chain(&LOAD_CHECKS)
        .any(|name| recorder::matches(pattern, name))
}

/// The checks of what only protocol 2026-07-28 asks (the last of [`CHECKS`]); skipped on
/// older revisions.
pub const REVISION_2026_CHECKS: [&str; 5] = revision_2026::NAMES;

/// The checks of the HTTP transport (run when the server is reached over HTTP; the older
/// HTTP+SSE transport gets those that apply to it).
pub const HTTP_TRANSPORT_CHECKS: [&str; 11] = http_transport::NAMES;

/// The checks of authorization (run when the server answers a request without credentials
/// with 401).
pub const AUTH_CHECKS: [&str; 4] = auth::NAMES;

/// How many pages a listing may have before the pagination check gives up.
const MAX_PAGES: usize = 1000;

/// Called with each check's entry as it ends.
type Progress = Arc<dyn Fn(&Entry) + Send + Sync>;

/// What the checks need from you: arguments for the tools whose structured output should
/// be checked, tokens the server must refuse, and what to do as each check ends.
///
/// ```no_run
/// # async fn demo(client: mcp_assured::McpClient) {
/// use mcp_assured::checks::CheckOptions;
///
/// let options = CheckOptions::default()
///     .tool_arguments("add", serde_json::json!({"a": 1, "b": 2}))
///     .expired_token(std::env::var("EXPIRED_TOKEN").unwrap())
///     .progress(|entry| eprintln!("{:?} {}", entry.status, entry.name));
/// let report = client.check_with(&options).await;
/// # }
/// ```
#[derive(Clone)]
pub struct CheckOptions {
    tool_arguments: BTreeMap<String, Value>,
    expired_token: Option<Secret>,
    other_audience_token: Option<Secret>,
    progress: Option<Progress>,
    skip: Vec<String>,
    strict: bool,
    load: bool,
    load_sessions: usize,
    load_process_id: Option<u32>,
    echo_tool: Option<String>,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            tool_arguments: BTreeMap::new(),
            expired_token: None,
            other_audience_token: None,
            progress: None,
            skip: Vec::new(),
            strict: false,
            load: false,
            load_sessions: load::DEFAULT_SESSIONS,
            load_process_id: None,
            echo_tool: None,
        }
    }
}

impl fmt::Debug for CheckOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CheckOptions")
            .field("tool_arguments", &self.tool_arguments)
            .field("expired_token", &self.expired_token)
            .field("other_audience_token", &self.other_audience_token)
            .field("progress", &self.progress.as_ref().map(|_| "Fn(&Entry)"))
            .field("skip", &self.skip)
            .field("strict", &self.strict)
            .field("load", &self.load)
            .field("load_sessions", &self.load_sessions)
            .field("load_process_id", &self.load_process_id)
            .field("echo_tool", &self.echo_tool)
            .finish()
    }
}

impl CheckOptions {
    /// Calls `tool` with `arguments` in `tools.structured_output`.
    #[must_use]
    pub fn tool_arguments(mut self, tool: impl Into<String>, arguments: Value) -> Self {
        self.tool_arguments.insert(tool.into(), arguments);
        self
    }

    /// A token the server issued that has expired: `auth.tokens_refused` checks that the
    /// server refuses it with 401. Never shown in the report.
    #[must_use]
    pub fn expired_token(mut self, token: impl Into<String>) -> Self {
        self.expired_token = Some(Secret::new(token));
        self
    }

    /// A token issued for another resource (another audience): `auth.tokens_refused`
    /// checks that the server refuses it with 401. Never shown in the report.
    #[must_use]
    pub fn other_audience_token(mut self, token: impl Into<String>) -> Self {
        self.other_audience_token = Some(Secret::new(token));
        self
    }

    /// Reports the checks `pattern` names as skipped, so a known fault (of the SDK the
    /// server is built on, say) does not fail the run: a check's name as in [`CHECKS`], or a
    /// prefix ending in `*` (`http.*`). The check still runs, and its entry says what it
    /// found: `skipped on request; it found: FAIL ...`. Repeatable.
    ///
    /// [`names_a_check`] tells whether a pattern names any check, to refuse a typo.
    #[must_use]
    pub fn skip(mut self, pattern: impl Into<String>) -> Self {
        self.skip.push(pattern.into());
        self
    }

    /// Fails every check that warns: those that find a SHOULD broken (or a sentence without
    /// a keyword), graded by the clause it tests ([`Entry::clause`]), where only a MUST or
    /// MUST NOT broken fails unless strict. The server's own tests and parity are reports of
    /// their own: [`Report::strictly`](crate::report::Report::strictly) judges them alike.
    ///
    /// [`Entry::clause`]: crate::report::Entry::clause
    #[must_use]
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// Also runs the torture checks, [`LOAD_CHECKS`], after the others (10–20 s, more for
    /// a slow server): many sessions and calls in flight at once, and whether cancelled
    /// calls and closed sessions give back what they held. Without it they do not run, and
    /// the report does not list them.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) {
    /// use mcp_assured::checks::CheckOptions;
    ///
    /// let report = client.check_with(&CheckOptions::default().load(true)).await;
    /// let matched = report.entry("load.answers_match_requests").unwrap();
    /// println!("{:?}: {}", matched.status, matched.message);
    /// assert!(report.is_success(), "{report}");
    /// # }
    /// ```
    #[must_use]
    pub fn load(mut self, load: bool) -> Self {
        self.load = load;
        self
    }

    /// How many sessions `load.session_limit` holds open at once over HTTP (100 unless
    /// set): each must open and answer, or be refused with an HTTP status or a JSON-RPC
    /// error, not hang.
    #[must_use]
    pub fn load_sessions(mut self, sessions: usize) -> Self {
        self.load_sessions = sessions.max(1);
        self
    }

    /// The pid of the server's process, whose memory `load.cancellation_frees` and
    /// `load.sessions_freed` watch (with its children's), for an HTTP server the client
    /// did not start. Without it: the process listening on a loopback URL's port, if this
    /// user can see it; a stdio server's own process.
    #[must_use]
    pub fn load_process_id(mut self, pid: u32) -> Self {
        self.load_process_id = Some(pid);
        self
    }

    /// The tool the `load.*` checks call, with a unique marker in each string argument
    /// (its required ones, or all when none is required), which its answer must carry in
    /// its text or structured content. Without it: a tool whose name contains `echo` and
    /// answers that way (no other tool is called: a tool may act on what it is given).
    #[must_use]
    pub fn echo_tool(mut self, tool: impl Into<String>) -> Self {
        self.echo_tool = Some(tool.into());
        self
    }

    /// Calls `progress` with each check's entry as soon as the check ends, in order: to
    /// show a long run as it goes (the CLI prints a line per check this way).
    #[must_use]
    pub fn progress(mut self, progress: impl Fn(&Entry) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }
}

/// A listing: its method, the result key of its items, what identifies an item.
struct Listing {
    capability: &'static str,
    method: &'static str,
    items: &'static str,
    id: &'static str,
}

const LISTINGS: [Listing; 3] = [
    Listing {
        capability: "tools",
        method: "tools/list",
        items: "tools",
        id: "name",
    },
    Listing {
        capability: "resources",
        method: "resources/list",
        items: "resources",
        id: "uri",
    },
    Listing {
        capability: "prompts",
        method: "prompts/list",
        items: "prompts",
        id: "name",
    },
];

impl McpClient {
    /// Runs the protocol checks with no tool arguments; see the [module docs](crate::checks).
    pub async fn check(&self) -> Report {
        self.check_with(&CheckOptions::default()).await
    }

    /// Runs only the torture checks, [`LOAD_CHECKS`], with `options` (whether or not they
    /// ask for [`load`](CheckOptions::load)): what `check_with` adds for them, alone.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) {
    /// use mcp_assured::checks::CheckOptions;
    ///
    /// let report = client.check_load(&CheckOptions::default().load_sessions(20)).await;
    /// assert!(report.is_success(), "{report}");
    /// # }
    /// ```
    pub async fn check_load(&self, options: &CheckOptions) -> Report {
        let mut report = Recorder::new(SUITE, options.progress.clone())
            .skipping(&options.skip)
            .speaking(self.protocol_version())
            .strict(options.strict);
        load::check(self, options, &mut report).await;
        report.finish()
    }

    /// Runs the protocol checks.
    pub async fn check_with(&self, options: &CheckOptions) -> Report {
        let mut report = Recorder::new(SUITE, options.progress.clone())
            .skipping(&options.skip)
            .speaking(self.protocol_version())
            .strict(options.strict);
        check_initialize(self, &mut report);
        match alive(self).await {
            Ok(()) if speaks_2026(self) => report.skip(
                "ping",
                "`ping` is removed in 2026-07-28; `server/discover` answered instead",
            ),
            Ok(()) => report.pass("ping", "answered"),
            Err(error) => {
                let what = if speaks_2026(self) {
                    "`server/discover` (2026-07-28 has no `ping`) failed"
                } else {
                    "failed"
                };
                report.fail("ping", format!("{what}: {error}"));
                if error.is_timeout() || self.is_closed() {
                    // Every other check would wait out its own timeout: say so once instead.
                    let load = if options.load { &LOAD_CHECKS[..] } else { &[] };
                    let unreached = CHECKS.iter().skip(2).filter(|name| **name != wire::NAME);
                    for name in unreached.chain(load) {
                        report.skip(name, "the server does not answer (see ping)");
                    }
                    // What it did send is held to the schema all the same.
                    wire::check(self, &mut report);
                    return report.finish();
                }
            }
        }
        check_logging(self, &mut report).await;
        check_completions(self, &mut report).await;
        let mut tools = None;
        for listing in &LISTINGS {
            let items = check_listing(self, listing, &mut report).await;
            if listing.capability == "tools" {
                tools = items;
            }
        }
        match &tools {
            Some(tools) => {
                check_tool_names(tools, &mut report);
                check_schemas(tools, "inputSchema", "tools.input_schemas", &mut report);
                check_schemas(tools, "outputSchema", "tools.output_schemas", &mut report);
            }
            None => {
                for name in ["tools.names", "tools.input_schemas", "tools.output_schemas"] {
                    report.skip(name, "no tools to check");
                }
            }
        }
        check_unknown_tool(self, tools.is_some(), &mut report).await;
        check_unknown_resource(self, &mut report).await;
        check_unknown_prompt(self, &mut report).await;
        check_unknown_method(self, &mut report).await;
        check_structured_output(self, tools.as_deref(), options, &mut report).await;
        check_invalid_arguments(self, tools.as_deref(), &mut report).await;
        revision_2026::check(self, &mut report).await;
        http_transport::check(self, &mut report).await;
        auth::check(self, options, &mut report).await;
        wire::check(self, &mut report);
        if options.load {
            load::check(self, options, &mut report).await;
        }
        report.finish()
    }
}

/// Whether the connection speaks 2026-07-28 (or a later revision without `initialize`).
fn speaks_2026(client: &McpClient) -> bool {
    client.discovery().is_some()
}

/// Whether the server still answers: `ping`, or on 2026-07-28 (which removed it)
/// `server/discover`, as [`McpClient::ping`] does.
async fn alive(client: &McpClient) -> Result<(), Error> {
    client.ping().await
}

fn check_initialize(client: &McpClient, report: &mut Recorder) {
    let info = client.server_info();
    let known = rmcp::model::ProtocolVersion::KNOWN_VERSIONS
        .iter()
        .any(|version| version.as_str() == info.protocol_version);
    if info.name.is_empty() && speaks_2026(client) {
        report.fail(
            "initialize",
            "`server/discover` names no serverInfo in its `_meta`",
        );
    } else if info.name.is_empty() {
        report.broke(
            "initialize",
            clauses::SERVER_NAME,
            "serverInfo.name is empty",
        );
    } else if !known {
        report.broke(
            "initialize",
            clauses::VERSION_NEGOTIATION,
            format!("unknown protocol version {:?}", info.protocol_version),
        );
    } else {
        report.pass(
            "initialize",
            format!(
                "{} {} on protocol {}",
                info.name, info.version, info.protocol_version
            ),
        );
    }
}

/// `capabilities.logging`: advertised ⇒ `logging/setLevel` works; not ⇒ refused with -32601.
async fn check_logging(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "capabilities.logging";
    if speaks_2026(client) {
        report.skip(
            NAME,
            "`logging/setLevel` is removed in 2026-07-28: the level travels in each request's \
             _meta, and logging is deprecated (SEP-2577)",
        );
        return;
    }
    let advertised = client.server_info().capabilities.logging.is_some();
    let answer = client
        .request("logging/setLevel", json!({"level": "info"}))
        .await;
    match (advertised, answer) {
        (true, Ok(_)) => report.pass(NAME, "advertised, and logging/setLevel works"),
        (true, Err(error)) => report.broke(NAME, clauses::ADVERTISED_WORKS, format!("advertised, but logging/setLevel failed: {error}")),
        (false, Err(error)) if error.code() == Some(code::METHOD_NOT_FOUND) => {
            report.pass(NAME, "not advertised, and logging/setLevel is refused with -32601");
        }
        (false, Err(error)) => report.broke(
            NAME,
            clauses::METHOD_NOT_FOUND,
            format!("not advertised; logging/setLevel should be refused with -32601 (method not found), got: {error}"),
        ),
        (false, Ok(_)) => report.fail(NAME, "not advertised, yet logging/setLevel answers"),
    }
}

/// `capabilities.completions`: advertised ⇒ `completion/complete` answers (an unknown prompt
/// may be refused with -32602); not ⇒ refused with -32601.
async fn check_completions(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "capabilities.completions";
    let advertised = client.server_info().capabilities.completions.is_some();
    let request = json!({
        "ref": {"type": "ref/prompt", "name": "mcp-assured-no-such-prompt"},
        "argument": {"name": "x", "value": ""},
    });
    let answer = client.request("completion/complete", request).await;
    match (advertised, answer) {
        (true, Ok(_)) => report.pass(NAME, "advertised, and completion/complete answers"),
        (true, Err(error)) if error.code() == Some(code::INVALID_PARAMS) => {
            report.pass(NAME, "advertised, and completion/complete refuses an unknown prompt with -32602");
        }
        (true, Err(error)) => report.broke(NAME, clauses::ADVERTISED_WORKS, format!("advertised, but completion/complete failed: {error}")),
        (false, Err(error)) if error.code() == Some(code::METHOD_NOT_FOUND) => {
            report.pass(NAME, "not advertised, and completion/complete is refused with -32601");
        }
        (false, Err(error)) => report.broke(
            NAME,
            by(report.revision(), &clauses::COMPLETION_ERRORS),
            format!("not advertised; completion/complete should be refused with -32601 (method not found), got: {error}"),
        ),
        (false, Ok(_)) => report.fail(NAME, "not advertised, yet completion/complete answers"),
    }
}

/// `capabilities.<x>` against what listing does; then pagination. The items, if listed.
async fn check_listing(
    client: &McpClient,
    listing: &Listing,
    report: &mut Recorder,
) -> Option<Vec<Value>> {
    let capabilities = json!(client.server_info().capabilities);
    let advertised = capabilities
        .get(listing.capability)
        .is_some_and(|c| !c.is_null());
    let name = format!("capabilities.{}", listing.capability);
    let pagination = format!("pagination.{}", listing.capability);
    let first = client.request_raw(listing.method, json!({})).await;
    match (advertised, first) {
        (true, Ok(_)) => report.pass(&name, format!("advertised, and {} answers", listing.method)),
        (true, Err(error)) => {
            report.broke(
                &name,
                clauses::lists(listing.capability),
                format!("advertised, but {} failed: {error}", listing.method),
            );
            report.skip(&pagination, format!("{} does not answer", listing.method));
            return None;
        }
        (false, Err(error)) if error.code() == Some(code::METHOD_NOT_FOUND) => {
            report.pass(
                &name,
                format!(
                    "not advertised, and {} is refused with -32601",
                    listing.method
                ),
            );
            report.skip(&pagination, "not advertised");
            return None;
        }
        (false, Err(error)) => {
            report.broke(
                &name,
                clauses::METHOD_NOT_FOUND,
                format!("not advertised; {} should be refused with -32601 (method not found), got: {error}", listing.method),
            );
            report.skip(&pagination, "not advertised");
            return None;
        }
        (false, Ok(_)) => {
            report.fail(
                &name,
                format!("not advertised, yet {} answers", listing.method),
            );
            report.skip(&pagination, "not advertised");
            return None;
        }
    }
    let (items, pages, problem) = paginate(client, listing).await;
    match problem {
        None => report.pass(
            &pagination,
            format!("{} item(s) in {pages} page(s), none twice", items.len()),
        ),
        Some(problem) => report.fail(&pagination, problem),
    }
    // The other checks look at what was listed, even when the paging went wrong.
    (!items.is_empty() || pages > 0).then_some(items)
}

/// Every page of a listing, raw, and what is wrong with the paging: a cursor that comes
/// back (the pages loop), an item on two pages, too many pages, a page that fails.
async fn paginate(client: &McpClient, listing: &Listing) -> (Vec<Value>, usize, Option<String>) {
    let mut items = Vec::new();
    let mut earlier_pages = HashSet::new();
    let mut cursors = HashSet::new();
    let mut cursor: Option<String> = None;
    for page in 1..=MAX_PAGES {
        let params = match &cursor {
            Some(cursor) => json!({ "cursor": cursor }),
            None => json!({}),
        };
        let result = match client.request_raw(listing.method, params).await {
            Ok(result) => result,
            Err(error) => {
                let problem = format!("page {page} of {} failed: {error}", listing.method);
                return (items, page - 1, Some(problem));
            }
        };
        let mut this_page = HashSet::new();
        for item in result
            .get(listing.items)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let id = item
                .get(listing.id)
                .map(Value::to_string)
                .unwrap_or_default();
            if earlier_pages.contains(&id) {
                let problem = format!("{id} is listed again on page {page}");
                return (items, page, Some(problem));
            }
            this_page.insert(id);
            items.push(item.clone());
        }
        earlier_pages.extend(this_page);
        match result.get("nextCursor").and_then(Value::as_str) {
            None => return (items, page, None),
            Some(next) if !cursors.insert(next.to_owned()) => {
                let problem =
                    format!("the cursor {next:?} came back on page {page}: the pages loop");
                return (items, page, Some(problem));
            }
            Some(next) => cursor = Some(next.to_owned()),
        }
    }
    (
        items,
        MAX_PAGES,
        Some(format!("more than {MAX_PAGES} pages")),
    )
}

/// 1 to 128 characters of `A-Z a-z 0-9 _ - .` (MCP 2025-11-25), each name once.
fn check_tool_names(tools: &[Value], report: &mut Recorder) {
    let mut problems = Vec::new();
    let mut seen = HashSet::new();
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            problems.push(format!("a tool has no string name: {tool}"));
            continue;
        };
        let well_formed = (1..=128).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        if !well_formed {
            problems.push(format!("{name:?} is not 1–128 characters of A-Za-z0-9_-."));
        }
        if !seen.insert(name) {
            problems.push(format!("{name:?} is listed twice"));
        }
    }
    if problems.is_empty() {
        report.pass(
            "tools.names",
            format!("{} unique, well-formed names", tools.len()),
        );
    } else {
        report.fail("tools.names", problems.join("; "));
    }
}

fn check_schemas(tools: &[Value], field: &str, name: &str, report: &mut Recorder) {
    let mut problems = Vec::new();
    let mut checked = 0;
    for tool in tools {
        let tool_name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        let Some(schema) = tool.get(field) else {
            if field == "inputSchema" {
                problems.push(format!("`{tool_name}` has no inputSchema"));
            }
            continue;
        };
        checked += 1;
        // 2026-07-28 lets an outputSchema be any JSON Schema (SEP-2106).
        let any_schema = field == "outputSchema" && report.revision() == Revision::Stateless;
        if !any_schema && schema.get("type").and_then(Value::as_str) != Some("object") {
            problems.push(format!(
                "`{tool_name}`: {field} must have \"type\": \"object\", has {}",
                schema.get("type").unwrap_or(&Value::Null)
            ));
        }
        if let Err(error) = jsonschema::validator_for(schema) {
            problems.push(format!(
                "`{tool_name}`: {field} is not a valid JSON Schema: {error}"
            ));
        }
    }
    if !problems.is_empty() {
        report.fail(name, problems.join("; "));
    } else if checked == 0 {
        report.skip(name, format!("no tool has an {field}"));
    } else {
        report.pass(name, format!("{checked} valid schema(s) of type object"));
    }
}

async fn check_unknown_tool(client: &McpClient, has_tools: bool, report: &mut Recorder) {
    const NAME: &str = "errors.unknown_tool";
    if !has_tools {
        report.skip(NAME, "the server has no tools");
        return;
    }
    match client
        .call_tool("mcp-assured.no-such-tool", json!({}))
        .await
    {
        Err(error) if error.code() == Some(code::INVALID_PARAMS) => {
            report.pass(NAME, "refused with -32602 (invalid params)");
        }
        Err(error) if unanswered(&error) => report.broke(
            NAME,
            clauses::REPLY,
            format!("expected JSON-RPC -32602; no answer: {error}"),
        ),
        Err(error) => report.fail(
            NAME,
            noted(
                format!("expected JSON-RPC -32602, got: {error}"),
                known_sdks::behind_error(&error),
            ),
        ),
        Ok(result) if result.is_error == Some(true) => report.fail(
            NAME,
            noted(
                format!(
                    "answered with a tool error (isError) instead of JSON-RPC -32602; MCP {} \
                     classes an unknown tool as a protocol error: {}",
                    client.protocol_version(),
                    result.text()
                ),
                known_sdks::unknown_tool_as_tool_error(&result.text()),
            ),
        ),
        Ok(result) => report.fail(
            NAME,
            format!("a tool that does not exist succeeded: {}", result.text()),
        ),
    }
}

async fn check_unknown_resource(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "errors.unknown_resource";
    if client.server_info().capabilities.resources.is_none() {
        report.skip(NAME, "resources are not advertised");
        return;
    }
    // 2026-07-28 refuses an unknown resource with -32602 (a MUST, and -32002 a MUST NOT);
    // older revisions with -32002 (a SHOULD), where -32602 is what SEP-2164 moved to.
    let modern = speaks_2026(client);
    let (expected, meaning) = if modern {
        (code::INVALID_PARAMS, "invalid params, as 2026-07-28 has it")
    } else {
        (code::RESOURCE_NOT_FOUND, "resource not found")
    };
    match client.read_resource("mcp-assured://no-such-resource").await {
        Err(error) if error.code() == Some(expected) => {
            report.pass(NAME, format!("refused with {expected} ({meaning})"));
        }
        Err(error) if unanswered(&error) => report.broke(
            NAME,
            clauses::REPLY,
            format!("expected JSON-RPC {expected}; no answer: {error}"),
        ),
        Err(error) if !modern && error.code() == Some(code::INVALID_PARAMS) => report.fail(
            NAME,
            "refused with -32602 (invalid params), the code SEP-2164 gives it from 2026-07-28 \
             on; 2025-11-25 asks for -32002 (resource not found)",
        ),
        Err(error) => report.fail(
            NAME,
            noted(
                format!("expected JSON-RPC {expected} ({meaning}), got: {error}"),
                known_sdks::behind_error(&error),
            ),
        ),
        Ok(_) => report.fail(NAME, "a resource that does not exist was read"),
    }
}

/// `errors.unknown_prompt`: `prompts/get` of a prompt that does not exist is refused with
/// -32602 (invalid params), as the prompts spec has it.
async fn check_unknown_prompt(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "errors.unknown_prompt";
    if client.server_info().capabilities.prompts.is_none() {
        report.skip(NAME, "prompts are not advertised");
        return;
    }
    match client
        .get_prompt("mcp-assured.no-such-prompt", json!({}))
        .await
    {
        Err(error) if error.code() == Some(code::INVALID_PARAMS) => {
            report.pass(NAME, "refused with -32602 (invalid params)");
        }
        Err(error) if unanswered(&error) => report.broke(
            NAME,
            clauses::REPLY,
            format!("expected JSON-RPC -32602 (invalid params); no answer: {error}"),
        ),
        Err(error) => report.fail(
            NAME,
            noted(
                format!(
                    "expected JSON-RPC -32602 (invalid params) for an unknown prompt, got: \
                     {error}"
                ),
                known_sdks::behind_error(&error),
            ),
        ),
        Ok(result) => report.fail(
            NAME,
            format!(
                "expected JSON-RPC -32602 (invalid params) for an unknown prompt; it was \
                 answered: {}",
                result.json()
            ),
        ),
    }
}

async fn check_unknown_method(client: &McpClient, report: &mut Recorder) {
    const NAME: &str = "errors.unknown_method";
    match client
        .request("mcp-assured/no-such-method", json!({}))
        .await
    {
        Err(error) if error.code() == Some(code::METHOD_NOT_FOUND) => {
            // 2026-07-28 over HTTP: an unknown method, and the ones it removed, get 404.
            let over_http = speaks_2026(client) && client.target().starts_with("http");
            let problems = if over_http {
                revision_2026::methods_not_found_over_http(client).await
            } else {
                Vec::new()
            };
            if problems.is_empty() {
                report.pass(NAME, "refused with -32601 (method not found)");
            } else {
                report.broke(
                    NAME,
                    clauses::METHOD_NOT_FOUND_OVER_HTTP,
                    format!(
                        "expected HTTP 404 Not Found with -32601 for an unknown method and for \
                         each method 2026-07-28 removed; {}",
                        problems.join("; ")
                    ),
                );
            }
        }
        Err(error) if unanswered(&error) => report.broke(
            NAME,
            clauses::REPLY,
            format!("expected JSON-RPC -32601 (method not found); no answer: {error}"),
        ),
        Err(error) => report.fail(
            NAME,
            format!("expected JSON-RPC -32601 (method not found), got: {error}"),
        ),
        Ok(result) => report.broke(
            NAME,
            by(report.revision(), &clauses::JSON_RPC),
            format!(
                "expected JSON-RPC -32601 (method not found) for an unknown method, but it was \
                 answered with a result: {result}"
            ),
        ),
    }
}

async fn check_structured_output(
    client: &McpClient,
    tools: Option<&[Value]>,
    options: &CheckOptions,
    report: &mut Recorder,
) {
    const NAME: &str = "tools.structured_output";
    let with_schema: Vec<&Value> = tools
        .into_iter()
        .flatten()
        .filter(|tool| tool.get("outputSchema").is_some())
        .collect();
    let mut problems = Vec::new();
    let mut checked = Vec::new();
    for tool in with_schema {
        let name = tool["name"].as_str().unwrap_or_default();
        let Some(arguments) = options.tool_arguments.get(name) else {
            continue;
        };
        checked.push(name.to_owned());
        match client.call_tool(name, arguments.clone()).await {
            Ok(result) if result.is_error == Some(true) => {
                problems.push(format!(
                    "`{name}` failed with these arguments: {}",
                    result.text()
                ));
            }
            Ok(result) => match &result.structured_content {
                None => problems.push(format!(
                    "`{name}` has an outputSchema but returned no structuredContent"
                )),
                Some(structured) => {
                    let violations = crate::schema::violations(&tool["outputSchema"], structured);
                    if !violations.is_empty() {
                        let listed: Vec<String> =
                            violations.iter().map(ToString::to_string).collect();
                        problems.push(format!(
                            "`{name}`: structuredContent violates its outputSchema: {}",
                            listed.join("; ")
                        ));
                    }
                }
            },
            Err(error) => problems.push(format!("`{name}` failed: {error}")),
        }
    }
    if checked.is_empty() {
        report.skip(
            NAME,
            "no arguments given for a tool with an outputSchema (CheckOptions::tool_arguments)",
        );
    } else if problems.is_empty() {
        report.pass(NAME, format!("conforms: {}", checked.join(", ")));
    } else {
        report.fail(NAME, problems.join("; "));
    }
}

/// For each tool with required properties: without the first one, and with it of the wrong
/// type. Each must be refused (a JSON-RPC error or a tool error), in time, and the server
/// must still answer afterwards.
async fn check_invalid_arguments(
    client: &McpClient,
    tools: Option<&[Value]>,
    report: &mut Recorder,
) {
    const NAME: &str = "tools.invalid_arguments";
    let mut problems = Vec::new();
    let mut checked = 0;
    for tool in tools.into_iter().flatten() {
        let name = tool["name"].as_str().unwrap_or_default();
        let schema = &tool["inputSchema"];
        let Some(first) = schema["required"]
            .as_array()
            .and_then(|r| r.first())
            .and_then(Value::as_str)
        else {
            continue;
        };
        if is_test_tool(name) {
            continue;
        }
        checked += 1;
        let valid = valid_object(schema);
        let mut missing = valid.clone();
        if let Some(object) = missing.as_object_mut() {
            object.remove(first);
        }
        let mut wrong = valid;
        wrong[first] = wrong_type(&schema["properties"][first]);
        for (what, arguments) in [
            ("without required `", missing),
            ("with a wrong type for `", wrong),
        ] {
            // Refusing is a tool error or -32602 (invalid params); an internal error,
            // code 0 or a crash means the server did not validate.
            match client.call_tool(name, arguments.clone()).await {
                Ok(result) if result.is_error == Some(true) => {}
                Err(error) if error.code() == Some(code::INVALID_PARAMS) => {}
                Ok(_) => problems.push(format!("`{name}` accepted {arguments} ({what}{first}`)")),
                Err(error) => problems.push(noted(
                    format!(
                        "`{name}` {what}{first}` was not refused (a tool error or -32602) but \
                         failed: {error}"
                    ),
                    known_sdks::behind_error(&error),
                )),
            }
        }
    }
    if checked == 0 {
        report.skip(NAME, "no tool has a required argument");
        return;
    }
    if let Err(error) = alive(client).await {
        problems.push(format!("the server stopped answering afterwards: {error}"));
    }
    if problems.is_empty() {
        report.pass(
            NAME,
            format!("{checked} tool(s) refused a missing and a wrongly typed argument"),
        );
    } else {
        report.fail(NAME, problems.join("; "));
    }
}

/// The request got no JSON-RPC answer at all: a timeout, a crash, a dropped connection.
fn unanswered(error: &Error) -> bool {
    !matches!(error, Error::JsonRpc { .. })
}

/// A value of another type than the property asks for.
fn wrong_type(property: &Value) -> Value {
    match property.get("type").and_then(Value::as_str) {
        Some("string") => json!(12345),
        Some("number" | "integer") => json!("not a number"),
        Some("boolean") => json!("not a boolean"),
        Some("array") => json!("not an array"),
        Some("object") => json!("not an object"),
        _ => json!({"mcp-assured": "unexpected object"}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `CHECKS` spells out the names each module knows: they must not drift apart.
    #[test]
    fn checks_end_with_each_modules_names_in_order() {
        let tail = [
            REVISION_2026_CHECKS.as_slice(),
            HTTP_TRANSPORT_CHECKS.as_slice(),
            AUTH_CHECKS.as_slice(),
            &[wire::NAME],
        ]
        .concat();
        assert_eq!(CHECKS[CHECKS.len() - tail.len()..], tail[..]);
        let unique: HashSet<&str> = CHECKS.into_iter().collect();
        assert_eq!(unique.len(), CHECKS.len());
    }
}
