//! Loopback only, against DNS rebinding: a request whose `Host` is not a loopback name, or
//! whose `Origin` is a page from anywhere else, is refused with 403, before any session
//! sees it. rmcp does the same for streamable HTTP (allowed hosts and origins); this is the
//! HTTP+SSE transport's.

use axum::{
    extract::Request,
    http::{HeaderMap, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

/// The middleware: refuses a foreign `Host` or `Origin` with 403.
pub(crate) async fn loopback_only(request: Request, next: Next) -> Response {
    match refusal(request.headers()) {
        Some(why) => (StatusCode::FORBIDDEN, why).into_response(),
        None => next.run(request).await,
    }
}

/// Why the request is refused, if it is.
fn refusal(headers: &HeaderMap) -> Option<&'static str> {
    let value = |name| headers.get(name).map(|v| v.to_str().unwrap_or(""));
    if let Some(host) = value(header::HOST)
        && !is_loopback_authority(host)
    {
        return Some("Forbidden: Host header is not allowed");
    }
    if let Some(origin) = value(header::ORIGIN) {
        let authority = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"));
        if !authority.is_some_and(is_loopback_authority) {
            return Some("Forbidden: Origin header is not allowed");
        }
    }
    None
}

/// Whether `host[:port]` names this machine.
fn is_loopback_authority(authority: &str) -> bool {
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or(""),
        None => authority.split(':').next().unwrap_or(""),
    };
    host.eq_ignore_ascii_case("localhost") || host == "127.0.0.1" || host == "::1"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(name, value)| (name.clone(), value.parse().unwrap()))
            .collect()
    }

    #[test]
    fn serves_loopback_and_refuses_the_rest() {
        assert_eq!(refusal(&headers(&[(header::HOST, "127.0.0.1:8080")])), None);
        assert_eq!(refusal(&headers(&[(header::HOST, "[::1]:80")])), None);
        assert_eq!(
            refusal(&headers(&[
                (header::HOST, "localhost"),
                (header::ORIGIN, "http://localhost:6274")
            ])),
            None
        );
        assert!(refusal(&headers(&[(header::HOST, "evil.example.com")])).is_some());
        assert!(refusal(&headers(&[(header::HOST, "127.0.0.1.evil.example.com:80")])).is_some());
        assert!(refusal(&headers(&[(header::ORIGIN, "http://evil.example.com")])).is_some());
        assert!(refusal(&headers(&[(header::ORIGIN, "null")])).is_some());
    }
}
