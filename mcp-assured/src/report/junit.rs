//! The JUnit XML form of a report, for CI systems: a test suite per suite (in the order they
//! first appear), a test case per entry, failed and skipped ones with their message. The XML
//! needs the `junit` feature (`checks` and `full` turn it on); without it, [`Report::junit`]
//! warns at compile time and writes a report whose one case fails naming the feature
//! (`feature_off`).

#[cfg(feature = "junit")]
use std::fmt;

#[cfg(feature = "junit")]
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

use super::Report;
#[cfg(feature = "junit")]
use super::Status;

/// A report as JUnit XML; see [`Report::junit`].
#[derive(Debug, Clone)]
#[must_use = "a Junit does nothing until it is displayed"]
pub struct Junit<'a> {
    pub(crate) report: &'a Report,
    pub(crate) name: String,
    pub(crate) target: Option<String>,
}

impl Report {
    /// The report as JUnit XML, its `<testsuites>` called `name`; the XML is what its
    /// [`Display`](std::fmt::Display) writes:
    ///
    #[cfg_attr(feature = "junit", doc = "```")]
    #[cfg_attr(not(feature = "junit"), doc = "```ignore")]
    /// use mcp_assured::report::{Entry, Report, Status};
    ///
    /// let report: Report = [Entry::new("protocol-checks", "ping", Status::Failed, "timed out")]
    ///     .into_iter()
    ///     .collect();
    /// let xml = report.junit("nightly").target("http://127.0.0.1:8000/mcp").to_string();
    /// assert!(xml.contains(r#"<testsuite name="protocol-checks" tests="1" skipped="0" errors="0" failures="1">"#));
    /// assert!(xml.contains(r#"<testcase name="ping" classname="protocol-checks.http://127.0.0.1:8000/mcp">"#));
    /// assert!(xml.contains(r#"<failure message="timed out"/>"#));
    /// ```
    #[cfg_attr(
        not(feature = "junit"),
        doc = "",
        doc = "(This build has no `junit` feature: the XML is one failed case saying to turn it on.)"
    )]
    #[cfg_attr(
        not(feature = "junit"),
        deprecated(note = "JUnit XML needs mcp-assured's `junit` feature: \
                    `mcp-assured = { version = \"0.1\", features = [\"junit\"] }`")
    )]
    pub fn junit(&self, name: impl Into<String>) -> Junit<'_> {
        Junit {
            report: self,
            name: name.into(),
            target: None,
        }
    }
}

impl Junit<'_> {
    /// What was tested (a URL, a command): each test case's class name becomes
    /// `<suite>.<target>` instead of `<suite>`, so that reports of several servers stay apart.
    pub fn target(mut self, target: impl Into<String>) -> Self {
        self.target = Some(target.into());
        self
    }

    #[cfg(feature = "junit")]
    fn xml(&self) -> quick_junit::Report {
        let mut xml = quick_junit::Report::new(self.name.as_str());
        for suite_name in self.suites() {
            let mut suite = TestSuite::new(suite_name);
            for entry in self.report {
                if entry.suite != suite_name {
                    continue;
                }
                let status = match entry.status {
                    Status::Passed | Status::Warned => TestCaseStatus::success(),
                    Status::Skipped => {
                        let mut status = TestCaseStatus::skipped();
                        status.set_message(entry.message_with_problems());
                        status
                    }
                    Status::Failed => {
                        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                        status.set_message(entry.message_with_problems());
                        if let Some(clause) = &entry.clause {
                            status.set_description(clause.to_string());
                        }
                        status
                    }
                };
                let mut case = TestCase::new(entry.name.as_str(), status);
                case.set_classname(match &self.target {
                    Some(target) => format!("{suite_name}.{target}"),
                    None => suite_name.to_owned(),
                });
                if let Some(duration) = entry.duration {
                    case.set_time(duration);
                }
                // JUnit has no warnings: a passed case whose output says it.
                if entry.status == Status::Warned {
                    let mut out = format!("warning: {}", entry.message_with_problems());
                    if let Some(clause) = &entry.clause {
                        out.push_str(&format!("\n{clause}"));
                    }
                    case.set_system_out(out);
                }
                if let Some(clause) = &entry.clause {
                    case.add_property(("level", clause.level.as_str()));
                    case.add_property(("clause", clause.url));
                }
                suite.add_test_case(case);
            }
            xml.add_test_suite(suite);
        }
        xml
    }

    /// Every suite the entries name, in the order they first appear, so that none is left out.
    #[cfg(feature = "junit")]
    fn suites(&self) -> Vec<&str> {
        let mut suites: Vec<&str> = Vec::new();
        for entry in self.report {
            if !suites.contains(&entry.suite.as_str()) {
                suites.push(&entry.suite);
            }
        }
        suites
    }
}

#[cfg(feature = "junit")]
impl fmt::Display for Junit<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written to memory, it cannot fail on I/O.
        let xml = self.xml().to_string().map_err(|_| fmt::Error)?;
        f.write_str(&xml)
    }
}

#[cfg(all(test, feature = "junit"))]
mod tests {
    use std::time::Duration;

    use quick_junit::{NonSuccessKind, TestCaseStatus};

    use super::super::{Report, tests::sample};

    #[test]
    fn a_suite_per_suite_and_a_case_per_entry() {
        let xml = sample()
            .junit("mcp-assured check")
            .target("-- server")
            .to_string();
        let parsed = quick_junit::Report::deserialize_from_str(&xml).unwrap();
        assert_eq!(parsed.name.as_deref(), Some("mcp-assured check"));
        assert_eq!((parsed.tests, parsed.failures, parsed.errors), (4, 1, 0));
        let suites: Vec<(&str, usize, usize, usize)> = parsed
            .test_suites
            .iter()
            .map(|s| (s.name.as_str(), s.tests, s.failures, s.skipped))
            .collect();
        assert_eq!(
            suites,
            [("server-tests", 2, 1, 0), ("protocol-checks", 2, 0, 1)]
        );

        let slow = &parsed.test_suites[0].test_cases[0];
        assert_eq!(slow.name.as_str(), "mcp.test.slow");
        assert_eq!(
            slow.classname.as_ref().map(|c| c.as_str()),
            Some("server-tests.-- server")
        );
        assert_eq!(slow.time, Some(Duration::from_millis(250)));
        let TestCaseStatus::NonSuccess { kind, message, .. } = &slow.status else {
            panic!("{:?}", slow.status);
        };
        assert_eq!(*kind, NonSuccessKind::Failure);
        assert_eq!(
            message.as_ref().map(|m| m.as_str()),
            Some("no answer within 200 ms [no testMetadata]")
        );

        let quiet = &parsed.test_suites[0].test_cases[1];
        assert_eq!((quiet.name.as_str(), quiet.time), ("mcp.test.quiet", None));
        assert!(matches!(quiet.status, TestCaseStatus::Success { .. }));

        let skipped = &parsed.test_suites[1].test_cases[1];
        let TestCaseStatus::Skipped { message, .. } = &skipped.status else {
            panic!("{:?}", skipped.status);
        };
        assert_eq!(
            message.as_ref().map(|m| m.as_str()),
            Some("resources are not advertised")
        );
    }

    #[test]
    fn without_a_target_the_class_name_is_the_suite() {
        let xml = sample().junit("r").to_string();
        assert!(
            xml.contains(r#"<testcase name="ping" classname="protocol-checks" time="0.003"/>"#),
            "{xml}"
        );
    }

    #[test]
    fn an_empty_report_has_no_suites() {
        assert_eq!(
            Report::default().junit("r").to_string(),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <testsuites name=\"r\" tests=\"0\" skipped=\"0\" failures=\"0\" errors=\"0\">\n\
             </testsuites>\n"
        );
    }
}
