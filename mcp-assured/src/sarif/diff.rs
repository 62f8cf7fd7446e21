//! [`Changes`] as SARIF: each change a result of its kind's rule (`diff.tool_removed`), a
//! breaking change an `error`, a compatible one a `note`.

use serde_json::{Map, Value};

use super::{Level, Rule, Sarif, SarifResult, Subject};
use crate::diff::{Change, Changes, Item, Severity, Surface};

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
            let (rule, result) = rule_and_result(change);
            log.push(rule, result);
        }
        log
    }

    /// [`to_sarif`](Self::to_sarif) of the changes from `old` to `new`, about the server
    /// the surfaces name ([`Surface::server`]): the new side's name, else the old side's,
    /// is each result's outermost logical location and part of its fingerprint
    /// ([`Sarif::server`] given afterwards wins). The run's `properties.servers` holds
    /// each side's name (`{"old": .., "new": ..}`), and when they differ a note of the run
    /// says so.
    ///
    /// ```
    /// use mcp_assured::diff::{Surface, compare};
    /// use serde_json::json;
    ///
    /// let old = Surface::from_json(json!({"server": {"name": "calc"}, "tools": [
    ///     {"name": "add", "inputSchema": {"type": "object"}}
    /// ]}))?;
    /// let new = Surface::from_json(json!({"server": {"name": "calculator"}, "tools": []}))?;
    /// let sarif = compare(&old, &new).to_sarif_between(&old, &new).to_json();
    /// let run = &sarif["runs"][0];
    /// assert_eq!(
    ///     run["results"][0]["locations"][0]["logicalLocations"][0]["fullyQualifiedName"],
    ///     "calculator/tool/add"
    /// );
    /// assert_eq!(run["properties"]["servers"], json!({"old": "calc", "new": "calculator"}));
    /// let note = &run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
    /// assert!(note.as_str().unwrap().contains("`calc`"), "{note}");
    /// # Ok::<(), mcp_assured::Error>(())
    /// ```
    pub fn to_sarif_between(&self, old: &Surface, new: &Surface) -> Sarif {
        let mut log = self.to_sarif();
        if let Some(name) = new.server_name().or(old.server_name()) {
            log = log.server(name);
        }
        let mut servers = Map::new();
        for (side, surface) in [("old", old), ("new", new)] {
            if let Some(name) = surface.server_name() {
                servers.insert(side.to_owned(), Value::String(name.to_owned()));
            }
        }
        if !servers.is_empty() {
            log = log.property("servers", Value::Object(servers));
        }
        if let Some(renamed) = new.renamed_from(old) {
            log = log.note(format!(
                "{renamed}; the results are named after the new side"
            ));
        }
        log
    }
}

/// The rule a change breaks, and the change as its result.
fn rule_and_result(change: &Change) -> (Rule, SarifResult) {
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
            "A {} change between two surfaces of a server: {}. Breaking changes may fail \
             clients written against the old surface.",
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
    result.pointer = (!change.location.pointer.is_empty()).then(|| change.location.pointer.clone());
    (rule, result)
}
