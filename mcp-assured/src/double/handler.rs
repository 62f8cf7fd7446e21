//! The double as an rmcp server: every request recorded, answered by the mock that matches
//! it or, for the lists, by the advertised surface.

#![allow(deprecated)] // logging/setLevel is SEP-2577-deprecated; clients on 2025-11-25 still send it

use std::{borrow::Cow, future::Future, pin::Pin, sync::Arc};

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    model::{
        CallToolRequestParams, CallToolResponse, CallToolResult, CompleteRequestParams,
        CompleteResult, CustomRequest, CustomResult, ErrorCode, GetPromptRequestParams,
        GetPromptResponse, GetPromptResult, InitializeResult, ListPromptsResult,
        ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
        ProtocolVersion, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
        ServerConfig, ServerNotification, ServerRequest, SetLevelRequestParams,
        SubscribeRequestParams, UnsubscribeRequestParams,
    },
    service::RequestContext,
};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Value, json};

use super::{
    reply::{Answer, Effect, Reply},
    request::McpRequest,
    state::State,
};

/// One session's handler; all of a double's sessions share its [`State`].
#[derive(Debug, Clone)]
pub(crate) struct DoubleHandler {
    pub(crate) state: Arc<State>,
}

type Answered = Result<Value, ErrorData>;

impl DoubleHandler {
    /// Records the request and answers it: the matching mock's reply, or `otherwise`.
    async fn answer(
        &self,
        method: &str,
        params: impl Serialize,
        context: &RequestContext<RoleServer>,
        otherwise: impl FnOnce(&McpRequest) -> Answered,
    ) -> Answered {
        let mut params = serde_json::to_value(params).unwrap_or(Value::Null);
        // rmcp takes `_meta` out of the params into the context: put it back, as sent.
        if !context.meta.is_empty()
            && let (Some(object), Ok(meta)) =
                (params.as_object_mut(), serde_json::to_value(&context.meta))
        {
            object.insert("_meta".to_owned(), meta);
        }
        let request = McpRequest::new(method, params, headers(context));
        match self.state.choose(&request) {
            Some(reply) => self.perform(reply, context).await,
            None => otherwise(&request),
        }
    }

    /// Sends what comes before the answer, waits, then answers (or fails on cue).
    fn perform<'a>(
        &'a self,
        reply: Reply,
        context: &'a RequestContext<RoleServer>,
    ) -> Pin<Box<dyn Future<Output = Answered> + Send + 'a>> {
        Box::pin(async move {
            for effect in &reply.before {
                self.effect(effect, context).await;
            }
            if let Some(delay) = reply.delay {
                tokio::select! {
                    () = tokio::time::sleep(delay) => {}
                    () = context.ct.cancelled() => return Err(cancelled()),
                }
            }
            match reply.answer {
                Answer::Result(result) => Ok(result),
                Answer::Error {
                    code,
                    message,
                    data,
                } => Err(ErrorData::new(ErrorCode(code), message, data)),
                Answer::Hang => {
                    context.ct.cancelled().await;
                    Err(cancelled())
                }
                // Not answered: the sockets are shut first, so nothing reaches the client;
                // the request ends when its session does (or the client cancels it).
                Answer::DropConnection => {
                    self.state.switch.drop_connections();
                    context.ct.cancelled().await;
                    Err(cancelled())
                }
                Answer::Crash => {
                    self.state.switch.stop();
                    context.ct.cancelled().await;
                    Err(cancelled())
                }
                Answer::AfterAsking {
                    method,
                    params,
                    then,
                } => {
                    let answer = self.ask(&method, &params, context).await;
                    self.perform(then(answer), context).await
                }
            }
        })
    }

    async fn effect(&self, effect: &Effect, context: &RequestContext<RoleServer>) {
        let notification = match effect {
            Effect::Progress {
                progress,
                total,
                message,
            } => {
                let Some(token) = context.meta.get_progress_token() else {
                    return;
                };
                let mut params = json!({"progressToken": token, "progress": progress});
                if let Some(total) = total {
                    params["total"] = json!(total);
                }
                if let Some(message) = message {
                    params["message"] = json!(message);
                }
                ("notifications/progress".to_owned(), params)
            }
            Effect::Log { level, data } => (
                "notifications/message".to_owned(),
                json!({"level": level, "data": data}),
            ),
            Effect::Notify { method, params } => (method.clone(), params.clone()),
            Effect::Ask { method, params } => {
                // Kept in `client_answers`; the reply is the same whatever it was.
                let _answer = self.ask(method, params, context).await;
                return;
            }
        };
        let (method, params) = notification;
        match serde_json::from_value::<ServerNotification>(
            json!({"method": method, "params": params}),
        ) {
            Ok(notification) => {
                if let Err(error) = context.peer.send_notification(notification).await {
                    tracing::debug!(%method, %error, "the double could not send a notification");
                }
            }
            Err(error) => tracing::warn!(%method, %error, "not a notification the double can send"),
        }
    }

    /// Sends a server→client request and keeps the client's answer.
    async fn ask(
        &self,
        method: &str,
        params: &Value,
        context: &RequestContext<RoleServer>,
    ) -> Result<Value, String> {
        let answer = match serde_json::from_value::<ServerRequest>(
            json!({"method": method, "params": params}),
        ) {
            Ok(request) => match context.peer.send_request(request).await {
                Ok(result) => serde_json::to_value(result).map_err(|error| error.to_string()),
                Err(error) => Err(error.to_string()),
            },
            Err(error) => Err(format!("not a request the double can send: {error}")),
        };
        self.state.keep_answer(method, params, answer.clone());
        answer
    }
}

fn cancelled() -> ErrorData {
    ErrorData::new(ErrorCode::INTERNAL_ERROR, "cancelled", None)
}

/// The HTTP headers of the request, when it came over HTTP.
fn headers(context: &RequestContext<RoleServer>) -> Vec<(String, String)> {
    context
        .extensions
        .get::<http::request::Parts>()
        .map(|parts| {
            parts
                .headers
                .iter()
                .map(|(name, value)| {
                    (
                        name.as_str().to_owned(),
                        String::from_utf8_lossy(value.as_bytes()).into_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The JSON a mock gave, as the result type of its method.
/// An answer as rmcp's result of `method`. A result without `resultType` is a complete one:
/// 2026-07-28 requires the field on every result (the official SDKs' clients refuse one
/// without it), and rmcp takes it out again for a session on an older revision.
fn typed<T: DeserializeOwned>(method: &str, result: Answered) -> Result<T, ErrorData> {
    let mut result = result?;
    if let Some(object) = result.as_object_mut() {
        object
            .entry("resultType")
            .or_insert_with(|| Value::from("complete"));
    }
    serde_json::from_value(result).map_err(|error| {
        ErrorData::internal_error(
            format!("the mock's reply is not a {method} result: {error}"),
            None,
        )
    })
}

fn no_mock(request: &McpRequest, code: ErrorCode) -> Answered {
    Err(ErrorData::new(
        code,
        format!("no mock of the MCP double matches {request}"),
        None,
    ))
}

fn listed(key: &str, items: Vec<Value>) -> Answered {
    Ok(json!({ key: items }))
}

impl ServerHandler for DoubleHandler {
    fn get_info(&self) -> ServerConfig {
        let identity = &self.state.identity;
        let capabilities = identity.capabilities.clone().unwrap_or_else(|| {
            json!({
                "tools": {"listChanged": true},
                "prompts": {"listChanged": true},
                "resources": {"listChanged": true, "subscribe": true},
                "logging": {},
                "completions": {},
            })
        });
        let mut info: InitializeResult = serde_json::from_value(json!({
            "protocolVersion": ProtocolVersion::LATEST_WITH_INITIALIZE,
            "capabilities": capabilities,
            "serverInfo": {"name": identity.name, "version": identity.version},
        }))
        .expect("the double's identity is an InitializeResult");
        info.instructions = identity.instructions.clone();
        info
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        match &self.state.identity.versions {
            None => Cow::Borrowed(ProtocolVersion::KNOWN_VERSIONS),
            Some(versions) => Cow::Owned(
                ProtocolVersion::KNOWN_VERSIONS
                    .iter()
                    .filter(|known| versions.iter().any(|version| version == known.as_str()))
                    .cloned()
                    .collect(),
            ),
        }
    }

    async fn on_initialized(&self, context: rmcp::service::NotificationContext<RoleServer>) {
        self.state.join(context.peer);
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let tools = self.state.tools();
        let answered = self
            .answer("tools/list", request, &context, |_| listed("tools", tools))
            .await;
        typed("tools/list", answered)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let answered = self
            .answer("tools/call", request, &context, |request| {
                no_mock(request, ErrorCode::INVALID_PARAMS)
            })
            .await;
        typed::<CallToolResult>("tools/call", answered).map(CallToolResponse::from)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let prompts = self.state.prompts();
        let answered = self
            .answer("prompts/list", request, &context, |_| {
                listed("prompts", prompts)
            })
            .await;
        typed("prompts/list", answered)
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let answered = self
            .answer("prompts/get", request, &context, |request| {
                no_mock(request, ErrorCode::INVALID_PARAMS)
            })
            .await;
        typed::<GetPromptResult>("prompts/get", answered).map(GetPromptResponse::from)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let resources = self.state.resources();
        let answered = self
            .answer("resources/list", request, &context, |_| {
                listed("resources", resources)
            })
            .await;
        typed("resources/list", answered)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let templates = self.state.templates();
        let answered = self
            .answer("resources/templates/list", request, &context, |_| {
                listed("resourceTemplates", templates)
            })
            .await;
        typed("resources/templates/list", answered)
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let answered = self
            .answer("resources/read", request, &context, |request| {
                no_mock(request, ErrorCode::RESOURCE_NOT_FOUND)
            })
            .await;
        typed::<ReadResourceResult>("resources/read", answered).map(ReadResourceResponse::from)
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let answered = self
            .answer("completion/complete", request, &context, |_| {
                Ok(json!({"completion": {"values": []}}))
            })
            .await;
        typed("completion/complete", answered)
    }

    async fn set_level(
        &self,
        request: SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.answer("logging/setLevel", request, &context, |_| Ok(json!({})))
            .await
            .map(drop)
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.answer("resources/subscribe", request, &context, |_| Ok(json!({})))
            .await
            .map(drop)
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.answer("resources/unsubscribe", request, &context, |_| {
            Ok(json!({}))
        })
        .await
        .map(drop)
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let method = request.method.clone();
        let answered = self
            .answer(&method, request.params, &context, |request| {
                no_mock(request, ErrorCode::METHOD_NOT_FOUND)
            })
            .await;
        answered.map(CustomResult)
    }
}
