//! HTTPS on every HTTP face: server-everything (streamable HTTP and HTTP+SSE) and the weather
//! server's REST surface behind a TLS front with certificates made in the test, and the
//! Python SDK serving TLS itself. A trusted certificate connects; an untrusted, expired or
//! wrongly named one is [`Error::Tls`] naming the problem and what to do, never "connection
//! refused".

use std::{
    net::SocketAddr,
    time::{Duration, Instant},
};

use mcp_assured::{Error, McpAssured, McpClient, Tls, TlsProblem, fixture::ServerProcess};
use mcp_assured_tests::{
    Transport, server,
    tls::{Flaw, HttpsFront, ServerCertificate, TestCa},
};
use serde_json::json;
use weather_server::{WeatherServer, rest::RestOptions, serve::serve_hybrid};

/// server-everything over `transport`, and a TLS front before it serving `certificate`.
async fn everything_behind_tls(
    transport: Transport,
    certificate: &ServerCertificate,
) -> (ServerProcess, HttpsFront) {
    let server = server::everything(transport).await;
    let port = server.port().expect("an HTTP server");
    let front = HttpsFront::start(SocketAddr::from(([127, 0, 0, 1], port)), certificate).await;
    (server, front)
}

fn path(transport: Transport) -> &'static str {
    match transport {
        Transport::Sse => "/sse",
        _ => "/mcp",
    }
}

async fn echo(client: &McpClient) {
    let result = client
        .call_tool("echo", json!({"message": "over TLS"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "Echo: over TLS");
}

/// What `build()` fails with, within the start-up timeout.
async fn build_error(builder: mcp_assured::ClientBuilder) -> Error {
    let started = Instant::now();
    let error = builder
        .startup_timeout(Duration::from_secs(10))
        .build()
        .await
        .expect_err("the connection must fail");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    error
}

fn assert_tls(error: &Error, expected: TlsProblem, says: &str) {
    let message = error.to_string();
    assert!(
        matches!(error, Error::Tls { problem, .. } if *problem == expected),
        "expected {expected:?}, got {error:?}"
    );
    assert!(message.contains(says), "{message}");
    assert!(!message.contains("connection refused"), "{message}");
}

#[tokio::test]
async fn both_http_transports_reach_a_server_behind_tls_with_its_ca() {
    let ca = TestCa::new();
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let (_server, front) =
            everything_behind_tls(transport, &ca.server_certificate(Flaw::None)).await;
        let by_pem = McpAssured::client()
            .base_uri(front.url(path(transport)))
            .ca_certificate_pem(ca.pem())
            .build()
            .await
            .unwrap_or_else(|error| panic!("{transport:?}: {error}"));
        echo(&by_pem).await;
        by_pem.close().await.unwrap();
        // The certificate names localhost too; the CA from a file, as a whole `Tls`.
        let by_file = McpAssured::client()
            .base_uri(front.localhost_url(path(transport)))
            .tls(Tls::new().ca_certificate_file(ca.file()))
            .build()
            .await
            .unwrap_or_else(|error| panic!("{transport:?} via localhost: {error}"));
        echo(&by_file).await;
        by_file.close().await.unwrap();
    }
}

#[tokio::test]
async fn an_untrusted_certificate_is_a_tls_error_that_says_how_to_trust_it() {
    let ca = TestCa::new();
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let (_server, front) =
            everything_behind_tls(transport, &ca.server_certificate(Flaw::None)).await;
        let error = build_error(McpAssured::client().base_uri(front.url(path(transport)))).await;
        assert_tls(&error, TlsProblem::UnknownIssuer, "unknown issuer");
        let message = error.to_string();
        assert!(message.contains("--cacert FILE"), "{message}");
        assert!(message.contains(&front.url(path(transport))), "{message}");
        // Another CA's certificate does not make it trusted.
        let other = TestCa::new();
        let error = build_error(
            McpAssured::client()
                .base_uri(front.url(path(transport)))
                .ca_certificate_pem(other.pem()),
        )
        .await;
        assert_tls(&error, TlsProblem::UnknownIssuer, "unknown issuer");
    }
}

#[tokio::test]
async fn an_expired_certificate_and_one_for_another_host_are_named() {
    let ca = TestCa::new();
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let (_expired_server, expired) =
            everything_behind_tls(transport, &ca.server_certificate(Flaw::Expired)).await;
        let error = build_error(
            McpAssured::client()
                .base_uri(expired.url(path(transport)))
                .ca_certificate_pem(ca.pem()),
        )
        .await;
        assert_tls(&error, TlsProblem::Expired, "has expired");
        assert!(error.to_string().contains("Renew"), "{error}");

        let (_named_server, other_host) =
            everything_behind_tls(transport, &ca.server_certificate(Flaw::OtherHost)).await;
        let error = build_error(
            McpAssured::client()
                .base_uri(other_host.url(path(transport)))
                .ca_certificate_pem(ca.pem()),
        )
        .await;
        assert_tls(&error, TlsProblem::WrongHostName, "another host name");
    }
}

#[tokio::test]
async fn accepting_invalid_certificates_reaches_a_self_signed_expired_misnamed_server() {
    let ca = TestCa::new();
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        for flaw in [Flaw::Expired, Flaw::OtherHost] {
            let (_server, front) =
                everything_behind_tls(transport, &ca.server_certificate(flaw)).await;
            let client = McpAssured::client()
                .base_uri(front.url(path(transport)))
                .accept_invalid_certificates(true)
                .build()
                .await
                .unwrap_or_else(|error| panic!("{transport:?} {flaw:?}: {error}"));
            echo(&client).await;
            client.close().await.unwrap();
        }
    }
}

#[tokio::test]
async fn https_to_a_plain_http_server_says_it_does_not_speak_tls() {
    let server = server::everything(Transport::StreamableHttp).await;
    let port = server.port().unwrap();
    let error = build_error(
        McpAssured::client()
            .base_uri(format!("https://127.0.0.1:{port}/mcp"))
            .accept_invalid_certificates(true),
    )
    .await;
    assert_tls(&error, TlsProblem::NotTls, "did not answer in TLS");
    assert!(error.to_string().contains("`http://` URL"), "{error}");
}

#[tokio::test]
async fn a_refused_https_connection_is_still_reported_as_refused() {
    let port = mcp_assured::fixture::free_port().unwrap();
    let error =
        build_error(McpAssured::client().base_uri(format!("https://127.0.0.1:{port}/mcp"))).await;
    assert!(matches!(error, Error::Connect { .. }), "{error:?}");
    assert!(error.to_string().contains("connection refused"), "{error}");
}

#[tokio::test]
async fn a_missing_ca_file_is_invalid_input_naming_it() {
    let error = McpAssured::client()
        .base_uri("https://127.0.0.1:1/mcp")
        .ca_certificate_file("/nonexistent/ca.pem")
        .build()
        .await
        .unwrap_err();
    assert!(matches!(error, Error::InvalidInput { .. }), "{error:?}");
    assert!(error.to_string().contains("/nonexistent/ca.pem"), "{error}");
}

#[tokio::test]
async fn the_rest_client_reaches_a_rest_surface_behind_tls() {
    let ca = TestCa::new();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let backend = listener.local_addr().unwrap();
    let server = WeatherServer::new("http://127.0.0.1:1");
    let task = tokio::spawn(serve_hybrid(listener, server, RestOptions::default()));
    let front = HttpsFront::start(backend, &ca.server_certificate(Flaw::None)).await;

    let trusted = McpAssured::rest()
        .base_uri(front.url(""))
        .ca_certificate_pem(ca.pem())
        .build()
        .unwrap();
    let tools = trusted.list_tools().await.unwrap();
    assert!(!tools.tools.is_empty(), "{tools:?}");
    let insecure = McpAssured::rest()
        .base_uri(front.url(""))
        .accept_invalid_certificates(true)
        .build()
        .unwrap();
    insecure.list_tools().await.unwrap();

    let untrusted = McpAssured::rest().base_uri(front.url("")).build().unwrap();
    let error = untrusted.list_tools().await.unwrap_err();
    assert_tls(&error, TlsProblem::UnknownIssuer, "unknown issuer");
    task.abort();
}

#[tokio::test]
async fn a_python_sdk_server_serving_tls_itself_is_reached_on_both_transports() {
    let ca = TestCa::new();
    let certificate = ca.server_certificate(Flaw::None);
    for transport in [Transport::StreamableHttp, Transport::Sse] {
        let server = server::python_https(transport, &certificate).await;
        let client = McpAssured::client()
            .base_uri(server.url())
            .ca_certificate_pem(ca.pem())
            .build()
            .await
            .unwrap_or_else(|error| {
                panic!("{transport:?}: {error}\n{}", server::output(&server.server))
            });
        let result = client
            .call_tool("echo", json!({"message": "over TLS"}))
            .await
            .unwrap();
        assert_eq!(result.text(), "over TLS");
        client.close().await.unwrap();
        let error = build_error(McpAssured::client().base_uri(server.url())).await;
        assert_tls(&error, TlsProblem::UnknownIssuer, "unknown issuer");
    }
}
