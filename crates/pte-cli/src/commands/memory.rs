//! `pte memory`: a program's memory plan (library: `pte_analysis::memory`): per
//! method its planned buffers, every planned tensor with its place and
//! lifetime, the most bytes live at once, overlapping live tensors, and an
//! estimate of the method allocator. A plan with parts that cannot be placed
//! is printed with them listed, and exits 1.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use pte_analysis::memory::{MethodMemory, PlannedTensor, Role};

use crate::failure::{at, CmdResult, Failure};
use crate::formats::pte_info::write_stdout;
use crate::input::Input;
use crate::style;

pub(crate) fn run(file: &Path, method: Option<&str>, json: bool) -> CmdResult {
    let input = Input::open(file)?;
    // a program whose identifier was damaged is planned as a program
    let kind = ::pte::kind_of(input.bytes());
    if !kind.is_known() {
        input.require("memory", &::pte::MEMORY_KINDS)?;
    }
    let plan = ::pte::memory(kind, input.bytes(), method).map_err(at(file))?;
    write_stdout(|w| {
        if json {
            // into memory first, as before: serde_json writes a token at a
            // time, which a Vec takes faster than a buffered writer
            let text = serde_json::to_vec_pretty(&plan)?;
            w.write_all(&text)?;
            return w.write_all(b"\n");
        }
        let mut out = String::new();
        for m in &plan.methods {
            text(&mut out, m);
        }
        w.write_all(out.as_bytes())
    })?;
    let unplaced: usize = plan.methods.iter().map(|m| m.unattributed.len()).sum();
    if unplaced > 0 {
        return Err(Failure::invalid(format!(
            "{}: {} of the memory plan could not be attributed (listed under unattributed)",
            file.display(),
            style::count(unplaced as u64, "part")
        )));
    }
    Ok(())
}

fn role(r: Role) -> &'static str {
    match r {
        Role::Input => "input",
        Role::Output => "output",
        Role::InputOutput => "input+output",
        Role::State => "state",
        Role::Intermediate => "",
    }
}

fn text(out: &mut String, m: &MethodMemory) {
    let name = m.name.as_deref().unwrap_or("");
    let _ = writeln!(
        out,
        "method {}: {}, {} (non_const_buffer_sizes[0] is reserved)",
        style::quoted(name),
        style::count(m.instructions, "instruction"),
        style::count(m.arenas.len() as u64, "planned buffer")
    );
    for a in &m.arenas {
        let peak = match a.peak_at {
            Some(i) => format!("peak {} bytes live at instruction {i}", a.peak),
            None => "nothing live".into(),
        };
        let _ = writeln!(
            out,
            "  buffer {} (runtime buffer {}): {} bytes; {}, {peak}, high water {}",
            a.id,
            a.runtime_index,
            a.size,
            style::count(a.tensors, "tensor"),
            a.high_water
        );
    }
    if !m.tensors.is_empty() {
        tensor_table(out, &m.tensors);
    }
    let e = &m.method_allocator;
    let p = &e.parts;
    let _ = writeln!(
        out,
        "  method allocator (estimate): {} bytes = values {}, tensors {}, lists {}, external constants {}, delegates {}, chains {}, arguments {}, kernel lookup {}, temp fallback {}, padding {}",
        e.bytes,
        p.values,
        p.tensors,
        p.lists,
        p.external_constants,
        p.delegates,
        p.chains,
        p.arguments,
        p.kernel_lookup,
        p.temp_fallback,
        p.padding
    );
    if e.delegates > 0 {
        let _ =
            writeln!(out, "    plus what the backends of {} allocate in init", style::count(e.delegates, "delegate"));
    }
    for o in &m.overlaps {
        let _ = writeln!(
            out,
            "  OVERLAP buffer {}: values {} and {} share bytes {}..{} during instructions {}..={}",
            o.arena, o.values[0], o.values[1], o.bytes[0], o.bytes[1], o.instructions[0], o.instructions[1]
        );
    }
    if m.overlaps_truncated {
        let _ = writeln!(out, "  (more overlaps than the {} listed)", pte_analysis::memory::MAX_OVERLAPS);
    }
    for u in &m.unattributed {
        let _ = writeln!(out, "  unattributed: {}: {}", u.path, u.reason);
    }
}

/// The columns of the planned tensors' table.
const HEAD: [&str; 7] = ["value", "buffer", "bytes", "size", "tensor", "lifetime", "role"];

/// Writes cell `k` of tensor `t`'s row to `out`.
fn cell(out: &mut String, k: usize, t: &PlannedTensor) -> std::fmt::Result {
    // integers by itoa: the formatting machinery costs more than the row
    let mut digits = itoa::Buffer::new();
    let mut int = |out: &mut String, n: u64| out.push_str(digits.format(n));
    match k {
        0 => int(out, t.value as u64),
        1 => int(out, u64::from(t.arena)),
        2 => {
            int(out, t.offset);
            out.push_str("..");
            int(out, t.offset.saturating_add(t.size));
        }
        3 => int(out, t.size),
        4 => {
            out.push_str(style::torch_dtype(&t.dtype));
            out.push(' ');
            return if t.dynamic {
                style::write_shape(out, t.sizes.iter().map(|d| format!("<={d}")))
            } else {
                style::write_shape(out, &t.sizes)
            };
        }
        5 => match t.lifetime {
            Some([f, l]) => {
                int(out, f);
                out.push_str("..=");
                int(out, l);
            }
            None => out.push_str("unused"),
        },
        _ => {
            let r = role(t.role);
            out.push_str(r);
            if let Some(n) = &t.name {
                if !r.is_empty() {
                    out.push(' ');
                }
                out.push_str(&style::quoted(n));
            }
        }
    }
    Ok(())
}

/// Columns a cell takes: its characters (bytes, when all are ASCII).
fn width(c: &str) -> usize {
    if c.is_ascii() {
        c.len()
    } else {
        c.chars().count()
    }
}

/// The planned tensors, a row each, every column as wide as its widest
/// cell. The cells are written once, one after another into one buffer
/// (a table can have tens of thousands of rows), then copied out padded.
fn tensor_table(out: &mut String, tensors: &[PlannedTensor]) {
    let mut cells = String::new();
    // where each row's cells end in `cells`
    let mut ends: Vec<[usize; 7]> = Vec::with_capacity(tensors.len());
    let mut widths = HEAD.map(str::len);
    for t in tensors {
        let mut row = [0usize; 7];
        for (k, (end, w)) in row.iter_mut().zip(widths.iter_mut()).enumerate() {
            let start = cells.len();
            let _ = cell(&mut cells, k, t);
            *end = cells.len();
            *w = (*w).max(cells.get(start..).map_or(0, width));
        }
        ends.push(row);
    }
    line(out, HEAD.into_iter(), &widths);
    let mut from = 0;
    for row in &ends {
        let cuts = row.iter().map(|&end| {
            let c = cells.get(from..end).unwrap_or_default();
            from = end;
            c
        });
        line(out, cuts, &widths);
    }
}

/// One row of the table: each cell padded to its column's width, two
/// spaces between columns, no spaces at the end of the line (the padding
/// is written only once a cell follows it).
fn line<'c>(out: &mut String, cells: impl Iterator<Item = &'c str>, widths: &[usize; 7]) {
    const SPACES: &str = "                                ";
    out.push_str("  ");
    let mut pending = 0usize;
    for (c, &w) in cells.zip(widths) {
        if !c.is_empty() {
            while pending > 0 {
                let n = pending.min(SPACES.len());
                out.push_str(SPACES.get(..n).unwrap_or_default());
                pending = pending.saturating_sub(n);
            }
            out.push_str(c);
        }
        pending = pending.saturating_add(w.saturating_sub(width(c))).saturating_add(2);
    }
    out.push('\n');
}
