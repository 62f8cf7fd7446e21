//! The client: [`McpClient`] and everything it needs to talk to a server.

// Sampling, roots and logging are deprecated by SEP-2577 (protocol 2026-07-28), but servers
// on 2025-11-25 and earlier use them, and a harness must test what servers do.
#![allow(deprecated)]

mod builder;
mod by_hand;
mod connect;
mod covering;
mod failure;
mod handler;
pub(crate) mod input_required;
mod lifecycle;
mod listed_tools;
mod notifications;
mod pending;
mod proxy;
mod recording;
pub(crate) mod server_requests;
mod stray;
mod subscription;
mod taping;
mod tasks;
#[cfg(feature = "schema")]
mod wire_schema;

use std::{sync::Arc, time::Duration};

use rmcp::{
    RoleClient,
    model::ArgumentInfo,
    model::{
        CallToolRequestParams, ClientNotification, ClientRequest, CompleteRequestParams,
        CompleteResult, CustomNotification, CustomRequest, GetPromptRequestParams, JsonObject,
        ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        LoggingLevel, PaginatedRequestParams, Prompt, ReadResourceRequestParams, Reference,
        Request, RequestNoParam, RequestOptionalParam, Resource, ResourceTemplate, Root,
        ServerCapabilities, SetLevelRequestParams, SubscribeRequestParams, Tool,
        UnsubscribeRequestParams,
    },
    service::{Peer, PeerRequestOptions},
};
use serde::Serialize;
use serde_json::Value;
use tokio::sync::Mutex;

pub use self::{
    builder::{ClientBuilder, DEFAULT_STARTUP_TIMEOUT, DEFAULT_TIMEOUT, McpAssured},
    lifecycle::DEFAULT_DISCOVER_TIMEOUT,
    pending::{FromServerResult, PendingRequest},
    server_requests::{IntoAnswer, ServerRequest, elicitation_defaults},
    subscription::{Subscription, Subscriptions},
};
use self::{
    connect::{Connection, Reconnect},
    handler::Harness,
    listed_tools::Listing,
};
use crate::{
    error::{Error, Result},
    results::listed::{Listed, ListedItem},
    results::sent::Sent,
    results::wire::{Member, Wire},
    results::{
        mcp::{PromptResult, ResourceResult, ToolResult},
        notification::{LOG_MESSAGE, LogMessage, Notification, PROGRESS, Progress},
    },
    schema::Violation,
    transport::diagnostics::Diagnostics,
};

/// A guard against servers whose cursors never end.
const MAX_PAGES: usize = 10_000;

/// What the server said about itself in its `initialize` result.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerInfo {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// `serverInfo.title`, if given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The protocol version the server chose.
    pub protocol_version: String,
    /// What the server offers.
    #[cfg_attr(
        feature = "json-schema",
        schemars(with = "serde_json::Map<String, serde_json::Value>")
    )]
    pub capabilities: ServerCapabilities,
    /// The server's instructions for clients, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
}

/// A connected, initialized MCP client.
///
/// Built by [`McpAssured::client()`]. Every method returns plain values; nothing needs a
/// callback. Cloning is cheap and clones share the session; [`with_timeout`](Self::with_timeout)
/// gives a clone with another per-request limit.
///
/// ```no_run
/// # async fn demo() -> mcp_assured::Result<()> {
/// use mcp_assured::McpAssured;
/// use serde_json::json;
///
/// let client = McpAssured::client().command("my-server").build().await?;
/// let tools = client.list_tools().await?;
/// let result = client.call_tool("weather", json!({"city": "London"})).await?;
/// assert_eq!(result.is_error, Some(false));
/// client.close().await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct McpClient {
    shared: Arc<Shared>,
    timeout: Duration,
    /// With progress notifications, a request's timeout starts again at each one, up to
    /// this in all (rmcp's `reset_timeout_on_progress` and `max_total_timeout`).
    progress_cap: Option<Duration>,
}

#[derive(Debug)]
struct Shared {
    peer: Peer<RoleClient>,
    harness: Harness,
    diagnostics: Arc<Diagnostics>,
    server_info: ServerInfo,
    target: String,
    process_id: Option<u32>,
    /// The server's answer to `server/discover`, on 2026-07-28.
    discovered: Option<rmcp::model::DiscoverResult>,
    /// `capabilities` as the server sent them in its `initialize` or `server/discover` result.
    capabilities_as_sent: Value,
    /// Taken by `close()`; dropping it (with the last clone) also ends the session.
    connection: Mutex<Option<Connection>>,
    /// How [`McpClient::reconnect`] opens the same server again; `None` in process.
    reconnect: Option<Reconnect>,
}

impl McpClient {
    fn new(
        connection: Connection,
        harness: Harness,
        timeout: Duration,
        reconnect: Option<Reconnect>,
    ) -> Self {
        let peer = connection.running.peer().clone();
        let info = peer.peer_info();
        let server_info = match info.as_deref() {
            Some(info) => ServerInfo {
                name: info
                    .server_info
                    .as_ref()
                    .map(|i| i.name.clone())
                    .unwrap_or_default(),
                version: info
                    .server_info
                    .as_ref()
                    .map(|i| i.version.clone())
                    .unwrap_or_default(),
                title: info.server_info.as_ref().and_then(|i| i.title.clone()),
                protocol_version: info.protocol_version.to_string(),
                capabilities: info.capabilities.clone(),
                instructions: info.instructions.clone(),
            },
            None => ServerInfo {
                name: String::new(),
                version: String::new(),
                title: None,
                protocol_version: String::new(),
                capabilities: ServerCapabilities::default(),
                instructions: None,
            },
        };
        let capabilities_as_sent = capabilities_as_sent(&harness, &server_info);
        McpClient {
            shared: Arc::new(Shared {
                peer,
                harness,
                diagnostics: connection.diagnostics.clone(),
                server_info,
                target: connection.target.clone(),
                process_id: connection.owned.process_id(),
                discovered: connection.discovered.clone(),
                capabilities_as_sent,
                connection: Mutex::new(Some(connection)),
                reconnect,
            }),
            timeout,
            progress_cap: None,
        }
    }

    /// A new session with the same server, opened as this one was: a stdio server is
    /// started again, an HTTP server connected to again, with the same credentials, answers
    /// and protocol choice; this session is left as it is (close it when done). What a
    /// fuzz run does after the server crashed.
    ///
    /// Fails with [`Error::InvalidInput`] for an in-process server (it runs once), and as
    /// [`ClientBuilder::build`] fails when the server cannot be reached again.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::McpAssured;
    /// use mcp_assured_examples::ExampleServer;
    ///
    /// let in_process = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// assert!(in_process.reconnect().await.is_err());
    /// # Ok(()) }
    /// ```
    pub async fn reconnect(&self) -> Result<McpClient> {
        let Some(reconnect) = &self.shared.reconnect else {
            return Err(Error::invalid(
                "reconnect",
                format!(
                    "{} runs in this process and cannot be started again; \
                     use a stdio command or an HTTP address to restart the server",
                    self.shared.target
                ),
            ));
        };
        let (connection, harness, next) = reconnect.open().await?;
        Ok(McpClient::new(
            connection,
            harness,
            self.timeout,
            Some(next),
        ))
    }

    // ----- the session -------------------------------------------------------------------

    /// The server's `initialize` result: name, version, protocol version, capabilities,
    /// instructions.
    pub fn server_info(&self) -> &ServerInfo {
        &self.shared.server_info
    }

    /// The server's `capabilities`, exactly as it sent them in its `initialize` (or
    /// `server/discover`) result. [`server_info`](Self::server_info) holds rmcp's decoding,
    /// which drops what rmcp does not model (2025-11-25's `tasks`, say).
    pub fn server_capabilities(&self) -> &Value {
        &self.shared.capabilities_as_sent
    }

    /// The protocol revision the connection speaks: the one the server chose in
    /// `initialize`, or on 2026-07-28 the one agreed by `server/discover`.
    pub fn protocol_version(&self) -> &str {
        &self.shared.server_info.protocol_version
    }

    /// Opens `subscriptions/listen` (protocol 2026-07-28) for `what`, and waits for the
    /// server's acknowledgment.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// use mcp_assured::Subscriptions;
    /// let mut changes = client.listen(Subscriptions::new().tools()).await?;
    /// client.call_tool("install_plugin", serde_json::json!({})).await?;
    /// let changed = changes.next().await?.expect("a notification");
    /// assert_eq!(changed.method, "notifications/tools/list_changed");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Transport`] (or a JSON-RPC error) when the server refuses or cannot be
    /// reached; on an older revision the method does not exist.
    pub async fn listen(&self, what: Subscriptions) -> Result<Subscription> {
        let listening =
            tokio::time::timeout(self.timeout, self.shared.peer.listen(what.into_filter()));
        match listening.await {
            Ok(Ok(subscription)) => Ok(Subscription::new(subscription, self.timeout)),
            Ok(Err(error)) => {
                Err(
                    failure::request_failed(error, "subscriptions/listen", self.diagnostics())
                        .await,
                )
            }
            Err(_) => Err(Error::Timeout {
                method: "subscriptions/listen".to_owned(),
                timeout: self.timeout,
                stderr_tail: self.stderr_tail(),
            }),
        }
    }

    /// What the server answered to `server/discover` (its `supportedVersions`, capabilities
    /// and instructions), when the connection speaks 2026-07-28; `None` after `initialize`.
    pub fn discovery(&self) -> Option<&rmcp::model::DiscoverResult> {
        self.shared.discovered.as_ref()
    }

    /// The URL or command line of the server, for messages.
    pub fn target(&self) -> &str {
        &self.shared.target
    }

    /// The process id of a stdio server the client started (`None` for other transports).
    pub fn process_id(&self) -> Option<u32> {
        self.shared.process_id
    }

    /// How the server is reached again, for reproductions: a stdio server's command line
    /// (program first) or an HTTP server's URL; `None` for a server in this process.
    #[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
    pub(crate) fn reached_by(&self) -> Option<crate::transport::Reached> {
        self.shared
            .reconnect
            .as_ref()
            .map(|reconnect| reconnect.target.reached_by())
    }

    /// The per-request timeout of this handle.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// A handle to the same session whose requests may take `timeout` instead.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// use std::time::Duration;
    /// use serde_json::json;
    /// let slow = client.with_timeout(Duration::from_secs(120));
    /// slow.call_tool("build_index", json!({})).await?;
    /// # Ok(()) }
    /// ```
    pub fn with_timeout(&self, timeout: Duration) -> McpClient {
        McpClient {
            shared: self.shared.clone(),
            timeout,
            progress_cap: self.progress_cap,
        }
    }

    /// A handle whose requests wait their timeout again after each progress notification
    /// about them, up to `cap` in all: a slow request that says it is getting on is not
    /// taken for one that hangs (the fuzzer's calls).
    #[cfg(feature = "fuzz")]
    pub(crate) fn waiting_on_progress(&self, cap: Duration) -> McpClient {
        McpClient {
            shared: self.shared.clone(),
            timeout: self.timeout,
            progress_cap: Some(cap.max(self.timeout)),
        }
    }

    /// How many progress notifications came about the request that sent `token`.
    #[cfg(any(feature = "fuzz", feature = "checks"))]
    pub(crate) fn progress_seen(&self, token: &rmcp::model::ProgressToken) -> usize {
        let token = serde_json::to_value(token).unwrap_or(Value::Null);
        self.shared
            .harness
            .state
            .notifications
            .count(|notification| {
                notification.method == "notifications/progress"
                    && notification.params.get("progressToken") == Some(&token)
            })
    }

    /// Sends any request and returns it in flight (see [`request`](Self::request)).
    #[cfg(feature = "fuzz")]
    pub(crate) async fn start_request(
        &self,
        method: &str,
        params: Value,
    ) -> Result<PendingRequest<Value>> {
        let params = match params {
            Value::Null => None,
            other => Some(other),
        };
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        self.start(request, method, "").await
    }

    /// The last lines a stdio server wrote to stderr (`None` for other transports or if it
    /// wrote nothing).
    pub fn stderr_tail(&self) -> Option<String> {
        self.shared.diagnostics.stderr_tail()
    }

    /// Whether the connection has ended (the server exited or hung up, or `close` ran).
    pub fn is_closed(&self) -> bool {
        self.shared.peer.is_transport_closed()
    }

    /// Ends the session: closes the transport, then stops the server if the client started
    /// it (a child process gets a grace period to exit, then is killed and reaped), then
    /// writes the cassette of [`record_to`](ClientBuilder::record_to) and the coverage
    /// record of [`coverage_to`](ClientBuilder::coverage_to) (listing first what the
    /// session did not list to the last page).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] naming the cassette's file, or the coverage record, when it
    /// cannot be written.
    pub async fn close(self) -> Result<()> {
        self.list_the_rest_for_coverage().await;
        let connection = self.shared.connection.lock().await.take();
        if let Some(mut connection) = connection {
            let _ = connection
                .running
                .close_with_timeout(Duration::from_secs(5))
                .await;
            connection.owned.shutdown().await;
            if let Some(tape) = &connection.tape {
                tape.flush()
                    .map_err(|error| Error::invalid("cassette", error.to_string()))?;
            }
            if let Some(coverage) = &connection.coverage {
                coverage.write().map_err(|error| {
                    Error::invalid("coverage", format!("the record cannot be written: {error}"))
                })?;
            }
        }
        Ok(())
    }

    pub(crate) fn diagnostics(&self) -> &Arc<Diagnostics> {
        &self.shared.diagnostics
    }

    // ----- requests ------------------------------------------------------------------------

    /// Sends a request and returns it in flight.
    async fn start<T: FromServerResult>(
        &self,
        request: ClientRequest,
        method: &str,
        subject: &str,
    ) -> Result<PendingRequest<T>> {
        let method = if subject.is_empty() {
            method.to_owned()
        } else {
            // Joined, not `format!`ted: several times cheaper, on every request.
            [method, subject].join(" ")
        };
        let kept = input_required::may_ask_for_input(&request).then(|| request.clone());
        match self.send_request(request).await {
            Ok(handle) => Ok(PendingRequest::new(
                handle,
                kept,
                method,
                subject.to_owned(),
                self.clone(),
            )),
            // Boxed, as every path that fails: its future is not moved with every request's.
            Err(error) => {
                Err(Box::pin(failure::request_failed(error, &method, self.diagnostics())).await)
            }
        }
    }

    /// Sends `request` with the client's timeout.
    pub(crate) async fn send_request(
        &self,
        request: ClientRequest,
    ) -> Result<rmcp::service::RequestHandle<RoleClient>, rmcp::ServiceError> {
        let mut options = PeerRequestOptions::with_timeout(self.timeout);
        if let Some(cap) = self.progress_cap {
            options.reset_timeout_on_progress = true;
            options.max_total_timeout = Some(cap);
        }
        self.shared
            .peer
            .send_cancellable_request(request, options)
            .await
    }

    pub(crate) fn harness(&self) -> &Harness {
        &self.shared.harness
    }

    async fn send<T: FromServerResult>(
        &self,
        request: ClientRequest,
        method: &str,
        subject: &str,
    ) -> Result<T> {
        self.start(request, method, subject).await?.result().await
    }

    /// Sends any request and returns the result as JSON, exactly as the server sent it: the
    /// escape hatch for methods this client has no typed call for.
    pub async fn request(&self, method: &str, params: Value) -> Result<Value> {
        let params = match params {
            Value::Null => None,
            other => Some(other),
        };
        let request = ClientRequest::CustomRequest(CustomRequest::new(method, params));
        self.send(request, method, "").await
    }

    /// [`request`](Self::request) by another name, kept for the tests that use it: both
    /// return the result exactly as the server sent it (fields the protocol's schema does
    /// not name, a tool's `testMetadata` say, are kept; numbers are as written), over every
    /// transport, a plain JSON body over streamable HTTP included.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// let page = client.request_raw("tools/list", serde_json::json!({})).await?;
    /// let metadata = &page["tools"][0]["testMetadata"];
    /// # Ok(()) }
    /// ```
    pub async fn request_raw(&self, method: &str, params: Value) -> Result<Value> {
        self.request(method, params).await
    }

    /// `tools/list` through every page, each tool exactly as the server sent it (see
    /// [`request_raw`](Self::request_raw)).
    pub async fn list_tools_json(&self) -> Result<Vec<Value>> {
        let mut tools = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen_cursors = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let params = match &cursor {
                Some(cursor) => serde_json::json!({ "cursor": cursor }),
                None => serde_json::json!({}),
            };
            let mut page = self.request_raw("tools/list", params).await?;
            if let Some(Value::Array(items)) = page.get_mut("tools").map(Value::take) {
                tools.extend(items);
            }
            match page.get("nextCursor").and_then(Value::as_str) {
                Some(next) if seen_cursors.insert(next.to_owned()) => {
                    cursor = Some(next.to_owned())
                }
                Some(next) => {
                    return Err(Error::UnexpectedResponse {
                        method: "tools/list".into(),
                        detail: format!(
                            "the server sent the cursor {next:?} twice: its pages loop"
                        ),
                    });
                }
                None => return Ok(tools),
            }
        }
        Err(Error::UnexpectedResponse {
            method: "tools/list".into(),
            detail: format!("more than {MAX_PAGES} pages"),
        })
    }

    /// Sends any notification to the server.
    pub async fn notify(&self, method: &str, params: Value) -> Result<()> {
        let params = match params {
            Value::Null => None,
            other => Some(other),
        };
        let notification =
            ClientNotification::CustomNotification(CustomNotification::new(method, params));
        match self.shared.peer.send_notification(notification).await {
            Ok(()) => Ok(()),
            Err(error) => Err(failure::request_failed(error, method, self.diagnostics()).await),
        }
    }

    /// Whether the server still answers: `ping`, or on protocol 2026-07-28, which removed
    /// `ping`, `server/discover` (the one request that revision answers without a
    /// capability), so that a test of liveness works on either revision.
    pub async fn ping(&self) -> Result<()> {
        if self.discovery().is_some() {
            return self
                .request("server/discover", serde_json::json!({}))
                .await
                .map(drop);
        }
        let request = ClientRequest::PingRequest(RequestNoParam {
            method: Default::default(),
            extensions: Default::default(),
        });
        self.send(request, "ping", "").await
    }

    /// `logging/setLevel`.
    pub async fn set_logging_level(&self, level: LoggingLevel) -> Result<()> {
        let request =
            ClientRequest::SetLevelRequest(Request::new(SetLevelRequestParams::new(level)));
        self.send(request, "logging/setLevel", "").await
    }

    // ----- tools ---------------------------------------------------------------------------

    /// `tools/list`, following `nextCursor` through every page. Always asks the server; the
    /// client keeps the answer for [`argument_violations`](Self::argument_violations) and
    /// [`listed_tool`](Self::listed_tool).
    pub async fn list_tools(&self) -> Result<Listed<Tool>> {
        Ok(self.list_and_keep_tools().await?.0)
    }

    async fn list_and_keep_tools(&self) -> Result<(Listed<Tool>, Arc<Listing>)> {
        let listed = &self.shared.harness.state.listed_tools;
        let stamp = listed.stamp();
        let tools = self
            .all_pages(
                "tools/list",
                |c| ClientRequest::ListToolsRequest(paginated(c)),
                |r: ListToolsResult| (r.tools, r.next_cursor),
            )
            .await?;
        let listing = listed.keep(stamp, tools.to_vec());
        Ok((tools, listing))
    }

    /// One page of `tools/list`; pass the previous page's `next_cursor` to get the next.
    pub async fn list_tools_page(&self, cursor: Option<String>) -> Result<Sent<ListToolsResult>> {
        let request = ClientRequest::ListToolsRequest(paginated(cursor));
        self.send(request, "tools/list", "").await
    }

    /// The tool named `name`, from `tools/list`; [`Error::NotFound`] lists the names offered.
    pub async fn tool(&self, name: &str) -> Result<Tool> {
        let tools = self.list_tools().await?;
        let names = tools.iter().map(|t| t.name.to_string()).collect();
        tools
            .into_iter()
            .find(|t| t.name == name)
            .ok_or_else(|| not_found("tool", name, names))
    }

    /// Alias of [`tool`](Self::tool), under the name the MCP client contract's tests use
    /// (`client.getTool("weather-api")`): the tool from a fresh `tools/list`, so its metadata
    /// is the server's now. [`listed_tool`](Self::listed_tool) spares the request.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::McpAssured;
    /// use mcp_assured_examples::ExampleServer;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// let weather = client.get_tool("weather").await?;
    /// assert_eq!(weather.input_schema["required"], serde_json::json!(["city"]));
    /// client.close().await?;
    /// # Ok(()) }
    /// ```
    pub async fn get_tool(&self, name: &str) -> Result<Tool> {
        self.tool(name).await
    }

    /// `tools/call`. `arguments` is a JSON object (or `null` for none).
    ///
    /// A tool that reports failure (`isError: true`) is an `Ok` result; a JSON-RPC error
    /// answer is [`Error::JsonRpc`]. Servers differ on which they use for an unknown tool or
    /// bad arguments (rmcp: `-32602`; the TypeScript and Python SDKs: an `isError` result);
    /// the client reports what the server sent.
    pub async fn call_tool(&self, name: &str, arguments: Value) -> Result<ToolResult> {
        self.start_call_tool(name, arguments).await?.result().await
    }

    /// The tool named `name` as the client last listed it: no request when the tools held
    /// include it and the server has not sent `notifications/tools/list_changed` since;
    /// otherwise `tools/list` is sent once more. [`Error::NotFound`] lists the names offered.
    /// [`tool`](Self::tool) always asks the server.
    pub async fn listed_tool(&self, name: &str) -> Result<Tool> {
        let (listing, index) = self.find_listed_tool(name).await?;
        Ok(listing.tool(index).clone())
    }

    /// Every violation of tool `name`'s `inputSchema` by `arguments` (empty when they
    /// conform), checked against the tool as [`listed_tool`](Self::listed_tool) finds it. The
    /// schema is compiled once per listing, so checking many calls costs little.
    /// [`Error::NotFound`] when the server does not list the tool. Needs the `schema` feature
    /// (without it, the one violation says so).
    ///
    #[cfg_attr(feature = "schema", doc = "```")]
    #[cfg_attr(not(feature = "schema"), doc = "```ignore")]
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::McpAssured;
    /// use mcp_assured_examples::ExampleServer;
    /// use serde_json::json;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// assert!(client.argument_violations("add", &json!({"a": 1, "b": 2})).await?.is_empty());
    ///
    /// let wrong = client.argument_violations("add", &json!({"a": "one", "b": 2})).await?;
    /// assert_eq!(wrong.len(), 1);
    /// assert_eq!(wrong[0].path, "/a");
    ///
    /// // Sent anyway, to see how the server copes.
    /// let result = client.call_tool("add", json!({"a": "one", "b": 2})).await?;
    /// assert_eq!(result.is_error, Some(true));
    /// client.close().await?;
    /// # Ok(()) }
    /// ```
    pub async fn argument_violations(
        &self,
        name: &str,
        arguments: &Value,
    ) -> Result<Vec<Violation>> {
        let (listing, index) = self.find_listed_tool(name).await?;
        Ok(listing.violations(index, arguments))
    }

    /// The tools held and where `name` is in them, listed again if it is not there.
    async fn find_listed_tool(&self, name: &str) -> Result<(Arc<Listing>, usize)> {
        let held = self.shared.harness.state.listed_tools.current();
        if let Some(listing) = held
            && let Some(index) = listing.position(name)
        {
            return Ok((listing, index));
        }
        let (_, listing) = self.list_and_keep_tools().await?;
        match listing.position(name) {
            Some(index) => Ok((listing, index)),
            None => Err(not_found("tool", name, listing.names())),
        }
    }

    /// `tools/call`, after checking `arguments` against the tool's `inputSchema` (see
    /// [`argument_violations`](Self::argument_violations)): arguments that break it are an
    /// [`Error::InvalidInput`] listing every violation, and nothing is sent.
    pub async fn call_tool_checked(&self, name: &str, arguments: Value) -> Result<ToolResult> {
        let violations = self.argument_violations(name, &arguments).await?;
        if !violations.is_empty() {
            return Err(Error::invalid(
                format!("arguments for tool `{name}`"),
                format!(
                    "they break its input schema:\n{}",
                    crate::schema::describe(&violations)
                ),
            ));
        }
        self.call_tool(name, arguments).await
    }

    /// Starts `tools/call` and returns it in flight, to watch its progress or cancel it.
    pub async fn start_call_tool(
        &self,
        name: &str,
        arguments: Value,
    ) -> Result<PendingRequest<ToolResult>> {
        let mut params = CallToolRequestParams::new(name.to_owned());
        params.arguments = object_or_none(arguments, "tool arguments")?;
        let request = ClientRequest::CallToolRequest(Request::new(params));
        self.start(request, "tools/call", name).await
    }

    // ----- resources -----------------------------------------------------------------------

    /// `resources/list`, following `nextCursor` through every page.
    pub async fn list_resources(&self) -> Result<Listed<Resource>> {
        self.all_pages(
            "resources/list",
            |c| ClientRequest::ListResourcesRequest(paginated(c)),
            |r: ListResourcesResult| (r.resources, r.next_cursor),
        )
        .await
    }

    /// One page of `resources/list`.
    pub async fn list_resources_page(
        &self,
        cursor: Option<String>,
    ) -> Result<Sent<ListResourcesResult>> {
        let request = ClientRequest::ListResourcesRequest(paginated(cursor));
        self.send(request, "resources/list", "").await
    }

    /// `resources/templates/list`, following `nextCursor` through every page.
    pub async fn list_resource_templates(&self) -> Result<Listed<ResourceTemplate>> {
        self.all_pages(
            "resources/templates/list",
            |c| ClientRequest::ListResourceTemplatesRequest(paginated(c)),
            |r: ListResourceTemplatesResult| (r.resource_templates, r.next_cursor),
        )
        .await
    }

    /// One page of `resources/templates/list`.
    pub async fn list_resource_templates_page(
        &self,
        cursor: Option<String>,
    ) -> Result<Sent<ListResourceTemplatesResult>> {
        let request = ClientRequest::ListResourceTemplatesRequest(paginated(cursor));
        self.send(request, "resources/templates/list", "").await
    }

    /// `resources/read`.
    pub async fn read_resource(&self, uri: &str) -> Result<ResourceResult> {
        let request =
            ClientRequest::ReadResourceRequest(Request::new(ReadResourceRequestParams::new(uri)));
        self.send(request, "resources/read", uri).await
    }

    /// `resources/subscribe`; updates arrive as `notifications/resources/updated`.
    pub async fn subscribe(&self, uri: &str) -> Result<()> {
        let request =
            ClientRequest::SubscribeRequest(Request::new(SubscribeRequestParams::new(uri)));
        self.send(request, "resources/subscribe", uri).await
    }

    /// `resources/unsubscribe`.
    pub async fn unsubscribe(&self, uri: &str) -> Result<()> {
        let request =
            ClientRequest::UnsubscribeRequest(Request::new(UnsubscribeRequestParams::new(uri)));
        self.send(request, "resources/unsubscribe", uri).await
    }

    // ----- prompts -------------------------------------------------------------------------

    /// `prompts/list`, following `nextCursor` through every page.
    pub async fn list_prompts(&self) -> Result<Listed<Prompt>> {
        self.all_pages(
            "prompts/list",
            |c| ClientRequest::ListPromptsRequest(paginated(c)),
            |r: ListPromptsResult| (r.prompts, r.next_cursor),
        )
        .await
    }

    /// One page of `prompts/list`.
    pub async fn list_prompts_page(
        &self,
        cursor: Option<String>,
    ) -> Result<Sent<ListPromptsResult>> {
        let request = ClientRequest::ListPromptsRequest(paginated(cursor));
        self.send(request, "prompts/list", "").await
    }

    /// The prompt named `name`, from `prompts/list`.
    pub async fn prompt(&self, name: &str) -> Result<Prompt> {
        let prompts = self.list_prompts().await?;
        let names = prompts.iter().map(|p| p.name.clone()).collect();
        prompts
            .into_iter()
            .find(|p| p.name == name)
            .ok_or_else(|| not_found("prompt", name, names))
    }

    /// `prompts/get`. `arguments` is a JSON object of strings (numbers and booleans are
    /// sent as their text), or `null`.
    pub async fn get_prompt(&self, name: &str, arguments: Value) -> Result<PromptResult> {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = object_or_none(arguments, "prompt arguments")?
            .map(stringify_values)
            .transpose()?;
        let request = ClientRequest::GetPromptRequest(Request::new(params));
        self.send(request, "prompts/get", name).await
    }

    // ----- completion ----------------------------------------------------------------------

    /// `completion/complete` for an argument of a prompt or resource template.
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) -> mcp_assured::Result<()> {
    /// use mcp_assured::model::Reference;
    /// let done = client.complete(Reference::for_prompt("greet"), "style", "fo").await?;
    /// assert_eq!(done.completion.values, ["formal"]);
    /// # Ok(()) }
    /// ```
    pub async fn complete(
        &self,
        reference: Reference,
        argument: &str,
        value: &str,
    ) -> Result<Sent<CompleteResult>> {
        let params = CompleteRequestParams::new(reference, ArgumentInfo::new(argument, value));
        self.complete_with(params).await
    }

    /// `completion/complete` with every field under the test's control (e.g. `context`).
    pub async fn complete_with(
        &self,
        params: CompleteRequestParams,
    ) -> Result<Sent<CompleteResult>> {
        let request = ClientRequest::CompleteRequest(Request::new(params));
        self.send(request, "completion/complete", "").await
    }

    // ----- notifications -------------------------------------------------------------------

    /// Every notification received so far (and not drained), in arrival order.
    pub fn notifications(&self) -> Vec<Notification> {
        self.shared.harness.state.notifications.all()
    }

    /// Returns and forgets every notification received so far.
    pub fn drain_notifications(&self) -> Vec<Notification> {
        self.shared.harness.state.notifications.drain()
    }

    /// Waits, up to the client's timeout, for a notification with this method, e.g.
    /// `notifications/tools/list_changed`. One that arrived before the call counts; each
    /// notification is returned by at most one wait.
    pub async fn wait_for_notification(&self, method: &str) -> Result<Notification> {
        self.wait_for_notification_matching(|n| n.method == method)
            .await
            .map_err(|_| self.notification_timeout(method))
    }

    /// Like [`wait_for_notification`](Self::wait_for_notification), for any condition.
    pub async fn wait_for_notification_matching(
        &self,
        wanted: impl Fn(&Notification) -> bool,
    ) -> Result<Notification> {
        self.shared
            .harness
            .state
            .notifications
            .wait_for(wanted, self.timeout)
            .await
            .ok_or_else(|| self.notification_timeout("a matching notification"))
    }

    /// The log messages (`notifications/message`) received so far.
    pub fn log_messages(&self) -> Vec<LogMessage> {
        self.notifications()
            .iter()
            .filter(|n| n.method == LOG_MESSAGE)
            .filter_map(|n| n.params_as().ok())
            .collect()
    }

    /// All progress notifications received so far, for any request.
    pub fn progress_notifications(&self) -> Vec<Progress> {
        self.notifications()
            .iter()
            .filter(|n| n.method == PROGRESS)
            .filter_map(Progress::from_notification)
            .collect()
    }

    // ----- responses nobody asked for ------------------------------------------------------

    /// Responses (results and errors) whose id matches no request this client was waiting
    /// for, as the server sent them: an id it never sent, a second answer to one request, or
    /// an answer to a request the client cancelled (`notifications/cancelled`, which a
    /// timeout sends too) that came after the cancellation. rmcp drops them silently, so
    /// this is the only place to see them. A correct server sends none, except late
    /// answers (the protocol allows them, and clients ignore them).
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) {
    /// client.ping().await.unwrap();
    /// assert_eq!(client.stray_responses(), Vec::<serde_json::Value>::new());
    /// # }
    /// ```
    pub fn stray_responses(&self) -> Vec<Value> {
        self.shared.harness.state.stray_responses.all()
    }

    // ----- requests from the server ---------------------------------------------------------

    /// Every request the server sent the client (sampling, elicitation, roots, ping, ...),
    /// answered or not.
    pub fn server_requests(&self) -> Vec<ServerRequest> {
        self.shared
            .harness
            .state
            .server_requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The server's requests that had no configured answer (they got `METHOD_NOT_FOUND`).
    pub fn unanswered_server_requests(&self) -> Vec<ServerRequest> {
        self.server_requests()
            .into_iter()
            .filter(|r| !r.answered)
            .collect()
    }

    /// The roots the client answers `roots/list` with: those given to
    /// [`ClientBuilder::roots`] or the last [`McpClient::set_roots`], none without either.
    pub fn roots(&self) -> Vec<Root> {
        self.shared
            .harness
            .state
            .answers
            .roots
            .as_ref()
            .map(|roots| roots.lock().unwrap_or_else(|p| p.into_inner()).clone())
            .unwrap_or_default()
    }

    /// Replaces the roots answered to `roots/list` and sends
    /// `notifications/roots/list_changed`. Needs [`ClientBuilder::roots`].
    pub async fn set_roots<I: IntoIterator<Item = Root>>(&self, roots: I) -> Result<()> {
        let Some(current) = &self.shared.harness.state.answers.roots else {
            return Err(Error::invalid(
                "roots",
                "the client was built without `.roots(..)`, so it does not offer roots",
            ));
        };
        *current.lock().unwrap_or_else(|p| p.into_inner()) = roots.into_iter().collect();
        match self.shared.peer.notify_roots_list_changed().await {
            Ok(()) => Ok(()),
            Err(error) => Err(failure::request_failed(
                error,
                "notifications/roots/list_changed",
                self.diagnostics(),
            )
            .await),
        }
    }

    // ----- helpers -------------------------------------------------------------------------

    /// Every page of a listing, each item beside its JSON as sent.
    async fn all_pages<P, I>(
        &self,
        method: &str,
        request: impl Fn(Option<String>) -> ClientRequest,
        split: impl Fn(P) -> (Vec<I>, Option<String>),
    ) -> Result<Listed<I>>
    where
        P: FromServerResult,
        I: ListedItem,
    {
        let member = listing_member(method);
        let mut items = Vec::new();
        let mut sent = Vec::new();
        let mut complete = true;
        let mut cursor = None;
        let mut seen = std::collections::HashSet::new();
        for _ in 0..MAX_PAGES {
            let answer: Sent<P> = self.send(request(cursor.take()), method, "").await?;
            let (page, wire) = answer.into_parts();
            let (mut batch, next) = split(page);
            match wire
                .as_ref()
                .and_then(|wire| wire.json()[member].as_array())
            {
                Some(page_sent) if page_sent.len() == batch.len() => {
                    sent.extend(page_sent.iter().cloned())
                }
                _ => complete = false,
            }
            items.append(&mut batch);
            match next {
                // A page's text lost or unreadable: the typed items stand in for all.
                None if !complete => return Ok(Listed::new(items, Vec::new())),
                None => return Ok(Listed::new(items, sent)),
                Some(next) if !seen.insert(next.clone()) => {
                    return Err(Error::UnexpectedResponse {
                        method: method.to_owned(),
                        detail: format!(
                            "the server returned cursor `{next}` twice; its pagination loops"
                        ),
                    });
                }
                Some(next) => cursor = Some(next),
            }
        }
        Err(Error::UnexpectedResponse {
            method: method.to_owned(),
            detail: format!("more than {MAX_PAGES} pages"),
        })
    }

    fn notification_timeout(&self, what: &str) -> Error {
        Error::Timeout {
            method: format!("waiting for {what}"),
            timeout: self.timeout,
            stderr_tail: self.stderr_tail(),
        }
    }
}

/// The member of a listing's result that holds its items.
fn listing_member(method: &str) -> &'static str {
    match method {
        "tools/list" => "tools",
        "prompts/list" => "prompts",
        "resources/list" => "resources",
        _ => "resourceTemplates",
    }
}

/// The capabilities in the lifecycle answer as sent, else as rmcp decoded them.
fn capabilities_as_sent(harness: &Harness, info: &ServerInfo) -> Value {
    let sent = harness
        .state
        .lifecycle_as_sent
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .take();
    sent.map(|text| Wire::new(text, Member::Result))
        .and_then(|wire| wire.json().get("capabilities").cloned())
        .unwrap_or_else(|| serde_json::to_value(&info.capabilities).unwrap_or(Value::Null))
}

fn paginated<M: Default>(
    cursor: Option<String>,
) -> RequestOptionalParam<M, PaginatedRequestParams> {
    RequestOptionalParam {
        method: M::default(),
        params: cursor.map(|c| PaginatedRequestParams::default().with_cursor(Some(c))),
        extensions: Default::default(),
    }
}

fn object_or_none(value: Value, what: &str) -> Result<Option<JsonObject>> {
    match value {
        Value::Null => Ok(None),
        Value::Object(map) => Ok(Some(map)),
        other => Err(Error::invalid(
            what,
            format!(
                "expected a JSON object such as `json!({{\"key\": \"value\"}})` or `Value::Null`, got `{other}`"
            ),
        )),
    }
}

fn stringify_values(map: JsonObject) -> Result<JsonObject> {
    map.into_iter()
        .map(|(key, value)| {
            let text = match value {
                Value::String(s) => s,
                Value::Number(n) => n.to_string(),
                Value::Bool(b) => b.to_string(),
                other => {
                    return Err(Error::invalid(
                        "prompt arguments",
                        format!("prompt arguments are strings; `{key}` is `{other}`"),
                    ));
                }
            };
            Ok((key, Value::String(text)))
        })
        .collect()
}

fn not_found(kind: &'static str, name: &str, available: Vec<String>) -> Error {
    Error::NotFound {
        kind,
        name: name.to_owned(),
        available,
    }
}
