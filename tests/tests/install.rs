//! `fixture::install` inside `#[mcp_test]`: time spent installing a server's packages does not
//! count against the test's timeout, and a failed install fails the test with its cause.
//!
//! The installs here make a venv with a stand-in interpreter (a shell script), so they are
//! as slow as the test wants and need no network: what is tested is the timeout and the
//! reporting, not pip (the any-language example installs real packages from PyPI and npm).

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

use mcp_assured::{McpClient, fixture::install::PythonVenv, mcp_test};
use mcp_assured_tests::peers::SELFTEST_SERVER;

/// A Python project whose "interpreter" takes `seconds` to make a venv (whose `python`
/// succeeds at anything), in a directory of its own for this process and `name`.
fn slow_project(name: &str, seconds: u32) -> PythonVenv {
    let dir =
        std::env::temp_dir().join(format!("mcp-assured-install-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    write_slow_project(&dir, seconds);
    slow_venv(dir)
}

/// The venv of the project [`write_slow_project`] wrote in `dir`.
fn slow_venv(dir: PathBuf) -> PythonVenv {
    let interpreter = dir.join("slow-python");
    PythonVenv::new(dir).interpreter(interpreter)
}

/// Writes [`slow_project`]'s files into `dir`; each venv its interpreter makes adds a line
/// to `dir/runs`.
fn write_slow_project(dir: &std::path::Path, seconds: u32) {
    fs::write(dir.join("requirements.txt"), "# nothing\n").unwrap();
    let interpreter = dir.join("slow-python");
    fs::write(
        &interpreter,
        format!(
            "#!/bin/sh\n# called as: slow-python -m venv VENV\necho run >> runs\nsleep {seconds}\n\
             mkdir -p \"$3/bin\"\nprintf '#!/bin/sh\\nexit 0\\n' > \"$3/bin/python\"\n\
             chmod +x \"$3/bin/python\"\n"
        ),
    )
    .unwrap();
    fs::set_permissions(&interpreter, fs::Permissions::from_mode(0o755)).unwrap();
}

/// Installs a project that takes 3 s, then answers `python3` to start the server with.
fn python3_after_a_slow_install() -> PathBuf {
    let project = slow_project("slow", 3);
    let venv_python = project.install().unwrap();
    assert!(venv_python.ends_with(".venv-mcp-assured/bin/python"));
    let _ = fs::remove_dir_all(venv_python.ancestors().nth(3).unwrap());
    "python3".into()
}

/// The install takes 3 s of a 2 s timeout: the test passes, since installing is not testing.
#[mcp_test(server = command(python3_after_a_slow_install(), SELFTEST_SERVER), timeout = "2s")]
async fn install_time_is_added_to_the_timeout(client: McpClient) {
    client.ping().await.unwrap();
}

/// Set for the copies of this binary `concurrent_processes_install_once` starts: the
/// project directory their victim test installs.
const SHARED_PROJECT: &str = "MCP_ASSURED_INSTALL_SHARED_PROJECT";

/// Four processes (as `cargo nextest` runs tests) install the same project at once: the
/// lock lets one install it and the others find it installed, so the venv is made once (in
/// its own directory: the project's `.venv` is not touched).
#[test]
fn concurrent_processes_install_once() {
    let dir =
        std::env::temp_dir().join(format!("mcp-assured-install-shared-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    write_slow_project(&dir, 1);
    // A developer's own venv, which the install must leave alone.
    fs::create_dir_all(dir.join(".venv")).unwrap();
    fs::write(dir.join(".venv/mine"), "").unwrap();
    let started = std::time::Instant::now();
    let copies: Vec<_> = (0..4)
        .map(|_| {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args([
                    "--exact",
                    "victim::installs_the_shared_project",
                    "--nocapture",
                ])
                .env(SHARED_PROJECT, &dir)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for copy in copies {
        let output = copy.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(String::from_utf8_lossy(&output.stdout).contains("1 passed"));
    }
    // All four ran at once: one 1 s install, not four in turn.
    assert!(
        started.elapsed() < std::time::Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        fs::read_to_string(dir.join("runs"))
            .unwrap()
            .lines()
            .count(),
        1
    );
    fs::remove_dir_all(&dir).unwrap();
}

mod victim {
    use super::*;

    /// Run by `concurrent_processes_install_once`; on its own, it does nothing.
    #[test]
    fn installs_the_shared_project() {
        if let Some(dir) = std::env::var_os(super::SHARED_PROJECT) {
            let python = slow_venv(PathBuf::from(dir)).install().unwrap();
            assert!(python.exists());
        }
    }
}

fn python3_after_a_failed_install() -> PathBuf {
    let project = slow_project("failing", 0).requirements("missing-requirements.txt");
    project.install().unwrap();
    "python3".into()
}

/// A failed install fails the test, saying what was missing and what to do.
#[test]
fn a_failed_install_fails_the_test_with_its_cause() {
    let panic = std::panic::catch_unwind(python3_after_a_failed_install).unwrap_err();
    let _ = fs::remove_dir_all(std::env::temp_dir().join(format!(
        "mcp-assured-install-failing-{}",
        std::process::id()
    )));
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(
        message.contains("mcp-assured could not install the Python project's venv in"),
        "{message}"
    );
    assert!(
        message.contains("missing-requirements.txt does not exist; it was given as an input"),
        "{message}"
    );
}

/// Without `requirements.txt`, `pyproject.toml` or a named requirements file, there is
/// nothing to install: said before anything runs.
#[test]
fn a_project_with_nothing_to_install_is_refused() {
    let dir =
        std::env::temp_dir().join(format!("mcp-assured-install-empty-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let error = PythonVenv::new(&dir).install().unwrap_err();
    assert!(
        error
            .to_string()
            .contains("It has neither `requirements.txt` nor `pyproject.toml`"),
        "{error}"
    );
    assert!(!dir.join(".venv-mcp-assured").exists());
    fs::remove_dir_all(&dir).unwrap();
}
