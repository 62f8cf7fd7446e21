//! Where the comparisons put what they find: the changes of one item at a time.

use serde_json::Value;

use super::change::{Change, ChangeKind, Item, Location, Severity};

/// The changes found so far, and the item being compared.
#[derive(Debug)]
pub(super) struct Found<'a> {
    item: Item,
    name: &'a str,
    changes: Vec<Change>,
}

impl<'a> Found<'a> {
    pub(super) fn new() -> Self {
        Found {
            item: Item::Capabilities,
            name: "",
            changes: Vec::new(),
        }
    }

    /// What follows is about `item` named `name`.
    pub(super) fn at(&mut self, item: Item, name: &'a str) {
        self.item = item;
        self.name = name;
    }

    pub(super) fn push(
        &mut self,
        kind: ChangeKind,
        severity: Severity,
        pointer: String,
        message: String,
        old: Option<&Value>,
        new: Option<&Value>,
    ) {
        self.changes.push(Change {
            kind,
            severity,
            location: Location {
                item: self.item,
                name: self.name.to_owned(),
                pointer,
            },
            message,
            old: old.cloned(),
            new: new.cloned(),
        });
    }

    pub(super) fn into_changes(self) -> Vec<Change> {
        self.changes
    }
}
