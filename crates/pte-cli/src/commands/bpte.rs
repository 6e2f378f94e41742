//! `pte bpte unbundle|export-samples|bundle`: the embedded program, the
//! test cases as samples, and bundles built from single-call samples.

use std::path::Path;

use crate::failure::{at, CmdResult, Failure};
use crate::formats::bpte::read;
use crate::input::open;
use crate::paths::refuse_aliases;

pub(crate) fn unbundle(file: &Path, out: &Path) -> CmdResult {
    refuse_aliases(&[file], &[out])?;
    let map = open(file)?;
    let b = read(file, map.bytes())?;
    crate::files::write_file(out, &b.program)?;
    println!("wrote {} ({} bytes)", out.display(), b.program.len());
    Ok(())
}

pub(crate) fn export_samples(file: &Path, dir: &Path, force: bool, atol: Option<f64>, rtol: Option<f64>) -> CmdResult {
    let map = open(file)?;
    let b = read(file, map.bytes())?;
    let d = pte_samples::DEFAULT_TOLERANCE;
    let tol = pte_samples::Tolerance { atol: atol.unwrap_or(d.atol), rtol: rtol.unwrap_or(d.rtol) };
    let sets = pte_samples::bundled_sets(&b, Some(tol)).map_err(at(file))?;
    let out = pte_core::folder::OutputFolder::open(dir, force)?;
    for set in &sets {
        let enc = pte_samples::encode_set(set, &Default::default()).map_err(at(file))?;
        for w in &enc.warnings {
            eprintln!("pte: warning: {}", crate::style::text(&w.to_string()));
        }
        crate::commands::samples::write_set(&out, Some((&set.method, &set.name)), &enc)?;
    }
    Ok(())
}

pub(crate) fn bundle(program: &Path, samples: &Path, out: &Path) -> CmdResult {
    refuse_aliases(&[program], &[out])?;
    let map = open(program)?;
    crate::input::read_pte(program, map.bytes())?;
    let dirs = pte_samples::set_dirs(samples).map_err(at(samples))?;
    // the folder policy `pte pack` applies too: no link, FIFO or device read
    let maps = dirs.iter().map(|d| pte_samples::open_set_dir(d).map_err(at(d))).collect::<Result<Vec<_>, _>>()?;
    let mut sets = Vec::with_capacity(dirs.len());
    for (d, (i, m)) in dirs.iter().zip(&maps) {
        let set = pte_samples::parse_set(i.bytes(), m.bytes(), None, &Default::default()).map_err(at(d))?;
        if set.tolerance.is_some()
            || set.samples.iter().any(|s| s.tolerance.is_some() || s.calls.iter().any(|c| c.tolerance.is_some()))
        {
            eprintln!("pte: note: {}: .bpte stores no tolerance; the runtime's check takes its own", d.display());
        }
        sets.push(set);
    }
    let b = pte_samples::bundle_from_sets(map.bytes(), &sets).map_err(at(samples))?;
    let report = pte_verify::verify_bpte_bytes(&b.to_bytes().map_err(at(out))?, &Default::default());
    if !report.is_ok() {
        let first = report.violations.first().map(ToString::to_string).unwrap_or_default();
        return Err(Failure::bad_input(format!(
            "{}: the samples do not fit the program's methods: {first}",
            samples.display()
        )));
    }
    let n = b.save(out).map_err(at(out))?;
    let cases: usize = b.suites().iter().map(|s| s.test_cases.as_ref().map_or(0, Vec::len)).sum();
    println!(
        "wrote {} ({n} bytes, {}, {})",
        out.display(),
        pte_core::style::count(b.suites().len() as u64, "suite"),
        pte_core::style::count(cases as u64, "case")
    );
    Ok(())
}
