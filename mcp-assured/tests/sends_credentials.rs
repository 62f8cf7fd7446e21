//! The credentials and headers a test configures reach the server on both HTTP transports.
//! A bare TCP listener records the request head and refuses with 401, so what is checked
//! is exactly what went on the wire.

use mcp_assured::{Error, McpAssured};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpListener,
};

/// Accepts one connection, returns the request head, and answers 401.
async fn capture_one_request() -> (String, tokio::task::JoinHandle<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let task = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.unwrap();
        let mut head = Vec::new();
        let mut buf = [0u8; 4096];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = socket.read(&mut buf).await.unwrap();
            if n == 0 {
                break;
            }
            head.extend_from_slice(&buf[..n]);
        }
        socket
            .write_all(
                b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            )
            .await
            .unwrap();
        String::from_utf8_lossy(&head).to_lowercase()
    });
    (url, task)
}

#[tokio::test]
async fn basic_auth_and_custom_headers_are_sent() {
    for path in ["/mcp", "/sse"] {
        let (url, request) = capture_one_request().await;
        let error = McpAssured::client()
            .base_uri(format!("{url}{path}"))
            .basic_auth("aladdin", "opensesame")
            .header("X-Api-Key", "key-123")
            .build()
            .await
            .unwrap_err();
        assert!(
            matches!(
                error,
                Error::Connect {
                    status: Some(401),
                    ..
                }
            ),
            "{error:?}"
        );
        let head = request.await.unwrap();
        assert!(
            head.contains("authorization: basic ywxhzgrpbjpvcgvuc2vzyw1l"),
            "{path}: {head}"
        );
        assert!(head.contains("x-api-key: key-123"), "{path}: {head}");
        let shown = format!("{error} {error:?}");
        assert!(
            !shown.contains("opensesame") && !shown.contains("key-123"),
            "{shown}"
        );
    }
}

#[tokio::test]
async fn a_bearer_token_is_sent_as_authorization() {
    for path in ["/mcp", "/sse"] {
        let (url, request) = capture_one_request().await;
        let _ = McpAssured::client()
            .base_uri(format!("{url}{path}"))
            .access_token("tok-456")
            .build()
            .await
            .unwrap_err();
        let head = request.await.unwrap();
        assert!(
            head.contains("authorization: bearer tok-456"),
            "{path}: {head}"
        );
    }
}

/// A user and password in the URL are sent as basic auth, and never shown with the URL.
#[tokio::test]
async fn credentials_in_the_url_are_sent_as_basic_auth_and_not_shown() {
    for path in ["/mcp", "/sse"] {
        let (url, request) = capture_one_request().await;
        let url = url.replace("http://", "http://aladdin:open%20sesame@");
        let error = McpAssured::client()
            .base_uri(format!("{url}{path}"))
            .build()
            .await
            .unwrap_err();
        let head = request.await.unwrap();
        // base64("aladdin:open sesame")
        assert!(
            head.contains("authorization: basic ywxhzgrpbjpvcgvuihnlc2ftzq=="),
            "{path}: {head}"
        );
        let shown = format!("{error} {error:?}");
        assert!(
            !shown.contains("open") && !shown.contains("aladdin"),
            "{path}: {shown}"
        );
        assert!(shown.contains("401"), "{path}: {shown}");
    }
}
