//! Whether a URI is one of a URI template's (RFC 6570): the literal parts in order, each
//! expression standing for any run of characters (`{var}` and `{#var}` none that ends a
//! path segment or starts a query, `{+var}`, `{/var}`, `{?var}` and the rest anything).

/// Whether `uri` could be an expansion of `template`.
pub(crate) fn matches(template: &str, uri: &str) -> bool {
    let mut parts = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        parts.push(Part::Literal(&rest[..open]));
        let expression = &rest[open + 1..open + close];
        parts.push(Part::Expression(
            !expression.starts_with(['+', '#', '/', '?', '&', '.', ';']),
        ));
        rest = &rest[open + close + 1..];
    }
    parts.push(Part::Literal(rest));
    matches_from(&parts, uri)
}

#[derive(Clone, Copy)]
enum Part<'a> {
    Literal(&'a str),
    /// An expression; `true` when its expansion stays within a path segment.
    Expression(bool),
}

fn matches_from(parts: &[Part<'_>], uri: &str) -> bool {
    match parts.split_first() {
        None => uri.is_empty(),
        Some((Part::Literal(literal), rest)) => uri
            .strip_prefix(literal)
            .is_some_and(|uri| matches_from(rest, uri)),
        Some((Part::Expression(in_segment), rest)) => {
            // Each length the expansion could have, shortest first.
            let mut ends: Vec<usize> = uri.char_indices().map(|(at, _)| at).collect();
            ends.push(uri.len());
            for end in ends {
                if *in_segment && uri[..end].contains(['/', '?', '#']) {
                    return false;
                }
                if matches_from(rest, &uri[end..]) {
                    return true;
                }
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn a_simple_expression_is_one_path_segment() {
        assert!(matches(
            "weather://forecast/{city}",
            "weather://forecast/oslo"
        ));
        assert!(matches("file:///{dir}/{name}.txt", "file:///docs/a.b.txt"));
        assert!(!matches(
            "weather://forecast/{city}",
            "weather://forecast/a/b"
        ));
        assert!(!matches(
            "weather://forecast/{city}",
            "weather://alerts/oslo"
        ));
        assert!(matches("users://{id}", "users://"));
    }

    #[test]
    fn reserved_and_path_expressions_take_anything() {
        assert!(matches("file:///{+path}", "file:///a/b/c.txt"));
        assert!(matches("repo://x{/segments*}", "repo://x/a/b"));
        assert!(matches(
            "search://q{?term,page}",
            "search://q?term=a&page=2"
        ));
        assert!(!matches("file:///{+path}.md", "file:///a/b.txt"));
    }

    #[test]
    fn a_template_without_expressions_is_its_own_uri() {
        assert!(matches("config://app", "config://app"));
        assert!(!matches("config://app", "config://apps"));
    }
}
