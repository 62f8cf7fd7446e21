//! Strings in the `format`s servers declare. 2020-12 treats `format` as an annotation, draft-07
//! validators assert it, and servers parse these strings either way (a date into a date), so
//! generated values always conform. Each shrinks toward a plain instance (`2000-01-01`,
//! `0.0.0.0`, `a@a.example`).

use std::net::Ipv6Addr;

use proptest::prelude::*;
use proptest::sample::select;

/// Strings in `format`, or `None` for a format we do not generate (it is then ignored).
pub(super) fn strategy(format: &str) -> Option<SBoxedStrategy<String>> {
    Some(match format {
        "date" => date(),
        "time" => time(),
        "date-time" => (date(), time())
            .prop_map(|(date, time)| format!("{date}T{time}"))
            .sboxed(),
        "email" | "idn-email" => email(),
        "hostname" | "idn-hostname" => hostname(),
        "uri" | "url" | "iri" | "uri-reference" | "iri-reference" | "uri-template" => uri(),
        "uuid" => any::<u128>()
            .prop_map(|bits| {
                let hex = format!("{bits:032x}");
                format!(
                    "{}-{}-{}-{}-{}",
                    &hex[..8],
                    &hex[8..12],
                    &hex[12..16],
                    &hex[16..20],
                    &hex[20..]
                )
            })
            .sboxed(),
        "ipv4" => any::<[u8; 4]>()
            .prop_map(|[a, b, c, d]| format!("{a}.{b}.{c}.{d}"))
            .sboxed(),
        "ipv6" => any::<[u16; 8]>()
            .prop_map(|segments| Ipv6Addr::from(segments).to_string())
            .sboxed(),
        "duration" => duration(),
        "json-pointer" => json_pointer(),
        "relative-json-pointer" => (0_u8..10, json_pointer())
            .prop_map(|(up, pointer)| format!("{up}{pointer}"))
            .sboxed(),
        "regex" => select(&["^[a-z]+$", "a|b", "\\d{3}", ".*", "^$"][..])
            .prop_map(str::to_owned)
            .sboxed(),
        _ => return None,
    })
}

fn date() -> SBoxedStrategy<String> {
    (2000_u32..=2099, 1_u32..=12, 1_u32..=31)
        .prop_map(|(year, month, day)| {
            format!("{year:04}-{month:02}-{:02}", day.min(days_in(year, month)))
        })
        .sboxed()
}

fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn time() -> SBoxedStrategy<String> {
    let offset = select(&["Z", "+00:00", "+05:30", "-08:00", "+14:00"][..]);
    (
        0_u32..24,
        0_u32..60,
        0_u32..60,
        proptest::option::weighted(0.3, 0_u32..1000),
        offset,
    )
        .prop_map(|(hour, minute, second, millis, offset)| {
            let fraction = millis.map(|m| format!(".{m:03}")).unwrap_or_default();
            format!("{hour:02}:{minute:02}:{second:02}{fraction}{offset}")
        })
        .sboxed()
}

fn label() -> SBoxedStrategy<String> {
    // No `--`: a hyphen pair in third and fourth place marks an IDNA label.
    proptest::string::string_regex("[a-z0-9]{1,8}(-[a-z0-9]{1,8})?")
        .expect("a valid regex")
        .sboxed()
}

fn hostname() -> SBoxedStrategy<String> {
    proptest::collection::vec(label(), 1..=3)
        .prop_map(|labels| labels.join("."))
        .sboxed()
}

fn email() -> SBoxedStrategy<String> {
    let local = proptest::string::string_regex("[a-z0-9]{1,10}([._+-][a-z0-9]{1,5})?")
        .expect("a valid regex");
    (local, label())
        .prop_map(|(local, domain)| format!("{local}@{domain}.example"))
        .sboxed()
}

fn uri() -> SBoxedStrategy<String> {
    let segment = proptest::string::string_regex("[a-zA-Z0-9._~-]{1,8}").expect("a valid regex");
    let query = proptest::string::string_regex("[a-z0-9]{1,8}").expect("a valid regex");
    (
        select(&["https", "http"][..]),
        hostname(),
        proptest::collection::vec(segment, 0..=3),
        proptest::option::weighted(0.3, query),
    )
        .prop_map(|(scheme, host, path, query)| {
            let path: String = path.iter().map(|segment| format!("/{segment}")).collect();
            let query = query.map(|q| format!("?q={q}")).unwrap_or_default();
            format!("{scheme}://{host}{path}{query}")
        })
        .sboxed()
}

fn duration() -> SBoxedStrategy<String> {
    let unit = select(&["Y", "M", "W", "D", "TH", "TM", "TS"][..]);
    (0_u32..100, unit)
        .prop_map(|(count, unit)| match unit.strip_prefix('T') {
            Some(time_unit) => format!("PT{count}{time_unit}"),
            None => format!("P{count}{unit}"),
        })
        .sboxed()
}

fn json_pointer() -> SBoxedStrategy<String> {
    let token = proptest::string::string_regex("[a-z0-9]{0,5}").expect("a valid regex");
    proptest::collection::vec(token, 0..=3)
        .prop_map(|tokens| tokens.iter().map(|t| format!("/{t}")).collect())
        .sboxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::TestRunner;
    use serde_json::json;

    /// Draft-07 asserts formats, so its validator is the judge of every generated string.
    #[test]
    fn every_format_is_valid_under_draft_07() {
        let formats = [
            "date",
            "time",
            "date-time",
            "email",
            "hostname",
            "uri",
            "uri-reference",
            "iri",
            "ipv4",
            "ipv6",
            "json-pointer",
            "relative-json-pointer",
            "regex",
            "uri-template",
        ];
        let mut runner = TestRunner::deterministic();
        for format in formats {
            let schema =
                json!({"$schema": "http://json-schema.org/draft-07/schema#", "format": format});
            let validator = jsonschema::validator_for(&schema).unwrap();
            let strategy = strategy(format).unwrap();
            for _ in 0..300 {
                let value = strategy.new_tree(&mut runner).unwrap().current();
                assert!(validator.is_valid(&json!(value)), "{format}: {value}");
            }
        }
        for format in ["uuid", "duration"] {
            let schema = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "format": format});
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .unwrap();
            let strategy = strategy(format).unwrap();
            for _ in 0..300 {
                let value = strategy.new_tree(&mut runner).unwrap().current();
                assert!(validator.is_valid(&json!(value)), "{format}: {value}");
            }
        }
    }
}
