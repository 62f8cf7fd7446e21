//! `log`: `notifications/message`, filtered by the level the client set.
#![expect(
    deprecated,
    reason = "MCP logging is deprecated by SEP-2577 but still part of 2025-11-25, which clients speak"
)]

use rmcp::{
    ErrorData, Peer, RoleServer,
    handler::server::wrapper::Parameters,
    model::{LoggingLevel, LoggingMessageNotificationParam},
    tool, tool_router,
};
use serde::Deserialize;

use crate::{ExampleServer, logging};

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct LogArgs {
    /// The message's level: debug, info, notice, warning, error, critical, alert or emergency.
    #[schemars(schema_with = "logging::level_schema")]
    level: LoggingLevel,
    /// The message text.
    message: String,
}

#[tool_router(router = log_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Sends notifications/message with `level`, logger `example` and `message` \
                       as data, then answers `logged`. If the client set a higher level with \
                       logging/setLevel, sends nothing and answers \
                       `not logged: <level> is below <minimum>`."
    )]
    async fn log(
        &self,
        Parameters(LogArgs { level, message }): Parameters<LogArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, ErrorData> {
        if let Err(minimum) = self.session.log_level.check(level) {
            return Ok(format!(
                "not logged: {} is below {}",
                logging::name(level),
                logging::name(minimum)
            ));
        }
        let notification =
            LoggingMessageNotificationParam::new(level, message.into()).with_logger("example");
        peer.notify_logging_message(notification)
            .await
            .map_err(super::notification_failed)?;
        Ok("logged".to_owned())
    }
}
