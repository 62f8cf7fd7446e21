//! [`ClientBuilder::proxy`](super::ClientBuilder::proxy): a session between another MCP
//! client and the server, passed on message for message both ways, and recorded when
//! `record_to` is set. No session of the harness's own: the client initializes, and every
//! request, notification and answer (the server's requests and the client's answers too)
//! goes through with its id unchanged.

use std::time::Duration;

use rmcp::{RoleClient, RoleServer, transport::Transport};

use super::{
    failure,
    taping::{Tape, Taping},
};
use crate::{
    error::{Error, Result},
    transport::{Owned, Target, diagnostics::Diagnostics, stdio},
};

/// Which way the proxy ended.
enum Ended {
    /// The client closed its end.
    Client,
    /// The server closed its end, or could not be written to.
    Server,
    /// The caller's `stop` came.
    Stopped,
}

/// Proxies between `client` and `target` until one of them closes or `stop` comes, then
/// writes the cassette, if any.
pub(crate) async fn proxy<C>(
    target: Target,
    #[cfg_attr(not(feature = "http"), allow(unused_variables))] startup_timeout: Duration,
    tape: Option<Tape>,
    client: C,
    stop: impl Future<Output = ()>,
) -> Result<()>
where
    C: Transport<RoleServer>,
{
    let diagnostics = Diagnostics::new();
    let ended = match target {
        #[cfg(feature = "http")]
        Target::StreamableHttp(http) => {
            let server =
                crate::transport::streamable_http::transport(&http, startup_timeout, &diagnostics)
                    .await?;
            let server = Taping::proxying(server, tape.clone(), &diagnostics);
            pump(client, server, Owned::Nothing, stop).await
        }
        #[cfg(feature = "http")]
        Target::Sse(http) => {
            let server = crate::transport::sse::connect(&http, &diagnostics).await?;
            let server = Taping::proxying(server, tape.clone(), &diagnostics);
            pump(client, server, Owned::Nothing, stop).await
        }
        Target::Stdio(command) => {
            let (server, child) = stdio::spawn(&command, &diagnostics)?;
            let server = Taping::proxying(server, tape.clone(), &diagnostics);
            pump(client, server, Owned::Child(child), stop).await
        }
        Target::InProcess(server) => {
            let (server, task) = server.start(&diagnostics);
            let server = Taping::proxying(server, tape.clone(), &diagnostics);
            pump(client, server, Owned::Server(task), stop).await
        }
    };
    if let Some(tape) = &tape {
        tape.flush()
            .map_err(|error| Error::invalid("cassette", error.to_string()))?;
    }
    match ended {
        Ended::Client | Ended::Stopped => Ok(()),
        Ended::Server => Err(failure::session_ended(&diagnostics).await),
    }
}

/// One turn of the proxy.
enum Step<A, B> {
    FromClient(Option<A>),
    FromServer(Option<B>),
    Stop,
}

async fn pump<C, S>(
    mut client: C,
    mut server: S,
    mut owned: Owned,
    stop: impl Future<Output = ()>,
) -> Ended
where
    C: Transport<RoleServer>,
    S: Transport<RoleClient>,
{
    tokio::pin!(stop);
    let ended = loop {
        let step = tokio::select! {
            () = &mut stop => Step::Stop,
            message = client.receive() => Step::FromClient(message),
            message = server.receive() => Step::FromServer(message),
        };
        match step {
            Step::FromClient(Some(message)) => {
                if server.send(message).await.is_err() {
                    break Ended::Server;
                }
            }
            Step::FromServer(Some(message)) => {
                if client.send(message).await.is_err() {
                    break Ended::Client;
                }
            }
            Step::FromClient(None) => break Ended::Client,
            Step::FromServer(None) => break Ended::Server,
            Step::Stop => break Ended::Stopped,
        }
    };
    let _ = server.close().await;
    let _ = client.close().await;
    owned.shutdown().await;
    ended
}
