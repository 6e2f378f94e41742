//! `pte conformance list|export|run`: the conformance suite
//! (`pte_gen::suite`), listed, written out, or run through another parser.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use pte_core::folder::OutputFolder;
use pte_core::process::{run_bounded, Ending, Finished};
use pte_gen::suite::{suite, Case, Suite, Verdict};
use serde_json::{json, Value as Json};

use crate::failure::{CmdResult, Failure};

/// The manifest's name in an exported folder.
const MANIFEST: &str = "manifest.json";

pub(crate) fn list(json: bool) -> CmdResult {
    let s = suite();
    if json {
        println!("{}", serde_json::to_string_pretty(&s.manifest())?);
        return Ok(());
    }
    for c in &s.cases {
        let rule = c.rule.map_or("-", |r| r.name());
        let runtime = c.runtime.map_or_else(|| "-".to_string(), |r| r.to_string());
        println!("{:<52} {:<4} {:<6} {:<36} {runtime}", c.name, ext(c), c.expect.name(), rule);
    }
    println!("suite {}: {} cases, {} to refuse", s.version, s.cases.len(), s.invalid());
    Ok(())
}

pub(crate) fn export(dir: &Path, force: bool) -> CmdResult {
    let s = suite();
    let folder = OutputFolder::open(dir, force)?;
    write_cases(&folder, &s)?;
    folder.write_atomically(MANIFEST, |w| {
        serde_json::to_writer_pretty(&mut *w, &s.manifest())
            .map_err(|e| pte_core::Error::new(pte_core::ErrorKind::Io, e.to_string()))?;
        w.write_all(b"\n").map_err(|e| pte_core::Error::io("writing", &dir.join(MANIFEST), e))
    })?;
    println!("wrote {} cases and {MANIFEST} to {} (suite {})", s.cases.len(), dir.display(), s.version);
    Ok(())
}

fn write_cases(folder: &OutputFolder, s: &Suite) -> CmdResult {
    for c in &s.cases {
        let name = c.file_name();
        folder.write_atomically(&name, |w| {
            w.write_all(&c.bytes).map_err(|e| pte_core::Error::io("writing", &folder.path().join(&name), e))
        })?;
    }
    Ok(())
}

fn ext(c: &Case) -> &'static str {
    c.kind.extension().unwrap_or("bin")
}

/// What the parser did with one case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Got {
    Accepted,
    Refused(i32),
    Crashed(i32),
    Hung,
}

impl Got {
    fn of(f: &Finished) -> Got {
        match f.ending {
            Ending::Exited(0) => Got::Accepted,
            Ending::Exited(code) => Got::Refused(code),
            Ending::Signaled(sig) => Got::Crashed(sig),
            Ending::TimedOut => Got::Hung,
        }
    }

    fn agrees(self, expect: Verdict) -> bool {
        matches!((self, expect), (Got::Accepted, Verdict::Accept) | (Got::Refused(_), Verdict::Refuse))
    }

    /// The column the table groups by: `accepted`, `refused`, `crash`, `hang`.
    fn word(self) -> &'static str {
        match self {
            Got::Accepted => "accepted",
            Got::Refused(_) => "refused",
            Got::Crashed(_) => "crash",
            Got::Hung => "hang",
        }
    }

    fn detail(self) -> String {
        match self {
            Got::Accepted => "exit 0".to_string(),
            Got::Refused(code) => format!("exit {code}"),
            Got::Crashed(sig) => format!("signal {sig}"),
            Got::Hung => "past the timeout".to_string(),
        }
    }
}

/// The options of `pte conformance run`.
pub(crate) struct RunArgs<'a> {
    pub(crate) json: bool,
    pub(crate) timeout: f64,
    pub(crate) jobs: usize,
    /// Only cases of these kinds (by extension); empty: all.
    pub(crate) kinds: &'a [String],
    pub(crate) command: &'a [OsString],
}

pub(crate) fn run(a: &RunArgs<'_>) -> CmdResult {
    if a.command.is_empty() {
        return Err(Failure::bad_input("conformance run needs the parser's command after `--` (`-- CMD {}`)"));
    }
    if !(a.timeout.is_finite() && a.timeout > 0.0 && a.timeout < 1e9) {
        return Err(Failure::bad_input(format!("--timeout {}: give a positive number of seconds", a.timeout)));
    }
    let timeout = Duration::from_secs_f64(a.timeout);
    let mut s = suite();
    s.cases.retain(|c| a.kinds.is_empty() || a.kinds.iter().any(|k| k == ext(c)));
    let tmp = tempfile::Builder::new()
        .prefix("pte-conformance-")
        .tempdir()
        .map_err(|e| Failure::bad_input(format!("creating a temporary folder: {e}")))?;
    let folder = OutputFolder::open(tmp.path(), false)?;
    write_cases(&folder, &s)?;
    let results: Vec<Mutex<Option<Result<Finished, pte_core::Error>>>> =
        s.cases.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..a.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let (Some(case), Some(slot)) = (s.cases.get(i), results.get(i)) else { break };
                let path = tmp.path().join(case.file_name());
                let outcome = run_bounded(&mut command(a.command, &path), timeout);
                let stop = outcome.as_ref().is_err_and(|e| e.kind() == pte_core::ErrorKind::Interrupted);
                if let Ok(mut slot) = slot.lock() {
                    *slot = Some(outcome);
                }
                if stop {
                    // the other workers see the index past the end and stop too
                    next.store(usize::MAX / 2, Ordering::SeqCst);
                    break;
                }
            });
        }
    });
    let mut rows = Vec::with_capacity(s.cases.len());
    for (case, slot) in s.cases.iter().zip(results) {
        match slot.into_inner().ok().flatten() {
            Some(Ok(f)) => rows.push((case, f)),
            Some(Err(e)) => return Err(e.into()),
            None => return Err(Failure::bad_input("the run was interrupted")),
        }
    }
    report(a, &s, &rows)
}

/// The parser's command for one case: `{}` in an argument becomes the
/// case's path; with no `{}` anywhere the path is the last argument.
fn command(template: &[OsString], path: &Path) -> Command {
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let path = path.as_os_str().as_bytes();
    let mut placed = false;
    let mut args: Vec<OsString> = template
        .iter()
        .map(|a| {
            let bytes = a.as_bytes();
            if !bytes.windows(2).any(|w| w == b"{}") {
                return a.clone();
            }
            placed = true;
            let mut out = Vec::with_capacity(bytes.len().saturating_add(path.len()));
            let mut rest = bytes;
            while let Some(at) = rest.windows(2).position(|w| w == b"{}") {
                out.extend_from_slice(rest.get(..at).unwrap_or_default());
                out.extend_from_slice(path);
                rest = rest.get(at.saturating_add(2)..).unwrap_or_default();
            }
            out.extend_from_slice(rest);
            OsString::from_vec(out)
        })
        .collect();
    if !placed {
        args.push(OsString::from_vec(path.to_vec()));
    }
    let mut it = args.into_iter();
    let mut cmd = Command::new(it.next().unwrap_or_default());
    cmd.args(it).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    cmd
}

fn rule_of(c: &Case) -> &'static str {
    c.rule.map_or("(valid file)", |r| r.name())
}

fn report(a: &RunArgs<'_>, s: &Suite, rows: &[(&Case, Finished)]) -> CmdResult {
    let disagreeing: Vec<(&Case, Finished, Got)> =
        rows.iter().map(|(c, f)| (*c, *f, Got::of(f))).filter(|(c, _, g)| !g.agrees(c.expect)).collect();
    let count = |what: &str| disagreeing.iter().filter(|(_, _, g)| g.word() == what).count();
    let (crashes, hangs) = (count("crash"), count("hang"));
    let accepted_invalid =
        disagreeing.iter().filter(|(c, _, g)| c.expect == Verdict::Refuse && *g == Got::Accepted).count();
    let refused_valid =
        disagreeing.iter().filter(|(c, _, g)| c.expect == Verdict::Accept && g.word() == "refused").count();
    let peak = rows.iter().max_by_key(|(_, f)| f.max_rss_kib);
    let shown: Vec<String> = a.command.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let summary = format!(
        "suite {}: {} cases ({} to refuse): {} agree, {} disagree ({accepted_invalid} invalid accepted, {refused_valid} valid refused, {crashes} crashes, {hangs} hangs){}",
        s.version,
        rows.len(),
        s.invalid(),
        rows.len().saturating_sub(disagreeing.len()),
        disagreeing.len(),
        peak.map_or_else(String::new, |(c, f)| format!("; peak memory {} KiB ({})", f.max_rss_kib, c.name)),
    );
    if a.json {
        let cases: Vec<Json> = disagreeing
            .iter()
            .map(|(c, f, g)| {
                json!({
                    "name": c.name,
                    "file": c.file_name(),
                    "kind": c.kind.extension(),
                    "rule": c.rule.map(|r| r.name()),
                    "expect": c.expect.name(),
                    "got": g.word(),
                    "exit_code": match g { Got::Refused(code) => Some(*code), Got::Accepted => Some(0), _ => None },
                    "signal": match g { Got::Crashed(sig) => Some(*sig), _ => None },
                    "seconds": f.elapsed.as_secs_f64(),
                    "max_rss_kib": f.max_rss_kib,
                    "runtime": c.runtime.map(|r| r.to_string()),
                })
            })
            .collect();
        let doc = json!({
            "suite_version": s.version,
            "command": shown,
            "timeout": a.timeout,
            "cases": rows.len(),
            "invalid": s.invalid(),
            "agree": rows.len().saturating_sub(disagreeing.len()),
            "accepted_invalid": accepted_invalid,
            "refused_valid": refused_valid,
            "crashes": crashes,
            "hangs": hangs,
            "peak_memory": peak.map(|(c, f)| json!({"case": c.name, "max_rss_kib": f.max_rss_kib})),
            "disagreements": cases,
        });
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        print_table(&disagreeing);
        println!("{summary}");
    }
    if disagreeing.is_empty() {
        return Ok(());
    }
    Err(Failure::invalid(if a.json {
        String::new()
    } else {
        format!("{} of {} cases disagree", disagreeing.len(), rows.len())
    }))
}

/// One row per rule and outcome: how many cases, and the first few.
fn print_table(disagreeing: &[(&Case, Finished, Got)]) {
    if disagreeing.is_empty() {
        return;
    }
    let mut groups: BTreeMap<(&str, &str, &str), Vec<String>> = BTreeMap::new();
    for (c, _, g) in disagreeing {
        let detail = match g {
            Got::Crashed(_) | Got::Refused(_) => format!("{} ({})", c.name, g.detail()),
            _ => c.name.clone(),
        };
        groups.entry((rule_of(c), c.expect.name(), g.word())).or_default().push(detail);
    }
    println!("{:<36} {:<7} {:<9} {:>5}  cases", "rule", "expect", "got", "count");
    for ((rule, expect, got), cases) in &groups {
        let mut first: Vec<&str> = cases.iter().take(3).map(String::as_str).collect();
        if cases.len() > 3 {
            first.push("...");
        }
        println!("{rule:<36} {expect:<7} {got:<9} {:>5}  {}", cases.len(), crate::style::text(&first.join(", ")));
    }
}
