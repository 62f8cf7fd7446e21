//! Whether a process runs, has exited, or is gone, by pid: how the suites prove that nothing
//! they started outlives them, zombies included (a zombie has exited but is not reaped).

use nix::{
    errno::Errno,
    sys::signal::{Signal, kill},
    unistd::Pid,
};

/// The state letter of a process (`R`, `S`, `Z`, ...), from `/proc/<pid>/stat`; `None` once
/// it has been reaped.
pub fn state(pid: u32) -> Option<char> {
    stat(pid).map(|(state, _)| state)
}

/// Whether the process `pid` exists: running, or a zombie not yet reaped.
pub fn exists(pid: u32) -> bool {
    kill(raw(pid), None) != Err(Errno::ESRCH)
}

/// Kills the process `pid` with `SIGKILL`, as a crash would end it (its parent still reaps it).
///
/// # Panics
///
/// If there is no such process.
pub fn kill_hard(pid: u32) {
    if let Err(error) = kill(raw(pid), Signal::SIGKILL) {
        panic!("could not kill process {pid}: {error}");
    }
}

/// Asserts that the process `pid` no longer exists: killed *and* reaped, now.
#[track_caller]
pub fn assert_reaped(pid: u32) {
    let pid = raw(pid);
    assert_eq!(
        kill(pid, None),
        Err(Errno::ESRCH),
        "process {pid} still exists (running or a zombie)"
    );
}

/// Asserts that `pid` runs: it exists and is not a zombie.
#[track_caller]
pub fn assert_running(pid: u32) {
    match state(pid) {
        Some(state) if state != 'Z' => {}
        Some(_) => panic!("process {pid} has exited (a zombie, not yet reaped)"),
        None => panic!("process {pid} has exited"),
    }
}

/// The processes whose parent is `pid`, zombies included (a child not yet reaped keeps its
/// parent).
///
/// The watchdog mcp-assured starts once per process (a `sh` that kills the servers left
/// behind if the process is killed) is not counted: it lives as long as its parent.
pub fn children_of(pid: u32) -> Vec<u32> {
    all_pids()
        .filter(|&child| stat(child).is_some_and(|(_, parent)| parent == pid))
        .filter(|&child| !is_watchdog(child))
        .collect()
}

/// Whether `pid` is mcp-assured's watchdog.
pub fn is_watchdog(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .is_ok_and(|line| String::from_utf8_lossy(&line).ends_with("mcp-assured-watchdog\0"))
}

/// The processes of the process group `pgid` that still run (zombies left out: whoever
/// inherited them reaps them, or not, as its init does), each with its command line.
pub fn running_in_group(pgid: u32) -> Vec<(u32, String)> {
    all_pids()
        .filter(|&pid| {
            fields(pid).is_some_and(|fields| {
                fields.first().is_some_and(|state| state != "Z")
                    && fields.get(2).and_then(|group| group.parse().ok()) == Some(pgid)
            })
        })
        .map(|pid| {
            let command = std::fs::read(format!("/proc/{pid}/cmdline"))
                .map(|line| String::from_utf8_lossy(&line).replace('\0', " "))
                .unwrap_or_default();
            (pid, command.trim_end().to_owned())
        })
        .collect()
}

fn all_pids() -> impl Iterator<Item = u32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
}

/// The state letter and parent pid of a process, from `/proc/<pid>/stat`.
fn stat(pid: u32) -> Option<(char, u32)> {
    let fields = fields(pid)?;
    let state = fields.first()?.chars().next()?;
    let parent = fields.get(1)?.parse().ok()?;
    Some((state, parent))
}

/// The fields of `/proc/<pid>/stat` after the command name: state, ppid, pgrp, ...
fn fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state ppid ..`: comm may hold spaces and parentheses, so split after the last `)`.
    let rest = &stat[stat.rfind(')')? + 1..];
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

fn raw(pid: u32) -> Pid {
    Pid::from_raw(i32::try_from(pid).expect("a pid fits in an i32"))
}
