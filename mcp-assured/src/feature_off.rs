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
