//! `add_tool` and `extra`: a tool list that changes during a session.

use std::sync::atomic::Ordering;

use rmcp::{ErrorData, Peer, RoleServer, tool, tool_router};

use crate::ExampleServer;

/// The tool `add_tool` reveals. The server's `list_tools` hides it until then.
pub(crate) const EXTRA: &str = "extra";

#[tool_router(router = add_tool_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Adds the tool `extra` to this session's tool list and sends \
                       notifications/tools/list_changed (only the first time). Answers \
                       `added tool extra`."
    )]
    async fn add_tool(&self, peer: Peer<RoleServer>) -> Result<String, ErrorData> {
        let newly_added = !self.session.extra_tool.swap(true, Ordering::AcqRel);
        if newly_added {
            peer.notify_tool_list_changed()
                .await
                .map_err(super::notification_failed)?;
        }
        Ok(format!("added tool {EXTRA}"))
    }

    #[tool(description = "Exists only after `add_tool` was called. Answers `extra tool called`.")]
    fn extra(&self) -> Result<String, ErrorData> {
        if !self.session.extra_tool.load(Ordering::Acquire) {
            // What the server answers for any unknown tool.
            return Err(crate::server::tool_not_found(EXTRA));
        }
        Ok("extra tool called".to_owned())
    }
}
