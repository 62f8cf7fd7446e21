//! [`OAuth`]: authorization as the MCP authorization spec defines it (OAuth 2.1), as one of the
//! ways [`Credentials`](super::Credentials) fill the `Authorization` header. This is the
//! configuration; the flow runs in the streamable HTTP transport.

use std::{fmt, future::Future, pin::Pin, sync::Arc};

use crate::secret::Secret;

/// The redirect URI the harness registers and waits for, unless told another: a loopback
/// address, as RFC 8252 has native apps use. Nothing listens there; the harness reads the
/// authorization code from the redirect itself.
pub const DEFAULT_REDIRECT_URI: &str = "http://127.0.0.1/callback";

/// How many times one request may send the user through authorization (the first time
/// included) before its 401 or `403 insufficient_scope` is the error.
pub const DEFAULT_MAX_AUTHORIZATIONS: u32 = 3;

/// What an [`authorize_with`](OAuth::authorize_with) function returns: the authorization
/// code, or the whole URL the authorization server redirected to.
pub type AuthorizationResult = Result<String, Box<dyn std::error::Error + Send + Sync>>;

type Authorizer =
    Arc<dyn Fn(String) -> Pin<Box<dyn Future<Output = AuthorizationResult> + Send>> + Send + Sync>;

/// Which OAuth grant obtains the access token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grant {
    AuthorizationCode,
    ClientCredentials,
}

/// OAuth 2.1 as MCP servers use it: on a 401 the harness discovers the server's
/// authorization server (protected resource metadata from `WWW-Authenticate` or the
/// well-known URLs, then RFC 8414 or OpenID Connect metadata), identifies itself (a
/// pre-registered client, a client ID metadata document, or dynamic client registration),
/// obtains a token (authorization code with PKCE S256 and the `resource` parameter, or client
/// credentials), retries, refreshes it before it expires, and steps up on
/// `403 insufficient_scope`. Built on rmcp's `auth` module.
///
/// The authorization-code flow runs headless: the harness fetches the authorization URL and
/// follows its redirects to [`redirect_uri`](Self::redirect_uri), as a test authorization
/// server that approves at once answers; for one that shows a login page, give
/// [`authorize_with`](Self::authorize_with) a function that logs in.
///
/// Secrets and tokens never appear in `Debug` output or errors, nor in mcp-assured's logs.
/// rmcp logs the authorization code at `debug` (target `rmcp`): keep `rmcp` at `info` or
/// above in logs others read (the `mcp-assured` binary always does).
///
/// ```
/// use mcp_assured::{Credentials, McpAssured, OAuth};
///
/// // Discover everything, register dynamically, authorize headless.
/// let client = McpAssured::client().base_uri("https://mcp.example.com/mcp").oauth(OAuth::new());
///
/// // A pre-registered confidential client, asking for two scopes.
/// let oauth = OAuth::new()
///     .client_id("my-client")
///     .client_secret("s3cret")
///     .scopes(["mcp:read", "mcp:write"]);
/// assert_eq!(
///     oauth.describe(),
///     "OAuth (authorization code, pre-registered client `my-client` with a secret, scopes mcp:read mcp:write)"
/// );
/// assert!(!format!("{:?}", Credentials::new().oauth(oauth)).contains("s3cret"));
///
/// // Machine to machine.
/// let service = OAuth::client_credentials("svc", "s3cret");
/// ```
#[derive(Clone)]
#[must_use = "OAuth settings do nothing until a client builder is given them"]
pub struct OAuth {
    pub(crate) grant: Grant,
    pub(crate) client_id: Option<String>,
    pub(crate) client_secret: Option<Secret>,
    pub(crate) client_metadata_url: Option<String>,
    pub(crate) client_name: String,
    pub(crate) redirect_uri: String,
    pub(crate) scopes: Vec<String>,
    pub(crate) max_authorizations: u32,
    pub(crate) authorizer: Option<Authorizer>,
}

impl Default for OAuth {
    fn default() -> Self {
        OAuth {
            grant: Grant::AuthorizationCode,
            client_id: None,
            client_secret: None,
            client_metadata_url: None,
            client_name: "mcp-assured".to_owned(),
            redirect_uri: DEFAULT_REDIRECT_URI.to_owned(),
            scopes: Vec::new(),
            max_authorizations: DEFAULT_MAX_AUTHORIZATIONS,
            authorizer: None,
        }
    }
}

impl OAuth {
    /// The authorization-code flow, with the client identified however the authorization
    /// server allows (a client ID metadata document if one is set and supported, else
    /// dynamic client registration), and the scopes the server asks for.
    pub fn new() -> Self {
        Self::default()
    }

    /// The client-credentials grant (machine to machine, no user): a client pre-registered
    /// with the authorization server, authenticating with its secret.
    pub fn client_credentials(client_id: impl Into<String>, secret: impl Into<Secret>) -> Self {
        OAuth {
            grant: Grant::ClientCredentials,
            ..Self::default()
        }
        .client_id(client_id)
        .client_secret(secret)
    }

    /// A client ID registered with the authorization server beforehand: no registration.
    pub fn client_id(mut self, client_id: impl Into<String>) -> Self {
        self.client_id = Some(client_id.into());
        self
    }

    /// The pre-registered client's secret, sent as the authorization server's metadata asks
    /// (`client_secret_basic` or `client_secret_post`); without one, the client is public
    /// (`none`).
    pub fn client_secret(mut self, secret: impl Into<Secret>) -> Self {
        self.client_secret = Some(secret.into());
        self
    }

    /// The HTTPS URL of this client's ID metadata document (SEP-991), used as its client ID
    /// where the authorization server supports it instead of registering.
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.client_metadata_url = Some(url.into());
        self
    }

    /// The name dynamic client registration gives (default `mcp-assured`).
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// The redirect URI to register and wait for (default [`DEFAULT_REDIRECT_URI`]).
    pub fn redirect_uri(mut self, uri: impl Into<String>) -> Self {
        self.redirect_uri = uri.into();
        self
    }

    /// The scopes to ask for. Without them the harness asks for what the server's
    /// `WWW-Authenticate` names, else its metadata's `scopes_supported`, else none.
    pub fn scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// How many times one request may go through authorization, the first included, before
    /// its 401 or `403 insufficient_scope` is the error (default
    /// [`DEFAULT_MAX_AUTHORIZATIONS`]).
    pub fn max_authorizations(mut self, times: u32) -> Self {
        self.max_authorizations = times.max(1);
        self
    }

    /// Authorizes with `authorize` instead of following the authorization URL headless: it
    /// gets the URL a user would open, and returns the authorization code, or the whole URL
    /// the authorization server redirected to (with `code` and `state`).
    ///
    /// ```
    /// use mcp_assured::OAuth;
    ///
    /// let oauth = OAuth::new().authorize_with(|url| async move {
    ///     // Drive the login page at `url` with a browser automation tool, say.
    ///     let _ = url;
    ///     Ok("the-code".to_owned())
    /// });
    /// ```
    pub fn authorize_with<F, Fut>(mut self, authorize: F) -> Self
    where
        F: Fn(String) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = AuthorizationResult> + Send + 'static,
    {
        self.authorizer = Some(Arc::new(move |url| Box::pin(authorize(url))));
        self
    }

    /// What is configured, never the secret: `OAuth (authorization code, dynamic client
    /// registration)`.
    pub fn describe(&self) -> String {
        let grant = match self.grant {
            Grant::AuthorizationCode => "authorization code",
            Grant::ClientCredentials => "client credentials",
        };
        let mut parts = vec![grant.to_owned()];
        parts.push(match (&self.client_id, &self.client_metadata_url) {
            (Some(id), _) => format!(
                "pre-registered client `{id}`{}",
                if self.client_secret.is_some() {
                    " with a secret"
                } else {
                    ""
                }
            ),
            (None, Some(url)) => format!("client ID metadata document {url}"),
            (None, None) => "dynamic client registration".to_owned(),
        });
        if !self.scopes.is_empty() {
            parts.push(format!("scopes {}", self.scopes.join(" ")));
        }
        if self.authorizer.is_some() {
            parts.push("authorized by a function of the test".to_owned());
        }
        format!("OAuth ({})", parts.join(", "))
    }
}

impl fmt::Debug for OAuth {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

impl PartialEq for OAuth {
    fn eq(&self, other: &Self) -> bool {
        let same_authorizer = match (&self.authorizer, &other.authorizer) {
            (Some(mine), Some(theirs)) => Arc::ptr_eq(mine, theirs),
            (mine, theirs) => mine.is_none() && theirs.is_none(),
        };
        same_authorizer
            && self.grant == other.grant
            && self.client_id == other.client_id
            && self.client_secret == other.client_secret
            && self.client_metadata_url == other.client_metadata_url
            && self.client_name == other.client_name
            && self.redirect_uri == other.redirect_uri
            && self.scopes == other.scopes
            && self.max_authorizations == other.max_authorizations
    }
}

impl Eq for OAuth {}
