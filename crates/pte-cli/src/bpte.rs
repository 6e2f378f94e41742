//! `.bpte` support: `info`, `dump` and `verify`, and `pte bpte
//! unbundle|export-samples|bundle`.

// serde_json::Value indexing yields Null for a missing key and never panics.
#![allow(clippy::indexing_slicing)]

use std::path::{Path, PathBuf};

use serde_json::{json, Value as Json};

use pte_file::bpte::BundledFile;
use pte_schema::bundled::BundledValue;

use crate::{at, open, CmdResult, Failure};

pub(crate) fn read<'a>(path: &Path, bytes: &'a [u8]) -> Result<BundledFile<'a>, Failure> {
    crate::detect::require_kind(path, bytes, crate::detect::Kind::Bpte)?;
    BundledFile::from_bytes(bytes).map_err(at(path))
}

fn value_json(v: &BundledValue<'_>) -> Json {
    match v {
        BundledValue::Tensor(t) => {
            let preview = pte_samples::dtype_of(t.scalar_type).and_then(|d| {
                let shape = t.sizes.as_ref()?.iter().map(|&s| u64::try_from(s).ok()).collect::<Option<Vec<_>>>()?;
                let pt = pte_ptn::PtnTensor::new(d, shape, t.data.as_deref().unwrap_or(&[])).ok()?;
                Some(pte_samples::tensor_preview(&pt, 8))
            });
            json!({
                "kind": "tensor",
                "dtype": t.scalar_type.name().map_or_else(|| format!("ScalarType({})", t.scalar_type.0), str::to_string),
                "sizes": t.sizes,
                "dim_order": t.dim_order,
                "nbytes": t.data.as_ref().map(|d| d.len()),
                "preview": preview,
            })
        }
        BundledValue::Int(i) => json!({"kind": "int", "value": i}),
        BundledValue::Bool(b) => json!({"kind": "bool", "value": b}),
        BundledValue::Double(d) => json!({"kind": "double", "value": d.to_string()}),
        BundledValue::None => json!({"kind": "none"}),
    }
}

pub(crate) fn info(file: &Path, bytes: &[u8], as_json: bool) -> CmdResult {
    let b = read(file, bytes)?;
    let pte = b.pte().map_err(at(file))?;
    let offset = (b.program.as_ptr() as usize).checked_sub(bytes.as_ptr() as usize);
    let suites: Vec<Json> = b
        .suites()
        .iter()
        .map(|s| {
            json!({
                "method": s.method_name,
                "cases": s.test_cases.iter().flatten().map(|c| json!({
                    "inputs": c.inputs.iter().flatten().map(value_json).collect::<Vec<_>>(),
                    "expected_outputs": c.expected_outputs.iter().flatten().map(value_json).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let v = json!({
        "format": "bpte",
        "file_size": bytes.len(),
        "version": b.version,
        "program_offset": offset,
        "program_size": b.program.len(),
        "program": crate::info::info_json(&pte, &b.program),
        "test_suites": suites,
    });
    if as_json {
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    println!(
        "bundled program, {} bytes, version {}; embedded .pte of {} bytes at offset {}",
        v["file_size"], v["version"], v["program_size"], v["program_offset"]
    );
    for s in v["test_suites"].as_array().into_iter().flatten() {
        let cases = s["cases"].as_array().map_or(0, Vec::len);
        println!("suite {}: {cases} case(s)", s["method"]);
        for (j, c) in s["cases"].as_array().into_iter().flatten().enumerate() {
            println!("  case {j}");
            for (side, label) in [("inputs", "in"), ("expected_outputs", "out")] {
                for (k, x) in c[side].as_array().into_iter().flatten().enumerate() {
                    let body = match x["kind"].as_str() {
                        Some("tensor") => format!(
                            "tensor {} {} {}",
                            x["dtype"].as_str().unwrap_or(""),
                            x["sizes"],
                            x["preview"].as_str().unwrap_or("")
                        ),
                        Some(kind) => format!("{kind} {}", x["value"]),
                        None => String::new(),
                    };
                    println!("    {label}[{k}] {}", body.trim_end());
                }
            }
        }
    }
    println!("embedded program:");
    print!("{}", crate::info::text(&v["program"]));
    Ok(())
}

pub(crate) fn dump(file: &Path, bytes: &[u8]) -> CmdResult {
    crate::detect::require_kind(file, bytes, crate::detect::Kind::Bpte)?;
    let b = pte_schema::bundled::decode_bundled_program(bytes, &Default::default()).map_err(at(file))?;
    println!("{}", serde_json::to_string_pretty(&pte_schema::bundled::bundled_program_to_json(&b))?);
    Ok(())
}

pub(crate) fn unbundle(file: &Path, out: &Path) -> CmdResult {
    let map = open(file)?;
    let b = read(file, map.bytes())?;
    pte_file::write_atomically(out, |w| {
        w.write_all(&b.program)?;
        Ok(())
    })
    .map_err(at(out))?;
    println!("wrote {} ({} bytes)", out.display(), b.program.len());
    Ok(())
}

pub(crate) fn export_samples(file: &Path, dir: &Path, atol: Option<f64>, rtol: Option<f64>) -> CmdResult {
    let map = open(file)?;
    let b = read(file, map.bytes())?;
    let d = pte_samples::DEFAULT_TOLERANCE;
    let tol = pte_samples::Tolerance { atol: atol.unwrap_or(d.atol), rtol: rtol.unwrap_or(d.rtol) };
    let sets = pte_samples::bundled_sets(&b, Some(tol)).map_err(at(file))?;
    for set in &sets {
        let enc = pte_samples::encode_set(set, &Default::default()).map_err(at(file))?;
        for w in &enc.warnings {
            eprintln!("pte: warning: {w}");
        }
        crate::samples::write_set_dir(&dir.join(&set.method).join(&set.name), &enc)?;
    }
    Ok(())
}

/// The set directories under `dir`: `dir` itself when it holds an
/// `index.json`, else every `dir/<method>/<set>/` that does, sorted.
fn set_dirs(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    if dir.join(pte_samples::INDEX_FILE).is_file() {
        return Ok(vec![dir.to_path_buf()]);
    }
    let mut out = Vec::new();
    let list = |d: &Path| -> Result<Vec<PathBuf>, Failure> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(d)
            .map_err(at(d))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        Ok(v)
    };
    for method in list(dir)? {
        for set in list(&method)? {
            if set.join(pte_samples::INDEX_FILE).is_file() {
                out.push(set);
            }
        }
    }
    if out.is_empty() {
        return Err(Failure {
            message: format!("{}: no index.json here or in <method>/<set>/ below", dir.display()),
            code: 2,
        });
    }
    Ok(out)
}

pub(crate) fn bundle(program: &Path, samples: &Path, out: &Path) -> CmdResult {
    let map = open(program)?;
    crate::read_pte(program, map.bytes())?;
    let dirs = set_dirs(samples)?;
    let index: Vec<Vec<u8>> =
        dirs.iter().map(|d| std::fs::read(d.join(pte_samples::INDEX_FILE)).map_err(at(d))).collect::<Result<_, _>>()?;
    let data = dirs.iter().map(|d| open(&d.join(pte_samples::DATA_FILE))).collect::<Result<Vec<_>, _>>()?;
    let mut sets = Vec::with_capacity(dirs.len());
    for ((d, i), m) in dirs.iter().zip(&index).zip(&data) {
        let set = pte_samples::parse_set(i, m.bytes(), None, &Default::default()).map_err(at(d))?;
        if set.tolerance.is_some()
            || set.samples.iter().any(|s| s.tolerance.is_some() || s.calls.iter().any(|c| c.tolerance.is_some()))
        {
            eprintln!("pte: note: {}: .bpte stores no tolerance; the runtime's check takes its own", d.display());
        }
        sets.push(set);
    }
    let b = pte_samples::bundle_from_sets(map.bytes(), &sets).map_err(at(samples))?;
    let report = pte_file::verify::verify_bpte_bytes(&b.to_bytes().map_err(at(out))?, &Default::default());
    if !report.is_ok() {
        let first = report.violations.first().map(ToString::to_string).unwrap_or_default();
        return Err(Failure {
            message: format!("{}: the samples do not fit the program's methods: {first}", samples.display()),
            code: 2,
        });
    }
    let n = b.save(out).map_err(at(out))?;
    let cases: usize = b.suites().iter().map(|s| s.test_cases.as_ref().map_or(0, Vec::len)).sum();
    println!("wrote {} ({n} bytes, {} suite(s), {cases} case(s))", out.display(), b.suites().len());
    Ok(())
}
