//! In-place edits under [`EditLock`]: a second editor waits and then reads
//! the first one's result, or fails at once; a file changed behind the lock
//! is never overwritten.
//!
//! A test binary of its own, apart from `tests/it`: these tests hold file
//! locks, and a process the other tests start shares this process's open
//! files (and so its locks) until it execs, which could keep a dropped lock
//! alive for a moment and make a waiting or `NoWait` editor see it.

#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::panic, missing_docs)]

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use pte_core::{EditLock, ErrorKind, LockWait, TEMP_MARKER};

/// A folder holding `pkg.ptn` with `content`: the file the editors share.
fn package(content: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("pkg.ptn");
    std::fs::write(&p, content).unwrap();
    (dir, p)
}

/// A save refused as busy left `p` holding what the other writer put
/// there, and no temporary file beside it.
fn kept_theirs(e: &pte_core::Error, p: &Path, theirs: &[u8]) {
    assert_eq!(e.kind(), ErrorKind::Busy);
    assert_eq!(std::fs::read(p).unwrap(), theirs);
    no_temps(p.parent().unwrap());
}

fn no_temps(dir: &Path) {
    let left: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(TEMP_MARKER))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Appends `tag` to the file under the lock.
fn append(lock: EditLock, tag: &str) {
    let mut text = lock.map().unwrap().bytes().to_vec();
    text.extend_from_slice(tag.as_bytes());
    lock.save(|w| Ok(w.write_all(&text)?)).unwrap();
}

/// Waits until some process is blocked on a lock of the file with inode
/// `ino` (Linux lists waiters in /proc/locks with `->`), so the test knows
/// the second editor is queued before the first one renames.
fn wait_for_a_blocked_locker(ino: u64) {
    let needle = format!(":{ino} ");
    // A guard against a hang, not a timing claim: the waiter shows up at once.
    for _ in 0..30_000 {
        let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
        if locks.lines().any(|l| l.contains("->") && l.contains(&needle)) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("the second editor never queued on the lock");
}

#[test]
fn a_waiting_editor_relocks_the_replaced_file_and_keeps_both_changes() {
    let (dir, p) = package(b"base");
    let old_ino = std::fs::metadata(&p).unwrap().ino();
    let first = EditLock::acquire(&p, LockWait::Block).unwrap();
    let (tx, rx) = mpsc::channel();
    let second = {
        let p = p.clone();
        std::thread::spawn(move || {
            let lock = EditLock::acquire(&p, LockWait::Block).unwrap();
            // It waited on the old file; the lock it returns holds the new one.
            tx.send(lock.file().metadata().unwrap().ino()).unwrap();
            append(lock, "+second");
        })
    };
    let observed = Path::new("/proc/locks").exists();
    if observed {
        wait_for_a_blocked_locker(old_ino);
    }
    append(first, "+first");
    let held_ino = rx.recv().unwrap();
    second.join().unwrap();
    assert_eq!(std::fs::read(&p).unwrap(), b"base+first+second");
    assert!(!observed || held_ino != old_ino, "the second editor must lock the file the first one renamed into place");
    no_temps(dir.path());
}

#[test]
fn many_editors_never_lose_a_change() {
    let (dir, p) = package(b"");
    let threads: Vec<_> = (0..8)
        .map(|i| {
            let p = p.clone();
            std::thread::spawn(move || {
                for j in 0..5 {
                    append(EditLock::acquire(&p, LockWait::Block).unwrap(), &format!("[{i}.{j}]"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let text = String::from_utf8(std::fs::read(&p).unwrap()).unwrap();
    for i in 0..8 {
        for j in 0..5 {
            assert_eq!(text.matches(&format!("[{i}.{j}]")).count(), 1, "{text}");
        }
    }
    no_temps(dir.path());
}

#[test]
fn fail_mode_refuses_at_once_and_changes_nothing() {
    let (_dir, p) = package(b"base");
    let first = EditLock::acquire(&p, LockWait::Block).unwrap();
    let e = EditLock::acquire(&p, LockWait::Fail).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Busy);
    assert!(e.to_string().contains("pkg.ptn") && e.to_string().contains("another process"), "{e}");
    append(first, "+first");
    append(EditLock::acquire(&p, LockWait::Fail).unwrap(), "+again");
    assert_eq!(std::fs::read(&p).unwrap(), b"base+first+again");
}

#[test]
fn a_file_replaced_behind_the_lock_is_not_overwritten() {
    let (dir, p) = package(b"base");
    let lock = EditLock::acquire(&p, LockWait::Block).unwrap();
    let read = lock.map().unwrap().bytes().to_vec();
    // A writer that ignores the lock renames its own file into place.
    std::fs::write(dir.path().join("other"), b"theirs").unwrap();
    std::fs::rename(dir.path().join("other"), &p).unwrap();
    let e = lock.save(|w| Ok(w.write_all(&[read.as_slice(), b"+mine"].concat())?)).unwrap_err();
    assert!(e.to_string().contains("changed since it was read"), "{e}");
    kept_theirs(&e, &p, b"theirs");
}

#[test]
fn a_file_rewritten_in_place_behind_the_lock_is_not_overwritten() {
    let (_dir, p) = package(b"base");
    let lock = EditLock::acquire(&p, LockWait::Block).unwrap();
    // Same inode, new length.
    std::fs::write(&p, b"theirs, longer").unwrap();
    let e = lock.save(|w| Ok(w.write_all(b"mine")?)).unwrap_err();
    kept_theirs(&e, &p, b"theirs, longer");
}

#[test]
fn an_edit_through_a_link_keeps_the_link_and_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.ptn");
    let link = dir.path().join("link.ptn");
    std::fs::write(&real, b"base").unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o444)).unwrap();
    symlink("real.ptn", &link).unwrap();
    let lock = EditLock::acquire(&link, LockWait::Block).unwrap();
    assert_eq!(lock.path(), real);
    append(lock, "+edit");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&real).unwrap(), b"base+edit");
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o7777, 0o444);
    no_temps(dir.path());
}

#[test]
fn only_regular_files_are_locked() {
    let dir = tempfile::tempdir().unwrap();
    let e = EditLock::acquire(dir.path(), LockWait::Block).unwrap_err();
    assert!(e.to_string().contains("is a directory"), "{e}");
    let e = EditLock::acquire(&dir.path().join("missing.ptn"), LockWait::Block).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Io);
    assert!(!dir.path().join("missing.ptn").exists());
}
