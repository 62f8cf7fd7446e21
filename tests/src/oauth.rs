//! A resource server that requires OAuth: the example server, accepting only [`TOKEN`] and
//! naming its protected resource metadata in the 401, and its authorization server, a
//! wiremock HTTP backend (as a deployed server's identity provider is), to be made compliant
//! or broken one endpoint at a time.

use mcp_assured::wiremock::{
    Mock, MockServer, Request, Respond, ResponseTemplate,
    matchers::{method, path},
};
use mcp_assured::{McpAssured, OAuth};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};

use crate::tls::{HttpsFront, ServerCertificate};
use serde_json::json;
use std::time::Duration;

/// The token the authorization server issues and the resource server accepts.
pub const TOKEN: &str = "issued-access-token-1234";

/// The example server, requiring [`TOKEN`], and the authorization server it names; both
/// stop when this is dropped.
#[derive(Debug)]
pub struct Deployment {
    /// The example server's streamable HTTP endpoint.
    pub mcp_url: String,
    /// The authorization server, serving the protected resource metadata at `/prm`.
    pub authorization_server: MockServer,
    server: tokio::task::JoinHandle<std::io::Result<()>>,
    /// The authorization server's URL, its issuer: the mock server's, or its TLS front's.
    issuer: String,
    /// The TLS fronts of the example server and the authorization server, over HTTPS.
    _fronts: Vec<HttpsFront>,
}

impl Drop for Deployment {
    fn drop(&mut self) {
        self.server.abort();
    }
}

impl Deployment {
    /// With the protected resource metadata mounted; the rest is up to each test.
    ///
    /// # Panics
    ///
    /// If no port can be bound.
    pub async fn start() -> Deployment {
        Deployment::serve(None).await
    }

    /// As [`start`](Self::start), with both servers reached over HTTPS through TLS fronts
    /// serving `certificate`.
    ///
    /// # Panics
    ///
    /// If no port can be bound.
    pub async fn start_over_tls(certificate: &ServerCertificate) -> Deployment {
        Deployment::serve(Some(certificate)).await
    }

    async fn serve(certificate: Option<&ServerCertificate>) -> Deployment {
        let authorization_server = MockServer::start().await;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let backend = listener.local_addr().unwrap();
        let mut fronts = Vec::new();
        let (issuer, mcp_url) = match certificate {
            Some(certificate) => {
                let identity =
                    HttpsFront::start(*authorization_server.address(), certificate).await;
                let resource = HttpsFront::start(backend, certificate).await;
                let urls = (identity.url(""), resource.url("/mcp"));
                fronts.extend([identity, resource]);
                urls
            }
            None => (authorization_server.uri(), format!("http://{backend}/mcp")),
        };
        let options = HttpOptions {
            bearer_token: Some(TOKEN.to_owned()),
            resource_metadata: Some(format!("{issuer}/prm")),
            ..HttpOptions::default()
        };
        let server = tokio::spawn(serve_streamable_http(listener, options));
        let deployment = Deployment {
            mcp_url,
            authorization_server,
            server,
            issuer: issuer.clone(),
            _fronts: fronts,
        };
        deployment
            .answer(
                "GET",
                "/prm",
                ResponseTemplate::new(200).set_body_json(json!({
                    "resource": deployment.mcp_url,
                    "authorization_servers": [issuer],
                })),
            )
            .await;
        deployment
    }

    /// A compliant authorization server: metadata, registration, an authorization endpoint
    /// that approves at once, and a token endpoint issuing [`TOKEN`].
    pub async fn compliant() -> Deployment {
        let deployment = Deployment::start().await;
        deployment.serve_metadata().await;
        deployment
            .answer(
                "POST",
                "/register",
                ResponseTemplate::new(201).set_body_json(json!({
                    "client_id": "registered-client",
                    "redirect_uris": ["http://127.0.0.1/callback"],
                })),
            )
            .await;
        Mock::given(method("GET"))
            .and(path("/authorize"))
            .respond_with(ApproveAtOnce)
            .mount(&deployment.authorization_server)
            .await;
        deployment.issue(TOKEN).await;
        deployment
    }

    /// The authorization server's URL, its issuer.
    pub fn issuer(&self) -> String {
        self.issuer.clone()
    }

    /// Answers `verb at` with `response` on the authorization server.
    pub async fn answer(&self, verb: &str, at: &str, response: ResponseTemplate) {
        Mock::given(method(verb))
            .and(path(at))
            .respond_with(response)
            .mount(&self.authorization_server)
            .await;
    }

    /// Serves the authorization server's metadata (RFC 8414) at its root.
    pub async fn serve_metadata(&self) {
        let issuer = self.issuer();
        self.answer(
            "GET",
            "/.well-known/oauth-authorization-server",
            ResponseTemplate::new(200).set_body_json(json!({
                "issuer": issuer,
                "authorization_endpoint": format!("{issuer}/authorize"),
                "token_endpoint": format!("{issuer}/token"),
                "registration_endpoint": format!("{issuer}/register"),
                "response_types_supported": ["code"],
                "grant_types_supported": ["authorization_code", "client_credentials"],
                "code_challenge_methods_supported": ["S256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic", "none"],
            })),
        )
        .await;
    }

    /// Answers every token request with `token`.
    pub async fn issue(&self, token: &str) {
        self.answer(
            "POST",
            "/token",
            ResponseTemplate::new(200).set_body_json(json!({
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 3600,
            })),
        )
        .await;
    }

    /// A client of the example server, authorizing with `oauth`, starting within 4 s.
    pub fn client(&self, oauth: OAuth) -> mcp_assured::ClientBuilder {
        McpAssured::client()
            .base_uri(&self.mcp_url)
            .oauth(oauth)
            .startup_timeout(Duration::from_secs(4))
    }

    /// The requests the authorization server received, as `METHOD /path`.
    pub async fn received(&self) -> Vec<String> {
        self.authorization_server
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .map(|request| format!("{} {}", request.method, request.url.path()))
            .collect()
    }
}

/// `/authorize`: a redirect to the redirect URI with a code and the request's state.
#[derive(Debug)]
pub struct ApproveAtOnce;

impl Respond for ApproveAtOnce {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let query = |name: &str| {
            request
                .url
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
                .unwrap_or_default()
        };
        let location = format!(
            "{}?code=the-code&state={}",
            query("redirect_uri"),
            query("state")
        );
        ResponseTemplate::new(302).insert_header("Location", location.as_str())
    }
}
