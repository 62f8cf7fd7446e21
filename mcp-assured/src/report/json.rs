//! The JSON form of a report: `{"entries": [..], "summary": {..}}`, an entry as
//! `{"suite", "name", "status", "message"}` with `"problems"`, `"details"`,
//! `"duration_ms"` and `"clause"` (`{"level", "spec", "section", "url", "text"}`) when it
//! has them.

use serde::{Serialize, Serializer, ser::SerializeMap};

use super::{Entry, Report};

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_map(None)?;
        entry.serialize_entry("suite", &self.suite)?;
        entry.serialize_entry("name", &self.name)?;
        entry.serialize_entry("status", &self.status)?;
        entry.serialize_entry("message", &self.message)?;
        if !self.problems.is_empty() {
            entry.serialize_entry("problems", &self.problems)?;
        }
        if !self.details.is_null() {
            entry.serialize_entry("details", &self.details)?;
        }
        if let Some(duration) = self.duration {
            entry.serialize_entry("duration_ms", &(duration.as_secs_f64() * 1000.0))?;
        }
        if let Some(clause) = &self.clause {
            entry.serialize_entry("clause", clause)?;
        }
        entry.end()
    }
}

/// An entry's schema, as [`Entry`]'s `Serialize` writes it: the optional parts only when
/// there are some.
#[cfg(feature = "json-schema")]
#[derive(schemars::JsonSchema)]
#[schemars(rename = "Entry")]
#[allow(dead_code)] // its schema is all it is for
struct EntrySchema {
    /// The group it belongs to: `protocol-checks`, `server-tests`, `parity`, `pinned`,
    /// `fuzz`, `load-run`.
    suite: String,
    /// The check, test or finding: `tools.input_schemas`, `mcp.test.echo`,
    /// `fuzz.tools.add.crash`.
    name: String,
    /// How it ended.
    status: super::Status,
    /// What was found.
    message: String,
    /// What is wrong beside the verdict (a server test's malformed `testMetadata`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    problems: Vec<String>,
    /// What explains it: a fuzz finding as `{"finding": {...}}`, a server test's tool,
    /// arguments and result.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    details: serde_json::Value,
    /// How long it took, in milliseconds, when measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    duration_ms: Option<f64>,
    /// The specification's sentence it tests, whose keyword graded it.
    #[serde(skip_serializing_if = "Option::is_none")]
    clause: Option<super::Clause>,
}

#[cfg(feature = "json-schema")]
impl schemars::JsonSchema for Entry {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Entry".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        EntrySchema::json_schema(generator)
    }
}

impl Serialize for Report {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut report = serializer.serialize_map(Some(2))?;
        report.serialize_entry("entries", self.entries())?;
        report.serialize_entry("summary", &self.summary())?;
        report.end()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::{Report, tests::sample};

    #[test]
    fn entries_then_the_summary() {
        assert_eq!(
            serde_json::to_value(sample()).unwrap(),
            json!({
                "entries": [
                    {
                        "suite": "server-tests",
                        "name": "mcp.test.slow",
                        "status": "failed",
                        "message": "no answer within 200 ms",
                        "problems": ["no testMetadata"],
                        "details": {"arguments": {"echo": "hi"}},
                        "duration_ms": 250.0,
                    },
                    {
                        "suite": "protocol-checks",
                        "name": "ping",
                        "status": "passed",
                        "message": "answered",
                        "duration_ms": 3.0,
                    },
                    {
                        "suite": "protocol-checks",
                        "name": "errors.unknown_resource",
                        "status": "skipped",
                        "message": "resources are not advertised",
                    },
                    {"suite": "server-tests", "name": "mcp.test.quiet", "status": "passed", "message": ""},
                ],
                "summary": {"total": 4, "passed": 2, "failed": 1, "skipped": 1, "all_passed": false},
            })
        );
    }

    #[test]
    fn an_empty_report_passes() {
        assert_eq!(
            serde_json::to_value(Report::default()).unwrap(),
            json!({
                "entries": [],
                "summary": {"total": 0, "passed": 0, "failed": 0, "skipped": 0, "all_passed": true},
            })
        );
    }
}
