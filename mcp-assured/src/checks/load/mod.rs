//! The torture checks, `load.*`, run only with [`CheckOptions::load`]: many sessions and
//! many requests in flight at once, and whether what they held is given back.
//!
//! - `load.answers_match_requests`: [`IN_FLIGHT`] calls in flight in each of several
//!   sessions at once, each to an echoing tool with a marker of its own; every answer must
//!   come, once, and carry its own request's marker (the transport matches ids; this matches
//!   content). No response may arrive that answers nothing (twice, or under an id never sent).
//! - `load.sessions_isolated`: in that run, no session gets content of another's request.
//! - `load.cancellation_frees`: rounds of calls cancelled in flight leave the server's
//!   memory (its processes' RSS) where it was.
//! - `load.sessions_freed`: over HTTP, rounds of sessions opened and closed do too.
//! - `load.session_limit`: over HTTP, [`CheckOptions::load_sessions`] sessions held open at
//!   once, each answering; a server that refuses some must say so (an HTTP status, a
//!   JSON-RPC error), not hang.
//!
//! Memory is compared over two equal rounds after a warm-up round, each followed by a
//! settle: a leak grows both rounds, the allocator's noise does not. It is read from
//! `/proc` (Linux), for a stdio server the client started, or the pid given with
//! [`CheckOptions::load_process_id`], or the process that listens on a loopback URL's port.
//!
//! No sentence of the specification speaks of load: an answer carrying another request's
//! result fails, so do lost and duplicated answers and a hang; memory kept per session or
//! per request fails when it is large and clear, and warns when it is small.

mod answers;
mod echo;
mod memory;
mod proc;
mod sessions;

use std::{fmt::Write as _, time::Duration};

use self::{
    answers::answers_match,
    echo::find_echo,
    memory::{cancellation_frees, sessions_freed, watched},
    sessions::session_limit,
};
use super::{CheckOptions, recorder::Recorder};
use crate::client::McpClient;

/// The names of these checks, in the order they run.
pub(super) const NAMES: [&str; 5] = [
    "load.answers_match_requests",
    "load.sessions_isolated",
    "load.cancellation_frees",
    "load.sessions_freed",
    "load.session_limit",
];

/// How many sessions `load.session_limit` holds open at once by default.
pub(super) const DEFAULT_SESSIONS: usize = 100;

/// Calls in flight at once in each session of `load.answers_match_requests`.
const IN_FLIGHT: usize = 16;
/// Sessions of `load.answers_match_requests` over HTTP, this one included.
const HTTP_SESSIONS: usize = 8;
/// Sessions of `load.answers_match_requests` over stdio, where each is a process.
const STDIO_SESSIONS: usize = 3;
/// Calls cancelled in flight in each round of `load.cancellation_frees`.
const CANCELLED_PER_ROUND: usize = 200;
/// Sessions opened and closed in each round of `load.sessions_freed`.
const SESSIONS_PER_ROUND: usize = 20;
/// Sessions being opened (or closed) at the same time.
const OPENING_AT_ONCE: usize = 8;
/// How long the server gets to let go after a round, before its memory is read.
const SETTLE: Duration = Duration::from_millis(400);
/// How long late or doubled answers get to arrive before they are counted.
const STRAGGLERS: Duration = Duration::from_millis(200);

/// Memory kept per cancelled request that warns, and that fails. A garbage-collected
/// runtime grows its heap for a while before it collects: server-everything on Node grew
/// by up to 7 MiB per round of 200 cancelled calls over HTTP (35 KiB a call) and 3 MiB per
/// round of 20 sessions (150 KiB a session), which these stay well above.
const REQUEST_WARN: u64 = 128 * 1024;
const REQUEST_FAIL: u64 = 512 * 1024;
/// Memory kept per closed session that warns, and that fails.
const SESSION_WARN: u64 = 512 * 1024;
const SESSION_FAIL: u64 = 1024 * 1024;

pub(super) async fn check(client: &McpClient, options: &CheckOptions, report: &mut Recorder) {
    let reach = Reach::of(client);
    let echo = find_echo(client, options.echo_tool.as_deref()).await;
    match &echo {
        Ok(echo) => answers_match(client, echo, reach, report).await,
        Err(why) => {
            for name in &NAMES[..2] {
                report.skip(name, why.clone());
            }
        }
    }
    let process = watched(client, options.load_process_id, reach);
    match (&echo, &process) {
        (Err(why), _) => report.skip("load.cancellation_frees", why.clone()),
        (Ok(_), Err(why)) => report.skip("load.cancellation_frees", why.clone()),
        (Ok(echo), Ok(pid)) => cancellation_frees(client, echo, *pid, report).await,
    }
    match (reach, &process) {
        (Reach::Http, Ok(pid)) => sessions_freed(client, echo.as_ref().ok(), *pid, report).await,
        (Reach::Http, Err(why)) => report.skip("load.sessions_freed", why.clone()),
        (reach, _) => report.skip("load.sessions_freed", reach.why_one_process()),
    }
    match reach {
        Reach::Http => session_limit(client, options.load_sessions, report).await,
        reach => report.skip("load.session_limit", reach.why_one_process()),
    }
}

/// How sessions are opened, which decides what can be tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// In this process: one session, no reconnecting.
    InProcess,
    /// A child process per session.
    Stdio,
    /// Sessions of one server.
    Http,
}

impl Reach {
    fn of(client: &McpClient) -> Reach {
        if client.process_id().is_some() {
            Reach::Stdio
        } else if client.target().starts_with("http") {
            Reach::Http
        } else {
            Reach::InProcess
        }
    }

    fn why_one_process(self) -> String {
        match self {
            Reach::Stdio => "over stdio each session is a process of its own, which ends with it \
                             (run the server over HTTP to test its sessions)"
                .to_owned(),
            _ => "the server runs in this process, once: no sessions to open".to_owned(),
        }
    }
}

/// The first few of `items`, and how many more.
fn listed(items: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut text = items
        .iter()
        .take(SHOWN)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("; ");
    if items.len() > SHOWN {
        let _ = write!(text, "; and {} more", items.len() - SHOWN);
    }
    text
}
