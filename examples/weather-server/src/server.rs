//! [`WeatherServer`]: lists the tools of [`crate::tools`] and routes calls to them.

use std::sync::Arc;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CompleteRequestMethod, CompleteRequestParams,
        CompleteResult, Implementation, ListPromptsRequestMethod, ListPromptsResult,
        ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
        ListResourcesRequestMethod, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
        ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};

use crate::{api::WeatherApi, tools};

/// The weather MCP server. Clones share the API client.
#[derive(Debug, Clone)]
pub struct WeatherServer {
    api: Arc<WeatherApi>,
}

impl WeatherServer {
    /// A server whose tools call the weather API at `api_base_url`.
    pub fn new(api_base_url: impl Into<String>) -> Self {
        Self {
            api: Arc::new(WeatherApi::new(api_base_url)),
        }
    }

    /// The API client the tools call.
    pub(crate) fn api(&self) -> Arc<WeatherApi> {
        Arc::clone(&self.api)
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
        Ok(ListToolsResult::with_all_items(tools::definitions()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        tools::definitions()
            .into_iter()
            .find(|tool| tool.name == name)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        match tools::call(&self.api, &request.name, args).await {
            Some(result) => Ok(result.into()),
            // An unknown tool is the caller's mistake: a protocol error, not a tool error.
            None => {
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
        }
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
