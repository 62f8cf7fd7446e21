//! Every change kind, on pairs of surfaces that differ by it alone.

use serde_json::{Value, json};

use super::*;

fn with_tools(tools: Vec<Value>) -> Surface {
    Surface {
        tools,
        ..Surface::default()
    }
}

fn tools(old: Value, new: Value) -> Changes {
    compare(&with_tools(vec![old]), &with_tools(vec![new]))
}

/// The changes between two input schemas of a tool `t`.
fn input(old: Value, new: Value) -> Changes {
    tools(
        json!({"name": "t", "inputSchema": old}),
        json!({"name": "t", "inputSchema": new}),
    )
}

/// The changes between two output schemas of a tool `t`.
fn output(old: Value, new: Value) -> Changes {
    tools(
        json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": old}),
        json!({"name": "t", "inputSchema": {"type": "object"}, "outputSchema": new}),
    )
}

/// An object schema with `properties` and `required`.
fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required})
}

/// The one change, which must be of `kind` and `severity` at `pointer`.
#[track_caller]
fn only(changes: &Changes, kind: ChangeKind, severity: Severity, pointer: &str) -> Change {
    assert_eq!(changes.len(), 1, "expected one change, got:\n{changes}");
    let change = changes[0].clone();
    assert_eq!(
        (
            change.kind,
            change.severity,
            change.location.pointer.as_str()
        ),
        (kind, severity, pointer),
        "{change}"
    );
    change
}

use ChangeKind::*;
use Severity::{Breaking, Compatible};

#[test]
fn the_same_surface_has_no_changes() {
    let surface = with_tools(vec![json!({
        "name": "t",
        "inputSchema": object(json!({"a": {"type": "string"}}), &["a"]),
        "outputSchema": object(json!({"b": {"type": "number"}}), &["b"]),
        "annotations": {"readOnlyHint": true},
    })]);
    let changes = compare(&surface, &surface);
    assert!(changes.is_empty(), "{changes}");
    assert!(!changes.is_breaking());
    assert_eq!(changes.summary(), "no changes");
}

#[test]
fn items_removed_are_breaking_and_added_compatible() {
    let old = Surface {
        tools: vec![json!({"name": "gone", "inputSchema": {}})],
        resources: vec![json!({"uri": "file:///gone", "name": "gone"})],
        resource_templates: vec![json!({"uriTemplate": "file:///gone/{x}", "name": "gone"})],
        prompts: vec![json!({"name": "gone"})],
        ..Surface::default()
    };
    let new = Surface {
        tools: vec![json!({"name": "new", "inputSchema": {}})],
        resources: vec![json!({"uri": "file:///new", "name": "new"})],
        resource_templates: vec![json!({"uriTemplate": "file:///new/{x}", "name": "new"})],
        prompts: vec![json!({"name": "new"})],
        ..Surface::default()
    };
    let changes = compare(&old, &new);
    let found: Vec<(ChangeKind, Severity, Item, &str)> = changes
        .iter()
        .map(|c| {
            (
                c.kind,
                c.severity,
                c.location.item,
                c.location.name.as_str(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (ToolRemoved, Breaking, Item::Tool, "gone"),
            (ResourceRemoved, Breaking, Item::Resource, "file:///gone"),
            (
                ResourceTemplateRemoved,
                Breaking,
                Item::ResourceTemplate,
                "file:///gone/{x}"
            ),
            (PromptRemoved, Breaking, Item::Prompt, "gone"),
            (ToolAdded, Compatible, Item::Tool, "new"),
            (ResourceAdded, Compatible, Item::Resource, "file:///new"),
            (
                ResourceTemplateAdded,
                Compatible,
                Item::ResourceTemplate,
                "file:///new/{x}"
            ),
            (PromptAdded, Compatible, Item::Prompt, "new"),
        ]
    );
    assert!(changes.is_breaking());
    assert_eq!(changes.summary(), "4 breaking, 4 compatible changes");
}

#[test]
fn a_required_argument_added_is_breaking_an_optional_one_compatible() {
    let old = object(json!({"city": {"type": "string"}}), &["city"]);
    let required = object(
        json!({"city": {"type": "string"}, "units": {"type": "string"}}),
        &["city", "units"],
    );
    let change = only(
        &input(old.clone(), required),
        RequiredArgumentAdded,
        Breaking,
        "/inputSchema/properties/units",
    );
    assert_eq!(change.new, Some(json!({"type": "string"})));
    assert!(change.message.contains("`units`"), "{}", change.message);
    let optional = object(
        json!({"city": {"type": "string"}, "units": {"type": "string"}}),
        &["city"],
    );
    only(
        &input(old, optional),
        OptionalArgumentAdded,
        Compatible,
        "/inputSchema/properties/units",
    );
}

#[test]
fn a_removed_argument_breaks_only_where_unknown_arguments_are_refused() {
    let old = object(json!({"a": {"type": "string"}, "b": {}}), &[]);
    let lenient = object(json!({"a": {"type": "string"}}), &[]);
    let change = only(
        &input(old.clone(), lenient),
        ArgumentRemoved,
        Compatible,
        "/inputSchema/properties/b",
    );
    assert!(change.message.contains("ignores it"), "{}", change.message);
    for keyword in ["additionalProperties", "unevaluatedProperties"] {
        let mut strict = object(json!({"a": {"type": "string"}}), &[]);
        strict[keyword] = json!(false);
        let changes = input(old.clone(), strict);
        let removed: Vec<&Change> = changes.of_kind(ArgumentRemoved).collect();
        assert_eq!(removed.len(), 1, "{changes}");
        assert_eq!(removed[0].severity, Breaking);
        // Forbidding unknown arguments is itself a narrowing.
        assert_eq!(changes.of_kind(AdditionalPropertiesForbidden).count(), 1);
    }
}

#[test]
fn making_an_argument_required_is_breaking_optional_compatible() {
    let optional = object(json!({"a": {"type": "string"}}), &[]);
    let required = object(json!({"a": {"type": "string"}}), &["a"]);
    only(
        &input(optional.clone(), required.clone()),
        ArgumentMadeRequired,
        Breaking,
        "/inputSchema/properties/a",
    );
    only(
        &input(required, optional),
        ArgumentMadeOptional,
        Compatible,
        "/inputSchema/properties/a",
    );
}

/// An argument `a` with `old`'s keywords, then `new`'s.
fn argument(old: Value, new: Value) -> Changes {
    input(
        object(json!({ "a": old }), &["a"]),
        object(json!({ "a": new }), &["a"]),
    )
}

#[test]
fn types_narrowed_are_breaking_widened_compatible_for_arguments() {
    let cases = [
        (
            json!(["string", "null"]),
            json!("string"),
            TypeNarrowed,
            Breaking,
        ),
        (
            json!("string"),
            json!(["string", "null"]),
            TypeWidened,
            Compatible,
        ),
        (json!("string"), json!("integer"), TypeChanged, Breaking),
        (json!("number"), json!("integer"), TypeNarrowed, Breaking),
        (json!("integer"), json!("number"), TypeWidened, Compatible),
    ];
    for (old, new, kind, severity) in cases {
        let changes = argument(json!({"type": old}), json!({"type": new}));
        let change = only(&changes, kind, severity, "/inputSchema/properties/a/type");
        assert_eq!((change.old, change.new), (Some(old), Some(new)));
    }
    // No `type` allows every type.
    only(
        &argument(json!({}), json!({"type": "string"})),
        TypeNarrowed,
        Breaking,
        "/inputSchema/properties/a/type",
    );
    only(
        &argument(json!({"type": "string"}), json!({})),
        TypeWidened,
        Compatible,
        "/inputSchema/properties/a/type",
    );
    // The same types, spelled otherwise.
    assert!(argument(json!({"type": "string"}), json!({"type": ["string"]})).is_empty());
}

#[test]
fn enum_values_removed_are_breaking_added_compatible() {
    let changes = argument(json!({"enum": ["a", "b"]}), json!({"enum": ["b", "c"]}));
    let found: Vec<(ChangeKind, Severity, Option<Value>, Option<Value>)> = changes
        .iter()
        .map(|c| (c.kind, c.severity, c.old.clone(), c.new.clone()))
        .collect();
    assert_eq!(
        found,
        [
            (EnumValueRemoved, Breaking, Some(json!("a")), None),
            (EnumValueAdded, Compatible, None, Some(json!("c"))),
        ]
    );
    let pointer = "/inputSchema/properties/a/enum";
    only(
        &argument(json!({}), json!({"enum": [1]})),
        EnumAdded,
        Breaking,
        pointer,
    );
    only(
        &argument(json!({"enum": [1]}), json!({})),
        EnumRemoved,
        Compatible,
        pointer,
    );
}

#[test]
fn bounds_tightened_are_breaking_loosened_compatible() {
    let lower = [
        "minimum",
        "exclusiveMinimum",
        "minLength",
        "minItems",
        "minProperties",
    ];
    let upper = [
        "maximum",
        "exclusiveMaximum",
        "maxLength",
        "maxItems",
        "maxProperties",
    ];
    for (keywords, tighter) in [(lower, 5), (upper, 1)] {
        for keyword in keywords {
            let pointer = format!("/inputSchema/properties/a/{keyword}");
            let (old, new) = (json!({ keyword: 3 }), json!({ keyword: tighter }));
            only(
                &argument(old.clone(), new.clone()),
                BoundTightened,
                Breaking,
                &pointer,
            );
            only(
                &argument(new, old.clone()),
                BoundLoosened,
                Compatible,
                &pointer,
            );
            only(
                &argument(json!({}), old.clone()),
                BoundTightened,
                Breaking,
                &pointer,
            );
            only(
                &argument(old, json!({})),
                BoundLoosened,
                Compatible,
                &pointer,
            );
        }
    }
    let multiple = "/inputSchema/properties/a/multipleOf";
    let step =
        |old: f64, new: f64| argument(json!({"multipleOf": old}), json!({"multipleOf": new}));
    only(&step(3.0, 6.0), BoundTightened, Breaking, multiple);
    only(&step(6.0, 3.0), BoundLoosened, Compatible, multiple);
    only(&step(2.0, 3.0), BoundChanged, Breaking, multiple);
    only(&step(0.5, 0.25), BoundLoosened, Compatible, multiple);
    let unique = "/inputSchema/properties/a/uniqueItems";
    only(
        &argument(json!({}), json!({"uniqueItems": true})),
        BoundTightened,
        Breaking,
        unique,
    );
    only(
        &argument(json!({"uniqueItems": true}), json!({"uniqueItems": false})),
        BoundLoosened,
        Compatible,
        unique,
    );
    // Draft 4: exclusiveness as a flag.
    only(
        &argument(
            json!({"minimum": 0}),
            json!({"minimum": 0, "exclusiveMinimum": true}),
        ),
        BoundTightened,
        Breaking,
        "/inputSchema/properties/a/exclusiveMinimum",
    );
}

#[test]
fn patterns_formats_and_consts_added_or_changed_are_breaking() {
    for (keyword, [added, removed, changed], [one, other]) in [
        (
            "pattern",
            [PatternAdded, PatternRemoved, PatternChanged],
            [json!("^a"), json!("^b")],
        ),
        (
            "format",
            [FormatAdded, FormatRemoved, FormatChanged],
            [json!("email"), json!("uri")],
        ),
        (
            "const",
            [ConstAdded, ConstRemoved, ConstChanged],
            [json!("x"), json!("y")],
        ),
    ] {
        let pointer = format!("/inputSchema/properties/a/{keyword}");
        let with = |value: &Value| json!({ keyword: value });
        only(&argument(json!({}), with(&one)), added, Breaking, &pointer);
        only(
            &argument(with(&one), json!({})),
            removed,
            Compatible,
            &pointer,
        );
        only(
            &argument(with(&one), with(&other)),
            changed,
            Breaking,
            &pointer,
        );
    }
}

#[test]
fn output_changes_break_consumers() {
    let old = object(
        json!({"temperature": {"type": "number"}, "city": {"type": "string"}}),
        &["temperature", "city"],
    );
    let removed = object(json!({"temperature": {"type": "number"}}), &["temperature"]);
    only(
        &output(old.clone(), removed),
        OutputPropertyRemoved,
        Breaking,
        "/outputSchema/properties/city",
    );
    let retyped = object(
        json!({"temperature": {"type": "string"}, "city": {"type": "string"}}),
        &["temperature", "city"],
    );
    only(
        &output(old.clone(), retyped),
        TypeChanged,
        Breaking,
        "/outputSchema/properties/temperature/type",
    );
    let optional = object(
        json!({"temperature": {"type": "number"}, "city": {"type": "string"}}),
        &["temperature"],
    );
    only(
        &output(old.clone(), optional.clone()),
        OutputPropertyMadeOptional,
        Breaking,
        "/outputSchema/properties/city",
    );
    only(
        &output(optional, old.clone()),
        OutputPropertyMadeRequired,
        Compatible,
        "/outputSchema/properties/city",
    );
    let added = object(
        json!({"temperature": {"type": "number"}, "city": {"type": "string"}, "wind": {}}),
        &["temperature", "city", "wind"],
    );
    only(
        &output(old.clone(), added),
        OutputPropertyAdded,
        Compatible,
        "/outputSchema/properties/wind",
    );
    // The reverse of the input's rule: a consumer may meet a value it was not promised.
    let widened = |schema: Value| {
        let mut schema = schema;
        schema["properties"]["temperature"]["type"] = json!(["number", "null"]);
        schema
    };
    only(
        &output(old.clone(), widened(old.clone())),
        TypeWidened,
        Breaking,
        "/outputSchema/properties/temperature/type",
    );
    only(
        &output(widened(old.clone()), old.clone()),
        TypeNarrowed,
        Compatible,
        "/outputSchema/properties/temperature/type",
    );
    let mut strict = old.clone();
    strict["additionalProperties"] = json!(false);
    only(
        &output(old.clone(), strict),
        AdditionalPropertiesForbidden,
        Compatible,
        "/outputSchema/additionalProperties",
    );
}

#[test]
fn an_output_schema_removed_is_breaking_added_compatible() {
    let plain = json!({"name": "t", "inputSchema": {}});
    let typed = json!({"name": "t", "inputSchema": {}, "outputSchema": {"type": "object"}});
    only(
        &tools(typed.clone(), plain.clone()),
        OutputSchemaRemoved,
        Breaking,
        "/outputSchema",
    );
    only(
        &tools(plain, typed),
        OutputSchemaAdded,
        Compatible,
        "/outputSchema",
    );
}

#[test]
fn nested_objects_and_array_items_are_compared() {
    let address = |required: &[&str]| {
        object(
            json!({"address": object(json!({"street": {}, "zip": {"type": "string"}}), required)}),
            &["address"],
        )
    };
    let change = only(
        &input(address(&["street"]), address(&["street", "zip"])),
        ArgumentMadeRequired,
        Breaking,
        "/inputSchema/properties/address/properties/zip",
    );
    assert!(
        change.message.contains("`address.zip`"),
        "{}",
        change.message
    );

    let tags = |items: Value| object(json!({"tags": {"type": "array", "items": items}}), &[]);
    let change = only(
        &input(
            tags(json!({"type": ["string", "integer"]})),
            tags(json!({"type": "string"})),
        ),
        TypeNarrowed,
        Breaking,
        "/inputSchema/properties/tags/items/type",
    );
    assert!(change.message.contains("`tags[]`"), "{}", change.message);
    // Objects inside arrays.
    let rows = |required: &[&str]| {
        tags(object(
            json!({"id": {"type": "integer"}, "note": {}}),
            required,
        ))
    };
    only(
        &input(rows(&["id"]), rows(&["id", "note"])),
        ArgumentMadeRequired,
        Breaking,
        "/inputSchema/properties/tags/items/properties/note",
    );
    // Tuples, item by item.
    only(
        &argument(
            json!({"items": [{"type": "string"}, {"type": "number"}]}),
            json!({"items": [{"type": "string"}, {"type": "integer"}]}),
        ),
        TypeNarrowed,
        Breaking,
        "/inputSchema/properties/a/items/1/type",
    );
}

#[test]
fn local_refs_are_resolved_before_comparing() {
    let inline = object(
        json!({"unit": {"type": "string", "enum": ["C", "F"]}}),
        &["unit"],
    );
    let mut by_ref = object(json!({"unit": {"$ref": "#/$defs/Unit"}}), &["unit"]);
    by_ref["$defs"] = json!({"Unit": {"type": "string", "enum": ["C", "F"]}});
    let changes = input(inline.clone(), by_ref.clone());
    assert!(changes.is_empty(), "{changes}");

    // A change inside a definition is reported where it is used.
    let mut narrowed = by_ref.clone();
    narrowed["$defs"]["Unit"]["enum"] = json!(["C"]);
    let change = only(
        &input(inline, narrowed),
        EnumValueRemoved,
        Breaking,
        "/inputSchema/properties/unit/enum",
    );
    assert_eq!(change.old, Some(json!("F")));

    // `definitions`, and siblings of `$ref` laid over the target.
    let draft7 = json!({
        "type": "object",
        "properties": {"n": {"$ref": "#/definitions/N", "maximum": 5}},
        "definitions": {"N": {"type": "integer", "maximum": 10}},
    });
    let plain = object(json!({"n": {"type": "integer", "maximum": 10}}), &[]);
    only(
        &input(plain, draft7),
        BoundTightened,
        Breaking,
        "/inputSchema/properties/n/maximum",
    );
}

#[test]
fn recursive_schemas_end() {
    let tree = |leaf: &str| {
        json!({
            "$ref": "#/$defs/Node",
            "$defs": {"Node": {
                "type": "object",
                "properties": {
                    "value": {"type": leaf},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                },
            }},
        })
    };
    assert!(input(tree("string"), tree("string")).is_empty());
    let changes = input(tree("string"), tree("integer"));
    assert!(
        changes
            .iter()
            .any(|c| c.kind == TypeChanged
                && c.location.pointer == "/inputSchema/properties/value/type"),
        "{changes}"
    );
}

#[test]
fn alternatives_are_matched_by_type() {
    let text = json!({"type": "string"});
    let nullable = json!({"anyOf": [{"type": "string"}, {"type": "null"}]});
    // An Optional[str] made of str: the null alternative removed.
    only(
        &argument(nullable.clone(), text.clone()),
        AlternativeRemoved,
        Breaking,
        "/inputSchema/properties/a/anyOf/1",
    );
    only(
        &argument(text, nullable.clone()),
        AlternativeAdded,
        Compatible,
        "/inputSchema/properties/a/anyOf/1",
    );
    // A change inside a matched alternative.
    let longer = json!({"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]});
    only(
        &argument(nullable, longer),
        BoundTightened,
        Breaking,
        "/inputSchema/properties/a/anyOf/0/maxLength",
    );
}

#[test]
fn unclassified_keywords_are_breaking_to_review() {
    only(
        &argument(json!({}), json!({"not": {"const": 1}})),
        SchemaChanged,
        Breaking,
        "/inputSchema/properties/a/not",
    );
    only(
        &output(json!({}), json!({"not": {"const": 1}})),
        SchemaChanged,
        Breaking,
        "/outputSchema/not",
    );
}

#[test]
fn additional_properties_forbidden_is_breaking_allowed_compatible() {
    let open = json!({"type": "object"});
    let closed = json!({"type": "object", "additionalProperties": false});
    only(
        &input(open.clone(), closed.clone()),
        AdditionalPropertiesForbidden,
        Breaking,
        "/inputSchema/additionalProperties",
    );
    only(
        &input(closed, open),
        AdditionalPropertiesAllowed,
        Compatible,
        "/inputSchema/additionalProperties",
    );
    // A map's values.
    only(
        &input(
            json!({"additionalProperties": {"type": ["number", "string"]}}),
            json!({"additionalProperties": {"type": "number"}}),
        ),
        TypeNarrowed,
        Breaking,
        "/inputSchema/additionalProperties/type",
    );
}

fn prompts(old: Value, new: Value) -> Changes {
    let surface = |arguments: Value| Surface {
        prompts: vec![json!({"name": "p", "arguments": arguments})],
        ..Surface::default()
    };
    compare(&surface(old), &surface(new))
}

#[test]
fn prompt_arguments() {
    let style = json!({"name": "style", "required": false});
    let style_required = json!({"name": "style", "required": true});
    let tone = json!({"name": "tone", "required": true});
    only(
        &prompts(json!([style]), json!([style, tone])),
        RequiredPromptArgumentAdded,
        Breaking,
        "/arguments/1",
    );
    only(
        &prompts(json!([tone]), json!([tone, style])),
        OptionalPromptArgumentAdded,
        Compatible,
        "/arguments/1",
    );
    only(
        &prompts(json!([style, tone]), json!([tone])),
        PromptArgumentRemoved,
        Breaking,
        "/arguments/0",
    );
    only(
        &prompts(json!([style]), json!([style_required])),
        PromptArgumentMadeRequired,
        Breaking,
        "/arguments/0/required",
    );
    only(
        &prompts(json!([style_required]), json!([{"name": "style"}])),
        PromptArgumentMadeOptional,
        Compatible,
        "/arguments/0/required",
    );
}

fn capabilities(old: Value, new: Value) -> Changes {
    let surface = |capabilities| Surface {
        capabilities: Some(capabilities),
        ..Surface::default()
    };
    compare(&surface(old), &surface(new))
}

#[test]
fn capabilities_dropped_are_breaking_added_compatible() {
    let full = json!({
        "tools": {"listChanged": true},
        "resources": {"subscribe": true, "listChanged": true},
        "prompts": {"listChanged": true},
        "completions": {},
        "logging": {},
    });
    for (drop, pointer) in [
        ("/tools", "/tools"),
        ("/tools/listChanged", "/tools/listChanged"),
        ("/resources/subscribe", "/resources/subscribe"),
        ("/resources/listChanged", "/resources/listChanged"),
        ("/prompts/listChanged", "/prompts/listChanged"),
        ("/completions", "/completions"),
        ("/logging", "/logging"),
    ] {
        let mut less = full.clone();
        let (parent, member) = drop.rsplit_once('/').unwrap();
        let parent = if parent.is_empty() {
            &mut less
        } else {
            less.pointer_mut(parent).unwrap()
        };
        parent.as_object_mut().unwrap().remove(member);
        let change = only(
            &capabilities(full.clone(), less.clone()),
            CapabilityRemoved,
            Breaking,
            pointer,
        );
        assert_eq!(change.location.item, Item::Capabilities);
        only(
            &capabilities(less, full.clone()),
            CapabilityAdded,
            Compatible,
            pointer,
        );
    }
    // `false` is not offered.
    only(
        &capabilities(
            json!({"resources": {"subscribe": true}}),
            json!({"resources": {"subscribe": false}}),
        ),
        CapabilityRemoved,
        Breaking,
        "/resources/subscribe",
    );
    // Unknown on one side (a snapshot): not compared.
    let unknown = Surface::default();
    let known = Surface {
        capabilities: Some(full),
        ..Surface::default()
    };
    assert!(compare(&known, &unknown).is_empty());
}

#[test]
fn hints_that_promise_less_are_breaking() {
    let annotated =
        |annotations: Value| json!({"name": "t", "inputSchema": {}, "annotations": annotations});
    let cases = [
        (
            json!({"readOnlyHint": true}),
            json!({"readOnlyHint": false}),
            HintWeakened,
            Breaking,
            "readOnlyHint",
        ),
        (
            json!({"readOnlyHint": false}),
            json!({"readOnlyHint": true}),
            HintStrengthened,
            Compatible,
            "readOnlyHint",
        ),
        (
            json!({"destructiveHint": false}),
            json!({"destructiveHint": true}),
            HintWeakened,
            Breaking,
            "destructiveHint",
        ),
        // Left out, destructiveHint is true.
        (
            json!({"destructiveHint": false}),
            json!({}),
            HintWeakened,
            Breaking,
            "destructiveHint",
        ),
        (
            json!({"idempotentHint": true}),
            json!({}),
            HintWeakened,
            Breaking,
            "idempotentHint",
        ),
        (
            json!({"openWorldHint": false}),
            json!({"openWorldHint": true}),
            HintWeakened,
            Breaking,
            "openWorldHint",
        ),
        (
            json!({}),
            json!({"openWorldHint": false}),
            HintStrengthened,
            Compatible,
            "openWorldHint",
        ),
    ];
    for (old, new, kind, severity, hint) in cases {
        only(
            &tools(annotated(old), annotated(new)),
            kind,
            severity,
            &format!("/annotations/{hint}"),
        );
    }
    // destructiveHint means nothing for a read-only tool.
    let changes = tools(
        annotated(json!({"readOnlyHint": true, "destructiveHint": false})),
        annotated(json!({"readOnlyHint": true})),
    );
    assert!(changes.is_empty(), "{changes}");
}

#[test]
fn titles_descriptions_and_defaults_are_compatible() {
    let changes = tools(
        json!({"name": "t", "description": "old", "inputSchema":
            object(json!({"a": {"type": "string", "description": "x", "default": "d"}}), &[])}),
        json!({"name": "t", "description": "new", "inputSchema":
            object(json!({"a": {"type": "string", "description": "y", "default": "e"}}), &[])}),
    );
    let found: Vec<(ChangeKind, Severity, &str)> = changes
        .iter()
        .map(|c| (c.kind, c.severity, c.location.pointer.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            (DescriptionChanged, Compatible, "/description"),
            (
                DescriptionChanged,
                Compatible,
                "/inputSchema/properties/a/description"
            ),
            (
                DefaultChanged,
                Compatible,
                "/inputSchema/properties/a/default"
            ),
        ]
    );
}

#[test]
fn a_mime_type_changed_is_breaking() {
    let resource = |mime: Option<&str>| Surface {
        resources: vec![json!({"uri": "u", "name": "u", "mimeType": mime})],
        ..Surface::default()
    };
    let stated = resource(Some("application/json"));
    only(
        &compare(&stated, &resource(Some("text/plain"))),
        MimeTypeChanged,
        Breaking,
        "/mimeType",
    );
    only(
        &compare(&resource(None), &stated),
        MimeTypeChanged,
        Compatible,
        "/mimeType",
    );
}

#[test]
fn breaking_changes_come_first_and_print_grouped() {
    let old = with_tools(vec![
        json!({"name": "a", "inputSchema": {}}),
        json!({"name": "b", "inputSchema": {}}),
    ]);
    let new = with_tools(vec![
        json!({"name": "a", "description": "now described", "inputSchema": {}}),
    ]);
    let changes = compare(&old, &new);
    assert_eq!(
        changes.iter().map(|c| c.kind).collect::<Vec<_>>(),
        [ToolRemoved, DescriptionChanged]
    );
    assert_eq!(changes.breaking().count(), 1);
    assert_eq!(changes.compatible().count(), 1);
    assert_eq!(
        changes.to_string(),
        "Breaking (1):\n  tool `b`: removed: clients that use this tool fail [tool_removed]\n\n\
         Compatible (1):\n  tool `a` at /description: description changed [description_changed]\n\n\
         1 breaking, 1 compatible changes\n"
    );
    assert_eq!(
        serde_json::to_value(&changes[0]).unwrap(),
        json!({
            "kind": "tool_removed",
            "severity": "breaking",
            "location": {"item": "tool", "name": "b", "pointer": ""},
            "message": "removed: clients that use this tool fail",
            "old": {"name": "b", "inputSchema": {}},
        })
    );
}

#[test]
fn every_kind_has_its_own_name() {
    let kinds = [
        ToolRemoved,
        ToolAdded,
        RequiredArgumentAdded,
        BoundTightened,
        AdditionalPropertiesForbidden,
        HintWeakened,
        DescriptionChanged,
    ];
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    assert_eq!(
        names,
        [
            "tool_removed",
            "tool_added",
            "required_argument_added",
            "bound_tightened",
            "additional_properties_forbidden",
            "hint_weakened",
            "description_changed"
        ]
    );
}

#[test]
fn a_surface_reads_back_its_json_and_list_json_output() {
    let surface = Surface {
        server: Some(SurfaceServer {
            name: "s".into(),
            version: Some("1".into()),
            ..SurfaceServer::default()
        }),
        capabilities: Some(json!({"tools": {}})),
        tools: vec![json!({"name": "t", "inputSchema": {}})],
        resources: vec![],
        resource_templates: vec![json!({"uriTemplate": "x/{y}", "name": "x"})],
        prompts: vec![json!({"name": "p"})],
    };
    let written = surface.to_json();
    assert!(written.get("resourceTemplates").is_some(), "{written}");
    assert_eq!(written["server"], json!({"name": "s", "version": "1"}));
    assert_eq!(Surface::from_json(written).unwrap(), surface);

    // `mcp-assured list --json`: its `server` has more members, ignored.
    let listed = json!({
        "server": {"name": "s", "version": "1", "protocolVersion": "2025-11-25", "capabilities": {"tools": {}}},
        "tools": [{"name": "t", "inputSchema": {}}],
        "resources": [],
        "resource_templates": [{"uriTemplate": "x/{y}", "name": "x"}],
        "prompts": [{"name": "p"}],
    });
    assert_eq!(Surface::from_json(listed).unwrap(), surface);

    let not_one = Surface::from_json(json!({"name": "x"})).unwrap_err();
    assert!(
        not_one.to_string().contains("expected a JSON object"),
        "{not_one}"
    );
    let nameless = Surface::from_json(json!({"tools": [{"inputSchema": {}}]})).unwrap_err();
    assert!(
        nameless.to_string().contains("a tool has no `name`"),
        "{nameless}"
    );
}

#[test]
fn who_the_server_is_is_read_leniently_and_never_compared() {
    let tools = json!([{"name": "t", "inputSchema": {}}]);
    // A file of before: no `server`, or one without a name (its capabilities still read).
    let old = Surface::from_json(json!({"tools": tools})).unwrap();
    assert_eq!(old.server, None);
    let nameless = Surface::from_json(json!({
        "server": {"version": 2, "capabilities": {"tools": {}}},
        "tools": tools,
    }))
    .unwrap();
    assert_eq!(nameless.server, None);
    assert_eq!(nameless.capabilities, Some(json!({"tools": {}})));
    // A member that is not a string is left out, not an error.
    let odd = Surface::from_json(json!({
        "server": {"name": "s", "version": 2, "instructions": "Use t."},
        "tools": tools,
    }))
    .unwrap();
    assert_eq!(
        odd.server,
        Some(SurfaceServer {
            name: "s".into(),
            instructions: Some("Use t.".into()),
            ..SurfaceServer::default()
        })
    );
    // Another name, version or instructions is no change for clients.
    let mut renamed = odd.clone();
    renamed.server = Some(SurfaceServer {
        name: "other".into(),
        version: Some("9".into()),
        ..SurfaceServer::default()
    });
    assert!(compare(&odd, &renamed).is_empty());
    assert!(compare(&old, &renamed).is_empty());
    assert!(
        renamed
            .renamed_from(&odd)
            .unwrap()
            .contains("`s` (old) and `other` (new)")
    );
    assert_eq!(renamed.renamed_from(&old), None);
    // Redaction leaves it.
    assert_eq!(renamed.clone().redacted().server, renamed.server);
}

#[test]
fn a_cassette_names_its_server() {
    let cassette: crate::cassette::Cassette = serde_json::from_value(json!({
        "cassette": 1,
        "recorded": "2026-01-02T03:04:05Z",
        "server": {
            "serverInfo": {"name": "calc", "version": "2.0.0", "title": "Calculator"},
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "instructions": "Add with add."
        },
        "interactions": [{
            "method": "tools/list",
            "params": {},
            "result": {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}
        }]
    }))
    .unwrap();
    let surface = Surface::from_cassette(&cassette).unwrap();
    assert_eq!(
        surface.server,
        Some(SurfaceServer {
            name: "calc".into(),
            version: Some("2.0.0".into()),
            title: Some("Calculator".into()),
            instructions: Some("Add with add.".into()),
        })
    );
    assert_eq!(surface.tools.len(), 1);
}

#[test]
fn list_results_make_a_surface() {
    let surface = Surface::from_list_results([
        (
            "initialize",
            json!({
                "capabilities": {"prompts": {}},
                "serverInfo": {"name": "p", "version": "0.1.0"},
                "instructions": "Ask for a prompt."
            }),
        ),
        (
            "prompts/list",
            json!({"prompts": [{"name": "a"}], "nextCursor": "1"}),
        ),
        ("prompts/list", json!({"prompts": [{"name": "b"}]})),
        // Listed again later in the session: the later version stands.
        (
            "prompts/list",
            json!({"prompts": [{"name": "a", "description": "again"}]}),
        ),
        (
            "resources/templates/list",
            json!({"resourceTemplates": [{"uriTemplate": "t/{x}", "name": "t"}]}),
        ),
        ("ping", json!({})),
    ])
    .unwrap();
    assert_eq!(
        surface.prompts,
        [
            json!({"name": "a", "description": "again"}),
            json!({"name": "b"})
        ]
    );
    assert_eq!(surface.resource_templates.len(), 1);
    assert_eq!(surface.capabilities, Some(json!({"prompts": {}})));
    let server = surface.server.unwrap();
    assert_eq!(server.described(), "p 0.1.0");
    assert_eq!(server.instructions.as_deref(), Some("Ask for a prompt."));

    let error = Surface::from_list_results([("tools/list", json!({"items": []}))]).unwrap_err();
    assert!(error.to_string().contains("no `tools` array"), "{error}");
}

/// A fresh directory, removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("mcp-assured-diff-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn snapshots_and_files_make_a_surface() {
    let dir = TempDir::new("snapshots");
    let snap = |expression: &str, body: Value| {
        format!(
            "---\nsource: mcp-assured snapshot\nexpression: {expression}\n---\n{}\n",
            serde_json::to_string_pretty(&body).unwrap()
        )
    };
    let tools = json!([{"name": "t", "inputSchema": {}}]);
    std::fs::write(dir.0.join("srv__tools.snap"), snap("tools", tools.clone())).unwrap();
    std::fs::write(dir.0.join("srv__prompts.snap"), snap("prompts", json!([]))).unwrap();
    std::fs::write(
        dir.0.join("srv__call_t.snap"),
        snap("call_t", json!({"result": {}})),
    )
    .unwrap();
    let expected = Surface {
        tools: tools.as_array().unwrap().clone(),
        ..Surface::default()
    };
    assert_eq!(Surface::from_snapshot(&dir.0, "srv").unwrap(), expected);
    assert_eq!(
        Surface::from_snapshot_file(dir.0.join("srv__prompts.snap")).unwrap(),
        expected
    );
    assert_eq!(
        Surface::from_path(dir.0.join("srv__call_t.snap")).unwrap(),
        expected
    );
    assert_eq!(Surface::from_path(&dir.0).unwrap(), expected);

    let missing = Surface::from_snapshot(&dir.0, "other").unwrap_err();
    assert!(
        missing.to_string().contains("other__tools.snap"),
        "{missing}"
    );

    // A second server's snapshots: the directory alone is ambiguous.
    std::fs::write(dir.0.join("two__tools.snap"), snap("tools", json!([]))).unwrap();
    let several = Surface::from_path(&dir.0).unwrap_err();
    assert!(several.to_string().contains("srv, two"), "{several}");

    // A surface's JSON, by its content.
    let file = dir.0.join("surface.json");
    std::fs::write(&file, expected.to_json().to_string()).unwrap();
    assert_eq!(Surface::from_path(&file).unwrap(), expected);
    std::fs::write(&file, "not json").unwrap();
    let junk = Surface::from_path(&file).unwrap_err();
    assert!(junk.to_string().contains("neither a snapshot"), "{junk}");
    let absent = Surface::from_path(dir.0.join("absent.json")).unwrap_err();
    assert!(absent.to_string().contains("cannot be read"), "{absent}");
}

#[test]
fn redaction_matches_what_snapshots_hold() {
    let live = with_tools(vec![
        json!({"name": "t", "description": "since 2026-01-02T03:04:05Z", "inputSchema": {}}),
    ]);
    let snapshot = with_tools(vec![
        json!({"name": "t", "description": "since [timestamp]", "inputSchema": {}}),
    ]);
    assert_eq!(compare(&snapshot, &live).len(), 1);
    assert!(compare(&snapshot, &live.redacted()).is_empty());
}
