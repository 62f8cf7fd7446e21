//! The four ways to reach a server, one file each, and what they share.

pub(crate) mod child;
pub(crate) mod diagnostics;
pub(crate) mod http;
pub(crate) mod in_process;
pub(crate) mod lines;
#[cfg(feature = "oauth")]
pub(crate) mod oauth;
/// Without the `oauth` feature no request is refused for want of OAuth.
#[cfg(not(feature = "oauth"))]
pub(crate) mod oauth {
    use super::diagnostics::Diagnostics;
    use crate::error::Error;

    /// Never an OAuth refusal in this build.
    pub(crate) fn failure_of(
        _error: &(dyn std::error::Error + 'static),
        _diagnostics: &Diagnostics,
    ) -> Option<Error> {
        None
    }
}
#[cfg(feature = "http")]
pub(crate) mod post;
pub(crate) mod raw;
#[cfg(feature = "http")]
pub(crate) mod sse;
#[cfg(feature = "http")]
pub(crate) mod standalone_stream;
pub(crate) mod stdio;

#[cfg(feature = "http")]
pub(crate) use http::describe_request_error;
#[cfg(feature = "http")]
pub(crate) mod streamable_http;
pub(crate) mod wire;
#[cfg(feature = "schema")]
pub(crate) mod wire_log;

use self::{
    in_process::{InProcessServer, ServerTask},
    stdio::StdioCommand,
};

use self::child::ChildGuard;
#[cfg(feature = "http")]
use self::http::HttpTarget;

/// Where the server is, with everything needed to reach it.
#[derive(Debug)]
pub(crate) enum Target {
    #[cfg(feature = "http")]
    StreamableHttp(HttpTarget),
    #[cfg(feature = "http")]
    Sse(HttpTarget),
    Stdio(StdioCommand),
    InProcess(InProcessServer),
}

impl Target {
    /// The server's address or command line, for messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            #[cfg(feature = "http")]
            Target::StreamableHttp(http) | Target::Sse(http) => http.url.clone(),
            Target::Stdio(command) => format!("`{}`", command.display()),
            Target::InProcess(server) => format!("in-process {}", server.name()),
        }
    }

    /// Whether it is a streamable HTTP server.
    pub(crate) fn is_streamable_http(&self) -> bool {
        #[cfg(feature = "http")]
        if let Target::StreamableHttp(_) = self {
            return true;
        }
        false
    }

    /// The target with what opening it again takes: `None` for an in-process server,
    /// which runs once.
    pub(crate) fn reopenable(&self) -> Option<Reopenable> {
        match self {
            #[cfg(feature = "http")]
            Target::StreamableHttp(http) => Some(Reopenable::StreamableHttp(http.clone())),
            #[cfg(feature = "http")]
            Target::Sse(http) => Some(Reopenable::Sse(http.clone())),
            Target::Stdio(command) => Some(Reopenable::Stdio(command.clone())),
            Target::InProcess(_) => None,
        }
    }
}

/// A target that can be opened again and again: a URL or a command line.
#[derive(Debug, Clone)]
pub(crate) enum Reopenable {
    #[cfg(feature = "http")]
    StreamableHttp(HttpTarget),
    #[cfg(feature = "http")]
    Sse(HttpTarget),
    Stdio(StdioCommand),
}

impl Reopenable {
    pub(crate) fn target(&self) -> Target {
        match self.clone() {
            #[cfg(feature = "http")]
            Reopenable::StreamableHttp(http) => Target::StreamableHttp(http),
            #[cfg(feature = "http")]
            Reopenable::Sse(http) => Target::Sse(http),
            Reopenable::Stdio(command) => Target::Stdio(command),
        }
    }

    /// How to reach it, for a command line that shows a bug again.
    #[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
    pub(crate) fn reached_by(&self) -> Reached {
        match self {
            #[cfg(feature = "http")]
            Reopenable::StreamableHttp(http) | Reopenable::Sse(http) => {
                Reached::Url(http.url.clone())
            }
            Reopenable::Stdio(command) => Reached::Command(command.parts()),
        }
    }
}

/// How a server is reached, as a command line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(not(feature = "fuzz"), allow(dead_code))]
pub(crate) enum Reached {
    Url(String),
    /// The program, then its arguments.
    Command(Vec<String>),
    /// Named by the caller in the words of its command line (`--config mcp.json --server
    /// mine`), where the command itself, filled in from the environment, may hold secrets.
    Named(String),
}

/// What must be stopped when the client closes: the child process or the in-process server.
#[derive(Debug)]
pub(crate) enum Owned {
    #[cfg(feature = "http")]
    Nothing,
    Child(ChildGuard),
    Server(ServerTask),
}

impl Owned {
    pub(crate) fn process_id(&self) -> Option<u32> {
        match self {
            Owned::Child(child) => child.pid(),
            #[cfg(feature = "http")]
            Owned::Nothing => None,
            Owned::Server(_) => None,
        }
    }

    pub(crate) async fn shutdown(&mut self) {
        match self {
            #[cfg(feature = "http")]
            Owned::Nothing => {}
            Owned::Child(child) => child.shutdown().await,
            Owned::Server(server) => server.shutdown().await,
        }
    }
}
