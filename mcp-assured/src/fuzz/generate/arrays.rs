//! Arrays: tuples (`prefixItems`) then uniform items, `minItems`/`maxItems` (weighted to the
//! exact limits, unbounded ones kept short), `uniqueItems` by dropping repeats, `contains` by
//! appending the items it asks for.

use std::ops::RangeInclusive;

use proptest::prelude::*;
use serde_json::Value;

use super::ir::{Array, INFINITE};
use super::valid::{Builder, Context, Step, scalars};
use super::weighted::{SizedVec, Toward};

/// How many items past `minItems` (or past the tuple) unbounded arrays go.
const SPAN: usize = 5;
/// `maxItems` up to this are hit exactly.
const EXACT_MAX: usize = 64;

/// Valid arrays; with `focus` on an item, arrays that have it.
pub(super) fn strategy(
    builder: Builder<'_>,
    array: &Array,
    context: &Context,
    focus: &[Step],
) -> SBoxedStrategy<Value> {
    let (forced, inner_focus) = match focus.split_first() {
        Some((Step::Item(index), rest)) => (Some(*index), rest),
        _ => (None, &[][..]),
    };
    let items = Items {
        builder,
        array,
        context,
        forced,
        inner_focus,
    };
    let needed = array.contains.map_or(0, |(_, count)| count as usize);
    let cap = items.cap().map(|cap| cap.saturating_sub(needed));
    let min = (array.min as usize)
        .saturating_sub(needed)
        .max(forced.map_or(0, |index| index + 1));
    let soft = (array.min as usize).max(array.prefix.len()) + SPAN;
    let high = if context.minimal {
        min
    } else {
        cap.map_or(soft, |cap| cap.min(soft)).max(min)
    };
    let mut lengths = vec![(3, min..=min)];
    if high > min {
        lengths.push((12, min..=high));
    }
    if let Some(cap) = cap.filter(|cap| *cap > min && *cap <= EXACT_MAX && !context.minimal) {
        lengths.push((3, cap..=cap));
    }
    let contained: Vec<SBoxedStrategy<Value>> = match array.contains {
        Some((id, count)) => (0..count).map(|_| builder.node(id, context, &[])).collect(),
        None => Vec::new(),
    };
    let unique = array.unique;
    (items.sequence(min, lengths), contained)
        .prop_map(move |(mut items, contained)| {
            if unique {
                items.retain(|item| !contained.contains(item));
            }
            items.extend(contained);
            Value::Array(items)
        })
        .sboxed()
}

/// The items of one array schema, before any `contains` items.
struct Items<'a> {
    builder: Builder<'a>,
    array: &'a Array,
    context: &'a Context,
    forced: Option<usize>,
    inner_focus: &'a [Step],
}

impl Items<'_> {
    /// The most items values may have: `maxItems`, and no further than the first position
    /// whose schema has no finite value.
    fn cap(&self) -> Option<usize> {
        let finite = |id: &usize| self.builder.cost(*id) != INFINITE;
        let broken_prefix = self.array.prefix.iter().position(|id| !finite(id));
        let broken_rest = self
            .array
            .rest
            .filter(|id| !finite(id))
            .map(|_| self.array.prefix.len());
        [
            self.array.max.map(|max| max as usize),
            broken_prefix,
            broken_rest,
        ]
        .into_iter()
        .flatten()
        .min()
    }

    fn position(&self, index: usize) -> SBoxedStrategy<Value> {
        let focus = if self.forced == Some(index) {
            self.inner_focus
        } else {
            &[]
        };
        match self.array.prefix.get(index).or(self.array.rest.as_ref()) {
            Some(id) => self.builder.node(*id, self.context, focus),
            None => scalars(),
        }
    }

    /// At least `min` items, as many as one of `lengths` says. Uniform items shrink by
    /// deleting any of them; tuples are drawn whole and cut to length.
    fn sequence(
        &self,
        min: usize,
        lengths: Vec<(u32, RangeInclusive<usize>)>,
    ) -> SBoxedStrategy<Vec<Value>> {
        let uniform = self.array.prefix.is_empty() && self.forced.is_none_or(|index| index == 0);
        if !uniform {
            let longest = lengths
                .iter()
                .map(|(_, range)| *range.end())
                .max()
                .unwrap_or(min);
            let positions: Vec<SBoxedStrategy<Value>> =
                (0..longest).map(|index| self.position(index)).collect();
            let length = Toward {
                target: min as i128,
                picks: lengths
                    .into_iter()
                    .map(|(weight, range)| (weight, *range.start() as i128..=*range.end() as i128))
                    .collect(),
            };
            return (positions, length)
                .prop_map(|(mut items, length)| {
                    items.truncate(length as usize);
                    items
                })
                .sboxed();
        }
        let rest = self.position(1);
        let items = match self.forced {
            Some(_) => {
                let shorter = lengths
                    .into_iter()
                    .map(|(weight, range)| (weight, range.start() - 1..=range.end() - 1))
                    .collect();
                let rest = SizedVec {
                    element: rest,
                    min: min - 1,
                    lengths: shorter,
                };
                (self.position(0), rest)
                    .prop_map(|(first, mut rest)| {
                        rest.insert(0, first);
                        rest
                    })
                    .sboxed()
            }
            None => SizedVec {
                element: rest,
                min,
                lengths,
            }
            .sboxed(),
        };
        if !self.array.unique {
            return items;
        }
        items
            .prop_map(|items| {
                let mut distinct: Vec<Value> = Vec::with_capacity(items.len());
                for item in items {
                    if !distinct.contains(&item) {
                        distinct.push(item);
                    }
                }
                distinct
            })
            .prop_filter("too few distinct items", move |items| items.len() >= min)
            .sboxed()
    }
}
