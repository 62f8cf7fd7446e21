//! What an invalid value breaks: one [`Mutation`] of a valid value, named so a failure report
//! can say which rule the server let through.

use std::fmt;

use serde_json::Value;

/// An invalid value and the one change that made it invalid.
#[derive(Debug, Clone, PartialEq)]
pub struct Invalid {
    /// The change made to a valid value.
    pub mutation: Mutation,
    /// The value after the change; it fails validation against the schema.
    pub value: Value,
}

/// One minimal change that makes a valid value invalid. Each `at` is a JSON pointer into the
/// value (`""` for the value itself, `"/city"`, `"/items/0"`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mutation {
    /// A required property of the object at `at` was removed.
    MissingRequired {
        /// The object.
        at: String,
        /// The property removed.
        property: String,
    },
    /// The value at `at` was replaced by one of another JSON type.
    WrongType {
        /// The replaced value.
        at: String,
        /// The types the schema allows there, e.g. `integer` or `string or null`.
        expected: String,
    },
    /// The number at `at` is just below its lower bound (the bound itself when exclusive).
    BelowMinimum {
        /// The number.
        at: String,
        /// The bound, as JSON text.
        bound: String,
    },
    /// The number at `at` is just above its upper bound (the bound itself when exclusive).
    AboveMaximum {
        /// The number.
        at: String,
        /// The bound, as JSON text.
        bound: String,
    },
    /// The number at `at` is not a multiple of `multipleOf`.
    NotMultipleOf {
        /// The number.
        at: String,
        /// The `multipleOf`, as JSON text.
        multiple_of: String,
    },
    /// The string at `at` is one character shorter than `minLength`.
    TooShort {
        /// The string.
        at: String,
        /// The schema's `minLength`.
        min_length: u64,
    },
    /// The string at `at` is one character longer than `maxLength`.
    TooLong {
        /// The string.
        at: String,
        /// The schema's `maxLength`.
        max_length: u64,
    },
    /// The string at `at` does not match `pattern`.
    PatternMismatch {
        /// The string.
        at: String,
        /// The pattern it misses.
        pattern: String,
    },
    /// The array at `at` has one item fewer than `minItems`.
    TooFewItems {
        /// The array.
        at: String,
        /// The schema's `minItems`.
        min_items: u64,
    },
    /// The array at `at` has one item more than `maxItems`.
    TooManyItems {
        /// The array.
        at: String,
        /// The schema's `maxItems`.
        max_items: u64,
    },
    /// The array at `at` repeats an item although `uniqueItems` is true.
    DuplicateItems {
        /// The array.
        at: String,
    },
    /// The value at `at` is outside its `enum`.
    NotInEnum {
        /// The value.
        at: String,
    },
    /// The value at `at` differs from its `const`.
    NotConst {
        /// The value.
        at: String,
    },
    /// The object at `at` got a property its schema forbids.
    ExtraProperty {
        /// The object.
        at: String,
        /// The property added.
        property: String,
    },
}

impl Mutation {
    /// A stable snake_case name for the kind of change, for reports and filters:
    /// `missing_required`, `wrong_type`, `below_minimum`, `above_maximum`, `not_multiple_of`,
    /// `too_short`, `too_long`, `pattern_mismatch`, `too_few_items`, `too_many_items`,
    /// `duplicate_items`, `not_in_enum`, `not_const` or `extra_property`.
    pub fn kind(&self) -> &'static str {
        match self {
            Mutation::MissingRequired { .. } => "missing_required",
            Mutation::WrongType { .. } => "wrong_type",
            Mutation::BelowMinimum { .. } => "below_minimum",
            Mutation::AboveMaximum { .. } => "above_maximum",
            Mutation::NotMultipleOf { .. } => "not_multiple_of",
            Mutation::TooShort { .. } => "too_short",
            Mutation::TooLong { .. } => "too_long",
            Mutation::PatternMismatch { .. } => "pattern_mismatch",
            Mutation::TooFewItems { .. } => "too_few_items",
            Mutation::TooManyItems { .. } => "too_many_items",
            Mutation::DuplicateItems { .. } => "duplicate_items",
            Mutation::NotInEnum { .. } => "not_in_enum",
            Mutation::NotConst { .. } => "not_const",
            Mutation::ExtraProperty { .. } => "extra_property",
        }
    }

    /// The JSON pointer into the value where the change was made.
    pub fn at(&self) -> &str {
        match self {
            Mutation::MissingRequired { at, .. }
            | Mutation::WrongType { at, .. }
            | Mutation::BelowMinimum { at, .. }
            | Mutation::AboveMaximum { at, .. }
            | Mutation::NotMultipleOf { at, .. }
            | Mutation::TooShort { at, .. }
            | Mutation::TooLong { at, .. }
            | Mutation::PatternMismatch { at, .. }
            | Mutation::TooFewItems { at, .. }
            | Mutation::TooManyItems { at, .. }
            | Mutation::DuplicateItems { at }
            | Mutation::NotInEnum { at }
            | Mutation::NotConst { at }
            | Mutation::ExtraProperty { at, .. } => at,
        }
    }
}

/// Where in the value, in words: the root has no pointer worth quoting.
struct Place<'a>(&'a str);

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("the value")
        } else {
            write!(f, "`{}`", self.0)
        }
    }
}

/// ` in `/address`` for a nested object, nothing for the root.
struct Within<'a>(&'a str);

impl fmt::Display for Within<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            Ok(())
        } else {
            write!(f, " in `{}`", self.0)
        }
    }
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mutation::MissingRequired { at, property } => {
                write!(f, "required property `{property}` dropped{}", Within(at))
            }
            Mutation::WrongType { at, expected } => {
                write!(
                    f,
                    "{} given a value of the wrong type (expected {expected})",
                    Place(at)
                )
            }
            Mutation::BelowMinimum { at, bound } => {
                write!(f, "{} one past minimum {bound}", Place(at))
            }
            Mutation::AboveMaximum { at, bound } => {
                write!(f, "{} one past maximum {bound}", Place(at))
            }
            Mutation::NotMultipleOf { at, multiple_of } => {
                write!(f, "{} not a multiple of {multiple_of}", Place(at))
            }
            Mutation::TooShort { at, min_length } => write!(
                f,
                "{} one character shorter than minLength {min_length}",
                Place(at)
            ),
            Mutation::TooLong { at, max_length } => write!(
                f,
                "{} one character longer than maxLength {max_length}",
                Place(at)
            ),
            Mutation::PatternMismatch { at, pattern } => {
                write!(f, "{} does not match pattern `{pattern}`", Place(at))
            }
            Mutation::TooFewItems { at, min_items } => {
                write!(f, "{} one item short of minItems {min_items}", Place(at))
            }
            Mutation::TooManyItems { at, max_items } => {
                write!(f, "{} one item past maxItems {max_items}", Place(at))
            }
            Mutation::DuplicateItems { at } => {
                write!(f, "{} repeats an item where uniqueItems is true", Place(at))
            }
            Mutation::NotInEnum { at } => write!(f, "{} outside its enum", Place(at)),
            Mutation::NotConst { at } => write!(f, "{} differs from its const", Place(at)),
            Mutation::ExtraProperty { at, property } => write!(
                f,
                "extra property `{property}`{} where additionalProperties is false",
                Within(at)
            ),
        }
    }
}
