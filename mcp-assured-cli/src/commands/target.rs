//! The server a one-shot command talks to: `<url>` or `-- <command> [args…]`, with headers,
//! a bearer token or OAuth, TLS trust, environment, and the request and start-up timeouts.

use std::{path::PathBuf, sync::OnceLock, time::Duration};

use clap::{Args, ValueEnum};
use mcp_assured::{
    ClientBuilder, Credentials, McpAssured, McpClient, OAuth, Tls, diff::Surface, rest::RestClient,
};
use mcp_assured_cli::config::{self, ServerConfig};

use super::outcome::Failure;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum HttpTransport {
    StreamableHttp,
    Sse,
}

/// The OAuth grant of `--oauth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OAuthGrant {
    AuthorizationCode,
    ClientCredentials,
}

#[derive(Debug, Clone, Args)]
pub(crate) struct Target {
    /// The server: a URL (streamable HTTP; a path ending in /sse is HTTP+SSE), or, after
    /// `--`, a command and its arguments to start and speak to over stdio. Or give --config.
    #[arg(
        required_unless_present = "config",
        conflicts_with = "config",
        num_args = 1..,
        allow_hyphen_values = true,
        value_name = "URL | -- COMMAND ARGS"
    )]
    target: Vec<String>,
    /// Take the server from a configuration file in the `mcpServers` JSON format MCP clients
    /// use (Claude Desktop, .mcp.json, Cursor, the Inspector): a `command` with `args`, `env`
    /// and `cwd`, or a `url` with `headers` and `type` ("http" or "sse"). `${VAR}` is read
    /// from the environment.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Which server of the --config file (needed when it has several).
    #[arg(long, value_name = "NAME")]
    server: Option<String>,
    /// The --config file's server, read once (for the connection and for reports).
    #[arg(skip)]
    configured: OnceLock<Result<ServerConfig, String>>,
    /// An HTTP header, `Name: value` (repeatable).
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Bearer token for HTTP servers.
    #[arg(long, env = "MCP_ASSURED_BEARER_TOKEN", hide_env_values = true)]
    bearer_token: Option<String>,
    /// Force the HTTP transport instead of choosing it from the URL.
    #[arg(long, value_enum)]
    transport: Option<HttpTransport>,
    /// An environment variable for a command server, `NAME=value` (repeatable).
    #[arg(long = "env", short = 'e', value_name = "NAME=VALUE")]
    env: Vec<String>,
    /// Authorize with OAuth 2.1 when the server answers 401: discover its authorization
    /// server, register (or use --client-id), follow the authorization URL headless and get
    /// a token; `--oauth=client-credentials` for the machine-to-machine grant (needs
    /// --client-id and --client-secret).
    #[arg(
        long,
        value_enum,
        value_name = "GRANT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "authorization-code"
    )]
    oauth: Option<OAuthGrant>,
    /// OAuth: a client ID registered with the authorization server (no registration).
    #[arg(long, value_name = "ID", requires = "oauth")]
    client_id: Option<String>,
    /// OAuth: the registered client's secret (used only with --oauth).
    #[arg(
        long,
        value_name = "SECRET",
        env = "MCP_ASSURED_CLIENT_SECRET",
        hide_env_values = true
    )]
    client_secret: Option<String>,
    /// OAuth: a scope to ask for (repeatable); by default what the server names.
    #[arg(long = "scope", value_name = "SCOPE", requires = "oauth")]
    scopes: Vec<String>,
    /// OAuth: the HTTPS URL of this client's ID metadata document, used as its client ID
    /// where the authorization server supports it.
    #[arg(long, value_name = "URL", requires = "oauth")]
    client_metadata_url: Option<String>,
    /// OAuth: the redirect URI to register and wait for (default http://127.0.0.1/callback).
    #[arg(long, value_name = "URI", requires = "oauth")]
    redirect_uri: Option<String>,
    /// Also trust the CA certificate(s) in this PEM file over https:// (as curl's
    /// --cacert); the platform's CAs, or SSL_CERT_FILE's, are trusted anyway.
    #[arg(long, value_name = "FILE")]
    cacert: Option<PathBuf>,
    /// Accept any server certificate over https:// (self-signed, expired, for another
    /// host), as curl's -k. For test servers only.
    #[arg(long, short = 'k')]
    insecure: bool,
    /// The protocol revision: `newest` negotiates (2026-07-28 if the server answers
    /// server/discover, else initialize); a revision such as 2025-06-18 is pinned, and the
    /// command fails if the server does not speak it. Default: newest.
    #[arg(long, value_name = "VERSION")]
    protocol: Option<String>,
    /// Seconds each request may take.
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// Seconds start-up may take: starting or reaching the server, OAuth if it asks, and
    /// the initialize handshake (default 60). Separate from --timeout, so that a short
    /// request timeout does not fail a server that is slow to boot.
    #[arg(long, value_name = "SECONDS")]
    startup_timeout: Option<u64>,
    /// Seconds a server that is up (it answers a ping) may leave server/discover unanswered
    /// before it is taken to be an older one and sent initialize (default 3). A server still
    /// booting is waited for within --startup-timeout, whatever this is.
    #[arg(long, value_name = "SECONDS")]
    discover_timeout: Option<f64>,
    /// Record every exchange with the server into a cassette at FILE (JSON; values under
    /// keys that name secrets redacted), written as it goes and when the command ends.
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Record the MCP surface coverage of the run (the tools called with which arguments
    /// and values, how they answered, ...) into a new file in DIR, for `mcp-assured
    /// coverage DIR` (default: the directory `MCP_ASSURED_COVERAGE` names, if set).
    #[arg(long, value_name = "DIR")]
    coverage: Option<PathBuf>,
}

impl Target {
    /// The URL or command line, for reports; a server of `--config` by its name and file
    /// (its command line or URL may hold a secret `${VAR}` filled in).
    pub(crate) fn describe(&self) -> String {
        match &self.config {
            Some(path) => config::describe(path, self.server.as_deref()),
            None => self.target.join(" "),
        }
    }

    /// The `--config` file, when the server comes from one.
    pub(crate) fn config_file(&self) -> Option<&std::path::Path> {
        self.config.as_deref()
    }

    /// `--config FILE [--server NAME]` when the server comes from a configuration file,
    /// whose command or URL, filled in from the environment, may hold secrets: how a
    /// reproduction names it.
    pub(crate) fn config_words(&self) -> Option<String> {
        let path = self.config.as_ref()?;
        let mut words = format!("--config {}", path.display());
        if let Some(server) = &self.server {
            words.push_str(&format!(" --server {server}"));
        }
        Some(words)
    }

    /// With `--config FILE` and no `--server`, the names of every server in FILE when it has
    /// several (a command that takes them all, as `lint` does, aims a [`for_server`] at each);
    /// `None` otherwise.
    ///
    /// [`for_server`]: Self::for_server
    pub(crate) fn every_configured_server(&self) -> Result<Option<Vec<String>>, Failure> {
        let (Some(path), None) = (&self.config, &self.server) else {
            return Ok(None);
        };
        let names = config::names(path).map_err(|error| Failure::usage(error.to_string()))?;
        Ok((names.len() > 1).then_some(names))
    }

    /// This target, aimed at server `name` of its `--config` file.
    pub(crate) fn for_server(&self, name: &str) -> Target {
        let mut one = self.clone();
        one.server = Some(name.to_owned());
        one.configured = OnceLock::new();
        one
    }

    /// What the server lists (tools, prompts, resources, templates, through every page),
    /// the connection closed after; exit 3 when it cannot be reached or listed.
    pub(crate) async fn surface(&self) -> Result<Surface, Failure> {
        Ok(self.named_surface().await?.1)
    }

    /// The server's name (its `serverInfo.name`) and what it offers.
    pub(crate) async fn named_surface(&self) -> Result<(String, Surface), Failure> {
        let client = self.connect().await?;
        let name = client.server_info().name.clone();
        let surface = Surface::from_client(&client)
            .await
            .map(|surface| (name, surface));
        let _ = client.close().await;
        surface.map_err(|error| {
            Failure::unreachable(format!(
                "could not list what {} offers: {error}",
                self.describe()
            ))
        })
    }

    /// The server of `--config` and `--server`.
    fn server_config(&self) -> Result<ServerConfig, Failure> {
        self.configured
            .get_or_init(|| {
                let path = self
                    .config
                    .as_deref()
                    .unwrap_or_else(|| std::path::Path::new(""));
                config::load(path, self.server.as_deref()).map_err(|error| error.to_string())
            })
            .clone()
            .map_err(Failure::usage)
    }

    /// The builder aimed at the server, and the headers the server's entry in `--config`
    /// gives (sent before `--header`s, which may override them).
    fn aimed(
        &self,
        builder: ClientBuilder,
    ) -> Result<(ClientBuilder, Vec<(String, String)>), Failure> {
        if self.config.is_none() && self.server.is_some() {
            return Err(Failure::usage(
                "--server names a server of a --config file: give --config FILE too",
            ));
        }
        if self.config.is_some() {
            return Ok(match self.server_config()? {
                ServerConfig::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                } => {
                    let mut builder = builder.command(command).args(args);
                    for (name, value) in env {
                        builder = builder.env(name, value);
                    }
                    if let Some(dir) = cwd {
                        builder = builder.current_dir(dir);
                    }
                    (self.with_env(builder)?, Vec::new())
                }
                ServerConfig::Http { url, headers, sse } => {
                    let builder = builder.base_uri(url);
                    let builder = match (self.transport, sse) {
                        (Some(HttpTransport::Sse), _) | (None, true) => builder.sse(),
                        _ => builder.streamable_http(),
                    };
                    (builder, headers.into_iter().collect())
                }
            });
        }
        let first = &self.target[0];
        if first.starts_with('-') {
            // The server's arguments may start with `-`, so the target takes hyphen values:
            // an unknown option before the server lands here, not in clap's own error.
            return Err(Failure::usage(format!(
                "unknown option `{first}`: `--help` lists the options, which go before the \
                 server (a URL, or `--` and a command)"
            )));
        }
        if first.starts_with("http://") || first.starts_with("https://") {
            if self.target.len() > 1 {
                return Err(Failure::usage(format!(
                    "a URL takes no arguments (got {:?}); for a command, put it after `--`",
                    &self.target[1..]
                )));
            }
            let builder = builder.base_uri(first);
            let builder = match self.transport {
                Some(HttpTransport::Sse) => builder.sse(),
                Some(HttpTransport::StreamableHttp) => builder.streamable_http(),
                None => builder,
            };
            Ok((builder, Vec::new()))
        } else {
            let builder = builder.command(first).args(&self.target[1..]);
            Ok((self.with_env(builder)?, Vec::new()))
        }
    }

    /// `--env`, for a command server.
    fn with_env(&self, mut builder: ClientBuilder) -> Result<ClientBuilder, Failure> {
        for pair in &self.env {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| Failure::usage(format!("--env {pair:?}: expected NAME=value")))?;
            builder = builder.env(name, value);
        }
        Ok(builder)
    }

    /// Connects and initializes: a wrong option is a usage failure, anything else on the way
    /// (spawning, reaching, authorizing, initializing) an unreachable server.
    pub(crate) async fn connect(&self) -> Result<McpClient, Failure> {
        self.builder()?.build().await.map_err(|error| match error {
            // What the options asked for cannot be built (an unknown protocol version).
            mcp_assured::Error::InvalidInput { .. } => Failure::usage(error.to_string()),
            _ => Failure::unreachable(error.to_string()),
        })
    }

    /// `--record`, which `record` takes as `--out`.
    pub(crate) fn record(&self) -> Option<&std::path::Path> {
        self.record.as_deref()
    }

    /// The client builder with every option, aimed at the server.
    pub(crate) fn builder(&self) -> Result<ClientBuilder, Failure> {
        let mut builder = McpAssured::client().timeout(Duration::from_secs(self.timeout.max(1)));
        if let Some(path) = &self.record {
            builder = builder.record_to(path);
        }
        if let Some(dir) = &self.coverage {
            builder = builder.coverage_to(dir);
        }
        if let Some(version) = &self.protocol {
            builder = builder.protocol_version(version);
        }
        if let Some(seconds) = self.startup_timeout {
            builder = builder.startup_timeout(Duration::from_secs(seconds.max(1)));
        }
        if let Some(seconds) = self.discover_timeout {
            let wait = Duration::try_from_secs_f64(seconds).map_err(|_| {
                Failure::usage(format!(
                    "--discover-timeout {seconds}: expected a number of seconds, 0 or more"
                ))
            })?;
            builder = builder.discover_timeout(wait);
        }
        let (builder, headers) = self.aimed(builder)?;
        Ok(builder
            .credentials(self.credentials(&headers).map_err(Failure::usage)?)
            .tls(self.tls()))
    }

    /// A REST client for a hybrid server's tool endpoints at `base`, sending the same
    /// credentials as the MCP client.
    pub(crate) fn rest_client(&self, base: &str) -> Result<RestClient, Failure> {
        // A URL server of `--config` sends its headers (often the credentials) to both.
        let configured = match &self.config {
            Some(_) => match self.server_config()? {
                ServerConfig::Http { headers, .. } => headers.into_iter().collect(),
                ServerConfig::Stdio { .. } => Vec::new(),
            },
            None => Vec::new(),
        };
        McpAssured::rest()
            .base_uri(base)
            .credentials(self.credentials(&configured).map_err(Failure::usage)?)
            .tls(self.tls())
            .build()
            .map_err(|error| Failure::usage(format!("--rest: {error}")))
    }

    /// `--cacert` and `--insecure`.
    fn tls(&self) -> Tls {
        let tls = Tls::new().accept_invalid_certificates(self.insecure);
        match &self.cacert {
            Some(file) => tls.ca_certificate_file(file),
            None => tls,
        }
    }

    /// `configured` headers (from `--config`), the `--header`s, and `--bearer-token` or
    /// `--oauth`.
    fn credentials(&self, configured: &[(String, String)]) -> Result<Credentials, String> {
        let mut credentials = Credentials::new();
        for (name, value) in configured {
            credentials = credentials.header(name.as_str(), value.as_str());
        }
        for header in &self.headers {
            let (name, value) = header.split_once(':').ok_or_else(|| {
                format!(
                    "--header {:?}: expected `Name: value`",
                    header.split(':').next().unwrap_or("")
                )
            })?;
            credentials = credentials.header(name.trim(), value.trim());
        }
        if let Some(token) = &self.bearer_token {
            credentials = credentials.bearer_token(token.as_str());
        }
        if let Some(grant) = self.oauth {
            if self.bearer_token.is_some() {
                return Err("give --bearer-token or --oauth, not both".to_owned());
            }
            credentials = credentials.oauth(self.oauth_settings(grant)?);
        }
        Ok(credentials)
    }

    /// `--oauth` and the options that go with it.
    fn oauth_settings(&self, grant: OAuthGrant) -> Result<OAuth, String> {
        let mut oauth = match grant {
            OAuthGrant::AuthorizationCode => OAuth::new(),
            OAuthGrant::ClientCredentials => {
                let (Some(id), Some(secret)) = (&self.client_id, &self.client_secret) else {
                    return Err(
                        "--oauth client-credentials needs --client-id and --client-secret"
                            .to_owned(),
                    );
                };
                OAuth::client_credentials(id, secret.as_str())
            }
        };
        if let Some(id) = &self.client_id {
            oauth = oauth.client_id(id);
        }
        if let Some(secret) = &self.client_secret {
            if self.client_id.is_none() {
                return Err("--client-secret needs --client-id".to_owned());
            }
            oauth = oauth.client_secret(secret.as_str());
        }
        if !self.scopes.is_empty() {
            oauth = oauth.scopes(&self.scopes);
        }
        if let Some(url) = &self.client_metadata_url {
            oauth = oauth.client_metadata_url(url);
        }
        if let Some(uri) = &self.redirect_uri {
            oauth = oauth.redirect_uri(uri);
        }
        Ok(oauth)
    }
}
