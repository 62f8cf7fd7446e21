//! `roots`: a server-to-client `roots/list` request.
#![expect(
    deprecated,
    reason = "roots are deprecated by SEP-2577 but still part of 2025-11-25, which clients speak"
)]

use rmcp::{RoleServer, service::RequestContext, tool, tool_router};

use crate::ExampleServer;

#[tool_router(router = roots_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Asks the client for its roots (roots/list) and answers with their URIs, \
                       one per line (empty text if it has none). A tool error if the client has \
                       no roots capability or the request fails."
    )]
    async fn roots(&self, context: RequestContext<RoleServer>) -> Result<String, String> {
        if context
            .client_capabilities()
            .and_then(|capabilities| capabilities.roots)
            .is_none()
        {
            return Err(
                "Cannot list roots: the client did not declare the roots capability.".to_owned(),
            );
        }
        let result = context
            .peer
            .list_roots()
            .await
            .map_err(|error| format!("The roots/list request failed: {error}"))?;
        let uris: Vec<&str> = result.roots.iter().map(|root| root.uri.as_str()).collect();
        Ok(uris.join("\n"))
    }
}
