//! `connect_to_server`: connects to a server by URL, or starts a local one over stdio.

use std::{
    collections::BTreeMap,
    path::Path,
    sync::{OnceLock, atomic::AtomicU64},
    time::Duration,
};

use mcp_assured::{McpAssured, McpClient, OAuth, Tls, model::Tool};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::{Call, define};
use crate::companion::{
    answer::Answer,
    clock::now,
    errors::{ErrorType, Operation, classify, details},
    secrets,
    state::{Connection, DEFAULT_CONNECTION, Stats},
};
use crate::config::{self, ServerConfig};

/// The spec's transport names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
enum TransportName {
    #[serde(rename = "streaming-http")]
    StreamingHttp,
    #[serde(rename = "sse")]
    Sse,
    #[serde(rename = "stdio")]
    Stdio,
}

impl TransportName {
    fn as_str(self) -> &'static str {
        match self {
            TransportName::StreamingHttp => "streaming-http",
            TransportName::Sse => "sse",
            TransportName::Stdio => "stdio",
        }
    }
}

/// The OAuth grant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum OAuthGrant {
    AuthorizationCode,
    ClientCredentials,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ConnectArgs {
    /// URL of the MCP server to connect to (e.g., https://my-server.apps.openshift.com/mcp)
    /// A path ending in /sse means the older HTTP+SSE transport. Omit it for a local server
    /// started with `command`, or one given by `config`.
    url: Option<String>,
    /// Program of a local MCP server to start and speak to over stdio, e.g. `python3`.
    command: Option<String>,
    /// Instead of `url` or `command`: a configuration file in the `mcpServers` JSON format
    /// MCP clients use (Claude Desktop's claude_desktop_config.json, .mcp.json, Cursor's
    /// mcp.json): the server's `command`, `args`, `env`, `cwd`, or `url`, `headers` and `type`
    /// are taken from it; `env` and `headers` given here are added, and win over the file's.
    config: Option<String>,
    /// Which server of `config` (needed when it has several).
    server: Option<String>,
    /// Its arguments, e.g. ["server.py"].
    #[serde(default)]
    args: Vec<String>,
    /// Environment variables for the local server (values are never echoed back).
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// Working directory for the local server.
    cwd: Option<String>,
    /// `streaming-http`, `sse` or `stdio`; chosen from `url` / `command` when omitted.
    transport: Option<TransportName>,
    /// HTTP headers to send with every request (values are never echoed back).
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// Bearer token for `Authorization: Bearer ..` (never echoed back).
    bearer_token: Option<String>,
    /// Authorize with OAuth 2.1 when the server answers 401: `authorization_code` (discover
    /// the authorization server, register or use `client_id`, follow the authorization URL
    /// headless, as a test authorization server approves at once) or `client_credentials`
    /// (machine to machine; needs `client_id` and `client_secret`).
    oauth: Option<OAuthGrant>,
    /// OAuth: a client ID registered with the authorization server (no registration).
    client_id: Option<String>,
    /// OAuth: the registered client's secret (never echoed back).
    client_secret: Option<String>,
    /// OAuth: the scopes to ask for; by default what the server names.
    scopes: Option<Vec<String>>,
    /// OAuth: the HTTPS URL of this client's ID metadata document, used as its client ID
    /// where the authorization server supports it.
    client_metadata_url: Option<String>,
    /// OAuth: the redirect URI to register and wait for (default
    /// http://127.0.0.1/callback).
    redirect_uri: Option<String>,
    /// Over https://, also trust this CA certificate: a path to a PEM file (as curl's
    /// --cacert), or the PEM text itself. The platform's CAs, and SSL_CERT_FILE's, are
    /// trusted anyway.
    cacert: Option<String>,
    /// Over https://, accept any server certificate (self-signed, expired, for another
    /// host), as curl's -k/--insecure. For test servers only (default false).
    insecure: Option<bool>,
    /// A name for this connection, to keep several servers connected at once (default
    /// "default"). Connecting again under a name replaces that connection.
    name: Option<String>,
    /// Make this the connection tools use when they get no `connection` argument (default
    /// true).
    make_default: Option<bool>,
    /// How long each request to this server may take, in milliseconds (default 30000).
    #[schemars(range(min = 1))]
    timeout_ms: Option<u64>,
    /// The protocol revision to speak: `newest` negotiates (2026-07-28 if the server answers
    /// `server/discover`, else the `initialize` handshake); a revision such as `2025-11-25` or
    /// `2026-07-28` is pinned, and the connection fails, naming what the server offers, if it
    /// does not speak it. Default: `newest`. The answer's `server_info.protocol_version` is
    /// the revision spoken.
    protocol_version: Option<String>,
    /// How long start-up may take: spawning or reaching the server and its initialize
    /// handshake, in milliseconds (default 60000). Separate from timeout_ms, so that a short
    /// request timeout does not fail a server that is slow to boot.
    #[schemars(range(min = 1))]
    startup_timeout_ms: Option<u64>,
    /// How long a server that is up (it answers a ping) may leave `server/discover`
    /// unanswered before it is taken to be an older one and sent `initialize`, in
    /// milliseconds (default 3000). A server still booting is waited for within
    /// startup_timeout_ms, whatever this is.
    discover_timeout_ms: Option<u64>,
}

pub(crate) fn definition() -> Tool {
    define::<ConnectArgs>(
        "connect_to_server",
        // The seed's words (test-server-tool-schemas.md), its "Phase 2" replaced by how, then
        // what it does not say (docs/seed-differences.md).
        "Connects to an MCP server for testing. Supports both deployed servers\n\
         (streaming-http) and local servers (stdio). Once connected, all other\n\
         tools will operate on this connection until disconnect() is called.\n\
         \n\
         For deployed servers, provide the full URL (e.g., https://server.apps.openshift.com/mcp)\n\
         For local servers, give `command` (with `args`, `env`, `cwd`): the server is started \
         and spoken to over stdio.\n\
         \n\
         Or name a server of an `mcpServers` configuration file (`config`, `server`). A URL \
         whose path ends in /sse uses the older HTTP+SSE transport. For HTTP, optional \
         `headers` and `bearer_token`, or OAuth 2.1 (`oauth`); for https:// with a private CA, \
         `cacert`, or `insecure` for a self-signed test server. Several servers can be \
         connected at once under different `name`s; the other tools take a `connection` \
         argument to pick one. Answers with the server's name, version, protocol version and \
         capabilities.",
        false,
    )
}

/// `oauth` and the arguments that go with it.
fn oauth(args: &ConnectArgs) -> Result<Option<OAuth>, String> {
    let Some(grant) = args.oauth else {
        let given = [
            ("client_id", args.client_id.is_some()),
            ("client_secret", args.client_secret.is_some()),
            ("scopes", args.scopes.is_some()),
            ("client_metadata_url", args.client_metadata_url.is_some()),
            ("redirect_uri", args.redirect_uri.is_some()),
        ];
        return match given.iter().find(|(_, given)| *given) {
            Some((name, _)) => Err(format!("`{name}` is an OAuth argument: give `oauth` too")),
            None => Ok(None),
        };
    };
    if args.bearer_token.is_some() {
        return Err("give `bearer_token` or `oauth`, not both".to_owned());
    }
    let mut oauth = match grant {
        OAuthGrant::AuthorizationCode => OAuth::new(),
        OAuthGrant::ClientCredentials => {
            let (Some(id), Some(secret)) = (&args.client_id, &args.client_secret) else {
                return Err("`client_credentials` needs `client_id` and `client_secret`".to_owned());
            };
            OAuth::client_credentials(id, secret)
        }
    };
    if let Some(id) = &args.client_id {
        oauth = oauth.client_id(id);
    }
    if let Some(secret) = &args.client_secret {
        oauth = oauth.client_secret(secret);
    }
    if let Some(scopes) = &args.scopes {
        oauth = oauth.scopes(scopes);
    }
    if let Some(url) = &args.client_metadata_url {
        oauth = oauth.client_metadata_url(url);
    }
    if let Some(uri) = &args.redirect_uri {
        oauth = oauth.redirect_uri(uri);
    }
    Ok(Some(oauth))
}

/// `cacert` (a PEM file's path, or PEM text) and `insecure`.
fn tls(args: &ConnectArgs) -> Tls {
    let tls = Tls::new().accept_invalid_certificates(args.insecure.unwrap_or(false));
    match &args.cacert {
        Some(pem) if pem.trim_start().starts_with("-----BEGIN") => {
            tls.ca_certificate_pem(pem.as_bytes())
        }
        Some(file) => tls.ca_certificate_file(file),
        None => tls,
    }
}

pub(crate) async fn handle_call(call: Call<'_>) -> Answer {
    let mut args: ConnectArgs = match call.parse() {
        Ok(args) => args,
        Err(answer) => return answer,
    };
    let target = from_config(&mut args).and_then(|()| target(&args));
    let command_line_target = match (&args.config, &target) {
        (Some(path), _) => match &args.server {
            Some(server) => format!("--config {path} --server {server}"),
            None => format!("--config {path}"),
        },
        (None, Ok((_, server_url, _))) if server_url.starts_with("http") => server_url.clone(),
        (None, Ok((_, server_url, _))) => format!("-- {server_url}"),
        (None, Err(_)) => String::new(),
    };
    let (transport, server_url, builder) = match target {
        // A server of `config` is shown by its name and file: its command line or URL may
        // hold a secret that `${VAR}` filled in.
        Ok((transport, _, builder)) if args.config.is_some() => (
            transport,
            config::describe(
                Path::new(args.config.as_deref().unwrap_or_default()),
                args.server.as_deref(),
            ),
            builder,
        ),
        Ok(target) => target,
        Err(reason) => {
            return call.answer().error(
                ErrorType::InvalidArguments,
                format!("invalid arguments for `{}`: {reason}", call.tool),
                json!({ "reason": reason }),
            );
        }
    };
    let mut auth = Vec::new();
    let mut builder = builder;
    if let Some(token) = &args.bearer_token {
        builder = builder.bearer_token(token);
        auth.push("bearer token given".to_owned());
    }
    for (name, value) in &args.headers {
        builder = builder.header(name, value);
        auth.push(format!("header `{name}` given"));
    }
    let tls = tls(&args);
    builder = builder.tls(tls.clone());
    match oauth(&args) {
        Ok(Some(oauth)) => {
            auth.push(oauth.describe());
            builder = builder.oauth(oauth);
        }
        Ok(None) => {}
        Err(reason) => {
            return call.answer().error(
                ErrorType::InvalidArguments,
                format!("invalid arguments for `{}`: {reason}", call.tool),
                json!({ "reason": reason }),
            );
        }
    }
    if let Some(ms) = args.timeout_ms {
        builder = builder.timeout(Duration::from_millis(ms.max(1)));
    }
    if let Some(version) = &args.protocol_version {
        builder = builder.protocol_version(version);
    }
    if let Some(ms) = args.startup_timeout_ms {
        builder = builder.startup_timeout(Duration::from_millis(ms.max(1)));
    }
    if let Some(ms) = args.discover_timeout_ms {
        builder = builder.discover_timeout(Duration::from_millis(ms));
    }
    let name = args.name.unwrap_or_else(|| DEFAULT_CONNECTION.to_owned());
    let client: McpClient = match builder.build().await {
        Ok(client) => client,
        Err(error) => {
            let kind = classify(&error, Operation::Connect);
            let mut details = details(&error);
            details["server_url"] = json!(server_url);
            details["transport"] = json!(transport.as_str());
            return call.answer().error(
                kind,
                format!("could not connect to {server_url}: {error}"),
                details,
            );
        }
    };
    let connection = Connection {
        name: name.clone(),
        client,
        tls: server_url.starts_with("https://").then(|| tls.describe()),
        server_url,
        command_line_target,
        transport: transport.as_str(),
        connected_at: now(),
        auth,
        stats: Stats::default(),
        notifications_seen: AtomicU64::new(0),
        summary: OnceLock::new(),
    };
    let info = connection.client.server_info().clone();
    let answer = call
        .answer()
        .connection(&connection)
        .field(
            "message",
            format!(
                "Connected to {} {} over {} (protocol {}) as connection `{name}`.",
                info.name,
                info.version,
                transport.as_str(),
                info.protocol_version
            ),
        )
        .field("server_capabilities", json!(info.capabilities))
        .field("instructions", json!(info.instructions));
    let replaced = call
        .connections
        .insert(connection, args.make_default.unwrap_or(true))
        .await;
    match replaced {
        Some(previous) => {
            let _ = previous.client.clone().close().await;
            answer.field("replaced_connection", previous.summary())
        }
        None => answer,
    }
}

/// `config` and `server`: the server's entry filled into the arguments, as if given directly.
fn from_config(args: &mut ConnectArgs) -> Result<(), String> {
    let Some(path) = &args.config else {
        return match args.server {
            Some(_) => Err("`server` names a server of `config`: give `config` too".into()),
            None => Ok(()),
        };
    };
    if args.url.is_some() || args.command.is_some() || !args.args.is_empty() {
        return Err("give `config` (and `server`) or `url` / `command`, not both".into());
    }
    let entry = config::load(Path::new(path), args.server.as_deref()).map_err(|e| e.to_string())?;
    match entry {
        ServerConfig::Stdio {
            command,
            args: arguments,
            env,
            cwd,
        } => {
            args.command = Some(command);
            args.args = arguments;
            for (name, value) in env {
                args.env.entry(name).or_insert(value);
            }
            if args.cwd.is_none() {
                args.cwd = cwd.map(|dir| dir.display().to_string());
            }
        }
        ServerConfig::Http { url, headers, sse } => {
            args.url = Some(url);
            for (name, value) in headers {
                args.headers.entry(name).or_insert(value);
            }
            if sse && args.transport.is_none() {
                args.transport = Some(TransportName::Sse);
            }
        }
    }
    Ok(())
}

/// The transport, the URL or command line to show, and a builder aimed at the server.
fn target(
    args: &ConnectArgs,
) -> Result<(TransportName, String, mcp_assured::ClientBuilder), String> {
    let builder = McpAssured::client();
    match (&args.url, &args.command) {
        (Some(_), Some(_)) => Err("give either `url` or `command`, not both".into()),
        (None, None) => Err(
            "give `url` for an HTTP server, `command` (with `args`) for a local stdio server, \
             or `config` (and `server`) for a server of an mcpServers file"
                .into(),
        ),
        (Some(url), None) => {
            let transport = match args.transport {
                Some(TransportName::Stdio) => {
                    return Err("`stdio` needs `command`, not `url`".into());
                }
                Some(transport) => transport,
                None if url.trim_end_matches('/').ends_with("/sse") => TransportName::Sse,
                None => TransportName::StreamingHttp,
            };
            let builder = builder.base_uri(url);
            let builder = match transport {
                TransportName::Sse => builder.sse(),
                _ => builder.streamable_http(),
            };
            Ok((transport, secrets::without_userinfo(url), builder))
        }
        (None, Some(command)) => {
            if matches!(
                args.transport,
                Some(TransportName::StreamingHttp | TransportName::Sse)
            ) {
                return Err("`command` starts a stdio server; give `url` for HTTP".into());
            }
            let mut builder = builder.command(command).args(&args.args);
            for (name, value) in &args.env {
                builder = builder.env(name, value);
            }
            if let Some(dir) = &args.cwd {
                builder = builder.current_dir(dir);
            }
            let line = std::iter::once(command.as_str())
                .chain(args.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            Ok((TransportName::Stdio, line, builder))
        }
    }
}
