//! JSON values from a JSON Schema, as proptest strategies, for fuzzing a tool through its
//! `inputSchema`: many valid arguments (which the tool must survive) and minimal invalid ones
//! (which it must refuse).
//!
//! Schemas come as servers send them: 2020-12 or draft-07, written by zod, pydantic or
//! schemars, with `$defs`/`definitions`, `anyOf` optionals, recursion and formats. Valid
//! values lean on the boundaries (empty strings, exact length limits, bounds and one step
//! inside them) and shrink toward the simplest valid value. An invalid value is a valid one
//! with one [`Mutation`]; it shrinks with the mutation kept. Whatever generation does, every
//! valid value validates and every invalid value fails, both against the schema as
//! [`crate::schema::Schema`] compiles it.
//!
//! Trees are driven by hand (`new_tree`, `current`, `simplify`, `complicate`), so the
//! caller decides what "still failing" means while shrinking.

mod arrays;
mod chars;
mod compile;
mod decimal;
mod formats;
mod invalid;
mod ir;
mod merge;
mod mutation;
mod numbers;
mod objects;
mod pattern;
mod resolve;
mod sites;
mod strings;
mod trial;
mod unsupported;
mod valid;
mod weighted;

#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use proptest::prelude::*;
use serde_json::Value;

use crate::schema::Schema;

pub use mutation::{Invalid, Mutation};
pub use unsupported::Unsupported;

/// Draws in the dry run of the valid strategy, and how many must validate.
const TRIAL_DRAWS: usize = 32;
const TRIAL_PASSES: usize = 4;

/// A schema compiled for generation. Cheap to clone, and shareable across threads.
///
/// ```
/// use mcp_assured::fuzz::generate::Generator;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
/// use serde_json::json;
///
/// let schema = json!({
///     "type": "object",
///     "properties": {"city": {"type": "string", "minLength": 1}, "days": {"type": "integer", "minimum": 1}},
///     "required": ["city"],
/// });
/// let generator = Generator::new(&schema)?;
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..10 {
///     let arguments = generator.valid().new_tree(&mut runner).unwrap().current();
///     assert!(arguments["city"].as_str().is_some_and(|city| !city.is_empty()));
/// }
///
/// let mut invalid = generator.invalid().unwrap().new_tree(&mut runner).unwrap();
/// println!("{}: {}", invalid.current().mutation, invalid.current().value);
/// while invalid.simplify() {} // as if the server kept accepting it
/// assert!(!mcp_assured::schema::violations(&schema, &invalid.current().value).is_empty());
/// # Ok::<(), mcp_assured::fuzz::generate::Unsupported>(())
/// ```
#[derive(Clone)]
pub struct Generator {
    inner: Arc<Inner>,
}

struct Inner {
    valid: SBoxedStrategy<Value>,
    invalid: Option<SBoxedStrategy<Invalid>>,
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator")
            .field("invalid", &self.inner.invalid.is_some())
            .finish_non_exhaustive()
    }
}

impl Generator {
    /// Compiles `schema`. Fails when no value can be generated for some part of it (`false`,
    /// a remote `$ref`, an `allOf` whose branches contradict, a pattern no string of the
    /// allowed length matches, …), saying where in the schema and why.
    pub fn new(schema: &Value) -> Result<Generator, Unsupported> {
        let ir = compile::compile(schema)?;
        if let Err(error) = jsonschema::validator_for(schema) {
            return Err(Unsupported::new(
                error.instance_path().to_string(),
                format!("the schema is invalid: {error}"),
            ));
        }
        let oracle = Arc::new(Schema::compile(schema));
        let builder = valid::Builder { ir: &ir };
        let unchecked = builder.valid();
        check_valid(&unchecked, &oracle, schema)?;
        let accepted = Arc::clone(&oracle);
        let valid = unchecked
            .prop_filter("a value the schema refuses", move |value| {
                accepted.violations(value).is_empty()
            })
            .sboxed();
        let invalid = invalid::strategy(builder, sites::sites(&ir), &oracle);
        Ok(Generator {
            inner: Arc::new(Inner { valid, invalid }),
        })
    }

    /// Values valid against the schema, boundaries weighted (empty, minimum, maximum, exact
    /// limits). Shrinks toward the simplest valid value: strings toward `""` or `minLength`
    /// characters, numbers toward 0 or the nearest bound, arrays toward `minItems`, optional
    /// properties dropped, the first `anyOf`/`oneOf`/`enum` entry.
    pub fn valid(&self) -> BoxedStrategy<Value> {
        self.inner.valid.clone().boxed()
    }

    /// Minimal mutations of valid values, each failing validation; `None` when the schema
    /// admits every value (`{}`, `true`), so nothing is invalid. Root-level mutations come
    /// more often. A tree keeps its mutation while shrinking: only the valid value around
    /// it simplifies.
    pub fn invalid(&self) -> Option<BoxedStrategy<Invalid>> {
        self.inner.invalid.clone().map(|strategy| strategy.boxed())
    }
}

/// Fails when the valid strategy's draws mostly fail validation (a `not`, an `allOf` we
/// merged too loosely), pointing at the keyword that refuses them.
fn check_valid(
    unchecked: &SBoxedStrategy<Value>,
    oracle: &Schema,
    schema: &Value,
) -> Result<(), Unsupported> {
    let accepted = |value: &Value| oracle.violations(value).is_empty();
    if trial::acceptance(unchecked, TRIAL_DRAWS, accepted) >= TRIAL_PASSES {
        return Ok(());
    }
    let validator = jsonschema::validator_for(schema)
        .map_err(|error| Unsupported::new("", format!("the schema is invalid: {error}")))?;
    let mut runner = trial::runner(1024);
    let refused = (0..TRIAL_DRAWS)
        .filter_map(|_| unchecked.new_tree(&mut runner).ok())
        .map(|tree| tree.current())
        .find_map(|value| {
            validator
                .iter_errors(&value)
                .next()
                .map(|e| (e.schema_path().to_string(), e.to_string(), value.clone()))
        });
    let (at, why, value) = refused.unwrap_or_default();
    Err(Unsupported::new(
        at,
        format!("generated values keep failing validation, e.g. {value}: {why}"),
    ))
}
