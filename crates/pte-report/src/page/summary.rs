//! The summary part: what the file is and holds, as plain tables that read
//! without the script.

use std::collections::BTreeSet;

use pte_file::PteFile;
use pte_schema::{ExecutionPlan, InstructionArguments, KernelTypes};
use pte_segments::ExtendedHeader;

use super::file::{open, Ctx};
use crate::html::{counted, facts, head_row, row, thousands};

/// The summary part holding `body`.
pub(super) fn wrap(cx: &Ctx, body: &str) -> String {
    format!("{}{body}</section>\n", open(cx, "summary", "Summary"))
}

fn io(plan: &ExecutionPlan, list: Option<&Vec<i32>>) -> String {
    let values = plan.value_list();
    let items: Vec<String> = list
        .into_iter()
        .flatten()
        .map(|&i| match usize::try_from(i).ok().and_then(|i| values.get(i)).and_then(|v| v.val.as_ref()) {
            Some(KernelTypes::Tensor(t)) => format!(
                "{} {}",
                pte_core::style::dtype(&t.scalar_type.to_string()),
                pte_core::style::dynamic_shape(t.sizes.iter().flatten(), t.shape_dynamism.name().unwrap_or(""))
            ),
            Some(k) => k.type_name().to_string(),
            None => format!("value {i}?"),
        })
        .collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join("; ")
    }
}

/// The name a plan goes by on the page (`plan3` when it has none).
pub(super) fn method_name(plan: &ExecutionPlan, p: usize) -> String {
    plan.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| format!("plan{p}"))
}

fn methods_table(pte: &PteFile<'_>) -> String {
    let mut s = String::from("<div class=\"scroll\"><table class=\"methods\"><caption>Methods</caption>");
    s.push_str(&head_row(&[
        "method",
        "inputs",
        "outputs",
        "values",
        "instructions",
        "kernel calls",
        "delegate calls",
        "operators",
        "planned buffers (bytes)",
    ]));
    for (p, plan) in pte.program.plans().iter().enumerate() {
        let instructions = || plan.chains.iter().flatten().flat_map(|c| c.instructions.iter().flatten());
        let kernels =
            instructions().filter(|i| matches!(i.instr_args, Some(InstructionArguments::KernelCall { .. }))).count();
        let delegates =
            instructions().filter(|i| matches!(i.instr_args, Some(InstructionArguments::DelegateCall { .. }))).count();
        let buffers: Vec<String> =
            plan.non_const_buffer_sizes.iter().flatten().skip(1).map(|b| b.to_string()).collect();
        s.push_str(&row(
            None,
            &[
                method_name(plan, p),
                io(plan, plan.inputs.as_ref()),
                io(plan, plan.outputs.as_ref()),
                thousands(plan.value_list().len() as u64),
                thousands(instructions().count() as u64),
                thousands(kernels as u64),
                thousands(delegates as u64),
                thousands(plan.operators.as_ref().map_or(0, Vec::len) as u64),
                if buffers.is_empty() { "-".into() } else { buffers.join(", ") },
            ],
        ));
    }
    s.push_str("</table></div>");
    s
}

/// The operators every method calls, with overloads, as one sorted list.
fn operators(pte: &PteFile<'_>) -> Vec<String> {
    let names: BTreeSet<String> = pte
        .program
        .plans()
        .iter()
        .flat_map(|p| p.operators.iter().flatten())
        .map(|o| match o.overload.as_deref() {
            Some(ov) if !ov.is_empty() => format!("{}.{ov}", o.name.as_deref().unwrap_or("")),
            _ => o.name.clone().unwrap_or_default(),
        })
        .collect();
    names.into_iter().collect()
}

/// The facts of a program; `file` is the whole input, `program` the
/// program's bytes (the same for a `.pte`).
pub(super) fn program_facts(program: &[u8], pte: &PteFile<'_>) -> Vec<(String, String)> {
    let p = &pte.program;
    let mut rows = vec![
        ("format".to_string(), format!("ExecuTorch program (.pte), schema version {}", p.version)),
        ("bytes".into(), thousands(program.len() as u64)),
    ];
    rows.push((
        "extended header".into(),
        match ExtendedHeader::parse(program) {
            Ok(Some(h)) => format!(
                "program {} bytes, segments from byte {} ({} bytes)",
                thousands(h.program_size),
                thousands(h.segment_base_offset),
                thousands(h.segment_data_size)
            ),
            Ok(None) => "none".into(),
            Err(e) => format!("unreadable: {e}"),
        },
    ));
    let names: Vec<String> = p.plans().iter().enumerate().map(|(i, m)| method_name(m, i)).collect();
    rows.push(("methods".into(), listed(&names)));
    rows.push(("operators".into(), listed(&operators(pte))));
    let delegates: Vec<String> =
        p.plans().iter().flat_map(|m| m.delegates.iter().flatten()).map(|d| d.id.clone().unwrap_or_default()).collect();
    rows.push(("delegates".into(), listed(&delegates)));
    rows.push(("segments".into(), thousands(p.segment_table().len() as u64)));
    let constants = pte.constants().map(|c| {
        let bytes = c.iter().fold(0u64, |t, c| t.saturating_add(c.bytes.len() as u64));
        format!("{} (placeholder included), {} bytes", counted(c.len() as u64, "entry"), thousands(bytes))
    });
    rows.push(("constants".into(), constants.unwrap_or_else(|e| format!("unreadable: {e}"))));
    let mutable = pte.mutable_segments().map(|m| {
        let n: usize = m.iter().map(Vec::len).sum();
        format!("{} in {}", thousands(n as u64), counted(m.len() as u64, "segment"))
    });
    rows.push(("mutable buffers with data".into(), mutable.unwrap_or_else(|e| format!("unreadable: {e}"))));
    let named = pte.named_data().map(|n| {
        let bytes = n.iter().fold(0u64, |t, b| t.saturating_add(b.bytes.len() as u64));
        format!("{}, {} bytes", counted(n.len() as u64, "key"), thousands(bytes))
    });
    rows.push(("named data".into(), named.unwrap_or_else(|e| format!("unreadable: {e}"))));
    rows.push(("inline delegate data".into(), thousands(p.backend_delegate_data.as_ref().map_or(0, Vec::len) as u64)));
    if let Some(c) = &p.constant_buffer {
        rows.push(("legacy constant_buffer".into(), counted(c.len() as u64, "entry")));
    }
    rows
}

/// The summary of a readable program.
pub(super) fn program(cx: &Ctx, program: &[u8], pte: &PteFile<'_>) -> String {
    let mut body = facts("summary", &program_facts(program, pte));
    body.push_str(&methods_table(pte));
    wrap(cx, &body)
}

/// The summary of bytes of no known kind (a program whose identifier was
/// damaged, since the command refuses anything else).
pub(super) fn unknown(cx: &mut Ctx, bytes: &[u8]) -> String {
    let id = bytes.get(4..8).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default();
    let mut body = facts(
        "summary",
        &[
            ("format".into(), "unknown: no .pte, .ptd, .bpte or .ptn identifier".into()),
            ("bytes".into(), thousands(bytes.len() as u64)),
            ("bytes 4..8".into(), format!("{id:?}")),
        ],
    );
    body.push_str(
        &cx.fail(
            "the file",
            "it is of no known kind; the verifier judged it as a program whose identifier was damaged",
        ),
    );
    wrap(cx, &body)
}

/// `3: a, b, c`, or `0`.
pub(super) fn listed(names: &[String]) -> String {
    if names.is_empty() {
        return "0".into();
    }
    format!("{}: {}", thousands(names.len() as u64), names.join(", "))
}
