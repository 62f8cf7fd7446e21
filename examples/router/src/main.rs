//! `router`: the router as a process, configured by its environment (see [`router::Config`]).
//! Its stderr names the upstreams it could not list, and carries its child upstreams' stderr.
//!
//! It serves one client, over stdio: its upstream connections belong to that client, who
//! hears of their changed tools and answers their elicitations. (Over streamable HTTP, rmcp
//! serves each `2026-07-28` request with a fresh handler, so connections would have to be
//! shared between clients, and an elicitation routed back to the one whose call asked.)

use std::{error::Error, process::ExitCode};

use rmcp::ServiceExt;
use router::{Config, Router};

#[tokio::main]
async fn main() -> Result<ExitCode, Box<dyn Error>> {
    let config = match Config::from_env() {
        Ok(config) => config,
        Err(problem) => {
            eprintln!("router: {problem}");
            return Ok(ExitCode::from(2));
        }
    };
    let admin = config.admin_address.clone();
    let router = Router::new(config);
    if let Some(address) = admin {
        match router::admin::serve(&address, router.http_tools().clone()).await {
            Ok(bound) => eprintln!("router: admin API at http://{bound}/tools"),
            Err(error) => {
                eprintln!("router: ROUTER_ADMIN_ADDR {address}: {error}");
                return Ok(ExitCode::from(2));
            }
        }
    }
    router
        .serve(rmcp::transport::stdio())
        .await?
        .waiting()
        .await?;
    Ok(ExitCode::SUCCESS)
}
