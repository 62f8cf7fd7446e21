//! [`Tls`]: whom the harness trusts over `https://`, in one place for every client that
//! speaks HTTP (streamable HTTP, HTTP+SSE, the REST client, the CLI, the companion), and how a
//! failed handshake is told apart from a refused connection.
//!
//! `https://` needs the `tls` feature (off by default: rustls's crypto backend is the largest C
//! build of the tree). Without it the settings still compile, and a client given an `https://`
//! URI or any of them fails to build with an error that says which feature to turn on.

#[cfg(feature = "http")]
use std::{error::Error as StdError, io};
use std::{
    fmt,
    path::{Path, PathBuf},
};

#[cfg(feature = "tls")]
use rustls::{CertificateError, Error as RustlsError};

#[cfg(feature = "http")]
use crate::error::{Error, Result, TlsProblem};

/// Which server certificates the client accepts over `https://`.
///
/// By default, those the platform trusts: the system's CA store, or on Linux the PEM bundle
/// named by `SSL_CERT_FILE` (and directories in `SSL_CERT_DIR`) when set, as curl and OpenSSL
/// read it (macOS and Windows verify with the system's own store).
/// Add a private CA with [`ca_certificate_pem`](Self::ca_certificate_pem) or
/// [`ca_certificate_file`](Self::ca_certificate_file) (it is trusted besides the platform's),
/// or, for a throwaway self-signed test server, accept any certificate with
/// [`accept_invalid_certificates`](Self::accept_invalid_certificates).
///
/// The builders have the same setters; give a whole `Tls` to
/// [`ClientBuilder::tls`](crate::ClientBuilder::tls) or
/// [`RestClientBuilder::tls`](crate::rest::RestClientBuilder::tls) to share it.
///
/// Needs the `tls` feature to connect.
///
/// ```
/// use mcp_assured::{McpAssured, Tls};
///
/// let tls = Tls::new().ca_certificate_file("tests/certs/ca.pem");
/// assert_eq!(tls.describe(), "the platform's CAs and tests/certs/ca.pem");
///
/// let client = McpAssured::client()
///     .base_uri("https://localhost:8443/mcp")
///     .tls(tls);
/// ```
#[derive(Clone, Default, PartialEq, Eq)]
#[must_use = "TLS settings do nothing until a client builder is given them"]
pub struct Tls {
    authorities: Vec<Authority>,
    accept_invalid: bool,
}

/// A CA certificate to trust, as given.
#[derive(Clone, PartialEq, Eq)]
enum Authority {
    Pem(Vec<u8>),
    File(PathBuf),
}

impl Tls {
    /// The platform's trust roots only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Also trusts the CA certificate(s) in this PEM text (one or a bundle).
    pub fn ca_certificate_pem(mut self, pem: impl Into<Vec<u8>>) -> Self {
        self.authorities.push(Authority::Pem(pem.into()));
        self
    }

    /// Also trusts the CA certificate(s) in this PEM file, read when the client is built.
    pub fn ca_certificate_file(mut self, path: impl AsRef<Path>) -> Self {
        self.authorities
            .push(Authority::File(path.as_ref().to_path_buf()));
        self
    }

    /// Accepts any certificate, expired, self-signed or for another host, as curl's
    /// `-k/--insecure` does. For test servers only: the connection is encrypted but the server
    /// is not authenticated.
    pub fn accept_invalid_certificates(mut self, accept: bool) -> Self {
        self.accept_invalid = accept;
        self
    }

    /// Whether any certificate is accepted.
    pub fn accepts_invalid_certificates(&self) -> bool {
        self.accept_invalid
    }

    /// What is trusted, in words: `the platform's CAs and ca.pem`, or `any certificate
    /// (insecure)`.
    pub fn describe(&self) -> String {
        if self.accept_invalid {
            return "any certificate (insecure)".to_owned();
        }
        let mut parts = vec!["the platform's CAs".to_owned()];
        parts.extend(self.authorities.iter().map(|authority| match authority {
            Authority::Pem(_) => "a CA certificate given as PEM".to_owned(),
            Authority::File(path) => path.display().to_string(),
        }));
        parts.join(" and ")
    }

    /// A reqwest client builder that trusts what this says, for the caller to finish.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] for a CA file that cannot be read or PEM that holds no
    /// certificate.
    #[cfg(feature = "tls")]
    pub(crate) fn client_builder(&self) -> Result<reqwest::ClientBuilder> {
        let mut builder = reqwest::Client::builder().tls_backend_rustls();
        for authority in &self.authorities {
            builder = builder.tls_certs_merge(authority.certificates()?);
        }
        Ok(builder.tls_danger_accept_invalid_certs(self.accept_invalid))
    }

    /// A reqwest client builder for plain `http://`; any TLS setting is an error that says
    /// which feature to turn on.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] when anything but the defaults was set.
    #[cfg(all(feature = "http", not(feature = "tls")))]
    pub(crate) fn client_builder(&self) -> Result<reqwest::ClientBuilder> {
        if *self != Tls::default() {
            return Err(Error::invalid(
                "TLS settings",
                format!("they trust {}, but {NEEDS_FEATURE}", self.describe()),
            ));
        }
        Ok(reqwest::Client::builder())
    }
}

/// What a client told to use TLS says without the `tls` feature.
#[cfg(all(feature = "http", not(feature = "tls")))]
const NEEDS_FEATURE: &str = "TLS needs mcp-assured's `tls` feature: \
    `mcp-assured = { version = \"0.1\", features = [\"tls\"] }` in Cargo.toml";

/// Checks that `url` can be reached by this build: `https://` needs the `tls` feature.
///
/// # Errors
///
/// [`Error::InvalidInput`] naming the feature, for an `https://` URL without it.
#[cfg(feature = "http")]
pub(crate) fn require_for(url: &url::Url, what: &str) -> Result<()> {
    #[cfg(not(feature = "tls"))]
    if url.scheme() == "https" {
        return Err(Error::invalid(
            what,
            format!("`{url}` is https://, and {NEEDS_FEATURE}"),
        ));
    }
    let _ = (url, what);
    Ok(())
}

#[cfg(feature = "tls")]
impl Authority {
    fn certificates(&self) -> Result<Vec<reqwest::Certificate>> {
        let (pem, origin) = match self {
            Authority::Pem(pem) => (pem.clone(), "the CA certificate PEM".to_owned()),
            Authority::File(path) => {
                let pem = std::fs::read(path).map_err(|error| {
                    Error::invalid(
                        "CA certificate file",
                        format!("could not read {}: {error}", path.display()),
                    )
                })?;
                (pem, path.display().to_string())
            }
        };
        let certificates = reqwest::Certificate::from_pem_bundle(&pem)
            .map_err(|error| Error::invalid("CA certificate", format!("{origin}: {error}")))?;
        if certificates.is_empty() {
            return Err(Error::invalid(
                "CA certificate",
                format!("{origin} holds no `-----BEGIN CERTIFICATE-----` block"),
            ));
        }
        Ok(certificates)
    }
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls")
            .field("trusts", &self.describe())
            .finish()
    }
}

/// The TLS failure in an error's source chain, if the error is one: what was wrong and
/// rustls's words for it.
#[cfg(feature = "tls")]
pub(crate) fn tls_failure(error: &(dyn StdError + 'static)) -> Option<(TlsProblem, String)> {
    causes(error)
        .find_map(|cause| cause.downcast_ref::<RustlsError>())
        .map(|rustls| (problem_of(rustls), rustls.to_string()))
}

/// Never a TLS failure without TLS.
#[cfg(all(feature = "http", not(feature = "tls")))]
pub(crate) fn tls_failure(_error: &(dyn StdError + 'static)) -> Option<(TlsProblem, String)> {
    None
}

/// Whether the chain holds a refused TCP connection: nothing listens there.
#[cfg(feature = "http")]
pub(crate) fn connection_refused(error: &(dyn StdError + 'static)) -> bool {
    causes(error).any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::ConnectionRefused)
    })
}

/// An error and its causes. An `io::Error`'s `source` skips the error it wraps (it returns
/// that error's source), so its cause is taken with `get_ref` instead.
#[cfg(feature = "http")]
fn causes<'a>(
    error: &'a (dyn StdError + 'static),
) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    std::iter::successors(Some(error), |&error| {
        match error.downcast_ref::<io::Error>() {
            Some(io) => io.get_ref().map(|inner| inner as &(dyn StdError + 'static)),
            None => error.source(),
        }
    })
}

#[cfg(feature = "tls")]
fn problem_of(error: &RustlsError) -> TlsProblem {
    match error {
        RustlsError::InvalidCertificate(certificate) => match certificate {
            CertificateError::UnknownIssuer => TlsProblem::UnknownIssuer,
            CertificateError::Expired | CertificateError::ExpiredContext { .. } => {
                TlsProblem::Expired
            }
            CertificateError::NotValidYet | CertificateError::NotValidYetContext { .. } => {
                TlsProblem::NotYetValid
            }
            CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. } => {
                TlsProblem::WrongHostName
            }
            CertificateError::Revoked => TlsProblem::Revoked,
            _ => TlsProblem::BadCertificate,
        },
        RustlsError::InvalidMessage(_) | RustlsError::InappropriateMessage { .. } => {
            TlsProblem::NotTls
        }
        _ => TlsProblem::Handshake,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_what_is_trusted() {
        assert_eq!(Tls::new().describe(), "the platform's CAs");
        let tls = Tls::new()
            .ca_certificate_pem("-----BEGIN CERTIFICATE-----")
            .ca_certificate_file("/etc/ca.pem");
        assert_eq!(
            tls.describe(),
            "the platform's CAs and a CA certificate given as PEM and /etc/ca.pem"
        );
        assert_eq!(
            format!("{:?}", tls.clone().accept_invalid_certificates(true)),
            r#"Tls { trusts: "any certificate (insecure)" }"#
        );
    }

    #[test]
    #[cfg(feature = "tls")]
    fn a_missing_or_empty_ca_is_invalid_input() {
        let missing = Tls::new()
            .ca_certificate_file("/nonexistent/ca.pem")
            .client_builder()
            .unwrap_err()
            .to_string();
        assert!(
            missing.contains("could not read /nonexistent/ca.pem"),
            "{missing}"
        );
        let empty = Tls::new()
            .ca_certificate_pem("not a certificate")
            .client_builder()
            .unwrap_err()
            .to_string();
        assert!(
            empty.contains("holds no `-----BEGIN CERTIFICATE-----`"),
            "{empty}"
        );
    }

    #[test]
    #[cfg(all(feature = "http", not(feature = "tls")))]
    fn without_the_feature_https_and_tls_settings_name_it() {
        let url = url::Url::parse("https://localhost:8443/mcp").unwrap();
        let https = require_for(&url, "base URI").unwrap_err().to_string();
        assert!(https.contains("`tls` feature"), "{https}");
        assert!(https.contains(r#"features = ["tls"]"#), "{https}");
        let plain = url::Url::parse("http://localhost:8080/mcp").unwrap();
        assert!(require_for(&plain, "base URI").is_ok());
        assert!(Tls::new().client_builder().is_ok());
        let settings = Tls::new()
            .accept_invalid_certificates(true)
            .client_builder()
            .unwrap_err()
            .to_string();
        assert!(settings.contains("`tls` feature"), "{settings}");
    }

    #[test]
    #[cfg(feature = "tls")]
    fn finds_rustls_errors_inside_io_errors() {
        let wrapped = io::Error::other(RustlsError::InvalidCertificate(
            CertificateError::NotValidForName,
        ));
        let outer = io::Error::other(wrapped);
        let (problem, reason) = tls_failure(&outer).unwrap();
        assert_eq!(problem, TlsProblem::WrongHostName);
        assert!(reason.contains("invalid peer certificate"), "{reason}");
        assert_eq!(tls_failure(&io::Error::other("plain")), None);
        let refused = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert!(connection_refused(&refused));
        assert!(!connection_refused(&outer));
    }
}
