//! [`RestClientBuilder`]: configures a [`RestClient`].

use std::{fmt, time::Duration};

use super::client::RestClient;
use crate::{DEFAULT_TIMEOUT, Error, Result, Secret};

/// Configures a [`RestClient`]; made by [`McpAssured::rest`](crate::McpAssured::rest).
#[derive(Debug, Clone, Default)]
pub struct RestClientBuilder {
    base: Option<String>,
    credentials: Credentials,
    protocol_version: Option<String>,
    timeout: Option<Duration>,
}

/// The bearer token and headers sent with every request; `Debug` names the headers only.
#[derive(Clone, Default)]
pub(crate) struct Credentials {
    pub(crate) bearer_token: Option<Secret>,
    pub(crate) headers: Vec<(String, Secret)>,
}

impl Credentials {
    /// Whether there is neither a bearer token nor a header.
    pub(crate) fn is_empty(&self) -> bool {
        self.bearer_token.is_none() && self.headers.is_empty()
    }

    /// The same credentials, each value (the bearer token, every header's) replaced by
    /// `wrong`: what a server that checks any of them must refuse.
    pub(crate) fn replaced_by(&self, wrong: &str) -> Credentials {
        Credentials {
            bearer_token: self.bearer_token.as_ref().map(|_| Secret::new(wrong)),
            headers: self
                .headers
                .iter()
                .map(|(name, _)| (name.clone(), Secret::new(wrong)))
                .collect(),
        }
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<_> = self.headers.iter().map(|(name, _)| name).collect();
        f.debug_struct("Credentials")
            .field(
                "bearer_token",
                &self.bearer_token.as_ref().map(|_| "<redacted>"),
            )
            .field("headers", &headers)
            .finish()
    }
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
        self.credentials.bearer_token = Some(token.into());
        self
    }

    /// Sends a header with every request; its value never appears in output.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.credentials.headers.push((name.into(), value.into()));
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
    /// [`Error::InvalidInput`] without a base URI, or with one that is not an `http(s)` URL.
    pub fn build(self) -> Result<RestClient> {
        let base = self.base.ok_or_else(|| {
            Error::invalid(
                "REST client",
                "no base URI; call `.base_uri(\"http://127.0.0.1:8080\")`",
            )
        })?;
        let parsed = reqwest::Url::parse(&base)
            .map_err(|error| Error::invalid("REST base URI", format!("`{base}`: {error}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(Error::invalid(
                "REST base URI",
                format!("`{base}` is not an http(s) URL"),
            ));
        }
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|error| Error::invalid("REST client", error.to_string()))?;
        Ok(RestClient {
            http,
            base,
            credentials: self.credentials,
            protocol_version: self.protocol_version.unwrap_or_else(|| "1.0".to_owned()),
            timeout: self.timeout.unwrap_or(DEFAULT_TIMEOUT),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Credentials;
    use crate::Secret;

    #[test]
    fn replaced_credentials_keep_their_names_and_lose_every_value() {
        let given = Credentials {
            bearer_token: Some(Secret::new("right")),
            headers: vec![
                ("X-Api-Key".into(), Secret::new("key")),
                ("X-Tenant".into(), Secret::new("t-1")),
            ],
        };
        let wrong = given.replaced_by("wrong");
        assert_eq!(
            wrong.bearer_token.as_ref().map(Secret::expose),
            Some("wrong")
        );
        let headers: Vec<_> = wrong
            .headers
            .iter()
            .map(|(name, value)| (name.as_str(), value.expose()))
            .collect();
        assert_eq!(headers, [("X-Api-Key", "wrong"), ("X-Tenant", "wrong")]);
        let header_only = Credentials {
            bearer_token: None,
            ..given
        }
        .replaced_by("wrong");
        assert!(header_only.bearer_token.is_none());
        assert!(Credentials::default().replaced_by("wrong").is_empty());
    }
}
