//! insta filters that redact a serialised snapshot's text as [`redact`](super::redact)
//! redacts the value, for insta's own `assert_json_snapshot!` (pretty and compact) and
//! `assert_yaml_snapshot!` in an [`#[mcp_test]`](crate::mcp_test) body.
//!
//! Filters and not one of insta's redactions, because insta's `redactions` feature needs
//! `pest` and its stack guard (a C build), the largest part of a suite's first build
//! (BENCHMARKS.md, "A user's first build"). What the regular expressions rely on is how insta
//! writes values:
//!
//! - JSON strings are quoted, with `\"`, `\\`, `\n`, `\t`, `\r`, `\b`, `\f` and `\u00XX` for
//!   the other control characters; keys are strings followed by `": "`.
//! - YAML strings are plain unless they need quotes (`need_quotes` in insta's vendored
//!   emitter: any `:`, `[`, `,`, `"`, ..., a leading `-`, ...), then double-quoted with the
//!   same escapes, never literal blocks unless `INSTA_YAML_BLOCK_STYLE=1`; one scalar per
//!   line after `key: ` or `- `.
//!
//! Every placeholder has a `[`, so a YAML string with a redaction in it is always quoted:
//! timestamps, times and loopback ports have a `:`, so their strings already were, and a
//! plain string with a UUID gets its quotes from a filter before the UUID is replaced.

use super::{
    LOOPBACK_PORT, LOOPBACK_PORT_PATTERN, TIME, TIME_PATTERN, TIMESTAMP, TIMESTAMP_PATTERN, UUID,
    UUID_PATTERN, VOLATILE_KEYS,
};

/// Stands for an escaped backslash (`\\`) while the other filters run, so that every
/// backslash left starts an escape. insta's JSON and YAML never hold it raw.
const BACKSLASHES: &str = "\u{F0000}";

/// A string quoted by insta's JSON or YAML writer.
const QUOTED: &str = r#""(?:[^"\\\n]|\\.)*""#;

/// A character of a plain YAML scalar: what insta's `need_quotes` lets through.
const PLAIN_CHAR: &str = r#"[^:{}\[\],#`"'\\\n\r\t\x00-\x06\x0e-\x1a\x1c-\x1f]"#;

/// The first character of a plain YAML scalar.
const PLAIN_FIRST: &str = r#"[^:{}\[\],#`"'\\\n\r\t\x00-\x06\x0e-\x1a\x1c-\x1f&*?|\-<>=!%@. ]"#;

/// A number as insta writes it in JSON and YAML (`-inf` and `NaN` are YAML's non-finite
/// floats; JSON writes them `null`, which is not redacted).
const NUMBER: &str = r"-?[0-9][0-9.eE+-]*|-?inf|NaN";

/// What an escape before a match stands for in the raw string: a control character, which
/// is no word character, so the raw pattern's `\b` holds there.
const ESCAPE_BEFORE: &str = r"(?P<pre>\\[nrtbf]|\\u00[0-9a-f]{2})";

/// The filters, in the order they run: `(regex, replacement)`.
pub(super) fn serialized() -> Vec<(String, String)> {
    let mut filters = vec![(r"\\\\".to_owned(), BACKSLASHES.to_owned())];
    for (placeholder, keys) in VOLATILE_KEYS {
        let keys = keys_pattern(keys);
        // A quoted key (JSON's, or YAML's) anywhere, with a JSON string or number or a YAML
        // scalar; or a plain YAML key starting its line, with a scalar as far as its end (not
        // `key: 12,` of a struct's `Debug`). One regular expression for both: each costs
        // milliseconds to compile.
        let plain = yaml_plain_string();
        filters.push((
            format!(
                r#"(?m)(?:(?P<quoted>"(?:{keys})"): (?:{QUOTED}|(?:{NUMBER})(?P<end>$|[,}}\]])|(?:{plain})$)|^(?P<lead>[ ]*(?:- )*)(?P<plain>{keys}): (?:{QUOTED}|{NUMBER}|{plain})$)"#
            ),
            format!(r#"${{quoted}}${{lead}}${{plain}}: "{placeholder}"${{end}}"#),
        ));
    }
    // Unicode mode (a negated class may not match bytes), with the ASCII word boundaries of
    // `UUID_PATTERN`.
    let uuid = UUID_PATTERN
        .strip_prefix("(?-u)")
        .expect("the UUID pattern is ASCII")
        .replace(r"\b", r"(?-u:\b)");
    let plain_with_uuid = format!("(?:{PLAIN_FIRST}{PLAIN_CHAR}*?)?{uuid}{PLAIN_CHAR}*");
    // A plain YAML key or value with a UUID: quoted, as the redacted string would be.
    filters.push((
        format!(r"(?m)^(?P<lead>[ ]*(?:- )*)(?P<key>{plain_with_uuid}):(?P<end> |$)"),
        r#"${lead}"${key}":${end}"#.to_owned(),
    ));
    filters.push((
        format!(
            r"(?m)^(?P<lead>[ ]*(?:(?:- )*(?:{QUOTED}|{PLAIN_FIRST}{PLAIN_CHAR}*): |(?:- )+))(?P<value>{plain_with_uuid})$"
        ),
        r#"${lead}"${value}""#.to_owned(),
    ));
    // In the order of `redact_text`.
    for (pattern, placeholder) in [
        (LOOPBACK_PORT_PATTERN, LOOPBACK_PORT),
        (TIMESTAMP_PATTERN, TIMESTAMP),
        (UUID_PATTERN, UUID),
        (TIME_PATTERN, TIME),
    ] {
        filters.push((escaped(pattern), format!("${{pre}}{placeholder}")));
    }
    filters.push((BACKSLASHES.to_owned(), r"\\".to_owned()));
    filters
}

/// A pattern of `redact_text` over escaped text: its leading `\b` may also be an escape, and
/// the whitespace of a time's `PM` an escaped one.
fn escaped(pattern: &str) -> String {
    let body = pattern
        .strip_prefix(r"(?-u)\b")
        .expect("the text patterns start at a word boundary");
    let body = body.replace(r"\s?", r"(?:\s|\\[tnfr]|\\u000b)?");
    format!(r"(?-u)(?:{ESCAPE_BEFORE}|\b){body}")
}

/// The spellings of the keys that `volatile_key` accepts with `_` or `-` only between words
/// and around the key (`created_at`, `Mcp-Session-Id`, `_createdAt`), in any case. The keys
/// share their prefixes (a trie), which keeps the expression small and quick to compile.
fn keys_pattern(keys: &[&str]) -> String {
    fn node(keys: &[&str]) -> String {
        let ends_here = keys.iter().any(|key| key.is_empty());
        let mut firsts: Vec<char> = keys.iter().filter_map(|key| key.chars().next()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        let branches: Vec<String> = firsts
            .into_iter()
            .map(|first| {
                let rests: Vec<&str> = keys
                    .iter()
                    .filter_map(|key| key.strip_prefix(first))
                    .collect();
                let first = match first {
                    ' ' => "[_-]*".to_owned(),
                    letter => letter_class(letter),
                };
                format!("{first}{}", node(&rests))
            })
            .collect();
        match (branches.as_slice(), ends_here) {
            ([], _) => String::new(),
            ([branch], false) => branch.clone(),
            (_, false) => format!("(?:{})", branches.join("|")),
            (_, true) => format!("(?:{})?", branches.join("|")),
        }
    }
    format!("[_-]*{}[_-]*", node(keys))
}

/// The characters that lower-case to `letter`: itself, its ASCII capital, and the Kelvin
/// sign for `k`.
fn letter_class(letter: char) -> String {
    match letter {
        'k' => "[kK\u{212A}]".to_owned(),
        letter => format!("[{letter}{}]", letter.to_ascii_uppercase()),
    }
}

/// A plain YAML string other than `true`, `false` and `~`, which insta writes bare only for
/// booleans and null (the strings are quoted), and `null`, JSON's null.
fn yaml_plain_string() -> String {
    let first = format!("[{PLAIN_FIRST}&&[^tfn~]]{PLAIN_CHAR}*");
    [
        first,
        all_but("true"),
        all_but("false"),
        all_but("null"),
        all_but("~"),
    ]
    .join("|")
}

/// Plain scalars that start with `word`'s first character but are not `word`.
fn all_but(word: &str) -> String {
    let letters: Vec<char> = word.chars().collect();
    let mut rest = format!("{PLAIN_CHAR}+");
    for letter in letters[1..].iter().rev() {
        let letter = regex_escape(*letter);
        rest = format!("(?:[{PLAIN_CHAR}&&[^{letter}]]{PLAIN_CHAR}*|{letter}{rest})?");
    }
    format!("{}{rest}", regex_escape(letters[0]))
}

fn regex_escape(letter: char) -> String {
    if letter.is_ascii_alphanumeric() {
        letter.to_string()
    } else {
        format!(r"\{letter}")
    }
}
