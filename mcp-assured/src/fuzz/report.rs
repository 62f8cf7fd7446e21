//! A fuzz run as the project's one [`Report`]: `fuzz.run` with the seed, an entry per
//! finding (failed, or warned where the specification only says SHOULD), and one per
//! subject that ran clean, was skipped, or could not be fuzzed.

use std::time::Duration;

use serde_json::json;

use super::{
    SUITE,
    generate::Unsupported,
    run::SubjectRun,
    session::{THROTTLED_TRIES, Throttling},
    subject::{Subject, SubjectKind},
};
use crate::{
    checks::clauses,
    report::{Entry, Finding, FindingKind, Report, Status, finding::compact},
};

/// How the session fared, beside the findings.
#[derive(Debug, Default)]
pub(crate) struct RunEnd {
    /// How many times the server was started again.
    pub(crate) restarts: u32,
    /// How many times a second process of the server was started, to tell crashes apart on
    /// (one stopped at once so the first could start again is not counted).
    pub(crate) second_process_starts: u32,
    /// The time budget ran out before every input was sent.
    pub(crate) out_of_time: bool,
    /// What each crash left on stderr, and why a restart failed.
    pub(crate) deaths: Vec<String>,
    /// What the server's HTTP 429s and 503s cost the run.
    pub(crate) throttling: Throttling,
}

/// What the run decided before and beside fuzzing, and how it turns into entries.
#[derive(Debug)]
pub(crate) struct Plan {
    seed: u64,
    strict: bool,
    protocol_version: String,
    /// Entries written before the subjects ran: listing failures, skips, unsupported schemas.
    early: Vec<Entry>,
}

impl Plan {
    pub(crate) fn new(seed: u64, strict: bool, protocol_version: &str) -> Plan {
        Plan {
            seed,
            strict,
            protocol_version: protocol_version.to_owned(),
            early: Vec::new(),
        }
    }

    pub(crate) fn listing_failed(&mut self, error: impl std::fmt::Display) {
        self.early.push(Entry::new(
            SUITE,
            "fuzz.setup",
            Status::Failed,
            error.to_string(),
        ));
    }

    pub(crate) fn setup_warning(&mut self, warning: impl std::fmt::Display) {
        self.early.push(Entry::new(
            SUITE,
            "fuzz.setup",
            Status::Warned,
            warning.to_string(),
        ));
    }

    pub(crate) fn destructive(&mut self, subject: &Subject) {
        self.early.push(Entry::new(
            SUITE,
            entry_name(subject),
            Status::Skipped,
            "annotated destructiveHint: not fuzzed without include_destructive(true) \
             (--include-destructive)",
        ));
    }

    pub(crate) fn unsupported(&mut self, subject: &Subject, unsupported: &Unsupported) {
        let mut entry = Entry::new(
            SUITE,
            entry_name(subject),
            Status::Warned,
            format!("not fuzzed: no input can be generated from its schema: {unsupported}"),
        );
        entry.details = json!({"schema": subject.argument_schema()});
        self.early.push(entry);
    }

    /// The report: `fuzz.run` first, then what was decided early, then each subject.
    pub(crate) fn report(self, runs: Vec<SubjectRun>, took: Duration, end: RunEnd) -> Report {
        let RunEnd {
            restarts,
            second_process_starts,
            out_of_time,
            deaths,
            throttling,
        } = end;
        let calls: u32 = runs.iter().map(|r| r.valid_calls + r.invalid_calls).sum();
        let count = |kind| runs.iter().filter(|r| r.subject.kind() == kind).count();
        let mut message = format!(
            "seed {}: {calls} calls to {} tools, {} templates and {} prompts in {:.1} s",
            self.seed,
            count(SubjectKind::Tool),
            count(SubjectKind::Template),
            count(SubjectKind::Prompt),
            took.as_secs_f64(),
        );
        if restarts > 0 {
            message.push_str(&format!("; the server was started again {restarts} times"));
        }
        if second_process_starts > 0 {
            message.push_str(&format!(
                "; a second process of it, to tell crashes apart on, was started \
                 {second_process_starts} times"
            ));
        }
        if out_of_time {
            message.push_str("; the time budget ran out before every input was sent");
        }
        if throttling.refusals > 0 {
            message.push_str(&format!(
                "; the server refused {} calls with HTTP 429/503, and the run held its calls \
                 back {:.1} s in all, as its Retry-After asked, then sent them again",
                throttling.refusals,
                throttling.paused.as_secs_f64()
            ));
        }
        let given_up = throttling.given_up;
        if given_up > 0 {
            message.push_str(&format!(
                "; {given_up} calls were still refused after {THROTTLED_TRIES} tries and \
                 were not judged: fuzz it with fewer calls in flight (`.concurrency(..)`, \
                 `--concurrency N`) or a higher rate limit"
            ));
        }
        message.push_str(&format!(
            "; to run the same inputs again: .seed({0}) or --seed {0}",
            self.seed
        ));
        let status = if given_up > 0 {
            Status::Warned
        } else {
            Status::Passed
        };
        let mut summary = Entry::new(SUITE, "fuzz.run", status, message);
        summary.duration = Some(took);
        summary.details = json!({
            "seed": self.seed,
            "calls": calls,
            "restarts": restarts,
            "second_process_starts": second_process_starts,
            "out_of_time": out_of_time,
            "server_deaths": deaths,
            "throttled": {
                "refusals": throttling.refusals,
                "given_up": given_up,
                "paused_secs": throttling.paused.as_secs_f64(),
            },
        });
        let mut report = Report::default();
        report.push(summary);
        report.extend(self.early.iter().cloned());
        for run in runs {
            report.extend(self.entries_of(run));
        }
        // Strict: every warning fails, the run's own (a schema no input can be made from, a
        // subject never called, calls the server kept refusing) as well as the findings'.
        if self.strict {
            report.strictly()
        } else {
            report
        }
    }

    fn entries_of(&self, run: SubjectRun) -> Vec<Entry> {
        let name = entry_name(&run.subject);
        let sent = format!(
            "{} valid and {} invalid inputs",
            run.valid_calls, run.invalid_calls
        );
        let notes = run.notes.clone();
        if run.findings.is_empty() {
            let status = if run.valid_calls + run.invalid_calls == 0 {
                Status::Warned
            } else {
                Status::Passed
            };
            let mut entry = Entry::new(SUITE, name, status, format!("{sent}, no finding"));
            entry.problems = notes;
            entry.details =
                json!({"valid_calls": run.valid_calls, "invalid_calls": run.invalid_calls});
            return vec![entry];
        }
        run.findings
            .into_iter()
            .map(|finding| {
                let mut entry = self.finding_entry(&name, finding);
                entry.problems.extend(notes.iter().cloned());
                entry
            })
            .collect()
    }

    fn finding_entry(&self, subject_entry: &str, finding: Finding) -> Entry {
        let clause = clauses::of_finding(
            finding.kind.as_str(),
            &finding.subject,
            &self.protocol_version,
        )
        .or_else(|| crate::rules::of_finding(finding.kind.as_str()));
        // A SHOULD (a slow tool's rule among them) warns; strict fails every warning, in
        // `report`.
        let should_only = clause
            .as_ref()
            .is_some_and(|clause| !clause.level.is_requirement());
        let extra_property = finding.kind == FindingKind::AcceptedInvalid
            && finding
                .mutation
                .as_deref()
                .is_some_and(|m| m.starts_with("extra property"));
        let status = if should_only || extra_property || finding.concurrent_only {
            Status::Warned
        } else {
            Status::Failed
        };
        let mut message = finding.to_string();
        if finding.arguments != finding.found_with {
            message.push_str(&format!(
                " (shrunk in {} steps from {})",
                finding.shrink_steps,
                compact(&finding.found_with)
            ));
        }
        if finding.replayed {
            message.push_str(" (replayed from the regression file)");
        }
        if finding.concurrent_only {
            message.push_str(&format!(
                "; seen only with other calls in flight: {} failed so among others, but {} \
                 sent again alone was answered as it should be, so it is not blamed on `{}` \
                 (another call's answer may have failed it; strict fails it)",
                compact(&finding.found_with),
                compact(&finding.arguments),
                finding.name
            ));
        }
        if extra_property {
            message.push_str(
                "; a warning: zod and pydantic drop unknown properties by default (strict \
                 fails it)",
            );
        }
        if matches!(finding.kind, FindingKind::Hang | FindingKind::Slow) {
            message.push_str(&hang_hint(&finding.subject, &finding.name));
        }
        if let Some(command) = &finding.reproduce.command {
            message.push_str(&format!("\n  reproduce: {command}"));
        }
        // Each property its own entry: `fuzz.tools.add.property.the sum is small`.
        let name = match &finding.property {
            Some(property) => format!("{subject_entry}.{}.{property}", finding.kind),
            None => format!("{subject_entry}.{}", finding.kind),
        };
        let mut entry = Entry::new(SUITE, name, status, message);
        entry.clause = clause;
        entry.details = json!({"finding": finding});
        entry
    }
}

/// What to do when a hang is the subject's design, not a bug: a tool that runs longer than the
/// per-call timeout on purpose is otherwise a FAIL its author would not agree with.
fn hang_hint(subject: &str, name: &str) -> String {
    let leave_out = match subject {
        "template" => "leave templates out (`.templates(false)`, `--no-templates`)".to_owned(),
        "prompt" => "leave prompts out (`.prompts(false)`, `--no-prompts`)".to_owned(),
        _ => format!("leave it out (`.exclude_tool({name:?})`, `--exclude-tool {name}`)"),
    };
    format!(
        "\n  if it is meant to take longer, raise the per-call timeout \
         (`.call_timeout(..)`, `--call-timeout SECONDS`) or {leave_out}"
    )
}

/// `fuzz.tools.greet`, `fuzz.templates.file:///{path}`, `fuzz.prompts.summary`.
fn entry_name(subject: &Subject) -> String {
    format!("fuzz.{}.{}", subject.kind().plural(), subject.name())
}
