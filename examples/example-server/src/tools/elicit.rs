//! `elicit`: a server-to-client `elicitation/create` request (form mode).

use rmcp::{
    Peer, RoleServer,
    handler::server::wrapper::Parameters,
    model::{ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema},
    service::ElicitationMode,
    tool, tool_router,
};
use serde::Deserialize;

use crate::ExampleServer;

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ElicitArgs {
    /// What to ask the user.
    message: String,
}

#[tool_router(router = elicit_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Asks the user, through the client, for a form with one required string \
                       property `name` (elicitation/create). Answers `action=<action>` and, when \
                       the client sent content, ` content=<compact JSON>`, e.g. \
                       `action=accept content={\"name\":\"Ada\"}` or `action=decline`. A tool \
                       error if the client has no elicitation capability or the request fails."
    )]
    async fn elicit(
        &self,
        Parameters(ElicitArgs { message }): Parameters<ElicitArgs>,
        peer: Peer<RoleServer>,
    ) -> Result<String, String> {
        if !peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
        {
            return Err(
                "Cannot elicit: the client did not declare the elicitation capability.".to_owned(),
            );
        }
        let requested_schema = ElicitationSchema::builder()
            .required_string_property("name", |name| name.description("Your name"))
            .build()
            .expect("the required property is defined");
        let result = peer
            .create_elicitation(ElicitRequestParams::FormElicitationParams {
                meta: None,
                message,
                requested_schema,
            })
            .await
            .map_err(|error| format!("The elicitation request failed: {error}"))?;
        Ok(describe(&result))
    }
}

fn describe(result: &ElicitResult) -> String {
    let action = match result.action {
        ElicitationAction::Accept => "accept",
        ElicitationAction::Decline => "decline",
        ElicitationAction::Cancel => "cancel",
        _ => "unknown",
    };
    match &result.content {
        Some(content) => format!("action={action} content={content}"),
        None => format!("action={action}"),
    }
}
