//! A [`Report`] as SARIF: each failed or warned entry a result; a fuzz finding under the
//! rule of its kind (`fuzz.crash`), any other entry under its check's name.

use serde_json::{Map, json};

use super::{Level, Rule, Sarif, SarifResult, Subject};
use crate::report::{Entry, Finding, Report, Status, finding_of};

const DOCS: &str = "https://docs.rs/mcp-assured/latest/mcp_assured";

impl Report {
    /// The report's failures and warnings as a SARIF 2.1.0 log (see [`crate::sarif`]);
    /// passing and skipped entries are not results.
    ///
    /// ```
    /// use mcp_assured::report::{Entry, Report, Status};
    ///
    /// let report = Report::from_iter([Entry::new(
    ///     "protocol-checks",
    ///     "tools.names",
    ///     Status::Warned,
    ///     "`get weather` has a space",
    /// )]);
    /// let sarif = report.to_sarif().to_json();
    /// assert_eq!(sarif["version"], "2.1.0");
    /// assert_eq!(sarif["runs"][0]["results"][0]["level"], "warning");
    /// assert_eq!(sarif["runs"][0]["tool"]["driver"]["rules"][0]["id"], "tools.names");
    /// ```
    pub fn to_sarif(&self) -> Sarif {
        let mut log = Sarif::new();
        for entry in self {
            let level = match entry.status {
                Status::Failed => Level::Error,
                Status::Warned => Level::Warning,
                Status::Passed | Status::Skipped => continue,
            };
            let (rule, result) = match finding_of(entry) {
                Some(finding) => of_finding(entry, &finding, level),
                None => of_entry(entry, level),
            };
            log.push(rule, result);
        }
        log
    }
}

/// A fuzz finding: the rule of its kind, about its tool, template or prompt; its input and
/// reproductions as properties, which leave the fingerprint alone.
fn of_finding(entry: &Entry, finding: &Finding, level: Level) -> (Rule, SarifResult) {
    let id = format!("fuzz.{}", finding.kind);
    let rule = Rule {
        id: id.clone(),
        short_description: entry
            .clause
            .map(|clause| clause.text.to_owned())
            .unwrap_or_else(|| format!("The fuzzer's `{}` finding.", finding.kind)),
        full_description: full_description(entry, &format!("fuzz finding `{}`", finding.kind)),
        help_uri: help_uri(entry),
        default_level: default_level(entry),
        tags: vec!["fuzz".into(), finding.kind.to_string()],
    };
    let mut result = SarifResult::new(id, level, entry.message.clone());
    let kind = match finding.subject.as_str() {
        "template" => "resource template",
        other => other,
    };
    result.subject = Some(Subject::new(kind, finding.name.clone()));
    result.identity = finding.property.iter().cloned().collect();
    let mut properties = Map::new();
    properties.insert("seed".into(), json!(finding.seed));
    properties.insert("arguments".into(), finding.arguments.clone());
    properties.insert("answer".into(), finding.answer.clone());
    properties.insert("reproduce".into(), json!(finding.reproduce));
    result.properties = properties;
    (rule, result)
}

/// Any other entry: the rule its check's name is (a server test's, a threshold's).
fn of_entry(entry: &Entry, level: Level) -> (Rule, SarifResult) {
    let id = rule_id(entry);
    let rule = Rule {
        id: id.clone(),
        short_description: entry
            .clause
            .map(|clause| clause.text.to_owned())
            .unwrap_or_else(|| short_description(entry)),
        full_description: full_description(entry, &format!("`{}`", entry.name)),
        help_uri: help_uri(entry),
        default_level: default_level(entry),
        tags: vec![entry.suite.clone()],
    };
    let mut message = entry.message.clone();
    for problem in &entry.problems {
        message.push_str(&format!(" [{problem}]"));
    }
    let mut result = SarifResult::new(id, level, message);
    result.subject = unfuzzed_subject(entry);
    if !entry.details.is_null() {
        result.properties = Map::from_iter([("details".to_owned(), entry.details.clone())]);
    }
    (rule, result)
}

/// The checks' and the fuzzer's names are already namespaced (`tools.input_schemas`,
/// `mcp.test.echo`, `fuzz.setup`); the others get their suite's (`load-run.max_p99`). A
/// fuzz subject left unfuzzed shares one rule, `fuzz.not_fuzzed`.
fn rule_id(entry: &Entry) -> String {
    match entry.suite.as_str() {
        "fuzz" if unfuzzed_subject(entry).is_some() => "fuzz.not_fuzzed".into(),
        "protocol-checks" | "parity" | "server-tests" | "fuzz" | "pinned" => entry.name.clone(),
        suite => format!("{suite}.{}", entry.name),
    }
}

/// `fuzz.tools.add` (a subject the fuzzer could not fuzz) as ``tool `add` ``.
fn unfuzzed_subject(entry: &Entry) -> Option<Subject> {
    if entry.suite != "fuzz" {
        return None;
    }
    let rest = entry.name.strip_prefix("fuzz.")?;
    let (plural, name) = rest.split_once('.')?;
    let kind = match plural {
        "tools" => "tool",
        "templates" => "resource template",
        "prompts" => "prompt",
        _ => return None,
    };
    Some(Subject::new(kind, name))
}

fn short_description(entry: &Entry) -> String {
    match entry.suite.as_str() {
        "server-tests" => format!("The server's own test `{}`.", entry.name),
        "load-run" => format!("The load run's `{}`.", entry.name),
        "fuzz" => format!("The fuzz run's `{}`.", entry.name),
        _ => format!("The check `{}`.", entry.name),
    }
}

/// The clause in full (keyword, specification, section, sentence, link), else what the
/// entry is.
fn full_description(entry: &Entry, what: &str) -> String {
    match &entry.clause {
        Some(clause) => clause.to_string(),
        None => format!("{what} ({} suite) of mcp-assured.", entry.suite),
    }
}

/// The clause's link (a section of the specification, or mcp-assured's rules), else the
/// docs of the suite.
fn help_uri(entry: &Entry) -> String {
    if let Some(clause) = &entry.clause {
        return clause.url.to_owned();
    }
    let page = match entry.suite.as_str() {
        "server-tests" => "server_tests/index.html",
        "fuzz" => "fuzz/index.html",
        "load-run" => "load/index.html",
        "protocol-checks" | "parity" => "checks/index.html",
        _ => "rules/index.html",
    };
    format!("{DOCS}/{page}")
}

/// A MUST broken is an error; a SHOULD, a sentence without a keyword, or no clause at all
/// (a server's own test, a threshold) as the entry itself ended.
fn default_level(entry: &Entry) -> Level {
    match &entry.clause {
        Some(clause) if clause.level.is_requirement() => Level::Error,
        Some(_) => Level::Warning,
        None => Level::Error,
    }
}
