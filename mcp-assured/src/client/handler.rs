//! The client side of the session: records what the server sends and answers its requests.
//!
//! It implements rmcp's `Service` rather than `ClientHandler` so that every request, custom
//! ones included, passes through one place and is recorded as JSON. Notifications are
//! recorded earlier, by the transport wrapper in `recording`, to keep their order.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use rmcp::{
    RoleClient, Service,
    model::{
        ClientConfig, ClientResult, ErrorData, ListRootsResult, ServerNotification,
        ServerRequest as RmcpServerRequest,
    },
    service::{NotificationContext, RequestContext},
};
use serde_json::Value;

use crate::results::wire::{Member, Wire};

use super::{
    listed_tools::ListedTools,
    notifications::NotificationLog,
    server_requests::{Answers, ServerRequest},
    stray::StrayResponses,
};

#[derive(Debug, Clone)]
pub(crate) struct Harness {
    pub(crate) state: Arc<HarnessState>,
}

#[derive(Debug)]
pub(crate) struct HarnessState {
    pub(crate) config: ClientConfig,
    pub(crate) answers: Answers,
    pub(crate) notifications: NotificationLog,
    pub(crate) server_requests: Mutex<Vec<ServerRequest>>,
    pub(crate) stray_responses: StrayResponses,
    pub(crate) listed_tools: ListedTools,
    /// The text of each request of the server's not yet answered, by its id (as JSON text).
    pub(crate) requests_as_sent: Mutex<HashMap<String, Arc<str>>>,
    /// The server's answer to `initialize` or `server/discover`, as sent.
    pub(crate) lifecycle_as_sent: Mutex<Option<Arc<str>>>,
}

impl Harness {
    pub(crate) fn new(config: ClientConfig, answers: Answers) -> Self {
        Harness {
            state: Arc::new(HarnessState {
                config,
                answers,
                notifications: NotificationLog::default(),
                server_requests: Mutex::default(),
                stray_responses: StrayResponses::default(),
                listed_tools: ListedTools::default(),
                requests_as_sent: Mutex::default(),
                lifecycle_as_sent: Mutex::default(),
            }),
        }
    }

    /// A harness with the same configuration and answers and nothing recorded yet, for
    /// another session with the same server.
    pub(crate) fn fresh(&self) -> Harness {
        Harness::new(self.state.config.clone(), self.state.answers.clone())
    }

    /// The answer to a request of the server's, as configured, recorded among
    /// [`server_requests`](super::McpClient::server_requests): when it comes on its own
    /// (2025-11-25 and older) and when it comes inside an `input_required` result
    /// (2026-07-28). `sent`: its params as the server sent them.
    pub(crate) fn respond(
        &self,
        request: RmcpServerRequest,
        sent: Option<Value>,
    ) -> Result<ClientResult, ErrorData> {
        let json = serde_json::to_value(&request).unwrap_or(Value::Null);
        let method = json["method"].as_str().unwrap_or("<unknown>").to_owned();
        let answer = self.answer(request);
        self.state
            .server_requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(ServerRequest {
                method: method.clone(),
                params: sent.unwrap_or_else(|| json.get("params").cloned().unwrap_or(Value::Null)),
                answered: answer.is_some(),
                received_at: std::time::SystemTime::now(),
            });
        answer.unwrap_or_else(|| {
            Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("mcp-assured has no answer configured for `{method}`"),
                None,
            ))
        })
    }

    fn answer(&self, request: RmcpServerRequest) -> Option<Result<ClientResult, ErrorData>> {
        let answers = &self.state.answers;
        Some(match request {
            RmcpServerRequest::PingRequest(_) => Ok(ClientResult::empty(())),
            RmcpServerRequest::CreateMessageRequest(request) => {
                (answers.sampling.as_ref()?)(&request.params)
                    .map(|result| ClientResult::CreateMessageResult(Box::new(result)))
            }
            RmcpServerRequest::ElicitRequest(request) => {
                (answers.elicitation.as_ref()?)(&request.params).map(ClientResult::ElicitResult)
            }
            RmcpServerRequest::ListRootsRequest(_) => {
                let roots = answers.roots.as_ref()?;
                let roots = roots.lock().unwrap_or_else(|p| p.into_inner()).clone();
                Ok(ClientResult::ListRootsResult(ListRootsResult::new(roots)))
            }
            // Custom requests, and kinds newer than this harness, have no configured answer.
            _ => return None,
        })
    }
}

impl Service<RoleClient> for Harness {
    async fn handle_request(
        &self,
        request: RmcpServerRequest,
        context: RequestContext<RoleClient>,
    ) -> Result<ClientResult, ErrorData> {
        let id = crate::transport::wire::id_text(&context.id);
        let sent = self
            .state
            .requests_as_sent
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id)
            .map(|text| Wire::new(text, Member::Params).json().clone());
        self.respond(request, sent)
    }
    async fn handle_notification(
        &self,
        _notification: ServerNotification,
        _context: NotificationContext<RoleClient>,
    ) -> Result<(), ErrorData> {
        // Already recorded, in order, as it came off the transport (see `recording`).
        Ok(())
    }

    fn get_info(&self) -> ClientConfig {
        self.state.config.clone()
    }
}
