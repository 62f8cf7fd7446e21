//! The transport layer that records surface coverage ([`mcp_assured::coverage`]): every
//! request of the client's and every answer and notification of the server's, as they go
//! by, when the client records coverage; nothing at all when it does not.
//!
//! [`mcp_assured::coverage`]: crate::coverage

use rmcp::{
    RoleClient,
    model::{ClientRequest, JsonRpcMessage, RequestId, ServerResult},
    service::{RxJsonRpcMessage, TxJsonRpcMessage},
    transport::Transport,
};

use crate::coverage::{
    record::ServerId,
    recorder::{CallResult, Kind, SessionCoverage},
};

pub(crate) struct Covering<T> {
    inner: T,
    session: Option<SessionCoverage>,
}

impl<T> Covering<T> {
    pub(crate) fn beside(inner: T, session: Option<SessionCoverage>) -> Self {
        Covering { inner, session }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Covering<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        if let Some(session) = &mut self.session
            && let JsonRpcMessage::Request(request) = &item
        {
            // A call, the request sent most, read as rmcp holds it; the rest as JSON.
            match &request.request {
                ClientRequest::CallToolRequest(call) => session.sent_call(
                    id_key(&request.id),
                    &call.params.name,
                    call.params.arguments.as_ref(),
                ),
                _ => {
                    if let Ok(json) = serde_json::to_value(&item) {
                        session.sent(&json);
                    }
                }
            }
        }
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await?;
        if let Some(session) = &mut self.session {
            let handled = match &message {
                JsonRpcMessage::Response(response) => match &response.result {
                    ServerResult::CallToolResult(result) => session.received_call_result(
                        &id_key(&response.id),
                        CallResult {
                            is_error: result.is_error == Some(true),
                            structured: result.structured_content.as_ref(),
                        },
                    ),
                    _ => false,
                },
                _ => false,
            };
            if !handled && let Ok(json) = serde_json::to_value(&message) {
                session.received(&json);
            }
        }
        Some(message)
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

/// A request id as the recorder keys it: its JSON text, as it reads ids from JSON too.
fn id_key(id: &RequestId) -> String {
    serde_json::to_string(id).unwrap_or_default()
}

/// How long the listings at close may take, in all.
const LISTING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

impl super::McpClient {
    /// Lists, for the coverage record, each kind of the server's surface it offers that no
    /// session of this client listed to the last page, so that the record holds all of it
    /// (not for a client recording a cassette, which must hold only what the test sent).
    pub(super) async fn list_the_rest_for_coverage(&self) {
        // A session recorded into a cassette gets no requests it did not send itself: its
        // surface comes from the other records of the server, or stays unknown.
        let sink = match self.shared.connection.lock().await.as_ref() {
            Some(connection) if connection.tape.is_none() => connection.coverage.clone(),
            _ => None,
        };
        let Some(sink) = sink else { return };
        if self.is_closed() {
            return;
        }
        // A server slow to list, or hung, keeps the teardown waiting no longer than this
        // in all; the first listing that fails ends them.
        let client = self.with_timeout(self.timeout.min(LISTING_TIMEOUT));
        let listing = async {
            let info = client.server_info();
            let server = ServerId {
                name: info.name.clone(),
                version: info.version.clone(),
            };
            let offered = &info.capabilities;
            for kind in sink.unlisted(&server) {
                let offered = match kind {
                    Kind::Tools => offered.tools.is_some(),
                    Kind::Prompts => offered.prompts.is_some(),
                    Kind::Resources | Kind::Templates => offered.resources.is_some(),
                };
                if !offered {
                    sink.offers_none(&server, kind);
                    continue;
                }
                let listed = match kind {
                    Kind::Tools => client.list_tools().await.map(drop),
                    Kind::Prompts => client.list_prompts().await.map(drop),
                    Kind::Resources => client.list_resources().await.map(drop),
                    Kind::Templates => client.list_resource_templates().await.map(drop),
                };
                // What fails here fails the suite's own calls too: the record goes without.
                if listed.is_err() {
                    break;
                }
            }
        };
        let _ = tokio::time::timeout(LISTING_TIMEOUT, listing).await;
    }
}
