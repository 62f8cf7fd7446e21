//! The coverage of each server against what it listed: the tallies, what was never
//! exercised (by name), what was exercised but never listed, and the thresholds a suite must
//! reach.

use std::{collections::BTreeMap, fmt};

use serde::Serialize;
use serde_json::Value;

use super::{
    record::{Outcomes, OutputChecks, ServerCoverage, ServerId, ToolSurface, ToolUse},
    uri_template,
};

/// The coverage of every server recorded, in name order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct CoverageReport {
    /// One report per server (name and version).
    pub servers: Vec<ServerReport>,
}

/// The coverage of one server.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ServerReport {
    /// Which server.
    pub server: ServerId,
    /// How many records (clients' files) were merged.
    pub records: u64,
    /// Listed tools called at least once.
    pub tools: Tally,
    /// Listed top-level arguments of listed tools, each sent at least once.
    pub arguments: Tally,
    /// The enum values (and `false`, `true` of booleans) of listed arguments, each sent at
    /// least once.
    pub values: Tally,
    /// Two per listed tool, a success and an `isError` result, each seen at least once.
    pub outcomes: Tally,
    /// Listed prompts got at least once.
    pub prompts: Tally,
    /// Listed resources read at least once.
    pub resources: Tally,
    /// Listed resource templates, a URI of each read at least once.
    pub templates: Tally,
    /// What was never exercised, by name.
    pub uncovered: Uncovered,
    /// What was exercised but never listed.
    pub unlisted: Unlisted,
    /// The kinds (`tools`, `prompts`, `resources`, `templates`) no record listed: their
    /// tallies are empty, whatever was exercised of them.
    pub never_listed: Vec<String>,
    /// Each tool listed or called, in name order.
    pub tool_calls: Vec<ToolRow>,
    /// The server's notifications, by method: how many came.
    pub notifications: BTreeMap<String, u64>,
}

/// How many of so many were covered.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Tally {
    /// Covered.
    pub covered: u64,
    /// Listed.
    pub total: u64,
    /// `covered` of `total` in percent; `null` when nothing was listed.
    pub percent: Option<f64>,
}

impl Tally {
    fn new(covered: u64, total: u64) -> Tally {
        let percent = (total > 0).then(|| covered as f64 * 100.0 / total as f64);
        Tally {
            covered,
            total,
            percent,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.percent {
            Some(percent) => write!(f, "{}/{} ({percent:.1}%)", self.covered, self.total),
            None => f.write_str("none listed"),
        }
    }
}

/// What was listed but never exercised.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Uncovered {
    /// Tools never called.
    pub tools: Vec<String>,
    /// Arguments never sent (of tools called or not).
    pub arguments: Vec<ArgumentRef>,
    /// Values never sent.
    pub values: Vec<ValueRef>,
    /// Outcomes never seen.
    pub outcomes: Vec<OutcomeRef>,
    /// Prompts never got.
    pub prompts: Vec<String>,
    /// Resources never read.
    pub resources: Vec<String>,
    /// Templates no URI of which was read.
    pub templates: Vec<String>,
}

impl Uncovered {
    /// Whether everything listed was exercised.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.arguments.is_empty()
            && self.values.is_empty()
            && self.outcomes.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
            && self.templates.is_empty()
    }

    /// Whether `tool` was called (it is not among the tools never called): the reports show
    /// a tool never called as one item, not one per argument, value and outcome of it.
    pub fn called(&self, tool: &str) -> bool {
        !self.tools.iter().any(|never| never == tool)
    }
}

/// What was exercised but never listed.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Unlisted {
    /// Tools called but not in `tools/list`.
    pub tools: Vec<String>,
    /// Arguments sent to listed tools that their input schemas do not name.
    pub arguments: Vec<ArgumentRef>,
    /// Prompts got but not in `prompts/list`.
    pub prompts: Vec<String>,
    /// URIs read that are neither listed resources nor match a listed template.
    pub resources: Vec<String>,
}

impl Unlisted {
    /// Whether nothing was exercised that was not listed.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
            && self.arguments.is_empty()
            && self.prompts.is_empty()
            && self.resources.is_empty()
    }
}

/// An argument of a tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ArgumentRef {
    /// The tool's name.
    pub tool: String,
    /// The argument's name.
    pub argument: String,
}

/// A value of a tool's argument.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValueRef {
    /// The tool's name.
    pub tool: String,
    /// The argument's name.
    pub argument: String,
    /// The value.
    pub value: Value,
}

/// An outcome of a tool's calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct OutcomeRef {
    /// The tool's name.
    pub tool: String,
    /// Which outcome.
    pub outcome: Outcome,
}

/// The outcomes counted for each tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub enum Outcome {
    /// A result without `isError: true`.
    #[serde(rename = "success")]
    Success,
    /// A result with `isError: true`.
    #[serde(rename = "isError")]
    IsError,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Success => "a success",
            Outcome::IsError => "an isError result",
        })
    }
}

/// One tool's line in the table.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ToolRow {
    /// The tool's name.
    pub name: String,
    /// Whether `tools/list` named it.
    pub listed: bool,
    /// How many calls named it.
    pub calls: u64,
    /// Its listed arguments sent.
    pub arguments: Tally,
    /// Its listed values sent.
    pub values: Tally,
    /// How its calls were answered.
    pub outcomes: Outcomes,
    /// Its structured outputs against its output schema (all zero when it declares none).
    pub output: OutputChecks,
    /// Each argument, listed or sent, in name order: how often present and absent, and the
    /// values sent of those the schema lists.
    pub argument_uses: Vec<ArgumentRow>,
}

impl ToolRow {
    /// Each argument as sent of the calls, with the listed values' counts:
    /// `city 2/2, units 1/2 ("metric"×1 "imperial"×0)`; empty for a tool with none.
    pub fn arguments_sent(&self) -> String {
        let arguments: Vec<String> = self
            .argument_uses
            .iter()
            .map(|argument| {
                let mut text = format!("{} {}/{}", argument.name, argument.present, self.calls);
                if !argument.values.is_empty() {
                    let values: Vec<String> = argument
                        .values
                        .iter()
                        .map(|value| format!("{}×{}", value.value, value.sent))
                        .collect();
                    text.push_str(&format!(" ({})", values.join(" ")));
                }
                text
            })
            .collect();
        arguments.join(", ")
    }
}

/// One argument of one tool's calls.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ArgumentRow {
    /// The argument's name.
    pub name: String,
    /// Whether the tool's input schema names it.
    pub listed: bool,
    /// Whether the input schema requires it.
    pub required: bool,
    /// In how many calls it was present.
    pub present: u64,
    /// In how many it was absent.
    pub absent: u64,
    /// The values the schema lists (its enum, or `false` and `true`), each with how often
    /// it was sent (0 for one never sent).
    pub values: Vec<ValueCount>,
}

/// A listed value of an argument, and how often it was sent.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValueCount {
    /// The value.
    pub value: Value,
    /// How many calls sent it.
    pub sent: u64,
}

/// Each argument of a tool, listed (`listed`) or sent (`used`), as the table shows it.
fn argument_rows(listed: Option<&ToolSurface>, used: Option<&ToolUse>) -> Vec<ArgumentRow> {
    let calls = used.map_or(0, |used| used.calls);
    let mut names: Vec<&String> = listed
        .map(|tool| tool.arguments.keys().collect())
        .unwrap_or_default();
    for name in used.into_iter().flat_map(|used| used.arguments.keys()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let surface = listed.and_then(|tool| tool.arguments.get(name));
            let sent = used.and_then(|used| used.arguments.get(name));
            let present = sent.map_or(0, |sent| sent.present);
            let values = surface
                .map(|surface| {
                    surface
                        .values
                        .iter()
                        .map(|value| ValueCount {
                            value: value.clone(),
                            sent: sent
                                .and_then(|sent| sent.values.get(&value.to_string()))
                                .copied()
                                .unwrap_or(0),
                        })
                        .collect()
                })
                .unwrap_or_default();
            ArgumentRow {
                name: name.clone(),
                listed: surface.is_some(),
                required: surface.is_some_and(|surface| surface.required),
                present,
                absent: calls.saturating_sub(present),
                values,
            }
        })
        .collect()
}

impl ServerReport {
    /// The report of one server's merged record.
    pub fn of(coverage: &ServerCoverage) -> ServerReport {
        let listed = &coverage.listed;
        let exercised = &coverage.exercised;
        let mut uncovered = Uncovered::default();
        let mut unlisted = Unlisted::default();
        let mut never_listed = Vec::new();
        let mut tool_calls = Vec::new();
        let (mut tools, mut arguments, mut values, mut outcomes) =
            ([0u64; 2], [0; 2], [0; 2], [0; 2]);
        let empty = BTreeMap::new();
        let listed_tools = listed.tools.as_ref().unwrap_or_else(|| {
            never_listed.push("tools".to_owned());
            &empty
        });
        for (name, tool) in listed_tools {
            let used = exercised.tools.get(name);
            let calls = used.map_or(0, |used| used.calls);
            tools[1] += 1;
            if calls > 0 {
                tools[0] += 1;
            } else {
                uncovered.tools.push(name.clone());
            }
            let (mut tool_arguments, mut tool_values) = ([0u64; 2], [0u64; 2]);
            for (argument, surface) in &tool.arguments {
                let sent = used.and_then(|used| used.arguments.get(argument));
                tool_arguments[1] += 1;
                if sent.is_some_and(|sent| sent.present > 0) {
                    tool_arguments[0] += 1;
                } else {
                    uncovered.arguments.push(ArgumentRef {
                        tool: name.clone(),
                        argument: argument.clone(),
                    });
                }
                for value in &surface.values {
                    tool_values[1] += 1;
                    let text = value.to_string();
                    if sent.is_some_and(|sent| sent.values.get(&text).is_some_and(|n| *n > 0)) {
                        tool_values[0] += 1;
                    } else {
                        uncovered.values.push(ValueRef {
                            tool: name.clone(),
                            argument: argument.clone(),
                            value: value.clone(),
                        });
                    }
                }
            }
            if let Some(used) = used {
                for argument in used.arguments.keys() {
                    if !tool.arguments.contains_key(argument) {
                        unlisted.arguments.push(ArgumentRef {
                            tool: name.clone(),
                            argument: argument.clone(),
                        });
                    }
                }
            }
            let seen = used.map(|used| used.outcomes.clone()).unwrap_or_default();
            outcomes[1] += 2;
            for (outcome, count) in [
                (Outcome::Success, seen.success),
                (Outcome::IsError, seen.is_error),
            ] {
                if count > 0 {
                    outcomes[0] += 1;
                } else {
                    uncovered.outcomes.push(OutcomeRef {
                        tool: name.clone(),
                        outcome,
                    });
                }
            }
            add(&mut arguments, tool_arguments);
            add(&mut values, tool_values);
            tool_calls.push(ToolRow {
                name: name.clone(),
                listed: true,
                calls,
                arguments: Tally::new(tool_arguments[0], tool_arguments[1]),
                values: Tally::new(tool_values[0], tool_values[1]),
                outcomes: seen,
                // A call made before the session listed the tool could not tell it has none.
                output: used
                    .filter(|_| tool.output_schema)
                    .map(|used| used.output.clone())
                    .unwrap_or_default(),
                argument_uses: argument_rows(Some(tool), used),
            });
        }
        for (name, used) in &exercised.tools {
            if listed_tools.contains_key(name) {
                continue;
            }
            unlisted.tools.push(name.clone());
            tool_calls.push(ToolRow {
                name: name.clone(),
                listed: false,
                calls: used.calls,
                arguments: Tally::new(0, 0),
                values: Tally::new(0, 0),
                outcomes: used.outcomes.clone(),
                output: used.output.clone(),
                argument_uses: argument_rows(None, Some(used)),
            });
        }
        tool_calls.sort_by(|a, b| a.name.cmp(&b.name));

        let prompts = match &listed.prompts {
            Some(names) => {
                for name in exercised.prompts.keys() {
                    if !names.contains(name) {
                        unlisted.prompts.push(name.clone());
                    }
                }
                tally_names(names.iter(), &mut uncovered.prompts, |name| {
                    exercised.prompts.contains_key(name)
                })
            }
            None => {
                never_listed.push("prompts".to_owned());
                unlisted.prompts.extend(exercised.prompts.keys().cloned());
                Tally::new(0, 0)
            }
        };
        let no_names = Default::default();
        let listed_resources = listed.resources.as_ref().unwrap_or(&no_names);
        let listed_templates = listed.templates.as_ref().unwrap_or(&no_names);
        for (kind, list) in [
            ("resources", &listed.resources),
            ("templates", &listed.templates),
        ] {
            if list.is_none() {
                never_listed.push(kind.to_owned());
            }
        }
        let resources = tally_names(listed_resources.iter(), &mut uncovered.resources, |uri| {
            exercised.resources.contains_key(uri)
        });
        let templates = tally_names(
            listed_templates.iter(),
            &mut uncovered.templates,
            |template| {
                exercised
                    .resources
                    .keys()
                    .any(|uri| uri_template::matches(template, uri))
            },
        );
        for uri in exercised.resources.keys() {
            let known = listed_resources.contains(uri)
                || listed_templates
                    .iter()
                    .any(|template| uri_template::matches(template, uri));
            if !known {
                unlisted.resources.push(uri.clone());
            }
        }
        ServerReport {
            server: coverage.server.clone(),
            records: coverage.records,
            tools: Tally::new(tools[0], tools[1]),
            arguments: Tally::new(arguments[0], arguments[1]),
            values: Tally::new(values[0], values[1]),
            outcomes: Tally::new(outcomes[0], outcomes[1]),
            prompts,
            resources,
            templates,
            uncovered,
            unlisted,
            never_listed,
            tool_calls,
            notifications: exercised.notifications.clone(),
        }
    }

    /// Each tally by the name the thresholds and the table use.
    pub fn tallies(&self) -> [(&'static str, Tally); 7] {
        [
            ("tools", self.tools),
            ("arguments", self.arguments),
            ("values", self.values),
            ("outcomes", self.outcomes),
            ("prompts", self.prompts),
            ("resources", self.resources),
            ("templates", self.templates),
        ]
    }
}

fn add(into: &mut [u64; 2], more: [u64; 2]) {
    into[0] += more[0];
    into[1] += more[1];
}

fn tally_names<'a>(
    names: impl Iterator<Item = &'a String>,
    uncovered: &mut Vec<String>,
    covered: impl Fn(&str) -> bool,
) -> Tally {
    let (mut hit, mut total) = (0, 0);
    for name in names {
        total += 1;
        if covered(name) {
            hit += 1;
        } else {
            uncovered.push(name.clone());
        }
    }
    Tally::new(hit, total)
}

/// The least coverage, in percent, a suite must reach; `None` sets no minimum. A tally with
/// nothing listed always passes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Thresholds {
    /// Of the listed tools, called.
    pub tools: Option<f64>,
    /// Of the listed arguments, sent.
    pub arguments: Option<f64>,
    /// Of the listed enum and boolean values, sent.
    pub values: Option<f64>,
    /// Of the outcomes (a success and an `isError` per tool), seen.
    pub outcomes: Option<f64>,
    /// Of the listed prompts, got.
    pub prompts: Option<f64>,
    /// Of the listed resources, read.
    pub resources: Option<f64>,
    /// Of the listed templates, read.
    pub templates: Option<f64>,
}

/// A tally below its threshold.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Shortfall {
    /// Whose.
    pub server: ServerId,
    /// Which tally (`tools`, `arguments`, ...).
    pub tally: String,
    /// What was reached, in percent.
    pub percent: f64,
    /// The minimum, in percent.
    pub minimum: f64,
}

impl fmt::Display for Shortfall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} covered {:.1}%, below the minimum of {}%",
            self.server, self.tally, self.percent, self.minimum
        )
    }
}

impl CoverageReport {
    /// Every tally of every server below its threshold.
    pub fn below(&self, thresholds: &Thresholds) -> Vec<Shortfall> {
        let minimums = [
            thresholds.tools,
            thresholds.arguments,
            thresholds.values,
            thresholds.outcomes,
            thresholds.prompts,
            thresholds.resources,
            thresholds.templates,
        ];
        let mut shortfalls = Vec::new();
        for server in &self.servers {
            for ((tally, counted), minimum) in server.tallies().into_iter().zip(minimums) {
                if let (Some(minimum), Some(percent)) = (minimum, counted.percent)
                    && percent < minimum
                {
                    shortfalls.push(Shortfall {
                        server: server.server.clone(),
                        tally: tally.to_owned(),
                        percent,
                        minimum,
                    });
                }
            }
        }
        shortfalls
    }
}

impl fmt::Display for CoverageReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, server) in self.servers.iter().enumerate() {
            if index > 0 {
                writeln!(f)?;
            }
            write!(f, "{server}")?;
        }
        Ok(())
    }
}

impl fmt::Display for ServerReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let records = if self.records == 1 {
            "record"
        } else {
            "records"
        };
        writeln!(
            f,
            "MCP surface coverage of {} ({} {records})",
            self.server, self.records
        )?;
        for (name, tally) in self.tallies() {
            writeln!(f, "  {name:<10} {tally}")?;
        }
        if !self.never_listed.is_empty() {
            writeln!(
                f,
                "  never listed by any record: {}",
                self.never_listed.join(", ")
            )?;
        }
        let uncovered = &self.uncovered;
        if !uncovered.is_empty() {
            writeln!(f, "Never exercised:")?;
            for tool in &uncovered.tools {
                writeln!(f, "  tool `{tool}`: never called")?;
            }
            for argument in uncovered
                .arguments
                .iter()
                .filter(|a| uncovered.called(&a.tool))
            {
                writeln!(
                    f,
                    "  argument `{}` of `{}`: never sent",
                    argument.argument, argument.tool
                )?;
            }
            for value in uncovered
                .values
                .iter()
                .filter(|v| uncovered.called(&v.tool))
            {
                writeln!(
                    f,
                    "  value {} of `{}.{}`: never sent",
                    value.value, value.tool, value.argument
                )?;
            }
            for outcome in uncovered
                .outcomes
                .iter()
                .filter(|o| uncovered.called(&o.tool))
            {
                writeln!(
                    f,
                    "  tool `{}`: {} never seen",
                    outcome.tool, outcome.outcome
                )?;
            }
            for prompt in &uncovered.prompts {
                writeln!(f, "  prompt `{prompt}`: never got")?;
            }
            for resource in &uncovered.resources {
                writeln!(f, "  resource {resource}: never read")?;
            }
            for template in &uncovered.templates {
                writeln!(f, "  template {template}: no URI of it read")?;
            }
        }
        let unlisted = &self.unlisted;
        if !unlisted.is_empty() {
            writeln!(f, "Exercised but not listed:")?;
        }
        for tool in &unlisted.tools {
            writeln!(f, "  tool `{tool}`: called but not listed")?;
        }
        for argument in &unlisted.arguments {
            writeln!(
                f,
                "  argument `{}` of `{}`: sent but not in its input schema",
                argument.argument, argument.tool
            )?;
        }
        for prompt in &unlisted.prompts {
            writeln!(f, "  prompt `{prompt}`: got but not listed")?;
        }
        for uri in &unlisted.resources {
            writeln!(
                f,
                "  resource {uri}: read but neither listed nor of a listed template"
            )?;
        }
        if !self.tool_calls.is_empty() {
            writeln!(f, "Tools:")?;
            for row in &self.tool_calls {
                let mut line = format!(
                    "  {:<24} {:>5} calls  {} success, {} isError, {} JSON-RPC errors",
                    row.name,
                    row.calls,
                    row.outcomes.success,
                    row.outcomes.is_error,
                    row.outcomes.protocol_error
                );
                let output = &row.output;
                if output.valid + output.invalid + output.unchecked > 0 {
                    line.push_str(&format!(
                        "; output schema: {} valid, {} invalid, {} unchecked",
                        output.valid, output.invalid, output.unchecked
                    ));
                }
                writeln!(f, "{}", line.trim_end())?;
                if row.calls == 0 {
                    continue;
                }
                let arguments = row.arguments_sent();
                if !arguments.is_empty() {
                    writeln!(f, "    sent: {arguments}")?;
                }
            }
        }
        Ok(())
    }
}
