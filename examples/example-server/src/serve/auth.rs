//! Bearer-token check in front of the HTTP transports.

use std::sync::Arc;

use axum::{
    Router,
    extract::{Request, State},
    http::{
        HeaderValue, StatusCode,
        header::{AUTHORIZATION, WWW_AUTHENTICATE},
    },
    middleware::{self, Next},
    response::{IntoResponse, Response},
};

use super::HttpOptions;

const CHALLENGE: &str = r#"Bearer realm="mcp-assured-example""#;

#[derive(Clone)]
struct BearerToken {
    token: Arc<str>,
    /// The `WWW-Authenticate` of a 401, if one is sent.
    challenge: Option<HeaderValue>,
}

/// `router`, with every route behind the token of `options`, if it has one.
pub(super) fn protect(router: Router, options: &HttpOptions) -> Router {
    match &options.bearer_token {
        Some(token) => router.layer(middleware::from_fn_with_state(
            BearerToken {
                token: token.as_str().into(),
                challenge: options.challenge.then(|| challenge(options)),
            },
            require_token,
        )),
        None => router,
    }
}

async fn require_token(
    State(expected): State<BearerToken>,
    request: Request,
    next: Next,
) -> Response {
    let presented = request
        .headers()
        .get(AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split_once(' '))
        // The scheme is case-insensitive (RFC 9110, section 11.1).
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim());
    if presented == Some(&*expected.token) {
        return next.run(request).await;
    }
    let mut response =
        (StatusCode::UNAUTHORIZED, "missing or invalid bearer token").into_response();
    if let Some(challenge) = expected.challenge {
        response.headers_mut().insert(WWW_AUTHENTICATE, challenge);
    }
    response
}

/// `Bearer realm=".."`, naming the resource metadata if there is one.
fn challenge(options: &HttpOptions) -> HeaderValue {
    let value = match &options.resource_metadata {
        Some(url) => format!(r#"{CHALLENGE}, resource_metadata="{url}""#),
        None => CHALLENGE.to_owned(),
    };
    HeaderValue::from_str(&value).unwrap_or(HeaderValue::from_static(CHALLENGE))
}
