//! Stop signals and saves: a signal during a save fails it and removes its
//! temporary file; outside a save it ends the process as it always did; a
//! save killed outright (SIGKILL) leaves a file the next save removes. Each
//! case runs in a child process (this test binary again), since signal
//! dispositions are process-wide.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

/// Set in a child run: `save DIR`, `idle DIR` or `plain-save DIR`.
const CHILD: &str = "PTE_CORE_INTERRUPT_CHILD";
/// The exit status a child gives when its save failed as promised.
const FAILED_AS_PROMISED: i32 = 42;

fn endless_save(dir: &Path) -> pte_core::Result<()> {
    pte_core::write_atomically(&dir.join("out.bin"), |w| loop {
        w.write_all(&[7u8; 1 << 16])?;
    })
}

/// Runs in the child: what `CHILD` asks for. Returns whether it was a child.
fn child() -> bool {
    let Ok(what) = std::env::var(CHILD) else { return false };
    let (mode, dir) = what.split_once(' ').unwrap();
    let dir = Path::new(dir);
    match mode {
        "save" => {
            pte_core::stop_saves_on_signals();
            let e = endless_save(dir).unwrap_err();
            let left = std::fs::read_dir(dir).unwrap().count();
            let ok = e.kind() == pte_core::ErrorKind::Interrupted && left == 0 && pte_core::interrupted().is_some();
            std::process::exit(if ok { FAILED_AS_PROMISED } else { 1 });
        }
        "idle" => {
            pte_core::stop_saves_on_signals();
            std::fs::write(dir.join("ready"), b"").unwrap();
            loop {
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        "plain-save" => {
            let _ = endless_save(dir);
            std::process::exit(1);
        }
        _ => panic!("unknown child mode {mode}"),
    }
}

fn spawn(mode: &str, dir: &Path, test: &str) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(CHILD, format!("{mode} {}", dir.display()))
        .spawn()
        .unwrap()
}

/// Waits (at most a minute) until `dir` holds a file.
fn wait_for_a_file(dir: &Path) {
    let start = Instant::now();
    while std::fs::read_dir(dir).unwrap().count() == 0 {
        assert!(start.elapsed() < Duration::from_secs(60), "the child never started");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill").args([sig, &child.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill {sig} failed");
}

#[test]
fn a_stop_signal_during_a_save_fails_it_and_removes_its_temporary_file() {
    if child() {
        return;
    }
    for sig in ["-TERM", "-INT", "-HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let mut c =
            spawn("save", dir.path(), "interrupt::a_stop_signal_during_a_save_fails_it_and_removes_its_temporary_file");
        wait_for_a_file(dir.path());
        signal(&c, sig);
        let status = c.wait().unwrap();
        assert_eq!(status.code(), Some(FAILED_AS_PROMISED), "{sig}: {status:?}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "{sig}");
    }
}

#[test]
fn a_stop_signal_outside_a_save_ends_the_process() {
    if child() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut c = spawn("idle", dir.path(), "interrupt::a_stop_signal_outside_a_save_ends_the_process");
    wait_for_a_file(dir.path());
    signal(&c, "-TERM");
    let status = c.wait().unwrap();
    assert_eq!(status.signal(), Some(15), "{status:?}");
}

#[test]
fn the_temporary_file_of_a_killed_save_is_removed_by_the_next_save() {
    if child() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut c =
        spawn("plain-save", dir.path(), "interrupt::the_temporary_file_of_a_killed_save_is_removed_by_the_next_save");
    wait_for_a_file(dir.path());
    signal(&c, "-KILL");
    assert_eq!(c.wait().unwrap().signal(), Some(9));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "the killed save's temporary file");
    pte_core::write_atomically(&dir.path().join("out.bin"), |w| Ok(w.write_all(b"done")?)).unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, ["out.bin"]);
}
