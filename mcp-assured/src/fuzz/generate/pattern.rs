//! `pattern`s: ECMA-262 regular expressions, turned into strings that match them.
//!
//! proptest generates from the `regex` crate's syntax, which reads some ECMA escapes
//! differently (`\d` and `\w` are Unicode-wide there, `.` admits `\r`) and cannot generate
//! anchors. So the pattern is translated, its outer anchors become "nothing before/after",
//! and an unanchored side gets a little free text. Whether a string really matches is always
//! decided by the validator's own regex engine ([`matches`]), never by this translation.

use proptest::prelude::*;
use serde_json::json;

use super::chars;

/// ECMA-262 whitespace (`\s`), as the inside of a class.
const ECMA_SPACE: &str = r"\t\n\x0B\x0C\r \u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}";
/// What ECMA-262's `.` matches: anything but line terminators.
const ECMA_DOT: &str = r"[^\n\r\u{2028}\u{2029}]";

/// A pattern in the `regex` crate's syntax, its outer anchors taken off.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Translated {
    core: String,
    anchored_start: bool,
    anchored_end: bool,
}

/// `ecma` in the `regex` crate's syntax, its open repetitions (`+`, `*`, `{n,}`) capped at
/// `longest`: proptest would stop them at 32, too short for a long `minLength` and far too
/// long for a short `maxLength`.
pub(super) fn translate(ecma: &str, longest: usize) -> Translated {
    let anchored_start = ecma.starts_with('^');
    let body = if anchored_start { &ecma[1..] } else { ecma };
    let mut core = String::with_capacity(body.len());
    let mut in_class = false;
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match (c, in_class) {
            ('\\', _) => match chars.next() {
                Some(escaped) => core.push_str(&escape(escaped, in_class)),
                None => core.push_str(r"\\"),
            },
            ('[', false) => {
                in_class = true;
                core.push('[');
            }
            (']', true) => {
                in_class = false;
                core.push(']');
            }
            // Set operations and nested classes in the `regex` crate; plain characters in ECMA.
            ('[' | '&' | '~', true) => {
                core.push('\\');
                core.push(c);
            }
            ('.', false) => core.push_str(ECMA_DOT),
            ('+', false) => core.push_str(&format!("{{1,{}}}", longest.max(1))),
            ('*', false) => core.push_str(&format!("{{0,{longest}}}")),
            ('{', false) => {
                let quantifier: String = chars.clone().take_while(|c| *c != '}').collect();
                let open = quantifier
                    .strip_suffix(',')
                    .and_then(|low| low.parse::<usize>().ok())
                    .filter(|_| chars.clone().nth(quantifier.len()) == Some('}'));
                match open {
                    Some(low) => {
                        chars.nth(quantifier.len());
                        core.push_str(&format!("{{{low},{}}}", longest.max(low)));
                    }
                    None => core.push('{'),
                }
            }
            _ => core.push(c),
        }
    }
    let anchored_end = ends_with_anchor(&core);
    if anchored_end {
        core.pop();
    }
    Translated {
        core,
        anchored_start,
        anchored_end,
    }
}

fn escape(escaped: char, in_class: bool) -> String {
    let class = |inside: &str| {
        if in_class {
            inside.to_owned()
        } else {
            format!("[{inside}]")
        }
    };
    let negated = |inside: &str, original: char| {
        if in_class {
            format!(r"\{original}")
        } else {
            format!("[^{inside}]")
        }
    };
    match escaped {
        'd' => class("0-9"),
        'w' => class("0-9A-Za-z_"),
        's' => class(ECMA_SPACE),
        'D' => negated("0-9", escaped),
        'W' => negated("0-9A-Za-z_", escaped),
        'S' => negated(ECMA_SPACE, escaped),
        '/' => "/".to_owned(),
        '0' => r"\x00".to_owned(),
        other => format!(r"\{other}"),
    }
}

/// Whether `pattern` ends in an unescaped `$`.
fn ends_with_anchor(pattern: &str) -> bool {
    let Some(before) = pattern.strip_suffix('$') else {
        return false;
    };
    let backslashes = before.chars().rev().take_while(|c| *c == '\\').count();
    backslashes % 2 == 0
}

impl Translated {
    /// Strings that match, if proptest can generate from this syntax; shrinks toward the
    /// shortest match with nothing around it.
    pub(super) fn strategy(&self) -> Option<SBoxedStrategy<String>> {
        let core = proptest::string::string_regex(&self.core).ok()?;
        let around = |anchored: bool| {
            if anchored {
                Just(String::new()).sboxed()
            } else {
                chars::text(0, 3)
            }
        };
        Some(
            (around(self.anchored_start), core, around(self.anchored_end))
                .prop_map(|(before, core, after)| format!("{before}{core}{after}"))
                .sboxed(),
        )
    }
}

/// A pattern as the validator reads it: ECMA-262 semantics, unanchored.
#[derive(Debug)]
pub(super) struct Matcher(jsonschema::Validator);

impl Matcher {
    /// `None` when the validator cannot compile `pattern`.
    pub(super) fn new(pattern: &str) -> Option<Matcher> {
        jsonschema::validator_for(&json!({"pattern": pattern}))
            .ok()
            .map(Matcher)
    }

    pub(super) fn matches(&self, text: &str) -> bool {
        self.0.is_valid(&json!(text))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn translates_ecma_escapes_and_anchors() {
        let translated = translate(r"^\d{3}-\w+\/[\d.+]$", 8);
        assert_eq!(translated.core, r"[0-9]{3}-[0-9A-Za-z_]{1,8}/[0-9.+]");
        assert!(translated.anchored_start && translated.anchored_end);
        let unanchored = translate(r"a\$", 8);
        assert!(!unanchored.anchored_start && !unanchored.anchored_end);
        assert_eq!(translate("a.b", 8).core, format!("a{ECMA_DOT}b"));
        assert_eq!(translate("a*b{2,}c{3}", 8).core, "a{0,8}b{2,8}c{3}");
    }

    #[test]
    fn matches_with_ecma_semantics() {
        let matches = |pattern, text| Matcher::new(pattern).unwrap().matches(text);
        assert!(matches("^[a-z]+$", "abc"));
        assert!(!matches("^[a-z]+$", "ab1"));
        assert!(matches("b", "abc"));
        assert!(matches("^(?!admin$).+$", "root"));
        assert!(!matches("^(?!admin$).+$", "admin"));
    }
}
