//! [`FaultServer`]: an rmcp server whose tools misbehave on request.
#![expect(
    deprecated,
    reason = "MCP logging is deprecated by SEP-2577 but still part of 2025-11-25, which clients speak"
)]

use std::{
    fmt,
    sync::{
        Arc, Mutex, Weak,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use rmcp::{
    ErrorData, Peer, RoleServer, ServerHandler,
    handler::server::{router::tool::ToolRouter, wrapper::Parameters},
    model::{
        CompleteRequestMethod, CompleteRequestParams, CompleteResult, DiscoverResult, ErrorCode,
        Implementation, InitializeRequestParams, InitializeResult, ListPromptsRequestMethod,
        ListPromptsResult, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
        ListResourcesRequestMethod, ListResourcesResult, LoggingLevel,
        LoggingMessageNotificationParam, PaginatedRequestParams, ServerCapabilities, ServerConfig,
        SetLevelRequestParams,
    },
    service::RequestContext,
    tool, tool_handler, tool_router,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use tokio::sync::oneshot;

use super::{Fault, LEAK_PER_SESSION, SWAP_WINDOW};

/// The largest answer `huge` sends, so a typo cannot exhaust memory.
const HUGE_LIMIT: usize = 64 * 1024 * 1024;

/// An MCP server whose tools misbehave on request.
///
/// | tool | does |
/// | --- | --- |
/// | `echo {text}` | answers `text` |
/// | `huge {bytes}` | answers a text of `bytes` bytes (`x` repeated) |
/// | `flood {count, logger?}` | sends `count` `notifications/message` (from `logger`, `flood` by default), then answers `sent <count>` |
/// | `odd_error` | answers JSON-RPC error `-32099` whose `data` is [`FaultServer::odd_data`] |
/// | `hang` | never answers; counts the call when it is cancelled |
/// | `cancelled_calls` | answers how many `hang` calls were cancelled so far |
/// | `crash {code}` | writes a line to stderr and exits the process |
///
/// Clones share the cancellation count. [`FaultServer::with_fault`] makes the handshake or
/// the process misbehave too.
#[derive(Clone)]
pub struct FaultServer {
    tool_router: ToolRouter<FaultServer>,
    state: Arc<State>,
}

#[derive(Debug, Default)]
struct State {
    cancelled_calls: AtomicU64,
    /// [`Fault::CrashOnInitialize`], [`Fault::HangOnInitialize`],
    /// [`Fault::CrashBetweenCalls`], [`Fault::SwapAnswers`] or [`Fault::LeakPerSession`];
    /// any other fault is not the handler's business.
    fault: Option<Fault>,
    crashing: AtomicBool,
    /// [`Fault::SwapAnswers`]: the `echo` in flight waiting for a partner, its text and
    /// where to send the partner's.
    waiting: Mutex<Option<Waiting>>,
    next_waiting: AtomicU64,
    /// [`Fault::LeakPerSession`]: what every `initialize` kept.
    leaked: Mutex<Vec<Vec<u8>>>,
}

/// An `echo` of [`Fault::SwapAnswers`] waiting for another to swap answers with.
#[derive(Debug)]
struct Waiting {
    id: u64,
    text: String,
    answer: oneshot::Sender<String>,
}

/// Tells whether every clone of a [`FaultServer`] is gone: the task serving it ended.
#[derive(Debug, Clone)]
pub struct Dropped(Weak<State>);

impl Dropped {
    /// Whether no clone of the server is left.
    pub fn is_dropped(&self) -> bool {
        self.0.strong_count() == 0
    }
}

impl fmt::Debug for FaultServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FaultServer")
            .field("state", &self.state)
            .finish_non_exhaustive()
    }
}

impl Default for FaultServer {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct EchoArgs {
    /// The text to send back.
    text: String,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct HugeArgs {
    /// How many bytes of text to answer with (at most 64 MiB).
    bytes: usize,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct FloodArgs {
    /// How many notifications to send before answering.
    count: u32,
    /// Their logger; `flood` if not given.
    logger: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CrashArgs {
    /// The exit status.
    code: i32,
}

impl FaultServer {
    /// The `data` of the `odd_error` tool's error: nesting, nulls, an empty key, control and
    /// non-ASCII characters, a float at the edge of the range, and HTML.
    pub fn odd_data() -> Value {
        json!({
            "": [null, [], {}, [[[["deep"]]]]],
            "control": "tab\tnewline\nnul\u{0}bell\u{7}",
            "unicode": "ünïcödé ✓ 🦀 \u{202e}reversed",
            "number": 1.7976931348623157e308,
            "html": "<script>alert(1)</script>",
        })
    }

    /// A server that behaves until a tool is asked to misbehave.
    pub fn new() -> Self {
        Self {
            tool_router: Self::tool_router(),
            state: Arc::default(),
        }
    }

    /// A server that misbehaves as `fault` says, where a handler can:
    /// - [`Fault::CrashOnInitialize`]: exits the process (status 3, after a line on stderr)
    ///   while handling `initialize`, on every transport;
    /// - [`Fault::HangOnInitialize`]: never answers `initialize`;
    /// - [`Fault::CrashBetweenCalls`]: exits (status 4) 100 ms after it answered its first
    ///   `tools/call`, a crash while the client is idle;
    /// - [`Fault::SwapAnswers`]: two `echo` calls in flight get each other's text;
    /// - [`Fault::LeakPerSession`]: each `initialize` (and `server/discover`, what opens a
    ///   connection on 2026-07-28) keeps [`LEAK_PER_SESSION`] bytes.
    ///
    /// Other faults are injected below the handler and leave it behaving. The crashes exit
    /// the whole process: only for the `fault-server` binary.
    #[must_use]
    pub fn with_fault(fault: Fault) -> Self {
        let handled = matches!(
            fault,
            Fault::CrashOnInitialize
                | Fault::HangOnInitialize
                | Fault::CrashBetweenCalls
                | Fault::SwapAnswers
                | Fault::LeakPerSession
        );
        Self {
            tool_router: Self::tool_router(),
            state: Arc::new(State {
                fault: handled.then_some(fault),
                ..State::default()
            }),
        }
    }

    /// Watches this server: [`Dropped::is_dropped`] once it and all its clones are gone.
    pub fn dropped(&self) -> Dropped {
        Dropped(Arc::downgrade(&self.state))
    }

    /// [`Fault::SwapAnswers`]: the text of another `echo` in flight, which gets `text`; or
    /// `text` when none comes within [`SWAP_WINDOW`].
    async fn swapped(&self, text: String) -> String {
        let (answer, mut swapped) = oneshot::channel();
        let id = self.state.next_waiting.fetch_add(1, Ordering::SeqCst);
        {
            let mut waiting = self.state.waiting.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(partner) = waiting.take() {
                // Sent under the lock, so the partner finds it once it holds the lock.
                let _ = partner.answer.send(text);
                return partner.text;
            }
            *waiting = Some(Waiting {
                id,
                text: text.clone(),
                answer,
            });
        }
        if let Ok(Ok(other)) = tokio::time::timeout(SWAP_WINDOW, &mut swapped).await {
            return other;
        }
        let mut waiting = self.state.waiting.lock().unwrap_or_else(|p| p.into_inner());
        if waiting.as_ref().is_some_and(|mine| mine.id == id) {
            *waiting = None;
            return text;
        }
        // A partner took this call after the window closed: it has sent its text.
        swapped.try_recv().unwrap_or(text)
    }

    /// [`Fault::LeakPerSession`]: keeps [`LEAK_PER_SESSION`] bytes for good, written to so
    /// that they are resident.
    fn leak(&self) {
        self.state
            .leaked
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(vec![0x5a; LEAK_PER_SESSION]);
    }

    fn after_call(&self) {
        if self.state.fault == Some(Fault::CrashBetweenCalls)
            && !self.state.crashing.swap(true, Ordering::SeqCst)
        {
            std::thread::spawn(|| {
                std::thread::sleep(Duration::from_millis(100));
                eprintln!("fault-server: crashing between calls (code 4)");
                std::process::exit(4);
            });
        }
    }
}

#[tool_router]
impl FaultServer {
    #[tool(description = "Answers `text` unchanged.")]
    async fn echo(&self, Parameters(EchoArgs { text }): Parameters<EchoArgs>) -> String {
        self.after_call();
        if self.state.fault == Some(Fault::SwapAnswers) {
            return self.swapped(text).await;
        }
        text
    }

    #[tool(description = "Answers a text of `bytes` bytes.")]
    fn huge(
        &self,
        Parameters(HugeArgs { bytes }): Parameters<HugeArgs>,
    ) -> Result<String, ErrorData> {
        if bytes > HUGE_LIMIT {
            return Err(ErrorData::invalid_params(
                format!("at most {HUGE_LIMIT} bytes"),
                None,
            ));
        }
        self.after_call();
        Ok("x".repeat(bytes))
    }

    #[tool(description = "Sends `count` notifications/message, then answers `sent <count>`.")]
    async fn flood(
        &self,
        Parameters(FloodArgs { count, logger }): Parameters<FloodArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        let logger = logger.as_deref().unwrap_or("flood");
        for index in 0..count {
            let message =
                LoggingMessageNotificationParam::new(LoggingLevel::Info, json!({"flood": index}))
                    .with_logger(logger);
            peer.notify_logging_message(message)
                .await
                .map_err(|error| {
                    ErrorData::internal_error(format!("notification {index} failed: {error}"), None)
                })?;
        }
        self.after_call();
        Ok(format!("sent {count}"))
    }

    #[tool(description = "Answers JSON-RPC error -32099 with odd `data`.")]
    fn odd_error(&self) -> Result<String, ErrorData> {
        Err(ErrorData::new(
            ErrorCode(-32099),
            "odd error: see data",
            Some(Self::odd_data()),
        ))
    }

    #[tool(description = "Never answers; counts the call once it is cancelled.")]
    async fn hang(&self, cancellation: CancellationToken) -> String {
        cancellation.cancelled().await;
        self.state.cancelled_calls.fetch_add(1, Ordering::SeqCst);
        "cancelled".to_owned()
    }

    #[tool(description = "Answers how many `hang` calls were cancelled so far.")]
    fn cancelled_calls(&self) -> String {
        self.state
            .cancelled_calls
            .load(Ordering::SeqCst)
            .to_string()
    }

    #[tool(
        description = "Writes `fault-server: crashing on purpose (code <code>)` to stderr \
                          and exits the process with `code`, without answering."
    )]
    fn crash(&self, Parameters(CrashArgs { code }): Parameters<CrashArgs>) -> String {
        eprintln!("fault-server: crashing on purpose (code {code})");
        std::process::exit(code)
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for FaultServer {
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        match self.state.fault {
            Some(Fault::CrashOnInitialize) => {
                eprintln!("fault-server: crashing during initialize (code 3)");
                std::process::exit(3);
            }
            Some(Fault::HangOnInitialize) => std::future::pending().await,
            Some(Fault::LeakPerSession) => {
                self.leak();
                context.peer.set_peer_info(request.clone());
                self.negotiate_initialize(&request)
            }
            _ => {
                context.peer.set_peer_info(request.clone());
                self.negotiate_initialize(&request)
            }
        }
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, ErrorData> {
        if self.state.fault == Some(Fault::LeakPerSession) {
            self.leak();
        }
        Ok(DiscoverResult::from_server_info(
            self.supported_protocol_versions().into_owned(),
            self.get_info(),
        ))
    }

    // What it advertises works, and what it does not is refused with -32601 (rmcp's
    // defaults answer empty lists and completions): apart from its faults, a server that
    // passes every protocol check.

    async fn set_level(
        &self,
        _request: SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        Ok(())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Err(ErrorData::method_not_found::<CompleteRequestMethod>())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListResourcesRequestMethod>())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Err(ErrorData::method_not_found::<
            ListResourceTemplatesRequestMethod,
        >())
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_logging()
                .build(),
        )
        .with_server_info(Implementation::new(
            "fault-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }
}
