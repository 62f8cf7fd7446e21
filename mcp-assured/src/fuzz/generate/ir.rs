//! A schema compiled for generation: `$ref`s resolved, `allOf` merged, `anyOf`/`oneOf`/type
//! lists turned into choices, every node typed. Nodes live in one arena and point at each
//! other by index, so recursive schemas are finite graphs; every cycle passes a
//! [`Kind::Ref`], which is where generation counts its depth.

use serde_json::Value;

use super::numbers::Numbers;
use super::pattern::Translated;
use super::strings::Strings;

pub(super) type Id = usize;

/// The cost of a node that only has infinite values.
pub(super) const INFINITE: u64 = u64::MAX;

#[derive(Debug)]
pub(super) struct Ir {
    pub(super) nodes: Vec<Node>,
    pub(super) root: Id,
}

#[derive(Debug)]
pub(super) struct Node {
    pub(super) kind: Kind,
    /// The size of the smallest value this node admits ([`INFINITE`] if none is finite);
    /// deep in recursive schemas generation takes the cheapest way out.
    pub(super) cost: u64,
}

#[derive(Debug)]
pub(super) enum Kind {
    /// Any value at all (`true`, `{}`).
    Any,
    /// The same values as another node.
    Ref(Id),
    Const(Value),
    Enum(Vec<Value>),
    /// One of several nodes (`anyOf`, `oneOf`, a type list), simplest first.
    Choice(Vec<Id>),
    Null,
    Boolean,
    Number(Numbers),
    String(Strings),
    Array(Array),
    Object(Object),
}

#[derive(Debug)]
pub(super) struct Array {
    /// Schemas of the first items, in order (`prefixItems`, draft-07 tuple `items`).
    pub(super) prefix: Vec<Id>,
    /// The schema of the items after them; `None` admits anything.
    pub(super) rest: Option<Id>,
    pub(super) min: u64,
    /// Already capped at the prefix when nothing may follow it.
    pub(super) max: Option<u64>,
    pub(super) unique: bool,
    /// Items that must be present (`contains`, already merged with the item schema) and how
    /// many.
    pub(super) contains: Option<(Id, u64)>,
}

#[derive(Debug)]
pub(super) struct Object {
    /// Declared properties (and required ones that are not declared), in schema order.
    pub(super) properties: Vec<Property>,
    pub(super) additional: Additional,
    /// `additionalProperties` or `unevaluatedProperties` is `false`.
    pub(super) closed: bool,
    pub(super) pattern_properties: Vec<(Translated, Id)>,
    /// Names free for extra properties: undeclared and matching no `patternProperties`.
    pub(super) extra_names: Vec<String>,
    pub(super) min_properties: u64,
    pub(super) max_properties: Option<u64>,
}

#[derive(Debug)]
pub(super) struct Property {
    pub(super) name: String,
    pub(super) id: Id,
    pub(super) required: bool,
}

#[derive(Debug)]
pub(super) enum Additional {
    /// `additionalProperties: false`.
    Forbidden,
    /// A schema for extra properties: some values get one or two.
    Schema(Id),
    /// Absent or `true`: extras are allowed but never added, since servers rarely expect them.
    Free,
}

/// JSON types as a bit set; integers and other numbers apart, since `integer` admits only the
/// former.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Types(u8);

impl Types {
    pub(super) const NONE: Types = Types(0);
    pub(super) const NULL: Types = Types(1);
    pub(super) const BOOLEAN: Types = Types(2);
    pub(super) const INTEGER: Types = Types(4);
    pub(super) const FRACTION: Types = Types(8);
    pub(super) const STRING: Types = Types(16);
    pub(super) const ARRAY: Types = Types(32);
    pub(super) const OBJECT: Types = Types(64);
    pub(super) const ALL: Types = Types(127);

    pub(super) fn of(value: &Value) -> Types {
        match value {
            Value::Null => Types::NULL,
            Value::Bool(_) => Types::BOOLEAN,
            Value::Number(n) if n.is_i64() || n.is_u64() => Types::INTEGER,
            Value::Number(n) if n.as_f64().is_some_and(|f| f.fract() == 0.0) => Types::INTEGER,
            Value::Number(_) => Types::FRACTION,
            Value::String(_) => Types::STRING,
            Value::Array(_) => Types::ARRAY,
            Value::Object(_) => Types::OBJECT,
        }
    }

    pub(super) fn union(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    pub(super) fn overlaps(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    /// The JSON Schema type names, e.g. `integer` or `string or null`.
    pub(super) fn names(self) -> String {
        let number = Types::INTEGER.union(Types::FRACTION);
        let mut names = Vec::new();
        for (types, name) in [
            (Types::OBJECT, "object"),
            (Types::ARRAY, "array"),
            (Types::STRING, "string"),
            (number, "number"),
            (Types::INTEGER, "integer"),
            (Types::BOOLEAN, "boolean"),
            (Types::NULL, "null"),
        ] {
            let covered = self.0 & types.0 == types.0;
            let counted = name == "integer" && self.0 & number.0 == number.0;
            if covered && !counted {
                names.push(name);
            }
        }
        names.join(" or ")
    }
}

impl Ir {
    /// The node `id` stands for, past any references.
    pub(super) fn target(&self, mut id: Id) -> Id {
        for _ in 0..self.nodes.len() {
            match self.nodes[id].kind {
                Kind::Ref(next) => id = next,
                _ => return id,
            }
        }
        id
    }

    /// The JSON types node `id` admits.
    pub(super) fn types(&self, id: Id) -> Types {
        self.types_within(id, &mut Vec::new())
    }

    fn types_within(&self, id: Id, visiting: &mut Vec<Id>) -> Types {
        if visiting.contains(&id) {
            return Types::NONE;
        }
        visiting.push(id);
        let types = match &self.nodes[id].kind {
            Kind::Any => Types::ALL,
            Kind::Ref(target) => self.types_within(*target, visiting),
            Kind::Const(value) => Types::of(value),
            Kind::Enum(values) => values
                .iter()
                .fold(Types::NONE, |t, v| t.union(Types::of(v))),
            Kind::Choice(branches) => branches
                .iter()
                .fold(Types::NONE, |t, b| t.union(self.types_within(*b, visiting))),
            Kind::Null => Types::NULL,
            Kind::Boolean => Types::BOOLEAN,
            Kind::Number(numbers) if numbers.is_integer() => Types::INTEGER,
            Kind::Number(_) => Types::INTEGER.union(Types::FRACTION),
            Kind::String(_) => Types::STRING,
            Kind::Array(_) => Types::ARRAY,
            Kind::Object(_) => Types::OBJECT,
        };
        visiting.pop();
        types
    }

    /// Fills in every node's cost: a least fixpoint, so nodes that only recurse forever stay
    /// [`INFINITE`].
    pub(super) fn compute_costs(&mut self) {
        let mut changed = true;
        while changed {
            changed = false;
            for id in 0..self.nodes.len() {
                let cost = self.cost_now(id);
                if cost < self.nodes[id].cost {
                    self.nodes[id].cost = cost;
                    changed = true;
                }
            }
        }
    }

    fn cost_now(&self, id: Id) -> u64 {
        let cost = |id: Id| self.nodes[id].cost;
        match &self.nodes[id].kind {
            Kind::Ref(target) => total([cost(*target)]),
            Kind::Choice(branches) => total(branches.iter().map(|b| cost(*b)).min()),
            Kind::Array(array) => {
                let positions = (0..array.min as usize).map(|index| {
                    array
                        .prefix
                        .get(index)
                        .or(array.rest.as_ref())
                        .map_or(1, |id| cost(*id))
                });
                let contains = array
                    .contains
                    .iter()
                    .map(|(id, count)| cost(*id).saturating_mul(*count));
                total(positions.chain(contains))
            }
            Kind::Object(object) => total(
                object
                    .properties
                    .iter()
                    .take(object.forced())
                    .map(|p| cost(p.id)),
            ),
            _ => 1,
        }
    }
}

/// One for the node plus its parts' costs; [`INFINITE`] if any part is.
fn total(parts: impl IntoIterator<Item = u64>) -> u64 {
    parts
        .into_iter()
        .try_fold(1_u64, |sum, part| {
            (part != INFINITE).then(|| sum.saturating_add(part))
        })
        .unwrap_or(INFINITE)
}

impl Object {
    /// How many leading properties every value has: the required ones come first, then
    /// as many optional ones as `minProperties` needs.
    pub(super) fn forced(&self) -> usize {
        let required = self.properties.iter().filter(|p| p.required).count();
        required
            .max(self.min_properties as usize)
            .min(self.properties.len())
    }
}
