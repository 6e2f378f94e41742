//! Writing never damages a file when something else happens at the same
//! time: two concurrent in-place edits both land (or one is refused with
//! `--no-wait`), and a save killed by SIGKILL or stopped by a file-size limit
//! leaves the target old or new and no temporary file behind. Modes, links
//! and aliases are in `save_safety.rs`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use pte_file::WriteOptions;

use crate::support::save::*;
use crate::support::*;

// ---------------------------------------------------------------- concurrent edits

fn spawn(dir: &Path, args: &[&str]) -> Child {
    Command::new(PTE).current_dir(dir).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// Waits until some process holds a lock on the file with inode `ino`
/// (from /proc/locks on Linux), or `child` has ended.
fn wait_until_locked(child: &mut Child, ino: u64) {
    if !Path::new("/proc/locks").exists() {
        return;
    }
    let needle = format!(":{ino}");
    while child.try_wait().unwrap().is_none() {
        let locks = std::fs::read_to_string("/proc/locks").unwrap_or_default();
        let held = locks.lines().any(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            f.get(1) != Some(&"->") && f.get(5).is_some_and(|x| x.ends_with(&needle))
        });
        if held {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Runs two edits of `package`, starting the second once the first holds
/// the package's edit lock, so that they really overlap; returns their outputs.
fn race(dir: &Path, package: &Path, first: &[&str], second: &[&str]) -> (Output, Output) {
    let lock_ino = ino(package);
    let mut a = spawn(dir, first);
    wait_until_locked(&mut a, lock_ino);
    let b = spawn(dir, second);
    (a.wait_with_output().unwrap(), b.wait_with_output().unwrap())
}

/// Checks the outcome of a race of two edits: both landed, or (only with
/// `--no-wait`) one failed with the busy message and only the other landed.
/// Returns whether one was refused.
fn judge(
    trial: usize,
    no_wait: bool,
    (a, b): (&Output, &Output),
    sets: &[String],
    a_set: Option<&str>,
    b_set: Option<&str>,
) -> bool {
    let has = |s: Option<&str>| s.is_none_or(|s| sets.iter().any(|x| x == s));
    match (a.status.success(), b.status.success()) {
        (true, true) => {
            assert!(has(a_set) && has(b_set), "trial {trial}: a change was lost: {sets:?}");
            false
        }
        (ok_a, ok_b) if no_wait && ok_a != ok_b => {
            let (failed, landed, lost) = if ok_a { (b, a_set, b_set) } else { (a, b_set, a_set) };
            assert_eq!(failed.status.code(), Some(2), "trial {trial}");
            assert!(stderr(failed).contains("being edited"), "trial {trial}: {}", stderr(failed));
            assert!(has(landed), "trial {trial}: the other change is missing: {sets:?}");
            if let Some(lost) = lost {
                assert!(!sets.iter().any(|x| x == lost), "trial {trial}: the failed change landed: {sets:?}");
            }
            true
        }
        _ => panic!("trial {trial} (no_wait {no_wait}): {}\n{}", stderr(a), stderr(b)),
    }
}

/// `args`, with `--no-wait` when asked.
fn maybe_no_wait<'a>(args: &[&'a str], no_wait: bool) -> Vec<&'a str> {
    let mut v = args.to_vec();
    if no_wait {
        v.push("--no-wait");
    }
    v
}

/// Calls in the large set: about 750 bytes each (index entry, safetensors
/// header entries and data), so some 15 MB.
const BIG_CALLS: usize = 20_000;

#[test]
fn concurrent_samples_adds_keep_both_sets_or_one_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_set_dir(&d.join("big"), &set("big", BIG_CALLS));
    write_set_dir(&d.join("small"), &set("small", 1));
    let size: u64 =
        ["big/index.json", "big/data.safetensors"].iter().map(|f| d.join(f).metadata().unwrap().len()).sum();
    assert!(size > 10 << 20, "the big set is only {size} bytes");
    let pkg = d.join("pkg.ptn");
    let mut refused = 0;
    for trial in 0..20 {
        // Even trials wait for the lock, odd ones pass --no-wait.
        let no_wait = trial % 2 == 1;
        std::fs::copy(corpus("native_ptn/model.ptn"), &pkg).unwrap();
        // The small edit arrives while the large one holds the lock.
        let (a, b) = race(
            d,
            &pkg,
            &maybe_no_wait(&["samples", "add", "pkg.ptn", "big"], no_wait),
            &maybe_no_wait(&["samples", "add", "pkg.ptn", "small"], no_wait),
        );
        let sets = set_names(&pkg);
        refused += usize::from(judge(trial, no_wait, (&a, &b), &sets, Some("forward/big"), Some("forward/small")));
        assert_eq!(temps(d), Vec::<PathBuf>::new());
    }
    eprintln!("{refused} of 10 --no-wait races ended with one edit refused");
}

#[test]
fn a_concurrent_rewrite_onto_itself_never_drops_a_samples_add() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A large package, so that each edit holds the lock for a while.
    std::fs::copy(corpus("native_ptn/model.ptn"), d.join("base.ptn")).unwrap();
    write_set_dir(&d.join("big"), &set("big", BIG_CALLS));
    write_set_dir(&d.join("small"), &set("small", 1));
    ok(&pte_in(d, &["samples", "add", "base.ptn", "big"]), "base package");
    let pkg = d.join("pkg.ptn");
    for trial in 0..20 {
        let no_wait = trial % 2 == 1;
        std::fs::copy(d.join("base.ptn"), &pkg).unwrap();
        let rewrite = maybe_no_wait(&["rewrite", "pkg.ptn", "pkg.ptn"], no_wait);
        let add = maybe_no_wait(&["samples", "add", "pkg.ptn", "small"], no_wait);
        let add_first = trial % 4 < 2;
        let (add_out, rewrite_out) = if add_first {
            race(d, &pkg, &add, &rewrite)
        } else {
            let (r, a) = race(d, &pkg, &rewrite, &add);
            (a, r)
        };
        let sets = set_names(&pkg);
        judge(trial, no_wait, (&add_out, &rewrite_out), &sets, Some("forward/small"), None);
        let want: &[&str] = if add_out.status.success() { &["forward/big", "forward/small"] } else { &["forward/big"] };
        assert_eq!(sets, want, "trial {trial}");
        assert_eq!(temps(d), Vec::<PathBuf>::new());
    }
    ok(&pte_in(d, &["verify", "pkg.ptn"]), "the package stays valid");
}

// ---------------------------------------------------------------- kills and limits

/// A valid program whose one constant is `bytes` long (a multiple of 4).
fn big_program(path: &Path, bytes: usize) {
    let opts = WriteOptions::default();
    pte_file::test_programs::one_big_constant(bytes).build(&opts).unwrap().save(path, &opts).unwrap();
}

/// Whether two files hold the same bytes (compared in chunks, so 100 MiB
/// files cost no more than two buffers).
fn same_bytes(a: &Path, b: &Path) -> bool {
    use std::io::Read;
    let (mut fa, mut fb) = (std::fs::File::open(a).unwrap(), std::fs::File::open(b).unwrap());
    if fa.metadata().unwrap().len() != fb.metadata().unwrap().len() {
        return false;
    }
    let (mut ba, mut bb) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = fa.read(&mut ba).unwrap();
        if n == 0 {
            return true;
        }
        fb.read_exact(&mut bb[..n]).unwrap();
        if ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// A small deterministic generator for the kill points (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

#[test]
fn sigkill_during_a_100_mib_save_leaves_the_target_old_or_new() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("seed.pte"), 100 << 20);
    assert!(d.join("seed.pte").metadata().unwrap().len() >= 100 << 20);
    // Independent copies to compare against: `seed.pte` itself would change
    // too if a save wrote into the target's inode.
    std::fs::copy(d.join("seed.pte"), d.join("old.ref")).unwrap();
    let args = ["rewrite", "target.pte", "target.pte", "--segment-alignment", "65536"];
    std::fs::hard_link(d.join("seed.pte"), d.join("target.pte")).unwrap();
    let started = std::time::Instant::now();
    ok(&pte_in(d, &args), "an uninterrupted save");
    // Only to spread the kill points over a whole save; nothing asserts on it.
    let full = started.elapsed().as_micros() as u64;
    std::fs::rename(d.join("target.pte"), d.join("new.ref")).unwrap();
    assert!(!same_bytes(&d.join("old.ref"), &d.join("new.ref")), "the rewrite must change the file");

    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut old, mut new) = (0, 0);
    for trial in 0..20 {
        // Each trial starts from the old file; the save replaces the name only.
        let _ = std::fs::remove_file(d.join("target.pte"));
        std::fs::hard_link(d.join("seed.pte"), d.join("target.pte")).unwrap();
        let mut child =
            Command::new(PTE).current_dir(d).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_micros(rng.below(full + full / 5)));
        let _ = child.kill(); // SIGKILL; the save may have finished already
        child.wait().unwrap();
        let target = d.join("target.pte");
        if same_bytes(&target, &d.join("old.ref")) {
            old += 1;
        } else if same_bytes(&target, &d.join("new.ref")) {
            new += 1;
        } else {
            panic!("trial {trial}: the target is neither the old nor the new file");
        }
        let left = temps(d);
        // A save removes stale temporary files before it makes its own.
        assert!(left.len() <= 1, "trial {trial}: temporary files pile up: {left:?}");
    }
    eprintln!("20 kills: {old} left the old file, {new} the new one");
    // The next save removes whatever a killed save left behind.
    ok(&pte_in(d, &args), "the next save");
    assert_eq!(temps(d), Vec::<PathBuf>::new());
    assert!(
        same_bytes(&d.join("target.pte"), &d.join("new.ref")) || same_bytes(&d.join("target.pte"), &d.join("old.ref"))
    );
    assert!(same_bytes(&d.join("seed.pte"), &d.join("old.ref")), "a save wrote into the old file");
}

#[test]
fn a_save_killed_while_its_temporary_file_exists_is_cleaned_up_by_the_next_save() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("a.pte"), 32 << 20);
    let before = std::fs::read(d.join("a.pte")).unwrap();
    let args = ["rewrite", "a.pte", "a.pte", "--segment-alignment", "65536"];
    // Kill as soon as the temporary file shows up; retry if the save won the race.
    let mut caught = false;
    for _ in 0..50 {
        let mut child =
            Command::new(PTE).current_dir(d).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        while temps(d).is_empty() && child.try_wait().unwrap().is_none() {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        let _ = child.kill();
        child.wait().unwrap();
        if std::fs::read(d.join("a.pte")).unwrap() != before {
            std::fs::write(d.join("a.pte"), &before).unwrap();
            continue;
        }
        if !temps(d).is_empty() {
            caught = true;
            break;
        }
    }
    assert!(caught, "never caught a save with its temporary file in place");
    assert_eq!(std::fs::read(d.join("a.pte")).unwrap(), before);
    ok(&pte_in(d, &args), "the next save");
    assert_eq!(temps(d), Vec::<PathBuf>::new());
}

#[test]
fn a_write_past_the_file_size_limit_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    big_program(&d.join("big.pte"), 1 << 20);
    std::fs::copy(corpus("add/model.pte"), d.join("out.pte")).unwrap();
    set_mode(&d.join("out.pte"), 0o644);
    std::fs::copy(corpus("native_ptn/model.ptn"), d.join("pkg.ptn")).unwrap();
    // a program large enough to be copied while it is verified
    std::fs::copy(corpus("deep_program/model.pte"), d.join("deep.pte")).unwrap();
    write_set_dir(&d.join("big"), &set("big", 2_000));
    // `ulimit -f` counts blocks of 512 or 1024 bytes: 64 is at most 64 KiB.
    let cases: &[&[&str]] = &[
        &["rewrite", "big.pte", "out.pte"],
        &["rewrite", "big.pte", "new.pte"],
        &["rewrite", "big.pte", "big.pte", "--segment-alignment", "65536"],
        &["rewrite", "deep.pte", "out.pte"],
        &["rewrite", "deep.pte", "new.pte"],
        &["rewrite", "deep.pte", "deep.pte"],
        &["samples", "add", "pkg.ptn", "big"],
    ];
    let before = snapshot(d);
    for args in cases {
        let o = pte_sh(d, "ulimit -f 64", args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {:?} {}", o.status, stderr(&o));
        assert!(stderr(&o).contains("File too large"), "{args:?}: {}", stderr(&o));
        if args[0] == "rewrite" {
            // the write failed, not the read: the output is named
            let output = args[2];
            assert!(stderr(&o).contains(&format!("writing {output}")), "{args:?}: {}", stderr(&o));
        }
        assert_eq!(snapshot(d), before, "{args:?} changed a file or left one behind");
    }
}
