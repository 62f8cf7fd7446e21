//! [`ToolPolicy`]: a tool's permissions and resource limits, as it declares them and as the
//! server lists them (REST `permissions` and `limits`, MCP `_meta.permissions` and
//! `_meta.limits`), and [`Policies`], every tool's, with the server's overrides.

use std::{collections::BTreeMap, fmt, time::Duration};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What happens to a call when `maxConcurrency` calls of its tool are already running.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OnConcurrencyLimit {
    /// Refused at once with `RATE_LIMIT_ERROR` (the default: the spec's code for it).
    #[default]
    Reject,
    /// Waits for a place; the wait does not count toward `maxExecutionTime`.
    Wait,
}

/// The hybrid protocol's `ResourceLimits`, in its units: milliseconds and megabytes
/// (fractions allowed). [`Limits::default`] is the protocol's: 5 minutes, 512 MB, 10 at once,
/// 10 MB.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct Limits {
    /// Milliseconds a call may run.
    pub max_execution_time: u64,
    /// Megabytes a call may hold of the weather API's answers.
    #[serde(serialize_with = "megabytes")]
    pub max_memory: f64,
    /// Calls of the tool running at once.
    pub max_concurrency: u32,
    /// Megabytes of a request (REST body, MCP arguments).
    #[serde(serialize_with = "megabytes")]
    pub max_payload_size: f64,
    /// What a call over `max_concurrency` gets.
    pub on_concurrency_limit: OnConcurrencyLimit,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_execution_time: 300_000,
            max_memory: 512.0,
            max_concurrency: 10,
            max_payload_size: 10.0,
            on_concurrency_limit: OnConcurrencyLimit::Reject,
        }
    }
}

const MEGABYTE: f64 = 1024.0 * 1024.0;

impl Limits {
    /// `max_execution_time` as a duration.
    pub fn execution_time(&self) -> Duration {
        Duration::from_millis(self.max_execution_time)
    }

    /// `max_payload_size` in bytes.
    pub fn payload_bytes(&self) -> usize {
        megabytes_to_bytes(self.max_payload_size)
    }

    /// `max_memory` in bytes.
    pub fn memory_bytes(&self) -> usize {
        megabytes_to_bytes(self.max_memory)
    }

    fn check(&self) -> Result<(), String> {
        if self.max_execution_time == 0 {
            return Err("maxExecutionTime must be above 0 ms".to_owned());
        }
        if self.max_concurrency == 0 {
            return Err("maxConcurrency must be at least 1".to_owned());
        }
        for (name, value) in [
            ("maxMemory", self.max_memory),
            ("maxPayloadSize", self.max_payload_size),
        ] {
            if !(value.is_finite() && value > 0.0) {
                return Err(format!("{name} must be a number of MB above 0"));
            }
        }
        Ok(())
    }
}

/// A whole number of megabytes as an integer (`512`, not `512.0`), a fraction as it is.
fn megabytes<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && *value >= 0.0 && *value < 9.0e15 {
        serializer.serialize_u64(*value as u64)
    } else {
        serializer.serialize_f64(*value)
    }
}

fn megabytes_to_bytes(megabytes: f64) -> usize {
    // `as` saturates: a huge limit is no limit.
    (megabytes * MEGABYTE).ceil() as usize
}

/// A tool's permissions and limits.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ToolPolicy {
    /// Every scope a caller's token needs to run the tool.
    pub permissions: Vec<String>,
    /// Its resource limits.
    pub limits: Limits,
}

impl ToolPolicy {
    /// Needs `permissions`, with the protocol's default limits.
    pub fn requiring(permissions: &[&str]) -> Self {
        Self {
            permissions: permissions.iter().map(|&scope| scope.to_owned()).collect(),
            limits: Limits::default(),
        }
    }

    /// With `limits`.
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }
}

/// Why a `--policy` document was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError(String);

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyError {}

/// Every tool's policy.
#[derive(Debug, Clone, PartialEq)]
pub struct Policies {
    tools: BTreeMap<String, ToolPolicy>,
}

impl Policies {
    /// Each tool as its module declares it.
    pub fn declared() -> Self {
        Self {
            tools: crate::tools::policies()
                .into_iter()
                .map(|(name, policy)| (name.to_owned(), policy))
                .collect(),
        }
    }

    /// The policy of `tool` (the protocol's defaults for a tool no module has).
    pub fn of(&self, tool: &str) -> ToolPolicy {
        self.tools.get(tool).cloned().unwrap_or_default()
    }

    /// `overrides` applied: `{"<tool>" | "*": {"permissions": [..], "limits": {..}}}`, a
    /// tool's fields replacing what it declares (limits one by one), `"*"` applying to every
    /// tool first.
    ///
    /// # Errors
    ///
    /// An unknown tool or field, a value of the wrong type, a limit of 0.
    pub fn with_overrides(mut self, overrides: &Value) -> Result<Self, PolicyError> {
        let Value::Object(overrides) = overrides else {
            return Err(PolicyError(
                "the policy must be a JSON object of tool names".to_owned(),
            ));
        };
        let mut names: Vec<&String> = overrides.keys().filter(|name| *name == "*").collect();
        names.extend(overrides.keys().filter(|name| *name != "*"));
        for name in names {
            let targets: Vec<String> = if name == "*" {
                self.tools.keys().cloned().collect()
            } else if self.tools.contains_key(name) {
                vec![name.clone()]
            } else {
                return Err(PolicyError(format!(
                    "no tool `{name}`; the tools: {}",
                    self.tools.keys().cloned().collect::<Vec<_>>().join(", ")
                )));
            };
            for target in targets {
                let current = self.tools.get_mut(&target).expect("a listed tool");
                *current = apply(current, &overrides[name])
                    .map_err(|error| PolicyError(format!("the policy of `{name}`: {error}")))?;
            }
        }
        Ok(self)
    }

    /// The tools' names and policies.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &ToolPolicy)> {
        self.tools
            .iter()
            .map(|(name, policy)| (name.as_str(), policy))
    }
}

/// `current` with the fields of `change` replaced.
fn apply(current: &ToolPolicy, change: &Value) -> Result<ToolPolicy, String> {
    let mut merged = serde_json::to_value(current).map_err(|error| error.to_string())?;
    let Value::Object(change) = change else {
        return Err("expected an object with `permissions` and/or `limits`".to_owned());
    };
    for (key, value) in change {
        match (key.as_str(), value) {
            ("limits", Value::Object(limits)) => {
                for (limit, value) in limits {
                    merged["limits"][limit] = value.clone();
                }
            }
            _ => merged[key] = value.clone(),
        }
    }
    let policy: ToolPolicy = serde_json::from_value(merged).map_err(|error| error.to_string())?;
    policy.limits.check()?;
    Ok(policy)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn overrides_replace_one_limit_and_keep_the_rest() {
        let policies = Policies::declared()
            .with_overrides(&json!({
                "*": {"limits": {"maxExecutionTime": 1000}},
                "forecast": {"permissions": [], "limits": {"maxConcurrency": 1, "onConcurrencyLimit": "wait"}},
            }))
            .unwrap();
        let forecast = policies.of("forecast");
        assert!(forecast.permissions.is_empty());
        assert_eq!(forecast.limits.max_execution_time, 1000);
        assert_eq!(forecast.limits.max_concurrency, 1);
        assert_eq!(
            forecast.limits.on_concurrency_limit,
            OnConcurrencyLimit::Wait
        );
        assert_eq!(forecast.limits.max_payload_size, 10.0);
        assert_eq!(
            policies.of("current_weather").limits.max_execution_time,
            1000
        );
    }

    #[test]
    fn a_wrong_policy_says_what_is_wrong() {
        let wrong = |policy: Value| {
            Policies::declared()
                .with_overrides(&policy)
                .unwrap_err()
                .to_string()
        };
        assert!(wrong(json!({"tides": {}})).starts_with("no tool `tides`; the tools: "));
        assert!(
            wrong(json!({"forecast": {"limits": {"maxConcurrency": 0}}}))
                .contains("maxConcurrency must be at least 1")
        );
        assert!(
            wrong(json!({"forecast": {"limits": {"maxTime": 1}}}))
                .contains("unknown field `maxTime`")
        );
    }
}
