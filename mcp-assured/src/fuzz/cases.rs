//! The inputs of a run, drawn from proptest strategies by seed. A case is its seed and the
//! shrinking steps taken from it, so it can be rebuilt at any time: proptest's value trees
//! are not `Send`, and a run awaits the server between every step, so no tree is kept
//! across an `.await`; rebuilding one costs microseconds, a call to the server far more.

use proptest::{
    strategy::{Strategy, ValueTree},
    test_runner::{Config, RngAlgorithm, TestRng, TestRunner},
};
use serde_json::Value;
use sha2::{Digest, Sha256};

use super::generate::{Generator, Mutation};

/// Valid input, or invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Phase {
    Valid,
    Invalid,
}

impl Phase {
    fn as_str(self) -> &'static str {
        match self {
            Phase::Valid => "valid",
            Phase::Invalid => "invalid",
        }
    }
}

/// One generated input: where it came from and what it is now.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Case {
    pub(crate) phase: Phase,
    /// Its place in the phase: the first failure of a kind, by index, is the one shrunk.
    pub(crate) index: u32,
    seed: [u8; 32],
    /// `true` for each `simplify`, `false` for each `complicate`, in order.
    steps: Vec<bool>,
    pub(crate) arguments: Value,
    pub(crate) mutation: Option<Mutation>,
    /// How the arguments break the schema, in words, once shrinking outside the tree made
    /// the mutation's own words wrong (one past the maximum shrunk to one below the minimum).
    pub(crate) described: Option<String>,
}

/// The seed of case `index` of `phase` for the subject named `subject`: the run's seed
/// decides every input, independent of the order subjects and calls run in.
fn case_seed(run_seed: u64, subject: &str, phase: Phase, index: u32) -> [u8; 32] {
    let mut hash = Sha256::new();
    hash.update(run_seed.to_le_bytes());
    hash.update(subject.as_bytes());
    hash.update([0]);
    hash.update(phase.as_str().as_bytes());
    hash.update(index.to_le_bytes());
    hash.finalize().into()
}

fn runner(seed: &[u8; 32]) -> TestRunner {
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, seed))
}

/// Builds the tree of a case, replays its steps, then takes `next` (when given); returns the
/// value it holds and whether `next` moved it.
fn rebuild(
    generator: &Generator,
    phase: Phase,
    seed: &[u8; 32],
    steps: &[bool],
    next: Option<bool>,
) -> Option<(Value, Option<Mutation>, bool)> {
    fn walk<T: ValueTree>(mut tree: T, steps: &[bool], next: Option<bool>) -> (T::Value, bool) {
        for simplify in steps {
            if *simplify {
                tree.simplify();
            } else {
                tree.complicate();
            }
        }
        let moved = match next {
            Some(true) => tree.simplify(),
            Some(false) => tree.complicate(),
            None => true,
        };
        (tree.current(), moved)
    }
    let mut runner = runner(seed);
    match phase {
        Phase::Valid => {
            let tree = generator.valid().new_tree(&mut runner).ok()?;
            let (value, moved) = walk(tree, steps, next);
            Some((value, None, moved))
        }
        Phase::Invalid => {
            let tree = generator.invalid()?.new_tree(&mut runner).ok()?;
            let (invalid, moved) = walk(tree, steps, next);
            Some((invalid.value, Some(invalid.mutation), moved))
        }
    }
}

/// Case `index` of `phase`; `None` when no input of the phase can be generated (no
/// invalid input where the schema admits everything, or too many rejections).
pub(crate) fn draw(
    generator: &Generator,
    run_seed: u64,
    subject: &str,
    phase: Phase,
    index: u32,
) -> Option<Case> {
    let seed = case_seed(run_seed, subject, phase, index);
    let (arguments, mutation, _) = rebuild(generator, phase, &seed, &[], None)?;
    Some(Case {
        phase,
        index,
        seed,
        steps: Vec::new(),
        arguments,
        mutation,
        described: None,
    })
}

impl Case {
    /// A case with the arguments given, not generated: a regression replayed.
    pub(crate) fn given(phase: Phase, arguments: Value) -> Case {
        Case {
            phase,
            index: 0,
            seed: [0; 32],
            steps: Vec::new(),
            arguments,
            mutation: None,
            described: None,
        }
    }

    /// The same case with other arguments: a step of shrinking outside its tree, after
    /// which it cannot step any more.
    pub(crate) fn with_arguments(&self, arguments: Value, described: Option<String>) -> Case {
        Case {
            arguments,
            steps: Vec::new(),
            seed: [0; 32],
            described,
            ..self.clone()
        }
    }

    /// How the arguments are invalid, in words; `None` for valid ones.
    pub(crate) fn invalidity(&self) -> Option<String> {
        match (&self.phase, &self.described, &self.mutation) {
            (Phase::Valid, _, _) => None,
            (Phase::Invalid, Some(described), _) => Some(described.clone()),
            (Phase::Invalid, None, Some(mutation)) => Some(mutation.to_string()),
            (Phase::Invalid, None, None) => Some("replayed from the regression file".to_owned()),
        }
    }

    /// The case one step on: simplified (`true`) or complicated back (`false`); `None`
    /// when the tree cannot move that way.
    pub(crate) fn step(&self, generator: &Generator, simplify: bool) -> Option<Case> {
        let (arguments, mutation, moved) = rebuild(
            generator,
            self.phase,
            &self.seed,
            &self.steps,
            Some(simplify),
        )?;
        if !moved {
            return None;
        }
        let mut steps = self.steps.clone();
        steps.push(simplify);
        Some(Case {
            phase: self.phase,
            index: self.index,
            seed: self.seed,
            steps,
            arguments,
            mutation,
            described: None,
        })
    }
}
