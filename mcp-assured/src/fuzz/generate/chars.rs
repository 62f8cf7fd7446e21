//! The characters free text is made of: mostly ASCII letters (what shrinking returns to), with
//! the characters servers mishandle mixed in: non-ASCII letters, CJK and emoji (several bytes
//! in UTF-8, two units in UTF-16), whitespace, quotes, backslashes and, rarely, control
//! characters. Never NUL, which too many stacks cut strings at.

use std::sync::{Arc, LazyLock};

use proptest::prelude::*;

use super::weighted::{SizedVec, Toward};

const LOWERCASE: &str = "abcdefghijklmnopqrstuvwxyz";
const UPPERCASE_AND_DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const PRINTABLE: &str = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
const NON_ASCII: &str = "éëñüßΩжع中文日한😀🚀👍\u{301}";
const WHITESPACE: &str = " \t\n\r\u{a0}\u{2028}\u{3000}";
const QUOTES: &str = "\"'\\`";
const CONTROL: &str = "\u{1}\u{7}\u{8}\u{b}\u{c}\u{1b}\u{7f}";

/// Every class with its weight, in shrinking order.
const CLASSES: [(u32, &str); 7] = [
    (32, LOWERCASE),
    (8, UPPERCASE_AND_DIGITS),
    (8, PRINTABLE),
    (6, NON_ASCII),
    (4, WHITESPACE),
    (3, QUOTES),
    (1, CONTROL),
];

/// The classes one after the other: a character is an index into this, and shrinks by
/// moving toward index 0, `a`.
static ALPHABET: LazyLock<Arc<Vec<char>>> = LazyLock::new(|| {
    Arc::new(
        CLASSES
            .iter()
            .flat_map(|(_, class)| class.chars())
            .collect(),
    )
});

/// One character of free text; shrinks toward `a`.
pub(super) fn any_char() -> SBoxedStrategy<char> {
    let mut start = 0_i128;
    let picks = CLASSES
        .iter()
        .map(|(weight, class)| {
            let end = start + class.chars().count() as i128;
            let range = start..=end - 1;
            start = end;
            (*weight, range)
        })
        .collect();
    let alphabet = Arc::clone(&ALPHABET);
    Toward { target: 0, picks }
        .prop_map(move |index| alphabet[index as usize])
        .sboxed()
}

/// Free text of `min..=max` characters; shrinks toward `min` times `a`.
pub(super) fn text(min: usize, max: usize) -> SBoxedStrategy<String> {
    SizedVec {
        element: any_char(),
        min,
        lengths: vec![(1, min..=max)],
    }
    .prop_map(String::from_iter)
    .sboxed()
}
