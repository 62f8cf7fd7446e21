//! The commands' output on stdout, written so that a reader that stops early
//! (`mcp-assured list -- ./server | head -3`) ends the output, not the program.
//!
//! `println!` panics when stdout's reader has gone (Rust ignores `SIGPIPE`, so the write
//! fails with `EPIPE`): the command died with exit status 101 and a backtrace, before it
//! could close its session and stop the server it started. Restoring `SIGPIPE` instead would
//! kill the process just as abruptly, and also when a stdio server it writes to exits. Here
//! the first failed write stops the output: the rest is dropped, a failure other than a
//! closed pipe is said once on stderr, and the command finishes as it would have, with its
//! own exit status.

use std::{
    fmt,
    io::{self, Write as _},
    sync::atomic::{AtomicBool, Ordering},
};

/// Set by the first write that failed: nothing more is written.
static STOPPED: AtomicBool = AtomicBool::new(false);

/// Writes `text` to stdout (through `anstream`, which keeps or strips colours as `--color`
/// says), unless an earlier write failed.
pub(crate) fn write(text: fmt::Arguments<'_>) {
    if STOPPED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = anstream::stdout().lock();
    if let Err(error) = stdout.write_fmt(text).and_then(|()| stdout.flush()) {
        stopped_by(&error);
    }
}

/// Writes `bytes` to stdout as they are, unless an earlier write failed.
pub(crate) fn write_bytes(bytes: &[u8]) {
    if STOPPED.load(Ordering::Relaxed) {
        return;
    }
    let mut stdout = io::stdout().lock();
    if let Err(error) = stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        stopped_by(&error);
    }
}

fn stopped_by(error: &io::Error) {
    if !STOPPED.swap(true, Ordering::Relaxed) && error.kind() != io::ErrorKind::BrokenPipe {
        eprintln!("mcp-assured: writing to stdout failed, the rest of the output is lost: {error}");
    }
}

/// `print!` to stdout through [`write`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` to stdout through [`write`].
macro_rules! outln {
    () => {
        $crate::commands::stdout::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::commands::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
