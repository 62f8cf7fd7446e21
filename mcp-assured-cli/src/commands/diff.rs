//! `mcp-assured diff OLD NEW`: two surfaces of a server, each from a file (a surface's
//! JSON, or snapshots written by `mcp-assured snapshot`) or a live server, compared by the
//! library's `diff::compare`; every change printed, breaking first, and with
//! `--fail-on-breaking` exit 1 exactly when one is breaking. Each side is named with the
//! server its surface names (`server.name`), and a note says when the two differ.

use super::stdout::{out, outln};
use mcp_assured_cli::output;
use std::path::{Path, PathBuf};

use clap::{Args, Parser};
use mcp_assured::diff::{self, Surface};

use super::{
    outcome::{Exit, Failure, Outcome},
    sarif::SarifArgs,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct DiffArgs {
    /// The old surface: a surface JSON file (`mcp-assured list --json` writes one), a
    /// snapshot file or directory written by `mcp-assured snapshot`, a cassette written by
    /// `mcp-assured record` or `--record` (what its session listed), or the http(s) URL of a
    /// running server. Or give --old-config.
    #[arg(value_name = "OLD")]
    old: Option<String>,
    /// The new surface, as OLD; or, after `--`, a command and its arguments to start and
    /// list over stdio. Or give --new-config.
    #[arg(value_name = "NEW")]
    new: Option<String>,
    /// The new side as a command to start and list over stdio: `-- python3 server.py`.
    #[arg(last = true, value_name = "COMMAND ARGS")]
    command: Vec<String>,
    /// The old side is a server of this configuration file (the `mcpServers` format, as
    /// `check --config` reads): how to compare two command servers.
    #[arg(long, value_name = "FILE")]
    old_config: Option<PathBuf>,
    /// Which server of --old-config (needed when it has several).
    #[arg(long, value_name = "NAME", requires = "old_config")]
    old_server: Option<String>,
    /// The new side is a server of this configuration file.
    #[arg(long, value_name = "FILE")]
    new_config: Option<PathBuf>,
    /// Which server of --new-config (needed when it has several).
    #[arg(long, value_name = "NAME", requires = "new_config")]
    new_server: Option<String>,
    /// Whose snapshots, when a directory holds several servers' (the files' prefix); and
    /// the server's name in --sarif (default: --new-server, else the name the new side's
    /// server gives itself, else the old side's).
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
    /// Exit 1 if any change is breaking (else 0 whatever changed).
    #[arg(long)]
    fail_on_breaking: bool,
    #[command(flatten)]
    sarif: SarifArgs,
    /// For live servers: an HTTP header, `Name: value` (repeatable).
    #[arg(long = "header", short = 'H', value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// For live servers: a bearer token for HTTP servers.
    #[arg(long, env = "MCP_ASSURED_BEARER_TOKEN", hide_env_values = true)]
    bearer_token: Option<String>,
    /// For live servers: seconds each request may take (start-up may take 60).
    #[arg(long, default_value_t = 30)]
    timeout: u64,
    /// For live servers over https://: accept any certificate. For test servers only.
    #[arg(long, short = 'k')]
    insecure: bool,
}

/// One side of the comparison.
#[derive(Debug)]
enum Side {
    /// A surface's JSON, a snapshot file or a directory of them.
    File(PathBuf),
    /// A live server, as the arguments `check` would take to reach it.
    Live(Vec<String>),
}

/// A live side's arguments, read by the same [`Target`] as every command's.
#[derive(Debug, Parser)]
#[command(name = "diff", no_binary_name = true)]
struct LiveSide {
    #[command(flatten)]
    target: Target,
}

pub(crate) async fn run(args: DiffArgs, json: bool) -> Outcome {
    let (old_side, new_side) = sides(&args)?;
    // What code scanning's results point to: the baseline, where it is a file.
    let file_of = |side: &Side| match side {
        Side::File(path) if path.is_file() => Some(path.clone()),
        _ => None,
    };
    let read = [file_of(&old_side), file_of(&new_side)];
    let (old_name, old) = load(&args, old_side).await?;
    let (new_name, new) = load(&args, new_side).await?;
    let changes = diff::compare(&old, &new);
    let breaking = changes.is_breaking();
    let log = changes.to_sarif_between(&old, &new);
    // Named as the user names it, else as the surfaces do.
    let server = args
        .name
        .as_deref()
        .or(args.new_server.as_deref())
        .or(log.server_name())
        .unwrap_or("server")
        .to_owned();
    args.sarif.write(
        "diff",
        log,
        &server,
        &[
            read[0].as_deref(),
            read[1].as_deref(),
            args.old_config.as_deref(),
            args.new_config.as_deref(),
        ],
    )?;
    if json {
        let answer = output::Diff {
            breaking: changes.breaking().count(),
            compatible: changes.compatible().count(),
            old: old_name,
            new: new_name,
            old_server: old.server.clone(),
            new_server: new.server.clone(),
            changes,
        };
        outln!(
            "{}",
            serde_json::to_string_pretty(&answer).unwrap_or_default()
        );
    } else {
        outln!("{}\n", heading(&old_name, &old, &new_name, &new));
        out!("{changes}");
    }
    Ok(Exit::from_success(!(args.fail_on_breaking && breaking)))
}

/// `OLD -> NEW`, each side with the server its surface names (`old.json (weather 1.2.0)`),
/// and a line saying so when the two name different servers.
fn heading(old_name: &str, old: &Surface, new_name: &str, new: &Surface) -> String {
    let side = |name: &str, surface: &Surface| match &surface.server {
        Some(server) => format!("{name} ({})", server.described()),
        None => name.to_owned(),
    };
    let mut heading = format!("{} -> {}", side(old_name, old), side(new_name, new));
    if let Some(renamed) = new.renamed_from(old) {
        heading.push_str(&format!("\nnote: {renamed}"));
    }
    heading
}

/// The two sides: OLD or --old-config; NEW, `-- COMMAND`, or --new-config.
fn sides(args: &DiffArgs) -> Result<(Side, Side), Failure> {
    let mut given = [&args.old, &args.new].into_iter().flatten();
    let old = match &args.old_config {
        Some(file) => configured(file, args.old_server.as_deref()),
        None => match given.next() {
            Some(side) => named(side),
            None => {
                return Err(Failure::usage(
                    "give the old side: a file, a directory of snapshots, a URL, or --old-config",
                ));
            }
        },
    };
    let command = (!args.command.is_empty()).then(|| {
        let mut words = vec!["--".to_owned()];
        words.extend(args.command.iter().cloned());
        Side::Live(words)
    });
    let new = match (&args.new_config, command) {
        (Some(_), Some(_)) => {
            return Err(Failure::usage(
                "give the new side once: --new-config or a command after `--`",
            ));
        }
        (Some(file), None) => configured(file, args.new_server.as_deref()),
        (None, Some(command)) => command,
        (None, None) => match given.next() {
            Some(side) => named(side),
            None => {
                return Err(Failure::usage(
                    "give the new side: a file, a directory of snapshots, a URL, a command \
                     after `--`, or --new-config",
                ));
            }
        },
    };
    if let Some(extra) = given.next() {
        return Err(Failure::usage(format!(
            "{extra:?} is one side too many: give OLD and NEW (a command goes after `--`)"
        )));
    }
    Ok((old, new))
}

/// A side named on the command line: a URL is a live server, anything else a file.
fn named(side: &str) -> Side {
    if side.starts_with("http://") || side.starts_with("https://") {
        Side::Live(vec![side.to_owned()])
    } else {
        Side::File(PathBuf::from(side))
    }
}

fn configured(file: &Path, server: Option<&str>) -> Side {
    let mut words = vec!["--config".to_owned(), file.display().to_string()];
    if let Some(server) = server {
        words.extend(["--server".to_owned(), server.to_owned()]);
    }
    Side::Live(words)
}

/// The side's name for the report, and its surface, redacted as snapshots are so that a
/// snapshot and a live server differ only where the server does.
async fn load(args: &DiffArgs, side: Side) -> Result<(String, Surface), Failure> {
    match side {
        Side::File(path) => {
            let surface = match (&args.name, path.is_dir()) {
                (Some(name), true) => Surface::from_snapshot(&path, name),
                _ => Surface::from_path(&path),
            };
            let surface = surface.map_err(|error| Failure::usage(error.to_string()))?;
            Ok((path.display().to_string(), surface.redacted()))
        }
        Side::Live(words) => {
            let target = LiveSide::try_parse_from(live_arguments(args, words))
                .map_err(|error| Failure::usage(clap_message(&error)))?
                .target;
            let client = target.connect().await?;
            let surface = Surface::from_client(&client).await;
            let _ = client.close().await;
            let surface = surface.map_err(|error| {
                Failure::unreachable(format!("listing {} failed: {error}", target.describe()))
            })?;
            Ok((target.describe(), surface.redacted()))
        }
    }
}

/// The arguments of a live side: what names the server, and the connection options given
/// to `diff`, which every live side shares. (A side needing more, such as environment
/// variables or OAuth, is a server of a config file, or a `check`-style command line of its
/// own: `mcp-assured list --json .. > side.json`.)
fn live_arguments(args: &DiffArgs, server: Vec<String>) -> Vec<String> {
    let mut words = Vec::new();
    let mut option = |name: &str, value: String| {
        words.push(name.to_owned());
        words.push(value);
    };
    for header in &args.headers {
        option("--header", header.clone());
    }
    if let Some(token) = &args.bearer_token {
        option("--bearer-token", token.clone());
    }
    option("--timeout", args.timeout.to_string());
    if args.insecure {
        words.push("--insecure".to_owned());
    }
    // The server last: a command after `--` takes everything after it.
    words.extend(server);
    words
}

/// A clap error's first paragraph, without `error: ` and the usage.
fn clap_message(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    first.strip_prefix("error: ").unwrap_or(first).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(words: &[&str]) -> DiffArgs {
        #[derive(Debug, Parser)]
        struct Cli {
            #[command(flatten)]
            diff: DiffArgs,
        }
        Cli::try_parse_from(std::iter::once("diff").chain(words.iter().copied()))
            .unwrap()
            .diff
    }

    fn described(words: &[&str]) -> Result<(String, String), String> {
        let describe = |side: Side| match side {
            Side::File(path) => format!("file {}", path.display()),
            Side::Live(words) => format!("live {}", words.join(" ")),
        };
        sides(&parsed(words))
            .map(|(old, new)| (describe(old), describe(new)))
            .map_err(|failure| format!("{failure:?}"))
    }

    #[test]
    fn sides_are_files_urls_commands_or_configured_servers() {
        assert_eq!(
            described(&["old.json", "snapshots"]).unwrap(),
            ("file old.json".into(), "file snapshots".into())
        );
        assert_eq!(
            described(&["old.json", "--", "python3", "server.py", "--port", "1"]).unwrap(),
            (
                "file old.json".into(),
                "live -- python3 server.py --port 1".into()
            )
        );
        assert_eq!(
            described(&["http://a/mcp", "https://b/mcp"]).unwrap(),
            ("live http://a/mcp".into(), "live https://b/mcp".into())
        );
        assert_eq!(
            described(&[
                "--old-config",
                "c.json",
                "--old-server",
                "v1",
                "--new-config",
                "c.json",
                "--new-server",
                "v2"
            ])
            .unwrap(),
            (
                "live --config c.json --server v1".into(),
                "live --config c.json --server v2".into()
            )
        );
        // With --old-config, the one file named is the new side.
        assert_eq!(
            described(&["--old-config", "c.json", "new.json"]).unwrap(),
            ("live --config c.json".into(), "file new.json".into())
        );
        for wrong in [
            &["old.json"][..],
            &["a", "b", "--", "c"],
            &["--old-config", "c.json", "a", "b"],
            &["a", "--new-config", "c.json", "--", "x"],
        ] {
            assert!(described(wrong).is_err(), "{wrong:?}");
        }
    }

    #[test]
    fn live_sides_share_the_connection_options() {
        let args = parsed(&["a", "b", "-H", "X-Key: 1", "--timeout", "5", "--insecure"]);
        let words = live_arguments(&args, vec!["--".into(), "cmd".into()]);
        assert_eq!(
            words,
            [
                "--header",
                "X-Key: 1",
                "--timeout",
                "5",
                "--insecure",
                "--",
                "cmd"
            ]
        );
        assert!(LiveSide::try_parse_from(words).is_ok());
    }
}
