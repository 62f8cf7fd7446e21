//! `mcp-assured replay FILE`: a cassette served as an MCP server, with no server running:
//! over stdio (an MCP client starts it in place of the recorded server), or over streamable
//! HTTP with `--http PORT`. Each request is answered as the recorded session answered the
//! one that matches it; a request nothing recorded answers is refused with -32602 naming
//! the closest recorded request, and listed on stderr when the session ends.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use mcp_assured::{
    cassette::{Cassette, Matching},
    double::MockServer,
};

use mcp_assured_cli::serve::stdio_streams;

use super::outcome::{Exit, Failure, Outcome};

/// Which parts of a request must agree with a recorded one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum MatchOn {
    /// The method, and the params but `_meta` (name or URI, arguments, cursor).
    Params,
    /// The method and the tool's or prompt's name or the resource's URI.
    Name,
    /// The method alone.
    Method,
}

#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The cassette, written by `mcp-assured record` or `ClientBuilder::record_to`.
    cassette: PathBuf,
    /// Serve streamable HTTP at http://127.0.0.1:PORT/mcp (0: a free port, printed on
    /// stderr) until SIGINT or SIGTERM, instead of one session over stdio.
    #[arg(long, value_name = "PORT")]
    http: Option<u16>,
    /// What must agree for a recorded interaction to answer a request.
    #[arg(long = "match", value_enum, default_value_t = MatchOn::Params)]
    match_on: MatchOn,
    /// Leave out the field at this JSON pointer within the params when comparing
    /// (repeatable), e.g. `/arguments/timestamp`.
    #[arg(long, value_name = "POINTER")]
    ignore: Vec<String>,
}

pub(crate) async fn run(args: ReplayArgs) -> Outcome {
    let cassette =
        Cassette::load(&args.cassette).map_err(|error| Failure::usage(error.to_string()))?;
    let mut matching = match args.match_on {
        MatchOn::Params => Matching::new(),
        MatchOn::Name => Matching::ignoring_arguments(),
        MatchOn::Method => Matching::method_only(),
    };
    for pointer in args.ignore {
        matching = matching.ignore(pointer);
    }
    let mut builder = MockServer::builder().replay(cassette).matching(matching);
    if let Some(port) = args.http {
        builder = builder.http_port(port);
    }
    let double = builder
        .try_start()
        .await
        .map_err(|error| Failure::usage(error.to_string()))?;
    match args.http {
        Some(_) => {
            eprintln!("mcp-assured replay: serving {}", double.uri());
            super::record::stopped().await;
        }
        None => {
            let (stdin, stdout) = stdio_streams();
            double
                .serve_io(stdin, stdout)
                .await
                .map_err(|error| Failure::failed(error.to_string()))?;
        }
    }
    let missed = double.replay_misses();
    for request in &missed {
        eprintln!("mcp-assured replay: nothing recorded answers {request}");
    }
    Ok(Exit::from_success(missed.is_empty()))
}
