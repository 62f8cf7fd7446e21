//! `mcp-assured`: test MCP servers from an AI assistant or the shell.
//!
//! `mcp-assured serve` is an MCP server (stdio by default) whose tools connect to another
//! MCP server and exercise it, answering verbosely. `check`, `list` and `call` do the same
//! from the shell.

mod commands;

use std::{net::IpAddr, path::PathBuf, process::ExitCode};

use clap::{CommandFactory as _, Parser, Subcommand, ValueEnum};
use commands::outcome::{EXIT_STATUSES, Exit, Failure, Outcome};
use mcp_assured_cli::{CompanionServer, serve};
use tracing::Level;
use tracing_subscriber::{
    EnvFilter, Layer as _,
    filter::{FilterExt as _, filter_fn},
    layer::SubscriberExt as _,
    util::SubscriberInitExt as _,
};

/// Test Model Context Protocol servers: an MCP server for AI assistants that connects to
/// and exercises other MCP servers.
#[derive(Debug, Parser)]
#[command(
    name = "mcp-assured",
    bin_name = "mcp-assured",
    version,
    about,
    long_about = None,
    after_help = EXIT_STATUSES
)]
struct Cli {
    /// Print results, and errors, as JSON on stdout.
    #[arg(long, global = true)]
    json: bool,
    /// When to colour the output: auto (on a terminal, unless NO_COLOR is set or
    /// CLICOLOR_FORCE forces it), always or never.
    #[arg(long, value_enum, global = true, default_value_t = ColorWhen::Auto, value_name = "WHEN")]
    color: ColorWhen,
    /// Draw no progress: `fuzz`, `bench`, `check --load` and `record` show it on stderr when
    /// stderr is a terminal (never in a pipe, a file or a CI log).
    #[arg(long, short = 'q', global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the companion MCP server. Its tools: connect_to_server, disconnect,
    /// get_connection_status, list_connections, list_tools, call_tool, list_resources,
    /// list_resource_templates, read_resource, list_prompts, get_prompt, ping, complete,
    /// set_logging_level, get_notifications, run_server_tests, check_server, fuzz_server,
    /// lint_server.
    ///
    /// Register it with an MCP client, e.g. `claude mcp add mcp-assured -- mcp-assured serve`.
    Serve {
        /// stdio (for an MCP client that starts this program) or streamable HTTP at /mcp.
        #[arg(long, value_enum, default_value_t = Transport::Stdio)]
        transport: Transport,
        /// Port for --transport http (0 picks a free one; the address is printed to stderr).
        #[arg(long, default_value_t = 8765)]
        port: u16,
        /// Address to listen on for --transport http. Loopback by default: anything that
        /// reaches this server can make it connect to other servers and start programs.
        #[arg(long, default_value = "127.0.0.1")]
        host: IpAddr,
    },
    /// Run a server's own mcp.test.* tests and mcp-assured's protocol checks; print one line
    /// per check and "N passed, N failed, N skipped"; exit 1 if anything failed, 3 if the
    /// server could not be reached.
    ///
    /// Examples: `mcp-assured check http://127.0.0.1:8000/mcp --junit report.xml`,
    /// `mcp-assured check -- python3 server.py`.
    Check(commands::check::CheckArgs),
    /// Fuzz a server: every tool's arguments generated from its input schema (valid ones
    /// must be served, invalid ones refused), and the variables of resource templates and
    /// arguments of prompts; print each finding shrunk to the smallest input, with the
    /// command line and the #[mcp_test] that reproduce it; exit 1 if a finding fails.
    ///
    /// Example: `mcp-assured fuzz --seed 42 --junit fuzz.xml -- python3 server.py`.
    Fuzz(commands::fuzz::FuzzArgs),
    /// Put a server under load: a mix of calls (--call TOOL=JSON[@WEIGHT], repeatable) or
    /// every tool with generated arguments, --concurrency calls in flight per session over
    /// --sessions sessions, for --duration seconds or --calls calls after --warmup calls;
    /// print p50/p90/p99/p99.9/max latency, throughput and errors by kind per tool; exit 1
    /// if a threshold (--max-p99 MS, --max-error-rate, --min-throughput) is missed, or a
    /// call failed without --max-error-rate.
    ///
    /// Example: `mcp-assured bench --call 'echo={"message":"hi"}' --concurrency 8 --calls 5000 --max-p99 50 -- ./my-server`.
    Bench(commands::bench::BenchArgs),
    /// Lint what a model sees of a server: its tools, prompts and resources as listed, for
    /// hidden Unicode, instructions to the model against its user, parameters that ask for
    /// private data, secrets, what providers' strict modes refuse (warnings unless
    /// --profile names them), naming, missing descriptions and token cost; print each
    /// finding with its rule, where it is and what to change; exit 1 if one fails.
    ///
    /// Example: `mcp-assured lint --profile openai-strict --max-surface-tokens 8000 -- python3 server.py`.
    Lint(commands::lint::LintArgs),
    /// Write a server's surface (tools, prompts, resources, templates, as listed) to a JSON
    /// file, for `lint --pinned FILE` to fail on any definition that changes afterwards.
    ///
    /// Example: `mcp-assured pin --out mcp.pin.json -- python3 server.py`.
    Pin(commands::pin::PinArgs),
    /// List a server's tools (with input schemas), resources, templates and prompts; exit 1
    /// if a list the server advertises fails.
    List(commands::list::ListArgs),
    /// Call one tool and print its complete result as JSON; exit 1 on a tool error or a
    /// failed call.
    ///
    /// Example: `mcp-assured call weather --arg city=London -- ./weather-server`.
    Call(commands::call::CallArgs),
    /// Read one resource and print the complete result as JSON.
    ///
    /// Example: `mcp-assured read example://counter -- ./my-server`.
    Read(commands::requests::ReadArgs),
    /// Get one prompt (with --arg name=value) and print the complete result as JSON.
    Prompt(commands::requests::PromptArgs),
    /// Complete an argument of a prompt (--prompt NAME) or a variable of a resource
    /// template (--resource URI_TEMPLATE) and print the completions as JSON.
    ///
    /// Example: `mcp-assured complete --prompt greet style fo -- ./my-server`.
    Complete(commands::requests::CompleteArgs),
    /// Ping the server and print the round trip; exit 1 if it does not answer (2026-07-28
    /// removed `ping`: a server that follows it refuses, so pin an older --protocol).
    Ping(commands::requests::PingArgs),
    /// Write the server's tools, resources, resource templates and prompts, and the results
    /// of chosen calls (--call TOOL=JSON), as insta-format snapshot files, redacted and
    /// sorted; with --check, compare instead: print a diff per difference and exit 1 if any.
    ///
    /// Example, in CI: `mcp-assured snapshot --check --call echo='{"message":"hi"}' -- node build/index.js`.
    Snapshot(commands::snapshot::SnapshotArgs),
    /// Compare two surfaces of a server (tools with their schemas and annotations,
    /// resources, resource templates, prompts, capabilities) and print every change,
    /// breaking ones first; with --fail-on-breaking, exit 1 exactly when one is breaking.
    ///
    /// Each side is a surface JSON file (`mcp-assured list --json > old.json` writes one), a
    /// snapshot file or directory written by `mcp-assured snapshot`, or the http(s) URL of a
    /// running server; the new side may be a command after `--`, and either a server of a
    /// config file (--old-config, --new-config). Exit 2 for a side that cannot be read, 3
    /// for a server that cannot be reached or listed.
    ///
    /// Example, in CI: `mcp-assured diff --fail-on-breaking snapshots -- node build/index.js`.
    Diff(commands::diff::DiffArgs),
    /// Report the MCP surface coverage recorded under DIR (by `MCP_ASSURED_COVERAGE=DIR
    /// cargo test`, or --coverage DIR of check and fuzz): per server, the tools, arguments,
    /// enum and boolean values, outcomes, prompts, resources and templates exercised of what
    /// it listed, and what never was, by name; exit 1 below a --min-* threshold, 2 when DIR
    /// holds no record. --html FILE writes it as one page, what was never exercised first;
    /// --sarif FILE writes each item never exercised as a note and each tally below its
    /// threshold as a warning, for code scanning.
    ///
    /// Example, in CI: `mcp-assured coverage target/mcp-coverage --min-tools 100 --min-arguments 80 --html coverage.html --sarif coverage.sarif`.
    Coverage(commands::coverage::CoverageArgs),
    /// Join stdin and stdout to an in-process MCP double's socket: the command a server under
    /// test starts to reach a `MockServer` of the library over stdio
    /// (`MockServer::stdio_command`). Exits 0 when stdin closes, 1 when the double closes
    /// the connection.
    Relay(commands::relay::RelayArgs),
    /// Serve a cassette (written by `record`) as an MCP server, no server running: one session
    /// over stdio, or streamable HTTP with --http PORT. Each request gets the recorded answer
    /// of the one that matches it (method, name or URI and arguments by default); one nothing
    /// recorded answers is refused naming the closest, and listed on stderr (exit 1).
    ///
    /// Example: `mcp-assured replay tests/cassettes/session.json --http 8000`.
    Replay(commands::replay::ReplayArgs),
    /// Be the MCP server of a client (an AI assistant, say) on stdio, passing every message
    /// on to the target and back (the server's requests and the client's answers too), and
    /// record the session into a cassette at --out: written after every exchange and when
    /// the client disconnects, on SIGINT or SIGTERM, or when the server ends the session.
    /// Values under keys that name secrets are redacted; headers are never recorded.
    ///
    /// Example: `claude mcp add weather -- mcp-assured record --out session.json -- python3 server.py`.
    /// The one-shot commands record what they did with --record FILE.
    Record(commands::record::RecordArgs),
    /// Print a completion script for your shell, e.g.
    /// `mcp-assured completions bash > ~/.local/share/bash-completion/completions/mcp-assured`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page, or write one page per command into a directory
    /// (`mcp-assured man --dir /usr/local/share/man/man1`).
    Man {
        /// Write `mcp-assured.1`, `mcp-assured-check.1`, ... here instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Transport {
    Stdio,
    Http,
}

// One thread: every command waits on I/O, and a companion call hops stdin → tool → server →
// stdout; on a multi-thread runtime each hop is a wake-up of another thread (~150 µs a call
// of the companion's added latency, BENCHMARKS.md).
#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    init_logging();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return usage_error(&error),
    };
    anstream::ColorChoice::write_global(match cli.color {
        ColorWhen::Auto => anstream::ColorChoice::Auto,
        ColorWhen::Always => anstream::ColorChoice::Always,
        ColorWhen::Never => anstream::ColorChoice::Never,
    });
    let json = cli.json;
    commands::progress::set_quiet(cli.quiet);
    let outcome = run(cli.command, json).await;
    outcome
        .unwrap_or_else(|failure| failure.report(json))
        .into()
}

/// clap's own errors as JSON when `--json` is on the command line; help and version, and
/// everything else, as clap prints them.
fn usage_error(error: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let shown = matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    // Raw arguments (clap refuses one that is not UTF-8 with this very error), up to `--`:
    // after it they are the server's.
    let json = std::env::args_os()
        .skip(1)
        .take_while(|arg| arg != "--")
        .any(|arg| arg == "--json");
    if !shown && json {
        // The error's paragraph, without the usage and the hint after it.
        let rendered = error.render().to_string();
        let message: Vec<&str> = rendered
            .lines()
            .take_while(|line| !line.trim().is_empty())
            .map(str::trim)
            .collect();
        let message = message.join(" ");
        let message = message.strip_prefix("error: ").unwrap_or(&message);
        return Failure::usage(message).report(true).into();
    }
    let _ = error.print();
    ExitCode::from(error.exit_code().clamp(0, 255) as u8)
}

async fn run(command: Command, json: bool) -> Outcome {
    match command {
        Command::Check(args) => commands::check::run(args, json).await,
        Command::Fuzz(args) => commands::fuzz::run(args, json).await,
        Command::Bench(args) => commands::bench::run(args, json).await,
        Command::Lint(args) => commands::lint::run(args, json).await,
        Command::List(args) => commands::list::run(args, json).await,
        Command::Pin(args) => commands::pin::run(args).await,
        Command::Call(args) => commands::call::run(args).await,
        Command::Read(args) => commands::requests::read(args).await,
        Command::Prompt(args) => commands::requests::prompt(args).await,
        Command::Complete(args) => commands::requests::complete(args).await,
        Command::Ping(args) => commands::requests::ping(args, json).await,
        Command::Snapshot(args) => commands::snapshot::run(args, json).await,
        Command::Diff(args) => commands::diff::run(args, json).await,
        Command::Coverage(args) => commands::coverage::run(args, json).await,
        Command::Relay(args) => commands::relay::run(args).await,
        Command::Replay(args) => commands::replay::run(args).await,
        Command::Record(args) => commands::record::run(args).await,
        Command::Completions { shell } => commands::shell::completions(shell, Cli::command()),
        Command::Man { dir } => commands::shell::man(Cli::command(), dir.as_deref()),
        Command::Serve {
            transport: Transport::Stdio,
            ..
        } => serve::serve_stdio(CompanionServer::new())
            .await
            .map(|()| Exit::Success)
            .map_err(|error| Failure::failed(error.to_string())),
        Command::Serve {
            transport: Transport::Http,
            port,
            host,
        } => serve_http(host, port)
            .await
            .map(|()| Exit::Success)
            .map_err(|error| Failure::failed(error.to_string())),
    }
}

/// Logs go to stderr only (stdout carries the protocol over stdio), filtered by `RUST_LOG`;
/// the default is `warn` without rmcp, which logs a closed transport as an error of its own
/// that the commands report better, and without rustls-platform-verifier, which logs a
/// rejected certificate that the commands report as a TLS error. Whatever `RUST_LOG` says,
/// rmcp never logs below `info`: at debug it prints whole requests, and `connect_to_server`'s
/// carry bearer tokens and auth headers, and OAuth's authorization codes.
fn init_logging() {
    let from_env = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,rmcp=off,rustls_platform_verifier=off"));
    let rmcp_at_most_info = filter_fn(|metadata| {
        !(metadata.target().starts_with("rmcp") && *metadata.level() > Level::INFO)
    });
    let stderr = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_filter(from_env.and(rmcp_at_most_info));
    tracing_subscriber::registry().with(stderr).init();
}

async fn serve_http(host: IpAddr, port: u16) -> Result<(), Box<dyn std::error::Error>> {
    let listener = serve::bind((host, port).into()).await?;
    eprintln!(
        "mcp-assured listening on http://{}/mcp",
        listener.local_addr()?
    );
    serve::serve_http(listener, CompanionServer::new()).await?;
    Ok(())
}
