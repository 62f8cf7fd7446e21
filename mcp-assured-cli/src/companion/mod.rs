//! [`CompanionServer`]: the MCP server behind `mcp-assured serve`. It lists the tools of
//! [`tools`] and routes calls to them; the connections it holds live in [`state`].

mod answer;
mod clock;
mod errors;
mod secrets;
mod state;
mod tools;

use std::{sync::Arc, time::Instant};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
        CustomRequest, CustomResult, ErrorCode, Implementation, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
        ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};

use self::state::Connections;

/// The companion MCP server. Clones share the connections, so every MCP session of one
/// process (one per HTTP client, say) sees the same servers.
#[derive(Debug, Clone, Default)]
pub struct CompanionServer {
    connections: Arc<Connections>,
}

impl CompanionServer {
    /// A companion with no connection yet.
    pub fn new() -> Self {
        Self::default()
    }
}

const INSTRUCTIONS: &str = "Tests other MCP servers for real. Call connect_to_server (a URL, \
    or a command for a local stdio server), then list_tools / call_tool / list_resources / \
    read_resource / list_prompts / get_prompt and the others; every answer is the server's \
    exact reply in a JSON envelope with timestamps and timings, never a summary. Several \
    servers can be connected at once under names (the `connection` argument).";

impl ServerHandler for CompanionServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "mcp-assured",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tools::definitions().to_vec(),
        ))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::definition(name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let started = Instant::now();
        let args = request.arguments.unwrap_or_default();
        match tools::call(&self.connections, &request.name, args, started).await {
            Some(answer) => Ok(answer.into_result().into()),
            None => Err(ErrorData::invalid_params(
                format!(
                    "unknown tool `{}`; mcp-assured has: {}",
                    request.name,
                    tools::definitions()
                        .iter()
                        .map(|tool| tool.name.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
            )),
        }
    }

    // rmcp answers these with empty results by default; the companion advertises neither
    // completions, resources nor prompts, so it refuses them as MCP asks: -32601.

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Err(not_offered("completion/complete"))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Err(not_offered("prompts/list"))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Err(not_offered("resources/list"))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Err(not_offered("resources/templates/list"))
    }

    /// rmcp hands over every request it could not read as a known one: an unknown method,
    /// or a known one whose params do not fit (`tools/call` without `name`). Say which.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let revision = context.protocol_version();
        Err(unreadable_request(&request, revision.as_ref()))
    }
}

/// The methods the companion answers.
const METHODS: [&str; 4] = ["initialize", "ping", "tools/list", "tools/call"];

/// -32601 for a method of a capability the companion does not advertise.
fn not_offered(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "`{method}` is not offered: mcp-assured advertises tools only, and answers {}",
            METHODS.join(", ")
        ),
        None,
    )
}

/// Why `request` could not be read, on the protocol `revision` it came in.
fn unreadable_request(
    request: &CustomRequest,
    revision: Option<&rmcp::model::ProtocolVersion>,
) -> ErrorData {
    let method = request.method.as_str();
    let problem = match method {
        "tools/call" => request
            .params_as::<CallToolRequestParams>()
            .err()
            .map(|error| error.to_string())
            .unwrap_or_else(|| "params are missing".to_owned()),
        "tools/list" => request
            .params_as::<PaginatedRequestParams>()
            .err()
            .map(|error| error.to_string())
            .unwrap_or_else(|| "params do not fit".to_owned()),
        // 2026-07-28 removed both: a request of that revision asks for a method that does
        // not exist there.
        "initialize" | "ping" if revision.is_some_and(|version| !version.has_initialize()) => {
            return ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "`{method}` does not exist in protocol 2026-07-28; mcp-assured answers \
                     server/discover, tools/list and tools/call there"
                ),
                None,
            );
        }
        "initialize" | "ping" => "params do not fit".to_owned(),
        _ => {
            return ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                format!(
                    "unknown method `{method}`; mcp-assured answers {}",
                    METHODS.join(", ")
                ),
                None,
            );
        }
    };
    let expected = match method {
        "tools/call" => r#" (expected {"name": "<tool>", "arguments": {..}})"#,
        _ => "",
    };
    ErrorData::invalid_params(
        format!("invalid params for `{method}`: {problem}{expected}"),
        None,
    )
}
