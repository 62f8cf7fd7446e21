//! A server run as a child process, speaking newline-delimited JSON-RPC on stdin/stdout.
//!
//! The child gets its own process group so that everything it starts is killed with it, its
//! stderr is captured for error messages, and it is always reaped.

use std::{
    ffi::OsString,
    path::PathBuf,
    process::{ExitStatus, Stdio},
    sync::{Arc, Condvar, Mutex},
    time::Duration,
};

use nix::{sys::signal::Signal, unistd::Pid};
use tokio::{
    io::{AsyncBufReadExt, AsyncRead, BufReader},
    process::{Child, ChildStdin, ChildStdout, Command},
    sync::watch,
};

use super::{
    diagnostics::{Diagnostics, Stream},
    lines::LineTransport,
};
use crate::error::Error;

/// How long a closed child gets to exit on its own before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long dropping a [`ChildGuard`] waits for its killed child to be reaped.
const REAP_LIMIT: Duration = Duration::from_secs(2);

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
    let spawn_error = |source| Error::Spawn {
        command: command.display(),
        source,
    };
    let mut child = cmd.spawn().map_err(spawn_error)?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
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

/// Owns the child: a thread of its own waits for it, so that it is always reaped (even once
/// no runtime runs any more), and its whole process group is killed on request or when the
/// guard is dropped. The drop returns once the child is reaped: no zombie outlives the guard.
#[derive(Debug)]
pub(crate) struct ChildGuard {
    pid: Option<u32>,
    reaper: Arc<Reaper>,
    exit: watch::Receiver<Option<String>>,
}

impl ChildGuard {
    /// Hands `child` to a reaping thread; fails only if no thread can be started (the child
    /// is killed then).
    pub(crate) fn watch(child: Child, diagnostics: &Diagnostics) -> std::io::Result<Self> {
        let reaper = Arc::new(Reaper {
            pid: child.id(),
            reaped: Mutex::new(false),
            done: Condvar::new(),
        });
        let (exit_tx, exit_rx) = watch::channel(None);
        diagnostics.watch_exit(exit_rx.clone());
        let reaping = reaper.clone();
        let spawned = std::thread::Builder::new()
            .name("mcp-assured-reaper".to_owned())
            .spawn(move || {
                let status = reaping.reap(child);
                let _ = exit_tx.send(Some(describe(status)));
            });
        if let Err(error) = spawned {
            // The child went with the thread's closure, killed on drop; its group goes too.
            signal_group(reaper.pid, Signal::SIGKILL);
            return Err(error);
        }
        Ok(ChildGuard {
            pid: reaper.pid,
            reaper,
            exit: exit_rx,
        })
    }

    /// The child's process id (also its process group id).
    pub(crate) fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// Waits up to a grace period for the child to exit by itself (its stdin is closed by
    /// then), kills it if it does not, and returns once it is reaped.
    pub(crate) async fn shutdown(&mut self) {
        if !self.exits_within(EXIT_GRACE).await {
            self.kill().await;
        }
        self.pid = None;
    }

    /// Asks the whole process group to stop (SIGTERM), kills it if it is still there after
    /// a grace period, and returns once the child is reaped. For servers that do not stop
    /// when their stdin closes, such as HTTP servers.
    pub(crate) async fn terminate(&mut self) {
        if self.exit.borrow().is_none() {
            self.reaper.signal(Signal::SIGTERM);
            if !self.exits_within(EXIT_GRACE).await {
                self.kill().await;
            }
        }
        self.pid = None;
    }

    /// How the child ended, or `None` while it runs.
    pub(crate) fn exit_status(&self) -> Option<String> {
        self.exit.borrow().clone()
    }

    async fn exits_within(&mut self, grace: Duration) -> bool {
        tokio::time::timeout(grace, self.exit.wait_for(Option::is_some))
            .await
            .is_ok_and(|waited| waited.is_ok())
    }

    async fn kill(&mut self) {
        self.reaper.signal(Signal::SIGKILL);
        let _ = self.exit.wait_for(Option::is_some).await;
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // Killed and reaped right here rather than by a task: the runtime may be going away.
        self.reaper.signal(Signal::SIGKILL);
        let reaped = lock(&self.reaper.reaped);
        let _ = self
            .reaper
            .done
            .wait_timeout_while(reaped, REAP_LIMIT, |reaped| !*reaped);
    }
}

/// What a [`ChildGuard`] shares with the thread that reaps its child. The child's pid (also
/// its process group's id) is signalled only under the lock and only while the child is not
/// reaped, so no signal can reach another process that reused the pid.
#[derive(Debug)]
struct Reaper {
    pid: Option<u32>,
    reaped: Mutex<bool>,
    done: Condvar,
}

impl Reaper {
    /// Sends `signal` to the child's process group, unless the child is reaped; SIGKILL goes
    /// to the child itself too, in case it left its group.
    fn signal(&self, signal: Signal) {
        let reaped = lock(&self.reaped);
        if !*reaped {
            signal_group(self.pid, signal);
            if signal == Signal::SIGKILL
                && let Some(pid) = raw_pid(self.pid)
            {
                let _ = nix::sys::signal::kill(pid, signal);
            }
        }
    }

    /// Waits for the child to exit, kills whatever it left in its group, and reaps it.
    fn reap(&self, mut child: Child) -> std::io::Result<ExitStatus> {
        let exited = wait_for_exit(self.pid);
        loop {
            {
                let mut reaped = lock(&self.reaped);
                if exited {
                    // Not reaped yet, so the group id is still the child's.
                    signal_group(self.pid, Signal::SIGKILL);
                }
                let status = match child.try_wait() {
                    Ok(None) => None,
                    Ok(Some(status)) => Some(Ok(status)),
                    Err(error) => Some(Err(error)),
                };
                if let Some(status) = status {
                    *reaped = true;
                    self.done.notify_all();
                    return status;
                }
            }
            // Only where the exit could not be waited for without reaping.
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Blocks until the process `pid` has exited, leaving it unreaped; `false` where that cannot
/// be waited for, so that the caller polls instead.
#[cfg(any(target_os = "linux", target_os = "android", target_os = "freebsd"))]
fn wait_for_exit(pid: Option<u32>) -> bool {
    use nix::sys::wait::{Id, WaitPidFlag, waitid};
    let Some(pid) = raw_pid(pid) else {
        return false;
    };
    loop {
        match waitid(Id::Pid(pid), WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT) {
            Err(nix::errno::Errno::EINTR) => {}
            result => return result.is_ok(),
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
fn wait_for_exit(_: Option<u32>) -> bool {
    false
}

fn signal_group(pid: Option<u32>, signal: Signal) {
    if let Some(pid) = raw_pid(pid) {
        // ESRCH (the group is already gone) is the normal case after a clean exit.
        let _ = nix::sys::signal::killpg(pid, signal);
    }
}

fn raw_pid(pid: Option<u32>) -> Option<Pid> {
    pid.and_then(|pid| i32::try_from(pid).ok())
        .map(Pid::from_raw)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

fn describe(status: std::io::Result<ExitStatus>) -> String {
    match status {
        Ok(status) => status.to_string(),
        Err(error) => format!("unknown exit status: {error}"),
    }
}
