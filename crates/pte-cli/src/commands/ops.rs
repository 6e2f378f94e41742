//! `pte ops`: the operators (with overloads) and delegates each method of
//! each file calls (`pte_analysis::operators`), then their union over the
//! files; `--json` the same as one object, `--yaml` the union as the
//! selected-operators file of ExecuTorch's selective build.
//!
//! A `.pte` is read as it is, a `.bpte` through the program it embeds, a
//! `.ptn` through its native graph (operator calls by target; it has no
//! kernel calls, so no kernel keys, and it is left out of the union and the
//! YAML, which are about the kernels a runtime must hold). Folders are
//! walked as `info` walks them, `.ptd` files (tensor data only) skipped.
//! A file that cannot be read fails the command (exit 2); with `--yaml`
//! nothing is printed then, since a selected-operators file missing a
//! program's operators would build a runtime that cannot run it.

use std::path::{Path, PathBuf};

use pte_analysis::operators::{MethodOperators, OperatorUnion, ProgramOperators};
use pte_core::FileKind;
use serde_json::{json, Value};

use crate::batch;
use crate::failure::{at, CmdResult, Exit, Failure};
use crate::input::Input;
use crate::style;

/// The output `pte ops` prints.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    Text,
    Json,
    Yaml,
}

/// One input: the path as given or found, and whether it was named (not
/// found by walking a folder).
struct Source {
    path: PathBuf,
    named: bool,
}

/// One file's operators, the kind it was read as, and that kind's name
/// (the door's).
struct Read {
    kind: FileKind,
    format: &'static str,
    ops: ProgramOperators,
}

pub(crate) fn run(paths: &[PathBuf], form: Form) -> CmdResult {
    let sources = collect(paths)?;
    let files: Vec<PathBuf> = sources.iter().map(|s| s.path.clone()).collect();
    let results = batch::map(&files, "ops", read);
    if let [Err(_)] = results.as_slice() {
        // one file: its error alone, as every command reports one
        return results.into_iter().next().map_or(Ok(()), |r| r.map(drop));
    }
    let mut union = OperatorUnion::default();
    let mut failed = false;
    for (s, r) in sources.iter().zip(&results) {
        match r {
            Ok(r) if !r.kind.is_ptn() => union.add(&s.path.display().to_string(), &r.ops),
            Ok(_) if form == Form::Yaml && s.named => {
                return Err(Failure::bad_input(format!(
                    "{}: a .ptn package's native graph runs without ExecuTorch kernels, so it has no selected-operators file; `pte ops {}` lists its operator calls",
                    s.path.display(),
                    s.path.display()
                )));
            }
            Ok(_) => {}
            Err(_) => failed = true,
        }
    }
    match form {
        Form::Yaml => {
            if failed {
                for e in results.iter().filter_map(|r| r.as_ref().err()) {
                    eprintln!("pte: {}", e.shown());
                }
                return Err(Failure::bad_input(
                    "no selected-operators file written: it would miss the operators of the files above",
                ));
            }
            for s in sources.iter().zip(&results).filter(|(_, r)| matches!(r, Ok(r) if r.kind.is_ptn())) {
                eprintln!(
                    "pte: note: {}: a .ptn's native graph runs no ExecuTorch kernels; left out",
                    s.0.path.display()
                );
            }
            print!("{}", union.to_yaml());
        }
        Form::Json => {
            let files: Vec<Value> = sources.iter().zip(&results).map(|(s, r)| file_json(&s.path, r)).collect();
            println!("{}", json!({"files": files, "union": union}));
        }
        Form::Text => text(&sources, &results, &union),
    }
    batch::worst(failed.then_some(Exit::BadInput))
}

/// The named files, and the program-carrying files under the named folders.
fn collect(paths: &[PathBuf]) -> Result<Vec<Source>, Failure> {
    let mut out = vec![];
    for p in paths {
        if p.is_dir() {
            for f in batch::collect(std::slice::from_ref(p))? {
                let ptd = pte_core::MappedFile::open(&f).is_ok_and(|m| pte::kind_of(m.bytes()).is_ptd());
                if !ptd {
                    out.push(Source { path: f, named: false });
                }
            }
        } else {
            out.push(Source { path: p.clone(), named: true });
        }
    }
    Ok(out)
}

fn read(path: &Path) -> Result<Read, Failure> {
    let input = Input::open(path)?;
    if !input.kind.is_known() {
        input.require("ops", &::pte::OPERATOR_KINDS)?;
    }
    let answer = ::pte::operators(input.kind, input.bytes()).map_err(at(path))?;
    Ok(Read { kind: input.kind, format: answer.format, ops: ProgramOperators { methods: answer.methods } })
}

/// `pte ops --runtime VERSION`: per program, the operators it calls that the
/// release's stock runtime does not register, with the releases that do.
pub(crate) fn lacking(paths: &[PathBuf], version: &str, as_json: bool) -> CmdResult {
    use pte_analysis::operators::runtimes;
    let Some(release) = runtimes::release(version) else {
        let known: Vec<&str> = runtimes::RELEASES.iter().map(|r| r.version).collect();
        return Err(Failure::bad_input(format!(
            "--runtime {}: no operator data for that release (known: {})",
            style::quoted(version),
            known.join(", ")
        )));
    };
    let sources = collect(paths)?;
    let files: Vec<PathBuf> = sources.iter().map(|s| s.path.clone()).collect();
    let results = batch::map(&files, "ops", read);
    let (mut failed, mut any) = (false, false);
    let mut rows = vec![];
    for (s, r) in sources.iter().zip(&results) {
        let file = s.path.display().to_string();
        let r = match r {
            Ok(r) if r.kind.is_ptn() => continue, // a native graph runs no ExecuTorch kernels
            Ok(r) => r,
            Err(e) => {
                failed = true;
                eprintln!("pte: {}", e.shown());
                continue;
            }
        };
        let mut missing = vec![];
        for m in &r.ops.methods {
            for op in m.operators.iter().filter(|o| o.calls > 0 && !release.registers(&o.full_name())) {
                missing.push(json!({
                    "operator": op.full_name(), "method": m.name, "calls": op.calls,
                    "registered_by": runtimes::registering(&op.full_name()),
                }));
            }
        }
        any |= !missing.is_empty();
        rows.push(json!({"file": file, "missing": missing}));
    }
    if as_json {
        println!("{}", json!({"runtime": version, "files": rows}));
    } else {
        for row in &rows {
            let file = field(row, "file").as_str().unwrap_or_default();
            let missing = field(row, "missing").as_array().map(Vec::as_slice).unwrap_or_default();
            if missing.is_empty() {
                println!("{file}: ExecuTorch {version} registers every operator it calls");
                continue;
            }
            println!(
                "{file}: ExecuTorch {version} lacks {} (load_method: OperatorMissing 0x14):",
                style::count(missing.len() as u64, "operator")
            );
            for op in missing {
                let by: Vec<&str> =
                    field(op, "registered_by").as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                println!(
                    "  {} (method {}, {}; {})",
                    style::text(field(op, "operator").as_str().unwrap_or_default()),
                    style::quoted_of(field(op, "method")),
                    style::count(field(op, "calls").as_u64().unwrap_or_default(), "call"),
                    if by.is_empty() {
                        "no release with data registers it".to_string()
                    } else {
                        format!("registered by {}", by.join(", "))
                    }
                );
            }
        }
    }
    if failed {
        return batch::worst(Some(Exit::BadInput));
    }
    if any {
        return Err(Failure::invalid(String::new()));
    }
    Ok(())
}

/// `v[key]`, or null.
fn field<'v>(v: &'v Value, key: &str) -> &'v Value {
    v.get(key).unwrap_or(&Value::Null)
}

fn file_json(path: &Path, r: &Result<Read, Failure>) -> Value {
    let file = path.display().to_string();
    match r {
        Ok(r) => json!({"file": file, "format": r.format, "methods": r.ops.methods}),
        Err(e) => json!({"file": file, "error": e.to_string()}),
    }
}

fn text(sources: &[Source], results: &[Result<Read, Failure>], union: &OperatorUnion) {
    let many = sources.len() != 1;
    for (i, (s, r)) in sources.iter().zip(results).enumerate() {
        if many {
            print!("{}==> {} <==\n", if i == 0 { "" } else { "\n" }, s.path.display());
        }
        match r {
            Ok(r) => {
                if r.kind.is_ptn() {
                    println!("native graph: operator calls by target (no kernels, so no kernel signatures)");
                }
                for m in &r.ops.methods {
                    print!("{}", method_text(m));
                }
            }
            Err(e) if many => println!("error: {}", e.shown()),
            Err(_) => {}
        }
    }
    if many {
        let programs = results.iter().filter(|r| matches!(r, Ok(r) if !r.kind.is_ptn())).count();
        let unreadable = results.iter().filter(|r| r.is_err()).count();
        let ops: Vec<_> = union.operators().collect();
        let delegates: Vec<_> = union.delegates().collect();
        println!(
            "\n{}, {unreadable} unreadable; union of the {}: {}, {}",
            style::count(sources.len() as u64, "file"),
            style::count(programs as u64, "program"),
            style::count(ops.len() as u64, "operator"),
            style::count(delegates.len() as u64, "backend"),
        );
        for op in ops {
            println!(
                "  {}: {} in {}",
                style::text(&op.full_name()),
                style::count(op.calls, "call"),
                style::count(op.files.len() as u64, "file")
            );
        }
        for d in delegates {
            println!("  delegate {}: {}", style::text(&d.id), style::count(d.calls, "call"));
        }
    }
}

fn method_text(m: &MethodOperators) -> String {
    let kernel_calls: u64 = m.operators.iter().map(|o| o.calls).fold(0, u64::saturating_add);
    let delegate_calls: u64 = m.delegates.iter().map(|d| d.calls).fold(0, u64::saturating_add);
    let mut out = format!(
        "method {}: {} ({})",
        style::text(m.name.as_deref().unwrap_or("(unnamed)")),
        style::count(m.operators.len() as u64, "operator"),
        style::count(kernel_calls, "call"),
    );
    if !m.delegates.is_empty() {
        out.push_str(&format!(
            ", {} ({})",
            style::count(m.delegates.len() as u64, "delegate backend"),
            style::count(delegate_calls, "call")
        ));
    }
    out.push('\n');
    for op in &m.operators {
        out.push_str(&format!("  {}: {}\n", style::text(&op.full_name()), style::count(op.calls, "call")));
        for key in &op.kernel_keys {
            out.push_str(&format!("    {}\n", style::text(&signature(key))));
        }
    }
    for d in &m.delegates {
        out.push_str(&format!("  delegate {}: {}\n", style::text(&d.id), style::count(d.calls, "call")));
    }
    out
}

/// A kernel key for people: each tensor argument's dtype and dim order,
/// `float32 (0,1) | int64 (0)`.
fn signature(key: &str) -> String {
    let Some(tensors) = key.strip_prefix("v1/") else { return "(no tensor arguments)".into() };
    tensors
        .split('|')
        .map(|t| {
            let (dtype, dims) = t.split_once(';').unwrap_or((t, ""));
            let name = dtype
                .parse::<i8>()
                .ok()
                .and_then(|n| pte_schema::ScalarType(n).name())
                .map_or_else(|| format!("dtype {dtype}"), style::dtype);
            format!("{name} ({dims})")
        })
        .collect::<Vec<_>>()
        .join(" | ")
}
