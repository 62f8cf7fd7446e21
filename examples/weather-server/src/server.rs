//! [`WeatherServer`]: lists the tools of [`crate::tools`] and routes calls to them.

use std::sync::Arc;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CompleteRequestMethod, CompleteRequestParams,
        CompleteResult, Implementation, ListPromptsRequestMethod, ListPromptsResult,
        ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
        ListResourcesRequestMethod, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
        ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};

use crate::{
    api::WeatherApi,
    cache::AnswerCache,
    policy::{Grants, Policies, Runner, runner::Request},
    tools::{self, ToolContext, ToolEvent, ToolHooks, hooks::Face},
};

/// The weather MCP server. Clones share the API client and the calls running (so a tool's
/// `maxConcurrency` counts them all).
#[derive(Clone)]
pub struct WeatherServer {
    api: Arc<WeatherApi>,
    policies: Policies,
    hooks: Vec<Arc<dyn ToolHooks>>,
    grants: Arc<Grants>,
    runner: Arc<Runner>,
}

impl std::fmt::Debug for WeatherServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WeatherServer")
            .field("api", &self.api)
            .field("policies", &self.policies)
            .field("server_hooks", &self.hooks.len())
            .field("grants", &self.grants)
            .finish()
    }
}

impl WeatherServer {
    /// A server whose tools call the weather API at `api_base_url`, each under the policy
    /// its module declares, open to every caller, the API's answers kept for 30 s
    /// ([`AnswerCache::default`]; see [`with_cache`](Self::with_cache)).
    pub fn new(api_base_url: impl Into<String>) -> Self {
        let api = Arc::new(WeatherApi::new(api_base_url).with_cache(AnswerCache::default()));
        let policies = Policies::declared();
        let runner = Arc::new(Runner::new(Arc::clone(&api), policies.clone(), Vec::new()));
        Self {
            api,
            policies,
            hooks: Vec::new(),
            grants: Arc::new(Grants::open()),
            runner,
        }
    }

    /// With this cache of the API's answers instead of the default one
    /// ([`AnswerCache::off`] asks the API on every call).
    #[must_use]
    pub fn with_cache(mut self, cache: AnswerCache) -> Self {
        self.api = Arc::new(self.api.as_ref().clone().with_cache(cache));
        self.rebuilt()
    }

    /// With these policies instead of the declared ones (see [`Policies::with_overrides`]).
    #[must_use]
    pub fn with_policies(mut self, policies: Policies) -> Self {
        self.policies = policies;
        self.rebuilt()
    }

    /// With `hooks` run around every call of every tool, after the tool's own (an
    /// [`AuditLog`](crate::audit::AuditLog), say).
    #[must_use]
    pub fn with_hooks(mut self, hooks: Arc<dyn ToolHooks>) -> Self {
        self.hooks.push(hooks);
        self.rebuilt()
    }

    /// With these tokens: over HTTP, each caller gets the scopes of the bearer token it
    /// sends (see [`Grants`]); over stdio there is no token and every call is granted.
    #[must_use]
    pub fn with_grants(mut self, grants: Grants) -> Self {
        self.grants = Arc::new(grants);
        self
    }

    fn rebuilt(mut self) -> Self {
        self.runner = Arc::new(Runner::new(
            Arc::clone(&self.api),
            self.policies.clone(),
            self.hooks.clone(),
        ));
        self
    }

    /// The runner both faces call tools through.
    pub(crate) fn runner(&self) -> Arc<Runner> {
        Arc::clone(&self.runner)
    }

    /// The largest `maxPayloadSize` of any tool, in bytes.
    pub fn largest_payload_bytes(&self) -> usize {
        self.policies
            .iter()
            .map(|(_, policy)| policy.limits.payload_bytes())
            .max()
            .unwrap_or(0)
    }

    /// Every tool as `tools/list` shows it: its module's definition, with its permissions
    /// and limits in `_meta.permissions` and `_meta.limits` (as the REST listing has them).
    pub fn tools(&self) -> Vec<Tool> {
        tools::definitions()
            .into_iter()
            .map(|mut tool| {
                let policy = self.policies.of(&tool.name);
                let meta = tool.meta.get_or_insert_with(Default::default);
                meta.insert(
                    "permissions".to_owned(),
                    serde_json::json!(policy.permissions),
                );
                meta.insert(
                    "limits".to_owned(),
                    serde_json::to_value(policy.limits).unwrap_or_default(),
                );
                tool
            })
            .collect()
    }
}

impl WeatherServer {
    /// Runs one MCP call through the runner: the caller's scopes from its bearer token (over
    /// HTTP), progress as `notifications/progress` when the request has a progress token
    /// (each sent before the result), a refusal as a tool error.
    async fn run(
        &self,
        tool: &str,
        params: rmcp::model::JsonObject,
        context: &RequestContext<RoleServer>,
    ) -> rmcp::model::CallToolResult {
        let authorization = context
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|parts| parts.headers.get(axum::http::header::AUTHORIZATION))
            .map(axum::http::HeaderValue::as_bytes);
        let grant = self.grants.grant(authorization);
        let payload_bytes = serde_json::to_vec(&params).map_or(0, |bytes| bytes.len());
        let (tool_context, mut events) = ToolContext::with_events();
        let token = context.meta.get_progress_token();
        let forward = |event: ToolEvent| {
            let token = token.clone();
            let peer = context.peer.clone();
            async move {
                if let (
                    Some(token),
                    ToolEvent::Progress {
                        progress,
                        total,
                        message,
                    },
                ) = (token, event)
                {
                    let mut notification =
                        ProgressNotificationParam::new(token, progress).with_message(message);
                    if let Some(total) = total {
                        notification = notification.with_total(total);
                    }
                    // A client that went away gets its result's error, not this one's.
                    let _ = peer.notify_progress(notification).await;
                }
            }
        };
        let run = self.runner.run(Request {
            tool,
            params,
            face: Face::Mcp,
            grant,
            payload_bytes,
            timeout: None,
            context: tool_context,
        });
        tokio::pin!(run);
        let outcome = loop {
            tokio::select! {
                biased;
                Some(event) = events.recv() => forward(event).await,
                outcome = &mut run => break outcome,
            }
        };
        while let Ok(event) = events.try_recv() {
            forward(event).await;
        }
        outcome.unwrap_or_else(|refusal| refusal.to_tool_error())
    }
}

impl ServerHandler for WeatherServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "weather-server",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions("Current weather, forecasts and alerts, from a weather API.")
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools().into_iter().find(|tool| tool.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        if tools::exists(&request.name) {
            return Ok(self.run(&request.name, args, &context).await.into());
        }
        // An unknown tool is the caller's mistake: a protocol error, not a tool error.
        let known: Vec<String> = tools::definitions()
            .into_iter()
            .map(|tool| tool.name.to_string())
            .collect();
        // The router contract's words; what there is, in `data`.
        Err(ErrorData::invalid_params(
            format!("Tool '{}' not found", request.name),
            Some(serde_json::json!({ "tools": known })),
        ))
    }

    // Only tools are advertised, but rmcp's defaults answer these with empty results: an
    // unadvertised capability's methods must be refused with -32601 (method not found).
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

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(ErrorData::method_not_found::<ListPromptsRequestMethod>())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Err(ErrorData::method_not_found::<CompleteRequestMethod>())
    }
}
