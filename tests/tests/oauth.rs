//! OAuth against a resource server of our own (the example server, requiring a bearer token
//! and naming its protected resource metadata in the 401) whose authorization server is a
//! wiremock HTTP backend, as a deployed MCP server's identity provider is. The official
//! conformance suite proves the protocol (`tests/tests/conformance.rs`); this suite proves
//! what it cannot stage: the test's own `authorize_with` function, the client-credentials
//! grant against a plain server, and every way an authorization server goes wrong, each a
//! typed [`Error::Authorization`] naming the step, within the start-up timeout, never
//! showing a token or a secret.

use std::time::{Duration, Instant};

use mcp_assured::{
    AuthorizationStep, Error, OAuth,
    wiremock::{
        Mock, Request, Respond, ResponseTemplate,
        matchers::{body_string_contains, method, path},
    },
};
use mcp_assured_tests::{
    oauth::{ApproveAtOnce, Deployment, TOKEN},
    tls::{Flaw, TestCa},
};
use serde_json::json;

const SECRET: &str = "client-secret-5678";

/// `build()`'s error, which must come within the start-up timeout and show no secret.
async fn refused(builder: mcp_assured::ClientBuilder, step: AuthorizationStep) -> String {
    let started = Instant::now();
    let error = builder.build().await.expect_err("authorization must fail");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "took {:?}: {error}",
        started.elapsed()
    );
    let message = error.to_string();
    assert!(
        matches!(&error, Error::Authorization { step: failed, .. } if *failed == step),
        "expected {step:?}, got {error:?}"
    );
    for shown in [message.clone(), format!("{error:?}")] {
        assert!(!shown.contains(TOKEN), "{shown}");
        assert!(!shown.contains(SECRET), "{shown}");
    }
    message
}

#[tokio::test]
async fn discovers_registers_authorizes_headless_and_calls() {
    let deployment = Deployment::compliant().await;
    let client = deployment.client(OAuth::new()).build().await.unwrap();
    let result = client
        .call_tool("echo", json!({"message": "authorized"}))
        .await
        .unwrap();
    assert_eq!(result.text(), "authorized");
    // The metadata the 401 names is read twice: checked by the harness, then used by rmcp.
    assert_eq!(
        deployment.received().await,
        [
            "GET /prm",
            "GET /prm",
            "GET /.well-known/oauth-authorization-server",
            "POST /register",
            "GET /authorize",
            "POST /token"
        ]
    );
    let requests = deployment
        .authorization_server
        .received_requests()
        .await
        .unwrap();
    let authorize = requests
        .iter()
        .find(|r| r.url.path() == "/authorize")
        .unwrap();
    let query = authorize.url.query().unwrap_or_default().to_owned();
    assert!(query.contains("code_challenge_method=S256"), "{query}");
    assert!(query.contains("resource="), "{query}");
    client.close().await.unwrap();
}

#[tokio::test]
async fn the_tests_own_function_can_authorize() {
    let deployment = Deployment::compliant().await;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
    let remember = seen.clone();
    let oauth = OAuth::new()
        .client_id("pre-registered")
        .authorize_with(move |url| {
            *remember.lock().unwrap() = url;
            async { Ok("code-from-the-test".to_owned()) }
        });
    let client = deployment.client(oauth).build().await.unwrap();
    client.list_tools().await.unwrap();
    let url = seen.lock().unwrap().clone();
    assert!(
        url.starts_with(&format!("{}/authorize?", deployment.issuer())),
        "{url}"
    );
    assert!(url.contains("client_id=pre-registered"), "{url}");
    // Pre-registered: no registration; the test's function replaced the redirect.
    let received = deployment.received().await;
    assert!(
        !received.contains(&"POST /register".to_owned()),
        "{received:?}"
    );
    assert!(
        !received.contains(&"GET /authorize".to_owned()),
        "{received:?}"
    );
}

#[tokio::test]
async fn the_client_credentials_grant_needs_no_user() {
    let deployment = Deployment::start().await;
    deployment.serve_metadata().await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=client_credentials"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600,
        })))
        .mount(&deployment.authorization_server)
        .await;
    let client = deployment
        .client(OAuth::client_credentials("service", SECRET))
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    assert!(
        format!("{client:?}").find(SECRET).is_none(),
        "the secret leaked into Debug"
    );
}

#[tokio::test]
async fn malformed_protected_resource_metadata_is_named() {
    let deployment = Deployment::start().await;
    deployment.authorization_server.reset().await;
    deployment
        .answer(
            "GET",
            "/prm",
            ResponseTemplate::new(200).set_body_raw("{\"resource\": ", "application/json"),
        )
        .await;
    let message = refused(
        deployment.client(OAuth::new()),
        AuthorizationStep::ResourceMetadata,
    )
    .await;
    assert!(message.contains("protected resource metadata"), "{message}");
    assert!(
        message.contains("/prm, named by the server's WWW-Authenticate, is not JSON"),
        "{message}"
    );
}

#[tokio::test]
async fn an_authorization_server_answering_html_is_named() {
    let deployment = Deployment::start().await;
    deployment
        .answer(
            "GET",
            "/.well-known/oauth-authorization-server",
            ResponseTemplate::new(200)
                .set_body_raw("<html><body>Sign in</body></html>", "text/html"),
        )
        .await;
    refused(
        deployment.client(OAuth::new()),
        AuthorizationStep::ServerMetadata,
    )
    .await;
}

#[tokio::test]
async fn a_token_endpoint_that_hangs_is_named_within_the_timeout() {
    let deployment = Deployment::start().await;
    deployment.serve_metadata().await;
    deployment
        .answer(
            "POST",
            "/token",
            ResponseTemplate::new(200).set_delay(Duration::from_secs(30)),
        )
        .await;
    let message = refused(
        deployment.client(OAuth::client_credentials("service", SECRET)),
        AuthorizationStep::Token,
    )
    .await;
    assert!(message.contains("the token request"), "{message}");
}

/// A deployment whose authorization endpoint redirects to `location` (relative to the
/// issuer when it starts with `/`), and what authorizing there fails with.
async fn redirected_to(location: &str) -> (Deployment, String) {
    let deployment = Deployment::start().await;
    deployment.serve_metadata().await;
    let location = match location.strip_prefix('/') {
        Some(path) => format!("{}/{path}", deployment.issuer()),
        None => location.to_owned(),
    };
    deployment
        .answer(
            "GET",
            "/authorize",
            ResponseTemplate::new(302).insert_header("Location", location.as_str()),
        )
        .await;
    let message = refused(
        deployment.client(OAuth::new().client_id("c")),
        AuthorizationStep::Authorization,
    )
    .await;
    (deployment, message)
}

#[tokio::test]
async fn a_redirect_loop_and_a_login_page_are_the_authorization_step() {
    let (_looping, message) = redirected_to("/authorize").await;
    assert!(message.contains("a redirect loop"), "{message}");

    let login = Deployment::start().await;
    login.serve_metadata().await;
    login
        .answer(
            "GET",
            "/authorize",
            ResponseTemplate::new(200).set_body_raw("<form>password</form>", "text/html"),
        )
        .await;
    let message = refused(
        login.client(OAuth::new().client_id("c")),
        AuthorizationStep::Authorization,
    )
    .await;
    assert!(message.contains("a login or consent form"), "{message}");
    assert!(message.contains("authorize_with"), "{message}");
}

#[tokio::test]
async fn a_refused_token_request_and_a_token_never_accepted_are_named() {
    let deployment = Deployment::start().await;
    deployment.serve_metadata().await;
    deployment
        .answer(
            "POST",
            "/token",
            ResponseTemplate::new(401).set_body_json(json!({"error": "invalid_client"})),
        )
        .await;
    let message = refused(
        deployment.client(OAuth::client_credentials("service", SECRET)),
        AuthorizationStep::Token,
    )
    .await;
    assert!(message.contains("failed at the token request"), "{message}");

    // A token the resource server never accepts: three authorizations, then the error.
    let stubborn = Deployment::start().await;
    stubborn.serve_metadata().await;
    stubborn.issue("not-the-right-token").await;
    let message = refused(
        stubborn.client(OAuth::client_credentials("service", SECRET)),
        AuthorizationStep::Retry,
    )
    .await;
    assert!(message.contains("after 3 authorizations"), "{message}");
    assert!(!message.contains("not-the-right-token"), "{message}");
}

#[tokio::test]
async fn an_expiring_token_is_refreshed_without_authorizing_again() {
    let deployment = Deployment::start().await;
    deployment.serve_metadata().await;
    Mock::given(method("GET"))
        .and(path("/authorize"))
        .respond_with(ApproveAtOnce)
        .mount(&deployment.authorization_server)
        .await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=authorization_code"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "short-lived-token",
            "token_type": "Bearer",
            "expires_in": 1,
            "refresh_token": "the-refresh-token",
        })))
        .mount(&deployment.authorization_server)
        .await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("grant_type=refresh_token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": TOKEN, "token_type": "Bearer", "expires_in": 3600,
        })))
        .mount(&deployment.authorization_server)
        .await;
    let client = deployment
        .client(OAuth::new().client_id("pre-registered"))
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    let received = deployment.received().await;
    let count = |wanted: &str| received.iter().filter(|seen| *seen == wanted).count();
    assert_eq!(count("GET /authorize"), 1, "{received:?}");
    assert!(count("POST /token") >= 2, "{received:?}");
    let bodies: Vec<String> = deployment
        .authorization_server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|request| String::from_utf8_lossy(&request.body).into_owned())
        .collect();
    assert!(
        bodies
            .iter()
            .any(|body| body.contains("refresh_token=the-refresh-token")),
        "{bodies:?}"
    );
}

/// A redirect to `path` on the same server, relative, keeping the query.
struct RelativeHop(&'static str);

impl Respond for RelativeHop {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let location = format!("{}?{}", self.0, request.url.query().unwrap_or_default());
        ResponseTemplate::new(302).insert_header("Location", location.as_str())
    }
}

#[tokio::test]
async fn relative_redirects_are_followed_and_a_code_for_another_address_is_not_fetched() {
    // /authorize → /login (a relative Location) → the redirect URI.
    let hops = Deployment::start().await;
    hops.serve_metadata().await;
    hops.issue(TOKEN).await;
    Mock::given(method("GET"))
        .and(path("/authorize"))
        .respond_with(RelativeHop("/login"))
        .mount(&hops.authorization_server)
        .await;
    Mock::given(method("GET"))
        .and(path("/login"))
        .respond_with(ApproveAtOnce)
        .mount(&hops.authorization_server)
        .await;
    let client = hops
        .client(OAuth::new().client_id("c"))
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();

    // A code sent to another address than the redirect URI is not followed there.
    let (astray, message) = redirected_to("/elsewhere?code=the-code&state=s").await;
    assert!(message.contains("with a code or an error"), "{message}");
    assert!(!message.contains("the-code"), "{message}");
    let received = astray.received().await;
    assert!(
        !received.contains(&"GET /elsewhere".to_owned()),
        "{received:?}"
    );
}

#[tokio::test]
async fn oauth_runs_over_https_with_the_connections_trust() {
    let ca = TestCa::new();
    let deployment = Deployment::start_over_tls(&ca.server_certificate(Flaw::None)).await;
    deployment.serve_metadata().await;
    deployment.issue(TOKEN).await;
    assert!(
        deployment.mcp_url.starts_with("https://"),
        "{}",
        deployment.mcp_url
    );
    let client = deployment
        .client(OAuth::client_credentials("service", SECRET))
        .ca_certificate_pem(ca.pem())
        .build()
        .await
        .unwrap();
    client.list_tools().await.unwrap();
    let untrusted = deployment
        .client(OAuth::client_credentials("service", SECRET))
        .build()
        .await
        .unwrap_err();
    assert!(matches!(untrusted, Error::Tls { .. }), "{untrusted:?}");
}

// The authorization checks (`auth.*` of `McpClient::check`), against the same deployment:
// each passes when the deployment is right, and fails, saying what it expected, when the one
// thing it checks is wrong.

mod auth_checks {
    use mcp_assured::{
        McpAssured, McpClient,
        checks::{AUTH_CHECKS, CheckOptions},
        report::{Report, Status},
        wiremock::ResponseTemplate,
    };
    use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};
    use mcp_assured_tests::oauth::{Deployment, TOKEN};
    use serde_json::json;

    /// A client of the deployment's server with the bearer token it accepts.
    async fn bearer_client(url: &str) -> McpClient {
        McpAssured::client()
            .base_uri(url)
            .bearer_token(TOKEN)
            .build()
            .await
            .unwrap()
    }

    /// Asserts that `failing` failed saying each of `says`, and every other auth check
    /// passed, or (after a failure it depends on) was skipped.
    #[track_caller]
    fn only_this_fails(report: &Report, failing: Option<(&str, &[&str])>) {
        for name in AUTH_CHECKS {
            let entry = report.entry(name).unwrap();
            match failing {
                Some((failed, says)) if failed == name => {
                    assert_eq!(entry.status, Status::Failed, "{report}");
                    for said in says {
                        assert!(
                            entry.message.contains(said),
                            "{said:?} not in: {}",
                            entry.message
                        );
                    }
                }
                _ => assert_eq!(entry.status, Status::Passed, "{name}: {report}"),
            }
        }
        assert_eq!(report.failed(), usize::from(failing.is_some()), "{report}");
        assert!(
            !report.to_string().contains(TOKEN),
            "the token shows: {report}"
        );
    }

    #[tokio::test]
    async fn a_compliant_deployment_passes_and_refuses_bad_tokens() {
        let deployment = Deployment::compliant().await;
        let client = bearer_client(&deployment.mcp_url).await;
        let options = CheckOptions::default()
            .expired_token("expired-access-token-0001")
            .other_audience_token("token-for-another-resource");
        let report = client.check_with(&options).await;
        only_this_fails(&report, None);
        let tokens = report.entry("auth.tokens_refused").unwrap();
        assert_eq!(
            tokens.message,
            "refused with 401: a made-up token, the expired token, the token for another audience"
        );
        assert!(
            format!("{options:?}").contains("Secret(<redacted>)"),
            "{options:?}"
        );
    }

    #[tokio::test]
    async fn a_server_that_takes_an_expired_token_fails() {
        let deployment = Deployment::compliant().await;
        let client = bearer_client(&deployment.mcp_url).await;
        // The server accepts this token: as a server that never looks at expiry would.
        let options = CheckOptions::default().expired_token(TOKEN);
        let report = client.check_with(&options).await;
        only_this_fails(
            &report,
            Some((
                "auth.tokens_refused",
                &[
                    "expected HTTP 401 for a bearer token the server must not accept",
                    "the expired token got HTTP 200",
                ],
            )),
        );
    }

    #[tokio::test]
    async fn authorization_server_metadata_without_s256_fails() {
        let deployment = Deployment::start().await;
        let issuer = deployment.issuer();
        deployment
            .answer(
                "GET",
                "/.well-known/oauth-authorization-server",
                ResponseTemplate::new(200).set_body_json(json!({
                    "issuer": issuer,
                    "authorization_endpoint": format!("{issuer}/authorize"),
                    "token_endpoint": format!("{issuer}/token"),
                    "response_types_supported": ["code"],
                    "code_challenge_methods_supported": ["plain"],
                })),
            )
            .await;
        let client = bearer_client(&deployment.mcp_url).await;
        only_this_fails(
            &client.check().await,
            Some((
                "auth.authorization_server_metadata",
                &[
                    "offer PKCE with S256",
                    r#"`code_challenge_methods_supported` is ["plain"], without "S256""#,
                ],
            )),
        );
    }

    #[tokio::test]
    async fn missing_authorization_server_metadata_fails() {
        let deployment = Deployment::start().await;
        let client = bearer_client(&deployment.mcp_url).await;
        only_this_fails(
            &client.check().await,
            Some((
                "auth.authorization_server_metadata",
                &[
                    "expected the metadata of authorization server",
                    "/.well-known/oauth-authorization-server got HTTP 404",
                ],
            )),
        );
    }

    #[tokio::test]
    async fn protected_resource_metadata_for_another_resource_fails() {
        let deployment = Deployment::compliant().await;
        mcp_assured::wiremock::Mock::given(mcp_assured::wiremock::matchers::method("GET"))
            .and(mcp_assured::wiremock::matchers::path("/prm"))
            .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                "resource": "https://another.example/mcp",
                "authorization_servers": [deployment.issuer()],
            })))
            .with_priority(1)
            .mount(&deployment.authorization_server)
            .await;
        let client = bearer_client(&deployment.mcp_url).await;
        let report = client.check().await;
        let entry = report.entry("auth.protected_resource_metadata").unwrap();
        assert_eq!(entry.status, Status::Failed, "{report}");
        assert!(
            entry
                .message
                .contains(r#"`resource` is "https://another.example/mcp", not this server"#),
            "{}",
            entry.message
        );
        let after = report.entry("auth.authorization_server_metadata").unwrap();
        assert_eq!(after.status, Status::Skipped, "{report}");
        assert_eq!(report.failed(), 1, "{report}");
    }

    /// The example server requiring [`TOKEN`], served with `options` otherwise; its URL.
    async fn token_server(
        options: HttpOptions,
    ) -> (String, tokio::task::JoinHandle<std::io::Result<()>>) {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let options = HttpOptions {
            bearer_token: Some(TOKEN.to_owned()),
            ..options
        };
        (url, tokio::spawn(serve_streamable_http(listener, options)))
    }

    #[tokio::test]
    async fn a_pre_shared_token_gets_a_warning_not_a_failure() {
        let (url, server) = token_server(HttpOptions::default()).await;
        let client = bearer_client(&url).await;
        let report = client.check().await;
        server.abort();
        let challenge = report.entry("auth.challenge").unwrap();
        assert_eq!(challenge.status, Status::Warned, "{report}");
        assert!(
            challenge.message.contains(
                r#"`WWW-Authenticate: Bearer realm="mcp-assured-example"` names no `resource_metadata`, and no protected resource metadata is at the well-known URIs"#
            ),
            "{}",
            challenge.message
        );
        for name in [
            "auth.protected_resource_metadata",
            "auth.authorization_server_metadata",
        ] {
            let entry = report.entry(name).unwrap();
            assert_eq!(entry.status, Status::Skipped, "{report}");
            assert!(
                entry.message.contains("offers no OAuth"),
                "{}",
                entry.message
            );
        }
        assert_eq!(
            report.entry("auth.tokens_refused").unwrap().status,
            Status::Passed,
            "{report}"
        );
        assert!(report.is_success(), "{report}");
    }

    #[tokio::test]
    async fn a_401_without_a_challenge_fails() {
        let options = HttpOptions {
            challenge: false,
            ..HttpOptions::default()
        };
        let (url, server) = token_server(options).await;
        let client = bearer_client(&url).await;
        let report = client.check().await;
        server.abort();
        let challenge = report.entry("auth.challenge").unwrap();
        assert_eq!(challenge.status, Status::Failed, "{report}");
        assert!(
            challenge
                .message
                .contains("expected the 401 to carry a `WWW-Authenticate` challenge")
                && challenge.message.ends_with("it has none"),
            "{}",
            challenge.message
        );
        assert_eq!(report.failed(), 1, "{report}");
    }

    #[tokio::test]
    async fn a_server_that_asks_for_nothing_skips_them() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/mcp", listener.local_addr().unwrap());
        let server = tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));
        let client = McpAssured::client().base_uri(&url).build().await.unwrap();
        let report = client.check().await;
        server.abort();
        for name in AUTH_CHECKS {
            let entry = report.entry(name).unwrap();
            assert_eq!(entry.status, Status::Skipped, "{report}");
            assert!(
                entry.message.contains(
                    "does not ask for authorization: a request without credentials got HTTP 200"
                ),
                "{}",
                entry.message
            );
        }
    }
}
