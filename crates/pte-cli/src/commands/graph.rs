//! `pte graph`: a method's dataflow as Graphviz DOT or Mermaid, rendered to
//! SVG by Graphviz's `dot` when asked. Every kind that carries a program
//! has one: a `.pte`, the program a `.bpte` embeds, and a `.ptn`'s native
//! graph; a `.ptd` holds data only and is refused. The graphs are built by
//! `pte_report::graph`, which the HTML report draws too.
//!
//! Nodes are the method's inputs and outputs, its stored tensors (constants,
//! mutable buffers, EXTERNAL tensors) and its instructions (kernel and
//! delegate calls, moves); edges are tensor values labelled with dtype and
//! shape. A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use pte_core::FileKind;
use pte_file::view::{PteView, SegmentTable};
use pte_report::graph::{of_native, of_plan, of_plan_view};
use pte_schema::PlanView;

use crate::cli::GraphFormat;
use crate::dataflow::{dot, mermaid};
use crate::failure::{at, CmdResult, Failure};
use crate::input::Input;

pub(crate) fn run(
    file: &Path,
    method: Option<&str>,
    format: GraphFormat,
    output: Option<&Path>,
    svg: bool,
) -> CmdResult {
    let input = Input::open(file)?;
    if input.kind == FileKind::Ptd {
        return Err(Failure::bad_input(format!(
            "{}: a .ptd holds tensor data only, no program to draw; graph the .pte whose EXTERNAL tensors it holds",
            file.display()
        )));
    }
    input.require("graph", &[FileKind::Pte, FileKind::Ptn, FileKind::Bpte])?;
    let bytes = input.bytes();
    let g = match input.kind {
        FileKind::Ptn => {
            let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
            let program = ptn.native_program(&Default::default()).map_err(at(file))?;
            of_native(pick(file, &program.methods, |m| Some(&m.name), method)?)
        }
        FileKind::Bpte => {
            let bundle = crate::formats::bpte::read(file, bytes)?;
            let pte = bundle.pte().map_err(at(file))?;
            of_plan(pick(file, pte.program.plans(), |p| p.name.as_deref(), method)?)
        }
        _ => {
            // read in place: the graph holds a label per value, never the program
            let pte = PteView::read(bytes, SegmentTable::Whole).map_err(at(file))?;
            let plans: Vec<PlanView<'_>> =
                (0..pte.program().plan_count()).filter_map(|i| pte.program().plan(i)).collect();
            of_plan_view(pick(file, &plans, |p| p.name(), method)?)
        }
    };
    let text = match (svg, format) {
        (true, _) | (false, GraphFormat::Dot) => dot(&g),
        (false, GraphFormat::Mermaid) => mermaid(&g),
    };
    let bytes = if svg { render_svg(&text)? } else { text.into_bytes() };
    match output {
        Some(out) => crate::files::write_file(out, &bytes),
        None => {
            print!("{}", String::from_utf8_lossy(&bytes));
            Ok(())
        }
    }
}

/// The method named `method`, or the first.
fn pick<'m, T>(
    file: &Path,
    methods: &'m [T],
    name: impl Fn(&T) -> Option<&str>,
    method: Option<&str>,
) -> Result<&'m T, Failure> {
    match method {
        Some(m) => methods.iter().find(|p| name(p) == Some(m)).ok_or_else(|| {
            let names: Vec<&str> = methods.iter().filter_map(&name).collect();
            Failure::bad_input(format!("{}: no method {m:?} (methods: {})", file.display(), names.join(", ")))
        }),
        None => {
            methods.first().ok_or_else(|| Failure::bad_input(format!("{}: the program has no method", file.display())))
        }
    }
}

/// Pipes DOT through Graphviz's `dot -Tsvg`.
fn render_svg(dot_text: &str) -> Result<Vec<u8>, Failure> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::bad_input(format!("--svg needs Graphviz's `dot` on PATH: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(dot_text.as_bytes())?;
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        return Err(Failure::bad_input(format!("dot -Tsvg failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(out.stdout)
}
