//! The example server (`mcp-assured-examples`) as a target for other suites: in the test's
//! process over streamable HTTP ([`ExampleHttp`]), or its binary ([`example_server_binary`];
//! the example package's own tests use `CARGO_BIN_EXE_*`).

use std::{
    path::PathBuf,
    process::Command,
    sync::{Mutex, OnceLock},
};

use mcp_assured::fixture::{BoxError, Fixture, FixtureContext};
use mcp_assured_examples::{HttpOptions, serve::serve_streamable_http};

/// The example server on a loopback port of the test's runtime, over streamable HTTP, as an
/// [`#[mcp_test]`](mcp_assured::mcp_test) fixture: `example: &ExampleHttp` is stopped after
/// the test, and `{example}` (the parameter's name) is its `/mcp` URL.
#[derive(Debug)]
pub struct ExampleHttp {
    /// `http://127.0.0.1:<port>/mcp`.
    pub url: String,
}

impl Fixture for ExampleHttp {
    async fn setup(ctx: &mut FixtureContext<'_>) -> Result<Self, BoxError> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/mcp", listener.local_addr()?);
        let task = tokio::spawn(serve_streamable_http(listener, HttpOptions::default()));
        ctx.defer(async move { task.abort() });
        Ok(Self { url })
    }

    fn placeholder(&self) -> Option<String> {
        Some(self.url.clone())
    }
}

/// The `example-server` binary next to the running test binary (`<target>/<profile>/`).
///
/// `cargo test --workspace` builds it (for the example package's own tests) before any test
/// runs; when only another package is tested, it is built here, in a target directory of its
/// own (`<target>/companion-test-servers`) so as not to wait on the lock of the `cargo test`
/// that runs us.
///
/// # Panics
///
/// If it is missing and cannot be built.
pub fn example_server_binary() -> PathBuf {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    static BUILDING: Mutex<()> = Mutex::new(());
    BINARY
        .get_or_init(|| {
            let _one_at_a_time = BUILDING.lock();
            // A test binary is `<target>/<profile>/deps/<name>-<hash>`.
            let exe = std::env::current_exe().expect("the path of the test binary");
            let profile_dir = exe
                .parent()
                .and_then(|deps| deps.parent())
                .expect("the test binary is in <target>/<profile>/deps");
            let built = profile_dir.join("example-server");
            if built.exists() {
                return built;
            }
            let profile = if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            };
            let target = profile_dir.parent().unwrap_or(profile_dir);
            let own = target.join("companion-test-servers");
            let mut cargo = Command::new(env!("CARGO"));
            cargo
                .args([
                    "build",
                    "--quiet",
                    "-p",
                    "mcp-assured-examples",
                    "--bin",
                    "example-server",
                ])
                .arg("--target-dir")
                .arg(&own);
            if profile == "release" {
                cargo.arg("--release");
            }
            let status = cargo.status().expect("run cargo to build example-server");
            assert!(status.success(), "building example-server failed: {status}");
            own.join(profile).join("example-server")
        })
        .clone()
}
