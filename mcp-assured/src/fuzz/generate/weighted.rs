//! Draws weighted toward boundaries that still shrink in one direction.
//!
//! proptest's `Union` shrinks by walking back through its options, and stops at the first
//! that passes: a value drawn as "exactly the maximum" would never shrink past a smaller
//! boundary option. So a boundary here is only where a draw starts; the tree is the same
//! binary search (for numbers) or element deletion (for sequences) whatever was drawn.

use std::ops::RangeInclusive;

use proptest::prelude::*;
use proptest::strategy::{NewTree, ValueTree};
use proptest::test_runner::TestRunner;

/// Integers from weighted ranges (a single value is a boundary), shrinking by binary search
/// toward `target`; every integer between a draw and `target` must be acceptable.
#[derive(Debug, Clone)]
pub(super) struct Toward {
    pub(super) target: i128,
    pub(super) picks: Vec<(u32, RangeInclusive<i128>)>,
}

impl Strategy for Toward {
    type Tree = TowardTree;
    type Value = i128;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let range = pick(&self.picks, runner)?;
        let start = range.new_tree(runner)?.current();
        let distance = start.abs_diff(self.target);
        Ok(TowardTree {
            target: self.target,
            below: start < self.target,
            low: 0,
            current: distance,
            high: distance,
        })
    }
}

/// A binary search on the distance from the target.
#[derive(Debug, Clone, Copy)]
pub(super) struct TowardTree {
    target: i128,
    below: bool,
    /// Distances known to pass are below `low`; `high` is the smallest known to fail.
    low: u128,
    current: u128,
    high: u128,
}

impl ValueTree for TowardTree {
    type Value = i128;

    fn current(&self) -> i128 {
        let distance = self.current as i128;
        if self.below {
            self.target - distance
        } else {
            self.target + distance
        }
    }

    fn simplify(&mut self) -> bool {
        if self.current <= self.low {
            return false;
        }
        self.high = self.current;
        self.current = self.low + (self.high - self.low) / 2;
        true
    }

    fn complicate(&mut self) -> bool {
        if self.current >= self.high {
            return false;
        }
        self.low = self.current + 1;
        self.current = self.low + (self.high - self.low) / 2;
        true
    }
}

/// Vectors whose length comes from weighted ranges and that shrink like proptest's: items
/// deleted (down to `min`), then each item simplified.
#[derive(Debug, Clone)]
pub(super) struct SizedVec<S> {
    pub(super) element: S,
    pub(super) min: usize,
    pub(super) lengths: Vec<(u32, RangeInclusive<usize>)>,
}

impl<S: Strategy> Strategy for SizedVec<S> {
    type Tree = SizedVecTree<S::Tree>;
    type Value = Vec<S::Value>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let length = pick(&self.lengths, runner)?.new_tree(runner)?.current();
        let elements = (0..length)
            .map(|_| self.element.new_tree(runner))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SizedVecTree {
            included: vec![true; elements.len()],
            elements,
            min: self.min,
            shrink: Shrink::Delete(0),
            previous: None,
        })
    }
}

#[derive(Debug, Clone, Copy)]
enum Shrink {
    Delete(usize),
    Simplify(usize),
}

#[derive(Debug, Clone)]
pub(super) struct SizedVecTree<T> {
    elements: Vec<T>,
    included: Vec<bool>,
    min: usize,
    shrink: Shrink,
    previous: Option<Shrink>,
}

impl<T: ValueTree> ValueTree for SizedVecTree<T> {
    type Value = Vec<T::Value>;

    fn current(&self) -> Vec<T::Value> {
        self.elements
            .iter()
            .zip(&self.included)
            .filter(|(_, included)| **included)
            .map(|(element, _)| element.current())
            .collect()
    }

    fn simplify(&mut self) -> bool {
        if let Shrink::Delete(index) = self.shrink {
            let count = self.included.iter().filter(|i| **i).count();
            if index >= self.elements.len() || count <= self.min {
                self.shrink = Shrink::Simplify(0);
            } else {
                self.included[index] = false;
                self.previous = Some(self.shrink);
                self.shrink = Shrink::Delete(index + 1);
                return true;
            }
        }
        while let Shrink::Simplify(index) = self.shrink {
            if index >= self.elements.len() {
                return false;
            }
            if self.included[index] && self.elements[index].simplify() {
                self.previous = Some(self.shrink);
                return true;
            }
            self.shrink = Shrink::Simplify(index + 1);
        }
        false
    }

    fn complicate(&mut self) -> bool {
        match self.previous {
            None => false,
            Some(Shrink::Delete(index)) => {
                self.included[index] = true;
                self.previous = None;
                true
            }
            Some(Shrink::Simplify(index)) => {
                let complicated = self.elements[index].complicate();
                if !complicated {
                    self.previous = None;
                }
                complicated
            }
        }
    }
}

/// `Some` value `percent` times in a hundred. Shrinking first tries `None` (dropping an
/// optional property is the biggest simplification), then simplifies the value. Unlike
/// proptest's `option::weighted`, a draw costs no forked runner for the option not taken.
#[derive(Debug, Clone)]
pub(super) struct Maybe<S> {
    pub(super) inner: S,
    pub(super) percent: u32,
}

impl<S: Strategy> Strategy for Maybe<S> {
    type Tree = MaybeTree<S::Tree>;
    type Value = Option<S::Value>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let present = (0..100_u32).new_tree(runner)?.current() < self.percent;
        let inner = if present {
            Some(self.inner.new_tree(runner)?)
        } else {
            None
        };
        Ok(MaybeTree {
            inner,
            present,
            needed: false,
            dropping: false,
        })
    }
}

#[derive(Debug, Clone)]
pub(super) struct MaybeTree<T> {
    inner: Option<T>,
    present: bool,
    /// Dropping the value was tried and undone: shrink it instead.
    needed: bool,
    /// The last simplification dropped the value.
    dropping: bool,
}

impl<T: ValueTree> ValueTree for MaybeTree<T> {
    type Value = Option<T::Value>;

    fn current(&self) -> Option<T::Value> {
        self.inner
            .as_ref()
            .filter(|_| self.present)
            .map(ValueTree::current)
    }

    fn simplify(&mut self) -> bool {
        self.dropping = false;
        match &mut self.inner {
            Some(_) if self.present && !self.needed => {
                self.present = false;
                self.dropping = true;
                true
            }
            Some(inner) if self.present => inner.simplify(),
            _ => false,
        }
    }

    fn complicate(&mut self) -> bool {
        if self.dropping {
            self.dropping = false;
            self.present = true;
            self.needed = true;
            return true;
        }
        match &mut self.inner {
            Some(inner) if self.present => inner.complicate(),
            _ => false,
        }
    }
}

/// One of `options` by weight, simplest first: shrinking walks back toward the first. A
/// single option is taken as it is, without `Union`'s cost.
pub(super) fn one_of<T: std::fmt::Debug + 'static>(
    mut options: Vec<(u32, SBoxedStrategy<T>)>,
) -> SBoxedStrategy<T> {
    if options.len() == 1 {
        return options.remove(0).1;
    }
    proptest::strategy::Union::new_weighted(options).sboxed()
}

/// One of `picks`, by weight.
fn pick<T: Clone>(
    picks: &[(u32, RangeInclusive<T>)],
    runner: &mut TestRunner,
) -> Result<RangeInclusive<T>, proptest::test_runner::Reason> {
    let total: u32 = picks.iter().map(|(weight, _)| weight).sum();
    let mut roll = (0..total.max(1)).new_tree(runner)?.current();
    for (weight, range) in picks {
        if roll < *weight {
            return Ok(range.clone());
        }
        roll -= weight;
    }
    Err("nothing to pick from".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maybe_drops_first_then_shrinks_what_is_needed() {
        let strategy = Maybe {
            inner: Toward {
                target: 0,
                picks: vec![(1, 50..=50)],
            },
            percent: 100,
        };
        let mut tree = strategy.new_tree(&mut TestRunner::deterministic()).unwrap();
        assert!(tree.simplify());
        assert_eq!(tree.current(), None);
        assert!(tree.complicate());
        assert_eq!(tree.current(), Some(50));
        assert!(tree.simplify());
        assert_eq!(tree.current(), Some(25));
    }

    #[test]
    fn toward_finds_the_boundary_of_failure_from_any_start() {
        let strategy = Toward {
            target: 10,
            picks: vec![(1, 10..=10), (1, 100..=100), (3, 10..=100)],
        };
        let mut runner = TestRunner::deterministic();
        for _ in 0..100 {
            let mut tree = strategy.new_tree(&mut runner).unwrap();
            let fails = |v: i128| v >= 37;
            if !fails(tree.current()) {
                continue;
            }
            let mut last_failing = tree.current();
            loop {
                let moved = if fails(tree.current()) {
                    last_failing = tree.current();
                    tree.simplify()
                } else {
                    tree.complicate()
                };
                if !moved {
                    break;
                }
            }
            assert_eq!(last_failing, 37);
        }
    }
}
