//! Helpers of the save-safety tests (`save_safety.rs`, `save_races.rs`):
//! running `pte`, file modes and inodes, temporary files, snapshots of a
//! directory, and the inputs every writing command takes. (What every test
//! file shares, from the corpus to running `pte`, is in `support`.)

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

use crate::support::{f32s, PTE};

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

pub fn set_mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

pub fn ino(p: &Path) -> u64 {
    std::fs::metadata(p).unwrap().ino()
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
    crate::support::copy_inputs(dir);
    write_set_dir(&dir.join("set"), &set("smoke", 2));
    ok(&pte_in(dir, &["bpte", "export-samples", "b.bpte", "sdir"]), "export-samples");
    ok(&pte_in(dir, &["samples", "add", "pkg.ptn", "set"]), "samples add");
}

#[derive(Debug, PartialEq)]
pub enum Entry {
    File(Vec<u8>, u32, u64),
    Dir,
    Link(PathBuf),
    /// A FIFO or device, by inode: reading a FIFO would block.
    Special(u64),
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
            } else if !m.is_file() {
                Entry::Special(m.ino())
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
