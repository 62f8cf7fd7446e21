//! Measures what `#[mcp_test]` costs to set up: from nothing to a ready client (runtime,
//! server, `initialize`), and the whole fixture (the same plus teardown), for each server
//! source, against the same steps done by hand with rmcp in the same process (the baseline).
//!
//! ```sh
//! cargo run --release -p mcp-assured-examples --example fixture_startup [-- RUNS]
//! ```
//!
//! The child servers are this very program, re-run with `--serve-stdio` or `--serve-http`.

use std::{
    cell::Cell,
    error::Error,
    net::Ipv4Addr,
    path::Path,
    process::Stdio,
    rc::Rc,
    time::{Duration, Instant},
};

// The attribute's own runtime, as `#[mcp_test]` expands to it.
use mcp_assured::__private::{ServerSource, TestSettings, Transport, run, start as start_server};
use mcp_assured_examples::{ExampleServer, HttpOptions, serve::serve_streamable_http};
use rmcp::{
    ServiceExt,
    transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess},
};
use tokio::net::{TcpListener, TcpStream};

type BoxResult<T> = Result<T, Box<dyn Error>>;

fn main() -> BoxResult<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--serve-stdio") {
        return serve(|| async {
            let running = ExampleServer::new().serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
            Ok(())
        });
    }
    if let Some(port) = args
        .iter()
        .position(|a| a == "--serve-http")
        .map(|i| &args[i + 1])
    {
        let port: u16 = port.parse()?;
        return serve(move || async move {
            let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
            serve_streamable_http(listener, HttpOptions::default()).await?;
            Ok(())
        });
    }
    let runs: u32 = args.get(1).map(|n| n.parse()).transpose()?.unwrap_or(40);
    let me = std::env::current_exe()?;

    println!(
        "#[mcp_test] fixture start-up, {runs} runs each after 3 warm-up runs, release build\n"
    );
    println!(
        "| server source | ready client | baseline (rmcp by hand) | ratio | whole fixture incl. teardown |"
    );
    println!("| --- | --- | --- | --- | --- |");
    row(
        "in-process `service(..)`",
        runs * 5,
        || ServerSource::service(ExampleServer::new()),
        raw_in_process,
    )?;
    row(
        "stdio child `bin(..)`",
        runs,
        || ServerSource::program(&me).program_arg("--serve-stdio"),
        || raw_stdio(&me),
    )?;
    row(
        "HTTP child `bin(..)`, transport = http",
        runs,
        || {
            ServerSource::program(&me)
                .transport(Transport::Http)
                .arg("--serve-http")
                .arg("{port}")
        },
        || raw_http(&me),
    )?;
    Ok(())
}

fn serve<F, Fut>(server: F) -> BoxResult<()>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = BoxResult<()>>,
{
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(server())
}

/// One table row: `runs` fixtures against `runs` baselines, interleaved.
fn row(
    label: &str,
    runs: u32,
    source: impl Fn() -> ServerSource,
    baseline: impl Fn() -> BoxResult<Duration>,
) -> BoxResult<()> {
    let (mut ready, mut whole, mut raw) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..runs + 3 {
        let (r, w) = fixture(source());
        let b = baseline()?;
        if i >= 3 {
            ready.push(r);
            whole.push(w);
            raw.push(b);
        }
    }
    let ms = |times: &[Duration]| mean(times).as_secs_f64() * 1e3;
    println!(
        "| {label} | {:.2} ms | {:.2} ms | {:.2} | {:.2} ms |",
        ms(&ready),
        ms(&raw),
        ms(&ready) / ms(&raw),
        ms(&whole),
    );
    Ok(())
}

/// Runs an `#[mcp_test]` fixture with an empty body: time to a ready client, and in all.
fn fixture(source: ServerSource) -> (Duration, Duration) {
    let start = Instant::now();
    let ready = Rc::new(Cell::new(Duration::ZERO));
    let ready_at = ready.clone();
    run(
        TestSettings::new("fixture_startup"),
        move |ctx| async move {
            start_server(&ctx, source).await?;
            ready_at.set(start.elapsed());
            Ok(())
        },
    );
    (ready.get(), start.elapsed())
}

fn runtime() -> BoxResult<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?)
}

fn raw_in_process() -> BoxResult<Duration> {
    let start = Instant::now();
    let runtime = runtime()?;
    let ready = runtime.block_on(async {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        let server = tokio::spawn(async move { ExampleServer::new().serve(server_io).await });
        let client = ().serve(client_io).await?;
        let ready = start.elapsed();
        client.cancel().await?;
        if let Ok(Ok(server)) = server.await {
            server.cancel().await?;
        }
        BoxResult::Ok(ready)
    })?;
    Ok(ready)
}

fn raw_stdio(me: &Path) -> BoxResult<Duration> {
    let start = Instant::now();
    let runtime = runtime()?;
    runtime.block_on(async {
        let child = TokioChildProcess::new(tokio::process::Command::new(me).configure(|c| {
            c.arg("--serve-stdio");
        }))?;
        let client = ().serve(child).await?;
        let ready = start.elapsed();
        client.cancel().await?;
        Ok(ready)
    })
}

fn raw_http(me: &Path) -> BoxResult<Duration> {
    let start = Instant::now();
    let runtime = runtime()?;
    runtime.block_on(async {
        let port = mcp_assured::fixture::free_port()?;
        let mut child = tokio::process::Command::new(me)
            .args(["--serve-http", &port.to_string()])
            .stdin(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let mut pause = Duration::from_millis(2);
        while TcpStream::connect((Ipv4Addr::LOCALHOST, port))
            .await
            .is_err()
        {
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(50));
        }
        let url = format!("http://127.0.0.1:{port}/mcp");
        let client = ().serve(StreamableHttpClientTransport::from_uri(url)).await?;
        let ready = start.elapsed();
        client.cancel().await?;
        child.kill().await?;
        Ok(ready)
    })
}

fn mean(times: &[Duration]) -> Duration {
    times.iter().sum::<Duration>() / u32::try_from(times.len()).unwrap_or(u32::MAX)
}
