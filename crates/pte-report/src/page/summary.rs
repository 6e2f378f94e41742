//! The summary part: what the file is and holds, as plain tables that read
//! without the script.

use std::collections::BTreeSet;

use pte::summary::type_name;
use pte_file::view::PteView;
use pte_schema::{InstructionRef, List, PlanView, ValueRef};
use pte_segments::ExtendedHeader;

use super::context::{open, Ctx};
use crate::html::{counted, facts, head_row, row, thousands};

/// The summary part holding `body`.
pub(super) fn wrap(cx: &Ctx, body: &str) -> String {
    format!("{}{body}</section>\n", open(cx, "summary", "Summary"))
}

fn io(plan: &PlanView<'_>, list: Option<List<'_, i32>>) -> String {
    let items: Vec<String> = list
        .into_iter()
        .flat_map(|l| l.iter())
        .map(|i| {
            let v = usize::try_from(i).ok().and_then(|j| plan.value_ref(j));
            match v {
                Some(ValueRef::Tensor(t)) => format!(
                    "{} {}",
                    pte_core::style::dtype(&t.scalar_type().to_string()),
                    pte_core::style::dynamic_shape(
                        t.sizes().into_iter().flat_map(|s| s.iter()),
                        t.shape_dynamism().name().unwrap_or("")
                    )
                ),
                Some(v) => type_name(&v).map_or_else(|| format!("value {i}?"), str::to_string),
                None => format!("value {i}?"),
            }
        })
        .collect();
    if items.is_empty() {
        "-".into()
    } else {
        items.join("; ")
    }
}

/// The name a plan goes by on the page (`plan3` when it has none).
pub(super) fn method_name(plan: &PlanView<'_>, p: usize) -> String {
    plan.name().filter(|n| !n.is_empty()).map_or_else(|| format!("plan{p}"), str::to_string)
}

fn plans<'a>(pte: &PteView<'a>) -> impl Iterator<Item = (usize, PlanView<'a>)> + 'a + use<'a> {
    let program = pte.program();
    (0..program.plan_count()).filter_map(move |p| program.plan(p).map(|plan| (p, plan)))
}

fn methods_table(pte: &PteView<'_>) -> String {
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
    for (p, plan) in plans(pte) {
        let (mut all, mut kernels, mut delegates) = (0u64, 0u64, 0u64);
        for ins in plan.chains().into_iter().flatten().flat_map(|c| c.instructions().into_iter().flatten()) {
            all = all.saturating_add(1);
            match ins {
                InstructionRef::KernelCall { .. } => kernels = kernels.saturating_add(1),
                InstructionRef::DelegateCall { .. } => delegates = delegates.saturating_add(1),
                _ => {}
            }
        }
        let buffers: Vec<String> =
            plan.buffer_sizes().into_iter().flat_map(|b| b.iter().skip(1)).map(|b| b.to_string()).collect();
        s.push_str(&row(
            None,
            &[
                method_name(&plan, p),
                io(&plan, plan.input_list()),
                io(&plan, plan.output_list()),
                thousands(plan.value_count() as u64),
                thousands(all),
                thousands(kernels),
                thousands(delegates),
                thousands(plan.operator_count() as u64),
                if buffers.is_empty() { "-".into() } else { buffers.join(", ") },
            ],
        ));
    }
    s.push_str("</table></div>");
    s
}

/// The operators every method calls, with overloads, as one sorted list.
fn operators(pte: &PteView<'_>) -> Vec<String> {
    let names: BTreeSet<String> = plans(pte)
        .flat_map(|(_, plan)| (0..plan.operator_count()).filter_map(move |o| plan.operator(o)))
        .map(|(name, overload)| match overload {
            Some(ov) if !ov.is_empty() => format!("{}.{ov}", name.unwrap_or("")),
            _ => name.unwrap_or_default().to_string(),
        })
        .collect();
    names.into_iter().collect()
}

/// The facts of a program read in place; `program` is the program's bytes.
pub(super) fn program_facts(program: &[u8], pte: &PteView<'_>) -> Vec<(String, String)> {
    let p = pte.program();
    let mut rows = vec![
        ("format".to_string(), format!("ExecuTorch program (.pte), schema version {}", p.version())),
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
    let names: Vec<String> = plans(pte).map(|(i, m)| method_name(&m, i)).collect();
    rows.push(("methods".into(), listed(&names)));
    rows.push(("operators".into(), listed(&operators(pte))));
    let delegates: Vec<String> = plans(pte)
        .flat_map(|(_, m)| m.delegates().into_iter().flatten())
        .map(|d| d.id().unwrap_or_default().to_string())
        .collect();
    rows.push(("delegates".into(), listed(&delegates)));
    rows.push(("segments".into(), thousands(p.segment_count() as u64)));
    let constants = pte.constants().map(|c| {
        let bytes = c.iter().fold(0u64, |t, c| t.saturating_add(c.len));
        format!("{} (placeholder included), {} bytes", counted(c.len() as u64, "entry"), thousands(bytes))
    });
    rows.push(("constants".into(), constants.unwrap_or_else(|| "unreadable".into())));
    let mutable = pte.mutable_segments().map(|m| {
        let n: usize = m.iter().map(|s| s.len()).sum();
        format!("{} in {}", thousands(n as u64), counted(m.len() as u64, "segment"))
    });
    rows.push(("mutable buffers with data".into(), mutable.unwrap_or_else(|| "unreadable".into())));
    let named = pte.named_data().map(|n| {
        let (count, bytes) =
            n.fold((0u64, 0u64), |(c, t), (_, _, b)| (c.saturating_add(1), t.saturating_add(b.len() as u64)));
        format!("{}, {} bytes", counted(count, "key"), thousands(bytes))
    });
    rows.push(("named data".into(), named.unwrap_or_else(|| "unreadable".into())));
    rows.push(("inline delegate data".into(), thousands(p.inline_delegate_count().unwrap_or(0) as u64)));
    if let Some(c) = p.constant_buffer() {
        rows.push(("legacy constant_buffer".into(), counted(c.len() as u64, "entry")));
    }
    rows
}

/// The summary of a readable program.
pub(super) fn program(cx: &Ctx, program: &[u8], pte: &PteView<'_>) -> String {
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
