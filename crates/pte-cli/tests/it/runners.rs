//! `pte samples check SOURCE -- CMD`: the runner protocol for real, against
//! `pte-runner-demo` (a running-sum model with switches that make it
//! misbehave): pass, mismatch, state carried and fresh, and every way a
//! runner can fail (exit 2, one line naming the call, its stderr quoted).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use pte_samples::*;
use serde_json::Value as Json;

use crate::support::{demo_runner, f32s, s, stderr as err, stdout as out, PTE};

/// What `forward` of the demo returns after `xs`: the running sum and the count.
pub(crate) fn sums_set(tweak: impl Fn(usize, usize, &mut Vec<f32>)) -> SampleSet<'static> {
    let steps: [[f32; 2]; 3] = [[1.0, 2.0], [0.5, 0.25], [-1.0, 4.0]];
    let mut set = SampleSet::new("forward", "sums");
    for si in 0..2 {
        let mut state = [0.0f32; 2];
        let mut calls = vec![];
        for (ci, x) in steps.iter().enumerate() {
            state[0] += x[0];
            state[1] += x[1];
            let mut expected = state.to_vec();
            tweak(si, ci, &mut expected);
            calls.push(Call {
                inputs: vec![Value::Tensor(f32s(vec![2], x))],
                outputs: vec![Value::Tensor(f32s(vec![2], &expected)), Value::Int(ci as i64 + 1)],
                tolerance: (ci == 2).then_some(Tolerance { atol: 1e-3, rtol: 0.0 }),
            });
        }
        set.samples.push(Sample { name: Some(format!("run {si}")), tolerance: None, calls });
    }
    set
}

pub(crate) fn write_set(dir: &Path, set: &SampleSet<'_>) -> PathBuf {
    let enc = encode_set(set, &SampleLimits::default()).unwrap();
    let d = dir.join(&set.method).join(&set.name);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(INDEX_FILE), enc.index).unwrap();
    std::fs::write(d.join(DATA_FILE), enc.data).unwrap();
    dir.to_path_buf()
}

fn check(source: &Path, extra: &[&str], runner_args: &[&str]) -> Output {
    let mut cmd = Command::new(PTE);
    cmd.args(["samples", "check", s(source)]).args(extra).arg("--").arg(demo_runner()).args(runner_args);
    cmd.output().unwrap()
}

fn json_of(o: &Output) -> Json {
    serde_json::from_str(&out(o)).unwrap_or_else(|e| panic!("{e}: {}", out(o)))
}

pub(crate) fn sums_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_set(dir.path(), &sums_set(|_, _, _| {}));
    dir
}

#[test]
fn a_runner_that_computes_what_was_recorded_passes() {
    let dir = sums_dir();
    let o = check(dir.path(), &[], &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    let text = out(&o);
    assert!(text.contains("runner: pte-runner-demo"), "{text}");
    assert!(text.contains("forward/sums sample 1 call 2: ok, max abs error 0e0"), "{text}");
    assert!(text.contains("from sample 1 call 2"), "the level of a call's own tolerance: {text}");
    assert!(text.ends_with("1 set, 2 samples, 6 calls, 12 outputs compared, 0 skipped: all passed\n"), "{text}");

    let j = json_of(&check(dir.path(), &["--json"], &[]));
    assert_eq!(j["verdict"], "passed");
    assert_eq!(j["call_results"].as_array().unwrap().len(), 6);
    assert_eq!(j["call_results"][2]["level"], "call");
    assert_eq!(j["call_results"][0]["level"], "default");
}

#[test]
fn an_element_off_by_ten_tolerances_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    // call 2 carries atol 1e-3: move element 1 of sample 1 by ten times that
    write_set(
        dir.path(),
        &sums_set(|si, ci, v| {
            if (si, ci) == (1, 2) {
                v[1] += 1e-2
            }
        }),
    );
    let o = check(dir.path(), &["--json"], &[]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let j = json_of(&o);
    assert_eq!(j["verdict"], "mismatch");
    let f = &j["failures"].as_array().unwrap()[..];
    assert_eq!(f.len(), 1, "{j}");
    let f = &f[0];
    assert_eq!((f["sample"].as_u64(), f["call"].as_u64(), f["output"].as_u64()), (Some(1), Some(2), Some(0)));
    assert_eq!((f["element"].as_u64(), f["level"].as_str()), (Some(1), Some("call")));
    assert_eq!((f["expected"].as_f64(), f["actual"].as_f64()), (Some(f64::from(6.26f32)), Some(6.25)));
    assert!(f["error"].as_f64().unwrap() > f["allowed"].as_f64().unwrap());
    assert_eq!(f["allowed"].as_f64(), Some(1e-3));
    let call = &j["call_results"][5];
    assert_eq!(
        (call["passed"].as_bool(), call["sample"].as_u64(), call["call"].as_u64()),
        (Some(false), Some(1), Some(2))
    );
    assert!((call["max_abs_error"].as_f64().unwrap() - 1e-2).abs() < 1e-4, "{call}");
    assert!(call["max_rel_error"].as_f64().unwrap() > 1e-3, "{call}");

    let o = check(dir.path(), &[], &[]);
    assert!(
        out(&o).contains(
            "FAIL forward/sums sample 1 (\"run 1\") call 2: output 0: 1 element outside tolerance; worst at index 1"
        ),
        "{}",
        out(&o)
    );
}

#[test]
fn state_carries_across_calls_and_never_across_samples() {
    let dir = sums_dir();
    // reloading before every call: every call after the first of a sample is wrong
    let o = check(dir.path(), &["--json"], &["--forget"]);
    assert_eq!(o.status.code(), Some(1));
    let failed: Vec<(u64, u64)> = json_of(&o)["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["sample"].as_u64().unwrap(), f["call"].as_u64().unwrap()))
        .collect();
    assert!(failed.contains(&(0, 1)) && failed.contains(&(0, 2)) && failed.contains(&(1, 2)), "{failed:?}");
    assert!(!failed.contains(&(0, 0)) && !failed.contains(&(1, 0)), "first calls have no state to lose: {failed:?}");
    // keeping the state into the next sample: only sample 1 is wrong
    let o = check(dir.path(), &["--json"], &["--ignore-fresh"]);
    assert_eq!(o.status.code(), Some(1));
    let j = json_of(&o);
    assert!(j["failures"].as_array().unwrap().iter().all(|f| f["sample"] == 1), "{j}");
}

#[test]
fn nan_where_a_number_was_recorded_is_a_mismatch_naming_the_element() {
    let dir = sums_dir();
    let o = check(dir.path(), &[], &["--nan-at", "2"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(out(&o).contains("sample 0 (\"run 0\") call 1: output 0: 1 element outside tolerance; worst at index 0: expected 1.5, got NaN"), "{}", out(&o));
}

/// Runs a check that must fail for the runner's sake: exit 2 and one line
/// (on stderr) naming the call in flight, followed by the runner's stderr.
fn runner_failure(runner_args: &[&str], extra: &[&str]) -> String {
    let dir = sums_dir();
    let started = Instant::now();
    let o = check(dir.path(), extra, runner_args);
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(o.status.code(), Some(2), "{runner_args:?}: {}{}", out(&o), err(&o));
    let e = err(&o);
    assert!(e.starts_with("pte: forward/sums sample "), "{e}");
    e
}

#[test]
fn a_runner_that_crashes_is_named_with_its_last_words() {
    let e = runner_failure(&["--crash-at", "2"], &[]);
    assert!(
        e.contains(
            "sample 0 (\"run 0\") call 1: the call failed: the runner exited (status 3) during call of \"forward\""
        ),
        "{e}"
    );
    assert!(e.contains("| demo runner: crashing in call 2"), "{e}");
}

#[test]
fn a_runner_that_hangs_is_stopped_after_the_timeout() {
    let started = Instant::now();
    let e = runner_failure(&["--hang-at", "3"], &["--timeout", "1"]);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(e.contains("call 2: the call failed: the runner did not answer call of \"forward\" within 1 s"), "{e}");
    assert!(e.contains("| demo runner: hanging in call 3"), "{e}");
}

#[test]
fn garbage_wrong_counts_and_dtypes_are_runner_failures() {
    let e = runner_failure(&["--garbage-at", "1"], &[]);
    assert!(
        e.contains(
            "call 0: the call failed: the runner answered call of \"forward\" with garbage: a header that is not JSON"
        ),
        "{e}"
    );
    let e = runner_failure(&["--wrong-count-at", "2"], &[]);
    assert!(e.contains("call 1: 3 outputs returned, 2 recorded"), "{e}");
    let e = runner_failure(&["--wrong-dtype-at", "1"], &[]);
    assert!(e.contains("call 0: output 0: dtype float32 expected, got float64"), "{e}");
    let e = runner_failure(&["--chatty"], &[]);
    assert!(e.contains("could not start: the runner answered hello with garbage"), "{e}");
    let e = runner_failure(&["--refuse-hello"], &[]);
    assert!(e.contains("the runner refused hello: this runner is switched off"), "{e}");
}

#[test]
fn a_runner_that_is_missing_or_leaves_early_is_named() {
    let e = runner_failure(&["--exit-early"], &[]);
    assert!(e.contains("the runner exited (status 4) during hello"), "{e}");
    assert!(e.contains("| demo runner: giving up before hello"), "{e}");
    let dir = sums_dir();
    let o =
        Command::new(PTE).args(["samples", "check", s(dir.path()), "--", "/nonexistent/pte-runner"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("could not start the runner `/nonexistent/pte-runner`"), "{}", err(&o));
}

#[test]
fn samples_for_a_method_the_runner_lacks_are_refused_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let mut set = sums_set(|_, _, _| {});
    set.method = "decode".into();
    write_set(dir.path(), &set);
    let o = check(dir.path(), &[], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("the runner has no method \"decode\" (it has forward, scale)"), "{}", err(&o));
}

#[test]
fn method_and_set_select_and_a_wrong_selection_is_bad_input() {
    let dir = sums_dir();
    let o = check(dir.path(), &["--method", "forward", "--set", "sums"], &[]);
    assert_eq!(o.status.code(), Some(0));
    let o = check(dir.path(), &["--set", "other"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("has no sample set */other (it has forward/sums)"), "{}", err(&o));
    let o = Command::new(PTE).args(["samples", "check", s(dir.path())]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("takes a runner command after `--`, or --actual"), "{}", err(&o));
    let o = check(dir.path(), &["--timeout", "0"], &[]);
    assert_eq!(o.status.code(), Some(2));
}

/// Whether process `pid` still exists (a zombie counts as gone).
#[cfg(target_os = "linux")]
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "))
}

#[cfg(target_os = "linux")]
#[test]
fn no_process_outlives_the_check() {
    let dir = sums_dir();
    // the demo's child `sleep 600` shares its process group: stopping a hung
    // runner must take it too
    let o = Command::new(PTE)
        .args([
            "samples",
            "check",
            s(dir.path()),
            "--timeout",
            "1",
            "--",
            s(&demo_runner()),
            "--spawn-sleeper",
            "--hang-at",
            "1",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // every `sleep 600` whose parent was a demo runner of this test has gone
    std::thread::sleep(Duration::from_millis(200));
    let sleepers: Vec<u32> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|pid: &u32| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == b"sleep\x00600\x00") && alive(*pid)
        })
        .collect();
    assert!(sleepers.is_empty(), "left behind: {sleepers:?}");
}

#[test]
fn the_demo_runner_has_help_and_is_not_installed_with_pte() {
    let o = Command::new(demo_runner()).arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let help = out(&o);
    assert!(help.starts_with("pte-runner-demo: a runner of the pte-runner protocol"), "{help}");
    for switch in ["--forget", "--crash-at N", "--offset X", "--spawn-sleeper", "--help"] {
        assert!(help.contains(switch), "{switch}: {help}");
    }
    assert!(err(&o).is_empty(), "help starts no runner: {}", err(&o));
    // `cargo install` installs every [[bin]]: the demo is an example instead
    let manifest = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap();
    let bins: Vec<&str> = manifest.split("[[").filter(|t| t.starts_with("bin]]")).collect();
    assert_eq!(bins.len(), 1, "{bins:?}");
    assert!(bins[0].contains("name = \"pte\"\n"), "{bins:?}");
}

/// `pte samples check` with at most `kib` KiB of address space (a soft
/// limit), its runner `sh` lifting it again: the bound is pte's, whatever
/// the runner spends to misbehave.
#[cfg(unix)]
fn limited_check(kib: u64, source: &Path, extra: &[&str], runner_args: &[&str]) -> Output {
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg(format!("ulimit -S -v {kib} && exec \"$0\" \"$@\"")).arg(PTE);
    cmd.args(["samples", "check", s(source)]).args(extra);
    let demo = demo_runner();
    cmd.args(["--", "sh", "-c", "ulimit -S -v unlimited && exec \"$0\" \"$@\"", s(&demo)]).args(runner_args);
    cmd.output().unwrap()
}

/// What pte may use against a hostile runner: 64 MiB and twice the
/// package (a few KiB here). Today's tip used gigabytes on each of these.
#[cfg(unix)]
const CHECK_KIB: u64 = 64 << 10;

/// The one `pte:` line a hostile runner gets, and its quoted stderr.
#[cfg(unix)]
fn bounded_failure(runner_args: &[&str], extra: &[&str]) -> String {
    let dir = sums_dir();
    let o = limited_check(CHECK_KIB, dir.path(), extra, runner_args);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2), "{runner_args:?}: {e}");
    assert!(e.starts_with("pte: forward/sums sample "), "{e}");
    assert!(e.len() < 20_000, "{runner_args:?}: {} bytes on stderr", e.len());
    e
}

#[cfg(unix)]
#[test]
fn a_reply_claiming_a_huge_payload_is_refused_unread() {
    let e = bounded_failure(&["--huge-data-at", "2"], &[]);
    assert!(
        e.contains("call 1: the call failed: the runner answered call of \"forward\" with garbage: \"data\" is 1099511627776 bytes where the values it carries need at most"),
        "{e}"
    );
    let e = bounded_failure(&["--huge-shape-at", "1"], &[]);
    assert!(e.contains("its values declare 1099511627776 bytes of tensors where the recorded ones hold 16"), "{e}");
}

#[cfg(unix)]
#[test]
fn a_header_listing_a_million_outputs_stops_at_the_limit() {
    let e = bounded_failure(&["--many-outputs-at", "1"], &[]);
    assert!(e.contains("with garbage: a header that does not read (more than 4096 values"), "{e}");
}

#[cfg(unix)]
#[test]
fn stderr_without_a_newline_is_kept_as_a_bounded_tail() {
    let e = bounded_failure(&["--stderr-flood-at", "1"], &["--timeout", "3"]);
    let last = e.lines().last().unwrap();
    assert!(last.starts_with(&format!("  | {}... (", "x".repeat(500))), "{last}");
    assert!(last.ends_with(" bytes in all) (no newline yet)"), "{last}");
    assert!(e.contains("| demo runner: started"), "{e}");
    assert!(!e.contains("wrote nothing on stderr"), "{e}");
}

#[test]
fn runner_text_reaches_the_terminal_as_one_escaped_capped_line() {
    let e = runner_failure(&["--ugly-error-at", "1"], &[]);
    let first = e.lines().next().unwrap();
    assert!(
        first.contains(r#"the runner refused call of "forward": line one\nline two \u001b[31mred\u001b[0m\ryyy"#),
        "{first}"
    );
    assert!(first.ends_with("... (100031 bytes in all); the runner's last stderr lines:"), "{first}");
    assert!(first.len() < 1300 && !e.contains('\u{1b}') && !e.contains('\r'), "{} bytes", first.len());
    // a hello listing a million and a half names is refused while read ...
    let e = runner_failure(&["--many-methods", "1500000"], &[]);
    assert!(
        e.contains("the runner answered hello with garbage: a header that does not read (more than 4096 method names"),
        "{e}"
    );
    assert!(e.len() < 5000, "{} bytes", e.len());
    // ... and a shorter list is named in part
    let dir = sums_dir();
    let o = check(dir.path(), &[], &["--many-methods", "100"]);
    assert!(err(&o).contains("the runner has no method \"forward\" (it has m0, m1, m2, "), "{}", err(&o));
    assert!(err(&o).contains(", m15, and 84 more)"), "{}", err(&o));
}

#[cfg(target_os = "linux")]
#[test]
fn a_runner_that_exits_is_named_at_once_whoever_holds_its_pipes() {
    let dir = sums_dir();
    let started = Instant::now();
    let o = check(dir.path(), &["--timeout", "60"], &["--exit-leaving-child-at", "2"]);
    assert!(started.elapsed() < Duration::from_secs(20), "waited {:?}", started.elapsed());
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("call 1: the call failed: the runner exited (status 5) during call of \"forward\""), "{e}");
    assert!(e.contains("| demo runner: leaving in call 2"), "{e}");
}

/// The processes whose command line holds `tag`, alive.
#[cfg(target_os = "linux")]
fn tagged(tag: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|pid: &u32| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|c| c.split(|&b| b == 0).any(|a| a == tag.as_bytes()))
                && alive(*pid)
        })
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn a_stop_signal_stops_the_runner_first() {
    let dir = sums_dir();
    for (name, number) in [("INT", 2), ("TERM", 15), ("HUP", 1)] {
        let tag = format!("stop-test-{}-{name}", std::process::id());
        let child = Command::new(PTE)
            .args(["samples", "check", s(dir.path()), "--timeout", "60", "--"])
            .arg(demo_runner())
            .args(["--tag", &tag, "--hang-at", "1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let waited = Instant::now();
        while tagged(&tag).is_empty() {
            assert!(waited.elapsed() < Duration::from_secs(20), "the runner never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        // let it reach the hanging call
        std::thread::sleep(Duration::from_millis(300));
        let k = Command::new("kill").arg(format!("-{name}")).arg(child.id().to_string()).status().unwrap();
        assert!(k.success());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(128 + number), "{name}: {}", err(&o));
        assert!(
            err(&o).contains(&format!("pte: interrupted by signal {number}; the runner was stopped")),
            "{}",
            err(&o)
        );
        assert!(tagged(&tag).is_empty(), "SIG{name} left the runner running");
    }
}
