//! `pte shrink`: a command's exit status as the predicate, `{}` replaced by
//! the candidate, the input checked first, budgets and timeouts honoured.

use std::path::Path;

use crate::support::{corpus, pte, PTE};

/// `pte mutate --rule CLASS` applied to a corpus program, in `dir`.
fn broken(dir: &Path, class: &str) -> std::path::PathBuf {
    let out = dir.join("broken.pte");
    let o = pte(&["mutate", "--rule", class, corpus("linear/model.pte").to_str().unwrap(), out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// `pte shrink INPUT -o OUT OPTIONS... -- COMMAND...`.
fn shrink(input: &Path, out: &Path, options: &[&str], command: &[&str]) -> std::process::Output {
    let mut args = vec!["shrink", input.to_str().unwrap(), "-o", out.to_str().unwrap()];
    args.extend(options);
    args.push("--");
    args.extend(command);
    pte(&args)
}

fn text(o: &std::process::Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn a_rule_kept_broken_by_a_shell_predicate_shrinks_the_same_way_twice() {
    let dir = tempfile::tempdir().unwrap();
    let input = broken(dir.path(), "pte.input-index");
    let keeps_rule = format!("{PTE} verify \"$0\" | grep -q '\\[plan.io_index\\]'");
    let mut outputs = vec![];
    for n in 0..2 {
        let out = dir.path().join(format!("small-{n}.pte"));
        let o = shrink(&input, &out, &[], &["sh", "-c", &keeps_rule, "{}"]);
        let (stdout, stderr) = text(&o);
        assert!(o.status.success(), "{stdout}{stderr}");
        let before = std::fs::metadata(&input).unwrap().len();
        let after = std::fs::read(&out).unwrap();
        assert!(stdout.contains(&format!(": {before} -> {} bytes", after.len())), "{stdout}");
        assert!(stdout.contains(" runs, ") && stdout.contains(&format!("wrote {}", out.display())), "{stdout}");
        assert!(after.len() * 4 < before as usize, "{stdout}");
        // still what the predicate asked for
        let v = pte(&["verify", out.to_str().unwrap()]);
        assert!(text(&v).0.contains("[plan.io_index]"));
        outputs.push(after);
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn verify_inverted_shrinks_to_what_verify_still_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let input = broken(dir.path(), "pte.bad-identifier");
    let out = dir.path().join("small.pte");
    let fails = format!("! {PTE} verify \"$0\" >/dev/null 2>&1");
    let o = shrink(&input, &out, &[], &["sh", "-c", &fails, "{}"]);
    assert!(o.status.success(), "{:?}", text(&o));
    let small = std::fs::read(&out).unwrap();
    assert!(small.len() < 16, "{} bytes", small.len());
    assert!(!pte(&["verify", out.to_str().unwrap()]).status.success());
}

#[test]
fn an_input_the_command_rejects_is_refused_with_its_status() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.pte");
    let input = corpus("add/model.pte");
    let o = shrink(&input, &out, &[], &["sh", "-c", "exit 3"]);
    assert_eq!(o.status.code(), Some(2));
    let (_, stderr) = text(&o);
    assert!(stderr.contains("not interesting") && stderr.contains("exit status: 3"), "{stderr}");
    assert!(!out.exists());
}

#[test]
fn a_run_past_its_timeout_is_stopped_and_not_interesting() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.pte");
    let input = corpus("add/model.pte");
    let start = std::time::Instant::now();
    let o = shrink(&input, &out, &["--timeout-per-run", "0.3"], &["sh", "-c", "sleep 30", "{}"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).1.contains("ran past --timeout-per-run"), "{:?}", text(&o));
    assert!(start.elapsed() < std::time::Duration::from_secs(15));
}

#[test]
fn max_runs_stops_with_the_best_so_far() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("small.pte");
    let input = corpus("add/model.pte");
    // interesting while over 100 bytes: `true` alone lets the first byte
    // pass empty the file in two runs
    let o = shrink(&input, &out, &["--max-runs", "6"], &["sh", "-c", "test $(wc -c < \"$1\") -gt 100", "sh", "{}"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stderr}");
    assert!(stdout.contains(", 6 runs, ") && stdout.contains("(stopped at --max-runs)"), "{stdout}");
    assert!(std::fs::metadata(&out).unwrap().len() <= std::fs::metadata(&input).unwrap().len());
}
