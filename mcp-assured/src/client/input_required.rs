//! Multi-round-trip requests (protocol 2026-07-28, SEP-2322): a `tools/call`, `prompts/get`
//! or `resources/read` the server answers with `input_required` is answered with the
//! client's configured handlers (the same as for sampling, elicitation and roots requests
//! of older revisions) and sent again, with a new id, carrying the `inputResponses` and the
//! `requestState` exactly as received, until the server completes it.

use rmcp::model::{
    ClientRequest, ClientResult, InputRequest, InputRequiredResult, InputResponses,
    ServerRequest as RmcpServerRequest,
};
use serde_json::Value;

use super::handler::Harness;
use crate::{error::Error, results::wire::Wire};

/// How many `input_required` answers one request may get before it is an error.
pub(crate) const MAX_ROUNDS: usize = 10;

/// How the two failures of [`is_unanswered`] begin.
const NOT_RETRIABLE: &str = "`input_required`";
const ASKED_FOR_INPUT: &str = "the server asked for input";

/// Whether `error` is an `input_required` answer the client could not follow up: one to a
/// request sent as JSON (which cannot be sent again with the answers), or one asking for
/// input the client has no answer configured for. The server answered; a fuzz run takes it
/// as an answer it does not judge.
#[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
pub(crate) fn is_unanswered(error: &Error) -> bool {
    matches!(error, Error::UnexpectedResponse { detail, .. }
        if detail.starts_with(NOT_RETRIABLE) || detail.starts_with(ASKED_FOR_INPUT))
}

/// Whether the server may answer `request` with `input_required`, and so whether it must be
/// kept, to be sent again.
pub(crate) fn may_ask_for_input(request: &ClientRequest) -> bool {
    matches!(
        request,
        ClientRequest::CallToolRequest(_)
            | ClientRequest::GetPromptRequest(_)
            | ClientRequest::ReadResourceRequest(_)
    )
}

/// `request` again, carrying the answers to `input`'s requests and its state; `None` for a
/// request not kept since it may not be answered so ([`may_ask_for_input`]).
///
/// # Errors
///
/// [`Error::UnexpectedResponse`] when `request` is not one that may be answered with
/// `input_required`, or when an input request has no configured answer.
pub(crate) fn retry(
    request: Option<&ClientRequest>,
    input: InputRequiredResult,
    sent: Option<&Wire>,
    harness: &Harness,
    method: &str,
) -> Result<ClientRequest, Error> {
    if input
        .input_requests
        .as_ref()
        .is_none_or(|requests| requests.is_empty())
        && input.request_state.is_none()
    {
        return Err(Error::UnexpectedResponse {
            method: method.to_owned(),
            detail: "`input_required` with neither `inputRequests` nor `requestState`, one of \
                     which the protocol requires"
                .to_owned(),
        });
    }
    let responses = answers(
        input.input_requests.unwrap_or_default(),
        sent,
        harness,
        method,
    )?;
    let responses = (!responses.is_empty()).then_some(responses);
    let state = input.request_state;
    let Some(mut request) = request.cloned() else {
        return Err(not_retriable(method));
    };
    match &mut request {
        ClientRequest::CallToolRequest(call) => {
            call.params.input_responses = responses;
            call.params.request_state = state;
        }
        ClientRequest::GetPromptRequest(get) => {
            get.params.input_responses = responses;
            get.params.request_state = state;
        }
        ClientRequest::ReadResourceRequest(read) => {
            read.params.input_responses = responses;
            read.params.request_state = state;
        }
        _ => return Err(not_retriable(method)),
    }
    Ok(request)
}

fn not_retriable(method: &str) -> Error {
    Error::UnexpectedResponse {
        method: method.to_owned(),
        detail: format!(
            "{NOT_RETRIABLE}, which only tools/call, prompts/get and resources/read may answer"
        ),
    }
}

/// The configured answer to each input request, by the server's key.
fn answers(
    requests: rmcp::model::InputRequests,
    sent: Option<&Wire>,
    harness: &Harness,
    method: &str,
) -> Result<InputResponses, Error> {
    let mut responses = InputResponses::new();
    for (key, request) in requests {
        let request = match request {
            InputRequest::CreateMessage(request) => {
                RmcpServerRequest::CreateMessageRequest(request)
            }
            InputRequest::Elicitation(request) => RmcpServerRequest::ElicitRequest(request),
            InputRequest::ListRoots(request) => RmcpServerRequest::ListRootsRequest(request),
            other => {
                return Err(Error::UnexpectedResponse {
                    method: method.to_owned(),
                    detail: format!(
                        "an input request of a kind this client does not know: {other:?}"
                    ),
                });
            }
        };
        let params_as_sent = sent
            .and_then(|wire| wire.json().get("inputRequests")?.get(&key)?.get("params"))
            .cloned();
        let answer = harness.respond(request, params_as_sent).map_err(|error| {
            Error::UnexpectedResponse {
                method: method.to_owned(),
                detail: format!(
                    "{ASKED_FOR_INPUT} `{key}`, and the client could not give it: {}. If \
                 the test means to answer it, configure an answer (which also declares the \
                 capability): `.on_elicitation(..)` or `.accept_elicitation_defaults()`, \
                 `.on_sampling(..)`, `.roots(..)`; if not, the server asked for a capability \
                 the client did not declare",
                    error.message
                ),
            }
        })?;
        responses.insert(key, result_json(answer));
    }
    Ok(responses)
}

fn result_json(result: ClientResult) -> Value {
    serde_json::to_value(result).unwrap_or(Value::Null)
}
