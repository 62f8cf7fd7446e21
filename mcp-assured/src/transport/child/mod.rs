//! The child processes the harness starts (servers over stdio or HTTP): each the leader of a
//! process group of its own (a job object on Windows), always reaped, and killed with
//! everything it started when the test process ends, however it ends (a `kill -9`, a
//! runner's timeout, a cancelled CI job).
//!
//! - [`spawn`] starts a command that way, through `process-wrap`; [`spawn_blocking`] starts
//!   a `std` command the same way, for the blocking install commands of `fixture::install`.
//! - [`ChildGuard`] owns a started child: a thread reaps it, and stopping or dropping the
//!   guard kills its whole group.
//! - The watchdog (Unix) kills the groups of children still running when this process dies;
//!   on Windows the job object does, since it is closed with the process.

mod guard;
#[cfg(unix)]
mod watchdog;

pub(crate) use guard::ChildGuard;
use process_wrap::tokio::{ChildWrapper, CommandWrap};

/// Starts `command` in a process group of its own (a job object that kills its processes
/// when this process ends, on Windows); stdio is the caller's to set beforehand.
pub(crate) fn spawn(command: tokio::process::Command) -> std::io::Result<Box<dyn ChildWrapper>> {
    let mut wrap = CommandWrap::from(command);
    #[cfg(unix)]
    wrap.wrap(process_wrap::tokio::ProcessGroup::leader());
    #[cfg(windows)]
    wrap.wrap(process_wrap::tokio::JobObject)
        .wrap(process_wrap::tokio::KillOnDrop);
    wrap.spawn()
}

/// As [`spawn`], for a `std` command waited on by blocking: killing the returned child
/// kills its whole group (npm and the processes it started).
pub(crate) fn spawn_blocking(
    command: std::process::Command,
) -> std::io::Result<Box<dyn process_wrap::std::ChildWrapper>> {
    let mut wrap = process_wrap::std::CommandWrap::from(command);
    #[cfg(unix)]
    wrap.wrap(process_wrap::std::ProcessGroup::leader());
    #[cfg(windows)]
    wrap.wrap(process_wrap::std::JobObject)
        .wrap(process_wrap::std::KillOnDrop);
    wrap.spawn()
}
