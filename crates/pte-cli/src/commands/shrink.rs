//! `pte shrink`: the smallest file a command still finds interesting
//! (exit 0, the creduce and wasm-tools convention), by `pte_gen::shrink`.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pte_core::process::{run_bounded, Ending, Finished};

use crate::cli::ShrinkArgs;
use crate::failure::{at, CmdResult, Failure};
use crate::paths::refuse_aliases;
use crate::progress::Progress;

fn seconds(flag: &str, s: f64) -> Result<Duration, Failure> {
    if s.is_finite() && (0.0..=1e9).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(Failure::bad_input(format!("{flag} {s} is not a number of seconds")))
    }
}

/// A scratch folder for the candidates, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Result<Scratch, Failure> {
        let base = std::env::temp_dir();
        for n in 0u32..1000 {
            let dir = base.join(format!("pte-shrink-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Scratch(dir)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(Failure::bad_input(format!("{}: {e}", dir.display()))),
            }
        }
        Err(Failure::bad_input(format!("no free scratch folder in {}", base.display())))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The command line for one candidate: `{}` replaced, or the path appended.
fn command_for(template: &[OsString], path: &Path) -> Option<Command> {
    let (program, args) = template.split_first()?;
    let shown = path.as_os_str();
    let mut placed = false;
    let mut replace = |a: &OsStr| -> OsString {
        match a.to_str() {
            Some(text) if text.contains("{}") => {
                placed = true;
                let mut out = OsString::new();
                let mut parts = text.split("{}").peekable();
                while let Some(part) = parts.next() {
                    out.push(part);
                    if parts.peek().is_some() {
                        out.push(shown);
                    }
                }
                out
            }
            _ => a.to_os_string(),
        }
    };
    let program = replace(program);
    let mut args: Vec<OsString> = args.iter().map(|a| replace(a)).collect();
    if !placed {
        args.push(shown.to_os_string());
    }
    let mut cmd = Command::new(program);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    Some(cmd)
}

fn describe(status: Option<&pte_core::Result<Finished>>) -> String {
    match status.map(|r| r.as_ref().map(|f| f.ending)) {
        Some(Ok(Ending::Exited(code))) => format!("it exited with exit status: {code}"),
        Some(Ok(Ending::Signaled(signal))) => format!("it was killed by signal {signal}"),
        Some(Ok(Ending::TimedOut)) => "it ran past --timeout-per-run".into(),
        Some(Err(e)) => format!("it could not be run: {e}"),
        None => "it was not run".into(),
    }
}

pub(crate) fn run(a: &ShrinkArgs) -> CmdResult {
    let per_run = seconds("--timeout-per-run", a.timeout_per_run)?;
    let time = a.time.map(|t| seconds("--time", t)).transpose()?;
    refuse_aliases(&[a.input.as_path()], &[a.output.as_path()])?;
    // through the one input rule: a FIFO, a directory or a device is refused, never read
    let input = crate::input::open(&a.input)?.bytes().to_vec();
    let scratch = Scratch::new()?;
    // the candidate keeps the input's name, so tools that look at the extension still can
    let name = a.input.file_name().map_or_else(|| OsString::from("candidate"), OsStr::to_os_string);
    let candidate = scratch.0.join(name);
    let mut last = None;
    let interesting = |bytes: &[u8]| {
        if pte_core::interrupted().is_some() {
            return false;
        }
        let result =
            std::fs::write(&candidate, bytes).map_err(pte_core::Error::from).and_then(|()| {
                match command_for(&a.command, &candidate) {
                    Some(mut cmd) => run_bounded(&mut cmd, per_run),
                    None => Err(pte_core::Error::new(pte_core::ErrorKind::InvalidUse, "no command")),
                }
            });
        let yes = matches!(result, Ok(Finished { ending: Ending::Exited(0), .. }));
        last = Some(result);
        yes
    };
    // Ctrl-C is recorded, not fatal: the run under way is stopped, the
    // scratch folder removed, and nothing written
    let held = pte_core::hold_stop_signals();
    let bar = Progress::spinner("shrinking");
    let options = pte_gen::shrink::Options { max_runs: a.max_runs, time, bytes_only: a.bytes_only };
    let started = Instant::now();
    let shown = |p: &pte_gen::shrink::Progress| {
        bar.message(&format!("shrinking: {} bytes, {} runs, {}", p.bytes, p.runs, p.phase))
    };
    let out = pte_gen::shrink::shrink_with_progress(&input, &options, interesting, shown);
    drop(bar);
    drop(held);
    pte_core::check_interrupted().map_err(at(&a.input))?;
    let out = out.map_err(|_| {
        Failure::bad_input(format!(
            "{}: the input is not interesting: the command must exit 0 on it, and {}",
            a.input.display(),
            describe(last.as_ref())
        ))
    })?;
    crate::files::write_file(&a.output, &out.bytes)?;
    let before = input.len();
    let after = out.bytes.len();
    let saved = if before == 0 { 0.0 } else { 100.0 * (before.saturating_sub(after)) as f64 / before as f64 };
    let stopped = match out.stopped {
        Some(pte_gen::shrink::Stop::Runs) => " (stopped at --max-runs)",
        Some(pte_gen::shrink::Stop::Time) => " (stopped at --time)",
        None => "",
    };
    println!(
        "{}: {before} -> {after} bytes ({saved:.1}% smaller), {} runs, {:.1} s{stopped}; wrote {}",
        a.input.display(),
        out.runs,
        started.elapsed().as_secs_f64(),
        a.output.display()
    );
    Ok(())
}
