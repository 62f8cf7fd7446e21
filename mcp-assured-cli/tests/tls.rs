//! The command line over `https://`, as curl spells it: `--cacert FILE`, `-k/--insecure`,
//! and `SSL_CERT_FILE`; an untrusted certificate exits 2 saying so and how to trust it. The
//! server is the hybrid weather server (MCP and REST) behind a TLS front whose certificate
//! comes from a CA made in the test.

mod support;

use std::net::SocketAddr;

use mcp_assured_tests::tls::{Flaw, HttpsFront, TestCa};
use support::{printed, run};
use weather_server::rest::RestOptions;

/// The hybrid weather server behind a TLS front, on a runtime of its own.
struct HttpsHybrid {
    front: HttpsFront,
    ca: TestCa,
    _runtime: tokio::runtime::Runtime,
}

fn https_hybrid(flaw: Flaw) -> HttpsHybrid {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let ca = TestCa::new();
    let certificate = ca.server_certificate(flaw);
    let front = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let backend: SocketAddr = listener.local_addr().unwrap();
        let server = weather_server::WeatherServer::new("http://127.0.0.1:1");
        tokio::spawn(weather_server::serve::serve_hybrid(
            listener,
            server,
            RestOptions::default(),
        ));
        HttpsFront::start(backend, &certificate).await
    });
    HttpsHybrid {
        front,
        ca,
        _runtime: runtime,
    }
}

#[test]
fn list_trusts_a_ca_by_cacert_or_ssl_cert_file_and_insecure_trusts_any() {
    let server = https_hybrid(Flaw::None);
    let url = server.front.url("/mcp");
    let ca = server.ca.file().to_str().unwrap();

    let untrusted = run(&["list", &url], &[]);
    assert_eq!(untrusted.status.code(), Some(3), "{}", printed(&untrusted));
    let stderr = String::from_utf8_lossy(&untrusted.stderr);
    assert!(
        stderr.starts_with(&format!("mcp-assured: TLS with {url} failed: the server's certificate is signed by an unknown issuer")),
        "{stderr}"
    );
    assert!(stderr.contains("--cacert FILE"), "{stderr}");

    for (args, env) in [
        (vec!["list", "--cacert", ca, &url], vec![]),
        (vec!["list", "-k", &url], vec![]),
        (vec!["list", "--insecure", &url], vec![]),
        (vec!["list", &url], vec![("SSL_CERT_FILE", ca)]),
    ] {
        let output = run(&args, &env);
        assert!(
            output.status.success(),
            "{args:?} {env:?}: {}",
            printed(&output)
        );
        assert!(
            printed(&output).contains("tools (4):"),
            "{}",
            printed(&output)
        );
    }
}

#[test]
fn an_expired_certificate_fails_unless_insecure() {
    let server = https_hybrid(Flaw::Expired);
    let url = server.front.url("/mcp");
    let ca = server.ca.file().to_str().unwrap();
    let expired = run(&["list", "--cacert", ca, &url], &[]);
    assert_eq!(expired.status.code(), Some(3));
    assert!(
        printed(&expired).contains("the server's certificate has expired"),
        "{}",
        printed(&expired)
    );
    let insecure = run(&["list", "-k", &url], &[]);
    assert!(insecure.status.success(), "{}", printed(&insecure));
}

#[test]
fn check_rest_reaches_both_faces_over_https_with_cacert() {
    let server = https_hybrid(Flaw::None);
    let base = server.front.url("");
    let mcp = server.front.url("/mcp");
    let ca = server.ca.file().to_str().unwrap();
    let args = ["check", "--no-server-tests", "--rest", &base, "--json"];
    let output = run(&[&args[..], &["--cacert", ca, &mcp]].concat(), &[]);
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", printed(&output)));
    let parity = report["parity_checks"].as_array().unwrap();
    assert!(!parity.is_empty(), "{report}");
    assert_eq!(
        parity[0]["message"], "the same 4 tools on both sides",
        "{report}"
    );
    // `-k` applies to both faces too.
    let untrusted = run(&[&args[..], &["-k", &mcp]].concat(), &[]);
    let report: serde_json::Value = serde_json::from_slice(&untrusted.stdout)
        .unwrap_or_else(|error| panic!("{error}: {}", printed(&untrusted)));
    assert_eq!(
        report["parity_checks"][0]["message"], "the same 4 tools on both sides",
        "-k applies to both faces: {report}"
    );
}
