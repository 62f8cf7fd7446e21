//! A [`LintReport`] as SARIF: each finding a result of its rule, about its subject, at its
//! JSON pointer in the definition; the rule's help is its section of `docs/lint-rules.md`.

use super::{Level, Rule, Sarif, SarifResult, Subject};
use crate::lint::{Category, LintReport, Severity, rule};

/// The rules' page, whose anchors are the rules' ids without their dots.
const RULES_PAGE: &str = "https://github.com/mcp-assured/mcp-assured/blob/main/docs/lint-rules.md";

/// The categories that are about an attack on the model, not the quality of a definition.
fn is_security(category: Category) -> bool {
    matches!(
        category,
        Category::HiddenUnicode
            | Category::InstructionInjection
            | Category::ExfiltrationChannel
            | Category::CrossServerShadowing
            | Category::SecretInDefinition
            | Category::RugPull
    )
}

fn level_of(severity: Severity) -> Level {
    match severity {
        Severity::Fail => Level::Error,
        Severity::Warn => Level::Warning,
        Severity::Info => Level::Note,
    }
}

impl LintReport {
    /// The findings as a SARIF 2.1.0 log (see [`crate::sarif`]): `error` for a finding that
    /// fails the run (with [`strict`](crate::lint::Lint::strict), every warning), `warning`,
    /// `note`. Each rule links to its section of the rules' page; the security categories
    /// are tagged `security`. The log is about the linted server by its name, where the
    /// report knows it ([`LintReport::server`]; [`Sarif::server`] given afterwards wins).
    ///
    /// ```
    /// use mcp_assured::{diff::Surface, lint::Lint};
    /// use serde_json::json;
    ///
    /// let surface: Surface = serde_json::from_value(json!({
    ///     "tools": [{"name": "add", "description": "Adds two\u{200b}numbers\u{E0049}\u{E0047}.", "inputSchema": {"type": "object"}}]
    /// })).unwrap();
    /// let sarif = Lint::new().run(&surface).to_sarif().server("calc").to_json();
    /// let results = sarif["runs"][0]["results"].as_array().unwrap();
    /// let result = results
    ///     .iter()
    ///     .find(|result| result["ruleId"] == "hidden-unicode.tag-characters")
    ///     .unwrap();
    /// assert_eq!(result["level"], "error");
    /// assert_eq!(
    ///     result["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
    ///     "calc/tool/add/description"
    /// );
    /// ```
    pub fn to_sarif(&self) -> Sarif {
        let mut log = Sarif::new();
        if let Some(server) = &self.server {
            log = log.server(server.name.clone());
        }
        let failing: Vec<_> = self.failing().collect();
        for finding in &self.findings {
            let level = if failing.contains(&finding) {
                Level::Error
            } else {
                level_of(finding.severity)
            };
            let known = rule(finding.rule);
            let mut tags = vec![finding.category.as_str().to_owned()];
            if is_security(finding.category) {
                tags.push("security".into());
            }
            let descriptor = Rule {
                id: finding.rule.to_owned(),
                short_description: known
                    .map(|rule| rule.why.to_owned())
                    .unwrap_or_else(|| finding.message.clone()),
                full_description: known
                    .map(|rule| format!("{} Fix: {} Source: {}", rule.why, rule.fix, rule.source))
                    .unwrap_or_else(|| finding.fix.clone()),
                help_uri: format!("{RULES_PAGE}#{}", finding.rule.replace('.', "")),
                default_level: level_of(known.map_or(finding.severity, |rule| rule.severity)),
                tags,
            };
            let mut result = SarifResult::new(
                finding.rule,
                level,
                format!("{} Fix: {}", finding.message, finding.fix),
            );
            result.subject = Subject::parse(&finding.subject);
            result.pointer = (!finding.location.is_empty()).then(|| finding.location.clone());
            result.server = finding.server.clone();
            log.push(descriptor, result);
        }
        log
    }
}
