//! `pte graph`: a method's dataflow as Graphviz DOT or Mermaid, rendered to
//! SVG by Graphviz's `dot` when asked. Every kind that carries a program
//! has one: a `.pte`, the program a `.bpte` embeds, and a `.ptn`'s native
//! graph (`graph_native`); a `.ptd` holds data only and is refused.
//!
//! Nodes are the method's inputs and outputs, its stored tensors (constants,
//! mutable buffers, EXTERNAL tensors) and its instructions (kernel and
//! delegate calls, moves); edges are tensor values labelled with dtype and
//! shape. A program does not mark which arguments a kernel writes: a value
//! is taken to be produced by the first instruction that names it (the
//! out-variant convention the exporter follows) and consumed by later ones.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use pte_core::FileKind;
use pte_schema::{ExecutionPlan, InstructionArguments, KernelTypes, Tensor};

use crate::cli::GraphFormat;
use crate::dataflow::{dot, mermaid, Graph};
use crate::failure::{at, CmdResult, Failure};
use crate::input::{read_pte, Input};
use crate::style;

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
            crate::commands::graph_native::build(pick(file, &program.methods, |m| Some(&m.name), method)?)
        }
        FileKind::Bpte => {
            let bundle = crate::formats::bpte::read(file, bytes)?;
            let pte = bundle.pte().map_err(at(file))?;
            build(pick(file, pte.program.plans(), |p| p.name.as_deref(), method)?)
        }
        _ => {
            let pte = read_pte(file, bytes)?;
            build(pick(file, pte.program.plans(), |p| p.name.as_deref(), method)?)
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

fn tensor_label(t: &Tensor) -> String {
    let dynamism = t.shape_dynamism.name().unwrap_or("");
    format!(
        "{} {}",
        style::dtype(&t.scalar_type.to_string()),
        style::pte_shape(&serde_json::json!(t.sizes.clone().unwrap_or_default()), dynamism)
    )
}

fn is_stored(t: &Tensor) -> bool {
    t.is_external() || t.data_buffer_idx > 0 || (t.allocation_info.is_some() && t.fqn().is_some())
}

/// The dataflow of one plan.
pub(crate) fn build(plan: &ExecutionPlan) -> Graph {
    let values = plan.value_list();
    let tensor = |i: i32| match usize::try_from(i).ok().and_then(|i| values.get(i)).and_then(|v| v.val.as_ref()) {
        Some(KernelTypes::Tensor(t)) => Some(t),
        _ => None,
    };
    let mut g = Graph { name: plan.name.clone().unwrap_or_default(), ..Graph::default() };
    // who holds each value now: the node that produced it
    let mut producer: BTreeMap<i32, String> = BTreeMap::new();
    for (k, &i) in plan.inputs.iter().flatten().enumerate() {
        let id = format!("in{k}");
        g.nodes.push((id.clone(), format!("input {k}"), "input"));
        producer.insert(i, id);
    }
    let mut list_members = |i: i32| -> Vec<i32> {
        match usize::try_from(i).ok().and_then(|i| values.get(i)).and_then(|v| v.val.as_ref()) {
            Some(KernelTypes::TensorList(Some(items))) => items.clone(),
            Some(KernelTypes::OptionalTensorList(Some(items))) => items.iter().copied().filter(|&x| x >= 0).collect(),
            _ => vec![i],
        }
    };
    let mut n = 0usize;
    for chain in plan.chains.iter().flatten() {
        for ins in chain.instructions.iter().flatten() {
            let (label, args): (String, Vec<i32>) = match &ins.instr_args {
                Some(InstructionArguments::KernelCall { op_index, args }) => {
                    let op = usize::try_from(*op_index).ok().and_then(|o| plan.operators.as_ref()?.get(o));
                    let name = op.map_or_else(
                        || format!("operator {op_index}"),
                        |o| match o.overload.as_deref() {
                            Some(ov) if !ov.is_empty() => format!("{}.{ov}", o.name.as_deref().unwrap_or("")),
                            _ => o.name.clone().unwrap_or_default(),
                        },
                    );
                    (name, args.clone().unwrap_or_default())
                }
                Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                    let d = usize::try_from(*delegate_index).ok().and_then(|d| plan.delegates.as_ref()?.get(d));
                    let id = d.and_then(|d| d.id.clone()).unwrap_or_else(|| format!("delegate {delegate_index}"));
                    (format!("delegate {id}"), args.clone().unwrap_or_default())
                }
                Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                    ("move".into(), vec![*move_from, *move_to])
                }
                _ => continue,
            };
            let id = format!("op{n}");
            n = n.saturating_add(1);
            g.nodes.push((id.clone(), label, "op"));
            let mut produced = vec![];
            for a in args.into_iter().flat_map(&mut list_members) {
                let Some(t) = tensor(a) else { continue };
                let from = match producer.get(&a) {
                    Some(p) => Some(p.clone()),
                    None if is_stored(t) => {
                        let did = format!("v{a}");
                        let name = t.fqn().map_or_else(|| format!("constant {}", t.data_buffer_idx), str::to_string);
                        g.nodes.push((did.clone(), name, "data"));
                        producer.insert(a, did.clone());
                        Some(did)
                    }
                    None => None,
                };
                match from {
                    Some(f) if f != id => g.edges.push((f, id.clone(), tensor_label(t))),
                    Some(_) => {}
                    None => produced.push(a),
                }
            }
            for a in produced {
                producer.insert(a, id.clone());
            }
        }
    }
    for (k, &o) in plan.outputs.iter().flatten().enumerate() {
        let id = format!("out{k}");
        g.nodes.push((id.clone(), format!("output {k}"), "output"));
        if let (Some(from), Some(t)) = (producer.get(&o), tensor(o)) {
            g.edges.push((from.clone(), id, tensor_label(t)));
        }
    }
    g
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
