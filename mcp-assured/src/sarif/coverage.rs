//! A [`CoverageReport`] as SARIF: each item listed and never exercised a `note` of its
//! kind's rule (`coverage.tool_never_called`), each item exercised but not listed a `note`
//! too (`coverage.tool_not_listed`), and each tally below its threshold a `warning`
//! (`coverage.below_threshold`); every result about its server by the name the server gives
//! itself, and its tool (at the argument's place in the input schema), prompt, resource or
//! template.

use super::{Level, Rule, Sarif, SarifResult, Subject};
use crate::coverage::report::{CoverageReport, Outcome, ServerReport, Shortfall};

/// Where coverage is told about.
const HELP: &str = "https://docs.rs/mcp-assured/latest/mcp_assured/coverage/index.html";

/// The rule of each kind of result: its id and what it holds a suite to.
const RULES: [(&str, &str); 12] = [
    (
        "coverage.tool_never_called",
        "A listed tool the suite never called.",
    ),
    (
        "coverage.argument_never_sent",
        "An argument of a called tool's input schema the suite never sent.",
    ),
    (
        "coverage.value_never_sent",
        "An enum or boolean value of a called tool's argument the suite never sent.",
    ),
    (
        "coverage.outcome_never_seen",
        "A success or an isError result of a called tool the suite never saw.",
    ),
    (
        "coverage.prompt_never_got",
        "A listed prompt the suite never got.",
    ),
    (
        "coverage.resource_never_read",
        "A listed resource the suite never read.",
    ),
    (
        "coverage.template_never_read",
        "A listed resource template no URI of which the suite read.",
    ),
    (
        "coverage.tool_not_listed",
        "A tool the suite called that tools/list does not name.",
    ),
    (
        "coverage.argument_not_listed",
        "An argument the suite sent that the tool's input schema does not name.",
    ),
    (
        "coverage.prompt_not_listed",
        "A prompt the suite got that prompts/list does not name.",
    ),
    (
        "coverage.resource_not_listed",
        "A URI the suite read that is neither a listed resource nor of a listed template.",
    ),
    (
        "coverage.below_threshold",
        "A coverage tally below the minimum the suite must reach.",
    ),
];

fn rule(id: &str, level: Level) -> Rule {
    let short = RULES
        .iter()
        .find(|(known, _)| *known == id)
        .map(|(_, words)| *words)
        .expect("every coverage result's rule is in RULES");
    Rule {
        id: id.to_owned(),
        short_description: short.to_owned(),
        full_description: format!(
            "{short} MCP surface coverage, measured from what the suite's clients sent the \
             server and what it answered (MCP_ASSURED_COVERAGE=DIR, then `mcp-assured coverage \
             DIR`)."
        ),
        help_uri: HELP.to_owned(),
        default_level: level,
        tags: vec!["coverage".into()],
    }
}

/// The JSON pointer of `argument` in a tool's definition.
fn argument_pointer(argument: &str) -> String {
    format!(
        "/inputSchema/properties/{}",
        argument.replace('~', "~0").replace('/', "~1")
    )
}

impl CoverageReport {
    /// What was never exercised, what was exercised but not listed, and each tally in
    /// `below` (from [`CoverageReport::below`]) as a SARIF 2.1.0 log (see
    /// [`crate::sarif`]). An item never exercised, or exercised and not listed, is a
    /// `note`; a tally below its threshold a `warning`. As the text and the HTML do, a tool
    /// never called is one result, not one per argument, value and outcome of it.
    ///
    /// Each result names its server (`serverInfo.name`, never its version, so that a release
    /// keeps the alerts open) as its outermost logical location and in its fingerprint; a
    /// log of one server is about it ([`Sarif::server`]).
    ///
    /// ```
    /// use mcp_assured::coverage::{Coverage, Record, ServerCoverage, ServerId, ToolSurface};
    /// use serde_json::json;
    ///
    /// let mut record = ServerCoverage::new(ServerId { name: "weather".into(), version: "1.0.0".into() });
    /// let tool = json!({"name": "forecast", "inputSchema": {"type": "object"}});
    /// record.listed.tools = Some([("forecast".to_owned(), ToolSurface::from_tool(&tool))].into());
    /// let report = Coverage::from_records([Record::new(vec![record])]).report();
    /// let sarif = report.to_sarif(&[]).to_json();
    /// let result = &sarif["runs"][0]["results"][0];
    /// assert_eq!(result["ruleId"], "coverage.tool_never_called");
    /// assert_eq!(result["level"], "note");
    /// assert_eq!(
    ///     result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
    ///     "weather/tool/forecast"
    /// );
    /// ```
    pub fn to_sarif(&self, below: &[Shortfall]) -> Sarif {
        let mut log = Sarif::new();
        if let [only] = self.servers.as_slice() {
            log = log.server(only.server.name.clone());
        }
        for server in &self.servers {
            for result in never_exercised(server)
                .into_iter()
                .chain(not_listed(server))
            {
                push(&mut log, &server.server.name, result);
            }
        }
        for shortfall in below {
            let mut result = SarifResult::new(
                "coverage.below_threshold",
                Level::Warning,
                format!(
                    "{shortfall}: exercise more of its {} in the suite, or lower the minimum.",
                    shortfall.tally
                ),
            );
            result.identity = vec![shortfall.tally.clone()];
            push(&mut log, &shortfall.server.name, result);
        }
        log
    }
}

/// Adds `result`, about `server` (by name), and its rule.
fn push(log: &mut Sarif, server: &str, mut result: SarifResult) {
    result.server = Some(server.to_owned());
    let rule = rule(&result.rule_id, result.level);
    log.push(rule, result);
}

/// A note of rule `id` about `subject`.
fn note(id: &str, subject: Subject, message: String) -> SarifResult {
    let mut result = SarifResult::new(id, Level::Note, message);
    result.subject = Some(subject);
    result
}

fn never_exercised(server: &ServerReport) -> Vec<SarifResult> {
    let uncovered = &server.uncovered;
    let mut results = Vec::new();
    for tool in &uncovered.tools {
        results.push(note(
            "coverage.tool_never_called",
            Subject::new("tool", tool),
            format!("Tool `{tool}` was never called: call it in a test."),
        ));
    }
    for argument in uncovered
        .arguments
        .iter()
        .filter(|a| uncovered.called(&a.tool))
    {
        let mut result = note(
            "coverage.argument_never_sent",
            Subject::new("tool", &argument.tool),
            format!(
                "Argument `{}` of tool `{}` was never sent: call the tool with it in a test.",
                argument.argument, argument.tool
            ),
        );
        result.pointer = Some(argument_pointer(&argument.argument));
        results.push(result);
    }
    for value in uncovered
        .values
        .iter()
        .filter(|v| uncovered.called(&v.tool))
    {
        let mut result = note(
            "coverage.value_never_sent",
            Subject::new("tool", &value.tool),
            format!(
                "Value {} of argument `{}` of tool `{}` was never sent: call the tool with it \
                 in a test.",
                value.value, value.argument, value.tool
            ),
        );
        result.pointer = Some(argument_pointer(&value.argument));
        result.identity = vec![value.value.to_string()];
        results.push(result);
    }
    for outcome in uncovered
        .outcomes
        .iter()
        .filter(|o| uncovered.called(&o.tool))
    {
        let mut result = note(
            "coverage.outcome_never_seen",
            Subject::new("tool", &outcome.tool),
            format!(
                "Tool `{}` never answered with {}: call it in a test that makes it do so.",
                outcome.tool, outcome.outcome
            ),
        );
        let seen = match outcome.outcome {
            Outcome::Success => "success",
            Outcome::IsError => "isError",
        };
        result.identity = vec![seen.to_owned()];
        results.push(result);
    }
    for prompt in &uncovered.prompts {
        results.push(note(
            "coverage.prompt_never_got",
            Subject::new("prompt", prompt),
            format!("Prompt `{prompt}` was never got: get it in a test."),
        ));
    }
    for resource in &uncovered.resources {
        results.push(note(
            "coverage.resource_never_read",
            Subject::new("resource", resource),
            format!("Resource {resource} was never read: read it in a test."),
        ));
    }
    for template in &uncovered.templates {
        results.push(note(
            "coverage.template_never_read",
            Subject::new("resource template", template),
            format!("No URI of template {template} was read: read one in a test."),
        ));
    }
    results
}

fn not_listed(server: &ServerReport) -> Vec<SarifResult> {
    let unlisted = &server.unlisted;
    let mut results = Vec::new();
    for tool in &unlisted.tools {
        results.push(note(
            "coverage.tool_not_listed",
            Subject::new("tool", tool),
            format!(
                "Tool `{tool}` was called but tools/list does not name it: list it, or call \
                 the tool the server lists."
            ),
        ));
    }
    for argument in &unlisted.arguments {
        let mut result = note(
            "coverage.argument_not_listed",
            Subject::new("tool", &argument.tool),
            format!(
                "Argument `{}` was sent to tool `{}`, whose input schema does not name it: add \
                 it to the schema, or stop sending it.",
                argument.argument, argument.tool
            ),
        );
        result.pointer = Some(argument_pointer(&argument.argument));
        results.push(result);
    }
    for prompt in &unlisted.prompts {
        results.push(note(
            "coverage.prompt_not_listed",
            Subject::new("prompt", prompt),
            format!("Prompt `{prompt}` was got but prompts/list does not name it: list it."),
        ));
    }
    for uri in &unlisted.resources {
        results.push(note(
            "coverage.resource_not_listed",
            Subject::new("resource", uri),
            format!(
                "Resource {uri} was read but is neither listed nor of a listed template: list \
                 it or a template it matches."
            ),
        ));
    }
    results
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use serde_json::{Value, json};

    use crate::coverage::{
        Coverage,
        record::{Record, ServerCoverage, ServerId, ToolSurface},
        report::{CoverageReport, Thresholds},
    };

    /// A server `name` of two tools, `forecast` called with `city` and `units: "metric"`
    /// (never with `"imperial"`, never answering `isError`) and with `days`, which it does
    /// not list, and `alerts` never called; a prompt never got, a template never read, and
    /// `debug` called but not listed.
    fn record(name: &str, version: &str) -> ServerCoverage {
        let mut record = ServerCoverage::new(ServerId {
            name: name.into(),
            version: version.into(),
        });
        let forecast = json!({"name": "forecast", "inputSchema": {"type": "object", "properties": {
            "city": {"type": "string"},
            "units": {"enum": ["metric", "imperial"]},
            "hourly": {"type": "string"},
        }}});
        let alerts = json!({"name": "alerts", "inputSchema": {"type": "object", "properties": {
            "region": {"type": "string"},
        }}});
        record.listed.tools = Some(
            [
                ("forecast".to_owned(), ToolSurface::from_tool(&forecast)),
                ("alerts".to_owned(), ToolSurface::from_tool(&alerts)),
            ]
            .into(),
        );
        record.listed.prompts = Some(["summary".to_owned()].into());
        record.listed.resources = Some(BTreeSet::new());
        record.listed.templates = Some(["weather://{city}".to_owned()].into());
        let call = record.exercised.tools.entry("forecast".into()).or_default();
        call.calls = 1;
        call.outcomes.success = 1;
        call.arguments.entry("city".into()).or_default().present = 1;
        let units = call.arguments.entry("units".into()).or_default();
        units.present = 1;
        units.values.insert("\"metric\"".into(), 1);
        call.arguments.entry("days".into()).or_default().present = 1;
        record
            .exercised
            .tools
            .entry("debug".into())
            .or_default()
            .calls = 1;
        record
    }

    fn report(servers: Vec<ServerCoverage>) -> CoverageReport {
        Coverage::from_records([Record::new(servers)]).report()
    }

    fn results(sarif: &Value) -> &Vec<Value> {
        sarif["runs"][0]["results"].as_array().unwrap()
    }

    /// Each result's (ruleId, level, fully qualified logical location).
    fn located(sarif: &Value) -> Vec<(String, String, String)> {
        results(sarif)
            .iter()
            .map(|result| {
                let text = |value: &Value| value.as_str().unwrap().to_owned();
                (
                    text(&result["ruleId"]),
                    text(&result["level"]),
                    text(&result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]),
                )
            })
            .collect()
    }

    fn fingerprints(sarif: &Value) -> Vec<String> {
        results(sarif)
            .iter()
            .map(|result| {
                result["partialFingerprints"][super::super::FINGERPRINT_KEY]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
            .collect()
    }

    #[test]
    fn each_item_never_exercised_or_not_listed_is_a_note_of_its_rule_about_the_server() {
        let sarif = report(vec![record("weather", "1.0.0")])
            .to_sarif(&[])
            .to_json();
        let found = located(&sarif);
        let note = |rule: &str, place: &str| (rule.to_owned(), "note".to_owned(), place.to_owned());
        assert_eq!(
            found,
            [
                note("coverage.tool_never_called", "weather/tool/alerts"),
                note(
                    "coverage.argument_never_sent",
                    "weather/tool/forecast/inputSchema/properties/hourly"
                ),
                note(
                    "coverage.value_never_sent",
                    "weather/tool/forecast/inputSchema/properties/units"
                ),
                note("coverage.outcome_never_seen", "weather/tool/forecast"),
                note("coverage.prompt_never_got", "weather/prompt/summary"),
                note(
                    "coverage.template_never_read",
                    "weather/resource template/weather://{city}"
                ),
                note("coverage.tool_not_listed", "weather/tool/debug"),
                note(
                    "coverage.argument_not_listed",
                    "weather/tool/forecast/inputSchema/properties/days"
                ),
            ]
        );
        let rules: Vec<&str> = sarif["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|rule| rule["id"].as_str().unwrap())
            .collect();
        assert_eq!(rules.len(), found.len(), "each rule once: {rules:?}");
        let value = &results(&sarif)[2]["message"]["text"];
        assert!(value.as_str().unwrap().contains("\"imperial\""), "{value}");
        // A tool never called is one result, not one per argument of it.
        assert!(
            !found.iter().any(|(.., place)| place.contains("region")),
            "{found:?}"
        );
    }

    #[test]
    fn each_shortfall_is_a_warning_about_its_server() {
        let report = report(vec![record("weather", "1.0.0")]);
        let below = report.below(&Thresholds {
            tools: Some(100.0),
            arguments: Some(90.0),
            ..Thresholds::default()
        });
        assert_eq!(below.len(), 2);
        let sarif = report.to_sarif(&below).to_json();
        let warnings: Vec<_> = located(&sarif)
            .into_iter()
            .filter(|(_, level, _)| level == "warning")
            .collect();
        let warning = (
            "coverage.below_threshold".to_owned(),
            "warning".to_owned(),
            "weather".to_owned(),
        );
        assert_eq!(warnings, [warning.clone(), warning]);
        let texts: Vec<&str> = results(&sarif)
            .iter()
            .filter(|result| result["level"] == "warning")
            .map(|result| result["message"]["text"].as_str().unwrap())
            .collect();
        assert!(
            texts[0].contains("tools covered 50.0%, below the minimum of 100%: exercise more"),
            "{texts:?}"
        );
        assert!(texts[1].contains("arguments covered"), "{texts:?}");
        let prints = fingerprints(&sarif);
        let unique: BTreeSet<&String> = prints.iter().collect();
        assert_eq!(unique.len(), prints.len(), "{prints:?}");
    }

    #[test]
    fn fingerprints_are_equal_for_equal_items_and_differ_for_different_ones() {
        let first = report(vec![record("weather", "1.0.0")])
            .to_sarif(&[])
            .to_json();
        let again = report(vec![record("weather", "1.0.0")])
            .to_sarif(&[])
            .to_json();
        assert_eq!(fingerprints(&first), fingerprints(&again));
        // A new release of the server keeps its alerts.
        let released = report(vec![record("weather", "1.1.0")])
            .to_sarif(&[])
            .to_json();
        assert_eq!(fingerprints(&first), fingerprints(&released));
        // Every item its own; another server's items others.
        let prints = fingerprints(&first);
        let unique: BTreeSet<&String> = prints.iter().collect();
        assert_eq!(unique.len(), prints.len(), "{prints:?}");
        let other = report(vec![record("climate", "1.0.0")])
            .to_sarif(&[])
            .to_json();
        for print in fingerprints(&other) {
            assert!(!prints.contains(&print), "{print} in both");
        }
    }

    #[test]
    fn a_log_of_several_servers_names_each_results_own() {
        let sarif = report(vec![record("weather", "1.0.0"), record("climate", "2.0.0")])
            .to_sarif(&[])
            .to_json();
        let places: Vec<String> = located(&sarif)
            .into_iter()
            .map(|(.., place)| place)
            .collect();
        assert!(
            places.iter().any(|place| place.starts_with("weather/")),
            "{places:?}"
        );
        assert!(
            places.iter().any(|place| place.starts_with("climate/")),
            "{places:?}"
        );
        assert!(
            places
                .iter()
                .all(|place| place.starts_with("weather/") || place.starts_with("climate/")),
            "{places:?}"
        );
        // One server's log is about it; a log of several about none in particular.
        let one = report(vec![record("weather", "1.0.0")]).to_sarif(&[]);
        assert_eq!(one.server_name(), Some("weather"));
        let several =
            report(vec![record("weather", "1.0.0"), record("climate", "2.0.0")]).to_sarif(&[]);
        assert_eq!(several.server_name(), None);
    }

    #[test]
    fn everything_exercised_is_a_log_with_no_results() {
        let mut record = ServerCoverage::new(ServerId {
            name: "weather".into(),
            version: "1.0.0".into(),
        });
        let tool = json!({"name": "ping", "inputSchema": {"type": "object"}});
        record.listed.tools = Some([("ping".to_owned(), ToolSurface::from_tool(&tool))].into());
        let used = record.exercised.tools.entry("ping".into()).or_default();
        used.calls = 2;
        used.outcomes.success = 1;
        used.outcomes.is_error = 1;
        let sarif = report(vec![record]).to_sarif(&[]).to_json();
        assert_eq!(results(&sarif).len(), 0, "{sarif:#}");
    }
}
