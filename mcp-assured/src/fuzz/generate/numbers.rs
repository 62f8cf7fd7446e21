//! Integers and numbers: bounds, `multipleOf`, and
//! the values bugs hide at: the bounds, one step inside them, zero, and huge integers.
//!
//! Values are `k × step` on a decimal grid (the `multipleOf`, or 1 for integers), so every
//! value is a multiple by construction and shrinks toward zero or the nearest bound as `k`
//! does.

use std::ops::RangeInclusive;

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::Unsupported;
use super::decimal::Decimal;
use super::resolve::child;
use super::weighted::{Toward, one_of};

/// Where unbounded values stop: wide enough to be interesting, small enough to stay readable
/// and exact in `f64`. Huge values still come, from the extremes.
const WINDOW: i128 = 1000;
/// Numbers beyond this are not generated (except the extremes), so `k × step` stays exact.
const LIMIT: i128 = 1_000_000_000_000_000_000;
const TWO_POW_53: i128 = 1 << 53;
/// The finer grid for numbers without `multipleOf`: values like `12.34`.
const CENT: Decimal = Decimal::scaled(1, -2);

/// The rules for one `integer` or `number`.
#[derive(Debug, Clone)]
pub(super) struct Numbers {
    integer: bool,
    lower: Option<Bound>,
    upper: Option<Bound>,
    multiple_of: Option<(Decimal, String)>,
    boundaries: Vec<Decimal>,
    grids: Vec<Grid>,
    extremes: Vec<Decimal>,
    candidates: Vec<Value>,
}

#[derive(Debug, Clone)]
struct Bound {
    value: Decimal,
    exclusive: bool,
    /// The bound as the schema writes it, for messages.
    text: String,
}

/// `k × step` for `k` in `low..=high`; `bounded` says whether both ends come from the schema
/// rather than from what JSON (or exact arithmetic) holds.
#[derive(Debug, Clone, Copy)]
struct Grid {
    step: Decimal,
    low: i128,
    high: i128,
    bounded: bool,
}

impl Numbers {
    /// The rules in `schema` for an integer (`integer`) or any number; `at` locates errors.
    pub(super) fn read(
        schema: &Map<String, Value>,
        integer: bool,
        at: &str,
    ) -> Result<Numbers, Unsupported> {
        let lower = bound(schema, "minimum", "exclusiveMinimum", |a, b| a > b);
        let upper = bound(schema, "maximum", "exclusiveMaximum", |a, b| a < b);
        let multiple_of = schema.get("multipleOf").and_then(|m| {
            let decimal = Decimal::of_value(m).filter(|d| d.is_positive())?;
            Some((decimal, m.to_string()))
        });
        let mut numbers = Numbers {
            integer,
            lower,
            upper,
            multiple_of,
            boundaries: Vec::new(),
            grids: Vec::new(),
            extremes: Vec::new(),
            candidates: Vec::new(),
        };
        numbers.grids = numbers.grids(at)?;
        if numbers.grids.is_empty() {
            return Err(Unsupported::new(at, numbers.empty_reason()));
        }
        numbers.boundaries = numbers.boundaries();
        numbers.extremes = numbers.extremes(schema.get("format").and_then(Value::as_str));
        numbers.candidates = examples(schema)
            .filter(|value| Decimal::of_value(value).is_some_and(|d| numbers.admits(d)))
            .collect();
        Ok(numbers)
    }

    fn empty_reason(&self) -> String {
        let what = match (&self.multiple_of, self.integer) {
            (Some((_, m)), _) => format!("multiple of {m}"),
            (None, true) => "integer".to_owned(),
            (None, false) => "number".to_owned(),
        };
        let side = |bound: &Option<Bound>, name: &str| match bound {
            Some(b) => format!(" {name} {}", b.text),
            None => String::new(),
        };
        format!(
            "no {what} within the bounds:{}{}",
            side(&self.lower, "lower"),
            side(&self.upper, "upper")
        )
    }

    /// The grids values are drawn from; numbers without `multipleOf` get whole numbers and
    /// cents, either of which may be empty between close bounds.
    fn grids(&self, at: &str) -> Result<Vec<Grid>, Unsupported> {
        let steps = match (&self.multiple_of, self.integer) {
            (Some((m, text)), true) => vec![Decimal::int(m.integer_step().ok_or_else(|| {
                Unsupported::new(
                    child(at, "multipleOf"),
                    format!("multipleOf {text} is too large"),
                )
            })?)],
            (None, true) => vec![Decimal::int(1)],
            (Some((m, _)), false) => vec![*m],
            (None, false) => vec![Decimal::int(1), CENT],
        };
        let (floor, ceiling) = if self.integer {
            (i128::from(i64::MIN), i128::from(u64::MAX))
        } else {
            (-LIMIT, LIMIT)
        };
        Ok(steps
            .into_iter()
            .filter_map(|step| {
                let low = self.k_low(step)?.max(Decimal::int(floor).ceil_div(step)?);
                let high = self
                    .k_high(step)?
                    .min(Decimal::int(ceiling).floor_div(step)?);
                let bounded = self.lower.is_some() && self.upper.is_some();
                (low <= high).then_some(Grid {
                    step,
                    low,
                    high,
                    bounded,
                })
            })
            .collect())
    }

    /// The smallest `k` whose multiple meets the lower bound (`i128::MIN` when unbounded).
    fn k_low(&self, step: Decimal) -> Option<i128> {
        let Some(bound) = &self.lower else {
            return Some(i128::MIN);
        };
        let k = bound.value.ceil_div(step)?;
        Some(if bound.exclusive && bound.value.is_multiple_of(step) {
            k + 1
        } else {
            k
        })
    }

    fn k_high(&self, step: Decimal) -> Option<i128> {
        let Some(bound) = &self.upper else {
            return Some(i128::MAX);
        };
        let k = bound.value.floor_div(step)?;
        Some(if bound.exclusive && bound.value.is_multiple_of(step) {
            k - 1
        } else {
            k
        })
    }

    /// Zero, the bounds and one step inside each, simplest first: zero when allowed, else
    /// the bound nearest to it.
    fn boundaries(&self) -> Vec<Decimal> {
        let one = match (&self.multiple_of, self.integer) {
            (Some(_), _) | (None, true) => self.grids[0].step,
            (None, false) => Decimal::int(1),
        };
        let grid = self.grids[self.grids.len() - 1];
        let near_lower = self.lower.as_ref().map(|bound| {
            let first = grid.step.times(grid.low);
            [Some(bound.value), first, first.and_then(|f| f.add(one))]
        });
        let near_upper = self.upper.as_ref().map(|bound| {
            let last = grid.step.times(grid.high);
            [Some(bound.value), last, last.and_then(|l| l.sub(one))]
        });
        let negative = self
            .upper
            .as_ref()
            .is_some_and(|b| b.value <= Decimal::ZERO);
        let (first, second) = if negative {
            (near_upper, near_lower)
        } else {
            (near_lower, near_upper)
        };
        let mut boundaries: Vec<Decimal> = Vec::new();
        let candidates = std::iter::once(Some(Decimal::ZERO))
            .chain(first.into_iter().flatten())
            .chain(second.into_iter().flatten());
        for candidate in candidates.flatten() {
            if self.admits(candidate) && !boundaries.contains(&candidate) {
                boundaries.push(candidate);
            }
        }
        boundaries
    }

    /// Huge values for unbounded sides: the ends of `i64`, `u64` and of the integers `f64`
    /// holds exactly, or the range a `format` like `uint32` (schemars) promises.
    fn extremes(&self, format: Option<&str>) -> Vec<Decimal> {
        let hinted = format
            .and_then(integer_format_range)
            .filter(|_| self.integer);
        let candidates: Vec<Decimal> = match (hinted, self.integer) {
            (Some((low, high)), _) => vec![Decimal::int(low), Decimal::int(high)],
            (None, true) => [
                i128::from(i64::MIN),
                i128::from(i64::MAX),
                i128::from(u64::MAX),
                TWO_POW_53,
                TWO_POW_53 + 1,
                -TWO_POW_53,
            ]
            .into_iter()
            .map(Decimal::int)
            .collect(),
            (None, false) if self.multiple_of.is_none() => [TWO_POW_53, -TWO_POW_53]
                .into_iter()
                .map(Decimal::int)
                .chain([Decimal::scaled(1, 300), Decimal::scaled(-1, 300)])
                .collect(),
            (None, false) => Vec::new(),
        };
        let step = self.grids[0].step;
        candidates
            .into_iter()
            .filter_map(|value| {
                let on_grid = if value < Decimal::ZERO {
                    value.ceil_div(step)
                } else {
                    value.floor_div(step)
                };
                on_grid.and_then(|k| step.times(k)).or(Some(value))
            })
            .filter(|value| self.admits(*value) && !self.boundaries.contains(value))
            .collect()
    }

    pub(super) fn is_integer(&self) -> bool {
        self.integer
    }

    /// Whether `value` meets every rule.
    fn admits(&self, value: Decimal) -> bool {
        (!self.integer || value.is_integer())
            && self.within_bounds(value)
            && self
                .multiple_of
                .as_ref()
                .is_none_or(|(m, _)| value.is_multiple_of(*m))
    }

    fn within_bounds(&self, value: Decimal) -> bool {
        let above = self.lower.as_ref().is_none_or(|b| {
            if b.exclusive {
                value > b.value
            } else {
                value >= b.value
            }
        });
        let below = self.upper.as_ref().is_none_or(|b| {
            if b.exclusive {
                value < b.value
            } else {
                value <= b.value
            }
        });
        above && below
    }

    /// Values valid against these rules, a third of them boundaries. Each grid draws its
    /// boundaries, a uniform window and its extremes, and shrinks toward zero or the nearest
    /// bound from wherever it started; values on no grid (a decimal bound, `1e300`) are
    /// drawn as they are.
    pub(super) fn strategy(&self) -> SBoxedStrategy<Value> {
        // A third boundaries, and about one draw in twenty-five an extreme.
        let boundary = 100;
        let uniform = 2 * boundary * self.boundaries.len().max(1) as u32;
        let share = uniform / self.grids.len() as u32;
        let extreme = (uniform / 16 / self.extremes.len().max(1) as u32).max(1);
        let finest = self.grids.len() - 1;
        let mut loose: Vec<(u32, Decimal)> = Vec::new();
        let mut options: Vec<(u32, SBoxedStrategy<Value>)> = Vec::new();
        for (index, grid) in self.grids.iter().enumerate() {
            let mut picks = vec![(share, grid.window().range())];
            if index == finest {
                let weighted = self.boundaries.iter().map(|b| (boundary, *b));
                for (weight, value) in weighted.chain(self.extremes.iter().map(|e| (extreme, *e))) {
                    match grid.index_of(value) {
                        Some(k) => picks.push((weight, k..=k)),
                        None => loose.push((weight, value)),
                    }
                }
            }
            let step = grid.step;
            let target = 0.clamp(grid.low, grid.high);
            let weight = picks.iter().map(|(weight, _)| weight).sum();
            let values = Toward { target, picks }
                .prop_filter_map("a value beyond JSON numbers", move |k| {
                    step.times(k)?.to_json()
                });
            options.push((weight, values.sboxed()));
        }
        for (weight, value) in loose {
            if let Some(value) = value.to_json() {
                options.push((weight, Just(value).sboxed()));
            }
        }
        for candidate in &self.candidates {
            options.push((boundary / 3, Just(candidate.clone()).sboxed()));
        }
        one_of(options)
    }

    /// A value just past the lower bound (the bound itself when exclusive), with the bound.
    pub(super) fn below_minimum(&self) -> Option<(Value, String)> {
        let bound = self.lower.as_ref()?;
        let value = match (self.integer, bound.exclusive) {
            (true, false) => Decimal::int(bound.value.ceil_div(Decimal::int(1))? - 1),
            (true, true) => Decimal::int(bound.value.floor_div(Decimal::int(1))?),
            (false, false) => bound.value.sub(Decimal::int(1))?,
            (false, true) => bound.value,
        };
        Some((value.to_json()?, bound.text.clone()))
    }

    /// A value just past the upper bound (the bound itself when exclusive), with the bound.
    pub(super) fn above_maximum(&self) -> Option<(Value, String)> {
        let bound = self.upper.as_ref()?;
        let value = match (self.integer, bound.exclusive) {
            (true, false) => Decimal::int(bound.value.floor_div(Decimal::int(1))? + 1),
            (true, true) => Decimal::int(bound.value.ceil_div(Decimal::int(1))?),
            (false, false) => bound.value.add(Decimal::int(1))?,
            (false, true) => bound.value,
        };
        Some((value.to_json()?, bound.text.clone()))
    }

    /// The `multipleOf` as the schema writes it, when some allowed value can miss it.
    pub(super) fn multiple_of_text(&self) -> Option<&str> {
        let step = self.grids[0].step;
        let every_integer = self.integer && step == Decimal::int(1);
        (!every_integer)
            .then_some(self.multiple_of.as_ref().map(|(_, text)| text.as_str()))
            .flatten()
    }

    /// `value` moved off the grid by the smallest step, inside the bounds when possible.
    pub(super) fn off_grid(&self, value: &Value) -> Option<Value> {
        let value = Decimal::of_value(value)?;
        let step = self.grids[0].step;
        let nudge = if self.integer {
            Decimal::int(1)
        } else {
            step.half()?
        };
        let options = [value.add(nudge), value.sub(nudge)];
        let off: Vec<Decimal> = options
            .into_iter()
            .flatten()
            .filter(|v| !v.is_multiple_of(step))
            .collect();
        off.iter()
            .find(|v| self.within_bounds(**v))
            .or(off.first())
            .and_then(|v| v.to_json())
    }

    /// A number with a fraction, inside the bounds when possible: what an integer must
    /// refuse although lax validators accept `"5"`.
    pub(super) fn fraction(&self) -> Option<Value> {
        let base = self.boundaries.first().copied().unwrap_or(Decimal::ZERO);
        let half = Decimal::int(1).half()?;
        [base.add(half), base.sub(half)]
            .into_iter()
            .flatten()
            .find(|v| self.within_bounds(*v))
            .or(Some(half))
            .and_then(|v| v.to_json())
    }
}

impl Grid {
    /// The part of the grid drawn uniformly: all of it between two bounds, else a window
    /// around zero (or next to the one bound).
    fn window(self) -> Grid {
        if self.bounded {
            return self;
        }
        let width = Decimal::int(WINDOW)
            .floor_div(self.step)
            .unwrap_or(10)
            .max(10);
        let (low, high) = if self.low > width {
            (self.low, self.low.saturating_add(width).min(self.high))
        } else if self.high < -width {
            (self.high.saturating_sub(width).max(self.low), self.high)
        } else {
            (self.low.max(-width), self.high.min(width))
        };
        Grid { low, high, ..self }
    }

    fn range(self) -> RangeInclusive<i128> {
        self.low..=self.high
    }

    /// The `k` with `k × step == value`, if the value is on this grid.
    fn index_of(self, value: Decimal) -> Option<i128> {
        let k = value.floor_div(self.step)?;
        (self.step.times(k) == Some(value) && self.range().contains(&k)).then_some(k)
    }
}

/// The tightest of `minimum` and `exclusiveMinimum` (or the maximum pair), in 2020-12 form
/// (the compiler has already rewritten draft-04's boolean `exclusiveMinimum`).
fn bound(
    schema: &Map<String, Value>,
    inclusive: &str,
    exclusive: &str,
    tighter: fn(Decimal, Decimal) -> bool,
) -> Option<Bound> {
    let read = |keyword: &str, exclusive: bool| {
        let value = schema.get(keyword)?;
        Some(Bound {
            value: Decimal::of_value(value)?,
            exclusive,
            text: value.to_string(),
        })
    };
    match (read(inclusive, false), read(exclusive, true)) {
        (Some(a), Some(b)) if tighter(a.value, b.value) => Some(a),
        (Some(_), Some(b)) => Some(b),
        (a, b) => a.or(b),
    }
}

/// `default` and `examples`, worth trying when they are valid.
pub(super) fn examples(schema: &Map<String, Value>) -> impl Iterator<Item = Value> + '_ {
    let examples = schema.get("examples").and_then(Value::as_array);
    schema
        .get("default")
        .into_iter()
        .chain(examples.into_iter().flatten())
        .cloned()
}

/// The range an integer `format` promises (schemars writes `uint32`, `int64`, …).
fn integer_format_range(format: &str) -> Option<(i128, i128)> {
    let bits = |text: &str| {
        text.parse::<u32>()
            .ok()
            .filter(|b| matches!(b, 8 | 16 | 32 | 64))
    };
    if let Some(bits) = format.strip_prefix("uint").and_then(bits) {
        Some((0, (1_i128 << bits) - 1))
    } else if let Some(bits) = format.strip_prefix("int").and_then(bits) {
        Some((-(1_i128 << (bits - 1)), (1_i128 << (bits - 1)) - 1))
    } else {
        match format {
            "uint" => Some((0, i128::from(u64::MAX))),
            "int" => Some((i128::from(i64::MIN), i128::from(i64::MAX))),
            _ => None,
        }
    }
}
