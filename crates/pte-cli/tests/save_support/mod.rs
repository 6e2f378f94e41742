//! Helpers of the save-safety tests (`save_safety.rs`, `save_races.rs`):
//! running `pte`, file modes and inodes, temporary files, snapshots of a
//! directory, and the inputs every writing command takes.

#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects
)]

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pte_samples::{encode_set, Call, Sample, SampleLimits, SampleSet, Value, DATA_FILE, INDEX_FILE};

pub const PTE: &str = env!("CARGO_BIN_EXE_pte");

pub fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus").join(rel)
}

/// Runs `pte args` in `dir`.
pub fn pte_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(PTE).current_dir(dir).args(args).output().unwrap()
}

/// Runs `pte args` in `dir` from a shell that first runs `prefix` (`umask 022`, `ulimit -f 64`).
pub fn pte_sh(dir: &Path, prefix: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{prefix}; exec \"$0\" \"$@\""))
        .arg(PTE)
        .args(args)
        .output()
        .unwrap()
}

pub fn ok(o: &Output, what: &str) {
    assert!(
        o.status.success(),
        "{what}: {:?}\nstdout: {}\nstderr: {}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

pub fn set_mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

pub fn ino(p: &Path) -> u64 {
    std::fs::metadata(p).unwrap().ino()
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

/// Temporary files of saves anywhere under `dir`.
pub fn temps(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in walk(dir) {
        if e.file_name().unwrap().to_string_lossy().contains(pte_core::TEMP_MARKER) {
            out.push(e);
        }
    }
    out
}

/// Every path under `dir` (not following links), sorted.
pub fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if std::fs::symlink_metadata(&p).unwrap().is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Regular files named by `outputs`: a file, or every regular file below a directory.
pub fn output_files(dir: &Path, outputs: &[&str]) -> Vec<PathBuf> {
    let mut v = vec![];
    for o in outputs {
        let p = dir.join(o);
        if p.is_dir() {
            v.extend(walk(&p).into_iter().filter(|f| std::fs::symlink_metadata(f).unwrap().is_file()));
        } else {
            v.push(p);
        }
    }
    assert!(!v.is_empty(), "no outputs under {outputs:?}");
    v
}

// ---------------------------------------------------------------- fixtures

pub fn f32s(shape: Vec<u64>, v: &[f32]) -> pte_ptn::PtnTensor<'static> {
    pte_ptn::PtnTensor::new(pte_ptn::Dtype::F32, shape, v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>())
        .unwrap()
}

/// A `forward` set for the corpus package (input [2,16], output [2,8]) with `calls` calls.
pub fn set(name: &str, calls: usize) -> SampleSet<'static> {
    let x: Vec<f32> = (0..32).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..16).map(|i| i as f32 * 0.5).collect();
    let mut s = SampleSet::new("forward", name);
    s.samples.push(Sample {
        name: None,
        tolerance: None,
        calls: (0..calls)
            .map(|_| Call {
                inputs: vec![Value::Tensor(f32s(vec![2, 16], &x))],
                outputs: vec![Value::Tensor(f32s(vec![2, 8], &y))],
                tolerance: None,
            })
            .collect(),
    });
    s
}

pub fn write_set_dir(dir: &Path, set: &SampleSet<'_>) {
    std::fs::create_dir_all(dir).unwrap();
    let enc = encode_set(set, &SampleLimits::default()).unwrap();
    std::fs::write(dir.join(INDEX_FILE), &enc.index).unwrap();
    std::fs::write(dir.join(DATA_FILE), &enc.data).unwrap();
}

/// Every input the write commands below take, in `dir`.
pub fn inputs(dir: &Path) {
    let copy = |from: &str, to: &str| {
        std::fs::copy(corpus(from), dir.join(to)).unwrap();
    };
    copy("add/model.pte", "in.pte");
    copy("xnnpack_mlp/model.pte", "x.pte");
    copy("external/model.pte", "e.pte");
    copy("external/_default_external_constant.ptd", "e.ptd");
    copy("bundled/model.bpte", "b.bpte");
    copy("bundled/model.pte", "p.pte");
    copy("native_ptn/model.ptn", "pkg.ptn");
    copy("add/io.safetensors", "io.safetensors");
    write_set_dir(&dir.join("set"), &set("smoke", 2));
    ok(&pte_in(dir, &["bpte", "export-samples", "b.bpte", "sdir"]), "export-samples");
    ok(&pte_in(dir, &["samples", "add", "pkg.ptn", "set"]), "samples add");
}

#[derive(Debug, PartialEq)]
pub enum Entry {
    File(Vec<u8>, u32, u64),
    Dir,
    Link(PathBuf),
}

/// Every entry under `dir`: content, mode and inode of files, link targets.
pub fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Entry> {
    walk(dir)
        .into_iter()
        .map(|p| {
            let m = std::fs::symlink_metadata(&p).unwrap();
            let e = if m.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&p).unwrap())
            } else if m.is_dir() {
                Entry::Dir
            } else {
                Entry::File(std::fs::read(&p).unwrap(), m.mode(), m.ino())
            };
            (p.strip_prefix(dir).unwrap().to_path_buf(), e)
        })
        .collect()
}

/// The sets in a package (`method/set`), from its member names: cheaper
/// than parsing every sample, and enough to see which edits landed.
pub fn set_names(package: &Path) -> Vec<String> {
    let bytes = std::fs::read(package).unwrap();
    let ptn = pte_ptn::PtnFile::from_bytes(&bytes).unwrap();
    let mut names: Vec<String> = ptn
        .members
        .iter()
        .filter_map(|m| m.name.strip_prefix("samples/")?.strip_suffix("/index.json").map(str::to_string))
        .collect();
    names.sort();
    names
}
