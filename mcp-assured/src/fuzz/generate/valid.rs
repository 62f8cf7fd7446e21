//! Valid values from the [`Ir`]: one proptest strategy per node, composed so shrinking works
//! toward the simplest valid value (first branch, fewest items, no optional properties).
//!
//! Recursive schemas are cut off by depth: once a reference repeats [`RECURSION`] times on
//! the way down, the subtree goes minimal (required properties only, fewest items, the
//! cheapest branch), which always ends because each step lowers the node's cost.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::Value;

use super::ir::{INFINITE, Id, Ir, Kind};
use super::weighted::one_of;
use super::{arrays, chars, objects};

/// How often one reference may repeat on the way down before values go minimal.
const RECURSION: usize = 2;
/// How many references deep values may go before they go minimal, recursive or not.
const DEPTH: usize = 24;

/// Builds strategies over one [`Ir`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Builder<'a> {
    pub(super) ir: &'a Ir,
}

/// Where generation is: the references entered on the way, and whether to go minimal.
#[derive(Debug, Clone, Default)]
pub(super) struct Context {
    path: Vec<Id>,
    pub(super) minimal: bool,
}

/// One step toward the part of a value a mutation needs present.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    Property(String),
    Item(usize),
    Branch(usize),
}

impl Builder<'_> {
    /// Values valid against the root (before the final validation).
    pub(super) fn valid(self) -> SBoxedStrategy<Value> {
        self.node(self.ir.root, &Context::default(), &[])
    }

    /// Valid values that have the part `focus` leads to (optional properties present, arrays
    /// long enough, the given branch taken).
    pub(super) fn focused(self, focus: &[Step]) -> SBoxedStrategy<Value> {
        self.node(self.ir.root, &Context::default(), focus)
    }

    pub(super) fn cost(self, id: Id) -> u64 {
        self.ir.nodes[id].cost
    }

    pub(super) fn node(self, id: Id, context: &Context, focus: &[Step]) -> SBoxedStrategy<Value> {
        match &self.ir.nodes[id].kind {
            Kind::Any => scalars(),
            Kind::Ref(target) => {
                let mut inner = context.clone();
                let repeats = context.path.iter().filter(|seen| **seen == *target).count();
                inner.minimal |= repeats >= RECURSION || context.path.len() >= DEPTH;
                inner.path.push(*target);
                self.node(*target, &inner, focus)
            }
            Kind::Const(value) => Just(value.clone()).sboxed(),
            Kind::Enum(values) => select(values.clone()).sboxed(),
            Kind::Choice(branches) => self.choice(branches, context, focus),
            Kind::Null => Just(Value::Null).sboxed(),
            Kind::Boolean => any::<bool>().prop_map(Value::Bool).sboxed(),
            Kind::Number(numbers) => numbers.strategy(),
            Kind::String(strings) => strings.strategy(),
            Kind::Array(array) => arrays::strategy(self, array, context, focus),
            Kind::Object(object) => objects::strategy(self, object, context, focus),
        }
    }

    /// Any branch that has finite values (only the cheapest when minimal), first preferred.
    fn choice(self, branches: &[Id], context: &Context, focus: &[Step]) -> SBoxedStrategy<Value> {
        if let Some((Step::Branch(index), rest)) = focus.split_first() {
            return self.node(branches[*index], context, rest);
        }
        let cheapest = branches
            .iter()
            .map(|b| self.cost(*b))
            .min()
            .unwrap_or(INFINITE);
        let usable = branches.iter().filter(|b| {
            let cost = self.cost(**b);
            cost != INFINITE && (!context.minimal || cost == cheapest)
        });
        one_of(
            usable
                .map(|branch| (1, self.node(*branch, context, &[])))
                .collect(),
        )
    }
}

/// Any value, for `true` and `{}`: a small mix of scalars, shrinking toward `null`.
pub(super) fn scalars() -> SBoxedStrategy<Value> {
    one_of(vec![
        (2, Just(Value::Null).sboxed()),
        (2, any::<bool>().prop_map(Value::Bool).sboxed()),
        (3, (-100_i64..=100).prop_map(Value::from).sboxed()),
        (3, chars::text(0, 8).prop_map(Value::String).sboxed()),
        (
            1,
            (-100_000_i64..=100_000)
                .prop_map(|cents| Value::from(cents as f64 / 100.0))
                .sboxed(),
        ),
    ])
}
