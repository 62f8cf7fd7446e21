//! `load.cancellation_frees` and `load.sessions_freed`: what the server holds, read from
//! `/proc` after a warm-up round and two equal rounds.

use futures::future::join_all;

use super::{
    CANCELLED_PER_ROUND, REQUEST_FAIL, REQUEST_WARN, Reach, SESSION_FAIL, SESSION_WARN,
    SESSIONS_PER_ROUND, SETTLE,
    echo::{Echo, carries, nonce, shorten},
    listed, proc,
    sessions::{close_all, open_sessions},
};
use crate::{checks::recorder::Recorder, client::McpClient};

/// The server's process (its memory is its process tree's), or why there is none to watch.
pub(super) fn watched(client: &McpClient, given: Option<u32>, reach: Reach) -> Result<u32, String> {
    if !cfg!(target_os = "linux") {
        return Err("memory is read from /proc, on Linux only".to_owned());
    }
    if let Some(pid) = given {
        return match proc::rss(pid) {
            Some(_) => Ok(pid),
            None => Err(format!(
                "the given server pid {pid} is not a process this user can read"
            )),
        };
    }
    match reach {
        Reach::Stdio => client
            .process_id()
            .ok_or_else(|| "the server's process is not known".to_owned()),
        Reach::Http => proc::listening_on(client.target()).ok_or_else(|| {
            "the server's process is not known: give its pid (CheckOptions::load_process_id, \
             `--load-pid` on the command line) to watch its memory"
                .to_owned()
        }),
        Reach::InProcess => Err(
            "the server runs in this process: its memory cannot be told from the client's"
                .to_owned(),
        ),
    }
}

/// The resident memory of `pid` and its descendants after [`SETTLE`], or why not.
pub(super) async fn settled_rss(pid: u32) -> Result<u64, String> {
    tokio::time::sleep(SETTLE).await;
    proc::tree_rss(pid).ok_or_else(|| format!("the server's process {pid} is gone"))
}

/// What three readings (after a warm-up round, then after each of two equal rounds of `units`
/// `what`s) say; `warn` and `fail` are bytes kept per unit in both rounds.
pub(super) struct Growth<'a> {
    readings: [u64; 3],
    units: usize,
    what: &'a str,
    warn: u64,
    fail: u64,
}

impl Growth<'_> {
    fn grade(&self, name: &str, report: &mut Recorder) {
        let [start, first, second] = self.readings;
        let rounds = [first.saturating_sub(start), second.saturating_sub(first)];
        let kept = rounds[0].min(rounds[1]) / self.units as u64;
        let summary = format!(
            "RSS {} → {} → {} over two rounds of {} {}s after a warm-up round",
            mib(start),
            mib(first),
            mib(second),
            self.units,
            self.what
        );
        if kept >= self.warn {
            let message = format!(
                "{summary}: both rounds kept memory, about {} per {} never given back (a leak \
                 grows each round; noise does not)",
                kib(kept),
                self.what
            );
            if kept >= self.fail {
                report.fail(name, message);
            } else {
                report.warn(name, message);
            }
        } else {
            report.pass(
                name,
                format!(
                    "{summary}: no growth per {} beyond noise (under {})",
                    self.what,
                    kib(self.warn)
                ),
            );
        }
    }
}

pub(super) fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

pub(super) fn kib(bytes: u64) -> String {
    format!("{} KiB", bytes / 1024)
}

/// The server's memory after each of three rounds (a warm-up, then two equal ones), or why
/// they could not be taken: the round that went wrong, or the process gone.
async fn readings_over_rounds<Round, Done>(pid: u32, mut round: Round) -> Result<[u64; 3], String>
where
    Round: FnMut() -> Done,
    Done: Future<Output = Result<(), String>>,
{
    let mut readings = [0; 3];
    for (number, reading) in readings.iter_mut().enumerate() {
        round()
            .await
            .map_err(|error| format!("round {}: {error}", number + 1))?;
        *reading = settled_rss(pid).await?;
    }
    Ok(readings)
}

pub(super) async fn cancellation_frees(
    client: &McpClient,
    echo: &Echo,
    pid: u32,
    report: &mut Recorder,
) {
    const NAME: &str = "load.cancellation_frees";
    // Sending could block on a server that stops reading: bounded like a request.
    let bound = client.timeout() * 2;
    let rounds = readings_over_rounds(pid, || async move {
        tokio::time::timeout(bound, cancel_round(client, echo))
            .await
            .unwrap_or_else(|_| {
                Err(format!(
                    "{CANCELLED_PER_ROUND} calls and their cancellations were not sent and \
                     followed by an answer within {bound:?}"
                ))
            })
    })
    .await;
    match rounds {
        Ok(readings) => Growth {
            readings,
            units: CANCELLED_PER_ROUND,
            what: "cancelled call",
            warn: REQUEST_WARN,
            fail: REQUEST_FAIL,
        }
        .grade(NAME, report),
        Err(why) => report.fail(NAME, why),
    }
}

/// Starts [`CANCELLED_PER_ROUND`] calls, cancels each in flight, and checks the server still
/// answers.
pub(super) async fn cancel_round(client: &McpClient, echo: &Echo) -> Result<(), String> {
    let started = join_all((0..CANCELLED_PER_ROUND).map(|request| {
        client.start_call_tool(&echo.tool, echo.arguments(&format!("cancelled-{request}")))
    }))
    .await;
    let mut cancels = Vec::new();
    for pending in started {
        let pending = pending.map_err(|error| format!("a call could not be sent: {error}"))?;
        cancels.push(pending.cancel("mcp-assured load.cancellation_frees"));
    }
    for cancelled in join_all(cancels).await {
        cancelled.map_err(|error| format!("a cancellation could not be sent: {error}"))?;
    }
    answers_after(client, echo).await
}

/// The server still answers a call right.
pub(super) async fn answers_after(client: &McpClient, echo: &Echo) -> Result<(), String> {
    let marker = format!("mcp-assured-load-after-{}", nonce());
    match client.call_tool(&echo.tool, echo.arguments(&marker)).await {
        Ok(result) if carries(&result, &marker) => Ok(()),
        Ok(result) => Err(format!(
            "afterwards a call was answered without its marker: {}",
            shorten(&result.text())
        )),
        Err(error) => Err(format!("afterwards the server did not answer: {error}")),
    }
}

pub(super) async fn sessions_freed(
    client: &McpClient,
    echo: Option<&Echo>,
    pid: u32,
    report: &mut Recorder,
) {
    const NAME: &str = "load.sessions_freed";
    let rounds = readings_over_rounds(pid, || async move {
        let (sessions, errors) = open_sessions(client, SESSIONS_PER_ROUND).await;
        let used = join_all(sessions.iter().map(|session| use_session(session, echo))).await;
        close_all(sessions).await;
        let mut problems = errors;
        problems.extend(used.into_iter().filter_map(Result::err));
        if problems.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "opening and using {SESSIONS_PER_ROUND} sessions: {}",
                listed(&problems)
            ))
        }
    })
    .await;
    match rounds {
        Ok(readings) => Growth {
            readings,
            units: SESSIONS_PER_ROUND,
            what: "session",
            warn: SESSION_WARN,
            fail: SESSION_FAIL,
        }
        .grade(NAME, report),
        Err(why) => report.fail(NAME, why),
    }
}

/// One call in the session (a ping without an echoing tool).
pub(super) async fn use_session(session: &McpClient, echo: Option<&Echo>) -> Result<(), String> {
    match echo {
        Some(echo) => answers_after(session, echo).await,
        None => session
            .ping()
            .await
            .map_err(|error| format!("a new session did not answer a ping: {error}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Status;

    const MIB: u64 = 1024 * 1024;

    fn graded(readings: [u64; 3]) -> Status {
        let mut report = Recorder::new("test", None);
        Growth {
            readings,
            units: 20,
            what: "session",
            warn: SESSION_WARN,
            fail: SESSION_FAIL,
        }
        .grade("load.sessions_freed", &mut report);
        report.finish().entries()[0].status
    }

    #[test]
    fn memory_kept_in_both_rounds_is_a_leak_and_growth_in_one_is_noise() {
        // 3 MiB a session, each round.
        assert_eq!(graded([100 * MIB, 160 * MIB, 220 * MIB]), Status::Failed);
        // 600 KiB a session.
        assert_eq!(graded([100 * MIB, 112 * MIB, 124 * MIB]), Status::Warned);
        // One round grows (a heap growing once), the other does not.
        assert_eq!(graded([100 * MIB, 160 * MIB, 160 * MIB]), Status::Passed);
        assert_eq!(graded([100 * MIB, 100 * MIB, 90 * MIB]), Status::Passed);
    }
}
