//! An rmcp server running in the test's own process, joined to the client by an in-memory
//! pipe: no port, no child, the same bytes on the wire as stdio.

use std::{future::Future, pin::Pin, sync::Arc};

use rmcp::{RoleServer, Service, ServiceExt};
use tokio::{
    io::{DuplexStream, ReadHalf, WriteHalf},
    task::JoinHandle,
};
use tokio_util::sync::CancellationToken;

use super::{diagnostics::Diagnostics, lines::LineTransport};

/// Room for a few large messages in flight in each direction.
const PIPE_CAPACITY: usize = 1 << 20;

type BoxFuture = Pin<Box<dyn Future<Output = ()> + Send>>;

/// A server waiting to be started on the server end of the pipe.
pub(crate) struct InProcessServer {
    start: Box<dyn FnOnce(DuplexStream, CancellationToken) -> BoxFuture + Send>,
    name: &'static str,
}

impl std::fmt::Debug for InProcessServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InProcessServer")
            .field("service", &self.name)
            .finish()
    }
}

impl InProcessServer {
    pub(crate) fn new<S: Service<RoleServer>>(service: S) -> Self {
        InProcessServer {
            name: std::any::type_name::<S>(),
            start: Box::new(move |io, cancel| {
                Box::pin(async move {
                    match service.serve_with_ct(io, cancel).await {
                        Ok(running) => {
                            let _ = running.waiting().await;
                        }
                        Err(error) => tracing::warn!(%error, "in-process server failed to start"),
                    }
                })
            }),
        }
    }

    pub(crate) fn name(&self) -> &'static str {
        self.name
    }

    /// Starts the server on a task and returns the client's end.
    pub(crate) fn start(self, diagnostics: &Arc<Diagnostics>) -> (InProcessTransport, ServerTask) {
        let (client_io, server_io) = tokio::io::duplex(PIPE_CAPACITY);
        let cancel = CancellationToken::new();
        let task = tokio::spawn((self.start)(server_io, cancel.clone()));
        let (read, write) = tokio::io::split(client_io);
        (
            LineTransport::new(read, write, diagnostics.clone()),
            ServerTask { cancel, task },
        )
    }
}

pub(crate) type InProcessTransport = LineTransport<ReadHalf<DuplexStream>, WriteHalf<DuplexStream>>;

/// The task running the in-process server; stopped when the client closes or is dropped.
#[derive(Debug)]
pub(crate) struct ServerTask {
    cancel: CancellationToken,
    task: JoinHandle<()>,
}

impl ServerTask {
    pub(crate) async fn shutdown(&mut self) {
        self.cancel.cancel();
        let _ = (&mut self.task).await;
    }
}

impl Drop for ServerTask {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}
