//! OAuth 2.1 for streamable HTTP, as the MCP authorization spec defines it, on rmcp's `auth`
//! module: rmcp discovers metadata, registers, builds the PKCE authorization URL with the
//! `resource` parameter, exchanges codes, refreshes tokens and sends them; this module drives
//! it. On a 401 it authorizes and retries, on `403 insufficient_scope` it steps up and
//! retries, within [`OAuth::max_authorizations`]; it plays the user agent (or calls the
//! test's own function); and it names the step that failed.
//!
//! [`OAuth::max_authorizations`]: crate::credentials::OAuth::max_authorizations

mod http;
mod user_agent;

use std::{
    error::Error as StdError,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use rmcp::transport::{
    AuthError,
    auth::{
        AuthClient, AuthorizationCallback, AuthorizationManager, AuthorizationMetadata,
        AuthorizationRequest, AuthorizationSession, ClientCredentialsConfig, WWWAuthenticateParams,
    },
};
use tokio::sync::Mutex;

use self::http::OAuthHttp;
use super::diagnostics::Diagnostics;
use crate::{
    credentials::oauth::{Grant, OAuth},
    error::{AuthorizationStep, Error},
    tls::{Tls, tls_failure},
};

/// The longest any one OAuth HTTP request may take; less when start-up is shorter, so that
/// a hanging authorization server is named before start-up runs out.
const MAX_HTTP_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the server refused a request, as its `WWW-Authenticate` says.
#[derive(Debug, Clone)]
pub(crate) enum Challenge {
    /// 401: no token, or one it does not accept.
    Unauthorized { www_authenticate: String },
    /// 403 `insufficient_scope`: the token lacks `scope`.
    InsufficientScope {
        www_authenticate: String,
        scope: Option<String>,
    },
}

impl Challenge {
    fn describe(&self) -> String {
        match self {
            Challenge::Unauthorized { www_authenticate } => {
                format!("401 Unauthorized (WWW-Authenticate: {www_authenticate})")
            }
            Challenge::InsufficientScope {
                www_authenticate, ..
            } => format!("403 Forbidden (WWW-Authenticate: {www_authenticate})"),
        }
    }
}

/// A step that failed and why.
#[derive(Debug, Clone)]
pub(crate) struct Failure {
    pub(crate) step: AuthorizationStep,
    pub(crate) reason: String,
}

impl Failure {
    fn new(step: AuthorizationStep, reason: impl Into<String>) -> Self {
        Failure {
            step,
            reason: reason.into(),
        }
    }

    /// rmcp's error, in words, with its causes; a failed TLS handshake with the
    /// authorization server says what was wrong with its certificate and what to do.
    fn from_rmcp(step: AuthorizationStep, error: &AuthError) -> Self {
        let mut reason = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            reason.push_str(": ");
            reason.push_str(&cause.to_string());
            source = cause.source();
        }
        if let Some((problem, _)) = tls_failure(error) {
            reason = format!("{reason} ({problem}. {})", problem.remedy());
        }
        Failure::new(step, reason)
    }

    pub(crate) fn into_error(self, target: &str) -> Error {
        Error::Authorization {
            target: target.to_owned(),
            step: self.step,
            reason: self.reason,
        }
    }
}

/// The OAuth state of one connection: rmcp's manager (shared with the [`AuthClient`] that
/// sends the token), the settings, and a user agent.
pub(crate) struct OAuthSession {
    settings: OAuth,
    server_url: String,
    manager: Arc<Mutex<AuthorizationManager>>,
    user_agent: reqwest::Client,
    http: Arc<OAuthHttp>,
    /// How long visiting the authorization URL may take (the test's function included).
    flow_timeout: Duration,
    /// Serializes authorizations: requests refused together authorize once.
    flow: Mutex<()>,
    /// Counts completed authorizations, so that a request refused before another one
    /// authorized retries with the new token instead of authorizing again.
    generation: AtomicU64,
    diagnostics: Arc<Diagnostics>,
}

impl std::fmt::Debug for OAuthSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OAuthSession")
            .field("settings", &self.settings)
            .field("server_url", &self.server_url)
            .finish_non_exhaustive()
    }
}

impl OAuthSession {
    /// A session for the server at `server_url`, and the client that sends its tokens with
    /// `http`'s requests. `startup_timeout` bounds each OAuth HTTP request to a part of it.
    pub(crate) async fn start<C>(
        settings: &OAuth,
        server_url: &str,
        tls: &Tls,
        startup_timeout: Duration,
        http: C,
        diagnostics: &Arc<Diagnostics>,
    ) -> Result<(Arc<OAuthSession>, AuthClient<C>), Error> {
        let timeout = (startup_timeout / 4).clamp(Duration::from_millis(100), MAX_HTTP_TIMEOUT);
        let build = |redirects: reqwest::redirect::Policy| {
            tls.client_builder()?
                .timeout(timeout)
                .redirect(redirects)
                .build()
                .map_err(|error| Error::invalid("OAuth HTTP client", error.to_string()))
        };
        // rmcp's requests follow redirects as each operation asks; the user agent follows
        // them itself, to stop at the redirect URI.
        let oauth_http = Arc::new(OAuthHttp::new(build)?);
        let user_agent = build(reqwest::redirect::Policy::none())?;
        let manager = blank_manager(server_url, &oauth_http)
            .await
            .map_err(|error| {
                Error::invalid(
                    "OAuth",
                    format!("`{server_url}` cannot be authorized: {error}"),
                )
            })?;
        let client = AuthClient::new(http, manager);
        let session = OAuthSession {
            settings: settings.clone(),
            server_url: server_url.to_owned(),
            manager: client.auth_manager.clone(),
            user_agent,
            http: oauth_http,
            flow_timeout: startup_timeout,
            flow: Mutex::new(()),
            generation: AtomicU64::new(0),
            diagnostics: diagnostics.clone(),
        };
        Ok((Arc::new(session), client))
    }

    /// How many requests one request may cause to be authorized.
    pub(crate) fn max_authorizations(&self) -> u32 {
        self.settings.max_authorizations
    }

    /// The number of authorizations completed so far; see [`answer`](Self::answer).
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Answers `challenge` to a request sent at `generation`: authorizes (or steps up),
    /// unless another request authorized meanwhile, in which case a retry uses its token.
    ///
    /// # Errors
    ///
    /// The error for the refused request, when authorization failed: see [`failure_of`].
    pub(crate) async fn answer(
        &self,
        challenge: &Challenge,
        generation: u64,
    ) -> Result<Answered, AuthError> {
        let _flow = self.flow.lock().await;
        if self.generation() != generation {
            return Ok(Answered::ByAnother);
        }
        let outcome = match challenge {
            Challenge::InsufficientScope {
                scope: Some(scope), ..
            } => self.step_up(scope).await,
            Challenge::InsufficientScope {
                www_authenticate, ..
            }
            | Challenge::Unauthorized { www_authenticate } => {
                self.authorize(Some(www_authenticate)).await
            }
        };
        match outcome {
            Ok(()) => {
                self.generation.fetch_add(1, Ordering::AcqRel);
                Ok(Answered::Authorized)
            }
            Err(failure) => Err(self.fail(failure)),
        }
    }

    /// The error for a request the server still refuses after `times` authorizations.
    pub(crate) fn give_up(&self, challenge: &Challenge, times: u32) -> AuthError {
        self.fail(Failure::new(
            AuthorizationStep::Retry,
            format!(
                "the server still answers {} after {times} authorization{}",
                challenge.describe(),
                if times == 1 { "" } else { "s" }
            ),
        ))
    }

    /// The error for a request that failed in rmcp's own OAuth (a token refresh, say).
    pub(crate) fn fail_rmcp(&self, error: &AuthError) -> AuthError {
        let step = match error {
            AuthError::TokenRefreshFailed(_) | AuthError::TokenRefreshRejected(_) => {
                AuthorizationStep::Refresh
            }
            _ => AuthorizationStep::Token,
        };
        self.fail(Failure::from_rmcp(step, error))
    }

    /// Keeps `failure` for the refused request, and gives the error that names it.
    fn fail(&self, failure: Failure) -> AuthError {
        tracing::debug!(step = %failure.step, reason = %failure.reason, "OAuth failed");
        let id = self
            .diagnostics
            .record_authorization(failure.into_error(&self.server_url));
        AuthError::AuthorizationFailed(format!("{FAILURE_MARKER}{id}"))
    }

    /// Discovery, client identity and a token, from the start.
    async fn authorize(&self, www_authenticate: Option<&str>) -> Result<(), Failure> {
        let mut guard = self.manager.lock().await;
        self.discover(&mut guard, www_authenticate).await?;
        match self.settings.grant {
            Grant::ClientCredentials => self.client_credentials(&mut guard, &[]).await,
            Grant::AuthorizationCode => {
                // rmcp's session takes the manager and hands it back; a blank one on the
                // same HTTP client stands in (and stays, should this future be dropped).
                let stand_in = blank_manager(&self.server_url, &self.http)
                    .await
                    .map_err(|e| Failure::from_rmcp(AuthorizationStep::Authorization, &e))?;
                let manager = std::mem::replace(&mut *guard, stand_in);
                let session = match AuthorizationSession::new(manager, self.request()).await {
                    Ok(session) => session,
                    Err((manager, error)) => {
                        *guard = manager;
                        return Err(Failure::from_rmcp(AuthorizationStep::Registration, &error));
                    }
                };
                let callback = self.visit(session.get_authorization_url()).await;
                let token = match &callback {
                    Ok(callback) => session.handle_callback_url(callback).await.map(drop),
                    Err(_) => Ok(()),
                };
                *guard = session.auth_manager;
                callback?;
                token.map_err(|error| Failure::from_rmcp(AuthorizationStep::Token, &error))
            }
        }
    }

    /// Resolves and sets the authorization server's metadata.
    async fn discover(
        &self,
        manager: &mut AuthorizationManager,
        www_authenticate: Option<&str>,
    ) -> Result<(), Failure> {
        if let Some(url) = www_authenticate.and_then(|header| self.named_metadata(header)) {
            self.check_resource_metadata(&url).await?;
        }
        match manager
            .resolve_metadata_from_challenge(www_authenticate)
            .await
        {
            Ok(resolution) => {
                manager.set_metadata(resolution.metadata);
                Ok(())
            }
            Err(AuthError::AuthorizationServerMismatch { .. }) => {
                // MCP 2025-03-26 servers publish their authorization server's metadata at
                // their own origin, whatever its issuer says.
                let metadata = self.legacy_metadata().await?;
                manager.set_metadata(metadata);
                Ok(())
            }
            Err(error) => Err(Failure::from_rmcp(discovery_step(&error), &error)),
        }
    }

    /// The protected resource metadata URL a challenge names, if it names one.
    fn named_metadata(&self, www_authenticate: &str) -> Option<reqwest::Url> {
        let base = reqwest::Url::parse(&self.server_url).ok()?;
        WWWAuthenticateParams::parse(www_authenticate, &base).resource_metadata_url
    }

    /// Whether the protected resource metadata the server names is a JSON object naming
    /// authorization servers. rmcp, finding it unusable, falls back to older discovery, and
    /// a later step fails for a reason that is not the cause; a client must use it, so a
    /// broken one is the error.
    async fn check_resource_metadata(&self, url: &reqwest::Url) -> Result<(), Failure> {
        let failed = |reason: String| {
            Failure::new(
                AuthorizationStep::ResourceMetadata,
                format!("{url}, named by the server's WWW-Authenticate, {reason}"),
            )
        };
        if downgrades(&self.server_url, url) {
            return Err(failed(
                "is plain http:// while the server is https://: metadata that decides where \
                 the client sends its credentials must come over https too"
                    .to_owned(),
            ));
        }
        let body = self.fetch(url).await.map_err(failed)?;
        match serde_json::from_str::<serde_json::Value>(&body) {
            Ok(document) if document["authorization_servers"].is_array() => Ok(()),
            Ok(_) => Err(failed(format!(
                "names no `authorization_servers`: {}",
                excerpt(&body)
            ))),
            Err(error) => Err(failed(format!("is not JSON ({error}): {}", excerpt(&body)))),
        }
    }

    /// The body of a successful GET of `url`, or why there is none: `could not be fetched:
    /// ..`, `answered 404 Not Found: ..`.
    async fn fetch(&self, url: &reqwest::Url) -> Result<String, String> {
        let response = self
            .http
            .following()
            .get(url.clone())
            .send()
            .await
            .map_err(|e| format!("could not be fetched: {}", request_failure(&e)))?;
        let status = response.status();
        let body = response.text().await.unwrap_or_default();
        if status.is_success() {
            Ok(body)
        } else {
            Err(format!("answered {status}: {}", excerpt(&body)))
        }
    }

    /// `{origin}/.well-known/oauth-authorization-server`, as protocol 2025-03-26 finds it.
    async fn legacy_metadata(&self) -> Result<AuthorizationMetadata, Failure> {
        let failed = |reason: String| Failure::new(AuthorizationStep::ServerMetadata, reason);
        let mut url = reqwest::Url::parse(&self.server_url).map_err(|e| failed(e.to_string()))?;
        url.set_path("/.well-known/oauth-authorization-server");
        url.set_query(None);
        let body = self
            .fetch(&url)
            .await
            .map_err(|reason| failed(format!("{url} {reason}")))?;
        serde_json::from_str(&body).map_err(|error| {
            failed(format!(
                "{url} is not authorization server metadata ({error}): {}",
                excerpt(&body)
            ))
        })
    }

    /// The authorization request: the client's identity and scopes as configured.
    fn request(&self) -> AuthorizationRequest {
        let settings = &self.settings;
        let mut request = AuthorizationRequest::new(settings.redirect_uri.as_str())
            .with_client_name(settings.client_name.as_str());
        request = if settings.scopes.is_empty() {
            request.with_initial_scope_selection()
        } else {
            request.with_scopes(settings.scopes.clone())
        };
        if let Some(url) = &settings.client_metadata_url {
            request = request.with_client_metadata_url(url.as_str());
        }
        if let Some(id) = &settings.client_id {
            request = request.with_preregistered_client(id.as_str());
            if let Some(secret) = &settings.client_secret {
                request = request.with_client_secret(secret.expose());
            }
        }
        request
    }

    /// The client-credentials grant, for the configured scopes and `extra` ones.
    async fn client_credentials(
        &self,
        manager: &mut AuthorizationManager,
        extra: &[String],
    ) -> Result<(), Failure> {
        let settings = &self.settings;
        let (Some(client_id), Some(secret)) = (&settings.client_id, &settings.client_secret) else {
            return Err(Failure::new(
                AuthorizationStep::Registration,
                "the client-credentials grant needs a pre-registered client ID and secret",
            ));
        };
        // As for a user: the challenge's scope, else the resource metadata's, else none.
        let mut scopes = if settings.scopes.is_empty() {
            manager.select_initial_scopes(&[]).await
        } else {
            settings.scopes.clone()
        };
        for scope in extra {
            if !scopes.contains(scope) {
                scopes.push(scope.clone());
            }
        }
        let config = ClientCredentialsConfig::ClientSecret {
            client_id: client_id.clone(),
            client_secret: secret.expose().to_owned(),
            scopes,
            resource: Some(self.server_url.clone()),
        };
        manager
            .configure_client_credentials(&config)
            .map_err(|e| Failure::from_rmcp(AuthorizationStep::Registration, &e))?;
        manager
            .exchange_client_credentials(&config)
            .await
            .map(drop)
            .map_err(|e| Failure::from_rmcp(AuthorizationStep::Token, &e))
    }

    /// A token with `scope` added to what was granted (`403 insufficient_scope`).
    async fn step_up(&self, scope: &str) -> Result<(), Failure> {
        let mut guard = self.manager.lock().await;
        if self.settings.grant == Grant::ClientCredentials {
            let wanted: Vec<String> = scope.split_whitespace().map(str::to_owned).collect();
            return self.client_credentials(&mut guard, &wanted).await;
        }
        let url = guard
            .request_scope_upgrade(scope)
            .await
            .map_err(|e| Failure::from_rmcp(AuthorizationStep::Authorization, &e))?;
        let callback = self.visit(&url).await?;
        let callback = AuthorizationCallback::from_redirect_url(&callback)
            .map_err(|e| Failure::from_rmcp(AuthorizationStep::Authorization, &e))?;
        guard
            .exchange_code_for_token_with_issuer(
                &callback.code,
                &callback.csrf_token,
                callback.issuer.as_deref(),
            )
            .await
            .map(drop)
            .map_err(|e| Failure::from_rmcp(AuthorizationStep::Token, &e))
    }

    /// The redirect URL with the code, from the test's function or headless, within the
    /// flow's time.
    async fn visit(&self, authorization_url: &str) -> Result<String, Failure> {
        tokio::time::timeout(self.flow_timeout, self.visit_unbounded(authorization_url))
            .await
            .unwrap_or_else(|_| {
                Err(Failure::new(
                    AuthorizationStep::Authorization,
                    format!(
                        "no redirect to {} came within {:?}",
                        self.settings.redirect_uri, self.flow_timeout
                    ),
                ))
            })
    }

    async fn visit_unbounded(&self, authorization_url: &str) -> Result<String, Failure> {
        let redirect_uri = &self.settings.redirect_uri;
        match &self.settings.authorizer {
            Some(authorize) => {
                let answer = authorize(authorization_url.to_owned())
                    .await
                    .map_err(|error| {
                        Failure::new(
                            AuthorizationStep::Authorization,
                            format!("the test's authorize_with function failed: {error}"),
                        )
                    })?;
                user_agent::callback_from_answer(&answer, authorization_url, redirect_uri)
            }
            None => user_agent::follow(&self.user_agent, authorization_url, redirect_uri).await,
        }
    }
}

/// A failed request of the harness's own, in words; a failed TLS handshake says what was
/// wrong with the certificate and what to do.
fn request_failure(error: &reqwest::Error) -> String {
    let text = super::describe_request_error(error);
    match tls_failure(error) {
        Some((problem, _)) => format!("{text} ({problem}. {})", problem.remedy()),
        None => text,
    }
}

/// Whether `url` is plain HTTP while the server it speaks for is HTTPS.
fn downgrades(server_url: &str, url: &reqwest::Url) -> bool {
    server_url.starts_with("https://") && url.scheme() == "http"
}

/// What [`OAuthSession::answer`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Answered {
    /// It authorized (or stepped up).
    Authorized,
    /// Another request had authorized since this one was sent.
    ByAnother,
}

/// How the error of a refused request names its failure kept in [`Diagnostics`].
const FAILURE_MARKER: &str = "mcp-assured OAuth failure #";

/// The OAuth failure behind a refused request, if its error is one, taken from
/// `diagnostics`.
pub(crate) fn failure_of(
    error: &(dyn StdError + 'static),
    diagnostics: &Diagnostics,
) -> Option<Error> {
    let mut current = Some(error);
    while let Some(error) = current {
        if let Some(AuthError::AuthorizationFailed(text)) = error.downcast_ref::<AuthError>()
            && let Some(id) = text.strip_prefix(FAILURE_MARKER)
            && let Ok(id) = id.parse()
        {
            return diagnostics.take_authorization(id);
        }
        current = error.source();
    }
    None
}

/// An authorization manager for `server_url` on `http`, knowing nothing yet.
async fn blank_manager(
    server_url: &str,
    http: &Arc<OAuthHttp>,
) -> Result<AuthorizationManager, AuthError> {
    AuthorizationManager::new_with_oauth_http_client(server_url, http.clone()).await
}

/// Which step a discovery error belongs to.
fn discovery_step(error: &AuthError) -> AuthorizationStep {
    match error {
        AuthError::ProtectedResourceMetadataInvalid { .. } => AuthorizationStep::ResourceMetadata,
        AuthError::DiscoveryRequestFailed { url, .. }
            if url.path().contains("oauth-protected-resource") =>
        {
            AuthorizationStep::ResourceMetadata
        }
        _ => AuthorizationStep::ServerMetadata,
    }
}

/// The start of a body, for a message.
fn excerpt(body: &str) -> String {
    let cut: String = body.chars().take(200).collect();
    if cut.len() < body.len() {
        format!("{cut}…")
    } else {
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_over_http_for_an_https_server_is_a_downgrade() {
        let http = reqwest::Url::parse("http://as.example/prm").unwrap();
        let https = reqwest::Url::parse("https://as.example/prm").unwrap();
        assert!(downgrades("https://mcp.example/mcp", &http));
        assert!(!downgrades("https://mcp.example/mcp", &https));
        assert!(!downgrades("http://127.0.0.1:1/mcp", &http));
    }
}
