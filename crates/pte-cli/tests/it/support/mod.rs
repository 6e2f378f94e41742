//! Helpers the CLI test files share: where the corpus is, running the built
//! `pte` and reading what it printed, and the inputs the commands that write
//! take (the corpus itself comes from pte-testkit). `save` holds what the
//! save-safety modules add.

#![allow(dead_code, clippy::unwrap_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;
use std::process::{Command, Output};

/// The `pte` binary of this package.
pub const PTE: &str = env!("CARGO_BIN_EXE_pte");

pub use pte_testkit::{corpus, corpus_bytes, corpus_dir as corpus_root, corpus_files, corpus_programs, model};

pub mod save;

/// `pte-runner-demo`, the protocol's demonstration runner: an example of
/// this package (so `cargo install` leaves it out), which `cargo test`
/// builds beside `pte`, in its target directory's `examples/`.
pub fn demo_runner() -> std::path::PathBuf {
    let dir = Path::new(PTE).parent().unwrap().join("examples");
    let p = dir.join(format!("pte-runner-demo{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.is_file(),
        "{} is missing: `cargo test -p pte-cli` builds it, a run of `--test it` alone does not \
         (cargo build -p pte-cli --example pte-runner-demo)",
        p.display()
    );
    p
}

/// Runs `pte args` and waits for what it printed.
pub fn pte(args: &[&str]) -> Output {
    Command::new(PTE).args(args).output().unwrap()
}

/// Runs `pte args`, which must fail with exit status `code`, saying
/// `says` on stderr.
pub fn refused(args: &[&str], code: i32, says: &str) -> Output {
    let o = pte(args);
    assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
    assert!(stderr(&o).contains(says), "{}", stderr(&o));
    o
}

/// Runs `pte args` in `dir`; a command still running after a minute is
/// killed and fails the test (a FIFO must never block a command).
pub fn pte_bounded(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(PTE)
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            panic!("pte {args:?} hung");
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    child.wait_with_output().unwrap()
}

/// A path as a command-line argument (the test paths are all UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What a command printed on stdout, which must be UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What a command printed on stderr, for assertions and their messages.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Whether Graphviz's `dot` runs here; when not, says that the test calling
/// this is skipped.
pub fn graphviz_installed() -> bool {
    let found = Command::new("dot").arg("-V").output().is_ok();
    if !found {
        eprintln!("skipped: Graphviz's dot is not installed");
    }
    found
}

/// Permission bits of `p`.
pub fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

/// A file's inode, kept open so that its number cannot be reused by the
/// file that replaces it (a new inode then proves the file was replaced).
pub struct Held {
    pub ino: u64,
    _file: std::fs::File,
}

impl Held {
    pub fn new(p: &Path) -> Held {
        let file = std::fs::File::open(p).unwrap();
        Held { ino: file.metadata().unwrap().ino(), _file: file }
    }
}

/// An f32 tensor of `shape` holding `v`.
pub fn f32s(shape: Vec<u64>, v: &[f32]) -> pte_ptn::PtnTensor<'static> {
    pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap()
}

/// Copies one input of each kind the commands take into `dir`, under the
/// short names the command tables use (`in.pte`, `x.pte`, `e.ptd`, ...).
pub fn copy_inputs(dir: &Path) {
    for (from, to) in [
        ("add/model.pte", "in.pte"),
        ("xnnpack_mlp/model.pte", "x.pte"),
        ("external/model.pte", "e.pte"),
        ("external/_default_external_constant.ptd", "e.ptd"),
        ("bundled/model.bpte", "b.bpte"),
        ("bundled/model.pte", "p.pte"),
        ("native_ptn/model.ptn", "pkg.ptn"),
        ("add/io.safetensors", "io.safetensors"),
    ] {
        std::fs::copy(corpus(from), dir.join(to)).unwrap();
    }
}
