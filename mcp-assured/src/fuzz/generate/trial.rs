//! Dry runs of a strategy before anyone relies on it: proptest gives up on a filter that
//! rejects too much, so a plan that mostly misses (a pattern plus a length, a mutation a type
//! list absorbs) is found and replaced or dropped up front, deterministically.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A deterministic runner that gives up after `rejects` filter rejections.
pub(super) fn runner(rejects: u32) -> TestRunner {
    let config = Config {
        max_local_rejects: rejects,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha))
}

/// How many of `draws` values from `strategy` `accept` takes.
pub(super) fn acceptance<S: Strategy>(
    strategy: &S,
    draws: usize,
    accept: impl Fn(&S::Value) -> bool,
) -> usize {
    let mut runner = runner(1024);
    (0..draws)
        .filter_map(|_| strategy.new_tree(&mut runner).ok())
        .filter(|tree| accept(&tree.current()))
        .count()
}

/// Whether `draws` values come out of `strategy` (filters included) without it giving up
/// after `rejects` rejections in all.
pub(super) fn draws<S: Strategy>(strategy: &S, draws: usize, rejects: u32) -> bool {
    let mut runner = runner(rejects);
    (0..draws).all(|_| strategy.new_tree(&mut runner).is_ok())
}
