//! What the headline methods behind a Cargo feature do in a build without it: they still
//! compile, with a deprecation warning that names the feature, and fail when called saying
//! which feature to turn on, instead of rustc's bare "no method named `check`" (whole
//! modules that are off get rustc's own "the item is gated behind the `checks` feature").

#[cfg(not(feature = "checks"))]
mod checks {
    use rmcp::model::Tool;

    use crate::{
        client::McpClient,
        error::{Error, Result},
        report::{Entry, Report, Status},
    };

    const NEEDS_CHECKS: &str = "the protocol checks and server tests need mcp-assured's \
        `checks` feature (off by default since the features of issue 33): write \
        `mcp-assured = { version = \"0.1\", features = [\"checks\"] }` in Cargo.toml";

    impl McpClient {
        /// Without the `checks` feature: a report whose one entry fails, saying to turn the
        /// feature on.
        #[deprecated(note = "the protocol checks need mcp-assured's `checks` feature: \
                    `mcp-assured = { version = \"0.1\", features = [\"checks\"] }`")]
        pub async fn check(&self) -> Report {
            let mut report = Report::default();
            report.push(Entry::new(
                "protocol-checks",
                "checks",
                Status::Failed,
                NEEDS_CHECKS,
            ));
            report
        }

        /// Without the `checks` feature: [`Error::InvalidInput`] saying to turn it on.
        ///
        /// # Errors
        ///
        /// Always, in this build.
        #[deprecated(note = "the server tests need mcp-assured's `checks` feature: \
                    `mcp-assured = { version = \"0.1\", features = [\"checks\"] }`")]
        pub async fn run_server_tests(&self) -> Result<Report> {
            Err(Error::invalid("build", NEEDS_CHECKS))
        }

        /// Without the `checks` feature: [`Error::InvalidInput`] saying to turn it on.
        ///
        /// # Errors
        ///
        /// Always, in this build.
        #[deprecated(
            note = "`list_tools_excluding_tests` needs mcp-assured's `checks` feature: \
                    `mcp-assured = { version = \"0.1\", features = [\"checks\"] }`"
        )]
        pub async fn list_tools_excluding_tests(&self) -> Result<Vec<Tool>> {
            Err(Error::invalid("build", NEEDS_CHECKS))
        }
    }

    #[cfg(test)]
    mod tests {
        use mcp_assured_examples::ExampleServer;

        use crate::client::McpAssured;

        #[tokio::test]
        #[allow(deprecated)]
        async fn without_the_feature_the_checks_fail_naming_it() {
            let client = McpAssured::client()
                .service(ExampleServer::new())
                .build()
                .await
                .unwrap();
            let report = client.check().await;
            assert!(!report.is_success());
            assert!(
                report.to_string().contains("features = [\"checks\"]"),
                "{report}"
            );
            let error = client.run_server_tests().await.unwrap_err().to_string();
            assert!(error.contains("`checks` feature"), "{error}");
            let error = client.list_tools_excluding_tests().await.unwrap_err();
            assert!(error.to_string().contains("`checks` feature"), "{error}");
        }
    }
}

#[cfg(not(feature = "junit"))]
mod junit {
    use std::fmt;

    use crate::report::Junit;

    const NEEDS_JUNIT: &str = "JUnit XML needs mcp-assured's `junit` feature (the `checks` \
        feature turns it on): write `mcp-assured = { version = \"0.1\", features = \
        [\"junit\"] }` in Cargo.toml";

    /// Without the `junit` feature: a JUnit report whose one case fails, saying to turn the
    /// feature on, so that a CI system reading it shows why.
    impl fmt::Display for Junit<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let classname = match &self.target {
                Some(target) => format!("mcp-assured.{target}"),
                None => "mcp-assured".to_owned(),
            };
            let message = format!(
                "the report's {} entries are not written: {NEEDS_JUNIT}",
                self.report.entries().len()
            );
            write!(
                f,
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
                 <testsuites name=\"{}\" tests=\"1\" skipped=\"0\" failures=\"1\" errors=\"0\">\n\
                 <testsuite name=\"mcp-assured\" tests=\"1\" skipped=\"0\" errors=\"0\" failures=\"1\">\n\
                 <testcase name=\"junit\" classname=\"{}\">\n\
                 <failure message=\"{}\"/>\n\
                 </testcase>\n\
                 </testsuite>\n\
                 </testsuites>\n",
                escape(&self.name),
                escape(&classname),
                escape(&message),
            )
        }
    }

    /// Text as an XML attribute's value.
    fn escape(text: &str) -> String {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }

    #[cfg(test)]
    mod tests {
        use crate::report::{Entry, Report, Status};

        #[test]
        #[allow(deprecated)]
        fn without_the_feature_junit_fails_naming_it() {
            let report: Report = [Entry::new("s", "a", Status::Passed, "")]
                .into_iter()
                .collect();
            let xml = report.junit("a \"b\" & <c>").to_string();
            assert!(xml.contains("features = [&quot;junit&quot;]"), "{xml}");
            assert!(xml.contains(r#"failures="1""#), "{xml}");
            assert!(
                xml.contains(r#"name="a &quot;b&quot; &amp; &lt;c&gt;""#),
                "{xml}"
            );
        }
    }
}
