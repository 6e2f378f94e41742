//! The parts of a program, a `.pte`'s or the one a `.bpte` embeds: each
//! part read on its own from the program's view.

use pte_file::view::PteView;

use super::context::{Ctx, Parts, Source};
use super::{delegates, external, graphs, memory, sizes, summary, tensors};

/// The parts of a program: a `.pte`'s, or the one a `.bpte` embeds
/// (`file` is the whole input, `program` the program's bytes in it, and
/// `more_parts` the parts of the file outside the program, counted).
pub(super) fn program(
    cx: &mut Ctx,
    file: &[u8],
    program: &[u8],
    pte: pte_file::Result<PteView<'_>>,
    data: &[Source<'_>],
    more_parts: u64,
) -> Parts {
    let mut parts = Parts::default();
    let pte = match pte {
        Ok(p) => Some(p),
        Err(e) => {
            let note = cx.fail("the program", &e);
            parts.summary = summary::wrap(cx, &note);
            None
        }
    };
    if let Some(pte) = &pte {
        parts.summary = summary::program(cx, program, pte);
    }
    let (graphs, methods, nodes) = graphs::program(cx, pte.as_ref());
    parts.graphs = Some(graphs);
    parts.methods = methods;
    parts.nodes = nodes;
    let counted = pte.as_ref().map_or(0, sizes::program_parts).saturating_add(more_parts);
    parts.sizes = Some(sizes::section(cx, file, counted));
    parts.memory = Some(memory::section(cx, program));
    // file offsets: a bundle's program starts inside it
    let at = (program.as_ptr() as usize).saturating_sub(file.as_ptr() as usize) as u64;
    let (tensors, rows) = tensors::program(cx, pte.as_ref(), file, at);
    parts.tensors = Some(tensors);
    parts.tensor_rows = rows;
    if let Some(pte) = &pte {
        parts.delegates = delegates::section(cx, pte);
    }
    if !data.is_empty() {
        parts.external = Some(external::external(cx, pte.as_ref(), data));
    }
    parts
}
