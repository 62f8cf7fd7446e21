//! `POST /mcp/tools/{name}/execute`: look the tool up, read and check the body, run the tool
//! module, answer with the envelope.

use std::{sync::Arc, time::Duration};

use axum::{
    body::Bytes,
    extract::{Path, State, rejection::BytesRejection},
    http::{HeaderValue, StatusCode, header},
    response::Response,
};
use rmcp::model::{CallToolResult, JsonObject};
use serde_json::{Value, json};

use super::{Drift, Rest, envelope::Envelope};
use crate::tools;

pub(crate) async fn execute(
    State(rest): State<Arc<Rest>>,
    Path(name): Path<String>,
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
    let mcp_name = found.mcp_name.as_str();
    let call = tools::call(&rest.api, mcp_name, params);
    let result = match timeout {
        Some(limit) => match tokio::time::timeout(limit, call).await {
            Ok(result) => result,
            Err(_) => {
                return envelope.failure(
                    StatusCode::GATEWAY_TIMEOUT,
                    "TIMEOUT_ERROR",
                    format!("`{name}` took longer than {} ms", limit.as_millis()),
                    Value::Null,
                );
            }
        },
        None => call.await,
    };
    let result = result.expect("every tool of `surface()` is one `tools::call` runs");
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

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}
