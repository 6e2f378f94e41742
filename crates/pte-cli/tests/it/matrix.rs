//! `pte samples check SOURCE --runner NAME=COMMAND ...`: every set through
//! every runner, one table, each report under its runner's name, with the
//! demo runner standing in for two releases of a runtime.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value as Json;

use crate::runners::{sums_dir, sums_set, write_set};
use crate::support::{demo_runner, s, stderr as err, stdout as out, PTE};

fn matrix(source: &Path, extra: &[&str], runners: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(PTE);
    cmd.args(["samples", "check", s(source)]).args(extra);
    for (name, args) in runners {
        cmd.arg("--runner").arg(format!("{name}={} {args}", demo_runner().display()));
    }
    cmd.output().unwrap()
}

fn json_of(o: &Output) -> Json {
    serde_json::from_str(&out(o)).unwrap_or_else(|e| panic!("{e}: {}", out(o)))
}

/// The table's row for a runner and a set.
fn row<'j>(j: &'j Json, runner: &str, set: &str) -> &'j Json {
    j["table"].as_array().unwrap().iter().find(|r| r["runner"] == runner && r["set"] == set).unwrap()
}

#[test]
fn every_runner_passing_exits_0_with_each_report_under_its_name() {
    let dir = sums_dir();
    let o = matrix(dir.path(), &["--json"], &[("old", ""), ("new", "--tag new")]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    let j = json_of(&o);
    assert_eq!((j["verdict"].as_str(), j["passed"].as_bool()), (Some("passed"), Some(true)));
    assert_eq!(j["order"], serde_json::json!(["old", "new"]));
    for name in ["old", "new"] {
        let r = &j["runners"][name];
        assert_eq!((r["verdict"].as_str(), r["calls"].as_u64()), (Some("passed"), Some(6)), "{name}: {r}");
        assert!(r["runner"].as_str().unwrap().starts_with("pte-runner-demo"), "{r}");
        assert_eq!(row(&j, name, "sums")["status"], "passed");
    }

    let o = matrix(dir.path(), &[], &[("old", ""), ("new", "")]);
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert!(text.contains("runner old: pte-runner-demo"), "{text}");
    assert!(text.contains("\nold     forward/sums  passed\nnew     forward/sums  passed\n"), "{text}");
    assert!(text.ends_with("2 runners, 1 set: 2 passed, 0 mismatched, 0 failed\n"), "{text}");
}

#[test]
fn a_mismatch_in_one_runner_names_runner_set_sample_call_and_element() {
    let dir = sums_dir();
    // a second set, so the table has two columns per runner
    write_set(dir.path(), &{
        let mut other = sums_set(|_, _, _| {});
        other.name = "again".into();
        other
    });
    // call 5 of the process: sample 1 call 1 of the first set run (again)
    let o = matrix(dir.path(), &["--json"], &[("old", ""), ("new", "--nan-at 5")]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let j = json_of(&o);
    assert_eq!(j["verdict"], "mismatch");
    assert_eq!(j["runners"]["old"]["verdict"], "passed");
    assert_eq!(j["runners"]["new"]["verdict"], "mismatch");
    assert_eq!(row(&j, "old", "again")["status"], "passed");
    assert_eq!(row(&j, "new", "sums")["status"], "passed");
    let bad = row(&j, "new", "again");
    assert_eq!((bad["status"].as_str(), bad["failures"].as_u64()), (Some("mismatch"), Some(1)), "{bad}");
    let w = &bad["worst"];
    assert_eq!((w["method"].as_str(), w["set"].as_str()), (Some("forward"), Some("again")), "{w}");
    assert_eq!((w["sample"].as_u64(), w["call"].as_u64(), w["output"].as_u64()), (Some(1), Some(1), Some(0)));
    assert_eq!((w["element"].as_u64(), w["actual"].as_str()), (Some(0), Some("nan")), "{w}");

    let o = matrix(dir.path(), &[], &[("old", ""), ("new", "--nan-at 5")]);
    assert_eq!(o.status.code(), Some(1));
    let text = out(&o);
    assert!(text.contains("\nnew     forward/again  mismatch (1 failure), worst: forward/again sample 1 (\"run 1\") call 1: output 0:"), "{text}");
    assert!(
        text.contains("FAIL new: forward/again sample 1 (\"run 1\") call 1: output 0: 1 element outside tolerance; worst at index 0"),
        "{text}"
    );
    assert!(!text.contains("FAIL old"), "{text}");
    assert!(text.ends_with("2 runners, 2 sets: 1 passed, 1 mismatched, 0 failed\n"), "{text}");
}

#[test]
fn a_runner_that_fails_exits_2_naming_it_and_the_others_still_run() {
    let dir = sums_dir();
    let o = matrix(dir.path(), &["--json"], &[("broken", "--crash-at 2"), ("good", "")]);
    assert_eq!(o.status.code(), Some(2), "{}{}", out(&o), err(&o));
    let j = json_of(&o);
    assert_eq!(j["verdict"], "runner_failed");
    assert_eq!(row(&j, "broken", "sums")["status"], "runner_failed");
    assert_eq!(row(&j, "good", "sums")["status"], "passed");
    assert!(err(&o).starts_with("pte: runner broken: forward/sums sample 0 (\"run 0\") call 1:"), "{}", err(&o));

    // a runner that never starts: the sets after it are not run, the next runner is
    let o = matrix(dir.path(), &[], &[("gone", "--exit-early"), ("good", "")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(out(&o).contains("gone    forward/sums  runner failed"), "{}", out(&o));
    assert!(out(&o).contains("good    forward/sums  passed"), "{}", out(&o));
}

#[test]
fn runner_options_that_make_no_matrix_are_refused() {
    let dir = sums_dir();
    let demo = demo_runner().display().to_string();
    for (args, why) in [
        (vec!["--runner", "no-name"], "give NAME=COMMAND"),
        (vec!["--runner", "=x"], "the name must be a word"),
        (vec!["--runner", "a="], "no command after"),
        (vec!["--runner", "a='open"], "a single quote is not closed"),
        (vec!["--runner", &format!("a={demo}"), "--runner", &format!("a={demo}")], "the name is given twice"),
    ] {
        let o = Command::new(PTE).args(["samples", "check", s(dir.path())]).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(err(&o).contains(why), "{args:?}: {}", err(&o));
    }
    let both = Command::new(PTE)
        .args(["samples", "check", s(dir.path()), "--runner", &format!("a={demo}"), "--"])
        .arg(&demo)
        .output()
        .unwrap();
    assert_eq!(both.status.code(), Some(2), "`--runner` and `-- CMD` together: {}", err(&both));
}

#[test]
fn the_report_draws_a_checks_matrix() {
    let dir = sums_dir();
    let o = matrix(dir.path(), &["--json"], &[("old", ""), ("new", "--nan-at 2")]);
    assert_eq!(o.status.code(), Some(1));
    let check = dir.path().join("check.json");
    std::fs::write(&check, &o.stdout).unwrap();
    let page = dir.path().join("report.html");
    let add = crate::support::corpus("add/model.pte");
    let r = Command::new(PTE).args(["report", s(&add), "--samples-check", s(&check), "-o", s(&page)]).output().unwrap();
    assert_eq!(r.status.code(), Some(0), "{}", err(&r));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains(r#"<section id="samples-check""#), "{html}");
    assert!(html.contains(r#"<th scope="col">forward/sums</th>"#));
    assert!(html.contains(r#"<td class="passed">passed</td>"#));
    assert!(html.contains(r#"<td class="mismatch">mismatch (1 failure)<br><small>forward/sums sample 0 (&quot;run 0&quot;) call 1: output 0"#), "{html}");
    // without --samples-check there is no such section; a file that is no check's JSON is refused
    let r = Command::new(PTE).args(["report", s(&add), "-o", s(&page)]).output().unwrap();
    assert_eq!(r.status.code(), Some(0));
    assert!(!std::fs::read_to_string(&page).unwrap().contains("samples-check"));
    let r = Command::new(PTE).args(["report", s(&add), "--samples-check", s(&add), "-o", s(&page)]).output().unwrap();
    assert_eq!(r.status.code(), Some(2));
    assert!(err(&r).contains("not the JSON of `pte samples check --json`"), "{}", err(&r));
}
