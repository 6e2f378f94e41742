//! One execution plan: its fields, values, instruction chains and delegates.

use pte_schema::{DataLocation, ExecutionPlan, InstructionArguments, KernelTypes, Program};

use super::checker::{in_range, At, Checker, Suffix};
use super::rules;
use super::tensor::{check_tensor, DataContext};

pub(super) fn check_plan(
    c: &mut Checker<'_>,
    p: &Program<'_>,
    plan: &ExecutionPlan,
    path: &str,
    ctx: &DataContext<'_>,
) {
    if plan.name.is_none() {
        c.add(rules::PLAN_NAME, format!("{path}.name"), None, "plan has no name");
    }
    for (field, present) in [
        ("values", plan.values.is_some()),
        ("inputs", plan.inputs.is_some()),
        ("outputs", plan.outputs.is_some()),
        ("non_const_buffer_sizes", plan.non_const_buffer_sizes.is_some()),
    ] {
        if !present {
            c.add(rules::PLAN_FIELDS, format!("{path}.{field}"), None, format!("{field} is absent"));
        }
    }
    let values = plan.value_list();
    let n = values.len();
    for (field, list) in [("inputs", &plan.inputs), ("outputs", &plan.outputs)] {
        for (k, &v) in list.iter().flatten().enumerate() {
            if !in_range(i64::from(v), n) {
                c.add(rules::PLAN_IO_INDEX, format!("{path}.{field}[{k}]"), None, format!("value index {v} of {n}"));
            }
        }
    }
    let sizes = plan.non_const_buffer_sizes.as_deref().unwrap_or(&[]);
    for (k, &s) in sizes.iter().enumerate().skip(1) {
        if s < 0 {
            c.add(
                rules::PLAN_BUFFER_SIZES,
                format!("{path}.non_const_buffer_sizes[{k}]"),
                None,
                format!("size {s} is negative"),
            );
        }
    }
    for (j, v) in values.iter().enumerate() {
        let vpath = At(&path, "values", j);
        match &v.val {
            None => c.add(rules::VALUE_NULL, format!("{vpath}.val"), None, "value has tag NONE; use the Null table"),
            Some(KernelTypes::Tensor(t)) => check_tensor(c, t, sizes, &Suffix(&vpath, ".val"), ctx),
            Some(KernelTypes::String(None)) => {
                c.add(rules::VALUE_LIST, format!("{vpath}.val.string_val"), None, "string is absent")
            }
            Some(KernelTypes::IntList(items)) => match items {
                None => c.add(rules::VALUE_LIST, format!("{vpath}.val.items"), None, "items are absent"),
                Some(items) => {
                    for (k, &x) in items.iter().enumerate() {
                        if !in_range(x, n) {
                            c.add(
                                rules::VALUE_LIST,
                                format!("{vpath}.val.items[{k}]"),
                                None,
                                format!("value index {x} of {n}"),
                            );
                        }
                    }
                }
            },
            Some(KernelTypes::DoubleList(None)) | Some(KernelTypes::BoolList(None)) => {
                c.add(rules::VALUE_LIST, format!("{vpath}.val.items"), None, "items are absent")
            }
            Some(KernelTypes::TensorList(items)) | Some(KernelTypes::OptionalTensorList(items)) => {
                let optional = matches!(v.val, Some(KernelTypes::OptionalTensorList(_)));
                let Some(items) = items else {
                    c.add(rules::VALUE_TENSOR_LIST, format!("{vpath}.val.items"), None, "items are absent");
                    continue;
                };
                for (k, &x) in items.iter().enumerate() {
                    if optional && x == -1 {
                        continue;
                    }
                    let ok = usize::try_from(x).ok().filter(|&i| i < j).and_then(|i| values.get(i)).is_some_and(|t| {
                        matches!(t.val, Some(KernelTypes::Tensor(_)))
                            || (optional && matches!(t.val, Some(KernelTypes::Null)))
                    });
                    if !ok {
                        c.add(
                            rules::VALUE_TENSOR_LIST,
                            format!("{vpath}.val.items[{k}]"),
                            None,
                            format!("item {x} is not an earlier tensor value"),
                        );
                    }
                }
            }
            Some(_) => {}
        }
    }
    check_chains(c, plan, path, n);
    check_delegates(c, p, plan, path);
}

pub(super) fn check_chains(c: &mut Checker<'_>, plan: &ExecutionPlan, path: &str, n: usize) {
    let chains = match &plan.chains {
        Some(ch) if !ch.is_empty() => ch,
        _ => {
            c.add(rules::PLAN_CHAINS, format!("{path}.chains"), None, "no chains");
            return;
        }
    };
    let ops = plan.operators.as_deref();
    let ndel = plan.delegates.as_ref().map_or(0, Vec::len);
    for (ci, chain) in chains.iter().enumerate() {
        let cpath = At(&path, "chains", ci);
        let Some(instrs) = &chain.instructions else {
            c.add(rules::PLAN_CHAINS, format!("{cpath}.instructions"), None, "instructions are absent");
            continue;
        };
        for (ii, ins) in instrs.iter().enumerate() {
            let ipath = At(&cpath, "instructions", ii);
            let idx = |c: &mut Checker<'_>, field: &str, v: i32| {
                if !in_range(i64::from(v), n) {
                    c.add(
                        rules::INSTRUCTION_ARGS,
                        format!("{ipath}.instr_args.{field}"),
                        None,
                        format!("value index {v} of {n}"),
                    );
                }
            };
            match &ins.instr_args {
                None => c.add(rules::PLAN_CHAINS, format!("{ipath}.instr_args"), None, "instruction has no arguments"),
                Some(InstructionArguments::KernelCall { op_index, args }) => {
                    match args {
                        None => {
                            c.add(rules::INSTRUCTION_ARGS, format!("{ipath}.instr_args.args"), None, "args are absent")
                        }
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    match ops.and_then(|o| usize::try_from(*op_index).ok().and_then(|i| o.get(i))) {
                        None => c.add(
                            rules::INSTRUCTION_OPERATOR,
                            format!("{ipath}.instr_args.op_index"),
                            None,
                            format!("operator {op_index} does not exist"),
                        ),
                        Some(op) => match &op.name {
                            None => c.add(
                                rules::INSTRUCTION_OPERATOR,
                                format!("{path}.operators[{op_index}].name"),
                                None,
                                "operator has no name",
                            ),
                            Some(name) => {
                                let ov = op.overload.as_deref().unwrap_or("");
                                let full = if ov.is_empty() {
                                    name.len()
                                } else {
                                    name.len().saturating_add(1).saturating_add(ov.len())
                                };
                                if full >= 100 {
                                    c.add(
                                        rules::INSTRUCTION_OPERATOR,
                                        format!("{path}.operators[{op_index}]"),
                                        None,
                                        format!("lookup name is {full} bytes; the runtime allows fewer than 100"),
                                    );
                                }
                            }
                        },
                    }
                }
                Some(InstructionArguments::DelegateCall { delegate_index, args }) => {
                    match args {
                        None => {
                            c.add(rules::INSTRUCTION_ARGS, format!("{ipath}.instr_args.args"), None, "args are absent")
                        }
                        Some(a) => a.iter().enumerate().for_each(|(k, &v)| idx(c, &format!("args[{k}]"), v)),
                    }
                    if !in_range(i64::from(*delegate_index), ndel) {
                        c.add(
                            rules::INSTRUCTION_DELEGATE,
                            format!("{ipath}.instr_args.delegate_index"),
                            None,
                            format!("delegate {delegate_index} of {ndel}"),
                        );
                    }
                }
                Some(InstructionArguments::MoveCall { move_from, move_to }) => {
                    idx(c, "move_from", *move_from);
                    idx(c, "move_to", *move_to);
                }
                Some(InstructionArguments::JumpFalseCall { cond_value_index, .. }) => {
                    idx(c, "cond_value_index", *cond_value_index)
                }
                Some(InstructionArguments::FreeCall { value_index }) => idx(c, "value_index", *value_index),
            }
        }
    }
}

pub(super) fn check_delegates(c: &mut Checker<'_>, p: &Program<'_>, plan: &ExecutionPlan, path: &str) {
    if plan.delegates.is_none() {
        c.add(rules::PLAN_FIELDS, format!("{path}.delegates"), None, "delegates is absent");
    }
    let inline = p.backend_delegate_data.as_deref();
    let nseg = p.segment_table().len();
    for (d, del) in plan.delegates.iter().flatten().enumerate() {
        let dpath = At(&path, "delegates", d);
        if del.id.is_none() {
            c.add(rules::DELEGATE_FIELDS, format!("{dpath}.id"), None, "delegate has no id");
        }
        for (k, cs) in del.compile_specs.iter().flatten().enumerate() {
            if cs.key.is_none() || cs.value.is_none() {
                c.add(
                    rules::DELEGATE_FIELDS,
                    format!("{dpath}.compile_specs[{k}]"),
                    None,
                    "compile spec lacks key or value",
                );
            }
        }
        let Some(r) = del.processed else {
            c.add(rules::DELEGATE_FIELDS, format!("{dpath}.processed"), None, "delegate has no processed reference");
            continue;
        };
        match r.location {
            DataLocation::INLINE => match inline.and_then(|b| usize::try_from(r.index).ok().and_then(|i| b.get(i))) {
                None => c.add(
                    rules::DELEGATE_DATA,
                    format!("{dpath}.processed.index"),
                    None,
                    format!("inline blob {} of {}", r.index, inline.map_or(0, <[_]>::len)),
                ),
                Some(b) if b.data.is_none() => c.add(
                    rules::DELEGATE_DATA,
                    format!("backend_delegate_data[{}].data", r.index),
                    None,
                    "inline blob has no data",
                ),
                Some(_) => {}
            },
            DataLocation::SEGMENT => {
                if !in_range(i64::from(r.index), nseg) {
                    c.add(
                        rules::SEGMENT_INDEX,
                        format!("{dpath}.processed.index"),
                        None,
                        format!("segment {} of {nseg}", r.index),
                    );
                }
            }
            other => c.add(
                rules::DELEGATE_DATA,
                format!("{dpath}.processed.location"),
                None,
                format!("unknown location {}", other.0),
            ),
        }
    }
}
