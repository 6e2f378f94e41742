//! `pte memory`: a program's memory plan (library: `pte_analysis::memory`): per
//! method its planned buffers, every planned tensor with its place and
//! lifetime, the most bytes live at once, overlapping live tensors, and an
//! estimate of the method allocator. A plan with parts that cannot be placed
//! is printed with them listed, and exits 1.

use std::fmt::Write as _;
use std::path::Path;

use pte_analysis::memory::{MethodMemory, Role};

use crate::failure::{at, CmdResult, Failure};
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
    if json {
        println!("{}", serde_json::to_string_pretty(&plan)?);
    } else {
        let mut out = String::new();
        for m in &plan.methods {
            text(&mut out, m);
        }
        print!("{out}");
    }
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
        "method {name:?}: {}, {} (non_const_buffer_sizes[0] is reserved)",
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
        let rows: Vec<[String; 7]> = m
            .tensors
            .iter()
            .map(|t| {
                let dims = t.sizes.iter().map(|&d| if t.dynamic { format!("<={d}") } else { d.to_string() });
                [
                    t.value.to_string(),
                    t.arena.to_string(),
                    format!("{}..{}", t.offset, t.offset.saturating_add(t.size)),
                    t.size.to_string(),
                    format!("{} {}", style::dtype(&t.dtype), style::shape(dims)),
                    t.lifetime.map_or_else(|| "unused".into(), |[f, l]| format!("{f}..={l}")),
                    match (&t.name, role(t.role)) {
                        (Some(n), r) => format!("{r} {n:?}").trim_start().to_string(),
                        (None, r) => r.to_string(),
                    },
                ]
            })
            .collect();
        let head = ["value", "buffer", "bytes", "size", "tensor", "lifetime", "role"];
        let mut widths = head.map(str::len);
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        // Padded in place: the table can have tens of thousands of rows.
        let line = |out: &mut String, cells: &[&str]| {
            let start = out.len();
            out.push_str("  ");
            for (c, w) in cells.iter().zip(widths) {
                out.push_str(c);
                let pad = w.saturating_sub(c.chars().count()).saturating_add(2);
                out.extend(std::iter::repeat_n(' ', pad));
            }
            out.truncate(out.trim_end_matches(' ').len().max(start));
            out.push('\n');
        };
        line(out, &head);
        for r in &rows {
            line(out, &r.each_ref().map(String::as_str));
        }
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
