//! Opens the transport for a target and runs the `initialize` handshake, within the
//! timeout, turning every failure into an [`Error`] that names it.

use std::{sync::Arc, time::Duration};

use rmcp::{
    ClientCacheConfig, RoleClient, ServiceExt, service::RunningService, transport::Transport,
};

use super::{failure, handler::Harness, recording::Recording};
use crate::{
    error::{Error, Result},
    transport::{Owned, Target, diagnostics::Diagnostics, sse, stdio, streamable_http},
};

/// A live, initialized session and what it owns.
#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) running: RunningService<RoleClient, Harness>,
    pub(crate) owned: Owned,
    pub(crate) diagnostics: Arc<Diagnostics>,
    pub(crate) target: String,
}

/// Opens `target` and runs the handshake, all within `startup_timeout`.
pub(crate) async fn connect(
    target: Target,
    harness: Harness,
    startup_timeout: Duration,
) -> Result<Connection> {
    let timeout = startup_timeout;
    let diagnostics = Diagnostics::new();
    let description = target.describe();
    let attempt = open(target, harness, &description, timeout, &diagnostics);
    match tokio::time::timeout(timeout, attempt).await {
        Ok(result) => result,
        // Dropping the attempt dropped the transport and killed any child.
        Err(_) => Err(Error::Timeout {
            method: "initialize".to_owned(),
            timeout,
            stderr_tail: diagnostics.stderr_tail(),
        }),
    }
}

async fn open(
    target: Target,
    harness: Harness,
    description: &str,
    startup_timeout: Duration,
    diagnostics: &Arc<Diagnostics>,
) -> Result<Connection> {
    match target {
        Target::StreamableHttp(http) => {
            let transport = streamable_http::transport(&http, startup_timeout, diagnostics).await?;
            handshake(harness, transport, Owned::Nothing, description, diagnostics).await
        }
        Target::Sse(http) => {
            if http.credentials.oauth_settings().is_some() {
                return Err(Error::invalid(
                    "credentials",
                    "OAuth is for streamable HTTP; the HTTP+SSE transport (protocol \
                     2024-11-05) predates MCP authorization. Give its bearer token with \
                     `.bearer_token(..)`",
                ));
            }
            let transport = sse::connect(&http, diagnostics).await?;
            handshake(harness, transport, Owned::Nothing, description, diagnostics).await
        }
        Target::Stdio(command) => {
            let (transport, child) = stdio::spawn(&command, diagnostics)?;
            handshake(
                harness,
                transport,
                Owned::Child(child),
                description,
                diagnostics,
            )
            .await
        }
        Target::InProcess(server) => {
            let (transport, task) = server.start(diagnostics);
            handshake(
                harness,
                transport,
                Owned::Server(task),
                description,
                diagnostics,
            )
            .await
        }
    }
}

async fn handshake<T>(
    harness: Harness,
    transport: T,
    owned: Owned,
    description: &str,
    diagnostics: &Arc<Diagnostics>,
) -> Result<Connection>
where
    T: Transport<RoleClient> + 'static,
{
    let transport = Recording::new(transport, &harness);
    match harness.serve(transport).await {
        Ok(running) => {
            // A harness reports what the server says, never a cached answer.
            running
                .peer()
                .set_response_cache_config(ClientCacheConfig::disabled())
                .await;
            Ok(Connection {
                running,
                owned,
                diagnostics: diagnostics.clone(),
                target: description.to_owned(),
            })
        }
        Err(error) => {
            let error = failure::initialize_failed(error, description, diagnostics).await;
            drop(owned);
            Err(error)
        }
    }
}
