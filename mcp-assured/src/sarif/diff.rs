//! [`Changes`] as SARIF: each change a result of its kind's rule (`diff.tool_removed`), a
//! breaking change an `error`, a compatible one a `note`.

use super::{Level, Rule, Sarif, SarifResult, Subject};
use crate::diff::{Changes, Item, Severity};

const WHAT_IS_BREAKING: &str =
    "https://docs.rs/mcp-assured/latest/mcp_assured/diff/index.html#what-is-breaking";

impl Changes {
    /// The changes as a SARIF 2.1.0 log (see [`crate::sarif`]): a breaking change an
    /// `error`, a compatible one a `note`, each about its tool, prompt, resource or
    /// template at its JSON pointer.
    ///
    /// ```
    /// use mcp_assured::diff::{Surface, compare};
    /// use serde_json::json;
    ///
    /// let old: Surface = serde_json::from_value(json!({"tools": [
    ///     {"name": "add", "inputSchema": {"type": "object"}}
    /// ]})).unwrap();
    /// let sarif = compare(&old, &Surface::default()).to_sarif().to_json();
    /// assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "diff.tool_removed");
    /// assert_eq!(sarif["runs"][0]["results"][0]["level"], "error");
    /// ```
    pub fn to_sarif(&self) -> Sarif {
        let mut log = Sarif::new();
        for change in self.breaking().chain(self.compatible()) {
            let level = match change.severity {
                Severity::Breaking => Level::Error,
                Severity::Compatible => Level::Note,
            };
            let id = format!("diff.{}", change.kind.name());
            let rule = Rule {
                id: id.clone(),
                short_description: format!(
                    "A {} change: {}.",
                    change.severity,
                    change.kind.name().replace('_', " ")
                ),
                full_description: format!(
                    "A {} change between two surfaces of a server: {}. Breaking changes may \
                     fail clients written against the old surface.",
                    change.severity,
                    change.kind.name().replace('_', " ")
                ),
                help_uri: WHAT_IS_BREAKING.to_owned(),
                default_level: level,
                tags: vec!["diff".into(), change.severity.to_string()],
            };
            let mut result = SarifResult::new(id, level, change.to_string());
            let kind = change.location.item.to_string();
            result.subject = Some(match change.location.item {
                Item::Capabilities => Subject::new(kind, ""),
                _ => Subject::new(kind, change.location.name.clone()),
            });
            result.pointer =
                (!change.location.pointer.is_empty()).then(|| change.location.pointer.clone());
            log.push(rule, result);
        }
        log
    }
}
