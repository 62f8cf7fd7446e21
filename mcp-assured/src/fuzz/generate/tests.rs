//! Generation against schemas as servers send them, judged by the validator.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{Value, json};

use super::{Generator, Invalid, Mutation};
use crate::schema::Schema;

const DRAFT_07: &str = "http://json-schema.org/draft-07/schema#";

fn runner(seed: u8) -> TestRunner {
    TestRunner::new_with_rng(
        Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &[seed; 32]),
    )
}

fn draw<S: Strategy>(strategy: &S, runner: &mut TestRunner) -> S::Value {
    strategy.new_tree(runner).expect("a value").current()
}

fn valid_draws(schema: &Value, count: usize) -> Vec<Value> {
    let generator = Generator::new(schema).expect("a supported schema");
    let strategy = generator.valid();
    let mut runner = runner(1);
    (0..count).map(|_| draw(&strategy, &mut runner)).collect()
}

/// A schema as some server or library emits it, and the mutations that apply to it (none
/// when nothing is invalid).
struct Case {
    name: &'static str,
    schema: Value,
    mutations: &'static [&'static str],
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "server-everything echo",
            schema: json!({
                "type": "object",
                "properties": {"message": {"type": "string", "description": "Message to echo"}},
                "required": ["message"],
                "additionalProperties": false,
                "$schema": DRAFT_07
            }),
            mutations: &["missing_required", "wrong_type", "extra_property"],
        },
        Case {
            name: "server-everything add",
            schema: json!({
                "type": "object",
                "properties": {
                    "a": {"type": "number", "description": "First number"},
                    "b": {"type": "number", "description": "Second number"}
                },
                "required": ["a", "b"],
                "additionalProperties": false,
                "$schema": DRAFT_07
            }),
            mutations: &["missing_required", "wrong_type", "extra_property"],
        },
        Case {
            name: "zod-to-json-schema search",
            schema: json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "minLength": 1, "maxLength": 200},
                    "limit": {"type": "integer", "exclusiveMinimum": 0, "maximum": 100, "default": 10},
                    "sort": {"type": "string", "enum": ["asc", "desc"]},
                    "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
                    "email": {"type": "string", "format": "email"},
                    "since": {"type": "string", "format": "date-time"},
                    "id": {"type": "string", "format": "uuid"},
                    "verbose": {"type": "boolean"}
                },
                "required": ["query"],
                "additionalProperties": false,
                "$schema": DRAFT_07
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "too_short",
                "too_long",
                "below_minimum",
                "above_maximum",
                "not_in_enum",
                "too_many_items",
                "extra_property",
            ],
        },
        Case {
            name: "pydantic v2 model",
            schema: json!({
                "$defs": {
                    "Address": {
                        "properties": {
                            "street": {"title": "Street", "type": "string"},
                            "zip": {"pattern": "^\\d{5}$", "title": "Zip", "type": "string"}
                        },
                        "required": ["street", "zip"],
                        "title": "Address",
                        "type": "object"
                    },
                    "Unit": {"enum": ["metric", "imperial"], "title": "Unit", "type": "string"}
                },
                "properties": {
                    "name": {"title": "Name", "type": "string"},
                    "age": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}], "default": null, "title": "Age"},
                    "address": {"$ref": "#/$defs/Address"},
                    "unit": {"$ref": "#/$defs/Unit", "default": "metric"},
                    "scores": {"items": {"type": "number"}, "title": "Scores", "type": "array", "uniqueItems": true},
                    "nickname": {"anyOf": [{"type": "string", "maxLength": 10}, {"type": "null"}], "default": null, "title": "Nickname"}
                },
                "required": ["name", "address"],
                "title": "Person",
                "type": "object"
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "pattern_mismatch",
                "not_in_enum",
                "too_long",
                "duplicate_items",
            ],
        },
        Case {
            name: "schemars draft-07",
            schema: json!({
                "$schema": DRAFT_07,
                "title": "SearchArgs",
                "type": "object",
                "required": ["count", "mode"],
                "properties": {
                    "count": {"type": "integer", "format": "uint32", "minimum": 0.0},
                    "offset": {"type": ["integer", "null"], "format": "uint64", "minimum": 0.0},
                    "mode": {"$ref": "#/definitions/Mode"},
                    "filter": {"anyOf": [{"$ref": "#/definitions/Filter"}, {"type": "null"}]}
                },
                "definitions": {
                    "Mode": {"type": "string", "enum": ["fast", "thorough"]},
                    "Filter": {
                        "type": "object",
                        "required": ["field"],
                        "properties": {
                            "field": {"type": "string"},
                            "values": {"type": "array", "items": {"type": "string"}}
                        }
                    }
                }
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "not_in_enum",
            ],
        },
        Case {
            name: "recursive tree",
            schema: json!({
                "$defs": {
                    "Node": {
                        "type": "object",
                        "properties": {
                            "value": {"type": "integer"},
                            "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}
                        },
                        "required": ["value"]
                    }
                },
                "type": "object",
                "properties": {"root": {"$ref": "#/$defs/Node"}},
                "required": ["root"]
            }),
            mutations: &["missing_required", "wrong_type"],
        },
        Case {
            name: "discriminated oneOf",
            schema: json!({
                "type": "object",
                "properties": {
                    "shape": {
                        "oneOf": [
                            {
                                "type": "object",
                                "properties": {"kind": {"const": "circle"}, "radius": {"type": "number", "exclusiveMinimum": 0}},
                                "required": ["kind", "radius"],
                                "additionalProperties": false
                            },
                            {
                                "type": "object",
                                "properties": {"kind": {"const": "rect"}, "w": {"type": "number", "minimum": 0}, "h": {"type": "number", "minimum": 0}},
                                "required": ["kind", "w", "h"],
                                "additionalProperties": false
                            }
                        ]
                    }
                },
                "required": ["shape"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "not_const",
                "extra_property",
            ],
        },
        Case {
            name: "allOf and decimal multipleOf",
            schema: json!({
                "type": "object",
                "properties": {
                    "price": {"type": "number", "multipleOf": 0.01, "minimum": 0, "maximum": 1000},
                    "qty": {"allOf": [{"type": "integer", "minimum": 1}, {"maximum": 50, "multipleOf": 5}]}
                },
                "required": ["price", "qty"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "above_maximum",
                "not_multiple_of",
            ],
        },
        Case {
            name: "draft-04 exclusive booleans",
            schema: json!({
                "$schema": "http://json-schema.org/draft-04/schema#",
                "type": "object",
                "properties": {"ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "maximum": 1, "exclusiveMaximum": true}},
                "required": ["ratio"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "above_maximum",
            ],
        },
        Case {
            name: "draft-07 tuple",
            schema: json!({
                "$schema": DRAFT_07,
                "type": "object",
                "properties": {
                    "point": {"type": "array", "items": [{"type": "number"}, {"type": "number"}], "additionalItems": false, "minItems": 2}
                },
                "required": ["point"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "too_few_items",
                "too_many_items",
            ],
        },
        Case {
            name: "2020-12 prefixItems",
            schema: json!({
                "type": "array",
                "prefixItems": [{"type": "string"}, {"type": "integer"}],
                "items": false,
                "minItems": 1
            }),
            mutations: &["wrong_type", "too_few_items", "too_many_items"],
        },
        Case {
            name: "if/then/else",
            schema: json!({
                "type": "object",
                "properties": {"country": {"enum": ["US", "CA"]}, "postal": {"type": "string"}},
                "required": ["country", "postal"],
                "if": {"properties": {"country": {"const": "US"}}},
                "then": {"properties": {"postal": {"pattern": "^[0-9]{5}$"}}},
                "else": {"properties": {"postal": {"pattern": "^[A-Z][0-9][A-Z] [0-9][A-Z][0-9]$"}}}
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "not_in_enum",
                "not_const",
                "pattern_mismatch",
            ],
        },
        Case {
            name: "additionalProperties schema",
            schema: json!({
                "type": "object",
                "properties": {"id": {"type": "string"}},
                "required": ["id"],
                "additionalProperties": {"type": "integer"},
                "patternProperties": {"^x-": {"type": "boolean"}},
                "minProperties": 2,
                "maxProperties": 4
            }),
            mutations: &["missing_required", "wrong_type"],
        },
        Case {
            name: "formats under draft-07",
            schema: json!({
                "$schema": DRAFT_07,
                "type": "object",
                "properties": {
                    "d": {"type": "string", "format": "date"},
                    "t": {"type": "string", "format": "time"},
                    "ip4": {"type": "string", "format": "ipv4"},
                    "ip6": {"type": "string", "format": "ipv6"},
                    "host": {"type": "string", "format": "hostname"},
                    "uri": {"type": "string", "format": "uri"},
                    "custom": {"type": "string", "format": "x-unknown", "maxLength": 3}
                },
                "required": ["d", "t", "ip4", "ip6", "host", "uri"]
            }),
            mutations: &["missing_required", "wrong_type", "too_long"],
        },
        Case {
            name: "patterns and lengths",
            schema: json!({
                "type": "object",
                "properties": {
                    "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d{2,4}$"},
                    "slug": {"type": "string", "pattern": "^[a-z0-9-]+$", "minLength": 3, "maxLength": 12},
                    "not_admin": {"type": "string", "pattern": "^(?!admin).*$"},
                    "anywhere": {"type": "string", "pattern": "ab"}
                },
                "required": ["code", "slug", "not_admin", "anywhere"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "pattern_mismatch",
                "too_short",
                "too_long",
            ],
        },
        Case {
            name: "contains and uniqueItems",
            schema: json!({
                "type": "object",
                "properties": {
                    "ids": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 10},
                        "uniqueItems": true,
                        "minItems": 2,
                        "maxItems": 4,
                        "contains": {"const": 7}
                    }
                },
                "required": ["ids"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "above_maximum",
                "too_few_items",
                "too_many_items",
                "duplicate_items",
            ],
        },
        Case {
            name: "tool without arguments",
            schema: json!({"type": "object", "properties": {}}),
            mutations: &[],
        },
        Case {
            name: "any value",
            schema: json!({}),
            mutations: &[],
        },
        Case {
            name: "untyped keywords and nullable",
            schema: json!({
                "properties": {
                    "n": {"minimum": 5, "maximum": 6},
                    "s": {"maxLength": 2},
                    "maybe": {"type": "string", "nullable": true},
                    "either": {"type": ["integer", "string"], "minimum": 3, "minLength": 2}
                },
                "required": ["n", "s", "maybe", "either"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "above_maximum",
                "too_long",
                "too_short",
            ],
        },
        Case {
            name: "dependencies, not and local pointers",
            schema: json!({
                "type": "object",
                "properties": {
                    "card": {"type": "string"},
                    "cvv": {"type": "string", "pattern": "^[0-9]{3}$"},
                    "billing": {"type": "string"},
                    "mode": {"type": "string", "not": {"const": "admin"}},
                    "retries": {"type": "integer", "minimum": 3},
                    "backup": {"$ref": "#/properties/retries"},
                    "flag": {"$ref": "#flag"}
                },
                "$defs": {"Flag": {"$anchor": "flag", "type": "boolean"}},
                "dependentRequired": {"card": ["billing"]},
                "dependentSchemas": {"card": {"required": ["cvv"]}},
                "required": ["mode"]
            }),
            mutations: &[
                "missing_required",
                "wrong_type",
                "below_minimum",
                "pattern_mismatch",
            ],
        },
        Case {
            name: "draft-07 dependencies",
            schema: json!({
                "$schema": DRAFT_07,
                "type": "object",
                "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "c": {"type": "string"}},
                "dependencies": {"a": ["b"], "c": {"properties": {"b": {"maximum": 0}}}}
            }),
            mutations: &["missing_required", "wrong_type", "above_maximum"],
        },
        Case {
            name: "mutually recursive $refs with siblings",
            schema: json!({
                "$defs": {
                    "Expr": {"anyOf": [{"type": "number"}, {"$ref": "#/$defs/Sum"}]},
                    "Sum": {
                        "type": "object",
                        "properties": {"left": {"$ref": "#/$defs/Expr"}, "right": {"$ref": "#/$defs/Expr"}},
                        "required": ["left", "right"]
                    }
                },
                "type": "object",
                "properties": {"expr": {"$ref": "#/$defs/Expr", "description": "what to compute"}},
                "required": ["expr"]
            }),
            mutations: &["missing_required", "wrong_type"],
        },
    ]
}

#[test]
fn valid_values_validate_for_every_case() {
    for case in cases() {
        let oracle = Schema::compile(&case.schema);
        for value in valid_draws(&case.schema, 500) {
            let violations = oracle.violations(&value);
            assert!(
                violations.is_empty(),
                "{}: {value} {violations:?}",
                case.name
            );
        }
    }
}

#[test]
fn invalid_values_fail_validation_with_a_mutation_that_applies() {
    for case in cases() {
        let generator = Generator::new(&case.schema).unwrap();
        let Some(strategy) = generator.invalid() else {
            assert!(
                case.mutations.is_empty(),
                "{}: no invalid values",
                case.name
            );
            continue;
        };
        assert!(!case.mutations.is_empty(), "{}: invalid values", case.name);
        let oracle = Schema::compile(&case.schema);
        let mut runner = runner(2);
        let mut kinds = Vec::new();
        for _ in 0..300 {
            let Invalid { mutation, value } = draw(&strategy, &mut runner);
            assert!(
                !oracle.violations(&value).is_empty(),
                "{}: {mutation} left {value} valid",
                case.name
            );
            assert!(
                case.mutations.contains(&mutation.kind()),
                "{}: unexpected {mutation:?}",
                case.name
            );
            assert!(
                value.pointer(mutation.at()).is_some(),
                "{}: {mutation:?} points nowhere in {value}",
                case.name
            );
            if !kinds.contains(&mutation.kind()) {
                kinds.push(mutation.kind());
            }
        }
        assert!(kinds.len() >= 2, "{}: only {kinds:?}", case.name);
    }
}

#[test]
fn every_listed_mutation_of_the_zod_case_appears() {
    let case = cases()
        .into_iter()
        .find(|c| c.name.starts_with("zod"))
        .unwrap();
    let strategy = Generator::new(&case.schema).unwrap().invalid().unwrap();
    let mut runner = runner(3);
    let mut kinds: Vec<&str> = (0..2000)
        .map(|_| draw(&strategy, &mut runner).mutation.kind())
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(kinds.len(), case.mutations.len(), "{kinds:?}");
}

#[test]
fn thousand_draws_of_each_case_never_exhaust_the_rejection_budget() {
    for case in cases() {
        let generator = Generator::new(&case.schema).unwrap();
        let mut runner = runner(4);
        for _ in 0..1000 {
            generator
                .valid()
                .new_tree(&mut runner)
                .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        }
        if let Some(invalid) = generator.invalid() {
            for _ in 0..1000 {
                invalid
                    .new_tree(&mut runner)
                    .unwrap_or_else(|e| panic!("{}: {e}", case.name));
            }
        }
    }
}

#[test]
fn integer_bounds_both_appear() {
    let values = valid_draws(
        &json!({"type": "integer", "minimum": 1, "maximum": 100}),
        200,
    );
    assert!(values.contains(&json!(1)), "{values:?}");
    assert!(values.contains(&json!(100)), "{values:?}");
    assert!(values.iter().all(|v| v.is_i64()));
    let boundaries = values
        .iter()
        .filter(|v| [1, 2, 99, 100].contains(&v.as_i64().unwrap()))
        .count();
    assert!(
        (40..=110).contains(&boundaries),
        "{boundaries} of 200 on a boundary"
    );
}

#[test]
fn strings_reach_both_length_limits() {
    let values = valid_draws(&json!({"type": "string", "maxLength": 5}), 200);
    let lengths: Vec<usize> = values
        .iter()
        .map(|v| v.as_str().unwrap().chars().count())
        .collect();
    assert!(lengths.contains(&0), "{lengths:?}");
    assert!(lengths.contains(&5), "{lengths:?}");
    let text: String = values.iter().map(|v| v.as_str().unwrap()).collect();
    assert!(!text.is_ascii(), "{text}");
}

#[test]
fn arrays_reach_max_items() {
    let values = valid_draws(
        &json!({"type": "array", "items": {"type": "integer"}, "maxItems": 3}),
        200,
    );
    let lengths: Vec<usize> = values.iter().map(|v| v.as_array().unwrap().len()).collect();
    assert!(lengths.contains(&0) && lengths.contains(&3), "{lengths:?}");
}

#[test]
fn unbounded_integers_stay_small_but_reach_extremes() {
    let values = valid_draws(&json!({"type": "integer"}), 1000);
    let small = values
        .iter()
        .filter(|v| v.as_i64().is_some_and(|i| i.unsigned_abs() <= 1000))
        .count();
    assert!(small > 900, "{small}");
    assert!(values.iter().any(|v| v.as_i64() == Some(i64::MAX)
        || v.as_i64() == Some(i64::MIN)
        || v.as_u64() == Some(u64::MAX)));
}

#[test]
fn optional_properties_come_about_half_the_time() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]});
    let values = valid_draws(&schema, 400);
    let with_b = values.iter().filter(|v| v.get("b").is_some()).count();
    assert!((120..=280).contains(&with_b), "{with_b}");
    assert!(values.iter().all(|v| v.as_object().unwrap().len() <= 2));
}

#[test]
fn recursion_is_cut_off() {
    let schema = json!({
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}, "tags": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}},
        "$ref": "#/$defs/Node"
    });
    fn depth(value: &Value) -> usize {
        match value {
            Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
            Value::Array(items) => 1 + items.iter().map(depth).max().unwrap_or(0),
            _ => 0,
        }
    }
    let values = valid_draws(&schema, 300);
    let deepest = values.iter().map(depth).max().unwrap();
    assert!((2..=12).contains(&deepest), "{deepest}");
}

#[test]
fn a_valid_object_shrinks_to_its_required_minimum() {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer", "minimum": 3}, "tags": {"type": "array", "items": {"type": "string"}}},
        "required": ["name"]
    });
    let strategy = Generator::new(&schema).unwrap().valid();
    let mut runner = runner(5);
    for _ in 0..20 {
        let mut tree = strategy.new_tree(&mut runner).unwrap();
        while tree.simplify() {}
        assert_eq!(tree.current(), json!({"name": ""}));
    }
}

#[test]
fn a_bounded_integer_shrinks_to_its_minimum() {
    let strategy = Generator::new(&json!({"type": "integer", "minimum": 10, "maximum": 100}))
        .unwrap()
        .valid();
    let mut runner = runner(6);
    for _ in 0..20 {
        let mut tree = strategy.new_tree(&mut runner).unwrap();
        while tree.simplify() {}
        assert_eq!(tree.current(), json!(10));
    }
}

/// The caller's loop, as proptest runs it: simplify while the value still fails, complicate
/// when it passes; the answer is the last failing value.
fn shrink(tree: &mut dyn ValueTree<Value = Value>, fails: impl Fn(&Value) -> bool) -> Value {
    let mut last_failing = tree.current();
    loop {
        let current = tree.current();
        let moved = if fails(&current) {
            last_failing = current;
            tree.simplify()
        } else {
            tree.complicate()
        };
        if !moved {
            return last_failing;
        }
    }
}

#[test]
fn shrinking_finds_the_smallest_failing_value() {
    let strategy = Generator::new(&json!({"type": "integer", "minimum": 0, "maximum": 1000}))
        .unwrap()
        .valid();
    let mut runner = runner(7);
    let mut found = 0;
    for _ in 0..50 {
        let mut tree = strategy.new_tree(&mut runner).unwrap();
        if tree.current().as_i64().unwrap() < 37 {
            continue;
        }
        found += 1;
        let smallest = shrink(tree.as_mut(), |v: &Value| v.as_i64().unwrap() >= 37);
        assert_eq!(smallest, json!(37));
    }
    assert!(found > 10);

    let strings = Generator::new(&json!({"type": "string", "maxLength": 50}))
        .unwrap()
        .valid();
    for _ in 0..50 {
        let mut tree = strings.new_tree(&mut runner).unwrap();
        let fails = |v: &Value| v.as_str().unwrap().chars().count() >= 4;
        if !fails(&tree.current()) {
            continue;
        }
        assert_eq!(shrink(tree.as_mut(), fails), json!("aaaa"));
    }
}

#[test]
fn an_invalid_value_keeps_its_mutation_while_shrinking() {
    let schema = json!({
        "type": "object",
        "properties": {"name": {"type": "string"}, "city": {"type": "string", "minLength": 2}, "note": {"type": "string"}},
        "required": ["name", "city"],
        "additionalProperties": false
    });
    let oracle = Schema::compile(&schema);
    let strategy = Generator::new(&schema).unwrap().invalid().unwrap();
    let mut runner = runner(8);
    let mut shrunk = 0;
    for _ in 0..200 {
        let mut tree = strategy.new_tree(&mut runner).unwrap();
        let first = tree.current();
        if first.mutation
            != (Mutation::MissingRequired {
                at: String::new(),
                property: "name".into(),
            })
        {
            continue;
        }
        while tree.simplify() {
            let now = tree.current();
            assert_eq!(now.mutation, first.mutation);
            assert!(!oracle.violations(&now.value).is_empty(), "{}", now.value);
        }
        assert_eq!(tree.current().value, json!({"city": "aa"}));
        shrunk += 1;
    }
    assert!(shrunk > 5, "{shrunk}");
}

#[test]
fn the_same_seed_gives_the_same_values() {
    let case = cases()
        .into_iter()
        .find(|c| c.name.starts_with("pydantic"))
        .unwrap();
    let first_twenty = || {
        let generator = Generator::new(&case.schema).unwrap();
        let mut runner = TestRunner::new_with_rng(
            Config::default(),
            TestRng::from_seed(RngAlgorithm::ChaCha, &[7; 32]),
        );
        let valid: Vec<Value> = (0..20)
            .map(|_| draw(&generator.valid(), &mut runner))
            .collect();
        let invalid: Vec<Invalid> = (0..20)
            .map(|_| draw(&generator.invalid().unwrap(), &mut runner))
            .collect();
        (valid, invalid)
    };
    assert_eq!(first_twenty(), first_twenty());
}

#[test]
fn unsupported_schemas_say_where_and_why() {
    let unsupported = |schema: Value| Generator::new(&schema).unwrap_err();
    let remote = unsupported(
        json!({"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}}),
    );
    assert_eq!(remote.at, "/properties/a/$ref");
    assert!(remote.reason.contains("remote"), "{remote}");
    assert_eq!(unsupported(json!(false)).at, "");
    let contradiction = unsupported(json!({"allOf": [{"type": "string"}, {"type": "integer"}]}));
    assert_eq!(contradiction.at, "/allOf");
    assert!(
        contradiction.reason.contains("nothing in common"),
        "{contradiction}"
    );
    let nested = unsupported(
        json!({"type": "object", "properties": {"n": {"type": "integer", "minimum": 5, "maximum": 4}}}),
    );
    assert_eq!(nested.at, "/properties/n");
    let infinite = unsupported(
        json!({"$defs": {"L": {"type": "object", "properties": {"next": {"$ref": "#/$defs/L"}}, "required": ["next"]}}, "$ref": "#/$defs/L"}),
    );
    assert!(infinite.reason.contains("infinitely"), "{infinite}");
    let refused = unsupported(json!({"type": "string", "not": {"type": "string"}}));
    assert_eq!(refused.at, "/not");
    assert!(
        refused
            .to_string()
            .starts_with("cannot generate values for the schema at /not"),
        "{refused}"
    );
}

#[test]
fn mutations_read_as_sentences() {
    let missing = Mutation::MissingRequired {
        at: String::new(),
        property: "b".into(),
    };
    assert_eq!(missing.to_string(), "required property `b` dropped");
    assert_eq!(missing.kind(), "missing_required");
    let above = Mutation::AboveMaximum {
        at: "/limit".into(),
        bound: "100".into(),
    };
    assert_eq!(above.to_string(), "`/limit` one past maximum 100");
    assert_eq!(above.at(), "/limit");
    let extra = Mutation::ExtraProperty {
        at: String::new(),
        property: "mcp_assured_extra".into(),
    };
    assert_eq!(
        extra.to_string(),
        "extra property `mcp_assured_extra` where additionalProperties is false"
    );
}

#[test]
fn generators_can_be_shared_across_threads() {
    fn shareable<T: Send + Sync + Clone>() {}
    shareable::<Generator>();
}

#[test]
fn wrong_types_are_never_coercible() {
    let schema = json!({
        "type": "object",
        "properties": {"n": {"type": "integer"}, "b": {"type": "boolean"}, "s": {"type": "string"}, "list": {"type": "array"}, "o": {"type": "object"}},
        "required": ["n", "b", "s", "list", "o"]
    });
    let strategy = Generator::new(&schema).unwrap().invalid().unwrap();
    let mut runner = runner(9);
    let mut fractions = 0;
    for _ in 0..500 {
        let Invalid { mutation, value } = draw(&strategy, &mut runner);
        let Mutation::WrongType { at, expected } = &mutation else {
            continue;
        };
        let wrong = value.pointer(at).unwrap();
        match expected.as_str() {
            "integer" => {
                assert!(
                    wrong.is_array()
                        || wrong.is_object()
                        || wrong.as_f64().is_some_and(|f| f.fract() != 0.0),
                    "{wrong}"
                );
                fractions += usize::from(wrong.is_f64());
            }
            "boolean" | "string" => assert!(wrong.is_array() || wrong.is_object(), "{wrong}"),
            "array" | "object" => assert!(
                wrong.is_string() || wrong.is_object() || wrong.is_array(),
                "{wrong}"
            ),
            other => panic!("unexpected {other}"),
        }
    }
    assert!(fractions > 0);
}
