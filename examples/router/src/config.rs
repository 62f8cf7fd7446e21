//! The router's configuration, from its environment:
//!
//! | variable | meaning |
//! | --- | --- |
//! | `ROUTER_UPSTREAM_<NAME>_URL` | an upstream reached over streamable HTTP |
//! | `ROUTER_UPSTREAM_<NAME>_COMMAND` | an upstream started as a child process and reached over stdio: a command line, split as a POSIX shell would (quotes, no expansion) |
//! | `ROUTER_UPSTREAM_<NAME>_BEARER_TOKEN` | sent as `Authorization: Bearer ..` to that HTTP upstream |
//! | `ROUTER_CALL_TIMEOUT_MS` | how long one forwarded request may take, in milliseconds (default 10000), the client's answer to an upstream's elicitation included; an HTTP tool's request too |
//! | `ROUTER_ADMIN_ADDR` | where the admin API listens (`127.0.0.1:8081`; port 0 for any): `POST /tools` registers an HTTP tool, `GET /tools` lists them, `DELETE /tools/{name}` removes one (see [`crate::admin`]) |
//!
//! With the admin API, no upstream is needed: the router then serves the HTTP tools
//! registered through it.
//!
//! `<NAME>` is the upstream's name, lower-cased (`SEARCH` is `search`): letters, digits and
//! single underscores. Its tools are listed as `<name>__<tool>`.

use std::{collections::BTreeMap, fmt, time::Duration};

const PREFIX: &str = "ROUTER_UPSTREAM_";
const TIMEOUT_VARIABLE: &str = "ROUTER_CALL_TIMEOUT_MS";
const ADMIN_VARIABLE: &str = "ROUTER_ADMIN_ADDR";
const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(10);

/// The variables of one upstream.
#[derive(Default)]
struct Parts {
    url: Option<String>,
    command: Option<String>,
    bearer_token: Option<String>,
}

impl Parts {
    /// How upstream `name` is reached, if its variables say one way.
    fn source(self, name: &str) -> Result<Source, String> {
        let upper = name.to_uppercase();
        match (self.url, self.command, self.bearer_token) {
            (Some(url), None, bearer_token) => Ok(Source::Http { url, bearer_token }),
            (None, Some(command), None) => {
                let mut words = shlex::split(&command)
                    .filter(|words| !words.is_empty())
                    .ok_or_else(|| {
                        format!("{PREFIX}{upper}_COMMAND is not a command line: {command:?}")
                    })?;
                let program = words.remove(0);
                Ok(Source::Command {
                    program,
                    args: words,
                })
            }
            (None, Some(_), Some(_)) => Err(format!(
                "{PREFIX}{upper}_BEARER_TOKEN: a bearer token is sent to HTTP upstreams only; \
                 give a command upstream its credentials in its own environment"
            )),
            (Some(_), Some(_), _) => Err(format!(
                "upstream `{name}` has both {PREFIX}{upper}_URL and _COMMAND; set one"
            )),
            (None, None, _) => Err(format!(
                "upstream `{name}` has a bearer token but no {PREFIX}{upper}_URL"
            )),
        }
    }
}

type Field = fn(&mut Parts) -> &mut Option<String>;

/// `ROUTER_UPSTREAM_<NAME><suffix>`, and what each sets.
const FIELDS: [(&str, Field); 3] = [
    ("_URL", |parts| &mut parts.url),
    ("_COMMAND", |parts| &mut parts.command),
    ("_BEARER_TOKEN", |parts| &mut parts.bearer_token),
];

/// What the router forwards to, and how patiently.
#[derive(Debug, Clone)]
pub struct Config {
    /// The upstream servers, by name.
    pub upstreams: Vec<UpstreamConfig>,
    /// How long one forwarded request (`tools/list`, `tools/call`) may take.
    pub call_timeout: Duration,
    /// Where the admin API listens, if it is on.
    pub admin_address: Option<String>,
}

/// One upstream server.
#[derive(Debug, Clone)]
pub struct UpstreamConfig {
    /// The prefix of its tools: `<name>__<tool>`.
    pub name: String,
    /// How to reach it.
    pub source: Source,
}

/// How an upstream is reached.
#[derive(Clone)]
pub enum Source {
    /// Streamable HTTP at `url`, with `Authorization: Bearer <token>` when there is one.
    Http {
        /// The MCP endpoint, e.g. `http://127.0.0.1:8080/mcp`.
        url: String,
        /// The bearer token to send.
        bearer_token: Option<String>,
    },
    /// A child process spoken to over its stdin and stdout.
    Command {
        /// The program.
        program: String,
        /// Its arguments.
        args: Vec<String>,
    },
}

/// The token never prints.
impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Http { url, bearer_token } => f
                .debug_struct("Http")
                .field("url", url)
                .field("bearer_token", &bearer_token.as_ref().map(|_| "<redacted>"))
                .finish(),
            Source::Command { program, args } => f
                .debug_struct("Command")
                .field("program", program)
                .field("args", args)
                .finish(),
        }
    }
}

impl Config {
    /// The configuration in this process's environment.
    ///
    /// # Errors
    ///
    /// A sentence naming the variable that is wrong, or saying that no upstream is set.
    pub fn from_env() -> Result<Config, String> {
        Config::from_vars(std::env::vars())
    }

    /// The configuration in these variables (the others are ignored).
    ///
    /// # Errors
    ///
    /// As [`from_env`](Self::from_env).
    pub fn from_vars(vars: impl IntoIterator<Item = (String, String)>) -> Result<Config, String> {
        let mut parts: BTreeMap<String, Parts> = BTreeMap::new();
        let mut call_timeout = DEFAULT_CALL_TIMEOUT;
        let mut admin_address = None;
        for (key, value) in vars {
            if key == ADMIN_VARIABLE {
                admin_address = Some(value);
                continue;
            }
            if key == TIMEOUT_VARIABLE {
                let millis = value.parse::<u64>().map_err(|_| {
                    format!("{TIMEOUT_VARIABLE} is a number of milliseconds, not {value:?}")
                })?;
                call_timeout = Duration::from_millis(millis);
                continue;
            }
            let Some(rest) = key.strip_prefix(PREFIX) else {
                continue;
            };
            let (name, field) = FIELDS
                .into_iter()
                .find_map(|(suffix, field)| Some((rest.strip_suffix(suffix)?, field)))
                .ok_or_else(|| {
                    format!("{key}: expected {PREFIX}<NAME>_URL, _COMMAND or _BEARER_TOKEN")
                })?;
            let upstream = parts.entry(upstream_name(&key, name)?).or_default();
            *field(upstream) = Some(value);
        }
        let upstreams = parts
            .into_iter()
            .map(|(name, parts)| {
                let source = parts.source(&name)?;
                Ok(UpstreamConfig { name, source })
            })
            .collect::<Result<Vec<_>, String>>()?;
        if upstreams.is_empty() && admin_address.is_none() {
            return Err(format!(
                "no upstream MCP server: set {PREFIX}<NAME>_URL or {PREFIX}<NAME>_COMMAND, or \
                 {ADMIN_VARIABLE} to register HTTP tools"
            ));
        }
        Ok(Config {
            upstreams,
            call_timeout,
            admin_address,
        })
    }
}

/// `SEARCH` is `search`; a name with a double underscore would make `<name>__<tool>`
/// ambiguous.
fn upstream_name(key: &str, name: &str) -> Result<String, String> {
    let valid = !name.is_empty()
        && !name.contains("__")
        && !name.starts_with('_')
        && !name.ends_with('_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if valid {
        Ok(name.to_lowercase())
    } else {
        Err(format!(
            "{key}: the upstream's name `{name}` must be letters, digits and single underscores"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, String> {
        Config::from_vars(
            vars.iter()
                .map(|(key, value)| ((*key).to_owned(), (*value).to_owned())),
        )
    }

    #[test]
    fn reads_upstreams_by_name_and_the_timeout() {
        let config = config(&[
            ("ROUTER_UPSTREAM_SEARCH_URL", "http://127.0.0.1:1/mcp"),
            ("ROUTER_UPSTREAM_SEARCH_BEARER_TOKEN", "s3cret"),
            (
                "ROUTER_UPSTREAM_MY_FILES_COMMAND",
                "'/opt/my files/server' --root /tmp",
            ),
            ("ROUTER_CALL_TIMEOUT_MS", "250"),
            ("PATH", "/bin"),
        ])
        .unwrap();
        assert_eq!(config.call_timeout, Duration::from_millis(250));
        let described = format!("{:?}", config.upstreams);
        assert_eq!(
            described,
            r#"[UpstreamConfig { name: "my_files", source: Command { program: "/opt/my files/server", args: ["--root", "/tmp"] } }, UpstreamConfig { name: "search", source: Http { url: "http://127.0.0.1:1/mcp", bearer_token: Some("<redacted>") } }]"#
        );
    }

    #[test]
    fn refuses_what_it_cannot_route() {
        let refused = |vars: &[(&str, &str)]| config(vars).unwrap_err();
        assert!(refused(&[]).starts_with("no upstream MCP server"));
        assert!(
            refused(&[("ROUTER_UPSTREAM_A__B_URL", "http://x")]).contains("single underscores")
        );
        assert!(refused(&[("ROUTER_UPSTREAM_SEARCH_URI", "http://x")]).contains("_URL, _COMMAND"));
        assert!(
            refused(&[
                ("ROUTER_UPSTREAM_X_URL", "u"),
                ("ROUTER_UPSTREAM_X_COMMAND", "c")
            ])
            .contains("set one")
        );
        assert!(refused(&[("ROUTER_CALL_TIMEOUT_MS", "10s")]).contains("milliseconds"));
        assert!(refused(&[("ROUTER_UPSTREAM_X_COMMAND", "'unclosed")]).contains("not a command"));
    }
}
