//! [`AnswerCache`]: the weather API's answers kept for a short time, so that the same
//! request made again within the time to live (the same tool with the same arguments, on
//! either face, from any session) is answered without calling the API again: the hybrid
//! protocol's "cache expensive computations", for what is safe to cache here.
//!
//! What is kept is one answer per request URL (path and query: the tool's arguments), as the
//! API sent it, for [`DEFAULT_TTL`] by default, at most [`DEFAULT_ENTRIES`] of them. Only
//! answers the tools can use are kept: a 2xx status with a JSON body. An error status, a
//! timeout, a refused connection, a body that is not JSON or one over the tool's `maxMemory`
//! is never kept, so the next call asks the API again. A kept answer is still held to the
//! calling tool's `maxMemory` (its size is kept with it), and every call still goes through
//! the runner: permissions, limits and hooks apply to an answer from the cache as to any.

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

use serde_json::Value;

/// How long an answer is kept by default.
pub const DEFAULT_TTL: Duration = Duration::from_secs(30);
/// How many answers are kept at most by default.
pub const DEFAULT_ENTRIES: usize = 256;

/// The weather API's answers by request URL, each for a time to live, a bounded number of
/// them (when full, the expired ones go first, then the oldest). Shared by every clone of
/// the server.
pub struct AnswerCache {
    ttl: Duration,
    entries: usize,
    answers: Mutex<HashMap<String, Kept>>,
}

impl std::fmt::Debug for AnswerCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnswerCache")
            .field("ttl", &self.ttl)
            .field("entries", &self.entries)
            .field("kept", &self.len())
            .finish()
    }
}

/// One answer and when it came.
#[derive(Debug)]
struct Kept {
    at: Instant,
    value: Value,
    bytes: usize,
}

/// An answer from the cache: the JSON, and the size of the body it came in (for the calling
/// tool's `maxMemory`).
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// The answer as parsed.
    pub value: Value,
    /// The body's size in bytes.
    pub bytes: usize,
}

impl Default for AnswerCache {
    /// [`DEFAULT_TTL`], [`DEFAULT_ENTRIES`].
    fn default() -> Self {
        Self::new(DEFAULT_TTL, DEFAULT_ENTRIES)
    }
}

impl AnswerCache {
    /// Keeps each answer for `ttl`, at most `entries` of them; a `ttl` or `entries` of 0
    /// keeps nothing.
    pub fn new(ttl: Duration, entries: usize) -> Self {
        Self {
            ttl,
            entries,
            answers: Mutex::new(HashMap::new()),
        }
    }

    /// A cache that keeps nothing: every call asks the API.
    pub fn off() -> Self {
        Self::new(Duration::ZERO, 0)
    }

    /// Whether it keeps anything.
    pub fn is_on(&self) -> bool {
        !self.ttl.is_zero() && self.entries > 0
    }

    /// How long an answer is kept.
    pub fn ttl(&self) -> Duration {
        self.ttl
    }

    /// The answer kept for `url`, if it is younger than the time to live.
    pub fn get(&self, url: &str) -> Option<Hit> {
        if !self.is_on() {
            return None;
        }
        let mut answers = self.lock();
        match answers.get(url) {
            Some(kept) if kept.at.elapsed() < self.ttl => Some(Hit {
                value: kept.value.clone(),
                bytes: kept.bytes,
            }),
            Some(_) => {
                answers.remove(url);
                None
            }
            None => None,
        }
    }

    /// Keeps `value`, which came as a body of `bytes` bytes, as the answer for `url`.
    pub fn put(&self, url: &str, value: &Value, bytes: usize) {
        if !self.is_on() {
            return;
        }
        let mut answers = self.lock();
        if answers.len() >= self.entries && !answers.contains_key(url) {
            answers.retain(|_, kept| kept.at.elapsed() < self.ttl);
            if answers.len() >= self.entries
                && let Some(oldest) = answers
                    .iter()
                    .min_by_key(|(_, kept)| kept.at)
                    .map(|(url, _)| url.clone())
            {
                answers.remove(&oldest);
            }
        }
        answers.insert(
            url.to_owned(),
            Kept {
                at: Instant::now(),
                value: value.clone(),
                bytes,
            },
        );
    }

    /// How many answers are kept (the expired included, until they are dropped).
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no answer is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Kept>> {
        // A panic while holding it left a map, which is still a map of answers.
        self.answers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// A time to live as `--cache-ttl` takes it: `30s`, `500ms`, `2m`, or `0` (no cache).
///
/// # Errors
///
/// What is wrong with `text`.
pub fn parse_ttl(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let number: u64 = number
        .parse()
        .map_err(|_| format!("expected a duration such as `30s`, `500ms` or `0`, got `{text}`"))?;
    let duration = match unit {
        "ms" => Duration::from_millis(number),
        "s" => Duration::from_secs(number),
        "m" => Duration::from_secs(number.saturating_mul(60)),
        "" if number == 0 => Duration::ZERO,
        "" => return Err(format!("`{text}` needs a unit: `{text}s` or `{text}ms`")),
        other => {
            return Err(format!(
                "unknown unit `{other}` in `{text}`: use `ms`, `s` or `m`"
            ));
        }
    };
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn keeps_an_answer_for_its_time_to_live_only() {
        let cache = AnswerCache::new(Duration::from_millis(50), 8);
        cache.put("/weather?city=Oslo", &json!({"temperature": 2}), 17);
        assert_eq!(
            cache.get("/weather?city=Oslo"),
            Some(Hit {
                value: json!({"temperature": 2}),
                bytes: 17
            })
        );
        assert_eq!(cache.get("/weather?city=Bergen"), None);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(cache.get("/weather?city=Oslo"), None);
        assert!(
            cache.is_empty(),
            "an expired answer is dropped when asked for"
        );
    }

    #[test]
    fn when_full_drops_the_expired_then_the_oldest() {
        let cache = AnswerCache::new(Duration::from_secs(60), 2);
        cache.put("a", &json!(1), 1);
        cache.put("b", &json!(2), 1);
        cache.put("a", &json!(3), 1);
        assert_eq!(cache.len(), 2, "replacing an answer takes no more room");
        cache.put("c", &json!(4), 1);
        assert_eq!(cache.len(), 2);
        assert_eq!(cache.get("b"), None, "`b` was the oldest");
        assert_eq!(cache.get("a").map(|hit| hit.value), Some(json!(3)));
        assert_eq!(cache.get("c").map(|hit| hit.value), Some(json!(4)));

        let short = AnswerCache::new(Duration::from_millis(20), 2);
        short.put("old", &json!(1), 1);
        std::thread::sleep(Duration::from_millis(30));
        short.put("new", &json!(2), 1);
        short.put("newer", &json!(3), 1);
        assert_eq!(short.len(), 2, "the expired one made room");
        assert!(short.get("new").is_some() && short.get("newer").is_some());
    }

    #[test]
    fn off_keeps_nothing() {
        for cache in [
            AnswerCache::off(),
            AnswerCache::new(Duration::ZERO, 10),
            AnswerCache::new(Duration::from_secs(1), 0),
        ] {
            assert!(!cache.is_on());
            cache.put("a", &json!(1), 1);
            assert_eq!(cache.get("a"), None);
        }
        assert!(AnswerCache::default().is_on());
        assert_eq!(AnswerCache::default().ttl(), DEFAULT_TTL);
    }

    #[test]
    fn parses_a_time_to_live() {
        assert_eq!(parse_ttl("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_ttl("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_ttl("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_ttl("0"), Ok(Duration::ZERO));
        assert_eq!(parse_ttl("0s"), Ok(Duration::ZERO));
        assert_eq!(
            parse_ttl("30"),
            Err("`30` needs a unit: `30s` or `30ms`".to_owned())
        );
        assert!(parse_ttl("1h").unwrap_err().contains("unknown unit `h`"));
        assert!(parse_ttl("soon").unwrap_err().contains("such as `30s`"));
    }
}
