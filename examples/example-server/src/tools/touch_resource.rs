//! `touch_resource`: `notifications/resources/updated` for a subscribed resource.

use std::sync::atomic::Ordering;

use rmcp::{
    ErrorData, Peer, RoleServer, handler::server::wrapper::Parameters,
    model::ResourceUpdatedNotificationParam, tool, tool_router,
};
use serde::Deserialize;

use crate::{ExampleServer, resources};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct TouchArgs {
    /// The resource URI, e.g. `example://counter`.
    uri: String,
}

#[tool_router(router = touch_resource_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Marks the resource `uri` as changed (`example://counter` counts up). If \
                       this session subscribed to it, sends notifications/resources/updated and \
                       answers `updated`; otherwise answers `not subscribed`."
    )]
    async fn touch_resource(
        &self,
        Parameters(TouchArgs { uri }): Parameters<TouchArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        if uri == resources::COUNTER {
            self.session.counter.fetch_add(1, Ordering::AcqRel);
        }
        if !self.session.subscriptions.contains(&uri) {
            return Ok("not subscribed".to_owned());
        }
        peer.notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
            .await
            .map_err(super::notification_failed)?;
        Ok("updated".to_owned())
    }
}
