//! What a server's tests cover of the convention: whether the two tests it requires are
//! there, and which of the categories it names have tests. One entry, after the tests, so a
//! report says what the suite leaves out as well as how the tests went.

use serde_json::json;

use super::metadata::{TEST_TOOL_PREFIX, TestTool};
use crate::report::{Entry, Status};

/// The name of the coverage entry (suite [`SUITE`](super::SUITE)).
pub const COVERAGE: &str = "server_tests.coverage";

/// The tests the convention says every server should implement ("Required Test Tools").
pub const REQUIRED_TESTS: [&str; 2] = ["mcp.test.capabilities", "mcp.test.protocol"];

/// The categories the convention names: `testMetadata.category`'s examples (`protocol`,
/// `resources`, `tools`) and the namespaces of its optional tests (`mcp.test.resources.*`,
/// `mcp.test.tools.*`, `mcp.test.custom.*`).
pub const CATEGORIES: [&str; 4] = ["protocol", "resources", "tools", "custom"];

/// Where the convention asks for the required tests, as the warning quotes it.
const REQUIRED_CLAUSE: &str = "the mcp.test.* convention, \"Required Test Tools\": every MCP \
                               server should implement mcp.test.capabilities and \
                               mcp.test.protocol";

/// The coverage entry of `tests` (a server's test tools), or `None` when there are none: a
/// server without test tools does not follow the convention, and the convention asks
/// nothing of it. Warned when a required test is missing (the convention says "should"),
/// passed otherwise; its details are `{"tests", "required": {"present", "missing"},
/// "categories": {"covered", "not_covered", "other"}}`.
pub(super) fn entry(tests: &[TestTool]) -> Option<Entry> {
    if tests.is_empty() {
        return None;
    }
    let has = |name: &str| tests.iter().any(|test| test.name == name);
    let (present, missing): (Vec<&str>, Vec<&str>) =
        REQUIRED_TESTS.iter().copied().partition(|name| has(name));
    let categories: Vec<String> = tests.iter().map(category).collect();
    let (covered, not_covered): (Vec<&str>, Vec<&str>) = CATEGORIES
        .iter()
        .copied()
        .partition(|convention| categories.iter().any(|category| category == convention));
    let mut other: Vec<&str> = categories
        .iter()
        .map(String::as_str)
        .filter(|category| !CATEGORIES.contains(category))
        .collect();
    other.sort_unstable();
    other.dedup();

    let categories_text = categories_text(&covered, &not_covered, &other);
    let (status, message) = if missing.is_empty() {
        (
            Status::Passed,
            format!(
                "the required tests are present ({}); {categories_text}",
                present.join(", ")
            ),
        )
    } else {
        (
            Status::Warned,
            format!(
                "missing the required {} {} ({REQUIRED_CLAUSE}); {categories_text}",
                if missing.len() == 1 { "test" } else { "tests" },
                missing.join(" and ")
            ),
        )
    };
    let mut entry = Entry::new(super::SUITE, COVERAGE, status, message);
    entry.details = json!({
        "tests": tests.len(),
        "required": {"present": present, "missing": missing},
        "categories": {"covered": covered, "not_covered": not_covered, "other": other},
    });
    Some(entry)
}

/// A test's category: its `testMetadata.category`, or else the namespace of its name
/// (`mcp.test.resources.list` is in `resources`).
fn category(test: &TestTool) -> String {
    test.category.clone().unwrap_or_else(|| {
        let rest = test
            .name
            .strip_prefix(TEST_TOOL_PREFIX)
            .unwrap_or(&test.name);
        rest.split('.').next().unwrap_or(rest).to_owned()
    })
}

/// e.g. `categories covered: protocol, tools (2 of 4; none for resources, custom)`.
fn categories_text(covered: &[&str], not_covered: &[&str], other: &[&str]) -> String {
    let mut text = format!(
        "categories covered: {} ({} of {}",
        if covered.is_empty() {
            "none".to_owned()
        } else {
            covered.join(", ")
        },
        covered.len(),
        CATEGORIES.len()
    );
    if !not_covered.is_empty() {
        text.push_str(&format!("; none for {}", not_covered.join(", ")));
    }
    text.push(')');
    if !other.is_empty() {
        text.push_str(&format!("; other categories: {}", other.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn test(name: &str, category: Option<&str>) -> TestTool {
        let mut tool = json!({"name": name, "inputSchema": {"type": "object"}});
        if let Some(category) = category {
            tool["testMetadata"] = json!({"category": category});
        }
        TestTool::from_json(&tool).unwrap()
    }

    #[test]
    fn the_full_convention_passes_and_names_every_category() {
        let tests = [
            test("mcp.test.capabilities", Some("protocol")),
            test("mcp.test.protocol", Some("protocol")),
            test("mcp.test.resources.read", Some("resources")),
            test("mcp.test.tools.echo", Some("tools")),
            test("mcp.test.custom.slow", Some("custom")),
        ];
        let entry = entry(&tests).unwrap();
        assert_eq!(entry.status, Status::Passed);
        assert_eq!(
            entry.message,
            "the required tests are present (mcp.test.capabilities, mcp.test.protocol); \
             categories covered: protocol, resources, tools, custom (4 of 4)"
        );
        assert_eq!(entry.details["tests"], json!(5));
    }

    #[test]
    fn a_missing_required_test_warns_naming_it_and_the_clause() {
        let tests = [
            test("mcp.test.capabilities", Some("protocol")),
            test("mcp.test.tools.echo", None),
            test("mcp.test.latency", Some("performance")),
        ];
        let entry = entry(&tests).unwrap();
        assert_eq!(entry.status, Status::Warned);
        assert_eq!(
            entry.message,
            "missing the required test mcp.test.protocol (the mcp.test.* convention, \
             \"Required Test Tools\": every MCP server should implement \
             mcp.test.capabilities and mcp.test.protocol); categories covered: protocol, \
             tools (2 of 4; none for resources, custom); other categories: performance"
        );
        assert_eq!(
            entry.details["required"],
            json!({"present": ["mcp.test.capabilities"], "missing": ["mcp.test.protocol"]})
        );
        assert_eq!(
            entry.details["categories"],
            json!({
                "covered": ["protocol", "tools"],
                "not_covered": ["resources", "custom"],
                "other": ["performance"],
            })
        );
    }

    #[test]
    fn without_either_required_test_both_are_named() {
        let entry = entry(&[test("mcp.test.resources.read", None)]).unwrap();
        assert_eq!(entry.status, Status::Warned);
        assert!(
            entry.message.starts_with(
                "missing the required tests mcp.test.capabilities and mcp.test.protocol ("
            ),
            "{}",
            entry.message
        );
        assert!(
            entry.message.ends_with(
                "categories covered: resources (1 of 4; none for protocol, tools, custom)"
            ),
            "{}",
            entry.message
        );
    }

    #[test]
    fn a_server_without_test_tools_has_no_coverage_entry() {
        assert_eq!(entry(&[]), None);
    }
}
