//! `crash`: the server process dies in the middle of a call.

use rmcp::{handler::server::wrapper::Parameters, tool, tool_router};
use serde::Deserialize;

use crate::ExampleServer;

const fn default_code() -> i32 {
    3
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CrashArgs {
    /// The process exit code. Default: 3.
    #[serde(default = "default_code")]
    code: i32,
}

#[tool_router(router = crash_router, vis = "pub(super)")]
impl ExampleServer {
    #[tool(
        description = "Writes `example-server: crashing on purpose (code <code>)` to stderr and \
                       exits the whole process with `code` (default 3), without answering. \
                       Meant for the example-server binary: in-process, it ends the caller's \
                       process too."
    )]
    fn crash(&self, Parameters(CrashArgs { code }): Parameters<CrashArgs>) -> String {
        eprintln!("example-server: crashing on purpose (code {code})");
        std::process::exit(code)
    }
}
