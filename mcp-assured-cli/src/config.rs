//! `--config FILE --server NAME`: a server from a configuration file in the `mcpServers`
//! format MCP clients read (Claude Desktop's `claude_desktop_config.json`, `.mcp.json`,
//! Cursor's `mcp.json`, the Inspector's `--config`; VS Code's `servers` key too).
//!
//! ```json
//! {
//!   "mcpServers": {
//!     "weather": { "command": "python3", "args": ["server.py"], "env": { "API_KEY": "${API_KEY}" } },
//!     "remote": { "type": "http", "url": "https://mcp.example.com/mcp", "headers": { "X-Api-Key": "${KEY}" } }
//!   }
//! }
//! ```
//!
//! An entry with `command` is started and spoken to over stdio (with `args`, `env`, `cwd`); one
//! with `url` is reached over HTTP (with `headers`): streamable HTTP, or HTTP+SSE when `type`
//! is `sse` (or, with no `type`, when the path ends in `/sse`). `${VAR}` and `${VAR:-default}`
//! in any string are replaced from the environment, as Claude Code does; fields this program
//! does not use (`disabled`, `autoApprove`, ...) are ignored.

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
};

use serde::Deserialize;
use serde_json::{Map, Value};

/// One server of a configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerConfig {
    /// A program to start and speak to over stdio.
    Stdio {
        command: String,
        args: Vec<String>,
        env: BTreeMap<String, String>,
        cwd: Option<PathBuf>,
    },
    /// A server reached over HTTP.
    Http {
        url: String,
        headers: BTreeMap<String, String>,
        /// The older HTTP+SSE transport rather than streamable HTTP.
        sse: bool,
    },
}

/// Why a server could not be read from a configuration file; each says what to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

/// The fields of an entry this program reads.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<String>,
    #[serde(alias = "serverUrl")]
    url: Option<String>,
    #[serde(default)]
    headers: BTreeMap<String, String>,
    #[serde(rename = "type", alias = "transport")]
    kind: Option<String>,
}

/// How reports name a server of a configuration file: `server NAME of FILE`. Never its
/// command line or URL, which `${VAR}` may have filled with a secret.
pub fn describe(path: &Path, name: Option<&str>) -> String {
    match name {
        Some(name) => format!("server `{name}` of {}", path.display()),
        None => format!("the server of {}", path.display()),
    }
}

/// Reads server `name` (or the only server, when `name` is `None`) from the file at `path`.
///
/// # Errors
///
/// The file cannot be read or is not JSON, it has no `mcpServers` (or `servers`), the server
/// is not in it (the error lists those that are), its entry has neither `command` nor `url`,
/// or a `${VAR}` is not set.
pub fn load(path: &Path, name: Option<&str>) -> Result<ServerConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        ConfigError(format!(
            "could not read the config file {}: {error}",
            path.display()
        ))
    })?;
    parse(&text, name)
        .map_err(|ConfigError(reason)| ConfigError(format!("{}: {reason}", path.display())))
}

/// The names of the servers in the file at `path`, in its order.
///
/// # Errors
///
/// The file cannot be read or is not JSON, or it has no `mcpServers` (or `servers`).
pub fn names(path: &Path) -> Result<Vec<String>, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|error| {
        ConfigError(format!(
            "could not read the config file {}: {error}",
            path.display()
        ))
    })?;
    let file: Value = serde_json::from_str(&text)
        .map_err(|error| ConfigError(format!("{}: not valid JSON: {error}", path.display())))?;
    let servers = servers_of(&file)
        .map_err(|ConfigError(reason)| ConfigError(format!("{}: {reason}", path.display())))?;
    Ok(servers.keys().cloned().collect())
}

fn servers_of(file: &Value) -> Result<&Map<String, Value>, ConfigError> {
    ["mcpServers", "servers"]
        .iter()
        .find_map(|key| file.get(*key).and_then(Value::as_object))
        .ok_or_else(|| {
            ConfigError(
                "no `mcpServers` object: the file should look like \
                 {\"mcpServers\": {\"NAME\": {\"command\": ..} or {\"url\": ..}}}"
                    .to_owned(),
            )
        })
}

/// [`load`] from the file's text.
///
/// # Errors
///
/// As [`load`].
pub fn parse(text: &str, name: Option<&str>) -> Result<ServerConfig, ConfigError> {
    let file: Value = serde_json::from_str(text)
        .map_err(|error| ConfigError(format!("not valid JSON: {error}")))?;
    let servers = servers_of(&file)?;
    let (name, entry) = pick(servers, name)?;
    let entry: Entry = serde_json::from_value(entry.clone())
        .map_err(|error| ConfigError(format!("server `{name}`: {error}")))?;
    resolve(name, entry)
}

fn pick<'a>(
    servers: &'a Map<String, Value>,
    name: Option<&str>,
) -> Result<(&'a str, &'a Value), ConfigError> {
    let names = || servers.keys().cloned().collect::<Vec<_>>().join(", ");
    match name {
        Some(name) => servers
            .get_key_value(name)
            .map(|(name, entry)| (name.as_str(), entry))
            .ok_or_else(|| ConfigError(format!("no server `{name}`; the file has: {}", names()))),
        None => match servers.iter().next() {
            Some((name, entry)) if servers.len() == 1 => Ok((name.as_str(), entry)),
            Some(_) => Err(ConfigError(format!(
                "the file has several servers; choose one with --server: {}",
                names()
            ))),
            None => Err(ConfigError("`mcpServers` is empty".to_owned())),
        },
    }
}

fn resolve(name: &str, entry: Entry) -> Result<ServerConfig, ConfigError> {
    let expand = |text: &str| {
        expand(text)
            .map_err(|ConfigError(reason)| ConfigError(format!("server `{name}`: {reason}")))
    };
    let expand_map = |map: &BTreeMap<String, String>| {
        map.iter()
            .map(|(key, value)| Ok((key.clone(), expand(value)?)))
            .collect::<Result<BTreeMap<_, _>, ConfigError>>()
    };
    let kind = entry.kind.as_deref().map(str::to_ascii_lowercase);
    match (&entry.command, &entry.url) {
        (Some(_), Some(_)) => Err(ConfigError(format!(
            "server `{name}` has both `command` and `url`: keep one"
        ))),
        (None, None) => Err(ConfigError(format!(
            "server `{name}` has neither `command` (a program to start over stdio) nor `url` \
             (an HTTP server)"
        ))),
        (Some(command), None) => {
            if let Some(kind) = kind.as_deref().filter(|kind| *kind != "stdio") {
                return Err(ConfigError(format!(
                    "server `{name}` has `command` but `type` {kind:?}: a command is spoken to \
                     over stdio; give `url` for HTTP"
                )));
            }
            Ok(ServerConfig::Stdio {
                command: expand(command)?,
                args: entry
                    .args
                    .iter()
                    .map(|arg| expand(arg))
                    .collect::<Result<_, _>>()?,
                env: expand_map(&entry.env)?,
                cwd: entry
                    .cwd
                    .as_deref()
                    .map(expand)
                    .transpose()?
                    .map(PathBuf::from),
            })
        }
        (None, Some(url)) => {
            let url = expand(url)?;
            let sse = match kind.as_deref() {
                Some("sse") => true,
                Some("http" | "streamable-http" | "streamablehttp" | "streamable_http") => false,
                None => url
                    .split(['?', '#'])
                    .next()
                    .unwrap_or_default()
                    .trim_end_matches('/')
                    .ends_with("/sse"),
                Some(other) => {
                    return Err(ConfigError(format!(
                        "server `{name}`: unknown `type` {other:?} for a `url`; use \"http\" \
                         (streamable HTTP) or \"sse\""
                    )));
                }
            };
            Ok(ServerConfig::Http {
                url,
                headers: expand_map(&entry.headers)?,
                sse,
            })
        }
    }
}

/// `${VAR}` and `${VAR:-default}` replaced from the environment.
fn expand(text: &str) -> Result<String, ConfigError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("${") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let end = after
            .find('}')
            .ok_or_else(|| ConfigError(format!("`${{` without a closing `}}` in {text:?}")))?;
        let reference = &after[..end];
        let (variable, default) = match reference.split_once(":-") {
            Some((variable, default)) => (variable, Some(default)),
            None => (reference, None),
        };
        // `${VAR:-default}`: the default when VAR is unset or empty, as in the shell.
        match (std::env::var(variable), default) {
            (Ok(value), Some(default)) if value.is_empty() => out.push_str(default),
            (Ok(value), _) => out.push_str(&value),
            (Err(_), Some(default)) => out.push_str(default),
            (Err(_), None) => {
                return Err(ConfigError(format!(
                    "`${{{variable}}}` is not set in the environment (give a default with \
                     `${{{variable}:-default}}`)"
                )));
            }
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stdio_and_http_entries() {
        let file = r#"{"mcpServers": {
            "local": {"command": "python3", "args": ["server.py", "--x"], "env": {"A": "1"},
                      "cwd": "/srv", "disabled": false, "autoApprove": []},
            "remote": {"type": "http", "url": "https://h.example/mcp", "headers": {"X-K": "v"}},
            "old": {"url": "http://127.0.0.1:9/sse"},
            "forced": {"type": "sse", "url": "http://127.0.0.1:9/events"}
        }}"#;
        assert_eq!(
            parse(file, Some("local")).unwrap(),
            ServerConfig::Stdio {
                command: "python3".into(),
                args: vec!["server.py".into(), "--x".into()],
                env: [("A".into(), "1".into())].into(),
                cwd: Some("/srv".into()),
            }
        );
        assert_eq!(
            parse(file, Some("remote")).unwrap(),
            ServerConfig::Http {
                url: "https://h.example/mcp".into(),
                headers: [("X-K".into(), "v".into())].into(),
                sse: false,
            }
        );
        for name in ["old", "forced"] {
            assert!(
                matches!(
                    parse(file, Some(name)).unwrap(),
                    ServerConfig::Http { sse: true, .. }
                ),
                "{name}"
            );
        }
    }

    #[test]
    fn the_only_server_needs_no_name_and_vs_code_s_key_works() {
        let file = r#"{"servers": {"one": {"command": "node", "args": ["s.js"]}}}"#;
        assert!(matches!(
            parse(file, None).unwrap(),
            ServerConfig::Stdio { .. }
        ));
    }

    #[test]
    fn errors_say_what_to_fix() {
        let two = r#"{"mcpServers": {"a": {"command": "x"}, "b": {"url": "http://h/mcp"}}}"#;
        let error = |text: &str, name: Option<&str>| parse(text, name).unwrap_err().to_string();
        assert_eq!(
            error(two, None),
            "the file has several servers; choose one with --server: a, b"
        );
        assert_eq!(error(two, Some("c")), "no server `c`; the file has: a, b");
        assert!(error("{", None).starts_with("not valid JSON: "));
        assert!(error("{}", None).starts_with("no `mcpServers` object"));
        assert!(
            error(r#"{"mcpServers": {"a": {"args": []}}}"#, None)
                .starts_with("server `a` has neither `command`")
        );
        assert!(
            error(
                r#"{"mcpServers": {"a": {"url": "http://h", "type": "grpc"}}}"#,
                None
            )
            .contains("unknown `type` \"grpc\"")
        );
        assert!(
            error(
                r#"{"mcpServers": {"a": {"command": "x", "type": "sse"}}}"#,
                None
            )
            .contains("a command is spoken to over stdio")
        );
    }

    #[test]
    fn expands_environment_variables_with_defaults() {
        // Reads only: PATH is set wherever the tests run, the other name nowhere.
        assert_eq!(
            expand("a ${MCP_ASSURED_CONFIG_UNSET:-fallback} b").unwrap(),
            "a fallback b"
        );
        assert!(
            expand("${MCP_ASSURED_CONFIG_UNSET}")
                .unwrap_err()
                .to_string()
                .contains("is not set")
        );
        assert!(expand("${unclosed").is_err());
        assert_eq!(expand("no variables").unwrap(), "no variables");
        let path = std::env::var("PATH").unwrap();
        assert_eq!(expand("[${PATH}]").unwrap(), format!("[{path}]"));
    }
}
