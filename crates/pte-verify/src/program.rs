//! Program-wide rules (version, execution plans, constant and mutable data,
//! named data), then each plan.

use pte_schema::Program;
use pte_segments::ExtendedHeader;

use super::checker::Checker;
use super::header::{check_offsets, check_segments};
use super::plan::check_plan;
use super::rules;
use super::tensor::DataContext;

/// The warning of a program with no constant segment offsets, stated by
/// both passes.
pub(super) fn warn_inline_constants(c: &mut Checker<'_>) {
    c.warn(
        rules::PROGRAM_CONSTANT_SEGMENT,
        "constant_segment.offsets",
        "no constant segment offsets: the runtime takes the deprecated constant_buffer path, which stock CMake builds and the pip wheels compile out (pte rewrite moves the constants into a segment)",
    );
}

pub(super) fn check_program(c: &mut Checker<'_>, p: &Program<'_>, header: Option<&ExtendedHeader>, bytes: &[u8]) {
    if p.version != 0 {
        c.add(
            rules::PROGRAM_VERSION,
            "version",
            None,
            format!("schema version {} is newer than the runtime supports (0)", p.version),
        );
    }
    if p.execution_plan.is_none() {
        c.add(rules::PROGRAM_EXECUTION_PLAN, "execution_plan", None, "execution_plan is absent");
    }
    if p.named_data.is_some() && p.segments.is_none() {
        c.add(rules::PROGRAM_NAMED_DATA_SEGMENTS, "segments", None, "named_data is present but segments is absent");
    }
    let nseg = p.segment_table().len();
    check_segments(c, p, header, bytes);
    let seg_size = |i: u32| usize::try_from(i).ok().and_then(|i| p.segment_table().get(i)).map(|s| s.size);
    let cs_offsets = p.constant_segment.as_ref().and_then(|c| c.offsets.as_deref()).unwrap_or(&[]);
    if cs_offsets.is_empty() {
        warn_inline_constants(c);
    }
    if let Some(cs) = &p.constant_segment {
        if cs_offsets.len() > 1 {
            if p.constant_buffer.as_ref().is_some_and(|b| !b.is_empty()) {
                c.add(
                    rules::PROGRAM_CONSTANT_BUFFER,
                    "constant_buffer",
                    None,
                    "constant_buffer must be empty when the constant segment holds constants",
                );
            }
            if seg_size(cs.segment_index).is_none() {
                c.add(
                    rules::SEGMENT_INDEX,
                    "constant_segment.segment_index",
                    None,
                    format!("segment {} of {nseg}", cs.segment_index),
                );
            }
        }
        check_offsets(c, cs_offsets, seg_size(cs.segment_index), "constant_segment.offsets");
    }
    for (k, m) in p.mutable_data_segments.iter().flatten().enumerate() {
        let path = format!("mutable_data_segments[{k}]");
        if seg_size(m.segment_index).is_none() {
            c.add(
                rules::SEGMENT_INDEX,
                format!("{path}.segment_index"),
                None,
                format!("segment {} of {nseg}", m.segment_index),
            );
        }
        check_offsets(c, m.offsets.as_deref().unwrap_or(&[]), seg_size(m.segment_index), &format!("{path}.offsets"));
    }
    for (i, n) in p.named_data.iter().flatten().enumerate() {
        if n.key.is_none() {
            c.add(rules::DELEGATE_FIELDS, format!("named_data[{i}].key"), None, "named data without key");
        }
        if seg_size(n.segment_index).is_none() {
            c.add(
                rules::SEGMENT_INDEX,
                format!("named_data[{i}].segment_index"),
                None,
                format!("segment {} of {nseg}", n.segment_index),
            );
        }
    }

    let ctx = DataContext {
        constant_offsets: cs_offsets,
        constant_segment_size: p.constant_segment.as_ref().and_then(|c| seg_size(c.segment_index)),
        constant_buffer: p
            .constant_buffer
            .as_deref()
            .map(|b| b.iter().map(|s| s.storage.as_ref().map_or(0, |d| d.len() as u64)).collect()),
        mutable0: p
            .mutable_data_segments
            .as_ref()
            .and_then(|m| m.first())
            .map(|m| (m.offsets.as_deref().unwrap_or(&[]), seg_size(m.segment_index))),
        segment_base: header.is_some_and(|h| h.segment_base_offset != 0),
    };
    for (i, plan) in p.plans().iter().enumerate() {
        check_plan(c, p, plan, &format!("execution_plan[{i}]"), &ctx);
    }
}
