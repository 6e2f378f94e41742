//! Helpers the CLI test files share: where the corpus is, running the built
//! `pte` and reading what it printed, and the inputs the commands that write
//! take. Every test file is a crate of its own that uses only some of them,
//! hence `dead_code` allowed here.

#![allow(dead_code, clippy::unwrap_used)]

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `pte` binary of this package.
pub const PTE: &str = env!("CARGO_BIN_EXE_pte");

/// The crate's own corpus link, so that the tests run from the packaged
/// crate as well as from the repository.
pub fn corpus_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// `rel` under the corpus: a case folder, or a file in one (`add/model.pte`).
pub fn corpus(rel: &str) -> PathBuf {
    corpus_root().join(rel)
}

/// The program of the corpus case `case`.
pub fn model(case: &str) -> PathBuf {
    corpus(case).join("model.pte")
}

/// The bytes of the corpus file `rel`.
pub fn corpus_bytes(rel: &str) -> Vec<u8> {
    std::fs::read(corpus(rel)).unwrap()
}

/// The program of every corpus case that has one, sorted.
pub fn corpus_programs() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(corpus_root())
        .unwrap()
        .map(|e| e.unwrap().path().join("model.pte"))
        .filter(|p| p.exists())
        .collect();
    out.sort();
    out
}

/// Every file of a corpus case whose extension is one of `exts`, sorted.
pub fn corpus_files(exts: &[&str]) -> Vec<PathBuf> {
    let mut out = vec![];
    for case in std::fs::read_dir(corpus_root()).unwrap() {
        let case = case.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&case).unwrap() {
            let f = f.unwrap().path();
            if f.extension().and_then(|e| e.to_str()).is_some_and(|e| exts.contains(&e)) {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}

/// Runs `pte args` and waits for what it printed.
pub fn pte(args: &[&str]) -> Output {
    Command::new(PTE).args(args).output().unwrap()
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
