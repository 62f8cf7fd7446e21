//! Exact decimal arithmetic on JSON numbers. The validator checks `multipleOf` on the decimal
//! a number prints as (`0.07` is a multiple of `0.01`, though not in binary floating point),
//! so bounds and multiples are computed on decimals and only the result becomes an `f64`.

use std::cmp::Ordering;

use serde_json::{Number, Value};

/// `mantissa × 10^exponent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Decimal {
    mantissa: i128,
    exponent: i32,
}

impl Decimal {
    pub(super) const ZERO: Decimal = Decimal::int(0);

    /// `mantissa × 10^exponent`; the mantissa must not end in a zero.
    pub(super) const fn scaled(mantissa: i128, exponent: i32) -> Decimal {
        Decimal { mantissa, exponent }
    }

    pub(super) const fn int(value: i128) -> Decimal {
        Decimal {
            mantissa: value,
            exponent: 0,
        }
        .normalized()
    }

    /// The decimal a JSON number prints as; `None` past what `i128` holds.
    pub(super) fn of(number: &Number) -> Option<Decimal> {
        Decimal::parse(&number.to_string())
    }

    /// The decimal a JSON value holds, if it is a number.
    pub(super) fn of_value(value: &Value) -> Option<Decimal> {
        Decimal::of(value.as_number()?)
    }

    fn parse(text: &str) -> Option<Decimal> {
        let (digits, exponent) = match text.split_once(['e', 'E']) {
            Some((digits, exponent)) => (digits, exponent.parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let mantissa: i128 = format!("{whole}{fraction}").parse().ok()?;
        let fraction_digits = i32::try_from(fraction.len()).ok()?;
        Some(
            Decimal {
                mantissa,
                exponent: exponent.checked_sub(fraction_digits)?,
            }
            .normalized(),
        )
    }

    /// Trailing zeros moved into the exponent, so equal values are equal structs.
    const fn normalized(mut self) -> Decimal {
        if self.mantissa == 0 {
            return Decimal {
                mantissa: 0,
                exponent: 0,
            };
        }
        while self.mantissa % 10 == 0 {
            self.mantissa /= 10;
            self.exponent += 1;
        }
        self
    }

    pub(super) fn is_integer(self) -> bool {
        self.exponent >= 0
    }

    pub(super) fn is_positive(self) -> bool {
        self.mantissa > 0
    }

    /// The value as an integer, if it is one and fits.
    pub(super) fn to_int(self) -> Option<i128> {
        if self.exponent < 0 {
            return None;
        }
        self.mantissa.checked_mul(pow10(self.exponent)?)
    }

    pub(super) fn to_f64(self) -> f64 {
        self.text().parse().unwrap_or(f64::NAN)
    }

    /// Plain decimal notation, the way the validator reads it back.
    pub(super) fn text(self) -> String {
        if self.exponent >= 0 {
            return match self.to_int() {
                Some(int) => int.to_string(),
                None => format!("{}e{}", self.mantissa, self.exponent),
            };
        }
        let digits = self.mantissa.unsigned_abs().to_string();
        let places = self.exponent.unsigned_abs() as usize;
        let padded = format!("{digits:0>width$}", width = places + 1);
        let (whole, fraction) = padded.split_at(padded.len() - places);
        let sign = if self.mantissa < 0 { "-" } else { "" };
        format!("{sign}{whole}.{fraction}")
    }

    /// The value as JSON: integers as JSON integers (when they fit `i64` or `u64`), the rest
    /// as floats; `None` when it fits neither.
    pub(super) fn to_json(self) -> Option<Value> {
        if let Some(int) = self.to_int() {
            if let Ok(small) = i64::try_from(int) {
                return Some(Value::from(small));
            }
            if let Ok(large) = u64::try_from(int) {
                return Some(Value::from(large));
            }
        }
        Number::from_f64(self.to_f64()).map(Value::Number)
    }

    pub(super) fn add(self, other: Decimal) -> Option<Decimal> {
        let (a, b, exponent) = align(self, other)?;
        Some(
            Decimal {
                mantissa: a.checked_add(b)?,
                exponent,
            }
            .normalized(),
        )
    }

    pub(super) fn sub(self, other: Decimal) -> Option<Decimal> {
        self.add(Decimal {
            mantissa: other.mantissa.checked_neg()?,
            exponent: other.exponent,
        })
    }

    pub(super) fn times(self, factor: i128) -> Option<Decimal> {
        Some(
            Decimal {
                mantissa: self.mantissa.checked_mul(factor)?,
                exponent: self.exponent,
            }
            .normalized(),
        )
    }

    /// Half of the value, exactly.
    pub(super) fn half(self) -> Option<Decimal> {
        Some(
            Decimal {
                mantissa: self.mantissa.checked_mul(5)?,
                exponent: self.exponent.checked_sub(1)?,
            }
            .normalized(),
        )
    }

    /// Whether `self / divisor` is an integer (`divisor` positive).
    pub(super) fn is_multiple_of(self, divisor: Decimal) -> bool {
        match align(self, divisor) {
            Some((value, divisor, _)) => value % divisor == 0,
            None => (self.to_f64() / divisor.to_f64()).fract() == 0.0,
        }
    }

    /// The smallest integer `k` with `k × step ≥ self` (`step` positive).
    pub(super) fn ceil_div(self, step: Decimal) -> Option<i128> {
        let (value, step, _) = align(self, step)?;
        let quotient = value.div_euclid(step);
        Some(if value.rem_euclid(step) == 0 {
            quotient
        } else {
            quotient + 1
        })
    }

    /// The largest integer `k` with `k × step ≤ self` (`step` positive).
    pub(super) fn floor_div(self, step: Decimal) -> Option<i128> {
        let (value, step, _) = align(self, step)?;
        Some(value.div_euclid(step))
    }

    /// The smallest positive decimal both are multiples of.
    pub(super) fn lcm(self, other: Decimal) -> Option<Decimal> {
        let (a, b, exponent) = align(self, other)?;
        let (a, b) = (a.abs(), b.abs());
        let mantissa = (a / gcd(a, b)).checked_mul(b)?;
        Some(Decimal { mantissa, exponent }.normalized())
    }

    /// The smallest positive integer step whose multiples are exactly the integers that are
    /// multiples of `self` (`2.5` gives 5, `0.01` gives 1).
    pub(super) fn integer_step(self) -> Option<i128> {
        if self.exponent >= 0 {
            return self.to_int();
        }
        let scale = pow10(-self.exponent)?;
        Some(self.mantissa.abs() / gcd(self.mantissa.abs(), scale))
    }
}

impl PartialOrd for Decimal {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Decimal {
    fn cmp(&self, other: &Self) -> Ordering {
        match align(*self, *other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self.to_f64().total_cmp(&other.to_f64()),
        }
    }
}

/// Both mantissas on the smaller exponent, and that exponent.
fn align(a: Decimal, b: Decimal) -> Option<(i128, i128, i32)> {
    let exponent = a.exponent.min(b.exponent);
    let scale = |d: Decimal| d.mantissa.checked_mul(pow10(d.exponent - exponent)?);
    Some((scale(a)?, scale(b)?, exponent))
}

fn pow10(exponent: i32) -> Option<i128> {
    10_i128.checked_pow(u32::try_from(exponent).ok()?)
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn dec(value: Value) -> Decimal {
        Decimal::of_value(&value).unwrap()
    }

    #[test]
    fn reads_and_prints_decimals() {
        assert_eq!(dec(json!(0.01)).text(), "0.01");
        assert_eq!(dec(json!(1e-7)).text(), "0.0000001");
        assert_eq!(dec(json!(-12.5)).text(), "-12.5");
        assert_eq!(dec(json!(100)), Decimal::int(100));
        assert_eq!(dec(json!(2.0)), Decimal::int(2));
        assert_eq!(dec(json!(u64::MAX)).to_json(), Some(json!(u64::MAX)));
        assert_eq!(dec(json!(0.07)).to_json(), Some(json!(0.07)));
    }

    #[test]
    fn divides_exactly() {
        let cent = dec(json!(0.01));
        assert!(dec(json!(0.07)).is_multiple_of(cent));
        assert!(!dec(json!(0.075)).is_multiple_of(cent));
        assert_eq!(dec(json!(0.5)).ceil_div(cent), Some(50));
        assert_eq!(dec(json!(-0.015)).ceil_div(cent), Some(-1));
        assert_eq!(dec(json!(-0.015)).floor_div(cent), Some(-2));
        assert_eq!(dec(json!(2.5)).integer_step(), Some(5));
        assert_eq!(cent.integer_step(), Some(1));
        assert_eq!(dec(json!(0.3)).lcm(dec(json!(0.2))), Some(dec(json!(0.6))));
        assert!(dec(json!(1e300)) > dec(json!(-0.5)));
    }
}
