//! `sample`: a server-to-client `sampling/createMessage` request from inside a tool call.
#![expect(
    deprecated,
    reason = "sampling is deprecated by SEP-2577 but still part of 2025-11-25, which clients speak"
)]

use rmcp::{
    RoleServer,
    handler::server::wrapper::Parameters,
    model::{CreateMessageRequestParams, SamplingMessage, SamplingMessageContentBlock},
    service::RequestContext,
    tool, tool_router,
};
use serde::Deserialize;

use crate::ExampleServer;

const MAX_TOKENS: u32 = 256;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct SampleArgs {
    /// The user message to send to the client's model.
    prompt: String,
    /// Send the request even if the client did not declare the sampling capability, as a
    /// careless server would (to test how clients treat requests they cannot answer).
    #[serde(default)]
    force: bool,
}

#[tool_router(router = sample_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Asks the client's model to answer `prompt` (sampling/createMessage) and \
                       answers with the text it returned. A tool error if the client has no \
                       sampling capability (unless `force`) or refuses."
    )]
    async fn sample(
        &self,
        Parameters(SampleArgs { prompt, force }): Parameters<SampleArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<String, String> {
        if !force
            && context
                .client_capabilities()
                .and_then(|capabilities| capabilities.sampling)
                .is_none()
        {
            return Err(
                "Cannot sample: the client did not declare the sampling capability.".to_owned(),
            );
        }
        let request =
            CreateMessageRequestParams::new(vec![SamplingMessage::user_text(prompt)], MAX_TOKENS);
        let result = context
            .peer
            .create_message(request)
            .await
            .map_err(|error| format!("The sampling request failed: {error}"))?;
        let texts: Vec<String> = result
            .message
            .content
            .into_vec()
            .into_iter()
            .filter_map(|block| match block {
                SamplingMessageContentBlock::Text(text) => Some(text.text),
                _ => None,
            })
            .collect();
        if texts.is_empty() {
            return Err("The client's sampling result has no text content.".to_owned());
        }
        Ok(texts.join("\n"))
    }
}
