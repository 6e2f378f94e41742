//! One method against another, read in place: what `diff_pte.py` reports
//! (operators, delegates, buffer sizes, counts, every differing value with
//! where it is used), then everything else in the method structurally.
//!
//! A method of a million values is never decoded whole: values are decoded
//! one pair at a time, instructions compared one pair at a time, and only
//! what differs is made into JSON.

use std::collections::BTreeMap;

use pte_schema::{
    program_to_json, Chain, ChainView, EValue, ExecutionPlan, Instruction, InstructionArguments, InstructionRef,
    JsonBytes, KernelTypes, List, PlanView, Program, Result, Tensor,
};
use serde_json::{json, Value};

use crate::jsondiff::{self, Found};
use crate::{side, Category, Difference};

fn prog(out: &mut Vec<Difference>, path: String, msg: String) {
    out.push(Difference::new(Category::Program, path, msg));
}

/// Value `j` of `p`, decoded alone (`which` names the file in an error).
pub(crate) fn value(p: &PlanView<'_>, j: usize, which: &'static str) -> Result<EValue> {
    p.value(j).transpose().map_err(side(which)).map(Option::unwrap_or_default)
}

fn op_name(p: &ExecutionPlan, i: i32) -> String {
    let op = usize::try_from(i).ok().and_then(|i| p.operators.as_ref()?.get(i));
    match op {
        Some(op) => match op.overload.as_deref() {
            Some(o) if !o.is_empty() => format!("{}.{o}", op.name.as_deref().unwrap_or("")),
            _ => op.name.clone().unwrap_or_default(),
        },
        None => format!("operator {i}"),
    }
}

/// Multiset difference: entries of `a` not matched in `b`.
fn only_in(a: &[String], b: &[String]) -> Vec<String> {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for x in b {
        *count.entry(x).or_default() = count.get(x.as_str()).copied().unwrap_or(0).saturating_add(1);
    }
    let mut out = vec![];
    for x in a {
        let c = count.entry(x).or_default();
        if *c > 0 {
            *c = c.saturating_sub(1);
        } else {
            out.push(x.clone());
        }
    }
    out.sort();
    out
}

/// Where each value is used, by value index.
type Usages = BTreeMap<i32, Vec<String>>;

/// Where each value is used: `arg N of OP` for kernel and delegate calls.
fn usages(p: &PlanView<'_>, outline: &ExecutionPlan) -> Usages {
    let mut m: Usages = BTreeMap::new();
    for c in p.chains().into_iter().flatten() {
        for ins in c.instructions().into_iter().flatten() {
            let (name, args) = match ins {
                InstructionRef::KernelCall { op_index, args } => (op_name(outline, op_index), args),
                InstructionRef::DelegateCall { delegate_index, args } => {
                    let d = usize::try_from(delegate_index).ok().and_then(|i| outline.delegates.as_ref()?.get(i));
                    (format!("delegate:{}", d.and_then(|d| d.id.as_deref()).unwrap_or("?")), args)
                }
                _ => continue,
            };
            for (k, v) in args.iter().flat_map(List::iter).enumerate() {
                m.entry(v).or_default().push(format!("arg {k} of {name}"));
            }
        }
    }
    m
}

fn tensor_fields(t: &Tensor) -> Value {
    json!({
        "scalar_type": t.scalar_type.to_string(),
        "storage_offset": t.storage_offset,
        "sizes": t.sizes,
        "dim_order": t.dim_order,
        "requires_grad": t.requires_grad,
        "layout": t.layout,
        "data_buffer_idx": t.data_buffer_idx,
        "allocation_info": t.allocation_info.map(|a| json!([a.memory_id, a.offset()])),
        "shape_dynamism": t.shape_dynamism.to_string(),
        "extra_tensor_info": t.extra_tensor_info.as_ref().map(|e| json!({
            "mutable_data_segments_idx": e.mutable_data_segments_idx,
            "fully_qualified_name": e.fully_qualified_name,
            "location": e.location.to_string(),
        })),
    })
}

/// The JSON `program_to_json` gives the part of a one-method program at `pointer`.
fn json_of(plan: ExecutionPlan, pointer: &str) -> Value {
    let p = Program { execution_plan: Some(vec![plan]), ..Program::default() };
    program_to_json(&p, JsonBytes::Integers).pointer(pointer).cloned().unwrap_or(Value::Null)
}

fn one_value(v: &EValue) -> Value {
    json_of(
        ExecutionPlan { values: Some(vec![v.clone()]), ..ExecutionPlan::default() },
        "/execution_plan/0/values/0/val",
    )
}

fn one_chain(c: &Chain) -> Value {
    json_of(ExecutionPlan { chains: Some(vec![c.clone()]), ..ExecutionPlan::default() }, "/execution_plan/0/chains/0")
}

fn one_instruction(i: &Instruction) -> Value {
    let chain = Chain { instructions: Some(vec![i.clone()]), ..Chain::default() };
    json_of(
        ExecutionPlan { chains: Some(vec![chain]), ..ExecutionPlan::default() },
        "/execution_plan/0/chains/0/instructions/0",
    )
}

/// An instruction read in place, as the decoded model holds it.
fn instruction(i: InstructionRef<'_>) -> Instruction {
    let list = |l: Option<List<'_, i32>>| l.map(|l| l.iter().collect());
    let instr_args = match i {
        InstructionRef::None | InstructionRef::Unknown(_) => None,
        InstructionRef::KernelCall { op_index, args } => {
            Some(InstructionArguments::KernelCall { op_index, args: list(args) })
        }
        InstructionRef::DelegateCall { delegate_index, args } => {
            Some(InstructionArguments::DelegateCall { delegate_index, args: list(args) })
        }
        InstructionRef::MoveCall { move_from, move_to } => Some(InstructionArguments::MoveCall { move_from, move_to }),
        InstructionRef::JumpFalseCall { cond_value_index, destination_instruction } => {
            Some(InstructionArguments::JumpFalseCall { cond_value_index, destination_instruction })
        }
        InstructionRef::FreeCall { value_index } => Some(InstructionArguments::FreeCall { value_index }),
    };
    Instruction { instr_args }
}

fn instructions<'a>(c: Option<ChainView<'a>>) -> Option<impl ExactSizeIterator<Item = Instruction> + 'a> {
    c?.instructions().map(|i| i.map(instruction))
}

/// An optional list as users read it: `[448, 64]`, or `none`.
fn shown_list(list: Option<&[i64]>) -> String {
    list.map_or_else(|| "none".into(), |l| format!("{l:?}"))
}

/// Compares method `a` with method `b`, which have one name (methods pair
/// by name); `path` names the method.
pub(crate) fn plan(a: &PlanView<'_>, b: &PlanView<'_>, path: &str, out: &mut Vec<Difference>) -> Result<()> {
    let oa = a.outline().map_err(side("A"))?;
    let ob = b.outline().map_err(side("B"))?;
    let ops = |p: &ExecutionPlan| -> Vec<String> {
        (0..p.operators.as_ref().map_or(0, Vec::len))
            .map(|i| op_name(p, i32::try_from(i).unwrap_or(i32::MAX)))
            .collect()
    };
    let (opa, opb) = (ops(&oa), ops(&ob));
    for (side, list) in [("A", only_in(&opa, &opb)), ("B", only_in(&opb, &opa))] {
        if !list.is_empty() {
            prog(out, format!("{path}.operators"), format!("only in {side}: {}", list.join(", ")));
        }
    }
    let dels = |p: &ExecutionPlan| -> Vec<String> {
        p.delegates.iter().flatten().map(|d| d.id.clone().unwrap_or_default()).collect()
    };
    let (da, db) = (dels(&oa), dels(&ob));
    for (side, list) in [("A", only_in(&da, &db)), ("B", only_in(&db, &da))] {
        if !list.is_empty() {
            prog(out, format!("{path}.delegates"), format!("only in {side}: {}", list.join(", ")));
        }
    }
    if oa.non_const_buffer_sizes != ob.non_const_buffer_sizes {
        prog(
            out,
            format!("{path}.non_const_buffer_sizes"),
            format!(
                "{} vs {}",
                shown_list(oa.non_const_buffer_sizes.as_deref()),
                shown_list(ob.non_const_buffer_sizes.as_deref())
            ),
        );
    }
    let (na, nb) = (a.value_count(), b.value_count());
    if na != nb {
        prog(out, format!("{path}.values"), format!("value count {na} vs {nb}"));
    }
    let count = |p: &PlanView<'_>| p.chains().into_iter().flatten().map(|c| c.instruction_count()).sum::<usize>();
    if count(a) != count(b) {
        prog(out, format!("{path}.chains"), format!("instruction count {} vs {}", count(a), count(b)));
    }
    values(a, b, &oa, &ob, path, out)?;
    rest(a, b, oa, ob, path, out)
}

/// The values pair by pair, then those only one method has.
fn values(
    a: &PlanView<'_>,
    b: &PlanView<'_>,
    oa: &ExecutionPlan,
    ob: &ExecutionPlan,
    path: &str,
    out: &mut Vec<Difference>,
) -> Result<()> {
    // where values are used is told for differing values only: built when the first one is met
    let mut uses: Option<(Usages, Usages)> = None;
    let (na, nb) = (a.value_count(), b.value_count());
    for i in 0..na.min(nb) {
        let (x, y) = (value(a, i, "A")?, value(b, i, "B")?);
        if x == y {
            continue;
        }
        let p = format!("{path}.values[{i}]");
        let (ua, ub) = uses.get_or_insert_with(|| (usages(a, oa), usages(b, ob)));
        let used = ua.get(&i32::try_from(i).unwrap_or(-1)).or_else(|| ub.get(&i32::try_from(i).unwrap_or(-1)));
        let used = used.map(|u| format!(" (used as {})", u.join(", "))).unwrap_or_default();
        match (&x.val, &y.val) {
            (Some(KernelTypes::Tensor(ta)), Some(KernelTypes::Tensor(tb))) => {
                let mut found = vec![];
                jsondiff::diff(Category::Program, &p, &tensor_fields(ta), &tensor_fields(tb), &mut found);
                for mut d in found {
                    d.message = format!("tensor {}{used}", d.message);
                    out.push(d);
                }
            }
            (xa, xb) => {
                let name = |k: &Option<KernelTypes>| k.as_ref().map_or("none", KernelTypes::type_name);
                if name(xa) != name(xb) {
                    prog(out, p, format!("type {} vs {}{used}", name(xa), name(xb)));
                } else {
                    let mut found = vec![];
                    jsondiff::diff(Category::Program, &p, &one_value(&x), &one_value(&y), &mut found);
                    for mut d in found {
                        d.message = format!("{} {}{used}", name(xa), d.message);
                        out.push(d);
                    }
                }
            }
        }
    }
    let start = na.min(nb);
    for (side, (p, n), first) in [("A", (a, na), true), ("B", (b, nb), false)] {
        for i in start..n {
            let v = value(p, i, side)?;
            if let Some(KernelTypes::Tensor(t)) = &v.val {
                let (ua, ub) = uses.get_or_insert_with(|| (usages(a, oa), usages(b, ob)));
                let u = if first { &*ua } else { &*ub };
                let used = u
                    .get(&i32::try_from(i).unwrap_or(-1))
                    .map(|u| format!(" (used as {})", u.join(", ")))
                    .unwrap_or_default();
                prog(
                    out,
                    format!("{path}.values[{i}]"),
                    format!("tensor only in {side}: {} {:?}{used}", t.scalar_type, t.sizes.as_deref().unwrap_or(&[])),
                );
            }
        }
    }
    Ok(())
}

/// Everything else in the method, structurally, as one JSON diff of the
/// method without its name, values and buffer sizes (compared above) and
/// without where its delegates' blobs are (layout, compared with the blobs).
/// The chains come first (the first key in order); their instructions are
/// compared one pair at a time.
fn rest(
    a: &PlanView<'_>,
    b: &PlanView<'_>,
    oa: ExecutionPlan,
    ob: ExecutionPlan,
    path: &str,
    out: &mut Vec<Difference>,
) -> Result<()> {
    let mut found = Found::default();
    let chains = format!("{path}.chains");
    match (&oa.chains, &ob.chains) {
        (Some(ca), Some(cb)) if ca.len() == cb.len() => {
            for (j, (x, y)) in ca.iter().zip(cb).enumerate() {
                let p = format!("{chains}[{j}]");
                let (jx, jy) = (one_chain(x), one_chain(y));
                let (Value::Object(mx), Value::Object(my)) = (&jx, &jy) else { continue };
                // the keys of a chain in order, `instructions` read in place
                for (k, vx) in mx {
                    if k == "instructions" {
                        found.walk_list(
                            &format!("{p}.instructions"),
                            instructions(a.chain(j)),
                            instructions(b.chain(j)),
                            one_instruction,
                        );
                    } else {
                        found.walk(&format!("{p}.{k}"), vx, my.get(k).unwrap_or(&Value::Null));
                    }
                }
            }
        }
        (Some(ca), Some(cb)) => {
            found.walk(&chains, &Value::Array(vec![Value::Null; ca.len()]), &Value::Array(vec![Value::Null; cb.len()]))
        }
        (None, None) => {}
        // one method has no chains: the other's are shown whole (cut short)
        _ => {
            let whole = |p: &PlanView<'_>, which| -> Result<Value> {
                let chains = p.to_model().map_err(side(which))?.chains;
                Ok(json_of(ExecutionPlan { chains, ..ExecutionPlan::default() }, "/execution_plan/0/chains"))
            };
            found.walk(&chains, &whole(a, "A")?, &whole(b, "B")?);
        }
    }
    let others = |mut q: ExecutionPlan| {
        q.name = None;
        q.chains = None;
        q.non_const_buffer_sizes = None;
        for d in q.delegates.iter_mut().flatten() {
            d.processed = None;
        }
        json_of(q, "/execution_plan/0")
    };
    found.walk(path, &others(oa), &others(ob));
    found.report(Category::Program, path, out);
    Ok(())
}
