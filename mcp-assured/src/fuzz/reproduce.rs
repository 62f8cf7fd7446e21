//! How to see a finding again: the `mcp-assured` command line against the same server, and
//! a `#[mcp_test]` that fails while the bug is there.

use serde_json::Value;

use super::subject::{Subject, SubjectKind};
use crate::{
    report::{FindingKind, Reproduction, finding::compact},
    transport::Reached,
};

/// What was found, as a reproduction needs it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Found<'a> {
    pub(crate) subject: &'a Subject,
    pub(crate) kind: FindingKind,
    /// The property broken, for a property's finding.
    pub(crate) property: Option<&'a str>,
    /// For a leak, the line of the answer that shows the internals.
    pub(crate) shown: Option<&'a str>,
    pub(crate) arguments: &'a Value,
}

/// The reproduction of `found` on the server `reached` names.
pub(crate) fn reproduction(reached: Option<&Reached>, found: Found<'_>) -> Reproduction {
    Reproduction {
        command: reached.map(|reached| command(reached, found.subject, found.arguments)),
        test: test(reached, found),
    }
}

fn command(reached: &Reached, subject: &Subject, arguments: &Value) -> String {
    let call = match subject {
        Subject::Tool { name, .. } => format!(
            "mcp-assured call {} --args-json {}",
            quote(name),
            quote(&compact(arguments))
        ),
        Subject::Template { .. } => {
            let (_, params) = subject.request(arguments);
            format!(
                "mcp-assured read {}",
                quote(params["uri"].as_str().unwrap_or_default())
            )
        }
        Subject::Prompt { name, .. } => format!(
            "mcp-assured prompt {} --args-json {}",
            quote(name),
            quote(&compact(arguments))
        ),
    };
    match reached {
        Reached::Url(url) => format!("{call} {}", quote(url)),
        Reached::Command(parts) => format!(
            "{call} -- {}",
            parts.iter().map(|p| quote(p)).collect::<Vec<_>>().join(" ")
        ),
        Reached::Named(words) => format!("{call} {words}"),
    }
}

fn test(reached: Option<&Reached>, found: Found<'_>) -> String {
    let Found {
        subject,
        kind,
        property,
        shown,
        arguments,
    } = found;
    let server = match reached {
        Some(Reached::Url(url)) => format!("url({url:?})"),
        Some(Reached::Command(parts)) => format!(
            "command({})",
            parts
                .iter()
                .map(|p| format!("{p:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Some(Reached::Named(words)) => format!("command(/* the server of `{words}` */)"),
        None => "service(/* your server */)".to_owned(),
    };
    let function = format!(
        "{}_{}",
        identifier(subject.name()),
        identifier(kind.as_str())
    );
    let json = format!("json!({})", compact(arguments));
    let call = match subject {
        Subject::Tool { name, .. } => format!("client.call_tool({name:?}, {json}).await"),
        Subject::Template { .. } => {
            let (_, params) = subject.request(arguments);
            format!(
                "client.read_resource({:?}).await",
                params["uri"].as_str().unwrap_or_default()
            )
        }
        Subject::Prompt { name, .. } => format!("client.get_prompt({name:?}, {json}).await"),
    };
    let check = match (kind, subject.kind()) {
        (FindingKind::AcceptedInvalid | FindingKind::InternalError, SubjectKind::Tool) => {
            "    // Refused: an isError result, or JSON-RPC -32602 (Invalid params).\n    \
             match answer {\n        Ok(result) => {\n            result.assert().is_tool_error();\n        }\n        \
             Err(error) => assert_eq!(error.code(), Some(mcp_assured::code::INVALID_PARAMS), \"{error}\"),\n    }"
                .to_owned()
        }
        (FindingKind::AcceptedInvalid | FindingKind::InternalError, _) => {
            "    let error = answer.expect_err(\"invalid arguments are refused\");\n    \
             assert_eq!(error.code(), Some(mcp_assured::code::INVALID_PARAMS), \"{error}\");"
                .to_owned()
        }
        (FindingKind::OutputSchema, SubjectKind::Tool) => format!(
            "    let tool = client.get_tool({:?}).await.unwrap();\n    \
             answer.unwrap().assert().conforms_to_output_schema(&tool);",
            subject.name()
        ),
        (FindingKind::LeakedInternals, SubjectKind::Tool) => {
            let needle: String = shown.unwrap_or("Traceback").chars().take(60).collect();
            format!(
                "    let text = match &answer {{\n        Ok(result) => result.text(),\n        \
                 Err(error) => error.to_string(),\n    }};\n    \
                 assert!(!text.contains({needle:?}), \"{{text}}\");"
            )
        }
        (FindingKind::LeakedInternals, _) => {
            // Debug output escapes quotes and backslashes: the line up to the first.
            let needle: String = shown
                .unwrap_or("Traceback")
                .chars()
                .take_while(|c| *c != '"' && *c != '\\')
                .take(60)
                .collect();
            format!(
                "    let answer = format!(\"{{answer:?}}\");\n    \
                 assert!(!answer.contains({needle:?}), \"{{answer}}\");"
            )
        }
        (FindingKind::WireSchema, _) => {
            "    answer.unwrap();\n    \
             let broken = client.wire_violations();\n    \
             assert!(broken.is_empty(), \"{broken:#?}\");"
                .to_owned()
        }
        (FindingKind::CrashAsToolError, _) => {
            "    // Valid input is served: no crash, whatever the SDK makes of one.\n    \
             answer.unwrap().assert().is_success();"
                .to_owned()
        }
        (FindingKind::Property, _) => format!(
            "    let result = answer.unwrap();\n    \
             panic!(\"state the property `{}` here as an assertion on {{result:?}}\");",
            property.unwrap_or("?")
        ),
        _ => "    answer.unwrap();".to_owned(),
    };
    format!(
        "#[mcp_test(server = {server})]\nasync fn {function}(client: McpClient) {{\n    \
         let answer = {call};\n{check}\n}}"
    )
}

/// `text` as a shell word: as is when it is plain, in single quotes otherwise.
fn quote(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@%+,".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// `text` as a Rust identifier fragment.
fn identifier(text: &str) -> String {
    let id: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let id = id.trim_matches('_').to_owned();
    if id.is_empty() || id.starts_with(|c: char| c.is_ascii_digit()) {
        format!("t_{id}")
    } else {
        id
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn found<'a>(subject: &'a Subject, kind: FindingKind, arguments: &'a Value) -> Found<'a> {
        Found {
            subject,
            kind,
            property: None,
            shown: None,
            arguments,
        }
    }

    fn greet() -> Subject {
        Subject::Tool {
            name: "greet".into(),
            input_schema: json!({"type": "object"}),
            output_schema: None,
            destructive: false,
            open_world: false,
        }
    }

    #[test]
    fn a_command_line_quotes_what_the_shell_would_split() {
        let reached = Reached::Command(vec!["python3".into(), "my server.py".into()]);
        let arguments = json!({"name": "it's"});
        let repro = reproduction(
            Some(&reached),
            found(&greet(), FindingKind::Crash, &arguments),
        );
        assert_eq!(
            repro.command.unwrap(),
            r#"mcp-assured call greet --args-json '{"name":"it'\''s"}' -- python3 'my server.py'"#
        );
        assert!(
            repro
                .test
                .contains(r#"#[mcp_test(server = command("python3", "my server.py"))]"#)
        );
        assert!(
            repro
                .test
                .contains(r#"client.call_tool("greet", json!({"name":"it's"})).await"#)
        );
    }

    #[test]
    fn in_process_has_a_test_but_no_command_line() {
        let arguments = json!({});
        let repro = reproduction(None, found(&greet(), FindingKind::Hang, &arguments));
        assert_eq!(repro.command, None);
        assert!(repro.test.contains("service(/* your server */)"));
    }
}
