//! [`ChildGuard`]: owns a started child. A thread of its own reaps it, so that it is reaped
//! even once no runtime runs any more; stopping or dropping the guard kills its whole
//! process group, and the drop returns once the child is reaped: no zombie outlives it.

use std::{
    process::ExitStatus,
    sync::{Arc, Condvar, Mutex, MutexGuard},
    time::Duration,
};

use process_wrap::tokio::ChildWrapper;
use tokio::sync::watch;

use crate::transport::diagnostics::Diagnostics;

/// How long a closed child gets to exit on its own before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long dropping a [`ChildGuard`] waits for its killed child to be reaped.
const REAP_LIMIT: Duration = Duration::from_secs(2);

/// Owns a child started by [`spawn`](super::spawn) until it is reaped.
#[derive(Debug)]
pub(crate) struct ChildGuard {
    pid: Option<u32>,
    reaper: Arc<Reaper>,
    exit: watch::Receiver<Option<String>>,
}

impl ChildGuard {
    /// Hands `child` to a reaping thread, and to the watchdog that kills its group should
    /// this process die first; fails only if no thread can be started (the child's group is
    /// killed then).
    pub(crate) fn watch(
        child: Box<dyn ChildWrapper>,
        diagnostics: &Diagnostics,
    ) -> std::io::Result<Self> {
        let pid = child.id();
        #[cfg(unix)]
        if let Some(pid) = pid {
            super::watchdog::watch(pid);
        }
        let reaper = Arc::new(Reaper {
            pid,
            child: Mutex::new(Some(child)),
            reaped: Condvar::new(),
        });
        let (exit_tx, exit_rx) = watch::channel(None);
        diagnostics.watch_exit(exit_rx.clone());
        let reaping = reaper.clone();
        let spawned = std::thread::Builder::new()
            .name("mcp-assured-reaper".to_owned())
            .spawn(move || {
                let status = reaping.reap();
                let _ = exit_tx.send(Some(describe(status)));
            });
        if let Err(error) = spawned {
            reaper.kill();
            return Err(error);
        }
        Ok(ChildGuard {
            pid,
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
    /// when their stdin closes, such as HTTP servers. (Windows has no SIGTERM: the job is
    /// killed at once.)
    pub(crate) async fn terminate(&mut self) {
        if self.exit.borrow().is_none() {
            if self.reaper.terminate() && self.exits_within(EXIT_GRACE).await {
                self.pid = None;
                return;
            }
            self.kill().await;
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
        self.reaper.kill();
        let _ = self.exit.wait_for(Option::is_some).await;
    }
}

impl Drop for ChildGuard {
    fn drop(&mut self) {
        // Killed and reaped right here rather than by a task: the runtime may be going away.
        self.reaper.kill();
        let child = lock(&self.reaper.child);
        let _ = self
            .reaper
            .reaped
            .wait_timeout_while(child, REAP_LIMIT, |child| child.is_some());
    }
}

/// What a [`ChildGuard`] shares with the thread that reaps its child. The child (`None` once
/// reaped) is signalled only under the lock, so no signal can reach another process that
/// reused its pid or group id.
#[derive(Debug)]
struct Reaper {
    pid: Option<u32>,
    child: Mutex<Option<Box<dyn ChildWrapper>>>,
    reaped: Condvar,
}

impl Reaper {
    /// Asks the child's group to stop (SIGTERM); `false` where that cannot be asked
    /// (Windows), so that the caller kills it instead.
    fn terminate(&self) -> bool {
        #[cfg(unix)]
        if let Some(child) = lock(&self.child).as_ref() {
            let _ = child.signal(nix::sys::signal::Signal::SIGTERM as i32);
            return true;
        }
        false
    }

    /// Kills the child's group (its job object, on Windows), and the child itself in case
    /// it left its group, unless it is reaped already.
    fn kill(&self) {
        if let Some(child) = lock(&self.child).as_mut() {
            let _ = child.start_kill();
            let _ = child.inner_mut().start_kill();
        }
    }

    /// Waits for the child to exit, kills whatever it left in its group, and reaps it.
    fn reap(&self) -> std::io::Result<ExitStatus> {
        let exited = wait_for_exit(self.pid);
        loop {
            {
                let mut slot = lock(&self.child);
                let Some(child) = slot.as_mut() else {
                    return Err(std::io::Error::other("the child was reaped elsewhere"));
                };
                if exited {
                    // Not reaped yet, so the group id is still the child's.
                    let _ = child.start_kill();
                }
                // The direct child is reaped through its own handle, so that tokio knows.
                let status = match child.inner_mut().try_wait() {
                    Ok(None) => None,
                    Ok(Some(status)) => Some(Ok(status)),
                    Err(error) => Some(Err(error)),
                };
                if let Some(status) = status {
                    #[cfg(unix)]
                    if let Some(pid) = self.pid {
                        super::watchdog::forget(pid);
                    }
                    *slot = None;
                    self.reaped.notify_all();
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
    let Some(pid) = pid.and_then(|pid| i32::try_from(pid).ok()) else {
        return false;
    };
    loop {
        match waitid(
            Id::Pid(nix::unistd::Pid::from_raw(pid)),
            WaitPidFlag::WEXITED | WaitPidFlag::WNOWAIT,
        ) {
            Err(nix::errno::Errno::EINTR) => {}
            result => return result.is_ok(),
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android", target_os = "freebsd")))]
fn wait_for_exit(_: Option<u32>) -> bool {
    false
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
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
