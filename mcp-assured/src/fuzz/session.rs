//! The connection a fuzz run calls through: one request at a time or many, the answer
//! turned into an [`Outcome`], and the server started again when a call killed it.

use std::{
    fmt,
    future::Future,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU32, Ordering},
    },
    time::{Duration, Instant},
};

use serde_json::Value;
use tokio::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::{
    client::{McpClient, input_required},
    error::{Error, Result},
};

/// How a request ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outcome {
    /// A result came back.
    Answered {
        result: Value,
        elapsed: Duration,
        /// What the server (a child process) wrote to stderr while the call ran, when the
        /// result is a tool error and it wrote anything.
        stderr: Option<String>,
        /// How many progress notifications came about the call before its answer.
        progress: usize,
    },
    /// A JSON-RPC error came back.
    Refused {
        code: i32,
        message: String,
        data: Option<Value>,
    },
    /// Nothing came back within the per-call timeout (the request was cancelled).
    Hung {
        timeout: Duration,
        /// Whether the server was stuck: it did not answer a `ping` right after (`true`;
        /// one that handles a request at a time is stuck behind the hung one), it did
        /// (`false`: the hang is the input's), or it was started again meanwhile (`None`:
        /// nobody knows).
        stuck: Option<bool>,
    },
    /// The server kept sending progress about the call, each within the per-call timeout,
    /// but had not answered when the cap on a call's time ran out (then it was cancelled):
    /// slow, not hung.
    Slow { progress: usize, waited: Duration },
    /// The server went away: its process exited, or the connection dropped.
    Crashed {
        what: String,
        /// The last lines it wrote to stderr, for a child process.
        stderr_tail: Option<String>,
    },
    /// Something came back that is not a JSON-RPC answer: junk on stdout, an HTTP error,
    /// a result of the wrong shape.
    Broken {
        what: String,
        /// The connection ended with it (an unreadable line ends a stdio session): every
        /// call in flight failed with it, and the server is started again.
        lost: bool,
    },
    /// The server is gone and could not be started again; nothing was sent.
    Unreachable { what: String },
    /// The server kept answering HTTP `429` (or `503` with `Retry-After`) however long the
    /// run waited as it asked: the call was never served, so it shows nothing of the input.
    Throttled { status: u16, tries: u32 },
}

/// The first line of an error's message (the rest is the stderr tail, kept apart).
fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or_default().to_owned()
}

/// The last ten lines of a stderr tail: what the process said as it died.
fn last_lines(tail: &str) -> String {
    let lines: Vec<&str> = tail.lines().collect();
    lines[lines.len().saturating_sub(10)..].join("\n")
}

impl Outcome {
    /// Whether the call could have taken the server (or the connection) down with it.
    pub(crate) fn lost_the_server(&self) -> bool {
        matches!(
            self,
            Outcome::Crashed { .. } | Outcome::Broken { lost: true, .. }
        )
    }

    /// Whether the server reported progress about the call: answered after progress
    /// notifications, or still sending them when the cap ran out.
    pub(crate) fn reported_progress(&self) -> bool {
        match self {
            Outcome::Answered { progress, .. } => *progress > 0,
            Outcome::Slow { .. } => true,
            _ => false,
        }
    }

    /// Whether the call hung on a server that answered a `ping` right after it: the hang is
    /// the input's (or the tool's), not a server stuck behind another call.
    pub(crate) fn hung_on_a_live_server(&self) -> bool {
        matches!(
            self,
            Outcome::Hung {
                stuck: Some(false),
                ..
            }
        )
    }
}

/// How many per-call timeouts a call that keeps reporting progress may take in all: each
/// progress notification starts its timeout again, up to this many times it.
pub(crate) const PROGRESS_CAP: u32 = 6;

/// How long a tool error waits for the rest of what the server began to write to stderr
/// while the call ran (a traceback is many lines, read apart from the answer).
const STDERR_SETTLE: Duration = Duration::from_millis(20);

/// What the server wrote to stderr since `mark`, once it stopped writing for a moment (or
/// after ten such moments, for one that never stops).
async fn stderr_during(client: &McpClient, mark: u64) -> Option<String> {
    let diagnostics = client.diagnostics();
    let mut seen = diagnostics.stderr_mark();
    if seen == mark {
        return None;
    }
    for _ in 0..10 {
        tokio::time::sleep(STDERR_SETTLE).await;
        let now = diagnostics.stderr_mark();
        if now == seen {
            break;
        }
        seen = now;
    }
    diagnostics.stderr_since(mark)
}

/// How many times a call the server refused with HTTP `429`/`503` is sent again.
pub(crate) const THROTTLED_TRIES: u32 = 5;

/// The wait after a `429` without `Retry-After`.
const THROTTLED_WAIT: Duration = Duration::from_secs(1);

/// The longest wait a `Retry-After` gets: a server asking for more is tried again sooner
/// (and, asking again, given up on after [`THROTTLED_TRIES`]).
const MAX_THROTTLED_WAIT: Duration = Duration::from_secs(10);

/// What the server's `429`s and `503`s cost the run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Throttling {
    /// The answers `429`, or `503` with `Retry-After`.
    pub(crate) refusals: u32,
    /// The calls given up on after [`THROTTLED_TRIES`] refusals.
    pub(crate) given_up: u32,
    /// How long the run held its calls back, as the server asked.
    pub(crate) paused: Duration,
    /// Until when no call is sent.
    until: Option<Instant>,
}

/// How long `error` asks the run to hold its calls back, when it is a refusal to serve now:
/// `429 Too Many Requests` (a second without `Retry-After`), or `503 Service Unavailable`
/// with `Retry-After` (without one, it is the server's failure, judged as any other).
fn throttled(error: &Error) -> Option<(u16, Duration)> {
    let Error::Transport {
        status: Some(status @ (429 | 503)),
        ..
    } = error
    else {
        return None;
    };
    let wait = match (status, error.retry_after()) {
        (_, Some(wait)) => wait,
        (429, None) => THROTTLED_WAIT,
        _ => return None,
    };
    Some((*status, wait.min(MAX_THROTTLED_WAIT)))
}

/// Told when a request has gone out, and to which of the server's clients.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    notify: tokio::sync::Notify,
    generation: std::sync::atomic::AtomicU64,
}

impl Sent {
    fn tell(&self, generation: u64) {
        self.generation.store(generation + 1, Ordering::Release);
        self.notify.notify_one();
    }

    /// The client the request went out on, once it has.
    pub(crate) fn generation(&self) -> Option<u64> {
        self.generation.load(Ordering::Acquire).checked_sub(1)
    }

    /// Once the request has gone out: the client it went out on.
    pub(crate) async fn wait(&self) -> u64 {
        self.notify.notified().await;
        self.generation().unwrap_or_default()
    }
}

/// How a server that died is started again and connected to, when
/// [`McpClient::reconnect`] cannot (a server the test started over HTTP, say).
pub(crate) type Restart =
    Arc<dyn Fn() -> Pin<Box<dyn Future<Output = Result<McpClient>> + Send>> + Send + Sync>;

/// The live client, replaced by a new one when the server dies.
pub(crate) struct Session {
    current: Mutex<Current>,
    /// Calls hold it shared; a call that must run alone (to tell which input crashed the
    /// server or hung it) holds it exclusively.
    gate: RwLock<()>,
    call_timeout: Duration,
    restarts: AtomicU32,
    /// What each crash left on stderr, and why a restart failed.
    pub(crate) deaths: std::sync::Mutex<Vec<String>>,
    restart: Option<Restart>,
    throttling: std::sync::Mutex<Throttling>,
    /// A second process of the same server, where a call that may have killed the first is
    /// sent on its own ([`Session::call_on_probe`]).
    probe: Mutex<Probe>,
    /// How many times that second process was started.
    probe_starts: AtomicU32,
    /// The clients whose server's death was told apart: the input that killed it was found.
    explained: std::sync::Mutex<std::collections::BTreeSet<u64>>,
}

/// What [`Session::call_on_probe`] did.
#[derive(Debug)]
pub(crate) enum Probed {
    Sent(Outcome),
    /// By the time the second process was free, the call was no longer needed.
    NotNeeded,
}

/// The second process of a stdio server.
#[derive(Debug)]
enum Probe {
    /// Not a stdio server the run can start again itself, or the second process would not
    /// start: calls that must run alone do so on the first.
    Unavailable,
    /// Not running now (never yet, or it died).
    Idle,
    Running(McpClient),
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Session")
            .field("call_timeout", &self.call_timeout)
            .field("restarts", &self.restarts)
            .field("probe_starts", &self.probe_starts)
            .finish_non_exhaustive()
    }
}

#[derive(Debug)]
struct Current {
    client: Option<McpClient>,
    /// Counts the clients, so a crash seen by many calls restarts the server once.
    generation: u64,
    /// Why the server cannot be reached any more.
    gone: Option<String>,
}

/// The client a call went out on.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    client: McpClient,
    /// Which of the first process's clients it is; `None` for the second process's.
    generation: Option<u64>,
}

impl Session {
    pub(crate) fn new(
        client: McpClient,
        call_timeout: Duration,
        restart: Option<Restart>,
    ) -> Arc<Session> {
        // Only a server the run starts itself, from a command, can run twice on its own.
        let probe = if restart.is_none()
            && matches!(
                client.reached_by(),
                Some(crate::transport::Reached::Command(_))
            ) {
            Probe::Idle
        } else {
            Probe::Unavailable
        };
        Arc::new(Session {
            current: Mutex::new(Current {
                client: Some(client),
                generation: 0,
                gone: None,
            }),
            gate: RwLock::new(()),
            call_timeout,
            restarts: AtomicU32::new(0),
            deaths: std::sync::Mutex::new(Vec::new()),
            restart,
            throttling: std::sync::Mutex::new(Throttling::default()),
            probe: Mutex::new(probe),
            probe_starts: AtomicU32::new(0),
            explained: Default::default(),
        })
    }

    pub(crate) fn call_timeout(&self) -> Duration {
        self.call_timeout
    }

    /// How many times the server was started again.
    pub(crate) fn restarts(&self) -> u32 {
        self.restarts.load(Ordering::Relaxed)
    }

    /// What the server's refusals to serve now cost the run.
    pub(crate) fn throttling(&self) -> Throttling {
        *self.throttling.lock().expect("never poisoned")
    }

    /// Waits out what the server last asked with `Retry-After`.
    async fn held_back(&self) {
        let until = self.throttling.lock().expect("never poisoned").until;
        if let Some(until) = until {
            tokio::time::sleep_until(until.into()).await;
        }
    }

    /// Notes a refusal asking for `wait`: every call waits it out before it is sent.
    fn refused_for(&self, wait: Duration) {
        let mut throttling = self.throttling.lock().expect("never poisoned");
        throttling.refusals += 1;
        let now = Instant::now();
        let until = now + wait;
        let from = throttling.until.filter(|&at| at > now).unwrap_or(now);
        if until > from {
            throttling.paused += until - from;
            throttling.until = Some(until);
        }
    }

    /// Whether the client numbered `generation` is still the one calls go out on (the
    /// server it reached did not die since), once no restart is under way.
    pub(crate) async fn still_serving(&self, generation: u64) -> bool {
        loop {
            if let Ok(current) = self.current.try_lock() {
                return current.generation == generation && current.gone.is_none();
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Notes that the input which killed the server client `generation` reached was found:
    /// the other calls in flight on it died with it.
    pub(crate) fn explain(&self, generation: u64) {
        self.explained
            .lock()
            .expect("never poisoned")
            .insert(generation);
    }

    /// Whether the death of the server client `generation` reached is told apart already.
    pub(crate) fn explained(&self, generation: u64) -> bool {
        self.explained
            .lock()
            .expect("never poisoned")
            .contains(&generation)
    }

    /// Why the server cannot be reached any more, if it cannot.
    pub(crate) async fn gone(&self) -> Option<String> {
        self.current.lock().await.gone.clone()
    }

    /// Leave to call alongside other calls.
    pub(crate) async fn shared(&self) -> RwLockReadGuard<'_, ()> {
        self.gate.read().await
    }

    /// Leave to call with no other call in flight.
    pub(crate) async fn alone(&self) -> RwLockWriteGuard<'_, ()> {
        self.gate.write().await
    }

    async fn handle(&self) -> Result<Handle, String> {
        let current = self.current.lock().await;
        match (&current.client, &current.gone) {
            (Some(client), None) => Ok(Handle {
                client: client.clone(),
                generation: Some(current.generation),
            }),
            (_, Some(gone)) => Err(gone.clone()),
            (None, None) => Err("the server is not connected".to_owned()),
        }
    }

    /// Sends one request with the per-call timeout (or `timeout`), holding whatever leave
    /// the caller took. A crash starts the server again before returning. With
    /// `watch_stderr` (valid input, whose tool error may be a crash), a tool error waits for
    /// what the server wrote to stderr meanwhile. An HTTP `429` (or `503` with
    /// `Retry-After`) holds every call back for as long as it asks, then sends this one
    /// again, up to [`THROTTLED_TRIES`] times. `sent` is told each time the request has gone
    /// out (a call may first wait for a restart, or for the server's `Retry-After`).
    pub(crate) async fn call(
        &self,
        method: &str,
        params: &Value,
        timeout: Option<Duration>,
        watch_stderr: bool,
        sent: Option<&Sent>,
    ) -> Outcome {
        let mut tries = 0;
        loop {
            self.held_back().await;
            tries += 1;
            let (status, wait) = match self
                .send_once(method, params, timeout, watch_stderr, sent)
                .await
            {
                Ok(outcome) => return outcome,
                Err(refused) => refused,
            };
            self.refused_for(wait);
            if tries == THROTTLED_TRIES {
                self.throttling.lock().expect("never poisoned").given_up += 1;
                return Outcome::Throttled { status, tries };
            }
        }
    }

    /// One try of [`Session::call`]: the outcome, or a refusal to serve now (its status, and
    /// how long it asks the run to wait).
    async fn send_once(
        &self,
        method: &str,
        params: &Value,
        timeout: Option<Duration>,
        watch_stderr: bool,
        sent: Option<&Sent>,
    ) -> Result<Outcome, (u16, Duration)> {
        let handle = match self.handle().await {
            Ok(handle) => handle,
            Err(what) => return Ok(Outcome::Unreachable { what }),
        };
        let outcome = self
            .ask(&handle, method, params, timeout, watch_stderr, sent)
            .await?;
        if outcome.lost_the_server() {
            self.restart(&handle, &outcome).await;
        }
        Ok(outcome)
    }

    /// Sends one request on `handle`'s client and turns its end into an [`Outcome`], or a
    /// refusal to serve now; starts nothing again.
    async fn ask(
        &self,
        handle: &Handle,
        method: &str,
        params: &Value,
        timeout: Option<Duration>,
        watch_stderr: bool,
        sent: Option<&Sent>,
    ) -> Result<Outcome, (u16, Duration)> {
        let timeout = timeout.unwrap_or(self.call_timeout);
        let stderr_mark = handle.client.diagnostics().stderr_mark();
        let started = Instant::now();
        let cap = timeout * PROGRESS_CAP;
        let client = handle.client.with_timeout(timeout).waiting_on_progress(cap);
        let (answer, token) = match client.start_request(method, params.clone()).await {
            Ok(pending) => {
                if let (Some(sent), Some(generation)) = (sent, handle.generation) {
                    sent.tell(generation);
                }
                let token = pending.progress_token().clone();
                (pending.result().await, Some(token))
            }
            Err(error) => (Err(error), None),
        };
        if let Err(error) = &answer
            && !handle.client.is_closed()
            && let Some(refusal) = throttled(error)
        {
            return Err(refusal);
        }
        let outcome = match answer {
            Ok(result) => {
                let elapsed = started.elapsed();
                let stderr = if watch_stderr
                    && result.get("isError").and_then(Value::as_bool) == Some(true)
                {
                    stderr_during(&handle.client, stderr_mark).await
                } else {
                    None
                };
                Outcome::Answered {
                    result,
                    elapsed,
                    stderr,
                    progress: token.map_or(0, |token| client.progress_seen(&token)),
                }
            }
            Err(Error::JsonRpc {
                code,
                message,
                data,
                ..
            }) => Outcome::Refused {
                code,
                message,
                data,
            },
            Err(Error::Timeout { .. }) => {
                let waited = started.elapsed();
                let progress = token.map_or(0, |token| client.progress_seen(&token));
                // Still making progress when the cap ran out: slow. Progress that stopped,
                // then a timeout's silence: hung.
                if progress > 0 && waited + timeout / 2 >= cap {
                    Outcome::Slow { progress, waited }
                } else {
                    Outcome::Hung {
                        timeout,
                        stuck: self.stuck(handle).await,
                    }
                }
            }
            Err(error) if input_required::is_unanswered(&error) => Outcome::Answered {
                result: serde_json::json!({"resultType": "input_required"}),
                elapsed: started.elapsed(),
                stderr: None,
                progress: 0,
            },
            Err(error @ (Error::Undecodable { .. } | Error::UnexpectedResponse { .. })) => {
                Outcome::Broken {
                    what: first_line(&error.to_string()),
                    lost: handle.client.is_closed(),
                }
            }
            Err(
                error @ Error::Transport {
                    status: Some(_), ..
                },
            ) if !handle.client.is_closed() => Outcome::Broken {
                what: error.to_string(),
                lost: false,
            },
            Err(error) => Outcome::Crashed {
                stderr_tail: error.stderr_tail().map(last_lines),
                what: first_line(&error.to_string()),
            },
        };
        Ok(outcome)
    }

    /// Whether the server `handle` reached is stuck (it does not answer a `ping` within a
    /// second), asked right after a call to it hung; `None` when it was started again since
    /// (a crash of another call's), so a ping would ask another server.
    async fn stuck(&self, handle: &Handle) -> Option<bool> {
        let Some(generation) = handle.generation else {
            // The second process, which nothing starts again behind the caller's back.
            let client = handle.client.with_timeout(Duration::from_secs(1));
            return Some(client.ping().await.is_err());
        };
        if self.current.lock().await.generation != generation {
            return None;
        }
        let answered = handle
            .client
            .with_timeout(Duration::from_secs(1))
            .ping()
            .await
            .is_ok();
        if !answered && self.current.lock().await.generation != generation {
            return None;
        }
        Some(!answered)
    }

    /// Starts the server again after a hung request left it deaf.
    /// Taken alone, so no call of another subject dies with the deaf server and is judged
    /// for it; the caller holds no leave.
    pub(crate) async fn restart_deaf(&self) {
        let _alone = self.alone().await;
        if let Ok(handle) = self.handle().await {
            let outcome = Outcome::Crashed {
                what: "the server stopped answering after a call that hung".to_owned(),
                stderr_tail: None,
            };
            self.restart(&handle, &outcome).await;
        }
    }

    /// Replaces the client `handle` came from, once however many calls saw it die.
    async fn restart(&self, handle: &Handle, outcome: &Outcome) {
        let mut current = self.current.lock().await;
        if handle.generation != Some(current.generation) || current.gone.is_some() {
            return;
        }
        let death = match outcome {
            Outcome::Crashed { what, stderr_tail } => {
                let mut death = what.clone();
                if let Some(tail) = stderr_tail {
                    death.push_str(&format!("; its stderr ended with:\n{tail}"));
                }
                Some(death)
            }
            Outcome::Broken { what, .. } => Some(format!("the connection ended: {what}")),
            _ => None,
        };
        if let Some(death) = death {
            self.deaths
                .lock()
                .expect("the death log is never poisoned")
                .push(death);
        }
        tracing::debug!("the server died; starting it again");
        // The old process goes first: a server that binds a port or locks a file could not
        // start beside it.
        if let Some(old) = current.client.take() {
            let _ = old.close().await;
        }
        let reconnecting = async {
            match &self.restart {
                Some(restart) => restart().await,
                None => handle.client.reconnect().await,
            }
        };
        let (mut reconnected, probe_started) =
            tokio::join!(reconnecting, self.start_probe(&handle.client));
        if reconnected.is_err() && probe_started {
            // The second process took what the first needs (a lock, a port): it goes for
            // good, before it served a call, so it is not counted as started.
            let mut probe = self.probe.lock().await;
            if let Probe::Running(client) = std::mem::replace(&mut *probe, Probe::Unavailable) {
                let _ = client.close().await;
                self.probe_starts.fetch_sub(1, Ordering::Relaxed);
                tracing::debug!(
                    "the second process kept the first from starting: stopped for good"
                );
            }
            drop(probe);
            reconnected = match &self.restart {
                Some(restart) => restart().await,
                None => handle.client.reconnect().await,
            };
        }
        current.generation += 1;
        tracing::debug!(ok = reconnected.is_ok(), "server started again");
        match reconnected {
            Ok(client) => {
                current.client = Some(client);
                self.restarts.fetch_add(1, Ordering::Relaxed);
            }
            Err(error) => {
                let gone = format!("the server could not be started again: {error}");
                self.deaths
                    .lock()
                    .expect("the death log is never poisoned")
                    .push(gone.clone());
                current.gone = Some(gone);
            }
        }
    }

    /// Sends one request to the second process of the server, with no other call on it (the
    /// first process's calls go on meanwhile), starting it first if it is not running; `None`
    /// when there is none (a server reached over HTTP, in this process, or started again by
    /// the caller's `restart_with`, or one whose second process would not start): then the
    /// caller sends it alone on the first. A call that ended the second process, or left it
    /// deaf to a `ping`, leaves it to be started again for the next.
    pub(crate) async fn call_on_probe(
        &self,
        method: &str,
        params: &Value,
        timeout: Option<Duration>,
        watch_stderr: bool,
        needed: impl Fn() -> bool,
    ) -> Option<Probed> {
        let mut probe = self.probe.lock().await;
        if !needed() {
            return Some(Probed::NotNeeded);
        }
        if matches!(*probe, Probe::Idle) {
            let first = self.handle().await.ok()?.client;
            Self::start_probe_in(&mut probe, &first, &self.probe_starts).await;
        }
        let client = match &*probe {
            Probe::Running(client) => client.clone(),
            Probe::Unavailable | Probe::Idle => return None,
        };
        let handle = Handle {
            client: client.clone(),
            generation: None,
        };
        let outcome = match self
            .ask(&handle, method, params, timeout, watch_stderr, None)
            .await
        {
            Ok(outcome) => outcome,
            Err((status, _)) => Outcome::Throttled { status, tries: 1 },
        };
        let stuck = matches!(
            outcome,
            Outcome::Hung {
                stuck: Some(true),
                ..
            }
        );
        if outcome.lost_the_server() || stuck || client.is_closed() {
            let _ = client.close().await;
            *probe = Probe::Idle;
        }
        Some(Probed::Sent(outcome))
    }

    /// Starts the second process of the server, as `first` was started, unless it runs, is
    /// unavailable, or is in use.
    async fn start_probe(&self, first: &McpClient) -> bool {
        if let Ok(mut probe) = self.probe.try_lock()
            && matches!(*probe, Probe::Idle)
        {
            Self::start_probe_in(&mut probe, first, &self.probe_starts).await;
            return matches!(*probe, Probe::Running(_));
        }
        false
    }

    async fn start_probe_in(probe: &mut Probe, first: &McpClient, starts: &AtomicU32) {
        match first.reconnect().await {
            Ok(client) => {
                starts.fetch_add(1, Ordering::Relaxed);
                *probe = Probe::Running(client);
            }
            Err(error) => {
                tracing::debug!(%error, "a second server process would not start");
                *probe = Probe::Unavailable;
            }
        }
    }

    /// How many times the second process of the server was started.
    pub(crate) fn probe_starts(&self) -> u32 {
        self.probe_starts.load(Ordering::Relaxed)
    }

    /// Stops the second process of the server, if it runs.
    pub(crate) async fn close_probe(&self) {
        let mut probe = self.probe.lock().await;
        if matches!(*probe, Probe::Running(_))
            && let Probe::Running(client) = std::mem::replace(&mut *probe, Probe::Idle)
        {
            let _ = client.close().await;
        }
    }

    /// The client in use when the run ends, to hand back to the caller.
    pub(crate) async fn current_client(&self) -> Option<McpClient> {
        self.current.lock().await.client.clone()
    }
}
