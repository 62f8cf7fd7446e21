//! `progress`: `notifications/progress` against the caller's progress token.

use std::time::Duration;

use rmcp::{
    ErrorData, RoleServer, handler::server::wrapper::Parameters, model::ProgressNotificationParam,
    service::RequestContext, tool, tool_router,
};
use serde::Deserialize;

use crate::ExampleServer;

const fn default_steps() -> u32 {
    3
}

const fn default_delay_ms() -> u64 {
    10
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ProgressArgs {
    /// How many steps to report. Default: 3.
    #[serde(default = "default_steps")]
    steps: u32,
    /// Pause before each step, in milliseconds. Default: 10.
    #[serde(default = "default_delay_ms")]
    delay_ms: u64,
}

#[tool_router(router = progress_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Works through `steps` steps (default 3), `delay_ms` ms each (default 10). \
                       If the request's `_meta` has a progressToken, sends \
                       notifications/progress after each step with progress=i, total=steps and \
                       message `step i of steps`. Answers `completed <steps> steps`."
    )]
    async fn progress(
        &self,
        Parameters(ProgressArgs { steps, delay_ms }): Parameters<ProgressArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, ErrorData> {
        let token = context.meta.get_progress_token();
        for step in 1..=steps {
            tokio::select! {
                () = tokio::time::sleep(Duration::from_millis(delay_ms)) => {}
                () = context.ct.cancelled() => return Ok("cancelled".to_owned()),
            }
            if let Some(token) = &token {
                let progress = ProgressNotificationParam::new(token.clone(), step.into())
                    .with_total(steps.into())
                    .with_message(format!("step {step} of {steps}"));
                context
                    .peer
                    .notify_progress(progress)
                    .await
                    .map_err(super::notification_failed)?;
            }
        }
        Ok(format!("completed {steps} steps"))
    }
}
