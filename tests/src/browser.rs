//! A real browser for the HTML reports: Debian's Chromium, headless, given a page by a
//! loopback server that records every request the browser makes, with every host name
//! resolved to that server (`--host-resolver-rules`), so that a page that loads anything
//! (a font, a stylesheet, an image, from any host) shows it as a request beside the page's
//! own. `.ci/run` installs `chromium` from Debian's packages.

use std::{
    io::{BufRead as _, BufReader, Write as _},
    net::{TcpListener, TcpStream},
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

/// The host the page is served from.
const PAGE_HOST: &str = "report.test";

/// How long Chromium may take to render a page before the test fails.
const RENDER_TIMEOUT: Duration = Duration::from_secs(90);

/// What the browser made of a page.
#[derive(Debug)]
pub struct Rendered {
    /// The DOM after the page loaded (`--dump-dom`).
    pub dom: String,
    /// Every request the page made (its own navigation and anything it loaded) while it was
    /// loaded and printed, as `METHOD PATH (Host)`; the page's own is
    /// `GET /report.html (report.test)`. A request is the page's when it is for the page's
    /// host, or carries a `Referer` (which Chromium sends with every load a page makes of
    /// another host, and never with its own background requests).
    pub requests: Vec<String>,
    /// The browser's own background requests, which no page made (component updates, say:
    /// a freshly installed Chromium asks `update.googleapis.com` whatever its flags).
    pub browser_requests: Vec<String>,
    /// The page printed to PDF (`--print-to-pdf`), in bytes.
    pub pdf: Vec<u8>,
}

/// Debian's Chromium: `MCP_ASSURED_CHROMIUM`, else `/usr/bin/chromium`.
///
/// # Panics
///
/// When it is not installed, saying how to install it.
pub fn chromium() -> PathBuf {
    let path = std::env::var_os("MCP_ASSURED_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        path.exists(),
        "{} not found: the HTML reports are proven in Debian's Chromium \
         (`apt-get install chromium`, as .ci/run does), or set MCP_ASSURED_CHROMIUM",
        path.display()
    );
    path
}

/// Serves `page` at `http://report.test/report.html` to headless Chromium, which dumps its
/// DOM and prints it to PDF; returns both and every request it made.
pub fn render(page: &Path) -> Rendered {
    let body = std::fs::read(page).unwrap_or_else(|error| panic!("{}: {error}", page.display()));
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().unwrap().port();
    let requests = Arc::new(Mutex::new(Vec::new()));
    let recorded = Arc::clone(&requests);
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            serve(stream, &body, &recorded);
        }
    });
    let profile = std::env::temp_dir().join(format!("mcp-assured-chromium-{port}"));
    let pdf_path = profile.with_extension("pdf");
    let url = "http://report.test/report.html";
    let dom = chromium_output(&profile, port, &["--dump-dom", url]);
    let pdf_flag = format!("--print-to-pdf={}", pdf_path.display());
    chromium_output(&profile, port, &["--no-pdf-header-footer", &pdf_flag, url]);
    let pdf = std::fs::read(&pdf_path).unwrap_or_default();
    let _ = std::fs::remove_file(&pdf_path);
    let _ = std::fs::remove_dir_all(&profile);
    let (page_made, browser_made): (Vec<Recorded>, Vec<Recorded>) = requests
        .lock()
        .unwrap()
        .iter()
        .cloned()
        .partition(|request| request.from_a_page);
    Rendered {
        dom: String::from_utf8_lossy(&dom).into_owned(),
        requests: page_made.into_iter().map(|request| request.line).collect(),
        browser_requests: browser_made
            .into_iter()
            .map(|request| request.line)
            .collect(),
        pdf,
    }
}

/// Runs headless Chromium with `args`, every host resolved to the recorder on `port`;
/// its stdout.
fn chromium_output(profile: &Path, port: u16, args: &[&str]) -> Vec<u8> {
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-default-apps",
            "--disable-extensions",
            // The browser's own requests (network time, hints, translation), which would
            // otherwise land on the recorder beside the page's.
            "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,Translate,MediaRouter",
            "--disable-domain-reliability",
            "--disable-client-side-phishing-detection",
            "--no-pings",
            "--virtual-time-budget=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--host-resolver-rules=MAP * 127.0.0.1:{port}"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start chromium");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("wait for chromium").is_some() {
            break;
        }
        if started.elapsed() > RENDER_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within {RENDER_TIMEOUT:?}: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("chromium's output");
    assert!(
        output.status.success(),
        "chromium {args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// One request the recorder saw.
#[derive(Debug, Clone)]
struct Recorded {
    /// `METHOD PATH (Host)`.
    line: String,
    /// Whether it is for the page's host or carries a `Referer` (a page made it).
    from_a_page: bool,
}

/// Records one request and answers it: the page at `/report.html`, 404 otherwise.
fn serve(stream: TcpStream, body: &[u8], recorded: &Mutex<Vec<Recorded>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut reader = BufReader::new(&stream);
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() || first.is_empty() {
        return;
    }
    let mut host = String::new();
    let mut from_a_page = false;
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" => break,
            Ok(_) => {
                let line = line.to_ascii_lowercase();
                if let Some(value) = line.strip_prefix("host:") {
                    host = value.trim().to_owned();
                }
                from_a_page |= line.starts_with("referer:");
            }
        }
    }
    let mut words = first.split_whitespace();
    let (method, path) = (words.next().unwrap_or("?"), words.next().unwrap_or("?"));
    recorded.lock().unwrap().push(Recorded {
        line: format!("{method} {path} ({host})"),
        from_a_page: from_a_page || host == PAGE_HOST,
    });
    let mut stream = &stream;
    let _ = if path == "/report.html" {
        write!(
            stream,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n",
            body.len()
        )
        .and_then(|()| stream.write_all(body))
    } else {
        stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    };
}
