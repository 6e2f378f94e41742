//! Folders that already hold something hostile: every command that writes a
//! folder and every command that reads one, against a symbolic link to a
//! file outside, a linked subfolder, a FIFO, a dangling link and (for the
//! writers) a folder that is not empty. Writers never write through what is
//! there (with `--force`) and refuse a non-empty folder without it; readers
//! refuse, as `pte pack` does. The policy itself is `pte_core::folder`.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::Command;

use crate::support::save::*;
use crate::support::*;

/// A command that writes a folder `o`: `file` is one of the files it writes
/// there, `sub` a subfolder it writes into, if any.
struct FolderWriter {
    name: &'static str,
    args: &'static [&'static str],
    file: &'static str,
    sub: Option<&'static str>,
}

const WRITERS: &[FolderWriter] = &[
    FolderWriter {
        name: "extract .ptn",
        args: &["extract", "pkg.ptn", "o"],
        file: "program.ptg",
        sub: Some("constants"),
    },
    FolderWriter { name: "extract .pte", args: &["extract", "x.pte", "o"], file: "program.json", sub: None },
    FolderWriter {
        name: "samples export",
        args: &["samples", "export", "pkg.ptn", "forward", "smoke", "o"],
        file: "index.json",
        sub: None,
    },
    FolderWriter {
        name: "samples import-io",
        args: &["samples", "import-io", "io.safetensors", "forward", "io", "o"],
        file: "data.safetensors",
        sub: None,
    },
    FolderWriter {
        name: "bpte export-samples",
        args: &["bpte", "export-samples", "b.bpte", "o"],
        file: "forward/bundled/index.json",
        sub: Some("forward"),
    },
    FolderWriter {
        name: "gen --count",
        args: &["gen", "--seed", "3", "--count", "2", "o"],
        file: "gen-4.pte",
        sub: None,
    },
];

fn forced<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter().copied().chain(["--force"]).collect()
}

fn is_plain_file(p: &Path) -> bool {
    std::fs::symlink_metadata(p).map(|m| m.is_file()).unwrap_or(false)
}

fn is_plain_dir(p: &Path) -> bool {
    std::fs::symlink_metadata(p).map(|m| m.is_dir()).unwrap_or(false)
}

fn mkfifo(p: &Path) {
    let o = Command::new("mkfifo").arg(p).output().unwrap();
    assert!(o.status.success(), "mkfifo {}", p.display());
}

/// A fresh directory with every input, and `o/` holding the parents of `file`.
fn setup(file: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    inputs(dir.path());
    let target = dir.path().join("o").join(file);
    std::fs::create_dir_all(target.parent().unwrap()).unwrap();
    dir
}

#[test]
fn a_writer_replaces_a_link_to_an_outside_file_and_leaves_the_file_alone() {
    for w in WRITERS {
        let dir = setup(w.file);
        let d = dir.path();
        std::fs::write(d.join("outside"), b"keep").unwrap();
        symlink(d.join("outside"), d.join("o").join(w.file)).unwrap();
        let o = pte_bounded(d, &forced(w.args));
        ok(&o, w.name);
        assert_eq!(std::fs::read(d.join("outside")).unwrap(), b"keep", "{}: wrote through the link", w.name);
        assert!(is_plain_file(&d.join("o").join(w.file)), "{}: the link was not replaced", w.name);
    }
}

#[test]
fn a_writer_replaces_a_linked_subfolder_without_entering_it() {
    for w in WRITERS {
        let Some(sub) = w.sub else { continue };
        let dir = setup(w.file);
        let d = dir.path();
        let _ = std::fs::remove_dir_all(d.join("o").join(sub));
        std::fs::create_dir(d.join("outside")).unwrap();
        symlink(d.join("outside"), d.join("o").join(sub)).unwrap();
        let o = pte_bounded(d, &forced(w.args));
        ok(&o, w.name);
        assert_eq!(
            std::fs::read_dir(d.join("outside")).unwrap().count(),
            0,
            "{}: wrote into the linked folder",
            w.name
        );
        assert!(is_plain_dir(&d.join("o").join(sub)), "{}: the link was not replaced", w.name);
    }
}

#[test]
fn a_writer_replaces_a_fifo_instead_of_blocking_on_it() {
    for w in WRITERS {
        let dir = setup(w.file);
        let d = dir.path();
        mkfifo(&d.join("o").join(w.file));
        let o = pte_bounded(d, &forced(w.args));
        ok(&o, w.name);
        assert!(is_plain_file(&d.join("o").join(w.file)), "{}: the FIFO was not replaced", w.name);
    }
}

#[test]
fn a_writer_replaces_a_dangling_link_without_creating_its_target() {
    for w in WRITERS {
        let dir = setup(w.file);
        let d = dir.path();
        symlink(d.join("nowhere"), d.join("o").join(w.file)).unwrap();
        let o = pte_bounded(d, &forced(w.args));
        ok(&o, w.name);
        assert!(!d.join("nowhere").exists(), "{}: created the link's target", w.name);
        assert!(is_plain_file(&d.join("o").join(w.file)), "{}: the link was not replaced", w.name);
    }
}

#[test]
fn a_writer_refuses_a_folder_that_is_not_empty_without_force() {
    for w in WRITERS {
        let dir = setup("stray");
        let d = dir.path();
        std::fs::write(d.join("o/stray"), b"mine").unwrap();
        let before = snapshot(d);
        let o = pte_bounded(d, w.args);
        assert_eq!(o.status.code(), Some(2), "{}: {}", w.name, stderr(&o));
        assert!(stderr(&o).contains("not empty") && stderr(&o).contains("--force"), "{}: {}", w.name, stderr(&o));
        assert_eq!(snapshot(d), before, "{}: wrote into the folder", w.name);
    }
}

// ---------------------------------------------------------------- readers

/// A command that reads a folder prepared by `prepare` (in a directory
/// holding [`inputs`]): `file` is a file of it, `sub` a subfolder it reads.
struct FolderReader {
    name: &'static str,
    prepare: &'static [&'static str],
    args: &'static [&'static str],
    file: &'static str,
    sub: Option<&'static str>,
}

const READERS: &[FolderReader] = &[
    FolderReader {
        name: "pack",
        prepare: &["extract", "pkg.ptn", "f"],
        args: &["pack", "f", "back.ptn"],
        file: "program.ptg",
        sub: Some("constants"),
    },
    FolderReader {
        name: "samples add",
        prepare: &["samples", "export", "pkg.ptn", "forward", "smoke", "f"],
        args: &["samples", "add", "pkg.ptn", "f", "--replace"],
        file: "index.json",
        sub: None,
    },
    FolderReader {
        name: "bpte bundle",
        prepare: &["bpte", "export-samples", "b.bpte", "f"],
        args: &["bpte", "bundle", "p.pte", "f", "back.bpte"],
        file: "forward/bundled/index.json",
        sub: Some("forward"),
    },
];

/// Runs `r` on its folder after `plant` changed it: refused (exit 2) with
/// `says` in the message, and nothing written.
fn refused(r: &FolderReader, says: &str, plant: impl Fn(&Path)) {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    inputs(d);
    ok(&pte_in(d, r.prepare), r.name);
    plant(d);
    let before = snapshot(d);
    let o = pte_bounded(d, r.args);
    assert_eq!(o.status.code(), Some(2), "{}: {}", r.name, stderr(&o));
    assert!(stderr(&o).contains(says), "{}: {}", r.name, stderr(&o));
    assert_eq!(snapshot(d), before, "{}: wrote something", r.name);
}

#[test]
fn a_reader_refuses_a_link_to_an_outside_file() {
    for r in READERS {
        refused(r, "symbolic link", |d| {
            let file = d.join("f").join(r.file);
            std::fs::rename(&file, d.join("outside")).unwrap();
            symlink(d.join("outside"), &file).unwrap();
        });
    }
}

#[test]
fn a_reader_refuses_a_linked_subfolder() {
    for r in READERS {
        let Some(sub) = r.sub else { continue };
        refused(r, "symbolic link", |d| {
            std::fs::rename(d.join("f").join(sub), d.join("outside")).unwrap();
            symlink(d.join("outside"), d.join("f").join(sub)).unwrap();
        });
    }
}

#[test]
fn a_reader_refuses_a_fifo() {
    for r in READERS {
        refused(r, "not a regular file", |d| {
            let file = d.join("f").join(r.file);
            std::fs::remove_file(&file).unwrap();
            mkfifo(&file);
        });
    }
}

#[test]
fn a_reader_refuses_a_dangling_link() {
    for r in READERS {
        refused(r, "symbolic link", |d| {
            let file = d.join("f").join(r.file);
            std::fs::remove_file(&file).unwrap();
            symlink(d.join("nowhere"), &file).unwrap();
        });
    }
}
