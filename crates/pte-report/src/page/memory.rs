//! The memory part: each method's planned buffers
//! (`pte_analysis::memory::MemoryPlan`) drawn as [`crate::memory_picture`]
//! shows them, with the peaks, the overlaps and the allocator estimate.

use std::fmt::Write as _;

use pte_analysis::memory::MemoryPlan;

use super::context::{open, Ctx};
use crate::html::{counted, escape, head_row, row, thousands};

/// The part for a program's bytes.
pub(super) fn section(cx: &mut Ctx, program: &[u8]) -> String {
    let mut s = open(cx, "memory", "Memory plan");
    let plan = match MemoryPlan::from_bytes(program, &Default::default()) {
        Ok(p) => p,
        Err(e) => {
            s.push_str(&cx.fail("the memory plan", e));
            s.push_str("</section>\n");
            return s;
        }
    };
    s.push_str(
        "<p>One picture per planned buffer: instructions run left to right, offsets in the buffer top to bottom, \
         and each planned tensor is a rectangle over the instructions during which it holds data. \
         Red rectangles overlap another live tensor.</p>",
    );
    if plan.methods.is_empty() {
        s.push_str("<p>The program has no method.</p>");
    }
    for m in &plan.methods {
        let name = m.name.clone().unwrap_or_else(|| format!("plan{}", m.plan));
        let _ = write!(s, "<h4>{}</h4>", escape(&name));
        let e = &m.method_allocator;
        let _ = write!(
            s,
            "<p>{}, {} in {}; the method allocator needs about {} bytes besides (an estimate{}).</p>",
            counted(m.instructions, "instruction"),
            counted(m.tensors.len() as u64, "planned tensor"),
            counted(m.arenas.len() as u64, "buffer"),
            thousands(e.bytes),
            if e.delegates > 0 { ", plus what the backends allocate" } else { "" }
        );
        if !m.arenas.is_empty() {
            s.push_str("<div class=\"scroll\"><table class=\"arenas\">");
            s.push_str(&head_row(&[
                "buffer",
                "runtime index",
                "bytes",
                "tensors",
                "high water",
                "peak live",
                "at instruction",
            ]));
            for a in &m.arenas {
                s.push_str(&row(
                    None,
                    &[
                        a.id.to_string(),
                        a.runtime_index.to_string(),
                        thousands(a.size),
                        thousands(a.tensors),
                        thousands(a.high_water),
                        thousands(a.peak),
                        a.peak_at.map_or_else(|| "-".into(), |i| i.to_string()),
                    ],
                ));
            }
            s.push_str("</table></div>");
        }
        for a in &m.arenas {
            let drawn = m.tensors.iter().filter(|t| t.arena == a.id && t.lifetime.is_some()).count();
            let more = drawn.saturating_sub(crate::memory_picture::MAX_TENSORS);
            let _ = write!(
                s,
                "<figure class=\"memory\">{}<figcaption>{} buffer {} ({} bytes){}</figcaption></figure>",
                crate::memory_picture::svg(m, a),
                escape(&name),
                a.id,
                thousands(a.size),
                if more > 0 { format!("; {} more tensors not drawn", thousands(more as u64)) } else { String::new() }
            );
        }
        if !m.overlaps.is_empty() {
            s.push_str("<ul class=\"notes\">");
            for o in &m.overlaps {
                let _ = write!(
                    s,
                    "<li>Overlap in buffer {}: values {} and {} share bytes {}..{} during instructions {}..={}</li>",
                    o.arena, o.values[0], o.values[1], o.bytes[0], o.bytes[1], o.instructions[0], o.instructions[1]
                );
            }
            if m.overlaps_truncated {
                s.push_str("<li>… more overlaps than those listed</li>");
            }
            s.push_str("</ul>");
        }
        if !m.unattributed.is_empty() {
            s.push_str("<ul class=\"notes\">");
            for u in &m.unattributed {
                let _ = write!(s, "<li>Not placed: <code>{}</code>: {}</li>", escape(&u.path), escape(&u.reason));
            }
            s.push_str("</ul>");
        }
    }
    s.push_str("</section>\n");
    s
}
