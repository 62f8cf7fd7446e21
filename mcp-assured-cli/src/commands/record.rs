//! `mcp-assured record --out FILE [TARGET]`: an MCP server on stdio that is a proxy to the
//! target, recording. An MCP client (an AI assistant, an inspector) starts it in place of the
//! server; every message goes through both ways, the server's requests and the client's
//! answers too, and the session is written into a cassette at FILE: after every exchange,
//! and when the client disconnects (stdin closes), on SIGINT or SIGTERM, or when the server
//! ends the session.

use std::path::PathBuf;

use clap::Args;
use mcp_assured::{Error, cassette::Cassette};
use mcp_assured_cli::serve::stdio_transport;

use super::{
    outcome::{Exit, Failure, Outcome},
    progress::Live,
    target::Target,
};

#[derive(Debug, Args)]
pub(crate) struct RecordArgs {
    /// Where to write the cassette: pretty-printed JSON, values under keys that name secrets
    /// redacted; written after every exchange and when the session ends.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    #[command(flatten)]
    target: Target,
}

/// Proxies the session of the client on stdin and stdout to the target, recording it.
pub(crate) async fn run(args: RecordArgs) -> Outcome {
    if args.target.record().is_some() {
        return Err(Failure::usage(
            "`record` writes its cassette to --out; --record is for the other commands",
        ));
    }
    let builder = args.target.builder()?.record_to(&args.out);
    let proxy = builder.proxy(stdio_transport(), stopped());
    // On a terminal's stderr, how much is recorded so far (read back from the cassette,
    // which is written after every exchange).
    let live = Live::spinner("record");
    tokio::pin!(proxy);
    let mut ticks = tokio::time::interval(std::time::Duration::from_millis(500));
    let proxied = loop {
        if !live.is_drawn() {
            break proxy.await;
        }
        tokio::select! {
            proxied = &mut proxy => break proxied,
            _ = ticks.tick() => {
                let recorded = Cassette::load(&args.out)
                    .map(|cassette| cassette.interactions.len())
                    .unwrap_or_default();
                live.say(format!("{recorded} interaction(s) in {}", args.out.display()));
            }
        }
    };
    live.finish();
    // stdout is the protocol's: what happened goes to stderr.
    let recorded = Cassette::load(&args.out)
        .map(|cassette| cassette.interactions.len())
        .unwrap_or_default();
    eprintln!(
        "mcp-assured record: {recorded} interaction(s) in {}",
        args.out.display()
    );
    match proxied {
        Ok(()) => Ok(Exit::Success),
        Err(Error::InvalidInput { what, reason }) if what == "record_to" || what == "cassette" => {
            Err(Failure::output(reason))
        }
        Err(error @ Error::InvalidInput { .. }) => Err(Failure::usage(error.to_string())),
        Err(
            error @ (Error::Connect { .. }
            | Error::Tls { .. }
            | Error::Authorization { .. }
            | Error::Spawn { .. }),
        ) => Err(Failure::unreachable(error.to_string())),
        Err(error) => Err(Failure::failed(format!(
            "the server ended the session: {error}"
        ))),
    }
}

/// When the process is asked to stop: SIGINT (Ctrl-C) or, on Unix, SIGTERM.
pub(crate) async fn stopped() {
    let interrupted = async {
        if tokio::signal::ctrl_c().await.is_err() {
            // No handler could be installed: nothing will interrupt.
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    if let Ok(mut terminate) =
        tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
    {
        tokio::select! {
            () = interrupted => {}
            _ = terminate.recv() => {}
        }
        return;
    }
    interrupted.await;
}
