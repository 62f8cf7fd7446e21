use serde_json::json;

use super::*;

fn schema(revision: &str) -> WireSchema {
    schema_for(revision).unwrap()
}

#[test]
fn every_revision_reads_and_compiles_what_messages_are_held_to() {
    for revision in REVISIONS {
        let compiled = schema(revision).compiled;
        assert!(
            compiled.method_defs.len() > 20,
            "{revision}: {:?}",
            compiled.method_defs
        );
        assert_eq!(
            compiled.result_defs.get("tools/call").map(String::as_str),
            Some("CallToolResult"),
            "{revision}"
        );
        let names = compiled
            .method_defs
            .values()
            .chain(compiled.result_defs.values())
            .chain(compiled.error_defs.values());
        for name in names {
            assert!(compiled.validator(name).is_some(), "{revision}: {name}");
        }
    }
    assert!(schema_for("2024-11-05").is_none());
}

#[test]
fn a_2026_result_without_result_type_breaks_the_schema_in_its_words() {
    let answer =
        json!({"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "hi"}]}});
    let found = schema("2026-07-28").violations(&answer, Some("tools/call"));
    assert_eq!(found.len(), 1, "{found:?}");
    let violation = &found[0];
    assert_eq!(violation.method, "tools/call");
    assert_eq!(violation.definition, "CallToolResult");
    assert_eq!(violation.pointer, "/result");
    let words = violation.schema_says.as_deref().unwrap();
    assert!(
        words.contains("Servers implementing this protocol version MUST include this field"),
        "{words}"
    );
    let shown = violation.to_string();
    assert!(
        shown.starts_with("tools/call at /result: \"resultType\" is a required property (CallToolResult of 2026-07-28); the schema says: Indicates"),
        "{shown}"
    );
    // The same answer is valid 2025-11-25.
    assert!(
        schema("2025-11-25")
            .violations(&answer, Some("tools/call"))
            .is_empty()
    );
}

#[test]
fn a_listed_tool_is_held_to_its_definition() {
    let listed = json!({"jsonrpc": "2.0", "id": 1, "result": {"tools": [
        {"name": "echo", "inputSchema": {"type": "object"}},
        {"name": "broken"},
    ]}});
    let found = schema("2025-11-25").violations(&listed, Some("tools/list"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].pointer, "/result/tools/1");
    assert!(found[0].message.contains("inputSchema"), "{found:?}");
    // Without the method, only the envelope: any result object is a response.
    assert!(schema("2025-11-25").violations(&listed, None).is_empty());
}

#[test]
fn notifications_requests_and_errors_are_held_to_their_own_definitions() {
    let s = schema("2025-11-25");
    let progress =
        json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}});
    let found = s.violations(&progress, None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].definition, "ProgressNotification");
    assert_eq!(found[0].method, "notifications/progress");
    assert!(found[0].message.contains("progressToken"), "{found:?}");

    let roots = json!({"jsonrpc": "2.0", "id": "s1", "method": "roots/list"});
    assert!(s.violations(&roots, None).is_empty());
    let unknown = json!({"jsonrpc": "2.0", "id": 1, "method": "x/y", "params": {}});
    assert!(s.violations(&unknown, None).is_empty());

    let error = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601, "message": "no"}});
    assert!(s.violations(&error, Some("ping")).is_empty());
    let no_message = json!({"jsonrpc": "2.0", "id": 2, "error": {"code": -32601}});
    let found = s.violations(&no_message, Some("ping"));
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].method, "ping");
    assert!(found[0].message.contains("message"), "{found:?}");

    let nothing = json!({"jsonrpc": "2.0", "id": 2});
    assert_eq!(s.violations(&nothing, None)[0].definition, "JSONRPCMessage");
}

#[test]
fn an_elicitation_number_may_have_fractional_bounds() {
    let request = json!({"jsonrpc": "2.0", "id": 5, "method": "elicitation/create", "params": {
        "message": "How much?",
        "requestedSchema": {"type": "object", "properties": {
            "amount": {"type": "number", "minimum": 0.5, "maximum": 9.5, "default": 1.5}
        }}
    }});
    for revision in ["2025-06-18", "2025-11-25"] {
        let found = schema(revision).violations(&request, None);
        assert!(found.is_empty(), "{revision}: {found:?}");
    }
}

#[test]
fn a_batch_is_held_message_by_message() {
    let batch = json!([
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1}},
        {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"},
    ]);
    let found = schema("2025-03-26").violations(&batch, None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].pointer.starts_with("/0"), "{found:?}");
    let valid = json!([{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}]);
    assert!(schema("2025-03-26").violations(&valid, None).is_empty());
    let found = schema("2025-11-25").violations(&valid, None);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].message.contains("batch"), "{found:?}");
}
