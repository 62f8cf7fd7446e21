//! [`RestClientBuilder`]: configures a [`RestClient`].

use std::time::Duration;

use super::client::RestClient;
use crate::{
    client::DEFAULT_TIMEOUT,
    credentials::Credentials,
    error::{Error, Result},
    secret::Secret,
    tls::Tls,
};

/// Configures a [`RestClient`]; made by [`McpAssured::rest`](crate::McpAssured::rest).
#[derive(Debug, Clone, Default)]
pub struct RestClientBuilder {
    base: Option<String>,
    credentials: Credentials,
    tls: Tls,
    protocol_version: Option<String>,
    timeout: Option<Duration>,
}

impl RestClientBuilder {
    /// The server's base URL, e.g. `http://127.0.0.1:8080`; the endpoints are
    /// `/mcp/tools` and `/mcp/tools/{name}/execute` below it. A trailing `/` is ignored.
    #[must_use]
    pub fn base_uri(mut self, uri: impl Into<String>) -> Self {
        self.base = Some(uri.into().trim_end_matches('/').to_owned());
        self
    }

    /// Sends `Authorization: Bearer <token>` with every request. The token never appears in
    /// output.
    #[must_use]
    pub fn bearer_token(mut self, token: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.bearer_token(token);
        self
    }

    /// Alias of [`bearer_token`](Self::bearer_token), under the name of the MCP client
    /// contract (`accessToken`) and of the [MCP client's](crate::ClientBuilder::access_token)
    /// builder, so one spelling sets the token on both faces of a hybrid server.
    #[must_use]
    pub fn access_token(self, token: impl Into<Secret>) -> Self {
        self.bearer_token(token)
    }

    /// Sends HTTP basic authentication with every request.
    #[must_use]
    pub fn basic_auth(mut self, user: impl Into<String>, password: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.basic_auth(user, password);
        self
    }

    /// Sends a header with every request; its value never appears in output.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.credentials = self.credentials.header(name, value);
        self
    }

    /// Sends these credentials with every request, replacing any set before: the same
    /// [`Credentials`] as the [MCP client](crate::ClientBuilder::credentials)'s, say.
    #[must_use]
    pub fn credentials(mut self, credentials: Credentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Over `https://`, also trusts the CA certificate(s) in this PEM text, besides the
    /// platform's (see [`Tls`]).
    #[must_use]
    pub fn ca_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.tls = self.tls.ca_certificate_pem(pem);
        self
    }

    /// Over `https://`, also trusts the CA certificate(s) in this PEM file, read by
    /// `build()`; curl's `--cacert`.
    #[must_use]
    pub fn ca_certificate_file(mut self, path: impl AsRef<std::path::Path>) -> Self {
        self.tls = self.tls.ca_certificate_file(path);
        self
    }

    /// Over `https://`, accepts any certificate (self-signed, expired, for another host), as
    /// curl's `-k/--insecure`. For test servers only.
    #[must_use]
    pub fn accept_invalid_certificates(mut self, accept: bool) -> Self {
        self.tls = self.tls.accept_invalid_certificates(accept);
        self
    }

    /// Whom to trust over `https://`, replacing what was set before: the same [`Tls`] as the
    /// [MCP client](crate::ClientBuilder::tls)'s, say.
    #[must_use]
    pub fn tls(mut self, tls: Tls) -> Self {
        self.tls = tls;
        self
    }

    /// The `X-MCP-Version` to send (default `1.0`).
    #[must_use]
    pub fn protocol_version(mut self, version: impl Into<String>) -> Self {
        self.protocol_version = Some(version.into());
        self
    }

    /// How long each request may take (default [`DEFAULT_TIMEOUT`]); an execution with a
    /// `context.timeout` may take the longer of this and the context's timeout plus 5 s (see
    /// [`RestClient::execute_with`]).
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// The client. Nothing is sent until the first request.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] without a base URI, with one that is not an `http(s)` URL,
    /// with a header that HTTP cannot carry, or with a CA certificate that cannot be read.
    pub fn build(self) -> Result<RestClient> {
        let base = self.base.ok_or_else(|| {
            Error::invalid(
                "REST client",
                "no base URI; call `.base_uri(\"http://127.0.0.1:8080\")`",
            )
        })?;
        if self.credentials.oauth_settings().is_some() {
            return Err(Error::invalid(
                "REST client",
                "OAuth is for MCP over streamable HTTP; give the REST client the token with \
                 `.bearer_token(..)`",
            ));
        }
        let parsed = reqwest::Url::parse(&base)
            .map_err(|error| Error::invalid("REST base URI", format!("`{base}`: {error}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(Error::invalid(
                "REST base URI",
                format!("`{base}` is not an http(s) URL"),
            ));
        }
        crate::tls::require_for(&parsed, "REST base URI")?;
        let http = self
            .tls
            .client_builder()?
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| Error::invalid("REST client", error.to_string()))?;
        RestClient {
            http,
            base,
            credentials: Credentials::new(),
            headers: http::HeaderMap::new(),
            protocol_version: self.protocol_version.unwrap_or_else(|| "1.0".to_owned()),
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
        }
        .with_credentials(self.credentials)
    }
}
