//! Strings: `minLength`/`maxLength` in code points (weighted to the exact limits), `format`s
//! and `pattern`s.
//!
//! A string with a pattern or format is drawn from the first plan that mostly satisfies all
//! its rules in a dry run (the format's generator, then the pattern's, then free text), and
//! the validator's own engine has the last word on each draw.

use std::sync::Arc;

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::pattern::{self, Translated};
use super::resolve::child;
use super::weighted::{SizedVec, one_of};
use super::{Unsupported, chars, formats, numbers, trial};

/// Longer `minLength`s would make every value a wall of text; no server needs that fuzzed.
const LONGEST_MIN: u64 = 100_000;
/// How far past `minLength` typical values go when nothing caps them.
const TYPICAL_SPAN: usize = 20;
/// How far past `minLength` the occasional long value goes.
const LONG_SPAN: usize = 300;
/// `maxLength`s up to this are hit exactly.
const EXACT_MAX: u64 = 4096;
/// Draws per plan in the dry run, and how many must pass for the plan to be taken.
const TRIAL_DRAWS: usize = 16;
const TRIAL_PASSES: usize = 4;

/// The rules for one `string`.
#[derive(Debug, Clone)]
pub(super) struct Strings {
    min: u64,
    max: Option<u64>,
    patterns: Vec<String>,
    plan: Plan,
    /// The string rules alone, judged by the validator; `None` when the plan meets them by
    /// construction.
    checker: Option<Arc<jsonschema::Validator>>,
    candidates: Vec<String>,
}

#[derive(Debug, Clone)]
enum Plan {
    Text,
    Format(String),
    Pattern(Translated),
}

impl Strings {
    /// The string rules in `schema`; `dialect` is the document's `$schema`, which decides
    /// whether formats are asserted; `at` locates errors.
    pub(super) fn read(
        schema: &Map<String, Value>,
        dialect: Option<&Value>,
        at: &str,
    ) -> Result<Strings, Unsupported> {
        let length = |keyword| schema.get(keyword).and_then(Value::as_u64);
        let (min, max) = (length("minLength").unwrap_or(0), length("maxLength"));
        if max.is_some_and(|max| max < min) {
            return Err(Unsupported::new(
                at,
                format!("minLength {min} exceeds maxLength {}", max.unwrap_or(0)),
            ));
        }
        if min > LONGEST_MIN {
            return Err(Unsupported::new(
                child(at, "minLength"),
                format!("minLength {min} is beyond the {LONGEST_MIN} characters we generate"),
            ));
        }
        let patterns: Vec<String> = match schema.get("pattern") {
            Some(Value::String(pattern)) => vec![pattern.clone()],
            Some(Value::Array(patterns)) => patterns
                .iter()
                .filter_map(|p| Some(p.as_str()?.to_owned()))
                .collect(),
            _ => Vec::new(),
        };
        let format = schema
            .get("format")
            .and_then(Value::as_str)
            .filter(|format| formats::strategy(format).is_some());
        let mut strings = Strings {
            min,
            max,
            patterns,
            plan: Plan::Text,
            checker: None,
            candidates: Vec::new(),
        };
        if format.is_some() || !strings.patterns.is_empty() {
            strings.checker = Some(Arc::new(strings.checker_for(format, dialect)));
            strings.plan = strings.choose_plan(format, at)?;
        }
        strings.candidates = numbers::examples(schema)
            .filter_map(|value| Some(value.as_str()?.to_owned()))
            .filter(|text| strings.admits(text))
            .collect();
        Ok(strings)
    }

    fn checker_for(&self, format: Option<&str>, dialect: Option<&Value>) -> jsonschema::Validator {
        let mut rules = json!({"type": "string", "minLength": self.min});
        let rules_map = rules.as_object_mut().expect("an object");
        if let Some(dialect) = dialect {
            rules_map.insert("$schema".into(), dialect.clone());
        }
        if let Some(max) = self.max {
            rules_map.insert("maxLength".into(), max.into());
        }
        if let Some(format) = format {
            rules_map.insert("format".into(), format.into());
        }
        let patterns: Vec<Value> = self
            .patterns
            .iter()
            .map(|p| json!({"pattern": p}))
            .collect();
        rules_map.insert("allOf".into(), patterns.into());
        // The document compiled with these keywords, so they compile alone; if not, nothing
        // is checked beyond what the full validator checks.
        jsonschema::validator_for(&rules)
            .unwrap_or_else(|_| jsonschema::validator_for(&json!(true)).expect("`true` compiles"))
    }

    /// The first plan whose dry run mostly meets the rules, else the best one that ever does.
    fn choose_plan(&self, format: Option<&str>, at: &str) -> Result<Plan, Unsupported> {
        let plans = format
            .map(|format| Plan::Format(format.to_owned()))
            .into_iter()
            .chain(
                self.patterns
                    .first()
                    .map(|p| pattern::translate(p, self.longest_repetition()))
                    .filter(|translated| translated.strategy().is_some())
                    .map(Plan::Pattern),
            )
            .chain([Plan::Text]);
        let mut best: Option<(usize, Plan)> = None;
        for plan in plans {
            let passes = trial::acceptance(&self.unchecked(&plan), TRIAL_DRAWS, |text| {
                self.admits(text)
            });
            if passes >= TRIAL_PASSES {
                return Ok(plan);
            }
            if passes > best.as_ref().map_or(0, |(most, _)| *most) {
                best = Some((passes, plan));
            }
        }
        best.map(|(_, plan)| plan).ok_or_else(|| {
            let (keyword, what) = match (self.patterns.first(), format) {
                (Some(pattern), _) => ("pattern", format!("pattern `{pattern}`")),
                (None, Some(format)) => ("format", format!("format `{format}`")),
                (None, None) => ("", "its rules".to_owned()),
            };
            Unsupported::new(
                child(at, keyword),
                format!(
                    "no string of {} characters matching {what} came out of {} tries",
                    self.lengths(),
                    3 * TRIAL_DRAWS
                ),
            )
        })
    }

    /// How far a pattern's open repetitions go: to `maxLength`, or well past `minLength`.
    fn longest_repetition(&self) -> usize {
        self.max.unwrap_or(self.min + 32).min(LONGEST_MIN) as usize
    }

    fn lengths(&self) -> String {
        match self.max {
            Some(max) => format!("{}..={max}", self.min),
            None => format!("{}..", self.min),
        }
    }

    /// Whether `text` meets every string rule.
    fn admits(&self, text: &str) -> bool {
        match &self.checker {
            Some(checker) => checker.is_valid(&json!(text)),
            None => {
                let length = text.chars().count() as u64;
                length >= self.min && self.max.is_none_or(|max| length <= max)
            }
        }
    }

    /// Strings from `plan`, before the rules it may miss are checked.
    fn unchecked(&self, plan: &Plan) -> SBoxedStrategy<String> {
        match plan {
            Plan::Format(format) => formats::strategy(format).unwrap_or_else(|| self.text()),
            Plan::Pattern(translated) => translated.strategy().unwrap_or_else(|| self.text()),
            Plan::Text => self.text(),
        }
    }

    /// Free text, weighted to exactly `minLength` and exactly `maxLength`, shrinking toward
    /// `minLength` characters whatever length was drawn.
    fn text(&self) -> SBoxedStrategy<String> {
        let min = self.min as usize;
        let max = self.max.map(|max| max as usize);
        let typical = max.map_or(min + TYPICAL_SPAN, |max| max.min(min + TYPICAL_SPAN));
        let mut lengths = vec![(3, min..=min), (12, min..=typical)];
        if let Some(max) = self.max.filter(|max| *max != self.min && *max <= EXACT_MAX) {
            lengths.push((3, max as usize..=max as usize));
        }
        let long = max.map_or(min + LONG_SPAN, |max| max.min(min + LONG_SPAN));
        if long > typical {
            lengths.push((1, typical + 1..=long));
        }
        SizedVec {
            element: chars::any_char(),
            min,
            lengths,
        }
        .prop_map(String::from_iter)
        .sboxed()
    }

    /// Strings valid against these rules.
    pub(super) fn strategy(&self) -> SBoxedStrategy<Value> {
        let generated = match &self.checker {
            Some(checker) => {
                let checker = Arc::clone(checker);
                self.unchecked(&self.plan)
                    .prop_filter(
                        "a string missing its pattern, format or length",
                        move |text| checker.is_valid(&json!(text)),
                    )
                    .sboxed()
            }
            None => self.unchecked(&self.plan),
        };
        let mut options = vec![(20, generated)];
        for candidate in &self.candidates {
            options.push((2, Just(candidate.clone()).sboxed()));
        }
        one_of(options).prop_map(Value::String).sboxed()
    }

    pub(super) fn min_length(&self) -> u64 {
        self.min
    }

    pub(super) fn max_length(&self) -> Option<u64> {
        self.max
    }

    /// Each pattern, with strings that miss it: those within the length bounds first, so the
    /// pattern is all they break.
    pub(super) fn mismatches(&self) -> Vec<(String, Vec<Value>)> {
        let fill = self.min.max(1) as usize;
        let mut texts: Vec<String> = ["", "!", " ", "0", "a", "A", "-", "mcp-assured fuzz ✗"]
            .iter()
            .map(|t| (*t).to_owned())
            .chain(["!", "✗", "a", "0"].iter().map(|t| t.repeat(fill)))
            .collect();
        texts.dedup();
        let length_ok = |text: &String| {
            let length = text.chars().count() as u64;
            length >= self.min && self.max.is_none_or(|max| length <= max)
        };
        self.patterns
            .iter()
            .filter_map(|pattern| Some((pattern, pattern::Matcher::new(pattern)?)))
            .map(|(pattern, matcher)| {
                let (mut fitting, other): (Vec<&String>, Vec<&String>) = texts
                    .iter()
                    .filter(|text| !matcher.matches(text))
                    .partition(|text| length_ok(text));
                fitting.extend(other);
                let values = fitting.into_iter().map(|t| json!(t)).collect();
                (pattern.clone(), values)
            })
            .filter(|(_, values): &(String, Vec<Value>)| !values.is_empty())
            .collect()
    }
}
