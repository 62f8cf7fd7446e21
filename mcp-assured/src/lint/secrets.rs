//! `secret-in-definition`: a credential pasted into what every client and model of the
//! server reads. Found by each issuer's published format (prefix, alphabet and length; a
//! private key by its PEM armour with a body), never by a word such as "token"; documented
//! placeholders (AWS's `AKIAIOSFODNN7EXAMPLE`, `ghp_xxxx…`, `sk-...`) are not secrets. The
//! finding never repeats the secret: it names its kind, its first characters and its length.

use std::{collections::HashSet, sync::LazyLock};

use regex::Regex;

use super::{Finding, rules, walk::Text};

/// A kind of credential and its format.
struct Format {
    what: &'static str,
    regex: Regex,
}

fn format(what: &'static str, source: &str) -> Format {
    Format {
        what,
        regex: Regex::new(source).expect("the secret formats are valid"),
    }
}

static FORMATS: LazyLock<Vec<Format>> = LazyLock::new(|| {
    vec![
        format(
            "an AWS access key id",
            r"\b(AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b",
        ),
        format("a GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36}\b"),
        format(
            "a GitHub fine-grained token",
            r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b",
        ),
        format(
            "a Slack token",
            r"\bxox[baprs]-[0-9]{10,13}-[0-9]{10,13}(-[A-Za-z0-9]{24,34})?\b",
        ),
        format(
            "a Slack webhook URL",
            r"https://hooks\.slack\.com/services/T[A-Z0-9]{8,11}/B[A-Z0-9]{8,11}/[A-Za-z0-9]{24}",
        ),
        format(
            "an OpenAI API key",
            r"\bsk-((proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}T3BlbkFJ[A-Za-z0-9_-]{20,}",
        ),
        format(
            "an Anthropic API key",
            r"\bsk-ant-(api|admin)[0-9]{2}-[A-Za-z0-9_-]{80,110}AA\b",
        ),
        format("a Stripe secret key", r"\b[rs]k_live_[A-Za-z0-9]{24,99}\b"),
        format("a Google API key", r"\bAIza[A-Za-z0-9_-]{35}\b"),
        format(
            "a private key",
            r"-----BEGIN ((RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY( BLOCK)?-----\s*[A-Za-z0-9+/=\s]{40,}",
        ),
    ]
});

/// Whether `candidate` is a placeholder: a documented example, a run of one character, or
/// too few distinct characters to be random.
fn placeholder(candidate: &str) -> bool {
    let upper = candidate.to_ascii_uppercase();
    if [
        "EXAMPLE", "XXXX", "YOUR", "0000", "1234", "ABCD", "REDACTED", "DUMMY", "FAKE",
    ]
    .iter()
    .any(|mark| upper.contains(mark))
    {
        return true;
    }
    let body: Vec<char> = candidate
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let distinct: HashSet<char> = body.iter().copied().collect();
    // A random 20+ character token of 62 symbols has 15 or more distinct ones almost surely.
    distinct.len() < body.len().min(40) / 3
}

/// The secrets in one string.
pub(crate) fn findings(subject: &str, text: &Text<'_>) -> Vec<Finding> {
    let mut found = Vec::new();
    for format in FORMATS.iter() {
        for candidate in format.regex.find_iter(text.text) {
            let secret = candidate.as_str();
            if placeholder(secret) {
                continue;
            }
            let shown: String = secret.chars().take(4).collect();
            found.push(rules::SECRET.finding(
                subject,
                &text.pointer,
                format!(
                    "{} ({shown}…, {} characters) is in the definition, which every client and \
                     model of the server reads",
                    format.what,
                    secret.chars().count()
                ),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<String> {
        findings("tool `t`", &Text::description(text))
            .into_iter()
            .map(|finding| finding.message)
            .collect()
    }

    #[test]
    fn issued_formats_are_found_and_never_repeated() {
        for (secret, what) in [
            ("AKIAZ7Q3LMXK2P4RWT5N", "AWS"),
            ("ghp_9fQ2xLmA7rT4kWz1cVbN8pYs3DhJ6uEo0gKi", "GitHub token"),
            (
                "xoxb-2048193750-1739206481925-Zq7Lm3Xr9TkWp2VbN8cYs4Dh",
                "Slack token",
            ),
            (
                "sk-proj-Qm7rT2xLp9ZkW4vBn8cYs3DhJ6uEoT3BlbkFJa1GkiLq5RfXz0MwN7hYt2",
                "OpenAI",
            ),
            ("AIzaSyD8fQ2xLmA7rT4kWz1cVbN8pYs3DhJ6uEo", "Google"),
        ] {
            let messages = found(&format!("Uses the key {secret} to authenticate."));
            assert_eq!(messages.len(), 1, "{what}: {messages:?}");
            assert!(messages[0].contains(what), "{messages:?}");
            assert!(
                !messages[0].contains(&secret[4..]),
                "the secret is shown: {messages:?}"
            );
        }
        let pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----";
        assert_eq!(found(pem).len(), 1);
    }

    #[test]
    fn placeholders_and_words_are_no_secret() {
        for benign in [
            "Set AWS_ACCESS_KEY_ID, e.g. AKIAIOSFODNN7EXAMPLE (AWS's documented example).",
            "Pass a GitHub token such as ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx.",
            "An OpenAI key looks like sk-... and is read from OPENAI_API_KEY.",
            "The token, API key or password is read from the environment, never from here.",
            "-----BEGIN RSA PRIVATE KEY----- ... -----END RSA PRIVATE KEY----- (PEM armour).",
            "xoxb-0000000000-0000000000000-xxxxxxxxxxxxxxxxxxxxxxxx",
        ] {
            assert!(found(benign).is_empty(), "{benign}: {:?}", found(benign));
        }
    }
}
