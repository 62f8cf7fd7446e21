//! [`Credentials`]: how the harness proves who it is to an HTTP server, in one place for
//! every client that speaks HTTP: streamable HTTP, HTTP+SSE, the REST client, `#[mcp_test]`
//! (its `bearer_token` and `headers(..)`) and the companion's `connect_to_server`; and
//! [`OAuth`], the way that obtains its bearer token itself.

pub(crate) mod oauth;

pub use self::oauth::{
    AuthorizationResult, DEFAULT_MAX_AUTHORIZATIONS, DEFAULT_REDIRECT_URI, OAuth,
};

use std::fmt;

#[cfg(feature = "http")]
use base64::Engine as _;
#[cfg(feature = "http")]
use http::{HeaderMap, HeaderName, HeaderValue, header::AUTHORIZATION};

#[cfg(feature = "http")]
use crate::error::{Error, Result};
use crate::secret::Secret;

/// How the client authenticates: the `Authorization` header and any other header with every
/// HTTP request. Every value is a [`Secret`]: `Debug` names the headers only, and the values
/// are marked sensitive so that neither reqwest nor http print them.
///
/// The builders' `bearer_token`, `basic_auth` and `header` setters fill one of these; give a
/// whole one to [`ClientBuilder::credentials`](crate::ClientBuilder::credentials) or
/// [`RestClientBuilder::credentials`](crate::rest::RestClientBuilder::credentials) to use the
/// same credentials on both faces of a server.
///
/// ```
/// use mcp_assured::{Credentials, McpAssured};
///
/// let credentials = Credentials::new().bearer_token("t0ken").header("X-Tenant", "acme");
/// assert_eq!(credentials.describe(), "a bearer token and X-Tenant");
/// assert!(!format!("{credentials:?}").contains("t0ken"));
///
/// let mcp = McpAssured::client()
///     .base_uri("http://127.0.0.1:8080/mcp")
///     .credentials(credentials.clone());
/// let rest = McpAssured::rest()
///     .base_uri("http://127.0.0.1:8080")
///     .credentials(credentials);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
#[must_use = "credentials do nothing until a client builder is given them"]
pub struct Credentials {
    authorization: Option<Authorization>,
    headers: Vec<(String, Secret)>,
}

/// What the `Authorization` header carries.
#[derive(Clone, PartialEq, Eq)]
enum Authorization {
    Bearer(Secret),
    Basic {
        user: String,
        password: Secret,
    },
    /// A bearer token the transport obtains by OAuth.
    OAuth(Box<OAuth>),
}

impl Credentials {
    /// No credentials.
    pub fn new() -> Self {
        Self::default()
    }

    /// `Authorization: Bearer <token>`, replacing basic authentication if it was set.
    pub fn bearer_token(mut self, token: impl Into<Secret>) -> Self {
        self.authorization = Some(Authorization::Bearer(token.into()));
        self
    }

    /// HTTP basic authentication, replacing a bearer token if it was set.
    pub fn basic_auth(mut self, user: impl Into<String>, password: impl Into<Secret>) -> Self {
        self.authorization = Some(Authorization::Basic {
            user: user.into(),
            password: password.into(),
        });
        self
    }

    /// A bearer token obtained by OAuth 2.1 when the server asks for one (see [`OAuth`]),
    /// replacing a bearer token or basic authentication if one was set. Streamable HTTP
    /// only: the HTTP+SSE transport predates MCP authorization.
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        self.authorization = Some(Authorization::OAuth(Box::new(oauth)));
        self
    }

    /// The OAuth settings, if the `Authorization` header comes from OAuth.
    #[cfg(feature = "http")]
    pub(crate) fn oauth_settings(&self) -> Option<&OAuth> {
        match &self.authorization {
            Some(Authorization::OAuth(oauth)) => Some(oauth),
            _ => None,
        }
    }

    /// A header sent with every request (an API key, a tenant); its value is a secret.
    pub fn header(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Whether there is nothing to send.
    pub fn is_empty(&self) -> bool {
        self.authorization.is_none() && self.headers.is_empty()
    }

    /// Whether an `Authorization` header (bearer or basic) is set.
    pub fn has_authorization(&self) -> bool {
        self.authorization.is_some()
    }

    /// What is sent, never the values: `a bearer token and X-Api-Key`, `basic
    /// authentication as ada`, or `no credentials`.
    pub fn describe(&self) -> String {
        let authorization = self.authorization.iter().map(|auth| match auth {
            Authorization::Bearer(_) => "a bearer token".to_owned(),
            Authorization::Basic { user, .. } => format!("basic authentication as {user}"),
            Authorization::OAuth(oauth) => oauth.describe(),
        });
        let headers = self.headers.iter().map(|(name, _)| name.clone());
        join(authorization.chain(headers))
    }

    /// What [`replaced_by`](Self::replaced_by) makes wrong: `a wrong bearer token and a
    /// wrong X-Api-Key`.
    #[cfg_attr(not(feature = "checks"), allow(dead_code))]
    pub(crate) fn describe_replaced(&self) -> String {
        let authorization = self.authorization.iter().map(|auth| match auth {
            Authorization::Bearer(_) | Authorization::OAuth(_) => "a wrong bearer token".to_owned(),
            Authorization::Basic { user, .. } => format!("a wrong password for {user}"),
        });
        let headers = self
            .headers
            .iter()
            .map(|(name, _)| format!("a wrong {name}"));
        join(authorization.chain(headers))
    }

    /// The same credentials with every value (the token, the password, each header's)
    /// replaced by `wrong`: what a server that checks any of them must refuse. OAuth becomes
    /// the bearer token `wrong`.
    pub fn replaced_by(&self, wrong: &str) -> Credentials {
        Credentials {
            authorization: self.authorization.as_ref().map(|auth| match auth {
                Authorization::Bearer(_) | Authorization::OAuth(_) => {
                    Authorization::Bearer(Secret::new(wrong))
                }
                Authorization::Basic { user, .. } => Authorization::Basic {
                    user: user.clone(),
                    password: Secret::new(wrong),
                },
            }),
            headers: self
                .headers
                .iter()
                .map(|(name, _)| (name.clone(), Secret::new(wrong)))
                .collect(),
        }
    }

    /// The headers to send, `Authorization` included, each marked sensitive.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] for a header name or value that HTTP cannot carry.
    #[cfg(feature = "http")]
    pub(crate) fn header_map(&self) -> Result<HeaderMap> {
        let mut map = HeaderMap::new();
        for (name, value) in &self.headers {
            let header_name = HeaderName::try_from(name.as_str()).map_err(|e| {
                Error::invalid(
                    "header name",
                    format!("`{name}` is not a valid header name: {e}"),
                )
            })?;
            map.insert(header_name, sensitive(value.expose(), name)?);
        }
        if let Some(authorization) = &self.authorization {
            let value = match authorization {
                // The transport sends the token it obtains.
                Authorization::OAuth(_) => return Ok(map),
                Authorization::Bearer(token) => format!("Bearer {}", token.expose()),
                Authorization::Basic { user, password } => {
                    let pair = format!("{user}:{}", password.expose());
                    format!(
                        "Basic {}",
                        base64::engine::general_purpose::STANDARD.encode(pair)
                    )
                }
            };
            map.insert(AUTHORIZATION, sensitive(&value, "Authorization")?);
        }
        Ok(map)
    }

    /// Credentials in a URL (`http://user:password@host/mcp`) become basic authentication,
    /// as a browser or reqwest would send them, and leave the URL, which errors and logs
    /// show.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] when other `Authorization` credentials are set too.
    #[cfg(feature = "http")]
    pub(crate) fn take_userinfo(&mut self, url: &mut url::Url) -> Result<()> {
        if url.username().is_empty() && url.password().is_none() {
            return Ok(());
        }
        if self.authorization.is_some() {
            return Err(Error::invalid(
                "base URI",
                "it carries a user and password, and other credentials are set too: give one",
            ));
        }
        let decode = |text: &str| {
            percent_encoding::percent_decode_str(text)
                .decode_utf8_lossy()
                .into_owned()
        };
        self.authorization = Some(Authorization::Basic {
            user: decode(url.username()),
            password: Secret::new(decode(url.password().unwrap_or_default())),
        });
        // Neither can fail on an http(s) URL, which has a host.
        let _ = url.set_username("");
        let _ = url.set_password(None);
        Ok(())
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("sends", &self.describe())
            .finish()
    }
}

fn join(parts: impl Iterator<Item = String>) -> String {
    let parts: Vec<String> = parts.collect();
    if parts.is_empty() {
        "no credentials".to_owned()
    } else {
        parts.join(" and ")
    }
}

#[cfg(feature = "http")]
fn sensitive(value: &str, name: &str) -> Result<HeaderValue> {
    let mut value = HeaderValue::from_str(value).map_err(|_| {
        Error::invalid(
            "header value",
            format!("the value of `{name}` has characters a header cannot carry"),
        )
    })?;
    value.set_sensitive(true);
    Ok(value)
}

#[cfg(all(test, feature = "http"))]
mod tests {
    use super::*;

    #[test]
    fn basic_auth_is_base64_and_every_value_is_sensitive() {
        let credentials = Credentials::new()
            .basic_auth("aladdin", "opensesame")
            .header("X-Api-Key", "k");
        let map = credentials.header_map().unwrap();
        let auth = &map[&AUTHORIZATION];
        assert_eq!(auth, "Basic YWxhZGRpbjpvcGVuc2VzYW1l");
        assert!(auth.is_sensitive());
        assert!(map["x-api-key"].is_sensitive());
        let debug = format!("{credentials:?}");
        assert_eq!(
            debug,
            r#"Credentials { sends: "basic authentication as aladdin and X-Api-Key" }"#
        );
    }

    #[test]
    fn a_bearer_token_is_sent_as_bearer() {
        let map = Credentials::new().bearer_token("t").header_map().unwrap();
        assert_eq!(map[&AUTHORIZATION], "Bearer t");
    }

    #[test]
    fn replaced_credentials_keep_their_names_and_lose_every_value() {
        let given = Credentials::new()
            .bearer_token("right")
            .header("X-Api-Key", "key")
            .header("X-Tenant", "t-1");
        let wrong = given.replaced_by("wrong");
        assert_eq!(wrong.describe(), given.describe());
        assert_eq!(
            given.describe_replaced(),
            "a wrong bearer token and a wrong X-Api-Key and a wrong X-Tenant"
        );
        let map = wrong.header_map().unwrap();
        assert_eq!(map[&AUTHORIZATION], "Bearer wrong");
        assert_eq!(map["x-api-key"], "wrong");
        assert_eq!(map["x-tenant"], "wrong");
        let header_only = Credentials::new().header("X-Api-Key", "key");
        assert!(!header_only.replaced_by("wrong").has_authorization());
        assert!(Credentials::new().replaced_by("wrong").is_empty());
    }

    #[test]
    fn bad_headers_are_invalid_input() {
        let name = Credentials::new().header("bad name", "v").header_map();
        assert!(matches!(name, Err(Error::InvalidInput { .. })), "{name:?}");
        let value = Credentials::new()
            .header("X-Key", "line\nbreak")
            .header_map();
        let message = value.unwrap_err().to_string();
        assert!(message.contains("`X-Key` has characters"), "{message}");
        assert!(!message.contains("line"), "{message}");
    }
}
