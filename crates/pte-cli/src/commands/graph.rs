//! `pte graph`: a method's dataflow as Graphviz DOT or Mermaid, or drawn as
//! SVG. Every kind that carries a program has one: a `.pte`, the program a
//! `.bpte` embeds, and a `.ptn`'s native graph; a `.ptd` holds data only and
//! is refused. The graphs are built by `pte_report::graph`, and `--svg`
//! lays them out and draws them as the HTML report does
//! (`pte_report::layout`), no Graphviz involved.
//!
//! Nodes are the method's inputs and outputs, its stored tensors (constants,
//! mutable buffers, EXTERNAL tensors) and its instructions (kernel and
//! delegate calls, moves); edges are tensor values labelled with dtype and
//! shape. A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use std::io::Write;
use std::path::Path;

use pte_file::view::{PteView, SegmentTable};
use pte_report::graph::{walk_native, walk_plan_view, Graph, Sink};
use pte_schema::PlanView;

use crate::cli::GraphFormat;
use crate::dataflow::{write, Syntax};
use crate::failure::{at, CmdResult, Failure};
use crate::input::{kinds_where, Input};

pub(crate) fn run(
    file: &Path,
    method: Option<&str>,
    format: GraphFormat,
    output: Option<&Path>,
    svg: bool,
) -> CmdResult {
    let input = Input::open(file)?;
    if input.kind.is_ptd() {
        return Err(Failure::bad_input(format!(
            "{}: a .ptd holds tensor data only, no program to draw; graph the .pte whose EXTERNAL tensors it holds",
            file.display()
        )));
    }
    // every kind that carries a program
    input.require("graph", &kinds_where(|k| !k.is_ptd()))?;
    let bytes = input.bytes();
    let syntax = match format {
        GraphFormat::Dot => Syntax::Dot,
        GraphFormat::Mermaid => Syntax::Mermaid,
    };
    let emit = |walk: &dyn Fn(&mut dyn Sink)| emit(syntax, svg, output, walk);
    if input.kind.is_ptn() {
        let ptn = crate::formats::ptn::read_ptn(file, bytes)?;
        let program = ptn.native_program(&Default::default()).map_err(at(file))?;
        let m = pick(file, &program.methods, |m| Some(&m.name), method)?;
        return emit(&|sink| walk_native(m, sink));
    }
    // a bundle's embedded program read in place, as a .pte is, the cases not decoded
    let program = if input.kind.is_bpte() { crate::formats::bpte::program(file, bytes)? } else { bytes };
    // read in place: nothing is held per value but where it was made
    let pte = PteView::read(program, SegmentTable::Whole).map_err(at(file))?;
    plan_graph(file, &pte, method, emit)
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
/// walked, or drawn as an SVG file (`svg`), which needs the whole graph.
fn emit(syntax: Syntax, svg: bool, output: Option<&Path>, walk: &dyn Fn(&mut dyn Sink)) -> CmdResult {
    if svg {
        let mut graph = Graph::default();
        walk(&mut graph);
        let file = pte_report::layout::svg_file(&graph);
        return match output {
            Some(out) => {
                crate::files::write_file(out, file.as_bytes())?;
                println!("wrote {} ({} bytes)", out.display(), file.len());
                Ok(())
            }
            None => crate::formats::pte_info::write_stdout(|w| w.write_all(file.as_bytes())),
        };
    }
    match output {
        Some(out) => {
            let n = pte_file::write_atomically(out, |w| {
                let mut counted = Counted { inner: w, n: 0 };
                write(&mut counted, syntax, walk)?;
                Ok(counted.n)
            })
            .map_err(at(out))?;
            println!("wrote {} ({n} bytes)", out.display());
            Ok(())
        }
        None => crate::formats::pte_info::write_stdout(|w| write(w, syntax, walk)),
    }
}

/// A writer that passes bytes on and counts them, for the line saying
/// what was written.
struct Counted<'w> {
    inner: &'w mut dyn Write,
    n: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.n = self.n.saturating_add(n as u64);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
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
