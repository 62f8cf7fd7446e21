//! What the two HTTP transports share: where the server is and how to reach it, how they
//! read a refused connection and rmcp's HTTP errors. Without the `http` feature, only what a
//! refused connection means.

#[cfg(feature = "http")]
use crate::{
    credentials::Credentials,
    error::Error,
    tls::{Tls, connection_refused, tls_failure},
};

/// An HTTP server and everything needed to reach it.
#[cfg(feature = "http")]
#[derive(Debug, Clone)]
pub(crate) struct HttpTarget {
    pub(crate) url: String,
    pub(crate) credentials: Credentials,
    pub(crate) tls: Tls,
}

/// What a refused TCP connection means to the person running the test.
pub(crate) const CONNECTION_REFUSED: &str =
    "nothing is listening there (connection refused); is the server running on that port?";

/// A request to `target` that got no HTTP answer: a failed TLS handshake, a refused
/// connection, or another failure, in that order of telling.
#[cfg(feature = "http")]
pub(crate) fn connect_failed(target: &str, error: &reqwest::Error) -> Error {
    if let Some((problem, reason)) = tls_failure(error) {
        return Error::Tls {
            target: target.to_owned(),
            problem,
            reason,
        };
    }
    Error::Connect {
        target: target.to_owned(),
        status: None,
        www_authenticate: None,
        reason: connect_reason(error),
    }
}

/// Why a connection could not be made, in words: [`CONNECTION_REFUSED`] when nothing
/// listens, else the error's chain.
#[cfg(feature = "http")]
pub(crate) fn connect_reason(error: &(dyn std::error::Error + 'static)) -> String {
    if connection_refused(error) {
        return CONNECTION_REFUSED.to_owned();
    }
    match error.downcast_ref::<reqwest::Error>() {
        Some(request) => describe_request_error(request),
        None => error.to_string(),
    }
}

/// The HTTP status at the start of rmcp's "HTTP 401 Unauthorized: ..." messages.
#[cfg(feature = "http")]
pub(crate) fn status_in_message(message: &str) -> Option<u16> {
    let rest = message.split("HTTP ").nth(1)?;
    rest.get(..3)?.parse().ok()
}

/// reqwest's Display hides the cause ("error sending request"); the chain names it.
#[cfg(feature = "http")]
pub(crate) fn describe_request_error(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn finds_the_status_in_rmcp_messages() {
        assert_eq!(status_in_message("HTTP 401 Unauthorized: nope"), Some(401));
        assert_eq!(
            status_in_message("unexpected server response: HTTP 500 Internal Server Error: x"),
            Some(500)
        );
        assert_eq!(status_in_message("no status"), None);
    }
}
