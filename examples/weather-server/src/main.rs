//! `weather-server`: the weather MCP server as a process, over stdio (the default) or
//! streamable HTTP (`--port N`, on 127.0.0.1; writes `listening on http://127.0.0.1:N` to
//! stderr once bound), optionally with the same tools as REST endpoints (`--rest`), with
//! scoped tokens (`--scoped-tokens`), tools' policies (`--policy`), an audit log of every
//! call's hooks (`--audit-log`) and the API's answers kept for 30 s (`--cache-ttl`, `0` for
//! none). Logs go to stderr (`RUST_LOG`, default `warn`).

use std::{
    collections::BTreeMap, error::Error, net::Ipv4Addr, path::PathBuf, sync::Arc, time::Duration,
};

use clap::{CommandFactory, Parser, ValueEnum, error::ErrorKind};
use rmcp::ServiceExt;
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;
use weather_server::{
    WeatherServer,
    audit::AuditLog,
    cache::{AnswerCache, DEFAULT_ENTRIES, parse_ttl},
    policy::Policies,
    rest::{Drift, RestOptions},
    serve::{serve_hybrid, serve_streamable_http},
};

/// An MCP server whose tools call a weather API.
#[derive(Debug, Parser)]
#[command(version)]
struct Cli {
    /// The weather API's base URL (http or https).
    #[arg(long, env = "WEATHER_API_URL", value_parser = parse_api_url)]
    api_url: Option<String>,
    /// How clients reach the server; `--port` alone implies `http`.
    #[arg(long, value_enum)]
    transport: Option<Transport>,
    /// Port on 127.0.0.1 for HTTP; 0 picks a free one.
    #[arg(long)]
    port: Option<u16>,
    /// Over HTTP, also serve the tools as REST endpoints (`GET /mcp/tools`,
    /// `POST /mcp/tools/{name}/execute`): a hybrid server.
    #[arg(long)]
    rest: bool,
    /// With `--rest`: require this bearer token on every request, MCP and REST.
    #[arg(
        long,
        env = "WEATHER_BEARER_TOKEN",
        hide_env_values = true,
        requires = "rest"
    )]
    bearer_token: Option<String>,
    /// Make the REST surface drift from the MCP one on purpose (for parity checks): alone,
    /// one schema changed and one error code mapped wrong; with a kind, that drift
    /// (repeatable).
    #[arg(long, requires = "rest", value_enum, num_args = 0..=1, value_name = "KIND")]
    rest_drift: Option<Vec<Drift>>,
    /// With `--rest`: the largest request body in bytes (default 10 MB); larger gets 413.
    #[arg(long, requires = "rest", value_name = "BYTES")]
    max_body_bytes: Option<usize>,
    /// With `--rest`: executions allowed per minute; more get 429 with `Retry-After`.
    #[arg(long, requires = "rest", value_name = "PER_MINUTE")]
    rate_limit: Option<u32>,
    /// With `--rest`: tokens that grant only some scopes, as JSON `{"<token>": ["<scope>",
    /// ..]}`; a tool whose permissions a token lacks is refused with PERMISSION_ERROR.
    #[arg(
        long,
        env = "WEATHER_SCOPED_TOKENS",
        hide_env_values = true,
        requires = "rest",
        value_name = "JSON",
        value_parser = parse_scoped_tokens
    )]
    scoped_tokens: Option<BTreeMap<String, Vec<String>>>,
    /// Tools' permissions and limits replacing what they declare, as JSON (or `@FILE`):
    /// `{"<tool>" | "*": {"permissions": [..], "limits": {"maxExecutionTime": ms,
    /// "maxConcurrency": n, "onConcurrencyLimit": "reject" | "wait", "maxPayloadSize": MB,
    /// "maxMemory": MB}}}`.
    #[arg(long, env = "WEATHER_POLICY", value_name = "JSON")]
    policy: Option<String>,
    /// How long the weather API's answers are kept, so that the same call made again within
    /// it (same tool, same arguments, either face) does not ask the API again: `30s`,
    /// `500ms`, `2m`; `0` keeps nothing. Only 2xx JSON answers are kept.
    #[arg(long, env = "WEATHER_CACHE_TTL", value_name = "DURATION", default_value = "30s", value_parser = parse_ttl)]
    cache_ttl: Duration,
    /// How many of the API's answers are kept at most (the oldest go first).
    #[arg(long, env = "WEATHER_CACHE_ENTRIES", value_name = "N", default_value_t = DEFAULT_ENTRIES)]
    cache_entries: usize,
    /// Append every call's lifecycle hooks (beforeExecute, afterExecute, onError) to this
    /// file, one JSON line each.
    #[arg(long, env = "WEATHER_AUDIT_LOG", value_name = "FILE")]
    audit_log: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Transport {
    Stdio,
    Http,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .init();
    let cli = Cli::parse();
    let Some(api_url) = cli.api_url else {
        // Optional for clap so that the error can name the environment variable.
        Cli::command()
            .error(
                ErrorKind::MissingRequiredArgument,
                "no weather API URL: set WEATHER_API_URL or pass --api-url <URL>",
            )
            .exit()
    };
    let mut server =
        WeatherServer::new(api_url).with_cache(AnswerCache::new(cli.cache_ttl, cli.cache_entries));
    if let Some(policy) = &cli.policy {
        let text = match policy.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|error| format!("--policy {policy}: {error}"))?,
            None => policy.clone(),
        };
        let overrides: serde_json::Value = serde_json::from_str(&text)
            .map_err(|error| format!("--policy is not JSON: {error}"))?;
        let policies = Policies::declared()
            .with_overrides(&overrides)
            .map_err(|error| format!("--policy: {error}"))?;
        server = server.with_policies(policies);
    }
    if let Some(path) = &cli.audit_log {
        let log = AuditLog::open(path)
            .map_err(|error| format!("--audit-log {}: {error}", path.display()))?;
        server = server.with_hooks(Arc::new(log));
    }
    let transport = cli.transport.unwrap_or(if cli.port.is_some() {
        Transport::Http
    } else {
        Transport::Stdio
    });
    if cli.rest && transport != Transport::Http {
        Cli::command()
            .error(
                ErrorKind::ArgumentConflict,
                "--rest needs the HTTP transport (--port N)",
            )
            .exit()
    }
    match transport {
        Transport::Stdio => {
            server
                .serve(rmcp::transport::stdio())
                .await?
                .waiting()
                .await?;
        }
        Transport::Http => {
            let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, cli.port.unwrap_or(0))).await?;
            eprintln!("listening on http://{}", listener.local_addr()?);
            if cli.rest {
                let mut options = RestOptions::default();
                if let Some(token) = cli.bearer_token {
                    options = options.bearer_token(token);
                }
                match cli.rest_drift.as_deref() {
                    Some([]) => options = options.drifting(),
                    Some(kinds) => {
                        for kind in kinds {
                            options = options.drift(*kind);
                        }
                    }
                    None => {}
                }
                if let Some(bytes) = cli.max_body_bytes {
                    options = options.max_body_bytes(bytes);
                }
                if let Some(per_minute) = cli.rate_limit {
                    options = options.rate_limit(per_minute);
                }
                for (token, scopes) in cli.scoped_tokens.unwrap_or_default() {
                    options = options.scoped_token(token, scopes);
                }
                serve_hybrid(listener, server, options).await?;
            } else {
                serve_streamable_http(listener, server).await?;
            }
        }
    }
    Ok(())
}

/// `{"<token>": ["<scope>", ..]}`.
fn parse_scoped_tokens(value: &str) -> Result<BTreeMap<String, Vec<String>>, String> {
    serde_json::from_str(value)
        .map_err(|error| format!("expected {{\"<token>\": [\"<scope>\", ..]}}: {error}"))
}

/// Accepts an absolute `http` or `https` URL, so a typo fails at start-up rather than on the
/// first tool call.
fn parse_api_url(value: &str) -> Result<String, String> {
    let url = reqwest::Url::parse(value).map_err(|error| format!("not a URL: {error}"))?;
    match url.scheme() {
        "http" | "https" => Ok(value.to_owned()),
        other => Err(format!("expected an http or https URL, got `{other}:`")),
    }
}
