//! RFC 6570 URI templates, as far as resource templates use them: the variables of a
//! template, and its expansion with generated values (levels 1 to 3, and the explode
//! modifier read as level 3).

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;

/// What simple expansion leaves as is: RFC 6570's unreserved characters.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// What `{+var}` and `{#var}` also leave as is: the reserved characters.
const RESERVED: &AsciiSet = &UNRESERVED
    .remove(b':')
    .remove(b'/')
    .remove(b'?')
    .remove(b'#')
    .remove(b'[')
    .remove(b']')
    .remove(b'@')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=');

/// Every variable of `template`, in order, each once.
pub(crate) fn variables(template: &str) -> Vec<String> {
    let mut names = Vec::new();
    for expression in expressions(template) {
        let (_, list) = operator(expression);
        for name in list.split(',').map(variable_name) {
            if !name.is_empty() && !names.iter().any(|n| n == name) {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// `template` with each expression replaced by the values in `values` (an object; a
/// value that is not a string is written as JSON).
pub(crate) fn expand(template: &str, values: &Value) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        let Some(end) = rest[start..].find('}') else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(&expand_expression(&rest[start + 1..start + end], values));
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

fn expressions(template: &str) -> impl Iterator<Item = &str> {
    template
        .split('{')
        .skip(1)
        .filter_map(|part| part.split_once('}').map(|(e, _)| e))
}

fn operator(expression: &str) -> (Option<char>, &str) {
    match expression.chars().next() {
        Some(op @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => (Some(op), &expression[1..]),
        _ => (None, expression),
    }
}

/// A variable without its `*` or `:N` modifier.
fn variable_name(spec: &str) -> &str {
    let spec = spec.trim();
    let spec = spec.strip_suffix('*').unwrap_or(spec);
    spec.split(':').next().unwrap_or(spec)
}

fn expand_expression(expression: &str, values: &Value) -> String {
    let (op, list) = operator(expression);
    let (first, separator, named, allow_reserved) = match op {
        None => ("", ",", false, false),
        Some('+') => ("", ",", false, true),
        Some('#') => ("#", ",", false, true),
        Some('.') => (".", ".", false, false),
        Some('/') => ("/", "/", false, false),
        Some(';') => (";", ";", true, false),
        Some('?') => ("?", "&", true, false),
        Some(_) => ("&", "&", true, false),
    };
    let set = if allow_reserved { RESERVED } else { UNRESERVED };
    let parts: Vec<String> = list
        .split(',')
        .map(variable_name)
        .filter_map(|name| {
            let value = match values.get(name)? {
                Value::String(text) => text.clone(),
                Value::Null => return None,
                other => other.to_string(),
            };
            let encoded = utf8_percent_encode(&value, set).to_string();
            Some(if named {
                format!("{name}={encoded}")
            } else {
                encoded
            })
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("{first}{}", parts.join(separator))
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn finds_each_variable_once_whatever_its_operator() {
        assert_eq!(
            variables("file:///{dir}/{+path}{?q,limit*}{&q}{#frag:3}"),
            ["dir", "path", "q", "limit", "frag"]
        );
        assert!(variables("file:///fixed").is_empty());
    }

    #[test]
    fn expands_levels_one_to_three() {
        let values = json!({"dir": "a b", "path": "x/y", "q": "ë", "n": 3});
        assert_eq!(
            expand("file:///{dir}/{+path}", &values),
            "file:///a%20b/x/y"
        );
        assert_eq!(
            expand("s://{/dir}{?q,n}", &values),
            "s:///a%20b?q=%C3%AB&n=3"
        );
        assert_eq!(expand("s://x{?missing}", &values), "s://x");
    }
}
