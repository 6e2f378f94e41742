//! `pte samples`: list, show, check, add, remove and export the recorded
//! calls of a `.ptn` package's `samples/` sidecar.

use std::path::Path;

use pte_core::style::count;
use serde_json::{json, Value as Json};

use pte_ptn::PtnFile;
use pte_samples::{CheckReport, Level, Matrix, NamedReport, Outcome, ProcessRunner, SampleLimits, SampleSet, Value};

use pte_core::folder::OutputFolder;
use pte_core::FileKind;

use crate::cli::CheckArgs;
use crate::failure::{at, CmdResult, Failure};
use crate::input::{open, require_kind};
use crate::style;

fn read<'a>(path: &Path, bytes: &'a [u8]) -> Result<PtnFile<'a>, Failure> {
    require_kind(path, bytes, FileKind::Ptn)?;
    PtnFile::from_bytes(bytes).map_err(at(path))
}

/// Runs `f` on the recorded calls of a `.ptn` (its sidecar) or a `.bpte`
/// (its test cases as one-call samples with the runtime's default tolerance).
fn with_sets<T>(file: &Path, f: impl FnOnce(&[SampleSet<'_>]) -> Result<T, Failure>) -> Result<T, Failure> {
    let map = open(file)?;
    if pte::kind_of(map.bytes()).is_bpte() {
        let bundle = crate::formats::bpte::read(file, map.bytes())?;
        let sets = pte_samples::bundled_sets(&bundle, None).map_err(at(file))?;
        return f(&sets);
    }
    let ptn = read(file, map.bytes())?;
    let sets = pte_samples::read_samples(&ptn).map_err(at(file))?;
    f(&sets)
}

fn tolerance_json(t: Option<pte_samples::Tolerance>) -> Json {
    t.map_or(Json::Null, |t| json!({"atol": t.atol, "rtol": t.rtol}))
}

fn set_summary(set: &SampleSet<'_>) -> Json {
    let calls: usize = set.samples.iter().map(|s| s.calls.len()).sum();
    json!({
        "method": set.method,
        "set": set.name,
        "samples": set.samples.len(),
        "calls": calls,
        "tolerance": tolerance_json(set.tolerance),
    })
}

pub(crate) fn list(file: &Path, as_json: bool) -> CmdResult {
    with_sets(file, |sets| list_sets(file, sets, as_json))
}

fn list_sets(file: &Path, sets: &[SampleSet<'_>], as_json: bool) -> CmdResult {
    if as_json {
        let v: Vec<Json> = sets.iter().map(set_summary).collect();
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    if sets.is_empty() {
        println!("{}: no samples", file.display());
    }
    for s in sets {
        let calls: usize = s.samples.iter().map(|x| x.calls.len()).sum();
        let tol =
            s.tolerance.map_or_else(|| "default tolerance".to_string(), |t| format!("atol {} rtol {}", t.atol, t.rtol));
        println!(
            "{}/{}: {}, {}, {tol}",
            s.method,
            s.name,
            count(s.samples.len() as u64, "sample"),
            count(calls as u64, "call")
        );
    }
    Ok(())
}

fn find<'s, 'a>(file: &Path, sets: &'s [SampleSet<'a>], method: &str, set: &str) -> Result<&'s SampleSet<'a>, Failure> {
    sets.iter()
        .find(|s| s.method == method && s.name == set)
        .ok_or_else(|| Failure::bad_input(format!("{}: no sample set {method}/{set}", file.display())))
}

fn describe(v: &Value<'_>) -> String {
    let tensor = |t: &pte_ptn::PtnTensor<'_>| {
        format!(
            "{} {} {}",
            pte_core::style::dtype(&pte_ptn::dtype_code(t.dtype)),
            pte_core::style::shape(&t.shape),
            pte_samples::tensor_preview(t, 8)
        )
    };
    match v {
        Value::Tensor(t) => format!("tensor {}", tensor(t)),
        Value::TensorList(l) => {
            format!("tensor_list of {}: {}", l.len(), l.iter().map(tensor).collect::<Vec<_>>().join("; "))
        }
        Value::Int(i) => format!("int {i}"),
        Value::Float(f) => format!("float {f}"),
        Value::Bool(b) => format!("bool {b}"),
        Value::String(s) => format!("string {s:?}"),
        Value::None => "none".to_string(),
    }
}

pub(crate) fn show(file: &Path, method: &str, set: &str, as_json: bool) -> CmdResult {
    with_sets(file, |sets| show_set(file, find(file, sets, method, set)?, as_json))
}

fn show_set(file: &Path, s: &SampleSet<'_>, as_json: bool) -> CmdResult {
    if as_json {
        // The set's index in the documented form.
        let enc = pte_samples::encode_set(s, &SampleLimits::unlimited()).map_err(at(file))?;
        let v: Json = serde_json::from_slice(&enc.index)?;
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!("{}/{}: {}", s.method, s.name, count(s.samples.len() as u64, "sample"));
    for (si, sample) in s.samples.iter().enumerate() {
        let name = sample.name.as_ref().map(|n| format!(" {n:?}")).unwrap_or_default();
        println!("sample {si}{name}: {}", count(sample.calls.len() as u64, "call"));
        for (ci, call) in sample.calls.iter().enumerate() {
            let (t, level) = pte_samples::resolve(s, sample, call);
            let from = if level == Level::Default { "default".to_string() } else { level.to_string() };
            println!("  call {ci} (atol {} rtol {}, from {from})", t.atol, t.rtol);
            for (i, v) in call.inputs.iter().enumerate() {
                println!("    in[{i}]  {}", describe(v));
            }
            for (i, v) in call.outputs.iter().enumerate() {
                println!("    out[{i}] {}", describe(v));
            }
        }
    }
    Ok(())
}

pub(crate) fn check(args: &CheckArgs) -> CmdResult {
    let selection = pte_samples::Selection { method: args.method.clone(), set: args.set.clone() };
    if !args.named_runners.is_empty() {
        return check_matrix(args, &selection);
    }
    let report = match (&args.actual, args.runner.is_empty()) {
        (Some(actual), true) => {
            let actual_map = open(actual)?;
            let tensors = pte_ptn::read_safetensors_member(
                actual_map.bytes(),
                &actual.display().to_string(),
                &Default::default(),
            )
            .map_err(at(actual))?;
            pte_samples::with_source_sets(&args.file, &selection, |sets| pte_samples::check_actual(sets, &tensors))
        }
        (None, false) => {
            let timeout = timeout_of(args)?;
            pte_samples::with_source_sets(&args.file, &selection, |sets| run_check(sets, &args.runner, timeout))
        }
        _ => {
            return Err(Failure::bad_input(
                "pte samples check takes a runner command after `--`, or --actual ACTUAL.safetensors",
            ))
        }
    }
    .map_err(at(&args.file))?;
    stopped()?;
    print_report(&report, args.json)?;
    let first = report.failures.iter().find(|f| f.problem.is_runner_failure());
    verdict_exit(report.verdict(), first.map(ToString::to_string))
}

/// `--timeout` as a duration, refused when it is no number of seconds.
fn timeout_of(args: &CheckArgs) -> Result<std::time::Duration, Failure> {
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 1e9) {
        return Err(Failure::bad_input(format!("--timeout {} is not a number of seconds", args.timeout)));
    }
    Ok(std::time::Duration::from_secs_f64(args.timeout))
}

/// The exit for a signal that stopped the check.
fn stopped() -> CmdResult {
    match pte_core::interrupted() {
        Some(sig) => Err(Failure::bad_input(format!("interrupted by signal {sig}; the runner was stopped"))),
        None => Ok(()),
    }
}

/// The exit status of a verdict: 0, 1, or 2 with the first runner failure.
fn verdict_exit(verdict: Outcome, runner_failure: Option<String>) -> CmdResult {
    match verdict {
        Outcome::Passed => Ok(()),
        Outcome::Mismatch => Err(Failure::invalid(String::new())),
        // a runner's last stderr lines follow the failure, each on its own
        Outcome::RunnerFailed => Err(Failure::bad_input(runner_failure.unwrap_or_default()).multiline()),
    }
}

/// `--runner NAME=COMMAND ...`: every set through every runner in turn, one
/// table runner x set, `--json` every report under its runner's name.
fn check_matrix(args: &CheckArgs, selection: &pte_samples::Selection) -> CmdResult {
    let mut runners: Vec<(String, Vec<std::ffi::OsString>)> = vec![];
    for spec in &args.named_runners {
        let (name, command) = named_runner(spec)?;
        if runners.iter().any(|(n, _)| *n == name) {
            return Err(Failure::bad_input(format!("--runner {}: the name is given twice", style::quoted(&name))));
        }
        runners.push((name, command));
    }
    let timeout = timeout_of(args)?;
    let matrix = pte_samples::with_source_sets(&args.file, selection, |sets| {
        let mut matrix = Matrix::of_sets(sets);
        for (name, command) in &runners {
            if pte_core::interrupted().is_some() {
                break;
            }
            matrix.runners.push(NamedReport { name: name.clone(), report: run_check(sets, command, timeout) });
        }
        matrix
    })
    .map_err(at(&args.file))?;
    stopped()?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&matrix.to_json())?);
    } else {
        for r in &matrix.runners {
            if let Some(runner) = &r.report.runner {
                println!("runner {}: {}", style::text(&r.name), style::text(runner));
            }
        }
        println!("{}", style::text_lines(&matrix.to_string()));
    }
    let first = matrix.runners.iter().find_map(|r| {
        let f = r.report.failures.iter().find(|f| f.problem.is_runner_failure())?;
        Some(format!("runner {}: {f}", r.name))
    });
    verdict_exit(matrix.verdict(), first)
}

/// `NAME=COMMAND` of `--runner`: the name before the first `=`, the command
/// after it split into words (see [`words`]).
fn named_runner(spec: &str) -> Result<(String, Vec<std::ffi::OsString>), Failure> {
    let bad = |why: &str| Failure::bad_input(format!("--runner {}: {why}", style::quoted(spec)));
    let (name, command) = spec.split_once('=').ok_or_else(|| bad("give NAME=COMMAND"))?;
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("the name must be a word before `=`"));
    }
    let argv = words(command).map_err(&bad)?;
    if argv.is_empty() {
        return Err(bad("no command after `=`"));
    }
    Ok((name.to_string(), argv.into_iter().map(Into::into).collect()))
}

/// A command line split into words as a POSIX shell splits it, without
/// expanding anything: blanks separate words, `'...'` keeps everything,
/// `"..."` keeps everything but `\"` and `\\`, a backslash outside quotes
/// keeps the next character.
fn words(line: &str) -> Result<Vec<String>, &'static str> {
    let mut out = vec![];
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => out.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a single quote is not closed"),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a double quote is not closed"),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a double quote is not closed"),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a backslash ends the command"),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    Ok(out)
}

/// Starts the runner, checks every set through it and says goodbye; a runner
/// that does not start is the report's one failure.
fn run_check(sets: &[SampleSet<'_>], command: &[std::ffi::OsString], timeout: std::time::Duration) -> CheckReport {
    match ProcessRunner::start(command, timeout) {
        Ok(mut runner) => {
            let report = pte_samples::check(sets, &mut runner);
            if report.verdict() != Outcome::RunnerFailed
                && let Err(e) = runner.finish()
            {
                eprintln!("pte: warning: {}", crate::style::text_lines(&e.to_string()));
            }
            report
        }
        Err(e) => {
            let mut report = CheckReport { sets: sets.len(), ..CheckReport::default() };
            let first = sets.first();
            report.failures.push(pte_samples::Failure {
                method: first.map(|s| s.method.clone()).unwrap_or_default(),
                set: first.map(|s| s.name.clone()).unwrap_or_default(),
                sample: 0,
                sample_name: None,
                call: None,
                tolerance: pte_samples::DEFAULT_TOLERANCE,
                level: pte_samples::Level::Default,
                problem: pte_samples::Problem::Setup(e.to_string()),
            });
            report
        }
    }
}

fn print_report(report: &CheckReport, as_json: bool) -> CmdResult {
    if as_json {
        println!("{}", serde_json::to_string_pretty(&report.to_json())?);
        return Ok(());
    }
    if let Some(name) = &report.runner {
        println!("runner: {}", crate::style::text(name));
    }
    for c in &report.call_results {
        println!(
            "{}/{} sample {} call {}: {}, max abs error {:e}, max rel error {:e} (atol {} rtol {}, from {})",
            c.method,
            c.set,
            c.sample,
            c.call,
            if c.passed { "ok" } else { "mismatch" },
            c.max_abs_error,
            c.max_rel_error,
            c.tolerance.atol,
            c.tolerance.rtol,
            c.level
        );
    }
    println!("{}", crate::style::text_lines(&report.to_string()));
    Ok(())
}

/// Reads a set from a directory holding `index.json` and `data.safetensors`.
pub(crate) fn with_set_dir<T>(dir: &Path, f: impl FnOnce(&SampleSet<'_>) -> Result<T, Failure>) -> Result<T, Failure> {
    // the folder policy `pte pack` applies too: no link, FIFO or device read
    let (index, data) = pte_samples::open_set_dir(dir).map_err(at(dir))?;
    let set = pte_samples::parse_set(index.bytes(), data.bytes(), None, &SampleLimits::default()).map_err(at(dir))?;
    f(&set)
}

pub(crate) fn add(file: &Path, dir: &Path, replace: bool) -> CmdResult {
    with_set_dir(dir, |set| {
        // the checks every writer of samples makes (signature included),
        // under the package's edit lock
        let warnings =
            pte_samples::add_sets_to_file(file, std::slice::from_ref(set), replace, crate::paths::lock_wait())
                .map_err(at(file))?;
        for w in &warnings {
            eprintln!("pte: warning: {}", crate::style::text(&w.to_string()));
        }
        println!("{}: {} set {}/{}", file.display(), if replace { "wrote" } else { "added" }, set.method, set.name);
        Ok(())
    })
}

pub(crate) fn remove(file: &Path, method: &str, set: &str) -> CmdResult {
    pte_samples::remove_set_from_file_with(file, method, set, crate::paths::lock_wait()).map_err(at(file))?;
    println!("{}: removed set {method}/{set}", file.display());
    Ok(())
}

pub(crate) fn export(file: &Path, method: &str, set: &str, dir: &Path, force: bool) -> CmdResult {
    with_sets(file, |sets| {
        let enc =
            pte_samples::encode_set(find(file, sets, method, set)?, &SampleLimits::default()).map_err(at(file))?;
        write_set(&OutputFolder::open(dir, force)?, None, &enc)
    })
}

/// Writes a set's two files into `out` (into `<method>/<set>/` of it when
/// `under` names them), each atomically, under the output-folder policy.
pub(crate) fn write_set(out: &OutputFolder, under: Option<(&str, &str)>, enc: &pte_samples::EncodedSet) -> CmdResult {
    let prefix = under.map(|(m, s)| format!("{m}/{s}/")).unwrap_or_default();
    for (name, bytes) in [(pte_samples::INDEX_FILE, &enc.index), (pte_samples::DATA_FILE, &enc.data)] {
        out.write_atomically(&format!("{prefix}{name}"), |w| Ok(w.write_all(bytes)?))?;
    }
    let dir = match under {
        Some((m, s)) => out.path().join(m).join(s),
        None => out.path().to_path_buf(),
    };
    println!("wrote {}", dir.display());
    Ok(())
}

pub(crate) fn import_io(io: &Path, method: &str, set: &str, dir: &Path, force: bool) -> CmdResult {
    let map = open(io)?;
    let tensors = pte_ptn::read_safetensors_member(map.bytes(), &io.display().to_string(), &Default::default())
        .map_err(at(io))?;
    let side = |prefix: &str| -> Vec<Value<'_>> {
        (0..).map_while(|i| tensors.get(&format!("{prefix}.{i}")).cloned().map(Value::Tensor)).collect()
    };
    let (inputs, outputs) = (side("input"), side("output"));
    if inputs.len().saturating_add(outputs.len()) != tensors.len() {
        return Err(Failure::bad_input(format!(
            "{}: keys must be input.0, input.1, ... and output.0, ... with no gaps",
            io.display()
        )));
    }
    let mut s = SampleSet::new(method, set);
    s.samples.push(pte_samples::Sample {
        name: None,
        tolerance: None,
        calls: vec![pte_samples::Call { inputs, outputs, tolerance: None }],
    });
    let enc = pte_samples::encode_set(&s, &SampleLimits::default()).map_err(at(io))?;
    write_set(&OutputFolder::open(dir, force)?, None, &enc)
}

#[cfg(test)]
mod tests {
    use super::words;

    #[test]
    fn commands_split_as_a_shell_splits_them() {
        assert_eq!(words("python -m pte_rs.runner m.pte").unwrap(), ["python", "-m", "pte_rs.runner", "m.pte"]);
        assert_eq!(words(r#"  a 'b c' "d \"e\" \\ \n" f\ g ''"#).unwrap(), ["a", "b c", r#"d "e" \ \n"#, "f g", ""]);
        assert_eq!(words("").unwrap(), Vec::<String>::new());
        assert!(words("'open").is_err() && words("\"open").is_err() && words("end\\").is_err());
    }
}
