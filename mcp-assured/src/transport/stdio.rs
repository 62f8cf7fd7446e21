//! A server run as a child process, speaking newline-delimited JSON-RPC on stdin/stdout.
//!
//! The child gets its own process group so that everything it starts is killed with it, its
//! stderr is captured for error messages, and it is always reaped.

use std::{
    ffi::OsString,
    path::PathBuf,
    process::{ExitStatus, Stdio},
    sync::Arc,
    time::Duration,
};

use nix::{sys::signal::Signal, unistd::Pid};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, BufReader},
    process::{Child, ChildStdin, ChildStdout, Command},
    sync::watch,
};
use tokio_util::sync::CancellationToken;

use super::{diagnostics::Diagnostics, lines::LineTransport};
use crate::error::Error;

/// How long a closed child gets to exit on its own before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);

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
    /// The command, in its own process group (so everything it starts can be killed with
    /// it) and killed if the handle is dropped; stdio is left for the caller to set.
    pub(crate) fn to_command(&self) -> Command {
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).kill_on_drop(true).process_group(0);
        for name in &self.env_remove {
            cmd.env_remove(name);
        }
        cmd.envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.current_dir {
            cmd.current_dir(dir);
        }
        cmd
    }

    /// `program arg1 arg2`, for messages.
    pub(crate) fn display(&self) -> String {
        std::iter::once(&self.program)
            .chain(&self.args)
            .map(|part| part.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
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
    let mut child = cmd.spawn().map_err(|source| Error::Spawn {
        command: command.display(),
        source,
    })?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    tokio::spawn(capture_output(stderr, diagnostics.clone()));
    let guard = ChildGuard::watch(child, diagnostics);
    Ok((
        LineTransport::new(stdout, stdin, diagnostics.clone()),
        guard,
    ))
}

/// Keeps each line a child writes (to stderr, or to stdout when stdout is not the protocol)
/// for error messages, and logs it at debug level.
pub(crate) async fn capture_output(output: impl AsyncRead + Unpin, diagnostics: Arc<Diagnostics>) {
    let mut lines = BufReader::new(output).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::debug!(target: "mcp_assured::server_stderr", "{line}");
        diagnostics.push_stderr_line(line);
    }
}

/// Owns the child: a task waits for it (so it is always reaped) and kills its whole process
/// group on request or when the guard is dropped.
#[derive(Debug)]
pub(crate) struct ChildGuard {
    pid: Option<u32>,
    kill: CancellationToken,
    exit: watch::Receiver<Option<String>>,
}

impl ChildGuard {
    pub(crate) fn watch(mut child: Child, diagnostics: &Diagnostics) -> Self {
        let pid = child.id();
        let kill = CancellationToken::new();
        let (exit_tx, exit_rx) = watch::channel(None);
        diagnostics.watch_exit(exit_rx.clone());
        let kill_requested = kill.clone();
        tokio::spawn(async move {
            let status = tokio::select! {
                status = child.wait() => status,
                () = kill_requested.cancelled() => {
                    kill_group(pid);
                    let _ = child.start_kill();
                    child.wait().await
                }
            };
            // Whatever the child started in its group goes too.
            kill_group(pid);
            let _ = exit_tx.send(Some(describe(status)));
        });
        ChildGuard {
            pid,
            kill,
            exit: exit_rx,
        }
    }

    /// The child's process id (also its process group id).
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Waits up to a grace period for the child to exit by itself (its stdin is closed by
    /// then), kills it if it does not, and returns once it is reaped.
    pub(crate) async fn shutdown(&mut self) {
        let exited = tokio::time::timeout(EXIT_GRACE, self.exit.wait_for(Option::is_some))
            .await
            .is_ok_and(|waited| waited.is_ok());
        if !exited {
            self.kill.cancel();
            let _ = self.exit.wait_for(Option::is_some).await;
        }
        self.pid = None;
    }

    /// Asks the whole process group to stop (SIGTERM), kills it if it is still there after
    /// a grace period, and returns once the child is reaped. For servers that do not stop
    /// when their stdin closes, such as HTTP servers.
    pub(crate) async fn terminate(&mut self) {
        if self.exit.borrow().is_none() {
            signal_group(self.pid, Signal::SIGTERM);
            let exited =
                tokio::time::timeout(EXIT_GRACE, self.exit.wait_for(Option::is_some)).await;
            if !exited.is_ok_and(|waited| waited.is_ok()) {
                self.kill.cancel();
                let _ = self.exit.wait_for(Option::is_some).await;
            }
        }
        self.pid = None;
    }

    /// How the child ended, or `None` while it runs.
    pub(crate) fn exit_status(&self) -> Option<String> {
        self.exit.borrow().clone()
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if self.exit.borrow().is_none() {
            // The reaper task may not run again (the runtime may be shutting down), so the
            // group is signalled right here as well.
            kill_group(self.pid);
            self.kill.cancel();
        }
    }
}

fn kill_group(pid: Option<u32>) {
    signal_group(pid, Signal::SIGKILL);
}

fn signal_group(pid: Option<u32>, signal: Signal) {
    if let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) {
        // ESRCH (the group is already gone) is the normal case after a clean exit.
        let _ = nix::sys::signal::killpg(Pid::from_raw(pid), signal);
    }
}

fn describe(status: std::io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => status.to_string(),
        Err(error) => format!("unknown exit status: {error}"),
    }
}
