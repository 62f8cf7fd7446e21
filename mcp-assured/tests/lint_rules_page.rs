//! `docs/lint-rules.md` is `mcp_assured::lint::rules::rules_page()`: one section per rule.
//! With `MCP_ASSURED_UPDATE_DOCS=1`, the test writes the page instead of comparing.
#![cfg(feature = "lint")]

use std::path::Path;

#[test]
fn the_rules_page_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/lint-rules.md");
    let page = mcp_assured::lint::rules::rules_page();
    if std::env::var_os("MCP_ASSURED_UPDATE_DOCS").is_some() {
        std::fs::write(&path, &page).unwrap();
        return;
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    pretty_assertions::assert_eq!(
        written,
        page,
        "docs/lint-rules.md is out of date: run `MCP_ASSURED_UPDATE_DOCS=1 cargo test -p mcp-assured --features lint --test lint_rules_page`"
    );
    for rule in mcp_assured::lint::RULES {
        assert!(page.contains(&format!("\n## {}\n", rule.id)), "{}", rule.id);
    }
}
