//! Where a valid value can be broken, and how: a walk over the [`Ir`] from the root (its
//! properties first, then nested ones) that lists, for each place, the minimal changes its
//! schema refuses.
//!
//! Inside `anyOf`/`oneOf`, breaking a value of one branch often makes it a value of another.
//! Branches no other branch could take over (told apart by JSON type or by a `const`
//! discriminator property) are entered freely; the others' sites are marked `strict`, and
//! kept only if the dry run shows they mostly break the whole value (a required property
//! every branch shares, say).

use serde_json::{Value, json};

use super::Mutation;
use super::decimal::Decimal;
use super::ir::{INFINITE, Id, Ir, Kind, Types};
use super::numbers::Numbers;
use super::resolve::child;
use super::valid::Step;

/// How deep into the value mutations go.
const MAX_DEPTH: usize = 6;
/// Longer limits make the invalid value too big to be worth sending.
const MAX_PADDED: u64 = 1_000_000;
const MAX_APPENDED: u64 = 10_000;
/// The property added where extras are forbidden.
const EXTRA_PROPERTY: &str = "mcp_assured_extra";

/// One mutation of the part of a value `focus` leads to.
#[derive(Debug, Clone)]
pub(super) struct Site {
    /// How to reach the part (so generation makes it present).
    pub(super) focus: Vec<Step>,
    pub(super) mutation: Mutation,
    pub(super) edit: Edit,
    /// Root-level mutations weigh more: they are the ones a server checks first.
    pub(super) weight: u32,
    /// Found in a branch another branch may take over.
    pub(super) strict: bool,
}

/// The change to the value at the mutation's pointer.
#[derive(Debug, Clone)]
pub(super) enum Edit {
    /// Remove this property.
    Remove(String),
    /// Replace the value by one of these (the first is what shrinking returns to).
    Replace(Vec<Value>),
    /// Move the number off its `multipleOf` grid.
    OffGrid(Box<Numbers>),
    /// Cut the string (in characters) or array to this length.
    Truncate(usize),
    /// Lengthen the string to this many characters.
    Pad(usize),
    /// Lengthen the array to this many items, drawn from this node (any value if none).
    Append(usize, Option<Id>),
    /// Repeat the array's first item, without going past this many items.
    Duplicate(Option<usize>),
    /// Add this property.
    Insert(String, Value),
}

/// Every mutation site of `ir`.
pub(super) fn sites(ir: &Ir) -> Vec<Site> {
    let mut walk = Walk {
        ir,
        sites: Vec::new(),
    };
    walk.node(ir.root, &Place::default());
    // The same mutation found through several branches: keep one, a free one if any.
    walk.sites.sort_by_key(|site| site.strict);
    let mut sites: Vec<Site> = Vec::new();
    for site in walk.sites {
        if !sites.iter().any(|kept| kept.mutation == site.mutation) {
            sites.push(site);
        }
    }
    sites
}

/// Where the walk is.
#[derive(Debug, Clone, Default)]
struct Place {
    focus: Vec<Step>,
    pointer: String,
    /// How many properties or items deep.
    depth: usize,
    /// References entered, so recursion is walked once.
    entered: Vec<Id>,
    /// At the top of a branch: a wrong type there belongs to the choice.
    in_branch: bool,
    /// Within a branch another branch may take over.
    strict: bool,
}

impl Place {
    fn step(&self, step: Step) -> Place {
        let mut next = self.clone();
        match &step {
            Step::Property(name) => {
                next.pointer = child(&self.pointer, name);
                next.depth += 1;
            }
            Step::Item(index) => {
                next.pointer = child(&self.pointer, index.to_string());
                next.depth += 1;
            }
            Step::Branch(_) => {}
        }
        next.in_branch = matches!(step, Step::Branch(_));
        next.focus.push(step);
        next
    }
}

fn weight(depth: usize) -> u32 {
    match depth {
        0 | 1 => 4,
        2 => 2,
        _ => 1,
    }
}

struct Walk<'a> {
    ir: &'a Ir,
    sites: Vec<Site>,
}

impl Walk<'_> {
    fn add(&mut self, place: &Place, mutation: Mutation, edit: Edit) {
        let depth = match mutation {
            Mutation::MissingRequired { .. } | Mutation::ExtraProperty { .. } => place.depth + 1,
            _ => place.depth,
        };
        self.sites.push(Site {
            focus: place.focus.clone(),
            mutation,
            edit,
            weight: weight(depth),
            strict: place.strict,
        });
    }

    fn node(&mut self, id: Id, place: &Place) {
        if place.depth > MAX_DEPTH {
            return;
        }
        let at = place.pointer.clone();
        match &self.ir.nodes[id].kind {
            Kind::Any => {}
            Kind::Ref(target) => {
                if !place.entered.contains(target) {
                    let mut inner = place.clone();
                    inner.entered.push(*target);
                    self.node(*target, &inner);
                }
            }
            Kind::Const(value) => {
                self.add(
                    place,
                    Mutation::NotConst { at },
                    Edit::Replace(vec![not_const(value)]),
                );
            }
            Kind::Enum(values) => {
                let outside = outside_enum(values);
                self.add(
                    place,
                    Mutation::NotInEnum { at },
                    Edit::Replace(vec![outside]),
                );
            }
            Kind::Choice(branches) => {
                self.wrong_type(id, place, None);
                for (index, branch) in branches.iter().enumerate() {
                    let mut others = branches.iter().enumerate().filter(|(o, _)| *o != index);
                    let alone = others.all(|(_, other)| self.excludes(*branch, *other));
                    if self.ir.nodes[*branch].cost != INFINITE {
                        let mut inner = place.step(Step::Branch(index));
                        inner.strict |= !alone;
                        self.node(*branch, &inner);
                    }
                }
            }
            Kind::Null | Kind::Boolean => self.wrong_type(id, place, None),
            Kind::Number(numbers) => self.number(id, numbers, place),
            Kind::String(strings) => {
                self.wrong_type(id, place, None);
                let min = strings.min_length();
                if min > 0 {
                    let mutation = Mutation::TooShort {
                        at: at.clone(),
                        min_length: min,
                    };
                    self.add(place, mutation, Edit::Truncate(min as usize - 1));
                }
                if let Some(max) = strings.max_length().filter(|max| *max < MAX_PADDED) {
                    let mutation = Mutation::TooLong {
                        at: at.clone(),
                        max_length: max,
                    };
                    self.add(place, mutation, Edit::Pad(max as usize + 1));
                }
                for (pattern, misses) in strings.mismatches() {
                    let mutation = Mutation::PatternMismatch {
                        at: at.clone(),
                        pattern,
                    };
                    self.add(place, mutation, Edit::Replace(misses));
                }
            }
            Kind::Array(array) => {
                self.wrong_type(id, place, None);
                if array.min > 0 {
                    let mutation = Mutation::TooFewItems {
                        at: at.clone(),
                        min_items: array.min,
                    };
                    self.add(place, mutation, Edit::Truncate(array.min as usize - 1));
                }
                if let Some(max) = array.max.filter(|max| *max < MAX_APPENDED) {
                    let item = array
                        .prefix
                        .get(max as usize)
                        .or(array.rest.as_ref())
                        .copied();
                    let mutation = Mutation::TooManyItems {
                        at: at.clone(),
                        max_items: max,
                    };
                    self.add(place, mutation, Edit::Append(max as usize + 1, item));
                }
                if array.unique && array.max.is_none_or(|max| max >= 2) {
                    let with_item = place.step(Step::Item(0));
                    let site = Place {
                        focus: with_item.focus,
                        ..place.clone()
                    };
                    let max = array.max.map(|max| max as usize);
                    self.add(
                        &site,
                        Mutation::DuplicateItems { at: at.clone() },
                        Edit::Duplicate(max),
                    );
                }
                let positions = array
                    .prefix
                    .iter()
                    .copied()
                    .enumerate()
                    .chain(array.rest.map(|rest| (array.prefix.len(), rest)));
                for (index, item) in positions {
                    let fits = array.max.is_none_or(|max| (index as u64) < max);
                    if fits && self.ir.nodes[item].cost != INFINITE {
                        self.node(item, &place.step(Step::Item(index)));
                    }
                }
            }
            Kind::Object(object) => {
                self.wrong_type(id, place, None);
                for property in object.properties.iter().filter(|p| p.required) {
                    let mutation = Mutation::MissingRequired {
                        at: at.clone(),
                        property: property.name.clone(),
                    };
                    self.add(place, mutation, Edit::Remove(property.name.clone()));
                }
                let declared = object.properties.iter().any(|p| p.name == EXTRA_PROPERTY);
                if object.closed && !declared {
                    let mutation = Mutation::ExtraProperty {
                        at: at.clone(),
                        property: EXTRA_PROPERTY.to_owned(),
                    };
                    let edit = Edit::Insert(EXTRA_PROPERTY.to_owned(), json!("mcp-assured"));
                    self.add(place, mutation, edit);
                }
                for property in &object.properties {
                    if self.ir.nodes[property.id].cost != INFINITE {
                        let step = Step::Property(property.name.clone());
                        self.node(property.id, &place.step(step));
                    }
                }
            }
        }
    }

    fn number(&mut self, id: Id, numbers: &Numbers, place: &Place) {
        let at = place.pointer.clone();
        self.wrong_type(
            id,
            place,
            numbers.is_integer().then(|| numbers.fraction()).flatten(),
        );
        if let Some((value, bound)) = numbers.below_minimum() {
            let mutation = Mutation::BelowMinimum {
                at: at.clone(),
                bound,
            };
            self.add(place, mutation, Edit::Replace(vec![value]));
        }
        if let Some((value, bound)) = numbers.above_maximum() {
            let mutation = Mutation::AboveMaximum {
                at: at.clone(),
                bound,
            };
            self.add(place, mutation, Edit::Replace(vec![value]));
        }
        if let Some(multiple_of) = numbers.multiple_of_text() {
            let mutation = Mutation::NotMultipleOf {
                at,
                multiple_of: multiple_of.to_owned(),
            };
            self.add(place, mutation, Edit::OffGrid(Box::new(numbers.clone())));
        }
    }

    /// A value of a JSON type the node does not admit, of a kind no lax validator coerces:
    /// an array or object for scalars (never `"5"` for an integer or `"true"` for a boolean,
    /// which pydantic and zod accept), a string for arrays and objects, and for integers also
    /// a number with a fraction.
    /// Never at the root of an object schema: tool arguments are always an object, and
    /// clients do not even let a caller send anything else.
    fn wrong_type(&mut self, id: Id, place: &Place, fraction: Option<Value>) {
        let types = self.ir.types(id);
        if place.in_branch || (place.pointer.is_empty() && types == Types::OBJECT) {
            return;
        }
        let scalars = Types::NULL
            .union(Types::BOOLEAN)
            .union(Types::INTEGER)
            .union(Types::FRACTION)
            .union(Types::STRING);
        let mut candidates = if types.overlaps(scalars) {
            vec![json!([]), json!({})]
        } else {
            vec![json!("mcp-assured"), json!({}), json!([])]
        };
        candidates.extend(fraction);
        candidates.retain(|candidate| !types.overlaps(Types::of(candidate)));
        if candidates.is_empty() {
            return;
        }
        let mutation = Mutation::WrongType {
            at: place.pointer.clone(),
            expected: types.names(),
        };
        self.add(place, mutation, Edit::Replace(candidates));
    }

    /// Whether no value of `branch` is a value of `other`: their types differ, or both are
    /// objects whose required `const` property (a discriminator) differs.
    fn excludes(&self, branch: Id, other: Id) -> bool {
        if !self.ir.types(branch).overlaps(self.ir.types(other)) {
            return true;
        }
        let (Kind::Object(ours), Kind::Object(theirs)) = (
            &self.ir.nodes[self.ir.target(branch)].kind,
            &self.ir.nodes[self.ir.target(other)].kind,
        ) else {
            return false;
        };
        ours.properties
            .iter()
            .filter(|p| p.required)
            .any(|property| {
                let Kind::Const(value) = &self.ir.nodes[self.ir.target(property.id)].kind else {
                    return false;
                };
                theirs
                    .properties
                    .iter()
                    .find(|p| p.name == property.name)
                    .is_some_and(|p| match &self.ir.nodes[self.ir.target(p.id)].kind {
                        Kind::Const(their) => their != value,
                        Kind::Enum(theirs) => !theirs.contains(value),
                        _ => false,
                    })
            })
    }
}

/// A value of the enum's type that is not in it.
fn outside_enum(values: &[Value]) -> Value {
    let all = |test: fn(&Value) -> bool| values.iter().all(test);
    if all(Value::is_number) {
        let largest = values.iter().filter_map(Decimal::of_value).max();
        if let Some(value) = largest
            .and_then(|l| l.add(Decimal::int(1)))
            .and_then(Decimal::to_json)
        {
            return value;
        }
    }
    if all(Value::is_boolean)
        && let Some(missing) = [false, true]
            .into_iter()
            .map(Value::Bool)
            .find(|b| !values.contains(b))
    {
        return missing;
    }
    unused_string("mcp-assured-not-in-enum", values)
}

/// A value of the constant's type that differs from it.
fn not_const(value: &Value) -> Value {
    match value {
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(_) => Decimal::of_value(value)
            .and_then(|d| d.add(Decimal::int(1)))
            .and_then(|d| d.to_json())
            .unwrap_or_else(|| json!("mcp-assured-not-const")),
        _ => unused_string("mcp-assured-not-const", std::slice::from_ref(value)),
    }
}

fn unused_string(base: &str, taken: &[Value]) -> Value {
    let mut candidate = base.to_owned();
    while taken.contains(&json!(candidate)) {
        candidate.push('!');
    }
    json!(candidate)
}
