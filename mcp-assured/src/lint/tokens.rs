//! `token-budget`: what a surface costs a model on every turn. Each definition is counted as
//! its JSON (what clients put in front of the model, give or take their framing) with
//! OpenAI's `o200k_base` encoding (GPT-4o and later; `tiktoken-rs`, offline). Other models'
//! tokenizers differ by some tens of percent; the numbers are for comparing and budgeting.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use super::{Finding, rules};
use crate::diff::Surface;

/// A tool whose definition costs more than this many tokens warns.
pub const TOOL_TOKEN_WARNING: usize = 2_000;

/// What a surface costs in tokens.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct TokenCount {
    /// The encoding counted with: `o200k_base`.
    pub encoding: &'static str,
    /// Each tool's definition, by name.
    pub tools: BTreeMap<String, usize>,
    /// The prompts', resources' and templates' definitions together.
    pub others: usize,
    /// Everything.
    pub total: usize,
}

fn tokens_of(definition: &Value) -> usize {
    let text = serde_json::to_string(definition).unwrap_or_default();
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(&text)
        .len()
}

/// Counts `surface`.
pub(crate) fn count(surface: &Surface) -> TokenCount {
    let mut counted = TokenCount {
        encoding: "o200k_base",
        ..TokenCount::default()
    };
    for tool in &surface.tools {
        let name = tool.get("name").and_then(Value::as_str).unwrap_or("?");
        *counted.tools.entry(name.to_owned()).or_default() += tokens_of(tool);
    }
    counted.others = surface
        .prompts
        .iter()
        .chain(&surface.resources)
        .chain(&surface.resource_templates)
        .map(tokens_of)
        .sum();
    counted.total = counted.tools.values().sum::<usize>() + counted.others;
    counted
}

/// A tool over [`TOOL_TOKEN_WARNING`], and the surface over `budget`.
pub(crate) fn findings(counted: &TokenCount, budget: Option<usize>) -> Vec<Finding> {
    let mut found: Vec<Finding> = counted
        .tools
        .iter()
        .filter(|(_, tokens)| **tokens > TOOL_TOKEN_WARNING)
        .map(|(name, tokens)| {
            rules::TOOL_TOKENS.finding(
                &format!("tool `{name}`"),
                "",
                format!(
                    "the definition costs {tokens} tokens (o200k_base), over {TOOL_TOKEN_WARNING}"
                ),
            )
        })
        .collect();
    if let Some(budget) = budget.filter(|&budget| counted.total > budget) {
        let mut costliest: Vec<(&String, &usize)> = counted.tools.iter().collect();
        costliest.sort_by(|a, b| b.1.cmp(a.1));
        let top: Vec<String> = costliest
            .iter()
            .take(3)
            .map(|(name, tokens)| format!("`{name}` {tokens}"))
            .collect();
        found.push(rules::SURFACE_TOKENS.finding(
            "the server",
            "",
            format!(
                "the surface costs {} tokens (o200k_base), over the budget of {budget}; the costliest tools: {}",
                counted.total,
                top.join(", ")
            ),
        ));
    }
    found
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn counts_with_o200k_base_and_holds_the_budget() {
        let surface = Surface {
            tools: vec![
                json!({"name": "echo", "description": "Echoes.", "inputSchema": {"type": "object"}}),
                json!({"name": "long", "description": "word ".repeat(2_500)}),
            ],
            prompts: vec![json!({"name": "greet"})],
            ..Surface::default()
        };
        let counted = count(&surface);
        assert_eq!(counted.encoding, "o200k_base");
        // `{"name":"echo","description":"Echoes.","inputSchema":{"type":"object"}}`
        assert!((15..30).contains(&counted.tools["echo"]), "{counted:?}");
        assert!(counted.tools["long"] > 2_500, "{counted:?}");
        assert!(counted.others > 0);
        assert_eq!(
            counted.total,
            counted.tools.values().sum::<usize>() + counted.others
        );
        let found = findings(&counted, Some(100));
        let rules: Vec<(&str, &str)> = found.iter().map(|f| (f.rule, f.subject.as_str())).collect();
        assert_eq!(
            rules,
            [
                ("token-budget.tool", "tool `long`"),
                ("token-budget.surface", "the server")
            ]
        );
        assert!(found[1].message.contains("`long`"), "{}", found[1].message);
        assert_eq!(findings(&counted, Some(counted.total)).len(), 1);
    }
}
