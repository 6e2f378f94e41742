//! The folder policy against a folder that already holds something
//! hostile: a link to a file outside, a linked subfolder, a FIFO, a
//! dangling link, and (writing) files without `force`.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use pte_core::folder::{folder_file, OutputFolder};

fn mkfifo(p: &Path) {
    assert!(Command::new("mkfifo").arg(p).status().unwrap().success());
}

/// What a hostile entry is planted as, at `out/<name>`; `outside` is beside `out`.
#[derive(Clone, Copy, Debug)]
enum Plant {
    LinkToOutsideFile,
    LinkedSubfolder,
    Fifo,
    DanglingLink,
}

const PLANTS: [Plant; 4] = [Plant::LinkToOutsideFile, Plant::LinkedSubfolder, Plant::Fifo, Plant::DanglingLink];

/// Plants `p` at `dir/sub/a.bin` (or, for a linked subfolder, at `dir/sub`).
fn plant(root: &Path, dir: &Path, p: Plant) {
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(root.join("outside"), b"keep").unwrap();
    std::fs::create_dir_all(root.join("outside-dir")).unwrap();
    let at = dir.join("sub/a.bin");
    match p {
        Plant::LinkToOutsideFile => symlink(root.join("outside"), &at).unwrap(),
        Plant::LinkedSubfolder => {
            std::fs::remove_dir(dir.join("sub")).unwrap();
            symlink(root.join("outside-dir"), dir.join("sub")).unwrap();
        }
        Plant::Fifo => mkfifo(&at),
        Plant::DanglingLink => symlink(root.join("nowhere"), &at).unwrap(),
    }
}

/// An empty folder `name` in a fresh root, and beside it the file
/// `outside` holding `content`.
fn beside_outside(name: &str, content: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::tempdir().unwrap();
    let dir = root.path().join(name);
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(root.path().join("outside"), content).unwrap();
    (root, dir)
}

fn untouched(root: &Path, p: Plant) {
    assert_eq!(std::fs::read(root.join("outside")).unwrap(), b"keep", "{p:?}");
    assert_eq!(std::fs::read_dir(root.join("outside-dir")).unwrap().count(), 0, "{p:?}");
    assert!(!root.join("nowhere").exists(), "{p:?}");
}

#[test]
fn a_forced_writer_replaces_what_is_planted_and_never_writes_through_it() {
    for p in PLANTS {
        for atomic in [false, true] {
            let root = tempfile::tempdir().unwrap();
            let out = root.path().join("out");
            plant(root.path(), &out, p);
            let folder = OutputFolder::open(&out, true).unwrap();
            if atomic {
                folder.write_atomically("sub/a.bin", |w| Ok(w.write_all(b"new")?)).unwrap();
            } else {
                use std::io::Write;
                folder.create("sub/a.bin").unwrap().write_all(b"new").unwrap();
            }
            untouched(root.path(), p);
            let meta = std::fs::symlink_metadata(out.join("sub")).unwrap();
            assert!(meta.is_dir(), "{p:?}: sub is not a real folder");
            let meta = std::fs::symlink_metadata(out.join("sub/a.bin")).unwrap();
            assert!(meta.is_file(), "{p:?}: a.bin is not a regular file");
            assert_eq!(std::fs::read(out.join("sub/a.bin")).unwrap(), b"new", "{p:?}");
        }
    }
}

#[test]
fn a_writer_refuses_a_folder_that_is_not_empty_unless_forced() {
    let root = tempfile::tempdir().unwrap();
    let out = root.path().join("out");
    assert!(OutputFolder::open(&out, false).is_ok(), "a missing folder is created");
    assert!(out.is_dir());
    assert!(OutputFolder::open(&out, false).is_ok(), "an empty folder is fine");
    std::fs::write(out.join("stray"), b"mine").unwrap();
    let e = OutputFolder::open(&out, false).unwrap_err();
    assert!(e.to_string().contains("not empty") && e.to_string().contains("--force"), "{e}");
    assert!(OutputFolder::open(&out, true).is_ok());
    assert_eq!(std::fs::read(out.join("stray")).unwrap(), b"mine");
}

#[test]
fn a_writer_keeps_a_replaced_files_mode_and_breaks_its_hard_links() {
    use std::os::unix::fs::PermissionsExt;
    let (root, out) = beside_outside("out", b"keep");
    std::fs::hard_link(root.path().join("outside"), out.join("a.bin")).unwrap();
    std::fs::set_permissions(out.join("a.bin"), std::fs::Permissions::from_mode(0o640)).unwrap();
    let folder = OutputFolder::open(&out, true).unwrap();
    std::io::Write::write_all(&mut folder.create("a.bin").unwrap(), b"new").unwrap();
    assert_eq!(std::fs::read(root.path().join("outside")).unwrap(), b"keep");
    assert_eq!(std::fs::read(out.join("a.bin")).unwrap(), b"new");
    assert_eq!(std::fs::metadata(out.join("a.bin")).unwrap().permissions().mode() & 0o777, 0o640);
}

#[test]
fn names_that_leave_the_folder_are_refused() {
    let root = tempfile::tempdir().unwrap();
    let folder = OutputFolder::open(&root.path().join("out"), false).unwrap();
    for name in ["../x", "/x", "a/../../x", "", "a//b", "a\\b"] {
        assert!(folder.create(name).is_err(), "{name:?}");
        assert!(folder_file(folder.path(), name, true).is_err(), "{name:?}");
    }
}

#[test]
fn a_reader_refuses_what_is_planted() {
    for p in PLANTS {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("in");
        plant(root.path(), &dir, p);
        if matches!(p, Plant::LinkedSubfolder) {
            std::fs::write(root.path().join("outside-dir/a.bin"), b"x").unwrap();
        }
        let e = folder_file(&dir, "sub/a.bin", false).unwrap_err();
        let want = if matches!(p, Plant::Fifo) { "not a regular file" } else { "symbolic link" };
        assert!(e.to_string().contains(want), "{p:?}: {e}");
    }
}

#[test]
fn a_reader_allowed_links_still_stays_inside_the_folder() {
    let (root, dir) = beside_outside("in", b"x");
    std::fs::write(dir.join("real.bin"), b"y").unwrap();
    symlink(root.path().join("outside"), dir.join("out.bin")).unwrap();
    symlink("real.bin", dir.join("in.bin")).unwrap();
    assert!(folder_file(&dir, "out.bin", true).unwrap_err().to_string().contains("outside the folder"));
    assert_eq!(folder_file(&dir, "in.bin", true).unwrap().1.len(), 1);
}
