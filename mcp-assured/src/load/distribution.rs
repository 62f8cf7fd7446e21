//! The shape of a run, for plots: each tool's latency distribution (a histogram on a log
//! scale and the percentile curve) and the calls answered in each moment of the run.

use std::time::Duration;

use hdrhistogram::Histogram;
use serde::{Serialize, Serializer};

/// How many buckets a histogram of latencies has at most, on a log scale from the fastest
/// call to the slowest.
pub const BUCKETS: u32 = 24;

/// The percentiles the percentile curve is read at.
pub const PERCENTILES: [f64; 12] = [
    0.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.99, 100.0,
];

/// Latencies of calls that succeeded in buckets, and the percentile curve; in JSON,
/// `{"buckets": [{"from_us", "to_us", "count"}], "percentiles": [{"percentile", "latency_us"}]}`.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Distribution {
    /// Log-spaced buckets from the fastest call to the slowest, each with how many calls
    /// took that long; empty when no call succeeded.
    pub buckets: Vec<Bucket>,
    /// The latency at each of [`PERCENTILES`]; empty when no call succeeded.
    pub percentiles: Vec<PercentilePoint>,
}

/// Calls whose latency fell between `from` and `to` (both included).
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bucket {
    /// The fastest latency of the bucket.
    #[serde(rename = "from_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub from: Duration,
    /// The slowest latency of the bucket.
    #[serde(rename = "to_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub to: Duration,
    /// Calls in it.
    pub count: u64,
}

/// One point of the percentile curve.
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PercentilePoint {
    /// 0 to 100.
    pub percentile: f64,
    /// The latency that share of calls did not exceed.
    #[serde(rename = "latency_us", serialize_with = "micros")]
    #[cfg_attr(feature = "json-schema", schemars(with = "u64"))]
    pub latency: Duration,
}

/// Calls answered in one slice of the measured window (every
/// [`PROGRESS_EVERY`](super::PROGRESS_EVERY), and the last slice to the end).
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Interval {
    /// When the slice ended, from the start of the measured window; in JSON, `end_s`.
    #[serde(rename = "end_s", serialize_with = "seconds")]
    #[cfg_attr(feature = "json-schema", schemars(with = "f64"))]
    pub end: Duration,
    /// Calls answered in it, failed or not.
    pub calls: u64,
    /// Of which failed.
    pub errors: u64,
}

fn micros<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(u64::try_from(duration.as_micros()).unwrap_or(u64::MAX))
}

fn seconds<S: Serializer>(duration: &Duration, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(duration.as_secs_f64())
}

impl Distribution {
    pub(super) fn of(histogram: &Histogram<u64>) -> Distribution {
        if histogram.is_empty() {
            return Distribution::default();
        }
        let (low, high) = (histogram.min().max(1), histogram.max().max(1));
        // Log-spaced edges from the fastest to the slowest, each past the last.
        let ratio = high as f64 / low as f64;
        let mut buckets: Vec<Bucket> = Vec::new();
        let mut from = low;
        for step in 1..=BUCKETS {
            let edge = low as f64 * ratio.powf(f64::from(step) / f64::from(BUCKETS));
            let to = if step == BUCKETS {
                high
            } else {
                (edge.round() as u64).clamp(from, high)
            };
            buckets.push(Bucket {
                from: Duration::from_micros(from),
                to: Duration::from_micros(to),
                count: 0,
            });
            if to >= high {
                break;
            }
            from = to + 1;
        }
        // Each recorded value (as the histogram holds it, within its precision) counted once,
        // in the bucket that holds it.
        for value in histogram.iter_recorded() {
            let micros = value.value_iterated_to().clamp(low, high);
            let at = buckets
                .iter()
                .position(|bucket| Duration::from_micros(micros) <= bucket.to)
                .unwrap_or(buckets.len() - 1);
            buckets[at].count += value.count_at_value();
        }
        let percentiles = PERCENTILES
            .iter()
            .map(|&percentile| PercentilePoint {
                percentile,
                latency: Duration::from_micros(histogram.value_at_percentile(percentile)),
            })
            .collect();
        Distribution {
            buckets,
            percentiles,
        }
    }
}

/// The intervals between cumulative samples `(elapsed, calls, errors)` taken every `tick`
/// during a phase. The last sample, taken when the phase ends, is merged into the interval
/// before it when it comes less than half a tick after it: a sliver of time would show a
/// rate its few calls do not have.
pub(super) fn intervals(samples: &[(Duration, u64, u64)], tick: Duration) -> Vec<Interval> {
    let mut previous = (Duration::ZERO, 0, 0);
    let mut found: Vec<Interval> = Vec::new();
    for &(end, calls, errors) in samples {
        let sliver = end.saturating_sub(previous.0) < tick / 2;
        match found.last_mut() {
            Some(last) if sliver => {
                last.end = end;
                last.calls += calls.saturating_sub(previous.1);
                last.errors += errors.saturating_sub(previous.2);
            }
            _ => found.push(Interval {
                end,
                calls: calls.saturating_sub(previous.1),
                errors: errors.saturating_sub(previous.2),
            }),
        }
        previous = (end, calls, errors);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn histogram(values: &[u64]) -> Histogram<u64> {
        let mut histogram = Histogram::new(3).unwrap();
        for value in values {
            histogram.record(*value).unwrap();
        }
        histogram
    }

    #[test]
    fn buckets_hold_every_call_once_from_the_fastest_to_the_slowest() {
        let values: Vec<u64> = (1..=1000).map(|i| i * 37).collect();
        let distribution = Distribution::of(&histogram(&values));
        let total: u64 = distribution.buckets.iter().map(|b| b.count).sum();
        assert_eq!(total, 1000);
        assert!(distribution.buckets.len() <= BUCKETS as usize);
        assert_eq!(distribution.buckets[0].from, Duration::from_micros(37));
        let last = distribution.buckets.last().unwrap();
        assert!(last.to >= Duration::from_micros(36_950), "{last:?}");
        for pair in distribution.buckets.windows(2) {
            assert!(pair[0].to < pair[1].from, "{pair:?}");
        }
        let curve: Vec<f64> = distribution
            .percentiles
            .iter()
            .map(|p| p.percentile)
            .collect();
        assert_eq!(curve, PERCENTILES);
        for pair in distribution.percentiles.windows(2) {
            assert!(pair[0].latency <= pair[1].latency);
        }
    }

    #[test]
    fn one_latency_is_one_bucket_and_none_is_nothing() {
        let distribution = Distribution::of(&histogram(&[500, 500, 500]));
        assert_eq!(distribution.buckets.len(), 1);
        assert_eq!(distribution.buckets[0].count, 3);
        assert_eq!(Distribution::of(&histogram(&[])), Distribution::default());
    }

    #[test]
    fn intervals_are_the_differences_of_the_samples() {
        let second = Duration::from_secs(1);
        let samples = [(second, 10, 1), (2 * second, 25, 1), (3 * second, 25, 3)];
        let found = intervals(&samples, second);
        let counts: Vec<(u64, u64)> = found.iter().map(|i| (i.calls, i.errors)).collect();
        assert_eq!(counts, [(10, 1), (15, 0), (0, 2)]);
        assert_eq!(found[2].end, 3 * second);
        // A last sample a sliver after the one before joins its interval.
        let tail = [
            (second, 10, 0),
            (second + Duration::from_millis(100), 12, 1),
        ];
        let found = intervals(&tail, second);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].calls, found[0].errors), (12, 1));
        assert_eq!(found[0].end, second + Duration::from_millis(100));
    }
}
