//! `POST /mcp/tools/{name}/execute`: look the tool up, read and check the body, run the tool
//! module through the runner, answer with the envelope (or, asked for one, a stream).

use std::{sync::Arc, time::Duration};

use axum::{
    body::Bytes,
    extract::{Path, State, rejection::BytesRejection},
    http::{HeaderMap, HeaderValue, StatusCode, header},
    response::Response,
};
use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Value, json};

use super::{Drift, Rest, envelope::Envelope, stream};
use crate::{
    policy::{
        Refusal, code,
        runner::{Request, text_of},
    },
    tools::{self, ToolContext, hooks::Face},
};

/// The media type of a streamed execution: JSON lines.
pub(super) const NDJSON: &str = "application/x-ndjson";

pub(crate) async fn execute(
    State(rest): State<Arc<Rest>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let envelope = rest.executions.start();
    if let Some(limit) = &rest.rate_limit
        && let Err(wait) = limit.take()
    {
        return envelope.failure_with(
            StatusCode::TOO_MANY_REQUESTS,
            "RATE_LIMIT_ERROR",
            format!(
                "more than {} executions a minute; retry in {wait} s",
                limit.per_minute()
            ),
            json!({ "perMinute": limit.per_minute(), "retryAfterSeconds": wait }),
            Some((header::RETRY_AFTER, HeaderValue::from(wait))),
        );
    }
    // The tool first: an unknown tool is TOOL_NOT_FOUND whatever the body.
    let Some(found) = rest.tools.iter().find(|found| found.tool.name == name) else {
        let available: Vec<_> = rest
            .tools
            .iter()
            .map(|found| found.tool.name.clone())
            .collect();
        let (status, code) = if rest.options.drifts(Drift::UnknownTool) {
            (StatusCode::INTERNAL_SERVER_ERROR, "EXECUTION_ERROR")
        } else {
            (StatusCode::NOT_FOUND, "TOOL_NOT_FOUND")
        };
        return envelope.failure(
            status,
            code,
            format!("no tool `{name}`"),
            json!({ "available": available }),
        );
    };
    let body = match body {
        Ok(body) => body,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            let limit = rest.options.max_body_bytes;
            return envelope.failure(
                StatusCode::PAYLOAD_TOO_LARGE,
                "VALIDATION_ERROR",
                format!("the body is larger than the limit of {limit} bytes"),
                json!({ "maxBodyBytes": limit }),
            );
        }
        Err(rejection) => {
            return envelope.failure(
                rejection.status(),
                "VALIDATION_ERROR",
                format!("the body could not be read: {}", rejection.body_text()),
                Value::Null,
            );
        }
    };
    let request: Value = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(error) => {
            return envelope.failure(
                StatusCode::BAD_REQUEST,
                "VALIDATION_ERROR",
                format!("the body is not JSON: {error}"),
                json!({"expected": {"params": {}, "context": {}}}),
            );
        }
    };
    let Some(params) = request.get("params").and_then(Value::as_object).cloned() else {
        return envelope.failure(
            StatusCode::BAD_REQUEST,
            "VALIDATION_ERROR",
            "the body must be {\"params\": {..}}, with an optional \"context\"",
            Value::Null,
        );
    };
    if !rest.options.drifts(Drift::Validation) {
        let violations = violations(&found.schema, &params);
        if !violations.is_empty() {
            return envelope.failure(
                StatusCode::BAD_REQUEST,
                "VALIDATION_ERROR",
                format!("`params` break the input schema of `{name}`"),
                json!({ "violations": violations }),
            );
        }
    }
    let timeout = match request
        .get("context")
        .and_then(|context| context.get("timeout"))
    {
        None => None,
        Some(given) => match given.as_f64().filter(|millis| *millis > 0.0) {
            // Any number of milliseconds, as the spec's `timeout: number` allows: a fraction
            // rounds up, so the tool never gets less than asked (`as` saturates a huge one).
            Some(millis) => Some(Duration::from_millis(millis.ceil() as u64)),
            None => {
                return envelope.failure(
                    StatusCode::BAD_REQUEST,
                    "VALIDATION_ERROR",
                    "`context.timeout` must be a number of milliseconds above 0",
                    json!({ "field": "context.timeout", "provided": given }),
                );
            }
        },
    };
    let grant = rest.grants.grant(
        headers
            .get(header::AUTHORIZATION)
            .map(HeaderValue::as_bytes),
    );
    let streamed = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .any(|accept| accept.contains(NDJSON));
    let (context, events) = if streamed {
        let (context, events) = ToolContext::with_events();
        (context, Some(events))
    } else {
        (ToolContext::silent(), None)
    };
    let mcp_name = found.mcp_name.clone();
    let runner = Arc::clone(&rest.runner);
    let payload_bytes = body.len();
    let run = async move {
        runner
            .run(Request {
                tool: &mcp_name,
                params,
                face: Face::Rest,
                grant,
                payload_bytes,
                timeout,
                context,
            })
            .await
    };
    let Some(events) = events else {
        let outcome = run.await;
        return answer(&rest, envelope, &found.mcp_name, outcome);
    };
    let mcp_name = found.mcp_name.clone();
    stream::respond(Arc::clone(&rest), envelope, mcp_name, run, events).await
}

/// The envelope of a finished call: a refusal with its status, a tool error as
/// `EXECUTION_ERROR`, a result as success.
pub(super) fn answer(
    rest: &Rest,
    envelope: Envelope,
    mcp_name: &str,
    outcome: Result<CallToolResult, Refusal>,
) -> Response {
    let result = match outcome {
        Ok(result) => result,
        Err(refusal) => return refused(envelope, refusal),
    };
    if rest.options.drifts(Drift::Execution) {
        return drifted(envelope, mcp_name, &result);
    }
    if result.is_error == Some(true) {
        envelope.failure(
            StatusCode::BAD_GATEWAY,
            "EXECUTION_ERROR",
            text_of(&result),
            Value::Null,
        )
    } else {
        envelope.success(result_value(&result))
    }
}

/// A refusal's status: 403 for a permission, 504 for time, 429 for a place (try again in a
/// second), 413 for a payload, 400 for another validation, 502 for the rest.
fn refused(envelope: Envelope, refusal: Refusal) -> Response {
    let (status, retry) = match refusal.code {
        code::PERMISSION => (StatusCode::FORBIDDEN, None),
        code::TIMEOUT => (StatusCode::GATEWAY_TIMEOUT, None),
        code::RATE_LIMIT => (
            StatusCode::TOO_MANY_REQUESTS,
            Some((header::RETRY_AFTER, HeaderValue::from(1))),
        ),
        code::VALIDATION if refusal.details.get("maxPayloadSize").is_some() => {
            (StatusCode::PAYLOAD_TOO_LARGE, None)
        }
        code::VALIDATION => (StatusCode::BAD_REQUEST, None),
        _ => (StatusCode::BAD_GATEWAY, None),
    };
    envelope.failure_with(
        status,
        refusal.code,
        refusal.message,
        refusal.details,
        retry,
    )
}

/// The answer of [`Drift::Execution`].
fn drifted(envelope: Envelope, tool: &str, result: &CallToolResult) -> Response {
    let text = text_of(result);
    if result.is_error != Some(true) {
        let mut value = result_value(result);
        if tool == tools::current_weather::NAME
            && let Value::Object(fields) = &mut value
        {
            fields.remove("units");
        }
        envelope.success(value)
    } else if text.contains("answered 404") {
        envelope.failure(StatusCode::NOT_FOUND, "TOOL_NOT_FOUND", text, Value::Null)
    } else {
        envelope.success(Value::String(text))
    }
}

/// Every way `params` break the tool's input `schema`, as `{path, message}`.
fn violations(schema: &Result<jsonschema::Validator, String>, params: &JsonObject) -> Vec<Value> {
    match schema {
        Ok(validator) => validator
            .iter_errors(&Value::Object(params.clone()))
            .map(|error| json!({"path": error.instance_path().to_string(), "message": error.to_string()}))
            .collect(),
        Err(error) => vec![json!({"path": "", "message": format!("invalid schema: {error}")})],
    }
}

/// The structured content, else the text.
fn result_value(result: &CallToolResult) -> Value {
    result
        .structured_content
        .clone()
        .unwrap_or_else(|| Value::String(text_of(result)))
}
