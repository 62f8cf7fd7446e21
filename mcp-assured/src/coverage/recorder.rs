//! Records what a client sends a server and what the server answers, into the coverage
//! file of the client: [`CoverageSink`] is the file (one per client, written when the client
//! closes or is dropped), [`SessionCoverage`] what one session of it sees go by.

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    io,
    path::{Path, PathBuf},
    sync::{
        Arc, Mutex, MutexGuard, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::{SystemTime, UNIX_EPOCH},
};

use serde_json::{Map, Value};

use super::record::{MAX_VALUES, Record, ServerCoverage, ServerId, ToolSurface};
use crate::schema::{self, Schema};

/// The environment variable that turns recording on for every client: the directory the
/// coverage files go to.
pub const ENV: &str = "MCP_ASSURED_COVERAGE";

/// The kinds of a server's surface a session can list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Kind {
    Tools,
    Prompts,
    Resources,
    Templates,
}

/// The coverage file of one client, shared by all its sessions.
#[derive(Clone)]
pub(crate) struct CoverageSink(Arc<Sink>);

struct Sink {
    file: PathBuf,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    servers: Vec<ServerCoverage>,
    /// What this client has listed to the last page, by server.
    complete: HashMap<ServerId, BTreeSet<Kind>>,
    /// The output schemas of the tools listed, by server and tool, compiled when first
    /// needed.
    output_schemas: HashMap<ServerId, HashMap<String, OutputSchema>>,
    /// The structured outputs of calls made before the tool was listed, by server and tool
    /// (at most [`MAX_WAITING`] each), checked when it is: counted unchecked meanwhile.
    waiting: HashMap<ServerId, HashMap<String, Vec<Value>>>,
    changed: bool,
}

/// How many outputs of a tool not listed yet are kept to check once it is.
const MAX_WAITING: usize = 32;

struct OutputSchema {
    raw: Value,
    compiled: Option<Arc<Schema>>,
}

impl std::fmt::Debug for CoverageSink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CoverageSink").field(&self.0.file).finish()
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // What it guards stays whole whatever panicked while holding it.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl CoverageSink {
    /// A new coverage file in `dir` (created if missing), named so that no other client, in
    /// this process or another, writes the same one.
    pub(crate) fn in_dir(dir: &Path) -> io::Result<CoverageSink> {
        static CLIENTS: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(dir)?;
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos());
        let name = format!(
            "{nanos:x}-{}-{}.coverage.json",
            std::process::id(),
            CLIENTS.fetch_add(1, Ordering::Relaxed)
        );
        Ok(CoverageSink(Arc::new(Sink {
            file: dir.join(name),
            state: Mutex::default(),
        })))
    }

    /// The directory of [`ENV`], when it is set and not empty.
    pub(crate) fn dir_from_env() -> Option<PathBuf> {
        std::env::var_os(ENV)
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
    }

    /// What one session of the client records through.
    pub(crate) fn session(&self, server: Option<ServerId>) -> SessionCoverage {
        let mut session = SessionCoverage {
            sink: self.clone(),
            server: None,
            pending: HashMap::new(),
        };
        if let Some(server) = server {
            session.meet(server);
        }
        session
    }

    /// The kinds of `server`'s surface this client has not listed to the last page.
    pub(crate) fn unlisted(&self, server: &ServerId) -> Vec<Kind> {
        let state = lock(&self.0.state);
        let complete = state.complete.get(server);
        [Kind::Tools, Kind::Prompts, Kind::Resources, Kind::Templates]
            .into_iter()
            .filter(|kind| complete.is_none_or(|done| !done.contains(kind)))
            .collect()
    }

    /// `server` offers no `kind` (its capabilities say so): its surface of that kind is
    /// empty, not unknown.
    pub(crate) fn offers_none(&self, server: &ServerId, kind: Kind) {
        let mut empty = super::record::Surface::default();
        match kind {
            Kind::Tools => empty.tools = Some(Default::default()),
            Kind::Prompts => empty.prompts = Some(Default::default()),
            Kind::Resources => empty.resources = Some(Default::default()),
            Kind::Templates => empty.templates = Some(Default::default()),
        }
        self.with_server(server, |coverage| coverage.listed.merge(empty));
        self.completed(server, kind);
    }

    /// Writes the file, if anything was recorded since it was last written.
    pub(crate) fn write(&self) -> io::Result<()> {
        self.0.write()
    }

    fn with_server<R>(
        &self,
        server: &ServerId,
        change: impl FnOnce(&mut ServerCoverage) -> R,
    ) -> R {
        let mut state = lock(&self.0.state);
        state.changed = true;
        let index = match state.servers.iter().position(|s| &s.server == server) {
            Some(index) => index,
            None => {
                state.servers.push(ServerCoverage::new(server.clone()));
                state.servers.len() - 1
            }
        };
        change(&mut state.servers[index])
    }

    fn completed(&self, server: &ServerId, kind: Kind) {
        lock(&self.0.state)
            .complete
            .entry(server.clone())
            .or_default()
            .insert(kind);
    }
}

impl Sink {
    fn write(&self) -> io::Result<()> {
        let text = {
            let mut state = lock(&self.state);
            if !state.changed {
                return Ok(());
            }
            state.changed = false;
            serde_json::to_string_pretty(&Record::new(state.servers.clone()))
                .expect("a coverage record serialises")
        };
        // Written beside and renamed: a reader never sees half a file.
        let partial = self.file.with_extension("partial");
        std::fs::write(&partial, text)?;
        std::fs::rename(&partial, &self.file)
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Err(error) = self.write() {
            eprintln!(
                "mcp-assured: the coverage record {} could not be written: {error}",
                self.file.display()
            );
        }
    }
}

/// A request on its way, and what its answer is recorded as.
enum Pending {
    Initialize,
    List(Kind),
    Call(String),
    GetPrompt(String),
    Read(String),
}

/// What one session records: its requests, paired with their answers by id.
pub(crate) struct SessionCoverage {
    sink: CoverageSink,
    server: Option<ServerId>,
    pending: HashMap<String, Pending>,
}

/// A successful result's structured output against the tool's output schema.
enum Output {
    /// The tool declares none.
    NoSchema,
    Valid,
    Invalid,
    /// The schema was not listed on this session, or this build cannot check schemas.
    Unchecked,
}

impl SessionCoverage {
    fn meet(&mut self, server: ServerId) {
        // An entry even for a server nothing is sent to: its surface is listed at close.
        self.sink.with_server(&server, |_| ());
        self.server = Some(server);
    }

    /// A message the client sends (only requests count).
    pub(crate) fn sent(&mut self, message: &Value) {
        let (Some(id), Some(method)) = (
            message.get("id"),
            message.get("method").and_then(Value::as_str),
        ) else {
            return;
        };
        let params = message.get("params").unwrap_or(&Value::Null);
        let name = |key: &str| {
            params
                .get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let pending = match method {
            "initialize" => Pending::Initialize,
            "tools/list" => Pending::List(Kind::Tools),
            "prompts/list" => Pending::List(Kind::Prompts),
            "resources/list" => Pending::List(Kind::Resources),
            "resources/templates/list" => Pending::List(Kind::Templates),
            "tools/call" => {
                let tool = name("name");
                self.called(&tool, params.get("arguments").and_then(Value::as_object));
                Pending::Call(tool)
            }
            "prompts/get" => Pending::GetPrompt(name("name")),
            "resources/read" => Pending::Read(name("uri")),
            _ => return,
        };
        self.pending.insert(id.to_string(), pending);
    }

    /// A `tools/call` the client sends, with request id `id` (its JSON text).
    pub(crate) fn sent_call(
        &mut self,
        id: String,
        tool: &str,
        arguments: Option<&Map<String, Value>>,
    ) {
        self.called(tool, arguments);
        self.pending.insert(id, Pending::Call(tool.to_owned()));
    }

    /// A `tools/call` result for request `id` (its JSON text); `false`, and nothing
    /// recorded, when `id` is not a `tools/call` on its way.
    pub(crate) fn received_call_result(&mut self, id: &str, result: CallResult<'_>) -> bool {
        if !matches!(self.pending.get(id), Some(Pending::Call(_))) {
            return false;
        }
        let Some(Pending::Call(tool)) = self.pending.remove(id) else {
            unreachable!("checked above")
        };
        if let Some(server) = &self.server {
            self.answered(server, &tool, Some(result));
        }
        true
    }

    /// A message from the server.
    pub(crate) fn received(&mut self, message: &Value) {
        let Some(id) = message.get("id") else {
            if let Some(method) = message.get("method").and_then(Value::as_str)
                && let Some(server) = &self.server
            {
                self.sink.with_server(server, |coverage| {
                    *coverage
                        .exercised
                        .notifications
                        .entry(method.to_owned())
                        .or_default() += 1;
                });
            }
            return;
        };
        if message.get("method").is_some() {
            return; // a request of the server's
        }
        let Some(pending) = self.pending.remove(&id.to_string()) else {
            return;
        };
        let result = message.get("result");
        if let Pending::Initialize = pending {
            if let Some(info) = result.and_then(|result| result.get("serverInfo")) {
                let text = |key: &str| {
                    info.get(key)
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned()
                };
                self.meet(ServerId {
                    name: text("name"),
                    version: text("version"),
                });
            }
            return;
        }
        let Some(server) = self.server.clone() else {
            return;
        };
        match (pending, result) {
            (Pending::List(kind), Some(result)) => self.listed(&server, kind, result),
            (Pending::Call(tool), result) => {
                self.answered(&server, &tool, result.map(CallResult::of));
            }
            (Pending::GetPrompt(name), Some(_)) => self.sink.with_server(&server, |coverage| {
                *coverage.exercised.prompts.entry(name).or_default() += 1;
            }),
            (Pending::Read(uri), Some(_)) => self.sink.with_server(&server, |coverage| {
                *coverage.exercised.resources.entry(uri).or_default() += 1;
            }),
            _ => {}
        }
    }

    /// A page of a list.
    fn listed(&mut self, server: &ServerId, kind: Kind, result: &Value) {
        let items = |key: &str| {
            result
                .get(key)
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default()
        };
        let names = |key: &str, field: &str| -> BTreeSet<String> {
            items(key)
                .iter()
                .filter_map(|item| item.get(field).and_then(Value::as_str))
                .map(str::to_owned)
                .collect()
        };
        match kind {
            Kind::Tools => {
                let mut schemas = HashMap::new();
                let tools: BTreeMap<String, ToolSurface> = items("tools")
                    .iter()
                    .filter_map(|tool| {
                        let name = tool.get("name")?.as_str()?.to_owned();
                        if let Some(schema) = tool.get("outputSchema").filter(|s| s.is_object()) {
                            let schema = OutputSchema {
                                raw: schema.clone(),
                                compiled: None,
                            };
                            schemas.insert(name.clone(), schema);
                        }
                        Some((name, ToolSurface::from_tool(tool)))
                    })
                    .collect();
                let listed: Vec<String> = tools.keys().cloned().collect();
                lock(&self.sink.0.state)
                    .output_schemas
                    .entry(server.clone())
                    .or_default()
                    .extend(schemas);
                self.check_waiting(server, &listed);
                self.merge_listed(server, |surface| surface.tools = Some(tools));
            }
            Kind::Prompts => self.merge_listed(server, |surface| {
                surface.prompts = Some(names("prompts", "name"));
            }),
            Kind::Resources => self.merge_listed(server, |surface| {
                surface.resources = Some(names("resources", "uri"));
            }),
            Kind::Templates => self.merge_listed(server, |surface| {
                surface.templates = Some(names("resourceTemplates", "uriTemplate"));
            }),
        }
        let last_page = result
            .get("nextCursor")
            .is_none_or(|cursor| cursor.is_null() || cursor == "");
        if last_page {
            self.sink.completed(server, kind);
        }
    }

    fn merge_listed(&self, server: &ServerId, fill: impl FnOnce(&mut super::record::Surface)) {
        let mut page = super::record::Surface::default();
        fill(&mut page);
        self.sink
            .with_server(server, |coverage| coverage.listed.merge(page));
    }

    /// A `tools/call` going out: the tool, its arguments present and their values.
    fn called(&mut self, tool: &str, arguments: Option<&Map<String, Value>>) {
        let Some(server) = &self.server else { return };
        self.sink.with_server(server, |coverage| {
            let listed = coverage
                .listed
                .tools
                .as_ref()
                .and_then(|tools| tools.get(tool));
            let use_ = match coverage.exercised.tools.get_mut(tool) {
                Some(use_) => use_,
                None => coverage.exercised.tools.entry(tool.to_owned()).or_default(),
            };
            use_.calls += 1;
            for (name, value) in arguments.into_iter().flatten() {
                let argument = match use_.arguments.get_mut(name) {
                    Some(argument) => argument,
                    None => use_.arguments.entry(name.clone()).or_default(),
                };
                argument.present += 1;
                if value.is_object() || value.is_array() {
                    continue;
                }
                let text = value.to_string();
                if let Some(count) = argument.values.get_mut(&text) {
                    *count += 1;
                    continue;
                }
                let listed_value = listed
                    .and_then(|tool| tool.arguments.get(name))
                    .is_some_and(|listed| listed.values.contains(value));
                if listed_value || argument.values.len() < MAX_VALUES {
                    argument.values.insert(text, 1);
                }
            }
        });
    }

    /// The answer to a `tools/call`: a result (error or not, its output checked against the
    /// output schema listed), or a JSON-RPC error (`None`).
    fn answered(&self, server: &ServerId, tool: &str, result: Option<CallResult<'_>>) {
        let output = match result {
            Some(result) if !result.is_error => {
                Some(self.check_output(server, tool, result.structured))
            }
            _ => None,
        };
        self.sink.with_server(server, |coverage| {
            let use_ = match coverage.exercised.tools.get_mut(tool) {
                Some(use_) => use_,
                None => coverage.exercised.tools.entry(tool.to_owned()).or_default(),
            };
            match (result, output) {
                (None, _) => use_.outcomes.protocol_error += 1,
                (Some(_), None) => use_.outcomes.is_error += 1,
                (Some(_), Some(output)) => {
                    use_.outcomes.success += 1;
                    match output {
                        Output::NoSchema => {}
                        Output::Valid => use_.output.valid += 1,
                        Output::Invalid => use_.output.invalid += 1,
                        Output::Unchecked => use_.output.unchecked += 1,
                    }
                }
            }
        });
    }

    /// Checks the outputs kept of `tools` (just listed) before they were listed: each
    /// counted unchecked becomes valid or invalid, or goes if the tool declares no schema.
    fn check_waiting(&self, server: &ServerId, tools: &[String]) {
        let mut state = lock(&self.sink.0.state);
        let state = &mut *state;
        let Some(waiting) = state.waiting.get_mut(server) else {
            return;
        };
        let Some(index) = state.servers.iter().position(|s| &s.server == server) else {
            return;
        };
        for tool in tools {
            let Some(outputs) = waiting.remove(tool) else {
                continue;
            };
            let schema = state
                .output_schemas
                .get_mut(server)
                .and_then(|schemas| schemas.get_mut(tool));
            let Some(use_) = state.servers[index].exercised.tools.get_mut(tool) else {
                continue;
            };
            let checked = &mut use_.output;
            checked.unchecked = checked.unchecked.saturating_sub(outputs.len() as u64);
            let Some(schema) = schema else { continue };
            let raw = &schema.raw;
            let compiled = schema
                .compiled
                .get_or_insert_with(|| Arc::new(Schema::compile(raw)));
            for output in outputs {
                if !output.is_null() && compiled.violations(&output).is_empty() {
                    checked.valid += 1;
                } else {
                    checked.invalid += 1;
                }
            }
        }
        state.changed = true;
    }

    /// A successful result's structured output against the tool's output schema.
    fn check_output(&self, server: &ServerId, tool: &str, structured: Option<&Value>) -> Output {
        let compiled = {
            let mut state = lock(&self.sink.0.state);
            let listed = state
                .servers
                .iter()
                .find(|coverage| &coverage.server == server)
                .and_then(|coverage| coverage.listed.tools.as_ref())
                .is_some_and(|tools| tools.contains_key(tool));
            let schema = state
                .output_schemas
                .get_mut(server)
                .and_then(|schemas| schemas.get_mut(tool));
            match schema {
                None if listed => return Output::NoSchema,
                None => {
                    if schema::unavailable().is_none() {
                        let waiting = state
                            .waiting
                            .entry(server.clone())
                            .or_default()
                            .entry(tool.to_owned())
                            .or_default();
                        if waiting.len() < MAX_WAITING {
                            waiting.push(structured.cloned().unwrap_or(Value::Null));
                        }
                    }
                    return Output::Unchecked;
                }
                Some(_) if schema::unavailable().is_some() => return Output::Unchecked,
                Some(schema) => {
                    let raw = &schema.raw;
                    schema
                        .compiled
                        .get_or_insert_with(|| Arc::new(Schema::compile(raw)))
                        .clone()
                }
            }
        };
        let conforms =
            structured.is_some_and(|structured| compiled.violations(structured).is_empty());
        if conforms {
            Output::Valid
        } else {
            Output::Invalid
        }
    }
}

/// What the record needs of a `tools/call` result.
#[derive(Clone, Copy)]
pub(crate) struct CallResult<'a> {
    pub(crate) is_error: bool,
    pub(crate) structured: Option<&'a Value>,
}

impl<'a> CallResult<'a> {
    fn of(result: &'a Value) -> CallResult<'a> {
        CallResult {
            is_error: result.get("isError").and_then(Value::as_bool) == Some(true),
            structured: result.get("structuredContent"),
        }
    }
}
