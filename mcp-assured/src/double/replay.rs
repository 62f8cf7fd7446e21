//! A double that answers from a cassette: each recorded interaction made a [`Reply`], with
//! the notifications and server requests it brought sent again before the answer.

use serde_json::{Value, json};

use crate::cassette::{Cassette, Interaction};

use super::{
    reply::{Answer, Effect, Reply},
    state::Declared,
};

/// What a cassette used but never listed, declared so a replay lists it: a client lists
/// tools before it calls one (the Python SDK's `Client` does), and a session recorded by a
/// single call (`mcp-assured call --record`) never listed them. For each of tools, prompts
/// and resources whose list the cassette has no answer to, the ones it called, got or read,
/// in the order first used, unless `declared` has them already; a tool accepts any object.
pub(crate) fn declare_used(cassette: &Cassette, declared: &mut Declared) {
    let listed = |method: &str| {
        cassette
            .interactions
            .iter()
            .any(|interaction| interaction.method == method && interaction.result.is_some())
    };
    let used = |method: &str, key: &str| -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for interaction in &cassette.interactions {
            if interaction.method == method
                && let Some(name) = interaction.params[key].as_str()
                && !names.iter().any(|known| known == name)
            {
                names.push(name.to_owned());
            }
        }
        names
    };
    let add =
        |items: &mut Vec<Value>, key: &str, names: Vec<String>, item: &dyn Fn(&str) -> Value| {
            for name in names {
                if !items.iter().any(|known| known[key] == name.as_str()) {
                    items.push(item(&name));
                }
            }
        };
    if !listed("tools/list") {
        add(
            &mut declared.tools,
            "name",
            used("tools/call", "name"),
            &|name| json!({"name": name, "inputSchema": {"type": "object"}}),
        );
    }
    if !listed("prompts/list") {
        add(
            &mut declared.prompts,
            "name",
            used("prompts/get", "name"),
            &|name| json!({"name": name}),
        );
    }
    if !listed("resources/list") {
        add(
            &mut declared.resources,
            "uri",
            used("resources/read", "uri"),
            &|uri| json!({"uri": uri, "name": uri}),
        );
    }
}

/// What `interaction` answered, as a reply: its result or error (a request recorded
/// without an answer, cancelled say, hangs), after its notifications and server requests in
/// the order they came. A progress notification is sent with the new request's token.
pub(crate) fn reply_of(interaction: &Interaction) -> Reply {
    let answer = match (&interaction.result, &interaction.error) {
        (Some(result), _) => Answer::Result(result.clone()),
        (None, Some(error)) => Answer::Error {
            code: i32::try_from(error.code).unwrap_or(i32::MIN),
            message: error.message.clone(),
            data: error.data.clone(),
        },
        (None, None) => Answer::Hang,
    };
    let mut before: Vec<(f64, Effect)> = interaction
        .notifications
        .iter()
        .map(|notification| {
            let params = &notification.params;
            let effect = if notification.method == "notifications/progress" {
                Effect::Progress {
                    progress: params["progress"].as_f64().unwrap_or_default(),
                    total: params["total"].as_f64(),
                    message: params["message"].as_str().map(str::to_owned),
                }
            } else {
                Effect::Notify {
                    method: notification.method.clone(),
                    params: params.clone(),
                }
            };
            (notification.at_ms, effect)
        })
        .chain(interaction.server_requests.iter().map(|request| {
            (
                request.at_ms,
                Effect::Ask {
                    method: request.method.clone(),
                    params: request.params.clone(),
                },
            )
        }))
        .collect();
    before.sort_by(|a, b| a.0.total_cmp(&b.0));
    Reply {
        answer,
        delay: None,
        before: before.into_iter().map(|(_, effect)| effect).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interaction(method: &str, params: Value, result: Option<Value>) -> Interaction {
        serde_json::from_value(json!({"method": method, "params": params, "result": result}))
            .unwrap()
    }

    fn cassette(interactions: Vec<Interaction>) -> Cassette {
        let mut cassette: Cassette = serde_json::from_value(json!({
            "cassette": crate::cassette::VERSION,
            "recorded": "2026-11-29T00:00:00Z",
            "server": {"protocolVersion": "2026-07-28", "serverInfo": {}, "capabilities": {}},
            "interactions": [],
        }))
        .unwrap();
        cassette.interactions = interactions;
        cassette
    }

    #[test]
    fn what_was_used_but_never_listed_is_declared_once() {
        let called = |name: &str| {
            interaction(
                "tools/call",
                json!({"name": name, "arguments": {}}),
                Some(json!({})),
            )
        };
        let used = cassette(vec![
            called("echo"),
            called("add"),
            called("echo"),
            interaction("prompts/get", json!({"name": "greet"}), Some(json!({}))),
            interaction(
                "resources/read",
                json!({"uri": "file:///a"}),
                Some(json!({})),
            ),
        ]);
        let mut declared = Declared::default();
        declared
            .tools
            .push(json!({"name": "add", "inputSchema": {"type": "object", "required": ["a"]}}));
        declare_used(&used, &mut declared);
        let names: Vec<_> = declared
            .tools
            .iter()
            .map(|tool| tool["name"].clone())
            .collect();
        assert_eq!(names, [json!("add"), json!("echo")]);
        assert_eq!(
            declared.tools[0]["inputSchema"]["required"],
            json!(["a"]),
            "kept as declared"
        );
        assert_eq!(declared.prompts, [json!({"name": "greet"})]);
        assert_eq!(
            declared.resources,
            [json!({"uri": "file:///a", "name": "file:///a"})]
        );
    }

    #[test]
    fn a_recorded_list_is_the_list() {
        let listed = cassette(vec![
            interaction("tools/list", Value::Null, Some(json!({"tools": []}))),
            interaction("tools/call", json!({"name": "echo"}), Some(json!({}))),
        ]);
        let mut declared = Declared::default();
        declare_used(&listed, &mut declared);
        assert!(declared.tools.is_empty());
    }
}
