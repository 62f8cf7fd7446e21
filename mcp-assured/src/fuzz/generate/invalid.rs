//! Invalid values: a valid value (with the mutated part present) and one [`Site`]'s edit.
//!
//! Each draw picks one site and keeps it: shrinking simplifies the valid base and re-applies
//! the same edit, so a shrunk value is still invalid for the same reason. Sites that cannot
//! produce an invalid value (a mutation another keyword absorbs) are dropped after a dry run.

use std::sync::Arc;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::{NewTree, ValueTree};
use proptest::test_runner::TestRunner;
use serde_json::Value;

use super::sites::{Edit, Site};
use super::valid::{Builder, scalars};
use super::{Invalid, trial};
use crate::schema::Schema;

/// Draws per site in the dry run, and the filter rejections it may cost in all: a strict
/// site (in a branch another may take over) must break the value most of the time.
const TRIAL_DRAWS: usize = 8;
const TRIAL_REJECTS: u32 = 64;
const STRICT_REJECTS: u32 = 8;

/// Invalid values from every site that yields them, weighted toward the root; `None` when
/// no site does.
pub(super) fn strategy(
    builder: Builder<'_>,
    sites: Vec<Site>,
    oracle: &Arc<Schema>,
) -> Option<SBoxedStrategy<Invalid>> {
    let options: Vec<(u32, SBoxedStrategy<Invalid>)> = sites
        .into_iter()
        .filter_map(|site| {
            let rejects = if site.strict {
                STRICT_REJECTS
            } else {
                TRIAL_REJECTS
            };
            let weight = site.weight;
            let strategy = site_strategy(builder, site, oracle);
            trial::draws(&strategy, TRIAL_DRAWS, rejects).then_some((weight, strategy))
        })
        .collect();
    if options.is_empty() {
        return None;
    }
    let total = options.iter().map(|(weight, _)| weight).sum();
    Some(Pick { options, total }.sboxed())
}

fn site_strategy(
    builder: Builder<'_>,
    site: Site,
    oracle: &Arc<Schema>,
) -> SBoxedStrategy<Invalid> {
    let valid = Arc::clone(oracle);
    let base = builder
        .focused(&site.focus)
        .prop_filter("a base value the schema refuses", move |value| {
            valid.violations(value).is_empty()
        });
    let payload: SBoxedStrategy<Vec<Value>> = match &site.edit {
        Edit::Replace(candidates) => select(candidates.clone()).prop_map(|v| vec![v]).sboxed(),
        Edit::Append(length, item) => {
            let item = match item {
                Some(id) => builder.node(*id, &Default::default(), &[]),
                None => scalars(),
            };
            vec(item, *length).sboxed()
        }
        _ => Just(Vec::new()).sboxed(),
    };
    let refused = Arc::clone(oracle);
    let Site { mutation, edit, .. } = site;
    (base, payload)
        .prop_map(move |(mut value, payload)| {
            if let Some(target) = value.pointer_mut(mutation.at()) {
                apply(&edit, target, payload);
            }
            Invalid {
                mutation: mutation.clone(),
                value,
            }
        })
        .prop_filter("a mutation the schema still accepts", move |invalid| {
            !refused.violations(&invalid.value).is_empty()
        })
        .sboxed()
}

/// Makes `edit` to `target`; `payload` holds the values the edit draws.
fn apply(edit: &Edit, target: &mut Value, payload: Vec<Value>) {
    match (edit, target) {
        (Edit::Remove(name), Value::Object(map)) => {
            map.remove(name);
        }
        (Edit::Replace(_), target) => {
            if let Some(replacement) = payload.into_iter().next() {
                *target = replacement;
            }
        }
        (Edit::OffGrid(numbers), target) => {
            if let Some(off) = numbers.off_grid(target) {
                *target = off;
            }
        }
        (Edit::Truncate(length), Value::String(text)) => {
            *text = text.chars().take(*length).collect();
        }
        (Edit::Truncate(length), Value::Array(items)) => items.truncate(*length),
        (Edit::Pad(length), Value::String(text)) => {
            let fill = text.chars().last().unwrap_or('a');
            let missing = length.saturating_sub(text.chars().count());
            text.extend(std::iter::repeat_n(fill, missing));
        }
        (Edit::Append(length, _), Value::Array(items)) => {
            let missing = length.saturating_sub(items.len());
            items.extend(payload.into_iter().take(missing));
        }
        (Edit::Duplicate(max), Value::Array(items)) => {
            if let Some(first) = items.first().cloned() {
                if max.is_none_or(|max| items.len() < max) {
                    items.push(first);
                } else if items.len() >= 2 {
                    let last = items.len() - 1;
                    items[last] = first;
                }
            }
        }
        (Edit::Insert(name, value), Value::Object(map)) => {
            map.insert(name.clone(), value.clone());
        }
        _ => {}
    }
}

/// A weighted choice among strategies that, unlike proptest's `Union`, never moves to
/// another option while shrinking: the tree is the chosen option's own.
#[derive(Debug)]
struct Pick {
    options: Vec<(u32, SBoxedStrategy<Invalid>)>,
    total: u32,
}

impl Strategy for Pick {
    type Tree = Box<dyn ValueTree<Value = Invalid>>;
    type Value = Invalid;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let mut roll = (0..self.total).new_tree(runner)?.current();
        for (weight, option) in &self.options {
            if roll < *weight {
                return option.new_tree(runner);
            }
            roll -= weight;
        }
        self.options[self.options.len() - 1].1.new_tree(runner)
    }
}
