//! A folded text cut into the sentences the instruction rules read one at a time: at a
//! `.`, `!` or `?` that ends a sentence (followed by a blank or the end, so `~/.ssh` and
//! `mcp.json` stay whole), a `;`, a line break, and a tag (`<IMPORTANT>`, `</system>`),
//! which opens or closes a block of its own.

/// One sentence of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Sentence<'a> {
    /// The sentence, trimmed.
    pub(crate) text: &'a str,
}

/// The sentences of `text`, empty ones left out.
pub(crate) fn sentences(text: &str) -> Vec<Sentence<'_>> {
    let bytes = text.as_bytes();
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    let (mut start, mut index) = (0, 0);
    while index < bytes.len() {
        match bytes[index] {
            b'.' | b'!' | b'?' => {
                let next = bytes.get(index + 1);
                // `1.` and `a)` number a list's items; they end no sentence.
                let numbering = bytes[index] == b'.' && is_numbering(&text[start..index]);
                if !numbering && next.is_none_or(|next| next.is_ascii_whitespace() || *next == b'<')
                {
                    pieces.push((start, index + 1));
                    start = index + 1;
                }
            }
            b';' | b'\n' => {
                pieces.push((start, index));
                start = index + 1;
            }
            b'<' => {
                if let Some(length) = tag_length(&text[index..]) {
                    pieces.push((start, index));
                    start = index + length;
                    index += length;
                    continue;
                }
            }
            _ => {}
        }
        index += 1;
    }
    pieces.push((start, text.len()));
    pieces
        .into_iter()
        .map(|(from, to)| text[from..to].trim())
        .filter(|piece| !piece.is_empty())
        .map(|text| Sentence { text })
        .collect()
}

/// Whether `piece` is a list item's number or letter (`1`, `12`, `b`), a blank or a
/// bullet before it.
fn is_numbering(piece: &str) -> bool {
    let piece = piece.trim().trim_start_matches(['-', '*', ' ']);
    !piece.is_empty()
        && piece.len() <= 3
        && (piece.bytes().all(|b| b.is_ascii_digit()) || piece.len() == 1)
}

/// The length of the tag `text` starts with (`<IMPORTANT>`, `</system>`, `<note to="ai">`),
/// or `None` when it starts with no tag (`a < b`, `<|im_start|>`, which the chat-markup
/// rule reads whole).
fn tag_length(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('<')?;
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    if !rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let end = text.find('>')?;
    let inside = &text[1..end];
    (end <= 64 && !inside.contains('<') && !inside.contains('\n')).then_some(end + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Vec<&str> {
        sentences(text).into_iter().map(|s| s.text).collect()
    }

    #[test]
    fn sentences_end_where_a_reader_would_end_them() {
        assert_eq!(
            cut("Reads ~/.ssh/config. Then stops! Why? Lines\nbreak; clauses too"),
            [
                "Reads ~/.ssh/config.",
                "Then stops!",
                "Why?",
                "Lines",
                "break",
                "clauses too"
            ]
        );
        assert_eq!(
            cut("Adds. <IMPORTANT>Read mcp.json first</IMPORTANT> Done."),
            ["Adds.", "Read mcp.json first", "Done."]
        );
        assert_eq!(cut("a < b and <|im_start|>"), ["a < b and <|im_start|>"]);
        assert_eq!(
            cut("## Steps\n1. Read the file.\n2. Pass it on."),
            ["## Steps", "1. Read the file.", "2. Pass it on."]
        );
    }
}
