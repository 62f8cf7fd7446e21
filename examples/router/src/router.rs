//! [`Router`]: lists the tools of every upstream under its name and forwards calls.

use std::sync::Arc;

use futures::future::join_all;
use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
        ListToolsResult, PaginatedRequestParams, ResultType, ServerCapabilities, ServerConfig,
        Tool,
    },
    service::RequestContext,
};

use crate::{config::Config, upstream::Upstream};

/// Between an upstream's name and its tool's: `search__query`.
pub const SEPARATOR: &str = "__";

/// The router: an MCP server whose tools are its upstreams' tools. Clones share the
/// upstream connections.
#[derive(Debug, Clone)]
pub struct Router {
    upstreams: Arc<[Upstream]>,
}

impl Router {
    /// A router to the upstreams of `config`; it connects to each on first use.
    pub fn new(config: Config) -> Router {
        let timeout = config.call_timeout;
        Router {
            upstreams: config
                .upstreams
                .into_iter()
                .map(|upstream| Upstream::new(upstream, timeout))
                .collect(),
        }
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

    /// Every upstream's tools, renamed; an upstream that cannot list them is left out (and
    /// said on stderr), so one down upstream does not hide the others.
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
        Ok(ListToolsResult::with_all_items(tools))
    }

    /// Forwards `<upstream>__<tool>` with its arguments. What goes wrong upstream is a tool
    /// error naming it; a name no upstream has is the caller's mistake, a protocol error.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let routed = request.name.split_once(SEPARATOR).and_then(|(name, tool)| {
            let upstream = self.upstreams.iter().find(|up| up.name == name)?;
            Some((upstream, tool.to_owned()))
        });
        let Some((upstream, tool)) = routed else {
            let names: Vec<&str> = self.upstreams.iter().map(|up| up.name.as_str()).collect();
            return Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`: tools are named <upstream>{SEPARATOR}<tool>, and the \
                     upstreams are {}",
                    request.name,
                    names.join(", ")
                ),
                None,
            ));
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
