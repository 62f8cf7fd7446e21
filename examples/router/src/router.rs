//! [`Router`]: lists the tools of every upstream under its name and the HTTP tools registered
//! through the admin API, and forwards calls.

use std::{sync::Arc, time::Duration};

use futures::future::join_all;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListToolsResult, PaginatedRequestParams, ResultType, ServerCapabilities, ServerConfig,
        Tool,
    },
    service::{NotificationContext, RequestContext},
};
use serde_json::json;

use crate::{
    config::Config,
    http_tool::{self, HttpTools},
    upstream::Upstream,
};

/// Between an upstream's name and its tool's: `search__query`.
pub const SEPARATOR: &str = "__";

/// The router: an MCP server whose tools are its upstreams' tools. Clones share the
/// upstream connections.
#[derive(Debug, Clone)]
pub struct Router {
    upstreams: Arc<[Upstream]>,
    http_tools: HttpTools,
    http: reqwest::Client,
    call_timeout: Duration,
    /// The changes to the HTTP tools, until the client is initialized and hears of them.
    changes: Arc<std::sync::Mutex<Option<tokio::sync::watch::Receiver<u64>>>>,
}

impl Router {
    /// A router to the upstreams of `config`; it connects to each on first use.
    pub fn new(config: Config) -> Router {
        let timeout = config.call_timeout;
        let http_tools = HttpTools::default();
        Router {
            upstreams: config
                .upstreams
                .into_iter()
                .map(|upstream| Upstream::new(upstream, timeout))
                .collect(),
            changes: Arc::new(std::sync::Mutex::new(Some(http_tools.changes()))),
            http_tools,
            http: reqwest::Client::new(),
            call_timeout: timeout,
        }
    }

    /// The HTTP tools it serves: register through them (the admin API does).
    pub fn http_tools(&self) -> &HttpTools {
        &self.http_tools
    }

    /// The contract's answer to a tool nobody serves: -32602, `Tool 'x' not found`, with
    /// what there is in `data`.
    async fn not_found(&self, name: &str) -> ErrorData {
        let upstreams: Vec<&str> = self.upstreams.iter().map(|up| up.name.as_str()).collect();
        let http_tools: Vec<String> = self
            .http_tools
            .all()
            .await
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        ErrorData::invalid_params(
            format!("Tool '{name}' not found"),
            Some(json!({
                "naming": format!("upstreams' tools are named <upstream>{SEPARATOR}<tool>"),
                "upstreams": upstreams,
                "http_tools": http_tools,
            })),
        )
    }
}

impl ServerHandler for Router {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("router", env!("CARGO_PKG_VERSION")))
        .with_instructions("The tools of several MCP servers, each named `<server>__<tool>`.")
    }

    /// Tells the client of each HTTP tool registered or removed from now on.
    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        // Watched since the router was made: a tool registered while the client was still
        // initializing is announced too.
        let Some(mut changes) = self.changes.lock().ok().and_then(|mut slot| slot.take()) else {
            return;
        };
        let peer = context.peer;
        tokio::spawn(async move {
            while changes.changed().await.is_ok() {
                if peer.notify_tool_list_changed().await.is_err() {
                    break;
                }
            }
        });
    }

    /// Every upstream's tools, renamed, then the HTTP tools; an upstream that cannot list
    /// them is left out (and said on stderr), so one down upstream does not hide the others.
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let listed = join_all(
            self.upstreams
                .iter()
                .map(|upstream| upstream.tools(&context.peer)),
        )
        .await;
        let mut tools = Vec::new();
        for (upstream, listed) in self.upstreams.iter().zip(listed) {
            match listed {
                Ok(listed) => tools.extend(listed.into_iter().map(|mut tool: Tool| {
                    tool.name = format!("{}{SEPARATOR}{}", upstream.name, tool.name).into();
                    tool
                })),
                Err(failure) => eprintln!("router: {failure}"),
            }
        }
        tools.extend(
            self.http_tools
                .all()
                .await
                .iter()
                .map(http_tool::HttpToolConfig::tool),
        );
        Ok(ListToolsResult::with_all_items(tools))
    }

    /// Calls an HTTP tool's backend, or forwards `<upstream>__<tool>` with its arguments.
    /// What goes wrong at the backend or upstream is a tool error naming it; a name nobody
    /// serves is the caller's mistake, a protocol error (`Tool 'x' not found`).
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if let Some(config) = self.http_tools.get(&request.name).await {
            let arguments = request.arguments.unwrap_or_default();
            let mut result =
                http_tool::call(&self.http, &config, arguments, self.call_timeout).await;
            result.result_type.get_or_insert(ResultType::COMPLETE);
            return Ok(result.into());
        }
        let routed = request.name.split_once(SEPARATOR).and_then(|(name, tool)| {
            let upstream = self.upstreams.iter().find(|up| up.name == name)?;
            Some((upstream, tool.to_owned()))
        });
        let Some((upstream, tool)) = routed else {
            return Err(self.not_found(&request.name).await);
        };
        // The name and the arguments; the client's `_meta` is for the router.
        let mut forwarded = CallToolRequestParams::new(tool);
        forwarded.arguments = request.arguments;
        let mut result = match upstream.call(forwarded, &context.peer).await {
            Ok(result) => result,
            Err(failure) => CallToolResult::error(vec![ContentBlock::text(failure)]),
        };
        // An upstream on an older revision sends no `resultType`, which 2026-07-28 requires
        // of the router's own answer (rmcp drops it for older clients, and adds none). What
        // rmcp read as a `CallToolResult` is a complete one.
        result.result_type.get_or_insert(ResultType::COMPLETE);
        Ok(result.into())
    }
}
