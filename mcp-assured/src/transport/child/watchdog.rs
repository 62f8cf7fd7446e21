//! The watchdog: a small `sh` process, started once per test process with the first child,
//! that kills the process groups of children still running when this process ends, however
//! it ends. A `kill -9` of a test binary (a runner's timeout, a cancelled CI job) runs no
//! destructor, so nothing in this process can do it.
//!
//! It reads lines from a pipe whose only writer is this process: `+PGID` when a child
//! starts, `-PGID` once it is reaped. The pipe's end of file means this process is gone;
//! the watchdog then sends SIGKILL to every group still listed, and exits. It runs in a
//! process group of its own, so that a runner that kills the test's group does not kill it
//! first.

use std::{
    io::Write as _,
    process::{ChildStdin, Command, Stdio},
    sync::{Mutex, OnceLock},
};

use std::os::unix::process::CommandExt as _;

/// What the watchdog runs. `groups` holds the listed ids, each between spaces. `kill -9
/// -ID` kills a group in every POSIX shell (dash takes no `--`).
const SCRIPT: &str = r#"trap '' HUP INT
groups=' '
while IFS= read -r line; do
  case $line in
    +*) groups="$groups${line#+} " ;;
    -*) id=${line#-}
        case $groups in
          *" $id "*) groups="${groups%% $id *} ${groups#* $id }" ;;
        esac ;;
  esac
done
for id in $groups; do kill -9 "-$id" 2>/dev/null; done
"#;

/// The pipe to the watchdog, once started; `None` if it could not be (no `sh`): children
/// are then killed as before, by the guard, but not when this process is killed.
static PIPE: OnceLock<Option<Mutex<ChildStdin>>> = OnceLock::new();

/// Lists the process group `pgid` with the watchdog, starting the watchdog if it is not.
pub(super) fn watch(pgid: u32) {
    send(&format!("+{pgid}\n"));
}

/// Takes `pgid` off the list: its leader is about to be reaped, after which the id may be
/// another process's.
pub(super) fn forget(pgid: u32) {
    send(&format!("-{pgid}\n"));
}

fn send(line: &str) {
    let Some(pipe) = PIPE.get_or_init(start) else {
        return;
    };
    let mut pipe = pipe.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    // A line is far below PIPE_BUF, so the write is atomic; it fails only if the watchdog
    // was killed, and then there is nobody left to tell.
    let _ = pipe.write_all(line.as_bytes());
}

fn start() -> Option<Mutex<ChildStdin>> {
    let spawned = Command::new("/bin/sh")
        .args(["-c", SCRIPT, "mcp-assured-watchdog"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn();
    match spawned {
        // The child handle is dropped unwaited: the watchdog lives as long as this process,
        // so it is never a zombie of ours.
        Ok(mut child) => child.stdin.take().map(Mutex::new),
        Err(error) => {
            tracing::warn!(
                "mcp-assured could not start its watchdog (/bin/sh: {error}); servers started \
                 by this process will not be killed if it is killed"
            );
            None
        }
    }
}
