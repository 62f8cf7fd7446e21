//! Whether an answer is a bug: the same questions for every server, asked of each call
//! (valid input must be served, invalid input refused, neither may crash, hang, or show the
//! server's internals), and the author's own properties.

use serde_json::Value;

use super::{
    crash_forms,
    leak::{self, Known, OwnFolders},
    property::{Property, Verdict},
    session::Outcome,
    subject::Subject,
};
use crate::{
    error::code, report::FindingKind, results::mcp::ToolResult, schema::Schema,
    wire_schema::WireSchema,
};

/// What the input was generated to be.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expect {
    /// Valid against the schema: to be served.
    Valid,
    /// Invalid in one way (the mutation, in words): to be refused.
    Invalid(String),
}

/// A call that went wrong, and how.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Failure {
    pub(crate) kind: FindingKind,
    /// The property broken, for [`FindingKind::Property`].
    pub(crate) property: Option<String>,
    /// What happened, in a sentence.
    pub(crate) what: String,
    /// For a leak: the line of the answer that shows the internals.
    pub(crate) shown: Option<String>,
}

impl Failure {
    pub(crate) fn new(kind: FindingKind, what: impl Into<String>) -> Failure {
        Failure {
            kind,
            property: None,
            what: what.into(),
            shown: None,
        }
    }

    /// Whether `other` is the same failure, as shrinking must keep it.
    pub(crate) fn same_as(&self, other: &Failure) -> bool {
        self.kind == other.kind && self.property == other.property
    }
}

/// What the oracle needs to know of a subject, compiled once.
#[derive(Debug)]
pub(crate) struct Oracle<'a> {
    pub(crate) subject: &'a Subject,
    /// The schema its arguments are generated from, to keep shrunk inputs what they were.
    pub(crate) argument_schema: Schema,
    pub(crate) output_schema: Option<Schema>,
    pub(crate) properties: &'a [Property],
    /// The official schema of the revision spoken, each result is held to.
    wire: Option<&'a WireSchema>,
    /// The client's roots, as paths: a file under one is no leak.
    roots: &'a [String],
    /// The folders the server runs from: a source file under one is a leak.
    own: &'a OwnFolders,
}

impl<'a> Oracle<'a> {
    pub(crate) fn new(
        subject: &'a Subject,
        properties: &'a [Property],
        wire: Option<&'a WireSchema>,
        (roots, own): (&'a [String], &'a OwnFolders),
    ) -> Oracle<'a> {
        let output_schema = match subject {
            Subject::Tool {
                output_schema: Some(schema),
                ..
            } => Some(Schema::compile(schema)),
            _ => None,
        };
        Oracle {
            subject,
            argument_schema: Schema::compile(&subject.argument_schema()),
            output_schema,
            properties,
            wire,
            roots,
            own,
        }
    }

    /// The failure `outcome` shows for `arguments` sent as `expect`, if any.
    pub(crate) fn judge(
        &self,
        arguments: &Value,
        expect: &Expect,
        outcome: &Outcome,
    ) -> Option<Failure> {
        match outcome {
            Outcome::Crashed { what, .. } => Some(Failure::new(FindingKind::Crash, what.clone())),
            Outcome::Hung { timeout, .. } => Some(Failure::new(
                FindingKind::Hang,
                format!("no answer within {timeout:?}"),
            )),
            Outcome::Slow { progress, waited } => Some(Failure::new(
                FindingKind::Slow,
                format!(
                    "no answer within {waited:.1?}, though it sent {progress} progress \
                     notifications, each within the per-call timeout: slow by design, or \
                     slower than it should be (cancelled at the cap of {} per-call timeouts)",
                    super::session::PROGRESS_CAP
                ),
            )),
            Outcome::Broken { what, .. } => {
                Some(Failure::new(FindingKind::BrokenAnswer, what.clone()))
            }
            // Never served: it says nothing of the input (the run's summary counts them).
            Outcome::Unreachable { .. } | Outcome::Throttled { .. } => None,
            Outcome::Refused {
                code: error_code,
                message,
                data,
            } => self.refused(arguments, expect, *error_code, message, data.as_ref()),
            Outcome::Answered { result, stderr, .. } => {
                self.answered(arguments, expect, result, stderr.as_deref())
            }
        }
    }

    fn refused(
        &self,
        arguments: &Value,
        expect: &Expect,
        error_code: i32,
        message: &str,
        data: Option<&Value>,
    ) -> Option<Failure> {
        let error = format!(
            "JSON-RPC error {error_code}{}: {message}",
            code::name(error_code)
                .map(|n| format!(" ({n})"))
                .unwrap_or_default()
        );
        let refusal_expected = match (self.subject, expect) {
            (_, Expect::Invalid(_)) => error_code == code::INVALID_PARAMS,
            // A variable's value may name no resource: "not found" is an answer.
            (Subject::Template { .. }, Expect::Valid) => {
                error_code == code::RESOURCE_NOT_FOUND || error_code == code::INVALID_PARAMS
            }
            // A prompt's arguments are strings with no schema: a value the server does not
            // take (one outside a set it names only in a description) is refused, not failed.
            (Subject::Prompt { .. }, Expect::Valid) => error_code == code::INVALID_PARAMS,
            (_, Expect::Valid) => false,
        };
        if !refusal_expected {
            let kind = match expect {
                Expect::Valid => FindingKind::ErrorOnValidInput,
                Expect::Invalid(_) => FindingKind::InternalError,
            };
            let what = match expect {
                Expect::Valid => format!("valid input was answered with {error}"),
                Expect::Invalid(mutation) => format!(
                    "invalid input ({mutation}) was answered with {error}, not refused with \
                     -32602 (Invalid params) or an isError result"
                ),
            };
            return Some(Failure::new(kind, what));
        }
        let mut text = message.to_owned();
        if let Some(data) = data {
            text.push('\n');
            text.push_str(&data.to_string());
        }
        self.leak(arguments, &text)
    }

    fn answered(
        &self,
        arguments: &Value,
        expect: &Expect,
        result: &Value,
        stderr: Option<&str>,
    ) -> Option<Failure> {
        if let Some(broken) = self.shape(result) {
            return Some(Failure::new(FindingKind::BrokenAnswer, broken));
        }
        if let Some(broken) = self.breaks_the_schema(result) {
            return Some(broken);
        }
        let is_error = result.get("isError").and_then(Value::as_bool) == Some(true);
        let incomplete = result.get("resultType").and_then(Value::as_str) == Some("input_required");
        if let Expect::Invalid(mutation) = expect {
            let refused = is_error || incomplete;
            if !refused {
                return Some(Failure::new(
                    FindingKind::AcceptedInvalid,
                    format!("invalid input ({mutation}) was accepted: the answer is no error"),
                ));
            }
        }
        // A resource's contents are the resource: a source file read is no leak.
        let reads_a_resource = matches!(self.subject, Subject::Template { .. });
        if !reads_a_resource && let Some(leak) = self.leak(arguments, &answer_text(result)) {
            return Some(leak);
        }
        // After the leak: a crash whose answer shows a stack trace or source path is
        // reported as the leak it also is.
        if is_error && *expect == Expect::Valid && matches!(self.subject, Subject::Tool { .. }) {
            return crashed(arguments, result, stderr);
        }
        if *expect != Expect::Valid || is_error || incomplete {
            return None;
        }
        if let Some(schema) = &self.output_schema {
            match result.get("structuredContent") {
                None => {
                    return Some(Failure::new(
                        FindingKind::OutputSchema,
                        "the tool declares an outputSchema but the result has no structuredContent",
                    ));
                }
                Some(structured) => {
                    let violations = schema.violations(structured);
                    if !violations.is_empty() {
                        return Some(Failure::new(
                            FindingKind::OutputSchema,
                            format!(
                                "structuredContent breaks the outputSchema: {}",
                                violations
                                    .iter()
                                    .map(ToString::to_string)
                                    .collect::<Vec<_>>()
                                    .join("; ")
                            ),
                        ));
                    }
                }
            }
        }
        self.properties_hold(arguments, result)
    }

    /// How the result breaks the official schema of the revision spoken, if it does: the
    /// SDKs' clients refuse such a result (the Python SDK's `Client` validates each one).
    fn breaks_the_schema(&self, result: &Value) -> Option<Failure> {
        let wire = self.wire?;
        // An unanswered `input_required` is the session's stand-in, not what was sent.
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return None;
        }
        let (method, _) = self.subject.request(&Value::Null);
        let violations = wire.result_violations(result, method);
        if violations.is_empty() {
            return None;
        }
        let listed: Vec<String> = violations.iter().take(3).map(ToString::to_string).collect();
        Some(Failure::new(
            FindingKind::WireSchema,
            format!(
                "the result breaks the {} schema, which the SDKs' clients refuse: {}",
                wire.revision(),
                listed.join("; ")
            ),
        ))
    }

    /// What is missing from a result for it to be one of its method's.
    fn shape(&self, result: &Value) -> Option<String> {
        let (field, method) = match self.subject {
            Subject::Tool { .. } => ("content", "tools/call"),
            Subject::Template { .. } => ("contents", "resources/read"),
            Subject::Prompt { .. } => ("messages", "prompts/get"),
        };
        if result.get("resultType").and_then(Value::as_str) == Some("input_required") {
            return None;
        }
        match result.get(field) {
            Some(Value::Array(_)) => None,
            _ if field == "content" && result.get("structuredContent").is_some() => None,
            _ => Some(format!(
                "the {method} result has no `{field}` array: {}",
                cut(&result.to_string())
            )),
        }
    }

    fn leak(&self, arguments: &Value, text: &str) -> Option<Failure> {
        let sent = strings_in(arguments);
        let mut named = leak::absolute_paths(sent.lines());
        named.extend(self.roots.iter().cloned());
        let known = Known {
            sent: &sent,
            named: &named,
            own: self.own,
        };
        let (what, line) = leak::find(text, known)?;
        let mut failure = Failure::new(
            FindingKind::LeakedInternals,
            format!("the answer shows {what}: {line}"),
        );
        failure.shown = Some(line);
        Some(failure)
    }

    fn properties_hold(&self, arguments: &Value, result: &Value) -> Option<Failure> {
        let Subject::Tool { name, .. } = self.subject else {
            return None;
        };
        if !self
            .properties
            .iter()
            .any(|property| property.applies_to(name))
        {
            return None;
        }
        let typed = match serde_json::from_value(result.clone()) {
            Ok(typed) => ToolResult::new(name.clone(), typed),
            Err(error) => {
                return Some(Failure::new(
                    FindingKind::BrokenAnswer,
                    format!("the result is not a CallToolResult: {error}"),
                ));
            }
        };
        self.properties
            .iter()
            .find_map(|property| match property.check(arguments, &typed) {
                Verdict::Holds => None,
                Verdict::Broken(why) => Some(Failure {
                    kind: FindingKind::Property,
                    property: Some(property.name().to_owned()),
                    what: format!("property `{}` does not hold: {why}", property.name()),
                    shown: None,
                }),
            })
    }
}

/// A tool error that is a crash answered as one: the text of a content block in an SDK's
/// crash form, or a stack trace on the server's stderr while it ran (then `shown` is the
/// trace's first line: what the server wrote, not what it answered).
fn crashed(arguments: &Value, result: &Value, stderr: Option<&str>) -> Option<Failure> {
    let sent = strings_in(arguments);
    let texts: Vec<&str> = result
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    let shown = cut(texts.join("\n").trim());
    if let Some(form) = texts
        .iter()
        .find_map(|text| crash_forms::crash_form(text, &sent))
    {
        return Some(Failure::new(
            FindingKind::CrashAsToolError,
            format!("valid input crashed the tool, answered as a tool error in {form}: {shown}"),
        ));
    }
    let (trace, line) = crash_forms::trace_in(stderr?)?;
    let mut failure = Failure::new(
        FindingKind::CrashAsToolError,
        format!(
            "valid input crashed the tool: the server wrote {trace} to stderr while it ran \
             ({line}) and answered a tool error: {shown}"
        ),
    );
    failure.shown = Some(line);
    Some(failure)
}

/// Every text of an answer: tool content, resource contents, prompt messages, and
/// structured content, one per line.
fn answer_text(result: &Value) -> String {
    let mut texts = Vec::new();
    collect_texts(result, &mut texts);
    texts.join("\n")
}

fn collect_texts(value: &Value, texts: &mut Vec<String>) {
    match value {
        Value::String(text) => texts.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| collect_texts(item, texts)),
        Value::Object(fields) => fields
            .iter()
            .filter(|(key, _)| key.as_str() != "_meta")
            .for_each(|(_, value)| collect_texts(value, texts)),
        _ => {}
    }
}

/// The strings the input carried, which an answer may echo without leaking anything.
fn strings_in(arguments: &Value) -> String {
    let mut texts = Vec::new();
    collect_texts(arguments, &mut texts);
    texts.join("\n")
}

fn cut(text: &str) -> String {
    if text.chars().count() > 300 {
        format!("{}…", text.chars().take(300).collect::<String>())
    } else {
        text.to_owned()
    }
}
