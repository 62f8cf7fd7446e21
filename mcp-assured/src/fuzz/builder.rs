//! [`Fuzz`]: what to fuzz and how hard, set fluently on a client; `run` does it.

use std::{
    path::PathBuf,
    sync::atomic::AtomicBool,
    time::{Duration, Instant},
};

use futures::future::join_all;
use serde_json::Value;
use tokio::sync::Semaphore;

use super::{
    FuzzProgress,
    generate::Generator,
    leak::OwnFolders,
    property::{Property, PropertyOutcome},
    regressions::{self, Regression},
    report::{Plan, RunEnd},
    run::{Context, SubjectRun, fuzz_subject},
    session::{Restart, Session},
    subject::Subject,
};
use crate::{
    client::McpClient,
    error::{Error, Result},
    report::Report,
    results::mcp::ToolResult,
    transport::Reached,
};

/// Inputs generated per tool, template and prompt, valid and invalid each, by default.
pub const DEFAULT_CASES: u32 = 100;

/// Calls in flight at once, by default.
pub const DEFAULT_CONCURRENCY: usize = 8;

/// How long one call may take before it counts as a hang, by default (or the client's own
/// timeout, when shorter).
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// Calls one finding's shrinking may make: half for proptest's trees, half for the polish.
const SHRINK_CALLS: u32 = 256;

/// The environment variable that sets the seed when [`Fuzz::seed`] was not called.
pub const SEED_VARIABLE: &str = "MCP_ASSURED_FUZZ_SEED";

/// A fuzz run of a server's tools, resource templates and prompts, configured by chained
/// setters; [`run`](Self::run) sends the inputs and returns the [`Report`]. Made by
/// [`McpClient::fuzz`].
#[must_use = "a Fuzz does nothing until `.run().await`"]
pub struct Fuzz {
    client: McpClient,
    tools: Vec<String>,
    excluded: Vec<String>,
    cases: u32,
    time_budget: Option<Duration>,
    seed: Option<u64>,
    call_timeout: Option<Duration>,
    concurrency: usize,
    include_destructive: bool,
    templates: Option<bool>,
    prompts: Option<bool>,
    regressions: Option<PathBuf>,
    properties: Vec<Property>,
    strict: bool,
    restart: Option<Restart>,
    reproduce_as: Option<String>,
    progress: Option<ProgressFn>,
}

/// What [`Fuzz::progress`] is given.
type ProgressFn = std::sync::Arc<dyn Fn(&FuzzProgress) + Send + Sync>;

impl std::fmt::Debug for Fuzz {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fuzz")
            .field("target", &self.client.target())
            .field("tools", &self.tools)
            .field("cases", &self.cases)
            .field("seed", &self.seed)
            .field("restart", &self.restart.is_some())
            .finish_non_exhaustive()
    }
}

impl Fuzz {
    pub(crate) fn new(client: McpClient) -> Fuzz {
        Fuzz {
            client,
            tools: Vec::new(),
            excluded: Vec::new(),
            cases: DEFAULT_CASES,
            time_budget: None,
            seed: None,
            call_timeout: None,
            concurrency: DEFAULT_CONCURRENCY,
            include_destructive: false,
            templates: None,
            prompts: None,
            regressions: None,
            properties: Vec::new(),
            strict: false,
            restart: None,
            reproduce_as: None,
            progress: None,
        }
    }

    /// Fuzzes this tool (repeatable); once any is named, only the named tools are fuzzed,
    /// and no templates or prompts unless asked for with [`templates`](Self::templates) or
    /// [`prompts`](Self::prompts).
    pub fn tool(mut self, name: impl Into<String>) -> Self {
        self.tools.push(name.into());
        self
    }

    /// Leaves this tool out (repeatable).
    pub fn exclude_tool(mut self, name: impl Into<String>) -> Self {
        self.excluded.push(name.into());
        self
    }

    /// Inputs generated per tool, template and prompt: this many valid ones and this many
    /// invalid ones ([`DEFAULT_CASES`]).
    pub fn cases(mut self, cases: u32) -> Self {
        self.cases = cases;
        self
    }

    /// Stops sending new inputs (and shrinking) once the run has taken this long; what was
    /// found so far is reported, and the run's entry says the budget ran out.
    pub fn time_budget(mut self, budget: Duration) -> Self {
        self.time_budget = Some(budget);
        self
    }

    /// The seed every input is generated from: the same seed, the same inputs. Without it,
    /// `MCP_ASSURED_FUZZ_SEED` or a random one; the report says which, to run it again.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = Some(seed);
        self
    }

    /// How long one call may take before it counts as a hang ([`DEFAULT_CALL_TIMEOUT`],
    /// or the client's timeout when that is shorter).
    pub fn call_timeout(mut self, timeout: Duration) -> Self {
        self.call_timeout = Some(timeout);
        self
    }

    /// Calls in flight at once ([`DEFAULT_CONCURRENCY`]); 1 sends one at a time.
    pub fn concurrency(mut self, calls: usize) -> Self {
        self.concurrency = calls.max(1);
        self
    }

    /// Also fuzzes tools annotated `destructiveHint: true`, which are skipped by default. A
    /// tool with no such annotation is fuzzed, although the specification reads a missing
    /// `destructiveHint` as true: most servers annotate nothing, and a fuzzer that skipped
    /// them would test nothing (mcp-toolproof draws the same line).
    pub fn include_destructive(mut self, include: bool) -> Self {
        self.include_destructive = include;
        self
    }

    /// Whether resource templates are fuzzed (their variables); on by default unless tools
    /// were named with [`tool`](Self::tool).
    pub fn templates(mut self, fuzz: bool) -> Self {
        self.templates = Some(fuzz);
        self
    }

    /// Whether prompts are fuzzed (their arguments); on by default unless tools were named
    /// with [`tool`](Self::tool).
    pub fn prompts(mut self, fuzz: bool) -> Self {
        self.prompts = Some(fuzz);
        self
    }

    /// A regression file: the inputs of its past findings are sent first, and every new
    /// finding is added to it. Commit it with the tests, as proptest's regression files.
    pub fn regressions(mut self, path: impl Into<PathBuf>) -> Self {
        self.regressions = Some(path.into());
        self
    }

    /// Every warning fails ([`Report::strictly`]): an extra property accepted where
    /// `additionalProperties` is false, a prompt that serves a missing required argument (a
    /// SHOULD of the specification), a finding seen only with other calls in flight, a slow
    /// tool, and the run's own warnings (a schema no input can be generated from, a subject
    /// never called, calls the server kept refusing with HTTP 429).
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// How reproductions name the server on the `mcp-assured` command line, in place of its
    /// command or URL: e.g. `--config mcp.json --server mine`, when the command, filled in
    /// from the environment, may hold a secret. Credentials (headers, tokens) are never part
    /// of a reproduction; add them to the command line it shows.
    pub fn reproduce_as(mut self, words: impl Into<String>) -> Self {
        self.reproduce_as = Some(words.into());
        self
    }

    /// Called every [`PROGRESS_EVERY`](super::PROGRESS_EVERY) while the run goes on, with
    /// the calls sent, the failures seen and the time left (a progress bar, say; the
    /// command line's on a terminal).
    pub fn progress(mut self, report: impl Fn(&FuzzProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(std::sync::Arc::new(report));
        self
    }

    /// How to start the server again after a call killed it, when the client cannot do it
    /// itself: a stdio server is started again by
    /// [`McpClient::reconnect`](crate::McpClient::reconnect), but a server the test started
    /// over HTTP needs starting anew. The closure returns a client connected to the new one.
    pub fn restart_with<F, Fut>(mut self, restart: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = Result<McpClient>> + Send + 'static,
    {
        self.restart = Some(std::sync::Arc::new(move || Box::pin(restart())));
        self
    }

    /// A property of every valid call of every tool fuzzed (those named with
    /// [`tool`](Self::tool), or all; [`property_of`](Self::property_of) states one of one
    /// tool): the closure gets the arguments and the result and
    /// returns `bool`, `Result<(), E: Display>`, or `()` and panics (an assertion) when it
    /// does not hold. A call for which it does not hold is a finding, shrunk to the
    /// smallest arguments that still break it.
    ///
    /// A property is asked of the results of valid input that are no tool error (a tool
    /// error on valid input is judged on its own: a crash answered as one, say), so state
    /// what a served answer must be, not that there is one:
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::{McpAssured, ToolResult, fuzz, prelude::*, report::FindingKind};
    /// use mcp_assured_examples::ExampleServer;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// let sum = |result: &ToolResult| {
    ///     let structured = result.structured_content.as_ref()?;
    ///     structured["sum"].as_f64()
    /// };
    /// let report = client
    ///     .fuzz()
    ///     .tool("add")
    ///     .cases(50)
    ///     .seed(7)
    ///     .property("the sum is a number", move |_arguments, result| {
    ///         sum(result).is_some_and(f64::is_finite)
    ///     })
    ///     .run()
    ///     .await;
    /// report.assert().no_findings();
    ///
    /// // One that does not hold is found, with the smallest arguments that break it.
    /// let report = client
    ///     .fuzz()
    ///     .tool("add")
    ///     .cases(50)
    ///     .seed(7)
    ///     .property("the sum is positive", move |_arguments, result| {
    ///         sum(result).is_some_and(|sum| sum > 0.0)
    ///     })
    ///     .run()
    ///     .await;
    /// let found = fuzz::findings(&report);
    /// assert_eq!(found[0].kind, FindingKind::Property);
    /// assert_eq!(found[0].property.as_deref(), Some("the sum is positive"));
    /// assert!(!report.is_success());
    /// # Ok(()) }
    /// ```
    pub fn property<F, O>(mut self, name: impl Into<String>, check: F) -> Self
    where
        F: Fn(&Value, &ToolResult) -> O + Send + Sync + 'static,
        O: PropertyOutcome,
    {
        self.properties.push(Property::new(None, name, check));
        self
    }

    /// A property of every valid call of the tool named `tool` only (see
    /// [`property`](Self::property)), which need not be named with [`tool`](Self::tool).
    ///
    /// ```no_run
    /// # async fn demo(client: mcp_assured::McpClient) {
    /// use mcp_assured::prelude::*;
    ///
    /// let report = client
    ///     .fuzz()
    ///     .property_of("search", "never more than limit results", |args, result| {
    ///         let limit = args["limit"].as_u64().unwrap_or(5) as usize;
    ///         result.text().lines().count() <= limit
    ///     })
    ///     .run()
    ///     .await;
    /// report.assert().no_findings();
    /// # }
    /// ```
    pub fn property_of<F, O>(
        mut self,
        tool: impl Into<String>,
        name: impl Into<String>,
        check: F,
    ) -> Self
    where
        F: Fn(&Value, &ToolResult) -> O + Send + Sync + 'static,
        O: PropertyOutcome,
    {
        self.properties
            .push(Property::new(Some(tool.into()), name, check));
        self
    }

    /// Fuzzes the server and returns what was found: an entry per finding (failed, or
    /// warned for a SHOULD), each carrying a [`Finding`](super::Finding) in
    /// `details.finding` with a shrunk input and its reproduction; a passed entry per
    /// subject with none; and `fuzz.run`, with the seed.
    ///
    /// A stdio server that crashes is started again and the run goes on; what killed it is
    /// in the finding. The client the run was made from is then closed (its server is gone),
    /// and the run's own closed at its end: connect again, or call
    /// [`McpClient::reconnect`], to go on with the server. A server that cannot be started
    /// again (in process, or at a URL without [`restart_with`](Self::restart_with)) ends the
    /// run, and the subjects left are reported as not fuzzed.
    pub async fn run(self) -> Report {
        let started = Instant::now();
        let from_environment = seed_from_environment();
        let seed = self
            .seed
            .or(from_environment
                .as_ref()
                .and_then(|seed| seed.as_ref().ok().copied()))
            .unwrap_or_else(random_seed);
        let mut plan = Plan::new(seed, self.strict, self.client.protocol_version());
        if self.seed.is_none()
            && let Some(Err(unreadable)) = &from_environment
        {
            plan.setup_warning(format!(
                "{SEED_VARIABLE}={unreadable:?} is not a seed (a number from 0 to {}); a random \
                 seed was used",
                u64::MAX
            ));
        }
        let subjects = match self.subjects(&mut plan).await {
            Ok(subjects) => subjects,
            Err(error) => {
                plan.listing_failed(error);
                return plan.report(Vec::new(), started.elapsed(), RunEnd::default());
            }
        };
        let past = match &self.regressions {
            Some(path) => match regressions::load(path) {
                Ok(past) => past,
                Err(error) => {
                    plan.listing_failed(error);
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        let call_timeout = self
            .call_timeout
            .unwrap_or_else(|| DEFAULT_CALL_TIMEOUT.min(self.client.timeout()));
        let session = Session::new(self.client.clone(), call_timeout, self.restart.clone());
        let mut runs = Vec::new();
        for subject in subjects {
            if subject.is_destructive() && !self.include_destructive {
                plan.destructive(&subject);
                continue;
            }
            match Generator::new(&subject.argument_schema()) {
                Ok(generator) => runs.push((subject, generator)),
                Err(unsupported) => plan.unsupported(&subject, &unsupported),
            }
        }
        let context = Context {
            session: &session,
            in_flight: Semaphore::new(self.concurrency),
            concurrency: self.concurrency,
            seed,
            cases: self.cases,
            shrink_calls: SHRINK_CALLS,
            deadline: self.time_budget.map(|budget| started + budget),
            properties: &self.properties,
            reached: match &self.reproduce_as {
                Some(words) => Some(Reached::Named(words.clone())),
                None => self.client.reached_by(),
            },
            out_of_time: AtomicBool::new(false),
            wire: crate::wire_schema::schema_for(self.client.protocol_version()),
            roots: root_paths(&self.client),
            own_folders: match self.client.reached_by() {
                Some(Reached::Command(command)) => OwnFolders::of_command(&command),
                _ => OwnFolders::default(),
            },
            all_sent: tokio::sync::Barrier::new(runs.len()),
            calls: Default::default(),
            failures: Default::default(),
            subjects_done: Default::default(),
            reporting_progress: Default::default(),
        };
        let subjects = runs.len();
        let work = join_all(runs.into_iter().map(|(subject, generator)| {
            let mine: Vec<Regression> = past
                .iter()
                .filter(|r| r.subject == subject.kind() && r.name == subject.name())
                .cloned()
                .collect();
            let context = &context;
            // Boxed: a subject's future nests many, and laid out inline in the caller's (a
            // test's, inside `#[mcp_test]`) it would pass the compiler's depth limit.
            async move { Box::pin(fuzz_subject(context, subject, generator, &mine)).await }
        }));
        let results: Vec<SubjectRun> = match &self.progress {
            None => work.await,
            Some(report) => {
                let how_far = || FuzzProgress {
                    elapsed: started.elapsed(),
                    calls: context.calls.load(std::sync::atomic::Ordering::Relaxed),
                    failures: context.failures.load(std::sync::atomic::Ordering::Relaxed),
                    subjects,
                    subjects_done: context
                        .subjects_done
                        .load(std::sync::atomic::Ordering::Relaxed),
                    planned_inputs: subjects as u64 * u64::from(self.cases) * 2,
                    time_budget: self.time_budget,
                };
                tokio::pin!(work);
                let mut ticks = tokio::time::interval(super::PROGRESS_EVERY);
                let results = loop {
                    tokio::select! {
                        results = &mut work => break results,
                        _ = ticks.tick() => report(&how_far()),
                    }
                };
                report(&how_far());
                results
            }
        };
        if let Some(path) = &self.regressions {
            let found: Vec<Regression> = results
                .iter()
                .flat_map(|run| &run.findings)
                .filter_map(Regression::of)
                .collect();
            if let Err(error) = regressions::save(path, &found) {
                plan.listing_failed(error);
            }
        }
        let out_of_time = context
            .out_of_time
            .load(std::sync::atomic::Ordering::Relaxed);
        let end = RunEnd {
            restarts: session.restarts(),
            second_process_starts: session.probe_starts(),
            out_of_time,
            deaths: session.deaths.lock().expect("never poisoned").clone(),
            throttling: session.throttling(),
        };
        session.close_probe().await;
        // A client the run started itself is closed; the caller's is theirs.
        if end.restarts > 0
            && let Some(client) = session.current_client().await
        {
            let _ = client.close().await;
        }
        plan.report(results, started.elapsed(), end)
    }

    /// What the server offers that is to be fuzzed, in the order listed.
    /// A failed list of templates or prompts is a warning in `plan`, and the tools are still
    /// fuzzed; a failed list of tools fails.
    async fn subjects(&self, plan: &mut Plan) -> Result<Vec<Subject>> {
        let named = &self.tools;
        // Listed once: what is fuzzed, and what an unknown name is told it could have been.
        let offered: Vec<Subject> = self
            .client
            .list_tools_json()
            .await?
            .iter()
            .filter_map(Subject::tool)
            .collect();
        if let Some(unknown) = named
            .iter()
            .find(|n| !offered.iter().any(|s| s.name() == *n))
        {
            return Err(Error::NotFound {
                kind: "tool",
                name: unknown.clone(),
                available: offered.iter().map(|s| s.name().to_owned()).collect(),
            });
        }
        let mut subjects: Vec<Subject> = offered
            .into_iter()
            .filter(|subject| named.is_empty() || named.iter().any(|n| n == subject.name()))
            .filter(|subject| !self.excluded.iter().any(|e| e == subject.name()))
            .collect();
        let capabilities = self.client.server_capabilities();
        let everything = self.tools.is_empty();
        if self.templates.unwrap_or(everything) && capabilities.get("resources").is_some() {
            let listed = all_pages(
                &self.client,
                "resources/templates/list",
                "resourceTemplates",
            )
            .await;
            match listed {
                Ok(templates) => subjects.extend(templates.iter().filter_map(Subject::template)),
                Err(error) => plan.setup_warning(format!(
                    "resource templates not fuzzed: resources/templates/list failed: {error}"
                )),
            }
        }
        if self.prompts.unwrap_or(everything) && capabilities.get("prompts").is_some() {
            match all_pages(&self.client, "prompts/list", "prompts").await {
                Ok(prompts) => subjects.extend(prompts.iter().filter_map(Subject::prompt)),
                Err(error) => {
                    plan.setup_warning(format!("prompts not fuzzed: prompts/list failed: {error}"))
                }
            }
        }
        Ok(subjects)
    }
}

/// Every item of a paginated list, as the server sent them.
async fn all_pages(client: &McpClient, method: &str, field: &str) -> Result<Vec<Value>> {
    let mut items = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..100 {
        let params = match &cursor {
            Some(cursor) => serde_json::json!({"cursor": cursor}),
            None => serde_json::json!({}),
        };
        let page = client.request(method, params).await?;
        items.extend(
            page.get(field)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default(),
        );
        cursor = page
            .get("nextCursor")
            .and_then(Value::as_str)
            .map(str::to_owned);
        if cursor.is_none() {
            break;
        }
    }
    Ok(items)
}

/// The seed `MCP_ASSURED_FUZZ_SEED` sets, or what it holds when that is not one.
fn seed_from_environment() -> Option<std::result::Result<u64, String>> {
    let text = std::env::var(SEED_VARIABLE).ok()?;
    Some(text.trim().parse().map_err(|_| text))
}

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(Instant::now())
}

impl McpClient {
    /// A fuzz run of this server: every tool's arguments generated from its `inputSchema`
    /// (valid ones, which must be served, and invalid ones, which must be refused), and the
    /// variables of resource templates and arguments of prompts, judged for crashes, hangs,
    /// errors, leaked internals, output-schema violations and the properties given; each
    /// finding shrunk to the smallest input that still shows it. See [`crate::fuzz`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> mcp_assured::Result<()> {
    /// use mcp_assured::{McpAssured, prelude::*};
    /// use mcp_assured_examples::ExampleServer;
    ///
    /// let client = McpAssured::client().service(ExampleServer::new()).build().await?;
    /// // Its `crash` tool exits the process, which in process is this one: one tool only.
    /// let report = client.fuzz().tool("echo").cases(20).seed(1).run().await;
    /// println!("{report}");
    /// # Ok(()) }
    /// ```
    pub fn fuzz(&self) -> Fuzz {
        Fuzz::new(self.clone())
    }
}

/// The client's roots as paths (roots are SEP-2577-deprecated; sessions of 2025-11-25 still
/// ask for them).
#[allow(deprecated)]
fn root_paths(client: &McpClient) -> Vec<String> {
    super::leak::absolute_paths(client.roots().iter().map(|root| root.uri.as_str()))
}
