//! The one save path: modes and owners kept, the umask for new files, links
//! followed, recognisable temporary files removed on failure and, when a
//! killed save left one, by the next save of the same target.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pte_core::{write_atomically, write_atomically_file, Error, ErrorKind, TEMP_MARKER};

/// Set in a child run of this test binary: the directory the child saves into.
const CHILD_DIR: &str = "PTE_CORE_TEST_CHILD_DIR";

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o7777
}

fn set_mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// Names in `dir` that look like temporary files of a save.
fn temps(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(TEMP_MARKER))
        .collect();
    v.sort();
    v
}

/// Held while this binary starts a process, and by a test that holds a
/// file lock: a child forked from here shares every open file until it
/// execs (closing them), and a lock with them, so a lock dropped here could
/// outlive its drop for a moment on a loaded machine.
static FORKS: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub(crate) fn forks() -> std::sync::MutexGuard<'static, ()> {
    FORKS.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `a.bin` holding `old`, in a fresh folder.
fn old_file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.bin");
    std::fs::write(&p, b"old").unwrap();
    (dir, p)
}

fn save(p: &Path, bytes: &[u8]) -> pte_core::Result<()> {
    write_atomically(p, |w| Ok(w.write_all(bytes)?))
}

/// Runs the test `name` of this binary again in a child shell with `umask`,
/// telling it (through [`CHILD_DIR`]) where to save.
fn rerun_with_umask(name: &str, umask: &str, dir: &Path) {
    let out = {
        let _forks = forks();
        Command::new("sh")
            .arg("-c")
            .arg(format!("umask {umask}; exec \"$0\" --exact {name} --nocapture --test-threads=1"))
            .arg(std::env::current_exe().unwrap())
            .env(CHILD_DIR, dir)
            .output()
            .unwrap()
    };
    assert!(out.status.success(), "child run: {}", String::from_utf8_lossy(&out.stderr));
    // `--exact` with a wrong name runs nothing and still succeeds.
    assert!(String::from_utf8_lossy(&out.stdout).contains("1 passed"), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn existing_modes_are_kept_by_both_entry_points() {
    let dir = tempfile::tempdir().unwrap();
    for m in [0o644, 0o664, 0o444, 0o600, 0o755, 0o640] {
        let p = dir.path().join(format!("f{m:o}.bin"));
        std::fs::write(&p, b"old").unwrap();
        set_mode(&p, m);
        save(&p, b"new").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"new");
        assert_eq!(mode(&p), m, "write_atomically changed mode {m:o}");
        write_atomically_file(&p, |mut f| Ok(f.write_all(b"newer")?)).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"newer");
        assert_eq!(mode(&p), m, "write_atomically_file changed mode {m:o}");
    }
    assert_eq!(temps(dir.path()), Vec::<String>::new());
}

#[test]
fn the_owner_of_an_existing_file_is_kept() {
    use std::os::unix::fs::MetadataExt;
    let (_dir, p) = old_file();
    let before = std::fs::metadata(&p).unwrap();
    save(&p, b"new").unwrap();
    let after = std::fs::metadata(&p).unwrap();
    assert_eq!((after.uid(), after.gid()), (before.uid(), before.gid()));
}

#[test]
fn new_files_take_the_umask_default() {
    if let Some(dir) = std::env::var_os(CHILD_DIR) {
        let dir = PathBuf::from(dir);
        save(&dir.join("plain.bin"), b"x").unwrap();
        write_atomically_file(&dir.join("file.bin"), |mut f| Ok(f.write_all(b"x")?)).unwrap();
        return;
    }
    for (umask, want) in [("022", 0o644), ("027", 0o640), ("002", 0o664), ("077", 0o600)] {
        let dir = tempfile::tempdir().unwrap();
        rerun_with_umask("save::new_files_take_the_umask_default", umask, dir.path());
        for name in ["plain.bin", "file.bin"] {
            assert_eq!(mode(&dir.path().join(name)), want, "{name} under umask {umask}");
        }
    }
}

#[test]
fn a_symlink_stays_a_link_and_its_target_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let real_dir = dir.path().join("real");
    let link_dir = dir.path().join("links");
    std::fs::create_dir_all(&real_dir).unwrap();
    std::fs::create_dir_all(&link_dir).unwrap();
    let real = real_dir.join("model.pte");
    std::fs::write(&real, b"old").unwrap();
    set_mode(&real, 0o664);
    // A relative link into another directory, and a link to that link.
    symlink("../real/model.pte", link_dir.join("one.pte")).unwrap();
    symlink("one.pte", link_dir.join("two.pte")).unwrap();
    for (i, link) in ["one.pte", "two.pte"].iter().enumerate() {
        let link = link_dir.join(link);
        let content = format!("new {i}");
        write_atomically(&link, |w| {
            // The temporary file lives beside the real target, so the
            // rename stays within one directory (and one file system).
            assert_eq!(temps(&real_dir).len(), 1, "{:?}", temps(&real_dir));
            assert_eq!(temps(&link_dir), Vec::<String>::new());
            assert!(temps(&real_dir)[0].starts_with(&format!(".model.pte{TEMP_MARKER}")));
            Ok(w.write_all(content.as_bytes())?)
        })
        .unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), content.as_bytes());
        assert_eq!(mode(&real), 0o664);
    }
    assert_eq!(std::fs::read_link(link_dir.join("one.pte")).unwrap(), Path::new("../real/model.pte"));
    assert_eq!(temps(&real_dir), Vec::<String>::new());
}

#[test]
fn a_dangling_link_gets_its_target_created() {
    let dir = tempfile::tempdir().unwrap();
    symlink("made.pte", dir.path().join("link.pte")).unwrap();
    save(&dir.path().join("link.pte"), b"x").unwrap();
    assert!(std::fs::symlink_metadata(dir.path().join("link.pte")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(dir.path().join("made.pte")).unwrap(), b"x");
}

#[test]
fn a_link_loop_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    symlink("b", dir.path().join("a")).unwrap();
    symlink("a", dir.path().join("b")).unwrap();
    let e = save(&dir.path().join("a"), b"x").unwrap_err();
    assert!(e.to_string().contains("symbolic links"), "{e}");
    assert_eq!(temps(dir.path()), Vec::<String>::new());
}

#[test]
fn a_failed_save_leaves_the_target_and_no_temporary_file() {
    let (dir, p) = old_file();
    let e = write_atomically(&p, |w| -> pte_core::Result<()> {
        w.write_all(&[1u8; 3 << 20])?;
        Err(Error::new(ErrorKind::Malformed, "stop"))
    })
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Malformed);
    assert_eq!(std::fs::read(&p).unwrap(), b"old");
    assert_eq!(temps(dir.path()), Vec::<String>::new());
    // A new target that fails is never created.
    let q = dir.path().join("new.bin");
    assert!(write_atomically(&q, |_| -> pte_core::Result<()> { Err(Error::new(ErrorKind::Io, "x")) }).is_err());
    assert!(!q.exists());
    assert_eq!(temps(dir.path()), Vec::<String>::new());
}

#[test]
fn directories_and_special_files_are_never_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("keep"), b"k").unwrap();
    let e = save(&sub, b"x").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUse);
    assert!(e.to_string().contains("is a directory"), "{e}");
    assert_eq!(std::fs::read(sub.join("keep")).unwrap(), b"k");
    let fifo = dir.path().join("pipe");
    let made = {
        let _forks = forks();
        Command::new("mkfifo").arg(&fifo).status().unwrap()
    };
    assert!(made.success());
    let e = save(&fifo, b"x").unwrap_err();
    assert!(e.to_string().contains("not a regular file"), "{e}");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    assert_eq!(temps(dir.path()), Vec::<String>::new());
}

#[test]
fn stale_temporary_files_are_removed_and_live_ones_kept() {
    // no child may share the lock held below past its drop
    let _forks = forks();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.pte");
    std::fs::write(&p, b"old").unwrap();
    let stale = dir.path().join(format!(".a.pte{TEMP_MARKER}999999-0-0.tmp"));
    let live = dir.path().join(format!(".a.pte{TEMP_MARKER}999999-1-0.tmp"));
    let other = dir.path().join(format!(".b.pte{TEMP_MARKER}999999-0-0.tmp"));
    let unrelated = dir.path().join(".a.pte.swp");
    for f in [&stale, &live, &other, &unrelated] {
        std::fs::write(f, b"left over").unwrap();
    }
    // A writer still at work holds the lock on its temporary file.
    let held = std::fs::File::open(&live).unwrap();
    held.lock().unwrap();
    save(&p, b"new").unwrap();
    assert!(!stale.exists(), "a temporary file nobody holds is removed");
    assert!(live.exists(), "a live writer's temporary file is kept");
    assert!(other.exists(), "only temporaries of this target are touched");
    assert!(unrelated.exists());
    drop(held);
    save(&p, b"newer").unwrap();
    assert!(!live.exists(), "removed once its writer is gone");
    assert_eq!(std::fs::read(&p).unwrap(), b"newer");
}

/// The child half of [`a_killed_save_leaves_a_temporary_file_the_next_save_removes`]:
/// writes part of a save, says so, and waits to be killed.
#[test]
fn child_save_that_hangs() {
    let Some(dir) = std::env::var_os(CHILD_DIR) else { return };
    let p = PathBuf::from(dir).join("a.pte");
    let _: pte_core::Result<()> = write_atomically(&p, |w| {
        w.write_all(&[5u8; 1 << 20])?;
        w.flush()?;
        println!("writing");
        std::io::stdout().flush()?;
        loop {
            std::thread::park();
        }
    });
}

#[test]
fn a_killed_save_leaves_a_temporary_file_the_next_save_removes() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.pte");
    std::fs::write(&p, b"old").unwrap();
    let mut child = {
        let _forks = forks();
        Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "save::child_save_that_hangs", "--nocapture", "--test-threads=1"])
            .env(CHILD_DIR, dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    };
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    while !line.contains("writing") {
        line.clear();
        assert_ne!(out.read_line(&mut line).unwrap(), 0, "the child ended before writing");
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = temps(dir.path());
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with(&format!(".a.pte{TEMP_MARKER}")) && left[0].ends_with(".tmp"), "{left:?}");
    assert_eq!(std::fs::metadata(dir.path().join(&left[0])).unwrap().len(), 1 << 20);
    assert_eq!(std::fs::read(&p).unwrap(), b"old", "the target is untouched");
    save(&p, b"new").unwrap();
    assert_eq!(temps(dir.path()), Vec::<String>::new());
    assert_eq!(std::fs::read(&p).unwrap(), b"new");
}

#[test]
fn concurrent_saves_of_one_target_all_succeed_and_leave_no_temporary_file() {
    // Each save also cleans stale temporaries of the same target: it must
    // never remove another live save's file, even one created an instant ago.
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("a.pte");
    let threads: Vec<_> = (0..8u8)
        .map(|t| {
            let p = p.clone();
            std::thread::spawn(move || {
                for i in 0..40u8 {
                    save(&p, &[t, i]).unwrap_or_else(|e| panic!("thread {t} save {i}: {e}"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(std::fs::read(&p).unwrap().len(), 2);
    assert_eq!(temps(dir.path()), Vec::<String>::new());
}

#[test]
fn a_large_streamed_save_keeps_every_byte_across_its_write_out_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.bin");
    // odd-sized writes crossing several 2 MiB write-out pieces
    let data: Vec<u8> = (0..(5 << 20) + 3).map(|i: usize| (i % 251) as u8).collect();
    pte_core::write_atomically(&path, |w| {
        for chunk in data.chunks(777_777) {
            w.write_all(chunk)?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), data);
}
