//! Inputs: only regular files are read (a FIFO never blocks a reader), the
//! refusal names what the path is, aliases are recognised, and I/O errors keep
//! their source and name the path and the operation.

use std::error::Error as _;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

use pte_core::{open_input, same_file, write_atomically, ErrorKind, FileId, MappedFile};

/// Runs `f` on a thread and fails (instead of hanging) when it does not
/// return: the point of these tests is that nothing blocks.
fn returns<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(60)).expect("opening blocked")
}

fn refusal(path: PathBuf) -> String {
    let p = path.clone();
    let e = returns(move || open_input(&p).map(drop)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUse, "{e}");
    let mapped = returns(move || MappedFile::open(&path).map(drop)).unwrap_err();
    assert_eq!(mapped.to_string(), e.to_string());
    e.to_string()
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("model.pte");
    let made = {
        let _forks = crate::save::forks();
        Command::new("mkfifo").arg(&fifo).status().unwrap()
    };
    assert!(made.success());
    let m = refusal(fifo.clone());
    assert!(m.contains("model.pte") && m.contains("named pipe (FIFO)"), "{m}");
    // Through a symlink too.
    symlink(&fifo, dir.path().join("link.pte")).unwrap();
    assert!(refusal(dir.path().join("link.pte")).contains("named pipe"));
}

#[test]
fn a_directory_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let m = refusal(dir.path().to_path_buf());
    assert!(m.contains("is a directory"), "{m}");
    assert!(!m.contains("os error"), "{m}");
}

#[test]
fn devices_and_sockets_are_refused_by_name() {
    assert!(refusal("/dev/null".into()).contains("a character device"));
    let dir = tempfile::tempdir().unwrap();
    let sock = dir.path().join("s.pte");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    assert!(refusal(sock).contains("a socket"));
}

#[test]
fn regular_files_and_links_to_them_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.pte");
    std::fs::write(&p, b"abc").unwrap();
    symlink("a.pte", dir.path().join("l.pte")).unwrap();
    assert_eq!(MappedFile::open(dir.path().join("l.pte")).unwrap().bytes(), b"abc");
    std::fs::write(dir.path().join("empty"), b"").unwrap();
    assert_eq!(MappedFile::open(dir.path().join("empty")).unwrap().bytes(), b"");
}

#[test]
fn aliases_are_recognised() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let a = d.join("a.pte");
    std::fs::write(&a, b"x").unwrap();
    std::fs::write(d.join("b.pte"), b"x").unwrap();
    std::fs::create_dir(d.join("sub")).unwrap();
    symlink(&a, d.join("sym.pte")).unwrap();
    std::fs::hard_link(&a, d.join("hard.pte")).unwrap();
    for alias in [a.clone(), d.join("sym.pte"), d.join("hard.pte"), d.join("sub/../a.pte"), d.join("./a.pte")] {
        assert!(same_file(&a, &alias), "{}", alias.display());
        assert!(same_file(&alias, &a), "{}", alias.display());
    }
    assert!(!same_file(&a, &d.join("b.pte")));
    assert!(!same_file(&a, &d.join("new.pte")));
    // Two spellings of one file that does not exist yet.
    assert!(same_file(&d.join("new.pte"), &d.join("sub/../new.pte")));
    assert!(!same_file(&d.join("new.pte"), &d.join("other.pte")));
    assert_eq!(FileId::of(&a), FileId::of(&d.join("hard.pte")));
    assert_ne!(FileId::of(&a), FileId::of(&d.join("b.pte")));
}

#[test]
fn io_errors_keep_their_source_and_name_path_and_operation() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pte");
    let check = |e: &pte_core::Error, operation: &str, path: &Path, kind: std::io::ErrorKind| {
        assert_eq!(e.kind(), ErrorKind::Io, "{e}");
        let m = e.to_string();
        assert!(m.contains(operation), "{m:?} should name the operation {operation:?}");
        assert!(m.contains(&path.display().to_string()), "{m:?} should name {}", path.display());
        let source = e.source().expect("the OS error is kept");
        let io = source.downcast_ref::<std::io::Error>().expect("the source is the io::Error");
        assert_eq!(io.kind(), kind);
        assert_eq!(e.io_kind(), Some(kind));
    };
    let e = open_input(&missing).unwrap_err();
    check(&e, "reading", &missing, std::io::ErrorKind::NotFound);
    let e = MappedFile::open(&missing).err().unwrap();
    check(&e, "reading", &missing, std::io::ErrorKind::NotFound);
    // Saving into a directory that does not exist.
    let nowhere = dir.path().join("no/such/dir/out.pte");
    let e = write_atomically(&nowhere, |w| Ok(w.write_all(b"x")?)).unwrap_err();
    check(&e, "creating a temporary file in", &dir.path().join("no/such/dir"), std::io::ErrorKind::NotFound);
    // A write the OS refuses inside the save: the message names the target.
    let target = dir.path().join("out.pte");
    let e = write_atomically(&target, |_| -> pte_core::Result<()> {
        Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left").into())
    })
    .unwrap_err();
    check(&e, "writing", &target, std::io::ErrorKind::StorageFull);
    assert!(!target.exists());
}
