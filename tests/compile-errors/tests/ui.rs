//! `#[mcp_test]`'s compile errors: each file in `ui/` must fail to compile with exactly the
//! message in its `.stderr` beside it, pointing at the offending tokens.
//!
//! After a deliberate change of a message, regenerate with
//! `TRYBUILD=overwrite cargo test -p mcp-assured-compile-errors --test ui` and review the diff.

#[test]
fn compile_errors_point_at_the_offending_tokens() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
