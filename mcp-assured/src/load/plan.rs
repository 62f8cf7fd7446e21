//! What a load run sends: a mix of tool calls, each with its weight, checked against the
//! server's tools before the run, or every tool with arguments generated from its
//! `inputSchema` as the fuzzer generates valid ones.

#[cfg(feature = "fuzz")]
use proptest::{
    strategy::{Strategy, ValueTree},
    test_runner::TestRunner,
};
use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
#[cfg(feature = "fuzz")]
use crate::fuzz::generate::Generator;

/// How many argument sets are drawn per tool when arguments are generated; calls pick among
/// them, so that the run measures the server and not the generator.
#[cfg(feature = "fuzz")]
pub(super) const GENERATED_ARGUMENTS: usize = 32;

/// One call of the mix, as the user gave it.
#[derive(Debug, Clone)]
pub(super) struct Call {
    pub(super) tool: String,
    pub(super) arguments: Value,
    pub(super) weight: u32,
}

/// A tool left out of a run over every tool, and why.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedTool {
    /// The tool's name.
    pub name: String,
    /// Why it was left out: annotated `destructiveHint`, or no valid arguments could be
    /// generated from its `inputSchema` (the reason says where).
    pub reason: String,
}

/// One tool of the plan: its name, the arguments calls take in turn, its weight.
#[derive(Debug)]
pub(super) struct Entry {
    pub(super) tool: String,
    pub(super) arguments: Vec<Value>,
}

/// The checked mix: entries (one per distinct tool, in the order first given) and, per call
/// of the mix, which entry and argument set it uses, with cumulative weights for picking.
#[derive(Debug)]
pub(super) struct Plan {
    pub(super) entries: Vec<Entry>,
    /// `(entry, argument index, cumulative weight)` per call of the mix.
    picks: Vec<(usize, usize, u64)>,
    total_weight: u64,
    pub(super) skipped: Vec<SkippedTool>,
}

impl Plan {
    /// The given calls, checked: arguments must be objects, weights above 0, and every tool
    /// offered by the server (`tools` as it listed them).
    pub(super) fn given(calls: &[Call], tools: &[Value]) -> Result<Plan> {
        let offered: Vec<String> = tools
            .iter()
            .filter_map(|tool| tool.get("name").and_then(Value::as_str))
            .map(str::to_owned)
            .collect();
        let mut plan = Plan::empty();
        for call in calls {
            if !offered.contains(&call.tool) {
                return Err(Error::NotFound {
                    kind: "tool",
                    name: call.tool.clone(),
                    available: offered,
                });
            }
            if !call.arguments.is_object() && !call.arguments.is_null() {
                return Err(Error::invalid(
                    format!("arguments for tool `{}`", call.tool),
                    format!(
                        "expected a JSON object (or null for none), got {}",
                        call.arguments
                    ),
                ));
            }
            if call.weight == 0 {
                return Err(Error::invalid(
                    format!("weight of the call to `{}`", call.tool),
                    "a weight is 1 or more (a call of weight 0 would never be sent: leave it out)",
                ));
            }
            let entry = match plan.entries.iter().position(|e| e.tool == call.tool) {
                Some(index) => index,
                None => {
                    plan.entries.push(Entry {
                        tool: call.tool.clone(),
                        arguments: Vec::new(),
                    });
                    plan.entries.len() - 1
                }
            };
            let arguments = &mut plan.entries[entry].arguments;
            arguments.push(call.arguments.clone());
            let index = arguments.len() - 1;
            plan.push(entry, index, call.weight);
        }
        Ok(plan)
    }

    /// Every tool in `tools`, weight 1 each, with [`GENERATED_ARGUMENTS`] valid argument sets
    /// drawn from its `inputSchema` (deterministically); destructive tools are skipped unless
    /// `include_destructive`, and so are tools whose schema generates nothing.
    #[cfg(feature = "fuzz")]
    pub(super) fn every_tool(tools: &[Value], include_destructive: bool) -> Result<Plan> {
        let mut plan = Plan::empty();
        let mut runner = TestRunner::deterministic();
        for tool in tools {
            let Some(name) = tool.get("name").and_then(Value::as_str) else {
                continue;
            };
            let destructive = tool
                .pointer("/annotations/destructiveHint")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            if destructive && !include_destructive {
                plan.skipped.push(SkippedTool {
                    name: name.to_owned(),
                    reason: "annotated destructiveHint (include destructive tools to call it)"
                        .to_owned(),
                });
                continue;
            }
            let schema = tool
                .get("inputSchema")
                .cloned()
                .unwrap_or_else(|| serde_json::json!({"type": "object"}));
            let arguments = match Generator::new(&schema) {
                Ok(generator) => draw(&generator, &mut runner),
                Err(unsupported) => Err(unsupported.to_string()),
            };
            match arguments {
                Ok(arguments) => {
                    plan.entries.push(Entry {
                        tool: name.to_owned(),
                        arguments,
                    });
                    let entry = plan.entries.len() - 1;
                    for index in 0..plan.entries[entry].arguments.len() {
                        // Weight 1 per tool, spread over its argument sets.
                        plan.push(entry, index, 1);
                    }
                }
                Err(reason) => plan.skipped.push(SkippedTool {
                    name: name.to_owned(),
                    reason: format!("no valid arguments could be generated: {reason}"),
                }),
            }
        }
        if plan.entries.is_empty() {
            let skipped: Vec<String> = plan
                .skipped
                .iter()
                .map(|s| format!("`{}`: {}", s.name, s.reason))
                .collect();
            return Err(Error::invalid(
                "load plan",
                if skipped.is_empty() {
                    "the server lists no tools: name calls to send instead".to_owned()
                } else {
                    format!(
                        "no tool of the server can be called with generated arguments ({}); \
                         name calls with their arguments instead",
                        skipped.join("; ")
                    )
                },
            ));
        }
        Ok(plan)
    }

    /// Without the `fuzz` feature there is no generator: calls must be named.
    #[cfg(not(feature = "fuzz"))]
    pub(super) fn every_tool(_tools: &[Value], _include_destructive: bool) -> Result<Plan> {
        Err(Error::invalid(
            "load plan",
            "calling every tool with generated arguments needs mcp-assured's `fuzz` feature; \
             enable it, or name the calls to send with their arguments",
        ))
    }

    fn empty() -> Plan {
        Plan {
            entries: Vec::new(),
            picks: Vec::new(),
            total_weight: 0,
            skipped: Vec::new(),
        }
    }

    fn push(&mut self, entry: usize, arguments: usize, weight: u32) {
        self.total_weight += u64::from(weight);
        self.picks.push((entry, arguments, self.total_weight));
    }

    /// The entry and argument set for a random number `draw`.
    pub(super) fn pick(&self, draw: u64) -> (usize, &Value) {
        let point = draw % self.total_weight.max(1);
        let at = self.picks.partition_point(|(_, _, upto)| *upto <= point);
        let (entry, arguments, _) = self.picks[at.min(self.picks.len() - 1)];
        (entry, &self.entries[entry].arguments[arguments])
    }
}

/// Argument sets for one tool: up to [`GENERATED_ARGUMENTS`] draws of the valid strategy.
#[cfg(feature = "fuzz")]
fn draw(generator: &Generator, runner: &mut TestRunner) -> std::result::Result<Vec<Value>, String> {
    let strategy = generator.valid();
    let mut values = Vec::with_capacity(GENERATED_ARGUMENTS);
    for _ in 0..GENERATED_ARGUMENTS {
        match strategy.new_tree(runner) {
            Ok(tree) => values.push(tree.current()),
            Err(reason) => return Err(reason.to_string()),
        }
    }
    Ok(values)
}

/// A small, fast random number generator (xorshift64*), one per session: picking the next
/// call must cost nothing next to the call.
#[derive(Debug, Clone)]
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        // splitmix64 of the seed, so that nearby seeds start far apart; never 0.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tools() -> Vec<Value> {
        vec![
            json!({"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}, "required": ["message"]}}),
            json!({"name": "wipe", "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}),
        ]
    }

    fn call(tool: &str, arguments: Value, weight: u32) -> Call {
        Call {
            tool: tool.to_owned(),
            arguments,
            weight,
        }
    }

    #[test]
    fn picks_follow_the_weights() {
        let plan = Plan::given(
            &[
                call("echo", json!({"message": "a"}), 3),
                call("wipe", json!({}), 1),
            ],
            &tools(),
        )
        .unwrap();
        let mut rng = Rng::new(7);
        let mut counts = [0_u32; 2];
        for _ in 0..40_000 {
            counts[plan.pick(rng.next()).0] += 1;
        }
        let share = f64::from(counts[0]) / 40_000.0;
        assert!((0.72..0.78).contains(&share), "{counts:?}");
    }

    #[test]
    fn an_unknown_tool_is_refused_naming_the_offered_ones() {
        let error = Plan::given(&[call("nope", json!({}), 1)], &tools()).unwrap_err();
        assert!(error.to_string().contains("`nope` not found"), "{error}");
        assert!(error.to_string().contains("echo"), "{error}");
    }

    #[test]
    fn arguments_that_are_not_an_object_and_weight_zero_are_refused() {
        let error = Plan::given(&[call("echo", json!([1]), 1)], &tools()).unwrap_err();
        assert!(
            error.to_string().contains("expected a JSON object"),
            "{error}"
        );
        let error = Plan::given(&[call("echo", json!({}), 0)], &tools()).unwrap_err();
        assert!(error.to_string().contains("weight"), "{error}");
    }

    #[cfg(feature = "fuzz")]
    #[test]
    fn every_tool_generates_valid_arguments_and_skips_destructive_ones() {
        let plan = Plan::every_tool(&tools(), false).unwrap();
        assert_eq!(plan.entries.len(), 1);
        assert_eq!(plan.entries[0].arguments.len(), GENERATED_ARGUMENTS);
        assert!(
            plan.entries[0]
                .arguments
                .iter()
                .all(|a| a["message"].is_string())
        );
        assert_eq!(plan.skipped[0].name, "wipe");
        assert_eq!(Plan::every_tool(&tools(), true).unwrap().entries.len(), 2);
        assert!(Plan::every_tool(&[], false).is_err());
    }
}
