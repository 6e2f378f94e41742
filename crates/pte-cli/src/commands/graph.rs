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
use pte_report::graph::{walk_native, walk_plan_view, Sink};
use pte_schema::PlanView;

use crate::cli::GraphFormat;
use crate::dataflow::{write, Syntax};
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
    let syntax = match (svg, format) {
        (true, _) | (false, GraphFormat::Dot) => Syntax::Dot,
        (false, GraphFormat::Mermaid) => Syntax::Mermaid,
    };
    let emit = |walk: &dyn Fn(&mut dyn Sink)| emit(syntax, svg, output, walk);
    match input.kind {
        FileKind::Ptn => {
            let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
            let program = ptn.native_program(&Default::default()).map_err(at(file))?;
            let m = pick(file, &program.methods, |m| Some(&m.name), method)?;
            emit(&|sink| walk_native(m, sink))
        }
        FileKind::Bpte => {
            let bundle = crate::formats::bpte::read(file, bytes)?;
            // the embedded program read in place, as a .pte is
            let pte = PteView::read(&bundle.program, SegmentTable::Whole).map_err(at(file))?;
            plan_graph(file, &pte, method, emit)
        }
        _ => {
            // read in place: nothing is held per value but where it was made
            let pte = PteView::read(bytes, SegmentTable::Whole).map_err(at(file))?;
            plan_graph(file, &pte, method, emit)
        }
    }
}

fn plan_graph(
    file: &Path,
    pte: &PteView<'_>,
    method: Option<&str>,
    emit: impl Fn(&dyn Fn(&mut dyn Sink)) -> CmdResult,
) -> CmdResult {
    let plans: Vec<PlanView<'_>> = (0..pte.program().plan_count()).filter_map(|i| pte.program().plan(i)).collect();
    let plan = pick(file, &plans, |p| p.name(), method)?;
    emit(&|sink| walk_plan_view(plan, sink))
}

/// Writes the graph `walk` tells: to standard output or `output` as it is
/// walked, or through Graphviz (`svg`), which takes the whole text.
fn emit(syntax: Syntax, svg: bool, output: Option<&Path>, walk: &dyn Fn(&mut dyn Sink)) -> CmdResult {
    if svg {
        let mut text = vec![];
        write(&mut text, syntax, walk)?;
        let bytes = render_svg(&text)?;
        return match output {
            Some(out) => crate::files::write_file(out, &bytes),
            None => crate::formats::pte_info::write_stdout(|w| w.write_all(&bytes)),
        };
    }
    match output {
        Some(out) => pte_file::write_atomically(out, |w| {
            write(w, syntax, walk)?;
            Ok(())
        })
        .map_err(at(out))
        .map(drop),
        None => crate::formats::pte_info::write_stdout(|w| write(w, syntax, walk)),
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
fn render_svg(dot_text: &[u8]) -> Result<Vec<u8>, Failure> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failure::bad_input(format!("--svg needs Graphviz's `dot` on PATH: {e}")))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(dot_text)?;
    }
    let out = child.wait_with_output()?;
    if !out.status.success() {
        return Err(Failure::bad_input(format!("dot -Tsvg failed: {}", String::from_utf8_lossy(&out.stderr).trim())));
    }
    Ok(out.stdout)
}
