//! A server run as a child process, speaking newline-delimited JSON-RPC on stdin/stdout.
//!
//! The child gets its own process group so that everything it starts is killed with it
//! ([`super::child`]), its stderr is captured for error messages, and it is always reaped.

use std::{ffi::OsString, path::PathBuf, process::Stdio, sync::Arc};

use tokio::{
    io::{AsyncBufReadExt, AsyncRead, BufReader},
    process::{ChildStdin, ChildStdout, Command},
};

use super::child::ChildGuard;
use super::{
    diagnostics::{Diagnostics, Stream},
    lines::LineTransport,
};
use crate::error::Error;

/// The command line of a stdio server.
#[derive(Clone, Default)]
pub(crate) struct StdioCommand {
    pub(crate) program: OsString,
    pub(crate) args: Vec<OsString>,
    pub(crate) env: Vec<(OsString, OsString)>,
    pub(crate) env_remove: Vec<OsString>,
    pub(crate) current_dir: Option<PathBuf>,
}

impl std::fmt::Debug for StdioCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Environment values are often credentials: show the names only.
        f.debug_struct("StdioCommand")
            .field("program", &self.program)
            .field("args", &self.args)
            .field("env", &self.env.iter().map(|(k, _)| k).collect::<Vec<_>>())
            .field("current_dir", &self.current_dir)
            .finish()
    }
}

impl StdioCommand {
    /// The command, to start with [`child::spawn`](crate::transport::child::spawn) (which puts it in
    /// a process group of its own); stdio is left for the caller to set.
    pub(crate) fn to_command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args);
        for name in &self.env_remove {
            cmd.env_remove(name);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.current_dir {
            cmd.current_dir(dir);
        }
        cmd
    }

    /// The program, then its arguments.
    pub(crate) fn parts(&self) -> Vec<String> {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|part| part.to_string_lossy().into_owned())
            .collect()
    }

    /// `program arg1 arg2`, for messages.
    pub(crate) fn display(&self) -> String {
        self.parts().join(" ")
    }
}

pub(crate) type StdioTransport = LineTransport<ChildStdout, ChildStdin>;

/// Starts the child and returns the transport over its stdio plus the guard that owns it.
pub(crate) fn spawn(
    command: &StdioCommand,
    diagnostics: &Arc<Diagnostics>,
) -> Result<(StdioTransport, ChildGuard), Error> {
    let mut cmd = command.to_command();
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let spawn_error = |source| Error::Spawn {
        command: command.display(),
        source,
    };
    let mut child = crate::transport::child::spawn(cmd).map_err(spawn_error)?;
    let stdin = child.stdin().take().expect("stdin is piped");
    let stdout = child.stdout().take().expect("stdout is piped");
    let stderr = child.stderr().take().expect("stderr is piped");
    tokio::spawn(capture_output(stderr, Stream::Stderr, diagnostics));
    let guard = ChildGuard::watch(child, diagnostics).map_err(spawn_error)?;
    Ok((
        LineTransport::new(stdout, stdin, diagnostics.clone()),
        guard,
    ))
}

/// Keeps each line a child writes to `stream` (stderr, or stdout when stdout is not the
/// protocol) for error messages, and logs it at debug level. It reads bytes, not UTF-8
/// lines: a child that prints invalid UTF-8 must not stop the capture, and then block on a
/// full pipe. The stream counts as being read from now until its end (see
/// [`Diagnostics::exit_status`]).
pub(crate) fn capture_output<R: AsyncRead + Unpin>(
    output: R,
    stream: Stream,
    diagnostics: &Arc<Diagnostics>,
) -> impl Future<Output = ()> + use<R> {
    let reading = diagnostics.reading();
    async move {
        let mut reader = BufReader::new(output);
        let mut line = Vec::new();
        while reader
            .read_until(b'\n', &mut line)
            .await
            .is_ok_and(|read| read > 0)
        {
            let text = String::from_utf8_lossy(&line);
            let text = text.trim_end_matches(['\r', '\n']);
            match stream {
                Stream::Stderr => tracing::debug!(target: "mcp_assured::server_stderr", "{text}"),
                Stream::Stdout => tracing::debug!(target: "mcp_assured::server_stdout", "{text}"),
            }
            reading.diagnostics().push_line(stream, text);
            line.clear();
        }
    }
}
