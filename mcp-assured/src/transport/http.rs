//! What the two HTTP transports share: how they read a refused connection and rmcp's HTTP
//! errors.

/// What a refused TCP connection means to the person running the test.
pub(crate) const CONNECTION_REFUSED: &str =
    "nothing is listening there (connection refused); is the server running on that port?";

/// The HTTP status at the start of rmcp's "HTTP 401 Unauthorized: ..." messages.
pub(crate) fn status_in_message(message: &str) -> Option<u16> {
    let rest = message.split("HTTP ").nth(1)?;
    rest.get(..3)?.parse().ok()
}

#[cfg(test)]
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
