//! This process's stdin and stdout as async streams, for the companion over stdio.
//!
//! On Unix, when they are pipes (as an MCP client starts the companion), the runtime's own
//! I/O driver reads and writes them (`tokio::net::unix::pipe`). `tokio::io::stdin()` instead
//! hands every read to its blocking thread pool, one thread hop each way per message, which
//! the companion, itself one hop between a client and a server, cannot afford. A terminal, a
//! file, or another platform gets tokio's own streams.

use std::pin::Pin;

use tokio::io::{AsyncRead, AsyncWrite};

/// Stdin, as an async stream.
pub type Input = Pin<Box<dyn AsyncRead + Send>>;
/// Stdout, as an async stream.
pub type Output = Pin<Box<dyn AsyncWrite + Send>>;

/// Stdin and stdout.
pub(crate) fn streams() -> (Input, Output) {
    let input: Input = match pipes::input() {
        Some(pipe) => Box::pin(pipe),
        None => Box::pin(tokio::io::stdin()),
    };
    let output: Output = match pipes::output() {
        Some(pipe) => Box::pin(pipe),
        None => Box::pin(tokio::io::stdout()),
    };
    (input, output)
}

#[cfg(unix)]
mod pipes {
    use std::os::fd::AsFd as _;

    use tokio::net::unix::pipe;

    /// Stdin, if it is a pipe (made non-blocking).
    pub(super) fn input() -> Option<pipe::Receiver> {
        let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
        pipe::Receiver::from_owned_fd(fd).ok()
    }

    /// Stdout, if it is a pipe (made non-blocking: nothing else may print to it, which the
    /// companion does not, stdout being the protocol).
    pub(super) fn output() -> Option<pipe::Sender> {
        let fd = std::io::stdout().as_fd().try_clone_to_owned().ok()?;
        pipe::Sender::from_owned_fd(fd).ok()
    }
}

#[cfg(not(unix))]
mod pipes {
    pub(super) fn input() -> Option<tokio::io::Stdin> {
        None
    }

    pub(super) fn output() -> Option<tokio::io::Stdout> {
        None
    }
}
