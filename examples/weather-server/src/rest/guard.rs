//! What stands before the handlers: the bearer token, the rate limit, the 405 for a wrong
//! method, the 404 for an unknown path and the `X-MCP-Version` header, each answering with a
//! full envelope.

use std::{
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use axum::{
    Router,
    extract::{Request, State},
    http::{HeaderValue, Method, StatusCode, Uri, header},
    middleware::{self, Next},
    response::Response,
};
use serde_json::json;

use super::{ENDPOINTS, VERSION, envelope::Executions};
use crate::policy::Grants;

/// Which bearer tokens a route takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accept {
    /// Only the configured one.
    Exact,
    /// Any, as long as there is one (the auth drift).
    AnyBearer,
}

#[derive(Clone)]
struct TokenCheck {
    grants: Arc<Grants>,
    accept: Accept,
    executions: Arc<Executions>,
}

/// `routes` behind `Authorization: Bearer <token>`, if the server has tokens: a missing or
/// unknown one gets 401 with a `PERMISSION_ERROR` envelope and a `WWW-Authenticate`
/// challenge. (Whether a known token's scopes allow a tool is the runner's question: 403.)
pub(crate) fn protect(
    routes: Router,
    grants: &Arc<Grants>,
    accept: Accept,
    executions: &Arc<Executions>,
) -> Router {
    if !grants.requires_token() {
        return routes;
    }
    let check = TokenCheck {
        grants: Arc::clone(grants),
        accept,
        executions: Arc::clone(executions),
    };
    routes.layer(middleware::from_fn_with_state(check, check_token))
}

async fn check_token(State(check): State<TokenCheck>, request: Request, next: Next) -> Response {
    let given = request.headers().get(header::AUTHORIZATION);
    let allowed = given.is_some_and(|value| {
        let Some(token) = value.as_bytes().strip_prefix(b"Bearer ") else {
            return false;
        };
        match check.accept {
            Accept::Exact => {
                std::str::from_utf8(token).is_ok_and(|token| check.grants.knows(token))
            }
            Accept::AnyBearer => true,
        }
    });
    if allowed {
        return next.run(request).await;
    }
    let message = if given.is_some() {
        "the bearer token is wrong"
    } else {
        "a bearer token is required"
    };
    check.executions.start().failure_with(
        StatusCode::UNAUTHORIZED,
        "PERMISSION_ERROR",
        message,
        serde_json::Value::Null,
        Some((
            header::WWW_AUTHENTICATE,
            HeaderValue::from_static(r#"Bearer realm="weather-server""#),
        )),
    )
}

/// A fixed one-minute window of executions.
#[derive(Debug)]
pub(crate) struct RateLimit {
    per_minute: u32,
    window: Mutex<(Instant, u32)>,
}

const WINDOW: Duration = Duration::from_secs(60);

impl RateLimit {
    pub(crate) fn new(per_minute: u32) -> Self {
        Self {
            per_minute,
            window: Mutex::new((Instant::now(), 0)),
        }
    }

    /// `Err(seconds to wait)` when this minute's executions are used up.
    pub(crate) fn take(&self) -> Result<(), u64> {
        let mut window = self
            .window
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let now = Instant::now();
        if now.duration_since(window.0) >= WINDOW {
            *window = (now, 0);
        }
        if window.1 < self.per_minute {
            window.1 += 1;
            return Ok(());
        }
        let left = WINDOW.saturating_sub(now.duration_since(window.0));
        Err(left.as_secs() + u64::from(left.subsec_nanos() > 0))
    }

    pub(crate) fn per_minute(&self) -> u32 {
        self.per_minute
    }
}

/// The 405 of a route, as an envelope naming the methods it takes.
pub(crate) fn method_not_allowed<S: Clone + Send + Sync + 'static>(
    routes: Router<S>,
    allowed: &'static str,
    executions: &Arc<Executions>,
) -> Router<S> {
    let executions = Arc::clone(executions);
    routes.method_not_allowed_fallback(move |method: Method| async move {
        executions.start().failure_with(
            StatusCode::METHOD_NOT_ALLOWED,
            "VALIDATION_ERROR",
            format!("{method} is not allowed here; use {allowed}"),
            json!({ "method": method.as_str(), "allowed": [allowed] }),
            Some((header::ALLOW, HeaderValue::from_static(allowed))),
        )
    })
}

/// `app` answering every path it does not serve with a `NOT_FOUND` 404 envelope (why that
/// code: see the [module docs](super)) instead of axum's plain text. Not behind the bearer
/// token: there is nothing at an unknown path to protect.
pub(crate) fn not_found(app: Router, executions: &Arc<Executions>) -> Router {
    let executions = Arc::clone(executions);
    app.fallback(move |method: Method, uri: Uri| async move {
        executions.start().failure(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("no endpoint {method} {}", uri.path()),
            json!({
                "method": method.as_str(),
                "path": uri.path(),
                "endpoints": ENDPOINTS,
            }),
        )
    })
}

/// Every answer, refusals included, carries `X-MCP-Version`.
pub(crate) fn version_header(app: Router) -> Router {
    app.layer(middleware::from_fn(add_version))
}

async fn add_version(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response
        .headers_mut()
        .insert("x-mcp-version", HeaderValue::from_static(VERSION));
    response
}
