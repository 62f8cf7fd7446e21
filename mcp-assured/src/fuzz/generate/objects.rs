//! Objects: required properties always, optional ones half the time (shrinking drops them),
//! and extra properties only where the schema describes them (`additionalProperties` with a
//! schema, `patternProperties`), since servers rarely expect keys nobody declared.

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use serde_json::{Map, Value};

use super::ir::{Additional, INFINITE, Object};
use super::valid::{Builder, Context, Step, scalars};
use super::weighted::Maybe;

/// How often (in percent) an optional property is present.
const OPTIONAL: u32 = 50;
/// How often (in percent) values get extra properties where the schema describes them.
const EXTRAS: u32 = 15;

type Entry = (String, Value);

/// Valid objects; with `focus` on a property, objects that have it.
pub(super) fn strategy(
    builder: Builder<'_>,
    object: &Object,
    context: &Context,
    focus: &[Step],
) -> SBoxedStrategy<Value> {
    let (focused, inner_focus) = match focus.split_first() {
        Some((Step::Property(name), rest)) => (Some(name), rest),
        _ => (None, &[][..]),
    };
    let always = object.forced();
    let mut kept = Vec::new();
    let mut members: Vec<SBoxedStrategy<Option<Entry>>> = Vec::new();
    for (index, property) in object.properties.iter().enumerate() {
        let is_focused = focused == Some(&property.name);
        let present = index < always || is_focused;
        if !present && (context.minimal || builder.cost(property.id) == INFINITE) {
            continue;
        }
        let focus = if is_focused { inner_focus } else { &[] };
        let name = property.name.clone();
        let entry = builder
            .node(property.id, context, focus)
            .prop_map(move |value| (name.clone(), value));
        members.push(if present {
            kept.push(property.name.clone());
            entry.prop_map(Some).sboxed()
        } else {
            Maybe {
                inner: entry,
                percent: OPTIONAL,
            }
            .sboxed()
        });
    }
    let extra_value = |builder: Builder<'_>| match object.additional {
        Additional::Schema(id) if builder.cost(id) != INFINITE => {
            Some(builder.node(id, context, &[]))
        }
        Additional::Schema(_) | Additional::Forbidden => None,
        Additional::Free => Some(scalars()),
    };
    let missing = (object.min_properties as usize).saturating_sub(object.properties.len());
    if let Some(value) = extra_value(builder).filter(|_| missing > 0) {
        for name in object.extra_names.iter().take(missing) {
            let name = name.clone();
            kept.push(name.clone());
            members.push(
                value
                    .clone()
                    .prop_map(move |value| Some((name.clone(), value)))
                    .sboxed(),
            );
        }
    }
    let extras = if context.minimal {
        Vec::new()
    } else {
        extras(builder, object, context)
    };
    let declared: Vec<String> = object.properties.iter().map(|p| p.name.clone()).collect();
    let max = object.max_properties.map(|max| max as usize);
    (members, extras)
        .prop_map(move |(members, extras)| {
            let mut map = Map::new();
            for (name, value) in members.into_iter().flatten() {
                map.insert(name, value);
            }
            for (name, value) in extras.into_iter().flatten() {
                if !declared.contains(&name) {
                    map.entry(name).or_insert(value);
                }
            }
            if let Some(max) = max {
                trim(&mut map, max, &kept);
            }
            Value::Object(map)
        })
        .sboxed()
}

/// Now and then one or two properties for `additionalProperties` with a schema, or one per
/// pattern of `patternProperties`.
fn extras(
    builder: Builder<'_>,
    object: &Object,
    context: &Context,
) -> Vec<SBoxedStrategy<Vec<Entry>>> {
    let mut extras = Vec::new();
    if let Additional::Schema(id) = object.additional
        && builder.cost(id) != INFINITE
        && !object.extra_names.is_empty()
    {
        let entry = (
            select(object.extra_names.clone()),
            builder.node(id, context, &[]),
        );
        let entries = Maybe {
            inner: vec(entry, 1..=2),
            percent: EXTRAS,
        };
        extras.push(entries.prop_map(Option::unwrap_or_default).sboxed());
    }
    for (pattern, id) in &object.pattern_properties {
        let Some(names) = pattern.strategy() else {
            continue;
        };
        if builder.cost(*id) == INFINITE {
            continue;
        }
        let entry = (names, builder.node(*id, context, &[]));
        let entry = Maybe {
            inner: entry,
            percent: EXTRAS,
        };
        extras.push(entry.prop_map(|entry| entry.into_iter().collect()).sboxed());
    }
    extras
}

/// Drops properties not in `kept`, last first, until at most `max` remain.
fn trim(map: &mut Map<String, Value>, max: usize, kept: &[String]) {
    let droppable: Vec<String> = map
        .keys()
        .rev()
        .filter(|name| !kept.contains(name))
        .cloned()
        .collect();
    for name in droppable {
        if map.len() <= max {
            break;
        }
        map.remove(&name);
    }
}
