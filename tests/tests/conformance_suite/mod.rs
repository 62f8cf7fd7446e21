//! What the tests of the official MCP conformance suite share: running the suite (in a
//! process group of its own, killed when done) and reading what it printed.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;

/// For the whole run of one scenario. The suite gives the client 30 s, and its servers start
/// in well under a second.
pub const TIMEOUT: Duration = Duration::from_secs(60);

/// The suite running one scenario, in a process group of its own with the client it starts.
pub struct Suite {
    child: Child,
    stdout: JoinHandle<String>,
    stderr: JoinHandle<String>,
}

impl Suite {
    pub fn start(command: &mut Command) -> Suite {
        use std::os::unix::process::CommandExt as _;
        let mut child = command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the conformance suite: {e}"));
        let stdout = read_all(child.stdout.take().expect("piped stdout"));
        let stderr = read_all(child.stderr.take().expect("piped stderr"));
        Suite {
            child,
            stdout,
            stderr,
        }
    }

    /// Waits up to `timeout` for the suite to exit, then kills its process group (the suite
    /// and the client), and returns how it exited (`None`: it was killed) and what it printed.
    pub fn finish(mut self, timeout: Duration) -> (Option<ExitStatus>, String) {
        let deadline = Instant::now() + timeout;
        let mut status = None;
        while Instant::now() < deadline {
            status = self
                .child
                .try_wait()
                .expect("wait for the conformance suite");
            if status.is_some() {
                break;
            }
            thread::sleep(Duration::from_millis(50));
        }
        // Also when the suite exited: a client it left behind would keep our pipes open.
        let group = Pid::from_raw(self.child.id().try_into().expect("a pid fits in i32"));
        let _ = killpg(group, Signal::SIGKILL);
        if status.is_none() {
            let _ = self.child.wait();
        }
        let stdout = self.stdout.join().expect("read the suite's stdout");
        let stderr = self.stderr.join().expect("read the suite's stderr");
        (status, format!("{stdout}{stderr}"))
    }
}

fn read_all(mut pipe: impl Read + Send + 'static) -> JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// `output` without the ANSI colour codes the suite always prints (`ESC [ ... m`).
pub fn without_colors(output: &str) -> String {
    let mut plain = String::with_capacity(output.len());
    let mut rest = output;
    while let Some(start) = rest.find("\x1b[") {
        plain.push_str(&rest[..start]);
        rest = &rest[start + 2..];
        match rest.find('m') {
            Some(end) => rest = &rest[end + 1..],
            None => rest = "",
        }
    }
    plain.push_str(rest);
    plain
}
