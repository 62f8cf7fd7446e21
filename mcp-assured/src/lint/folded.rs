//! A string as the instruction rules read it: the words a model reads, however they are
//! written. A model reads `ig<U+200B>nore`, `ｉｇｎｏｒｅ` and `don’t` as `ignore` and
//! `don't`; so do the rules. Invisible characters (Default_Ignorable_Code_Point) are
//! dropped, compatibility forms folded (NFKC: fullwidth letters, ligatures, no-break
//! spaces), typographic quotes, apostrophes and dashes made ASCII, and runs of blanks made
//! one space (line breaks are kept: they end a sentence).
//!
//! The `hidden-unicode` rules read the string as written; these rules read what it says.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

use super::unicode::is_default_ignorable;

/// `text` folded; borrowed when there is nothing to fold (plain ASCII, single spaces).
pub(crate) fn folded(text: &str) -> Cow<'_, str> {
    if text.is_ascii() && !text.contains("  ") && !text.contains('\t') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut blank = false;
    for c in text.nfkc() {
        if is_default_ignorable(c) {
            continue;
        }
        let c = ascii_punctuation(c);
        if c.is_whitespace() && c != '\n' {
            if !blank {
                out.push(' ');
            }
            blank = true;
            continue;
        }
        blank = false;
        out.push(c);
    }
    Cow::Owned(out)
}

/// The ASCII character typography stands for: quotes and apostrophes, dashes and hyphens.
fn ascii_punctuation(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' | '\u{02BC}' => '\'',
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' | '\u{00AB}'
        | '\u{00BB}' => '"',
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_model_reads_is_what_the_rules_read() {
        assert_eq!(folded("ig\u{200B}nore previous"), "ignore previous");
        assert_eq!(folded("ｉｇｎｏｒｅ all"), "ignore all");
        assert_eq!(folded("Don\u{2019}t tell"), "Don't tell");
        assert_eq!(folded("a\u{00A0}\u{00A0}b\tc"), "a b c");
        assert_eq!(folded("line one\nline two"), "line one\nline two");
        assert_eq!(folded("soft\u{00AD}hyphen"), "softhyphen");
        assert!(matches!(folded("plain text."), Cow::Borrowed(_)));
    }
}
