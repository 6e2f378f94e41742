//! `pte report FILE... [-o OUT] [--ptd DATA]...`: one self-contained HTML
//! page of the files (built by `pte_report`; docs/report.md), and the line
//! `wrote OUT (N bytes)` the other writers print. Exit 0 when
//! every file was read whole and verified without violation, 1 when the page
//! was written but a file has violations or parts that could not be read,
//! 2 when an input cannot be opened or is no ExecuTorch file at all.

use std::io::Write;
use std::path::{Path, PathBuf};

use pte_core::FileKind;

use crate::failure::{CmdResult, Failure};
use crate::input::{looks_like_damaged_program, open, require_kind, Input};

pub(crate) fn run(files: &[PathBuf], ptds: &[PathBuf], checks: &[PathBuf], output: &Path) -> CmdResult {
    let inputs = files.iter().map(|f| Input::open(f)).collect::<Result<Vec<_>, _>>()?;
    for i in &inputs {
        // a program whose identifier was damaged still gets a page saying so
        if !i.kind.is_known() && !looks_like_damaged_program(i.bytes()) {
            i.require("report", &pte::KINDS)?;
        }
    }
    if !ptds.is_empty() && !inputs.iter().any(|i| i.kind.is_pte()) {
        return Err(Failure::bad_input("--ptd resolves the EXTERNAL tensors of a .pte program; no FILE is one"));
    }
    let maps = ptds.iter().map(|p| open(p)).collect::<Result<Vec<_>, _>>()?;
    for (p, m) in ptds.iter().zip(&maps) {
        require_kind(p, m.bytes(), FileKind::Ptd)?;
    }
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let data_names: Vec<String> = ptds.iter().map(|p| p.display().to_string()).collect();
    let sources: Vec<pte_report::Source<'_>> =
        names.iter().zip(&inputs).map(|(name, i)| pte_report::Source { name, bytes: i.bytes() }).collect();
    let data: Vec<pte_report::Source<'_>> =
        data_names.iter().zip(&maps).map(|(name, m)| pte_report::Source { name, bytes: m.bytes() }).collect();
    let mut check_json = vec![];
    for c in checks {
        let map = open(c)?;
        let json: serde_json::Value = serde_json::from_slice(map.bytes()).map_err(|e| {
            Failure::bad_input(format!("{}: not the JSON of `pte samples check --json`: {e}", c.display()))
        })?;
        if !json.get("verdict").is_some_and(serde_json::Value::is_string) {
            return Err(Failure::bad_input(format!(
                "{}: not the JSON of `pte samples check --json` (it has no verdict)",
                c.display()
            )));
        }
        check_json.push((c.display().to_string(), json));
    }
    let checks: Vec<pte_report::SamplesCheck<'_>> =
        check_json.iter().map(|(name, json)| pte_report::SamplesCheck { name, json }).collect();
    let page = pte_report::report_with_checks(&sources, &data, &checks);
    if output == Path::new("-") {
        let mut out = std::io::stdout().lock();
        if out.write_all(page.html.as_bytes()).and_then(|()| out.flush()).is_err() {
            std::process::exit(0);
        }
    } else {
        crate::files::write_file(output, page.html.as_bytes())?;
        println!("wrote {} ({} bytes)", output.display(), page.html.len());
    }
    if page.is_clean() {
        return Ok(());
    }
    let wanting: Vec<String> = files
        .iter()
        .zip(&page.files)
        .filter(|(_, f)| !f.is_clean())
        .map(|(p, f)| {
            let mut what = vec![];
            if f.violations > 0 {
                what.push(crate::style::count(f.violations as u64, "violation"));
            }
            if !f.unreadable.is_empty() {
                what.push(format!("{} unreadable", crate::style::count(f.unreadable.len() as u64, "part")));
            }
            format!("{} ({})", p.display(), what.join(", "))
        })
        .chain(page.unreadable.iter().cloned())
        .collect();
    let at = if output == Path::new("-") { "the report".to_string() } else { output.display().to_string() };
    Err(Failure::invalid(format!("{at} written; found wanting: {}", wanting.join("; "))))
}
