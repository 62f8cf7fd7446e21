//! The nine error types of the answers, chosen from the client's typed errors and JSON-RPC
//! codes (never from the wording of a message), with what to try next.

use mcp_assured::{Error, code};
use serde_json::{Value, json};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ErrorType {
    NotConnected,
    ConnectionFailed,
    ToolNotFound,
    ResourceNotFound,
    PromptNotFound,
    InvalidArguments,
    ExecutionError,
    Timeout,
    TransportError,
}

impl ErrorType {
    pub(crate) fn name(self) -> &'static str {
        match self {
            ErrorType::NotConnected => "not_connected",
            ErrorType::ConnectionFailed => "connection_failed",
            ErrorType::ToolNotFound => "tool_not_found",
            ErrorType::ResourceNotFound => "resource_not_found",
            ErrorType::PromptNotFound => "prompt_not_found",
            ErrorType::InvalidArguments => "invalid_arguments",
            ErrorType::ExecutionError => "execution_error",
            ErrorType::Timeout => "timeout",
            ErrorType::TransportError => "transport_error",
        }
    }

    pub(crate) fn suggestion(self) -> &'static str {
        match self {
            ErrorType::NotConnected => {
                "Call connect_to_server first (with `url`, or `command` for a local stdio server)."
            }
            ErrorType::ConnectionFailed => {
                "Check the URL or command, that the server is running, and any credentials; \
                 details.stderr_tail shows what a local server printed."
            }
            ErrorType::ToolNotFound => {
                "Call list_tools to see the exact tool names this server advertises."
            }
            ErrorType::ResourceNotFound => {
                "Call list_resources (or list_resource_templates) to see the URIs this server serves."
            }
            ErrorType::PromptNotFound => {
                "Call list_prompts to see the exact prompt names this server advertises."
            }
            ErrorType::InvalidArguments => {
                "Compare the arguments with the input schema (list_tools or list_prompts shows it) \
                 and fix the fields named in details."
            }
            ErrorType::ExecutionError => {
                "The server ran the request and reported a failure: read details for its exact answer."
            }
            ErrorType::Timeout => {
                "The server did not answer in time; retry with a larger timeout_ms, or check \
                 whether it hangs (details.stderr_tail shows a local server's output)."
            }
            ErrorType::TransportError => {
                "The connection to the server broke; call get_connection_status, then \
                 connect_to_server again."
            }
        }
    }
}

/// What the failed request was, which decides what a JSON-RPC error means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Operation {
    Connect,
    CallTool { tool_listed: bool },
    ReadResource { resource_listed: bool },
    GetPrompt { prompt_listed: bool },
    Other,
}

/// The type of a client error during `operation`.
pub(crate) fn classify(error: &Error, operation: Operation) -> ErrorType {
    match error {
        Error::Timeout { .. } => ErrorType::Timeout,
        Error::Connect { .. }
        | Error::Tls { .. }
        | Error::ProtocolVersion { .. }
        | Error::Spawn { .. }
        | Error::Initialize { .. } => ErrorType::ConnectionFailed,
        Error::ServerExited { .. }
        | Error::Authorization { .. }
        | Error::Undecodable { .. }
        | Error::Transport { .. }
        | Error::UnexpectedResponse { .. } => match operation {
            Operation::Connect => ErrorType::ConnectionFailed,
            _ => ErrorType::TransportError,
        },
        Error::NotFound { kind, .. } => match *kind {
            "tool" => ErrorType::ToolNotFound,
            "prompt" => ErrorType::PromptNotFound,
            _ => ErrorType::ResourceNotFound,
        },
        Error::InvalidInput { .. } => ErrorType::InvalidArguments,
        Error::JsonRpc { code: rpc_code, .. } => json_rpc(*rpc_code, operation),
        _ => ErrorType::TransportError,
    }
}

fn json_rpc(rpc_code: i32, operation: Operation) -> ErrorType {
    match (rpc_code, operation) {
        (code::RESOURCE_NOT_FOUND, _) => ErrorType::ResourceNotFound,
        (code::INVALID_PARAMS, Operation::CallTool { tool_listed: false }) => {
            ErrorType::ToolNotFound
        }
        (
            code::INVALID_PARAMS,
            Operation::ReadResource {
                resource_listed: false,
            },
        ) => ErrorType::ResourceNotFound,
        (
            code::INVALID_PARAMS,
            Operation::GetPrompt {
                prompt_listed: false,
            },
        ) => ErrorType::PromptNotFound,
        (code::INVALID_PARAMS, _) => ErrorType::InvalidArguments,
        (_, Operation::Connect) => ErrorType::ConnectionFailed,
        _ => ErrorType::ExecutionError,
    }
}

/// Everything the error says, as structured details: the JSON-RPC code and data, the HTTP
/// status, the stderr tail.
pub(crate) fn details(error: &Error) -> Value {
    let mut details = json!({ "client_error": error.to_string() });
    if let Error::JsonRpc {
        method,
        code: rpc_code,
        message,
        data,
    } = error
    {
        details["json_rpc"] = json!({
            "method": method,
            "code": rpc_code,
            "code_name": code::name(*rpc_code),
            "message": message,
            "data": data,
        });
    }
    if let Error::Tls { problem, .. } = error {
        details["tls_problem"] = json!(format!("{problem:?}"));
    }
    if let Error::Authorization { step, .. } = error {
        details["authorization_step"] = json!(format!("{step:?}"));
    }
    if let Some(status) = error.http_status() {
        details["http_status"] = json!(status);
    }
    if let Some(tail) = error.stderr_tail() {
        details["stderr_tail"] = json!(tail);
    }
    details
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rpc(code: i32) -> Error {
        Error::JsonRpc {
            method: "tools/call".into(),
            code,
            message: "m".into(),
            data: None,
        }
    }

    #[test]
    fn invalid_params_means_not_found_only_for_unlisted_names() {
        let call = |tool_listed| Operation::CallTool { tool_listed };
        assert_eq!(
            classify(&rpc(code::INVALID_PARAMS), call(false)),
            ErrorType::ToolNotFound
        );
        assert_eq!(
            classify(&rpc(code::INVALID_PARAMS), call(true)),
            ErrorType::InvalidArguments
        );
        assert_eq!(
            classify(&rpc(code::INTERNAL_ERROR), call(true)),
            ErrorType::ExecutionError
        );
        assert_eq!(
            classify(
                &rpc(code::RESOURCE_NOT_FOUND),
                Operation::ReadResource {
                    resource_listed: true
                }
            ),
            ErrorType::ResourceNotFound
        );
    }
}
