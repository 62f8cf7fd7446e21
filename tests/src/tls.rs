//! HTTPS for the tests: a private CA whose certificates are made in the test ([`TestCa`]),
//! and [`HttpsFront`], a TLS-terminating front (what nginx or a load balancer is in
//! production) that serves one of them on a free loopback port and passes the decrypted
//! bytes to a plain-HTTP server behind it. Every HTTP face of the server behind (streamable
//! HTTP, HTTP+SSE, REST) is then reached over real TLS.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
};

use rcgen::{
    BasicConstraints, CertificateParams, DnType, ExtendedKeyUsagePurpose, IsCa, Issuer, KeyPair,
    KeyUsagePurpose, date_time_ymd,
};
use tokio::{
    net::{TcpListener, TcpStream},
    task::JoinHandle,
};
use tokio_rustls::{
    TlsAcceptor,
    rustls::{
        ServerConfig,
        crypto::aws_lc_rs,
        pki_types::{CertificateDer, PrivateKeyDer, pem::PemObject},
    },
};

/// A private certificate authority, made fresh for a test, with its certificate written to
/// a file for the command line's `--cacert` and `SSL_CERT_FILE` (removed on drop).
pub struct TestCa {
    issuer: Issuer<'static, KeyPair>,
    pem: String,
    file: PathBuf,
}

/// A server certificate and its key, in PEM.
#[derive(Debug, Clone)]
pub struct ServerCertificate {
    pub certificate_pem: String,
    pub key_pem: String,
}

/// How a server certificate is wrong, if it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flaw {
    /// Valid, for `127.0.0.1` and `localhost`.
    None,
    /// For `127.0.0.1` and `localhost`, but expired in 2020.
    Expired,
    /// Valid, but for `mcp.example.com` only.
    OtherHost,
}

impl ServerCertificate {
    /// The certificate and key written to files, for a server that reads them (removed on
    /// drop).
    ///
    /// # Panics
    ///
    /// If they cannot be written.
    pub fn files(&self) -> CertificateFiles {
        let stem = unique_path("server");
        let files = CertificateFiles {
            certificate: stem.with_extension("crt.pem"),
            key: stem.with_extension("key.pem"),
        };
        std::fs::write(&files.certificate, &self.certificate_pem).expect("write the certificate");
        std::fs::write(&files.key, &self.key_pem).expect("write the key");
        files
    }
}

/// A server certificate's files, from [`ServerCertificate::files`].
#[derive(Debug)]
pub struct CertificateFiles {
    certificate: PathBuf,
    key: PathBuf,
}

impl CertificateFiles {
    pub fn certificate(&self) -> &Path {
        &self.certificate
    }

    pub fn key(&self) -> &Path {
        &self.key
    }
}

impl Drop for CertificateFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.certificate);
        let _ = std::fs::remove_file(&self.key);
    }
}

/// A path in the temporary directory no other test uses.
fn unique_path(what: &str) -> PathBuf {
    static SEQUENCE: AtomicUsize = AtomicUsize::new(0);
    std::env::temp_dir().join(format!(
        "mcp-assured-test-{what}-{}-{}",
        std::process::id(),
        SEQUENCE.fetch_add(1, Ordering::Relaxed)
    ))
}

impl TestCa {
    /// A new CA.
    ///
    /// # Panics
    ///
    /// If the key or certificate cannot be made or the file written.
    pub fn new() -> Self {
        let file = unique_path("ca").with_extension("pem");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
        // A name of its own: a chain is matched to its issuer by name first.
        let name = format!("mcp-assured test CA {}", file.display());
        params.distinguished_name.push(DnType::CommonName, name);
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let key = KeyPair::generate().expect("CA key");
        let pem = params.self_signed(&key).expect("CA certificate").pem();
        std::fs::write(&file, &pem).expect("write the CA certificate");
        TestCa {
            issuer: Issuer::new(params, key),
            pem,
            file,
        }
    }

    /// The CA's certificate, PEM.
    pub fn pem(&self) -> &str {
        &self.pem
    }

    /// The file holding [`pem`](Self::pem).
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// A server certificate signed by this CA.
    ///
    /// # Panics
    ///
    /// If it cannot be made.
    pub fn server_certificate(&self, flaw: Flaw) -> ServerCertificate {
        let names = match flaw {
            Flaw::None | Flaw::Expired => vec!["127.0.0.1".to_owned(), "localhost".to_owned()],
            Flaw::OtherHost => vec!["mcp.example.com".to_owned()],
        };
        let mut params = CertificateParams::new(names).expect("server params");
        params
            .distinguished_name
            .push(DnType::CommonName, "mcp-assured test server");
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        if flaw == Flaw::Expired {
            params.not_before = date_time_ymd(2019, 1, 1);
            params.not_after = date_time_ymd(2020, 1, 1);
        }
        let key = KeyPair::generate().expect("server key");
        let certificate = params
            .signed_by(&key, &self.issuer)
            .expect("server certificate");
        ServerCertificate {
            certificate_pem: certificate.pem(),
            key_pem: key.serialize_pem(),
        }
    }
}

impl std::fmt::Debug for TestCa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestCa").field("file", &self.file).finish()
    }
}

impl Default for TestCa {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for TestCa {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.file);
    }
}

/// A TLS front on a free loopback port, passing each connection's decrypted bytes to a
/// plain-HTTP server. Stops when dropped.
#[derive(Debug)]
pub struct HttpsFront {
    address: SocketAddr,
    task: JoinHandle<()>,
}

impl HttpsFront {
    /// Serves `certificate` in front of the plain-HTTP server at `backend`.
    ///
    /// # Panics
    ///
    /// If the certificate is unusable or no port can be bound.
    pub async fn start(backend: SocketAddr, certificate: &ServerCertificate) -> HttpsFront {
        let chain = vec![
            CertificateDer::from_pem_slice(certificate.certificate_pem.as_bytes())
                .expect("certificate PEM"),
        ];
        let key = PrivateKeyDer::from_pem_slice(certificate.key_pem.as_bytes()).expect("key PEM");
        let config = ServerConfig::builder_with_provider(Arc::new(aws_lc_rs::default_provider()))
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .expect("server TLS config");
        let acceptor = TlsAcceptor::from(Arc::new(config));
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let address = listener.local_addr().expect("local address");
        let task = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let acceptor = acceptor.clone();
                tokio::spawn(async move {
                    // A client that rejects the certificate ends the handshake: nothing to do.
                    let Ok(mut decrypted) = acceptor.accept(client).await else {
                        return;
                    };
                    let Ok(mut server) = TcpStream::connect(backend).await else {
                        return;
                    };
                    let _ = tokio::io::copy_bidirectional(&mut decrypted, &mut server).await;
                });
            }
        });
        HttpsFront { address, task }
    }

    /// `https://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("https://{}{path}", self.address)
    }

    /// `https://localhost:PORT{path}`.
    pub fn localhost_url(&self, path: &str) -> String {
        format!("https://localhost:{}{path}", self.address.port())
    }
}

impl Drop for HttpsFront {
    fn drop(&mut self) {
        self.task.abort();
    }
}
