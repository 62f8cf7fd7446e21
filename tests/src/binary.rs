//! The binaries of the workspace's own packages, for tests that run them as processes.

use std::{
    collections::HashMap,
    path::PathBuf,
    process::Command,
    sync::{Mutex, PoisonError},
};

/// The binary `name` of workspace package `package`, built from the sources as they are.
///
/// Built by `cargo build -p <package> --bin <name>` into the target directory of the test
/// binary that asks (cargo holds that directory's lock while it compiles, not while the
/// tests run), which finds it up to date in a moment when nothing changed, and builds only
/// what the package's own features change otherwise: the dependencies the tests were built
/// with are shared. (A target directory of its own, as before, built the five binaries'
/// dependencies a second time: 530 CPU-seconds of a cold CI run.) A binary next to the test
/// binary is not taken as it is: `cargo test` builds only the binaries of packages with
/// integration tests, so one there may be left from an earlier build of older sources. (A
/// package's own tests use `CARGO_BIN_EXE_<name>` instead.)
///
/// Features resolved for one package differ from the workspace's, so this build is another
/// file than `cargo test --workspace`'s, and cargo links it to `<target>/<profile>/<name>`
/// anew (unlink, then link: microseconds) the first time (when it is that file already,
/// cargo leaves it). A process that starts that path at that instant, in a test running
/// beside this one, would not find it: under `cargo test` the test binaries run one after
/// another; under nextest the `example-server-binary` test group (`.config/nextest.toml`)
/// runs the example server's own tests and `killed_runs` and `ports`, which build it here,
/// one at a time. A new test of this crate that asks for a binary another package's tests
/// start belongs in such a group.
///
/// # Panics
///
/// If it cannot be built.
pub fn workspace_binary(package: &str, name: &str) -> PathBuf {
    // Held while building, so tests of one process build each binary once, one at a time.
    static FOUND: Mutex<Option<HashMap<String, PathBuf>>> = Mutex::new(None);
    let mut found = FOUND.lock().unwrap_or_else(PoisonError::into_inner);
    let found = found.get_or_insert_with(HashMap::new);
    if let Some(path) = found.get(name) {
        return path.clone();
    }
    // A test binary is `<target>/<profile>/deps/<name>-<hash>`.
    let exe = std::env::current_exe().expect("the path of the test binary");
    let profile_dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test binary is in <target>/<profile>/deps");
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    let target = profile_dir.parent().unwrap_or(profile_dir);
    let mut cargo = Command::new(env!("CARGO"));
    cargo
        .args(["build", "--quiet", "-p", package, "--bin", name])
        .arg("--target-dir")
        .arg(target);
    if profile == "release" {
        cargo.arg("--release");
    }
    let status = cargo
        .status()
        .unwrap_or_else(|e| panic!("run cargo to build {name}: {e}"));
    assert!(status.success(), "building {name} failed: {status}");
    let path = target.join(profile).join(name);
    found.insert(name.to_owned(), path.clone());
    path
}
