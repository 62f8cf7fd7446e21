//! The envelope of every execution and every refusal (401, 404, 405, 413, 429): `{success,
//! result | error{code, message, details}, metadata{executionId, duration, timestamp}}`. The
//! listing of `GET /mcp/tools` is not one: it is the spec's `{version, tools}`.

use std::{
    sync::atomic::{AtomicU64, Ordering},
    time::Instant,
};

use axum::{
    Json,
    http::{HeaderName, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};
use serde_json::{Value, json};

/// Hands out execution ids, one sequence per server.
#[derive(Debug, Default)]
pub(crate) struct Executions {
    next: AtomicU64,
}

impl Executions {
    /// A new execution, timed from now.
    pub(crate) fn start(&self) -> Envelope {
        Envelope {
            id: format!("exec-{}", self.next.fetch_add(1, Ordering::Relaxed) + 1),
            started: Instant::now(),
        }
    }
}

/// The answer to one request, not yet written.
pub(crate) struct Envelope {
    id: String,
    started: Instant,
}

impl Envelope {
    /// `200 {success: true, result}`.
    pub(crate) fn success(self, result: Value) -> Response {
        self.respond(
            StatusCode::OK,
            json!({ "success": true, "result": result }),
            None,
        )
    }

    /// `{success: false, error: {code, message, details?}}` with `status`.
    pub(crate) fn failure(
        self,
        status: StatusCode,
        code: &str,
        message: impl Into<String>,
        details: Value,
    ) -> Response {
        self.failure_with(status, code, message, details, None)
    }

    /// [`failure`](Self::failure) with one more header (`WWW-Authenticate`, `Allow`,
    /// `Retry-After`).
    pub(crate) fn failure_with(
        self,
        status: StatusCode,
        code: &str,
        message: impl Into<String>,
        details: Value,
        header: Option<(HeaderName, HeaderValue)>,
    ) -> Response {
        let mut error = json!({ "code": code, "message": message.into() });
        if !details.is_null() {
            error["details"] = details;
        }
        self.respond(status, json!({ "success": false, "error": error }), header)
    }

    fn respond(
        self,
        status: StatusCode,
        outcome: Value,
        header: Option<(HeaderName, HeaderValue)>,
    ) -> Response {
        let mut body = json!({
            "metadata": {
                "executionId": self.id,
                "duration": u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX),
                "timestamp": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            },
        });
        if let (Value::Object(body), Value::Object(outcome)) = (&mut body, outcome) {
            body.extend(outcome);
        }
        let mut response = (status, Json(body)).into_response();
        if let Some((name, value)) = header {
            response.headers_mut().insert(name, value);
        }
        response
    }
}
