//! Text as HTML: `&`, `<`, `>`, `"` and `'` escaped, so that what a server sent (a tool's
//! description, an error's message) is shown, never run.

/// `text` with every character HTML gives a meaning escaped.
pub(super) fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        match character {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            other => escaped.push(other),
        }
    }
    escaped
}

/// JSON, pretty, escaped for a `<pre>`.
pub(super) fn json(value: &serde_json::Value) -> String {
    escape(&serde_json::to_string_pretty(value).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn markup_a_server_sent_is_shown_not_run() {
        assert_eq!(
            escape("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
    }
}
