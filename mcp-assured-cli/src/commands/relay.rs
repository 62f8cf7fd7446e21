//! `mcp-assured relay ADDRESS`: the stdio face of an in-process MCP double. A server under
//! test starts it as it would any stdio MCP server; it joins its stdin and stdout to the
//! double's socket at ADDRESS (`MockServer::stdio_command` in the library), byte for byte.
//! It ends when the double closes the connection (exit 1: to the server under test, its
//! upstream process died) or when stdin closes (exit 0).

use std::net::SocketAddr;

use clap::Args;
use mcp_assured_cli::serve::stdio_streams;
use tokio::{
    io::{self, AsyncWriteExt as _},
    net::TcpStream,
};

use super::outcome::{Exit, Failure, Outcome};

#[derive(Debug, Args)]
pub(crate) struct RelayArgs {
    /// The double's relay address, `127.0.0.1:PORT`.
    address: SocketAddr,
}

pub(crate) async fn run(args: RelayArgs) -> Outcome {
    let stream = TcpStream::connect(args.address).await.map_err(|error| {
        Failure::unreachable(format!(
            "could not reach the MCP double at {}: {error} (was it dropped, or did a mock \
             crash it?)",
            args.address
        ))
    })?;
    let (mut from_double, mut to_double) = stream.into_split();
    // Non-blocking pipes: a read of tokio's stdin blocked on a thread would keep this
    // process alive after the double closed the connection.
    let (mut stdin, mut stdout) = stdio_streams();
    let upstream = async {
        let copied = io::copy(&mut stdin, &mut to_double).await;
        let _ = to_double.shutdown().await;
        copied
    };
    let downstream = async {
        let copied = io::copy(&mut from_double, &mut stdout).await;
        let _ = stdout.flush().await;
        copied
    };
    tokio::pin!(downstream);
    tokio::select! {
        // stdin closed: the server under test is done with its upstream. What the double
        // still had to say (answers in flight) is passed on until it closes its side.
        _ = upstream => {
            let _ = downstream.await;
            Ok(Exit::Success)
        }
        // The double closed the connection first: a dropped connection or a crash, on cue.
        _ = &mut downstream => Ok(Exit::Failure),
    }
}
