//! [`ExampleServer`]: its state, and the `ServerHandler` glue that hands each request to the
//! module owning it (`tools/`, `prompts`, `resources`, `completion`, `logging`).

use std::{
    fmt,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::router::tool::ToolRouter,
    handler::server::tool::ToolCallContext,
    model::{
        CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
        Implementation, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
        PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse,
        ServerCapabilities, ServerConfig, SubscribeRequestParams, Tool, UnsubscribeRequestParams,
    },
    prompt_handler,
    service::RequestContext,
    tool_handler,
};

use crate::{completion, logging::LogLevel, pagination, resources, tools};

/// The example MCP server.
///
/// Clones share all state, like handles to one server. Each HTTP session started by
/// [`serve`](crate::serve) gets its own subscriptions, log level and tool list, while the count
/// of cancelled `slow` calls is shared by every session of that server.
///
/// See the [crate docs](crate) for what it offers.
#[derive(Clone)]
pub struct ExampleServer {
    pub(crate) shared: Arc<Shared>,
    pub(crate) session: Arc<Session>,
    page_size: Option<usize>,
}

/// State common to every session of one server.
pub(crate) struct Shared {
    pub(crate) tools: ToolRouter<ExampleServer>,
    pub(crate) cancelled_slow_calls: AtomicU64,
}

/// State of one MCP session (one connection).
#[derive(Debug, Default)]
pub(crate) struct Session {
    pub(crate) log_level: LogLevel,
    pub(crate) subscriptions: resources::Subscriptions,
    pub(crate) counter: AtomicU64,
    /// Set by the `add_tool` tool; makes `extra` visible.
    pub(crate) extra_tool: AtomicBool,
}

impl ExampleServer {
    /// A server with fresh state, listing all tools in one page.
    pub fn new() -> Self {
        Self {
            shared: Arc::new(Shared {
                tools: tools::router(),
                cancelled_slow_calls: AtomicU64::new(0),
            }),
            session: Arc::default(),
            page_size: None,
        }
    }

    /// Splits `tools/list` into pages of at most `page_size` tools, linked by opaque
    /// `nextCursor` values, so clients' multi-page listing can be tested.
    ///
    /// # Panics
    ///
    /// If `page_size` is 0.
    #[must_use = "this returns a new server and leaves `self` unchanged"]
    pub fn with_page_size(mut self, page_size: usize) -> Self {
        assert!(page_size > 0, "page size must be at least 1");
        self.page_size = Some(page_size);
        self
    }

    /// The same server for a new connection: shared state kept, session state fresh.
    pub(crate) fn for_new_session(&self) -> Self {
        Self {
            shared: Arc::clone(&self.shared),
            session: Arc::default(),
            page_size: self.page_size,
        }
    }

    /// Tools as this session sees them, sorted by name: `extra` only after `add_tool`.
    fn visible_tools(&self) -> Vec<Tool> {
        let extra_visible = self.session.extra_tool.load(Ordering::Acquire);
        let mut tools = self.shared.tools.list_all();
        tools.retain(|tool| extra_visible || tool.name != tools::EXTRA);
        tools
    }
}

impl Default for ExampleServer {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for ExampleServer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExampleServer")
            .field("page_size", &self.page_size)
            .field(
                "cancelled_slow_calls",
                &self.shared.cancelled_slow_calls.load(Ordering::Relaxed),
            )
            .field("session", &self.session)
            .finish_non_exhaustive()
    }
}

/// A tool this server does not serve: -32602 in the router contract's words,
/// `Tool 'x' not found` (rmcp's own is `tool not found`).
pub(crate) fn tool_not_found(name: &str) -> ErrorData {
    ErrorData::invalid_params(format!("Tool '{name}' not found"), None)
}

// `call_tool` is ours to word an unknown tool as the router contract does, then goes to the
// tool router; `list_tools` is ours because it pages and hides `extra`. `get_info` is ours
// because the macros would only declare tools and prompts.
#[tool_handler(router = self.shared.tools)]
#[prompt_handler]
impl ServerHandler for ExampleServer {
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if !self.shared.tools.has_route(&request.name) {
            return Err(tool_not_found(&request.name));
        }
        let call = ToolCallContext::new(self, request, context);
        self.shared.tools.call(call).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(capabilities())
            .with_server_info(Implementation::new(
                "mcp-assured-example",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Example server for mcp-assured tests.")
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let cursor = request.and_then(|request| request.cursor);
        let page = pagination::page(
            self.visible_tools(),
            cursor.as_deref(),
            self.page_size,
            |tool| &tool.name,
        )?;
        Ok(ListToolsResult {
            next_cursor: page.next_cursor,
            ..ListToolsResult::with_all_items(page.items)
        })
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&request.uri, &self.session).map(Into::into)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.subscriptions.subscribe(&request.uri)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.subscriptions.unsubscribe(&request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Ok(CompleteResult::new(completion::complete(&request)))
    }

    #[expect(
        deprecated,
        reason = "logging is deprecated by SEP-2577 but still in 2025-11-25"
    )]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.session.log_level.set(request.level);
        Ok(())
    }
}

#[expect(
    deprecated,
    reason = "logging is deprecated by SEP-2577 but still in 2025-11-25"
)]
fn capabilities() -> ServerCapabilities {
    ServerCapabilities::builder()
        .enable_logging()
        .enable_completions()
        .enable_prompts()
        .enable_resources()
        .enable_tools()
        .enable_resources_subscribe()
        .enable_resources_list_changed()
        .enable_tool_list_changed()
        .build()
}
