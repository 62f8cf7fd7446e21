//! Checks on `prompts/list` and on what `prompts/get` returned.

use rmcp::model::{GetPromptResult, Prompt};
use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check},
    listed::PROMPTS,
};
use crate::results::mcp::PromptResult;

/// Checks on a list of prompts; from `prompts.assert()`.
#[derive(Debug, Clone, Copy)]
pub struct PromptListAssert<'a> {
    prompts: &'a [Prompt],
}

/// `.assert()` on a list of prompts.
pub trait AssertPrompts {
    /// Starts a chain of checks on the list.
    fn assert(&self) -> PromptListAssert<'_>;
}

impl AssertPrompts for [Prompt] {
    fn assert(&self) -> PromptListAssert<'_> {
        PromptListAssert { prompts: self }
    }
}

impl<'a> PromptListAssert<'a> {
    /// The list has a prompt named `name`.
    #[track_caller]
    pub fn contains_prompt(self, name: &str) -> Self {
        check(self.try_contains_prompt(name))
    }

    /// [`contains_prompt`](Self::contains_prompt), returning the failure.
    pub fn try_contains_prompt(self, name: &str) -> Result<Self, AssertionError> {
        self.try_prompt(name).map(|_| self)
    }

    /// Continues with checks on the prompt named `name` (which must be there).
    #[track_caller]
    pub fn prompt(self, name: &str) -> PromptAssert<'a> {
        check(self.try_prompt(name))
    }

    /// [`prompt`](Self::prompt), returning the failure.
    pub fn try_prompt(self, name: &str) -> Result<PromptAssert<'a>, AssertionError> {
        match self.prompts.iter().find(|p| p.name == name) {
            Some(prompt) => Ok(PromptAssert { prompt }),
            None => {
                let names: Vec<String> = self.prompts.iter().map(|p| p.name.clone()).collect();
                PROMPTS.missing(name, &names)
            }
        }
    }
}

/// Checks on one prompt's definition.
#[derive(Debug, Clone, Copy)]
pub struct PromptAssert<'a> {
    prompt: &'a Prompt,
}

impl PromptAssert<'_> {
    /// The prompt has an argument `name` that is required (`required = true`) or optional.
    #[track_caller]
    pub fn has_argument(self, name: &str, required: bool) -> Self {
        check(self.try_has_argument(name, required))
    }

    /// [`has_argument`](Self::has_argument), returning the failure.
    pub fn try_has_argument(self, name: &str, required: bool) -> Result<Self, AssertionError> {
        let arguments = self.prompt.arguments.as_deref().unwrap_or_default();
        let kind = if required { "required" } else { "optional" };
        let article = if required { "a" } else { "an" };
        match arguments.iter().find(|a| a.name == name) {
            Some(argument) if argument.required.unwrap_or(false) == required => Ok(self),
            found => Failure::new(match found {
                Some(_) => format!(
                    "Expected argument `{name}` of prompt `{}` to be {kind}, but it is not.",
                    self.prompt.name
                ),
                None => format!(
                    "Expected prompt `{}` to have {article} {kind} argument `{name}`.",
                    self.prompt.name
                ),
            })
            .fact("prompt", &self.prompt.name)
            .json(
                "arguments",
                &serde_json::to_value(arguments).unwrap_or(Value::Null),
            )
            .err(),
        }
    }
}

/// Checks on a `prompts/get` result; from `result.assert()`.
#[derive(Debug, Clone, Copy)]
pub struct PromptResultAssert<'a> {
    prompt: &'a str,
    result: &'a GetPromptResult,
}

/// `.assert()` on a `prompts/get` result.
pub trait AssertPromptResult {
    /// Starts a chain of checks on the result.
    fn assert(&self) -> PromptResultAssert<'_>;
}

impl AssertPromptResult for PromptResult {
    fn assert(&self) -> PromptResultAssert<'_> {
        PromptResultAssert {
            prompt: self.prompt(),
            result: self,
        }
    }
}

impl PromptResultAssert<'_> {
    fn messages(&self) -> Vec<Value> {
        serde_json::to_value(&self.result.messages)
            .ok()
            .and_then(|v| v.as_array().cloned())
            .unwrap_or_default()
    }

    /// The result's `description` is exactly `expected` (a server may describe the prompt
    /// it returns, as it got it).
    #[track_caller]
    pub fn has_description(self, expected: &str) -> Self {
        check(self.try_has_description(expected))
    }

    /// [`has_description`](Self::has_description), returning the failure.
    pub fn try_has_description(self, expected: &str) -> Result<Self, AssertionError> {
        let found = match self.result.description.as_deref() {
            Some(description) if description == expected => return Ok(self),
            Some(description) => format!("its description is `{description}`"),
            None => "the result has no description".to_owned(),
        };
        Failure::new(format!(
            "Expected prompt `{}` to be described as `{expected}`, but {found}.",
            self.prompt
        ))
        .fact("prompt", self.prompt)
        .err()
    }

    /// The result has exactly `count` messages.
    #[track_caller]
    pub fn has_message_count(self, count: usize) -> Self {
        check(self.try_has_message_count(count))
    }

    /// [`has_message_count`](Self::has_message_count), returning the failure.
    pub fn try_has_message_count(self, count: usize) -> Result<Self, AssertionError> {
        let messages = self.messages();
        if messages.len() != count {
            return Failure::new(format!(
                "Expected prompt `{}` to return {count} message(s), but it returned {}.",
                self.prompt,
                messages.len()
            ))
            .fact("prompt", self.prompt)
            .json("messages", &Value::Array(messages))
            .err();
        }
        Ok(self)
    }

    /// Some message from `role` (`"user"` or `"assistant"`) has text containing `needle`.
    #[track_caller]
    pub fn has_message(self, role: &str, needle: &str) -> Self {
        check(self.try_has_message(role, needle))
    }

    /// [`has_message`](Self::has_message), returning the failure.
    pub fn try_has_message(self, role: &str, needle: &str) -> Result<Self, AssertionError> {
        let messages = self.messages();
        let found = messages.iter().any(|m| {
            m["role"] == role
                && m["content"]["text"]
                    .as_str()
                    .is_some_and(|t| t.contains(needle))
        });
        if !found {
            return Failure::new(format!(
                "Expected prompt `{}` to return a message from `{role}` containing `{needle}`.",
                self.prompt
            ))
            .fact("prompt", self.prompt)
            .json("messages", &Value::Array(messages))
            .err();
        }
        Ok(self)
    }
}
