//! Checks on a hybrid server's REST listing (`GET /mcp/tools`): which tools there are, and
//! each one's metadata (version, author, category, tags, `deprecates`, `custom`), permissions
//! and resource limits.

use serde_json::Value;

use super::{
    failure::{AssertionError, Failure, check, pretty},
    listed::TOOLS,
};
use crate::results::{
    rest::{RestTool, RestToolList},
    tool_metadata::ToolMetadata,
    tool_policy::{OnConcurrencyLimit, ResourceLimits, ToolPolicy},
};

/// Checks on a REST tool listing; from `listing.assert()` (see [`AssertRestTools`]).
///
/// ```
/// # async fn demo(rest: mcp_assured::rest::RestClient) -> mcp_assured::Result<()> {
/// use mcp_assured::prelude::*;
/// let listing = rest.list_tools().await?;
/// listing
///     .assert()
///     .contains_tool("forecast")
///     .tool("forecast")
///     .has_version("2.0.0")
///     .deprecates("1.0.0")
///     .has_tag("weather")
///     .has_custom("source", "open-meteo")
///     .metadata_is_well_formed();
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct RestToolListAssert<'a> {
    listing: &'a RestToolList,
}

/// `.assert()` on a REST tool listing.
pub trait AssertRestTools {
    /// Starts a chain of checks on the listing.
    fn assert(&self) -> RestToolListAssert<'_>;
}

impl AssertRestTools for RestToolList {
    fn assert(&self) -> RestToolListAssert<'_> {
        RestToolListAssert { listing: self }
    }
}

impl<'a> RestToolListAssert<'a> {
    fn names(&self) -> Vec<String> {
        self.listing
            .tools
            .iter()
            .map(|tool| tool.name.clone())
            .collect()
    }

    /// The listing has a tool named `name`.
    #[track_caller]
    pub fn contains_tool(self, name: &str) -> Self {
        check(self.try_contains_tool(name))
    }

    /// [`contains_tool`](Self::contains_tool), returning the failure.
    pub fn try_contains_tool(self, name: &str) -> Result<Self, AssertionError> {
        self.try_tool(name).map(|_| self)
    }

    /// The listing has exactly `count` tools.
    #[track_caller]
    pub fn has_count(self, count: usize) -> Self {
        check(self.try_has_count(count))
    }

    /// [`has_count`](Self::has_count), returning the failure.
    pub fn try_has_count(self, count: usize) -> Result<Self, AssertionError> {
        if self.listing.tools.len() != count {
            return TOOLS.wrong_count(count, &self.names());
        }
        Ok(self)
    }

    /// Every tool's metadata is well formed (see [`RestToolAssert::metadata_is_well_formed`]).
    #[track_caller]
    pub fn metadata_is_well_formed(self) -> Self {
        check(self.try_metadata_is_well_formed())
    }

    /// [`metadata_is_well_formed`](Self::metadata_is_well_formed), returning the failure.
    pub fn try_metadata_is_well_formed(self) -> Result<Self, AssertionError> {
        for tool in &self.listing.tools {
            RestToolAssert::of(tool).try_metadata_is_well_formed()?;
        }
        Ok(self)
    }

    /// Every tool's `permissions` and `limits` are well formed (see
    /// [`RestToolAssert::policy_is_well_formed`]).
    #[track_caller]
    pub fn policies_are_well_formed(self) -> Self {
        check(self.try_policies_are_well_formed())
    }

    /// [`policies_are_well_formed`](Self::policies_are_well_formed), returning the failure.
    pub fn try_policies_are_well_formed(self) -> Result<Self, AssertionError> {
        for tool in &self.listing.tools {
            RestToolAssert::of(tool).try_policy_is_well_formed()?;
        }
        Ok(self)
    }

    /// Continues with checks on the tool named `name` (which must be listed).
    #[track_caller]
    pub fn tool(self, name: &str) -> RestToolAssert<'a> {
        check(self.try_tool(name))
    }

    /// [`tool`](Self::tool), returning the failure.
    pub fn try_tool(self, name: &str) -> Result<RestToolAssert<'a>, AssertionError> {
        match self.listing.tool(name) {
            Some(tool) => Ok(RestToolAssert::of(tool)),
            None => TOOLS.missing(name, &self.names()),
        }
    }
}

/// Checks on one listed tool's metadata.
#[derive(Debug, Clone)]
pub struct RestToolAssert<'a> {
    tool: &'a RestTool,
    metadata: ToolMetadata,
    policy: ToolPolicy,
}

impl<'a> RestToolAssert<'a> {
    fn of(tool: &'a RestTool) -> RestToolAssert<'a> {
        RestToolAssert {
            tool,
            metadata: tool.tool_metadata(),
            policy: tool.tool_policy(),
        }
    }

    fn failure(&self, headline: String) -> Failure {
        Failure::new(headline).block(
            "metadata",
            pretty(self.tool.metadata.as_ref().unwrap_or(&Value::Null)),
        )
    }

    /// A text field is `expected`.
    fn try_text(
        self,
        field: &str,
        actual: Option<&str>,
        expected: &str,
    ) -> Result<Self, AssertionError> {
        if actual == Some(expected) {
            return Ok(self);
        }
        self.failure(format!(
            "Expected `{}` to have metadata.{field} `{expected}`, but it has {}.",
            self.tool.name,
            actual.map_or_else(|| "none".to_owned(), |value| format!("`{value}`"))
        ))
        .err()
    }

    /// `metadata.version` is `version`.
    #[track_caller]
    pub fn has_version(self, version: &str) -> Self {
        check(self.try_has_version(version))
    }

    /// [`has_version`](Self::has_version), returning the failure.
    pub fn try_has_version(self, version: &str) -> Result<Self, AssertionError> {
        let actual = self.metadata.version.clone();
        self.try_text("version", actual.as_deref(), version)
    }

    /// `metadata.author` is `author`.
    #[track_caller]
    pub fn has_author(self, author: &str) -> Self {
        check(self.try_has_author(author))
    }

    /// [`has_author`](Self::has_author), returning the failure.
    pub fn try_has_author(self, author: &str) -> Result<Self, AssertionError> {
        let actual = self.metadata.author.clone();
        self.try_text("author", actual.as_deref(), author)
    }

    /// `metadata.category` is `category`.
    #[track_caller]
    pub fn has_category(self, category: &str) -> Self {
        check(self.try_has_category(category))
    }

    /// [`has_category`](Self::has_category), returning the failure.
    pub fn try_has_category(self, category: &str) -> Result<Self, AssertionError> {
        let actual = self.metadata.category.clone();
        self.try_text("category", actual.as_deref(), category)
    }

    /// `metadata.deprecates` is `version`.
    #[track_caller]
    pub fn deprecates(self, version: &str) -> Self {
        check(self.try_deprecates(version))
    }

    /// [`deprecates`](Self::deprecates), returning the failure.
    pub fn try_deprecates(self, version: &str) -> Result<Self, AssertionError> {
        let actual = self.metadata.deprecates.clone();
        self.try_text("deprecates", actual.as_deref(), version)
    }

    /// `metadata.tags` holds `tag`.
    #[track_caller]
    pub fn has_tag(self, tag: &str) -> Self {
        check(self.try_has_tag(tag))
    }

    /// [`has_tag`](Self::has_tag), returning the failure.
    pub fn try_has_tag(self, tag: &str) -> Result<Self, AssertionError> {
        if self.metadata.tags.iter().any(|listed| listed == tag) {
            return Ok(self);
        }
        self.failure(format!(
            "Expected `{}` to be tagged `{tag}`, but its tags are {:?}.",
            self.tool.name, self.metadata.tags
        ))
        .err()
    }

    /// `metadata.custom[key]` is `value`.
    #[track_caller]
    pub fn has_custom(self, key: &str, value: impl Into<Value>) -> Self {
        check(self.try_has_custom(key, value))
    }

    /// [`has_custom`](Self::has_custom), returning the failure.
    pub fn try_has_custom(
        self,
        key: &str,
        value: impl Into<Value>,
    ) -> Result<Self, AssertionError> {
        let value = value.into();
        if self.metadata.custom.get(key) == Some(&value) {
            return Ok(self);
        }
        self.failure(format!(
            "Expected `{}` to have metadata.custom.{key} {value}, but it has {}.",
            self.tool.name,
            self.metadata
                .custom
                .get(key)
                .map_or_else(|| "none".to_owned(), Value::to_string)
        ))
        .err()
    }

    /// The metadata breaks none of the hybrid protocol's types: `version` and `deprecates`
    /// semantic versions with `deprecates` older, `tags` strings, `custom` an object, the
    /// rest strings.
    #[track_caller]
    pub fn metadata_is_well_formed(self) -> Self {
        check(self.try_metadata_is_well_formed())
    }

    /// [`metadata_is_well_formed`](Self::metadata_is_well_formed), returning the failure.
    pub fn try_metadata_is_well_formed(self) -> Result<Self, AssertionError> {
        if self.metadata.problems.is_empty() {
            return Ok(self);
        }
        let problems = self.metadata.problems.join("; ");
        self.failure(format!(
            "Expected `{}`'s metadata to be well formed, but {problems}.",
            self.tool.name
        ))
        .err()
    }

    fn policy_failure(&self, headline: String) -> Failure {
        Failure::new(headline)
            .block(
                "permissions",
                pretty(self.tool.permissions.as_ref().unwrap_or(&Value::Null)),
            )
            .block(
                "limits",
                pretty(self.tool.limits.as_ref().unwrap_or(&Value::Null)),
            )
    }

    /// `permissions` are exactly `permissions`, in any order.
    #[track_caller]
    pub fn requires_permissions(self, permissions: &[&str]) -> Self {
        check(self.try_requires_permissions(permissions))
    }

    /// [`requires_permissions`](Self::requires_permissions), returning the failure.
    pub fn try_requires_permissions(self, permissions: &[&str]) -> Result<Self, AssertionError> {
        let mut expected: Vec<&str> = permissions.to_vec();
        let mut actual: Vec<&str> = self.policy.permissions.iter().map(String::as_str).collect();
        expected.sort_unstable();
        actual.sort_unstable();
        if expected == actual {
            return Ok(self);
        }
        self.policy_failure(format!(
            "Expected `{}` to require the permissions {expected:?}, but it requires {actual:?}.",
            self.tool.name
        ))
        .err()
    }

    /// The tool's limits, the protocol's defaults for those it does not list, match
    /// `expected` (e.g. `|limits| limits.max_concurrency == 2`); `what` names the expectation
    /// in the failure.
    #[track_caller]
    pub fn has_limits(self, what: &str, expected: impl FnOnce(&ResourceLimits) -> bool) -> Self {
        check(self.try_has_limits(what, expected))
    }

    /// [`has_limits`](Self::has_limits), returning the failure.
    pub fn try_has_limits(
        self,
        what: &str,
        expected: impl FnOnce(&ResourceLimits) -> bool,
    ) -> Result<Self, AssertionError> {
        if expected(&self.policy.limits) {
            return Ok(self);
        }
        self.policy_failure(format!(
            "Expected `{}`'s limits to have {what}, but they are {:?}.",
            self.tool.name, self.policy.limits
        ))
        .err()
    }

    /// `limits.maxConcurrency` is `count` and a call over it gets what `on_limit` says.
    #[track_caller]
    pub fn has_max_concurrency(self, count: u32, on_limit: OnConcurrencyLimit) -> Self {
        check(self.try_has_max_concurrency(count, on_limit))
    }

    /// [`has_max_concurrency`](Self::has_max_concurrency), returning the failure.
    pub fn try_has_max_concurrency(
        self,
        count: u32,
        on_limit: OnConcurrencyLimit,
    ) -> Result<Self, AssertionError> {
        self.try_has_limits(
            &format!("maxConcurrency {count}, onConcurrencyLimit {on_limit:?}"),
            |limits| limits.max_concurrency == count && limits.on_concurrency_limit == on_limit,
        )
    }

    /// `permissions` and `limits` break none of the protocol's types: permissions strings,
    /// each limit a number above 0 (`maxConcurrency` whole), `onConcurrencyLimit` `reject`
    /// or `wait`.
    #[track_caller]
    pub fn policy_is_well_formed(self) -> Self {
        check(self.try_policy_is_well_formed())
    }

    /// [`policy_is_well_formed`](Self::policy_is_well_formed), returning the failure.
    pub fn try_policy_is_well_formed(self) -> Result<Self, AssertionError> {
        if self.policy.problems.is_empty() {
            return Ok(self);
        }
        let problems = self.policy.problems.join("; ");
        self.policy_failure(format!(
            "Expected `{}`'s permissions and limits to be well formed, but {problems}.",
            self.tool.name
        ))
        .err()
    }
}
