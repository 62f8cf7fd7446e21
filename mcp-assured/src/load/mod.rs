//! Load runs: how a server holds up when many calls come at once. A mix of tool calls (each
//! with a weight), or every tool with arguments generated from its `inputSchema` as the
//! fuzzer generates valid ones, sent with a number of calls in flight per session over one
//! or more sessions, for a duration or a count, after a warm-up that is not measured. The
//! [`LoadReport`] has p50/p90/p99/p99.9/max latency of the calls that succeeded (an HDR
//! histogram, microsecond resolution) and, apart, of those that failed, throughput (calls
//! that succeeded, per second), and errors by kind (timeout, JSON-RPC error code, tool
//! `isError`, transport closed), overall and per tool, and how the run fared against each
//! [`Threshold`].
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> mcp_assured::Result<()> {
//! use std::time::Duration;
//! use mcp_assured::McpAssured;
//! use mcp_assured_examples::ExampleServer;
//! use serde_json::json;
//!
//! let client = McpAssured::client().service(ExampleServer::new()).build().await?;
//! let report = client
//!     .load()
//!     .call("echo", json!({"message": "hi"}))
//!     .call_weighted("add", json!({"a": 1, "b": 2}), 3) // three adds for one echo
//!     .concurrency(4)
//!     .warmup(20)
//!     .calls(400)
//!     .max_p99(Duration::from_secs(2))
//!     .max_error_rate(0.0)
//!     .run()
//!     .await?;
//! report.assert_success();
//! assert_eq!(report.calls, 400);
//! assert!(report.tool("add").unwrap().calls > report.tool("echo").unwrap().calls);
//! # Ok(()) }
//! ```
//!
//! Many sessions: [`LoadBuilder::sessions`] opens more of the same server as
//! [`McpClient::reconnect`] does (a child process each over stdio, a connection each over
//! HTTP); [`over_sessions`] takes a function that builds each session's client instead, for
//! servers in the test's process. Every run is bounded: [`DEFAULT_DURATION`] unless a
//! duration or count is given, at most [`MAX_DURATION`] and [`MAX_CALLS`] whatever is asked,
//! and each call by its timeout. Sessions the run opened are closed at its end.
//!
//! The harness measures the server, not itself: each session's calls are driven by one task
//! that records into histograms of its own, merged after the run, through the client's
//! normal `tools/call` path. `cargo run --release -p mcp-assured-tests --bin load-bench`
//! measures the ceiling (BENCHMARKS.md).

mod distribution;
mod outcome;
mod plan;
mod report;
mod thresholds;

use std::{
    fmt,
    future::Future,
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use futures::{StreamExt, stream::FuturesUnordered};
use serde_json::Value;

use self::{
    outcome::Tally,
    plan::{Call, Plan, Rng},
    report::Measured,
};
use crate::{
    client::McpClient,
    error::{Error, Result},
};

pub use self::{
    distribution::{BUCKETS, Bucket, Distribution, Interval, PERCENTILES, PercentilePoint},
    outcome::ErrorKind,
    plan::SkippedTool,
    report::{ErrorCount, Latency, LoadReport, SUITE, Stats, ToolStats},
    thresholds::{Threshold, Verdict},
};

/// How long a run lasts when neither [`LoadBuilder::duration`] nor [`LoadBuilder::calls`]
/// is given.
pub const DEFAULT_DURATION: Duration = Duration::from_secs(10);
/// The longest run, warm-up included, whatever is asked.
pub const MAX_DURATION: Duration = Duration::from_secs(3600);
/// The most calls a run measures, whatever is asked.
pub const MAX_CALLS: u64 = 100_000_000;
/// The most calls in flight per session.
pub const MAX_CONCURRENCY: usize = 4096;
/// The most sessions of one run.
pub const MAX_SESSIONS: usize = 1024;
/// How often [`LoadBuilder::progress`] is told how far the run is.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

type Factory<'a> =
    Box<dyn Fn() -> Pin<Box<dyn Future<Output = Result<McpClient>> + Send>> + Send + Sync + 'a>;
type ProgressFn<'a> = Box<dyn Fn(&Progress) + Send + Sync + 'a>;

/// Where a run's sessions come from.
enum Source<'a> {
    /// This client, and as many more as [`McpClient::reconnect`] opens.
    Client(&'a McpClient),
    /// Every session built by the function.
    Factory(Factory<'a>),
}

/// How far a run is, for a progress line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Progress {
    /// `true` while warming up (nothing is measured yet).
    pub warming_up: bool,
    /// Time since the phase began.
    pub elapsed: Duration,
    /// Calls answered (or failed) so far in the phase.
    pub calls: u64,
    /// Of which failed.
    pub errors: u64,
    /// The phase's length, when it is a duration.
    pub duration: Option<Duration>,
    /// The phase's count, when it is a count.
    pub target_calls: Option<u64>,
}

/// A load run being set up; [`run`](Self::run) sends the calls. See [the module](self).
#[must_use = "a load run does nothing until `.run().await`"]
pub struct LoadBuilder<'a> {
    source: Source<'a>,
    calls: Vec<Call>,
    every_tool: bool,
    include_destructive: bool,
    concurrency: usize,
    sessions: usize,
    duration: Option<Duration>,
    count: Option<u64>,
    warmup: u64,
    call_timeout: Option<Duration>,
    thresholds: Vec<Threshold>,
    progress: Option<ProgressFn<'a>>,
}

impl fmt::Debug for LoadBuilder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoadBuilder")
            .field("calls", &self.calls)
            .field("every_tool", &self.every_tool)
            .field("concurrency", &self.concurrency)
            .field("sessions", &self.sessions)
            .field("duration", &self.duration)
            .field("count", &self.count)
            .field("warmup", &self.warmup)
            .field("call_timeout", &self.call_timeout)
            .field("thresholds", &self.thresholds)
            .finish_non_exhaustive()
    }
}

impl McpClient {
    /// A load run against this client's server: see [`mod@crate::load`].
    pub fn load(&self) -> LoadBuilder<'_> {
        LoadBuilder::new(Source::Client(self))
    }
}

/// A load run whose sessions are each built by `factory`: for servers in the test's process,
/// which [`McpClient::reconnect`] cannot start again, or to give each session a client of its
/// own configuration. The sessions are closed at the end of the run.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> mcp_assured::Result<()> {
/// use mcp_assured::{McpAssured, load};
/// use mcp_assured_examples::ExampleServer;
/// use serde_json::json;
///
/// let report = load::over_sessions(|| McpAssured::client().service(ExampleServer::new()).build())
///     .sessions(3)
///     .concurrency(2)
///     .call("echo", json!({"message": "hi"}))
///     .calls(90)
///     .run()
///     .await?;
/// assert_eq!((report.sessions, report.calls), (3, 90));
/// # Ok(()) }
/// ```
pub fn over_sessions<'a, F, Fut>(factory: F) -> LoadBuilder<'a>
where
    F: Fn() -> Fut + Send + Sync + 'a,
    Fut: Future<Output = Result<McpClient>> + Send + 'static,
{
    LoadBuilder::new(Source::Factory(Box::new(move || Box::pin(factory()))))
}

impl<'a> LoadBuilder<'a> {
    fn new(source: Source<'a>) -> Self {
        LoadBuilder {
            source,
            calls: Vec::new(),
            every_tool: false,
            include_destructive: false,
            concurrency: 1,
            sessions: 1,
            duration: None,
            count: None,
            warmup: 0,
            call_timeout: None,
            thresholds: Vec::new(),
            progress: None,
        }
    }

    /// Calls `tool` with `arguments` (a JSON object, or `null`), weight 1. Repeatable: each
    /// call of the run picks one of the given calls at random, by weight.
    pub fn call(self, tool: impl Into<String>, arguments: Value) -> Self {
        self.call_weighted(tool, arguments, 1)
    }

    /// Calls `tool` with `arguments`, `weight` times as often as a call of weight 1.
    pub fn call_weighted(mut self, tool: impl Into<String>, arguments: Value, weight: u32) -> Self {
        self.calls.push(Call {
            tool: tool.into(),
            arguments,
            weight,
        });
        self
    }

    /// Calls every tool the server lists, equally often, with valid arguments generated from
    /// its `inputSchema` (32 sets per tool, drawn deterministically before the run; needs the
    /// `fuzz` feature). Tools annotated `destructiveHint` are left out unless
    /// [`include_destructive`](Self::include_destructive), and so are tools whose schema
    /// generates nothing; the report lists both. The default when no [`call`](Self::call) is
    /// given.
    pub fn every_tool(mut self) -> Self {
        self.every_tool = true;
        self
    }

    /// With [`every_tool`](Self::every_tool), also calls tools annotated `destructiveHint`.
    pub fn include_destructive(mut self, include: bool) -> Self {
        self.include_destructive = include;
        self
    }

    /// Calls in flight at once in each session (default 1).
    pub fn concurrency(mut self, in_flight: usize) -> Self {
        self.concurrency = in_flight;
        self
    }

    /// Sessions to spread the calls over (default 1): over stdio, a server process each;
    /// over HTTP, a connection and MCP session each. Calls go to every session alike.
    pub fn sessions(mut self, sessions: usize) -> Self {
        self.sessions = sessions;
        self
    }

    /// Measures for this long (from the first call after warm-up), then waits for the calls
    /// in flight. The default is [`DEFAULT_DURATION`] when no count is given either.
    pub fn duration(mut self, duration: Duration) -> Self {
        self.duration = Some(duration);
        self
    }

    /// Measures this many calls (over all sessions). With a duration as well, the run ends
    /// at whichever comes first.
    pub fn calls(mut self, calls: u64) -> Self {
        self.count = Some(calls);
        self
    }

    /// Sends this many calls first (over all sessions), not measured (default 0).
    pub fn warmup(mut self, calls: u64) -> Self {
        self.warmup = calls;
        self
    }

    /// How long one call may take before it counts as a timeout (and is cancelled); the
    /// client's own timeout by default.
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = Some(timeout);
        self
    }

    /// Fails the run ([`LoadReport::is_success`] false) unless the median latency is at most
    /// `limit`.
    pub fn max_p50(self, limit: Duration) -> Self {
        self.threshold(Threshold::MaxP50(limit))
    }

    /// Fails the run unless the 90th percentile latency is at most `limit`.
    pub fn max_p90(self, limit: Duration) -> Self {
        self.threshold(Threshold::MaxP90(limit))
    }

    /// Fails the run unless the 99th percentile latency is at most `limit`.
    pub fn max_p99(self, limit: Duration) -> Self {
        self.threshold(Threshold::MaxP99(limit))
    }

    /// Fails the run unless at most this share of calls failed (0.0 to 1.0; any kind).
    /// Without it, one failed call fails the run.
    pub fn max_error_rate(self, rate: f64) -> Self {
        self.threshold(Threshold::MaxErrorRate(rate))
    }

    /// Fails the run unless at least this many calls per second completed.
    pub fn min_throughput(self, calls_per_second: f64) -> Self {
        self.threshold(Threshold::MinThroughput(calls_per_second))
    }

    /// Adds any [`Threshold`].
    pub fn threshold(mut self, threshold: Threshold) -> Self {
        self.thresholds.push(threshold);
        self
    }

    /// Called every [`PROGRESS_EVERY`] while the run goes on (a progress line, say).
    pub fn progress(mut self, report: impl Fn(&Progress) + Send + Sync + 'a) -> Self {
        self.progress = Some(Box::new(report));
        self
    }

    /// Checks the settings, opens the sessions, lists the tools and checks the calls against
    /// them, warms up, measures, closes the sessions it opened, and reports.
    ///
    /// # Errors
    ///
    /// Before any call: [`Error::InvalidInput`] for a setting out of range, arguments that
    /// are not an object, or more than one session of a server in this process through
    /// [`McpClient::load`] (use [`over_sessions`]); [`Error::NotFound`] for a tool the
    /// server does not list; how a session failed to open or list its tools. Calls that
    /// fail during the run are counted in the report, not returned.
    pub async fn run(self) -> Result<LoadReport> {
        let settings = self.settings()?;
        let opened = self.open_sessions().await?;
        let outcome = self.run_on(&opened.clients, &settings).await;
        for client in opened.owned {
            let _ = client.close().await;
        }
        outcome
    }

    fn settings(&self) -> Result<Settings> {
        let invalid = |what: &str, reason: String| Err(Error::invalid(what, reason));
        if self.concurrency == 0 || self.concurrency > MAX_CONCURRENCY {
            return invalid(
                "load concurrency",
                format!(
                    "{} calls in flight per session: give 1 to {MAX_CONCURRENCY}",
                    self.concurrency
                ),
            );
        }
        if self.sessions == 0 || self.sessions > MAX_SESSIONS {
            return invalid(
                "load sessions",
                format!("{} sessions: give 1 to {MAX_SESSIONS}", self.sessions),
            );
        }
        if let Some(duration) = self.duration
            && (duration.is_zero() || duration > MAX_DURATION)
        {
            return invalid(
                "load duration",
                format!("{duration:?}: give more than 0 and at most {MAX_DURATION:?}"),
            );
        }
        if let Some(count) = self.count
            && (count == 0 || count > MAX_CALLS)
        {
            return invalid(
                "load call count",
                format!("{count} calls: give 1 to {MAX_CALLS}"),
            );
        }
        if self.warmup > MAX_CALLS {
            return invalid(
                "load warm-up",
                format!("{} calls: give at most {MAX_CALLS}", self.warmup),
            );
        }
        if let Some(timeout) = self.call_timeout
            && timeout.is_zero()
        {
            return invalid("call timeout", "0 s: give a timeout above 0".to_owned());
        }
        for threshold in &self.thresholds {
            let bad = match threshold {
                Threshold::MaxErrorRate(rate) => !(0.0..=1.0).contains(rate),
                Threshold::MinThroughput(rate) => !rate.is_finite() || *rate < 0.0,
                _ => false,
            };
            if bad {
                return invalid(
                    "load threshold",
                    format!(
                        "{threshold:?}: an error rate is a fraction from 0 to 1, a throughput \
                         a number of calls per second, 0 or more"
                    ),
                );
            }
        }
        if self.every_tool && !self.calls.is_empty() {
            return invalid(
                "load plan",
                "both calls and every tool were asked for: give one or the other".to_owned(),
            );
        }
        let duration = match (self.duration, self.count) {
            (None, None) => Some(DEFAULT_DURATION),
            (duration, _) => duration,
        };
        Ok(Settings {
            duration,
            count: self.count.unwrap_or(MAX_CALLS),
        })
    }

    async fn open_sessions(&self) -> Result<Opened> {
        match &self.source {
            Source::Client(client) => {
                let reopened =
                    futures::future::join_all((1..self.sessions).map(|_| client.reconnect())).await;
                let owned = all_or_none(reopened).await.map_err(|error| match error {
                    Error::InvalidInput { .. } => Error::invalid(
                        "load sessions",
                        format!(
                            "{} sessions of {}, which runs in this process and cannot be \
                             started again: use `load::over_sessions` with a function that \
                             builds each session's client",
                            self.sessions,
                            client.target()
                        ),
                    ),
                    other => other,
                })?;
                let mut clients = vec![(*client).clone()];
                clients.extend(owned.iter().cloned());
                Ok(Opened { clients, owned })
            }
            Source::Factory(factory) => {
                let built = futures::future::join_all((0..self.sessions).map(|_| factory())).await;
                let owned = all_or_none(built).await?;
                Ok(Opened {
                    clients: owned.clone(),
                    owned,
                })
            }
        }
    }

    async fn run_on(&self, clients: &[McpClient], settings: &Settings) -> Result<LoadReport> {
        let first = &clients[0];
        let tools = first.list_tools_json().await?;
        let plan = if self.calls.is_empty() {
            Plan::every_tool(&tools, self.include_destructive)?
        } else {
            Plan::given(&self.calls, &tools)?
        };
        let plan = Arc::new(plan);
        let timeout = self.call_timeout.unwrap_or_else(|| first.timeout());
        let sessions: Vec<McpClient> = clients.iter().map(|c| c.with_timeout(timeout)).collect();
        let started = Instant::now();
        let hard_stop = started + MAX_DURATION;

        if self.warmup > 0 {
            let phase = Phase {
                count: self.warmup,
                deadline: hard_stop,
                warming_up: true,
                duration: None,
            };
            self.phase(&sessions, &plan, phase).await;
        }
        let measured_from = Instant::now();
        let deadline = settings
            .duration
            .map_or(hard_stop, |d| (measured_from + d).min(hard_stop));
        let phase = Phase {
            count: settings.count,
            deadline,
            warming_up: false,
            duration: settings.duration,
        };
        let (tallies, lost, samples) = self.phase(&sessions, &plan, phase).await;
        let window = measured_from.elapsed();
        let measured = Measured {
            target: first.target().to_owned(),
            sessions: sessions.len(),
            concurrency: self.concurrency,
            warmup_calls: self.warmup,
            window,
            tools: plan
                .entries
                .iter()
                .map(|entry| entry.tool.clone())
                .zip(tallies)
                .collect(),
            sessions_lost: lost,
            skipped_tools: plan.skipped.clone(),
            timeline: distribution::intervals(&samples, PROGRESS_EVERY),
        };
        Ok(LoadReport::new(measured, &self.thresholds))
    }

    /// One phase over every session at once: each session's calls driven by a task of its
    /// own; returns the tallies per tool merged over sessions, how many sessions closed, and
    /// the calls done and failed so far at each tick (`(elapsed, calls, errors)`, the last at
    /// the end), of which the timeline is made.
    async fn phase(
        &self,
        sessions: &[McpClient],
        plan: &Arc<Plan>,
        phase: Phase,
    ) -> (Vec<Tally>, usize, Vec<(Duration, u64, u64)>) {
        let shared = Arc::new(Counters::default());
        let mut tasks = tokio::task::JoinSet::new();
        for (index, client) in sessions.iter().enumerate() {
            tasks.spawn(drive(
                client.clone(),
                Arc::clone(plan),
                Arc::clone(&shared),
                phase,
                self.concurrency,
                index as u64,
            ));
        }
        let began = Instant::now();
        let mut ticks =
            tokio::time::interval_at(tokio::time::Instant::now() + PROGRESS_EVERY, PROGRESS_EVERY);
        let mut merged: Vec<Tally> = plan.entries.iter().map(|_| Tally::new()).collect();
        let mut lost = 0;
        let mut samples = Vec::new();
        let sample = |shared: &Counters| {
            (
                began.elapsed(),
                shared.done.load(Ordering::Relaxed),
                shared.errors.load(Ordering::Relaxed),
            )
        };
        loop {
            tokio::select! {
                joined = tasks.join_next() => {
                    let Some(joined) = joined else { break };
                    // A session task that panicked has nothing to give; the others go on.
                    if let Ok(session) = joined {
                        for (mine, theirs) in merged.iter_mut().zip(&session.tallies) {
                            mine.merge(theirs);
                        }
                        lost += usize::from(session.lost);
                    }
                }
                _ = ticks.tick() => {
                    samples.push(sample(&shared));
                    if let Some(progress) = &self.progress {
                        progress(&Progress {
                            warming_up: phase.warming_up,
                            elapsed: began.elapsed(),
                            calls: shared.done.load(Ordering::Relaxed),
                            errors: shared.errors.load(Ordering::Relaxed),
                            duration: phase.duration,
                            target_calls: (phase.count < MAX_CALLS).then_some(phase.count),
                        });
                    }
                }
            }
        }
        samples.push(sample(&shared));
        (merged, lost, samples)
    }
}

/// Every session opened, or the first error after closing those that did open.
async fn all_or_none(opened: Vec<Result<McpClient>>) -> Result<Vec<McpClient>> {
    let mut owned = Vec::new();
    let mut failure = None;
    for session in opened {
        match session {
            Ok(session) => owned.push(session),
            Err(error) => failure = failure.or(Some(error)),
        }
    }
    if let Some(error) = failure {
        for session in owned {
            let _ = session.close().await;
        }
        return Err(error);
    }
    Ok(owned)
}

impl fmt::Debug for Source<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Client(client) => f.debug_tuple("Client").field(&client.target()).finish(),
            Source::Factory(_) => f.write_str("Factory"),
        }
    }
}

/// The sessions of a run, and those it opened (to close at the end).
struct Opened {
    clients: Vec<McpClient>,
    owned: Vec<McpClient>,
}

/// The checked length of the measured phase.
#[derive(Debug)]
struct Settings {
    duration: Option<Duration>,
    count: u64,
}

/// One phase of a run: warm-up or measured.
#[derive(Debug, Clone, Copy)]
struct Phase {
    /// Calls to send over all sessions.
    count: u64,
    /// No call is sent after this.
    deadline: Instant,
    warming_up: bool,
    duration: Option<Duration>,
}

/// Counters shared by a phase's sessions: calls claimed (for the count) and, for progress,
/// calls done and failed.
#[derive(Debug, Default)]
struct Counters {
    claimed: AtomicU64,
    done: AtomicU64,
    errors: AtomicU64,
}

/// What one session's task measured.
struct SessionTallies {
    tallies: Vec<Tally>,
    lost: bool,
}

/// Drives one session: keeps `concurrency` calls in flight until the phase's count is
/// claimed or its deadline passes, records each into this session's tallies, and stops
/// early when the connection closes.
async fn drive(
    client: McpClient,
    plan: Arc<Plan>,
    shared: Arc<Counters>,
    phase: Phase,
    concurrency: usize,
    seed: u64,
) -> SessionTallies {
    let mut tallies: Vec<Tally> = plan.entries.iter().map(|_| Tally::new()).collect();
    let mut rng = Rng::new(seed);
    let mut in_flight = FuturesUnordered::new();
    let claim = || {
        Instant::now() < phase.deadline
            && shared.claimed.fetch_add(1, Ordering::Relaxed) < phase.count
    };
    let start = |draw: u64| {
        let (entry, arguments) = plan.pick(draw);
        let client = &client;
        let tool = plan.entries[entry].tool.as_str();
        let arguments = arguments.clone();
        async move {
            let began = Instant::now();
            let result = client.call_tool(tool, arguments).await;
            (entry, began.elapsed(), result)
        }
    };
    for _ in 0..concurrency {
        if !claim() {
            break;
        }
        in_flight.push(start(rng.next()));
    }
    let mut lost = false;
    while let Some((entry, latency, result)) = in_flight.next().await {
        let kind = ErrorKind::of(&result);
        shared.done.fetch_add(1, Ordering::Relaxed);
        if !phase.warming_up {
            let message = || match &result {
                Ok(result) => result.text(),
                Err(error) => error.to_string(),
            };
            tallies[entry].record(
                latency,
                kind.map(|kind| (kind, &message as &dyn Fn() -> String)),
            );
        }
        if kind.is_some() {
            shared.errors.fetch_add(1, Ordering::Relaxed);
            if kind == Some(ErrorKind::Transport) && client.is_closed() {
                lost = true;
            }
        }
        if !lost && claim() {
            in_flight.push(start(rng.next()));
        }
    }
    // A connection that closed under the last calls counts as lost too.
    lost |= client.is_closed();
    SessionTallies { tallies, lost }
}
