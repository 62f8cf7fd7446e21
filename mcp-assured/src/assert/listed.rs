//! The checks the lists of tools, resources and prompts share: a name is listed, a name is
//! not, the list has so many entries. A failure shows the whole listing and, for a missing
//! name, the closest listed one.

use super::failure::{AssertionError, Failure, did_you_mean, listing};

/// What a list holds, as its failure messages name it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Listed {
    /// How one entry is introduced: "Expected a {one} `x`".
    one: &'static str,
    /// The list, in facts and counts.
    many: &'static str,
}

pub(super) const TOOLS: Listed = Listed {
    one: "tool named",
    many: "tools",
};
pub(super) const RESOURCES: Listed = Listed {
    one: "resource",
    many: "resources",
};
pub(super) const PROMPTS: Listed = Listed {
    one: "prompt named",
    many: "prompts",
};

impl Listed {
    /// The failure for `name`, which `names` lacks.
    pub(super) fn missing<T>(self, name: &str, names: &[String]) -> Result<T, AssertionError> {
        let mut failure = Failure::new(format!(
            "Expected a {} `{name}`, but the server does not list it.",
            self.one
        ))
        .fact(self.many, listing(names));
        if let Some(close) = did_you_mean(name, names) {
            failure = failure.fact("did you mean", format!("`{close}`"));
        }
        failure.err()
    }

    /// The failure for `name`, which `names` holds but should not.
    pub(super) fn unwanted<T>(self, name: &str, names: &[String]) -> Result<T, AssertionError> {
        Failure::new(format!(
            "Expected no {} `{name}`, but the server lists it.",
            self.one
        ))
        .fact(self.many, listing(names))
        .err()
    }

    /// The failure for `names`, which has not `count` entries.
    pub(super) fn wrong_count<T>(
        self,
        count: usize,
        names: &[String],
    ) -> Result<T, AssertionError> {
        Failure::new(format!(
            "Expected {count} {}, but the server lists {}.",
            self.many,
            names.len()
        ))
        .fact(self.many, listing(names))
        .err()
    }
}
