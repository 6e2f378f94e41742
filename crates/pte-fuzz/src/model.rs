//! Edits of the decoded program: one field set to a value at an edge, the
//! file written again by our writer, so the flatbuffer stays well formed and
//! only the meaning is wrong (what a loader's deeper checks must catch).

use std::borrow::Cow;

use pte_file::bpte::BundledFile;
use pte_file::{PteFile, WriteOptions};
use pte_gen::Rng;
use pte_schema::{
    AllocationDetails, DataLocation, EValue, ExecutionPlan, ExtraTensorInfo, Instruction, InstructionArguments,
    KernelTypes, Operator, ScalarType, Tensor, TensorDataLocation, TensorShapeDynamism,
};

/// An index near the edges of a list of `len`: first, last, one past the
/// end, negative, huge, or any.
fn index(rng: &mut Rng, len: usize) -> i32 {
    let len = i32::try_from(len).unwrap_or(i32::MAX);
    match rng.below(8) {
        0 => 0,
        1 => len.saturating_sub(1),
        2 => len,
        3 => len.saturating_add(1),
        4 => -1,
        5 => i32::MAX,
        6 => i32::MIN,
        _ => i32::try_from(rng.below(usize::try_from(len.max(1)).unwrap_or(1))).unwrap_or(0),
    }
}

fn i64_edge(rng: &mut Rng) -> i64 {
    [0, 1, -1, 16, 4096, i64::from(i32::MAX), 1 << 32, i64::MAX, i64::MIN, -4096]
        .get(rng.below(10))
        .copied()
        .unwrap_or(0)
}

fn i32_edge(rng: &mut Rng) -> i32 {
    [0, 1, -1, 2, 3, 1 << 16, i32::MAX, i32::MIN, 0x4000_0000].get(rng.below(9)).copied().unwrap_or(0)
}

fn u64_edge(rng: &mut Rng) -> u64 {
    crate::bytes::WIDE.get(rng.below(crate::bytes::WIDE.len())).copied().unwrap_or(0)
}

/// One field of a decoded program changed; `None` when the input does not
/// read or the writer refuses the result.
pub(crate) fn field(data: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut pte = PteFile::from_bytes(data).ok()?;
    edit_program(&mut pte, rng)?;
    pte.to_bytes(&WriteOptions::default()).ok()
}

fn edit_program(pte: &mut PteFile<'_>, rng: &mut Rng) -> Option<()> {
    let program = &mut pte.program;
    let plans = program.execution_plan.get_or_insert_with(Vec::new);
    let n_plans = plans.len();
    match rng.below(20) {
        0 => {
            // A method twice, or one fewer.
            if rng.below(2) == 0 && n_plans > 0 {
                plans.remove(rng.below(n_plans));
            } else {
                let copy = plans.get(rng.below(n_plans))?.clone();
                plans.push(copy);
            }
            Some(())
        }
        1 => {
            let cs = program.constant_segment.as_mut()?;
            if rng.below(2) == 0 {
                cs.segment_index =
                    u32::try_from(index(rng, program.segments.as_ref().map_or(0, Vec::len))).unwrap_or(u32::MAX);
            } else {
                let offs = cs.offsets.get_or_insert_with(Vec::new);
                let i = rng.below(offs.len().saturating_add(1));
                match offs.get_mut(i) {
                    Some(o) => *o = if rng.below(2) == 0 { u64_edge(rng) } else { o.wrapping_add(16) },
                    None => offs.push(u64_edge(rng)),
                }
            }
            Some(())
        }
        2 => {
            let named = program.named_data.as_mut()?;
            let n = named.len();
            let entry = named.get_mut(rng.below(n))?;
            if rng.below(3) == 0 {
                entry.key = Some(String::new());
            } else {
                entry.segment_index = u32::try_from(index(rng, n)).unwrap_or(u32::MAX);
            }
            Some(())
        }
        3 => {
            let mds = program.mutable_data_segments.as_mut()?;
            let n = mds.len();
            let m = mds.get_mut(rng.below(n))?;
            let offs = m.offsets.get_or_insert_with(Vec::new);
            let k = offs.len();
            match offs.get_mut(rng.below(k)) {
                Some(o) if rng.below(2) == 0 => *o = u64_edge(rng),
                _ => m.segment_index = m.segment_index.wrapping_add(1),
            }
            Some(())
        }
        _ => {
            let i = rng.below(n_plans);
            edit_plan(plans.get_mut(i)?, rng)
        }
    }
}

fn edit_plan(plan: &mut ExecutionPlan, rng: &mut Rng) -> Option<()> {
    let n_values = plan.values.as_ref().map_or(0, Vec::len);
    match rng.below(16) {
        0..=4 => {
            // A tensor, most often: dtype, shape, placement.
            let values = plan.values.as_mut()?;
            let tensors: Vec<usize> = values
                .iter()
                .enumerate()
                .filter(|(_, v)| matches!(v.val, Some(KernelTypes::Tensor(_))))
                .map(|(i, _)| i)
                .collect();
            let at = *tensors.get(rng.below(tensors.len()))?;
            match values.get_mut(at)?.val.as_mut()? {
                KernelTypes::Tensor(t) => edit_tensor(t, n_values, rng),
                _ => None,
            }
        }
        5 | 6 => {
            let values = plan.values.get_or_insert_with(Vec::new);
            let at = rng.below(values.len());
            let v = values.get_mut(at)?;
            edit_value(v, n_values, rng);
            Some(())
        }
        7..=9 => {
            let n_ops = plan.operators.as_ref().map_or(0, Vec::len);
            let n_delegates = plan.delegates.as_ref().map_or(0, Vec::len);
            let chains = plan.chains.as_mut()?;
            let nc = chains.len();
            let chain = chains.get_mut(rng.below(nc))?;
            let instrs = chain.instructions.get_or_insert_with(Vec::new);
            let ni = instrs.len();
            if rng.below(4) == 0 {
                // Reorder, drop or repeat an instruction.
                match rng.below(3) {
                    0 if ni > 0 => {
                        instrs.remove(rng.below(ni));
                    }
                    1 if ni > 1 => instrs.swap(rng.below(ni), rng.below(ni)),
                    _ => {
                        let copy = instrs.get(rng.below(ni)).cloned().unwrap_or(Instruction {
                            instr_args: Some(InstructionArguments::FreeCall { value_index: 0 }),
                        });
                        instrs.insert(rng.below(ni.saturating_add(1)).min(ni), copy);
                    }
                }
                return Some(());
            }
            let instr = instrs.get_mut(rng.below(ni))?;
            edit_instruction(instr, n_values, n_ops, n_delegates, ni, rng);
            Some(())
        }
        10 => {
            edit_io(&mut plan.inputs, &mut plan.outputs, n_values, rng);
            Some(())
        }
        11 => {
            let ops = plan.operators.get_or_insert_with(Vec::new);
            let n = ops.len();
            const NAMES: [(&str, &str); 6] = [
                ("aten::add", "out"),
                ("aten::mul", "Scalar_out"),
                ("aten::nonexistent", "out"),
                ("", ""),
                ("aten::add", ""),
                ("quantized_decomposed::quantize_per_tensor", "out"),
            ];
            let (name, overload) = NAMES.get(rng.below(NAMES.len())).copied()?;
            let op = Operator { name: Some(name.into()), overload: (rng.below(4) != 0).then(|| overload.into()) };
            match ops.get_mut(rng.below(n)) {
                Some(o) if rng.below(3) != 0 => *o = op,
                _ => ops.push(op),
            }
            Some(())
        }
        12 => {
            let sizes = plan.non_const_buffer_sizes.get_or_insert_with(Vec::new);
            let n = sizes.len();
            match rng.below(3) {
                0 => sizes.push(i64_edge(rng)),
                1 if n > 1 => {
                    sizes.pop();
                }
                _ => *sizes.get_mut(rng.below(n))? = i64_edge(rng),
            }
            Some(())
        }
        13 => {
            let ds = plan.delegates.as_mut()?;
            let n = ds.len();
            let d = ds.get_mut(rng.below(n))?;
            match rng.below(4) {
                0 => {
                    d.id = Some(["XnnpackBackend", "", "NoSuchBackend", "NativeBackend"].get(rng.below(4))?.to_string())
                }
                1 => d.compile_specs = None,
                _ => {
                    let r = d.processed.as_mut()?;
                    if rng.below(3) == 0 {
                        r.location = if r.location == DataLocation::INLINE {
                            DataLocation::SEGMENT
                        } else {
                            DataLocation::INLINE
                        };
                    } else {
                        r.index = r.index.wrapping_add(1).wrapping_mul(u32::from(rng.below(2) == 0));
                        if rng.below(3) == 0 {
                            r.index = u32::MAX;
                        }
                    }
                }
            }
            Some(())
        }
        14 => {
            let chains = plan.chains.as_mut()?;
            let nc = chains.len();
            let chain = chains.get_mut(rng.below(nc))?;
            edit_io(&mut chain.inputs, &mut chain.outputs, n_values, rng);
            Some(())
        }
        _ => {
            // A value dropped or repeated: every later index shifts.
            let values = plan.values.get_or_insert_with(Vec::new);
            let n = values.len();
            if rng.below(2) == 0 && n > 0 {
                values.remove(rng.below(n));
            } else {
                let v = values.get(rng.below(n)).cloned().unwrap_or(EValue { val: Some(KernelTypes::Null) });
                values.push(v);
            }
            Some(())
        }
    }
}

/// One list of an inputs and outputs pair, `rng`'s pick, edited as
/// [`edit_index_list`] edits it (a list not there yet starts empty).
fn edit_io(inputs: &mut Option<Vec<i32>>, outputs: &mut Option<Vec<i32>>, n_values: usize, rng: &mut Rng) {
    let list = if rng.below(2) == 0 { inputs } else { outputs };
    edit_index_list(list.get_or_insert_with(Vec::new), n_values, rng);
}

fn edit_index_list(list: &mut Vec<i32>, n_values: usize, rng: &mut Rng) {
    let n = list.len();
    match (rng.below(3), list.get_mut(rng.below(n))) {
        (0, _) => list.push(index(rng, n_values)),
        (1, _) if n > 0 => {
            list.pop();
        }
        (_, Some(x)) => *x = index(rng, n_values),
        (_, None) => list.push(index(rng, n_values)),
    }
}

fn edit_tensor(t: &mut Tensor, n_values: usize, rng: &mut Rng) -> Option<()> {
    match rng.below(12) {
        0 => t.scalar_type = ScalarType([0i8, 1, 5, 6, 11, 15, 22, 27, 29, 30, -1, 127].get(rng.below(12)).copied()?),
        1 | 2 => {
            let sizes = t.sizes.get_or_insert_with(Vec::new);
            let n = sizes.len();
            match sizes.get_mut(rng.below(n)) {
                Some(s) if rng.below(3) != 0 => *s = i32_edge(rng),
                _ => sizes.push(i32_edge(rng).clamp(0, 4)),
            }
        }
        3 => {
            let sizes = t.sizes.get_or_insert_with(Vec::new);
            if rng.below(2) == 0 {
                sizes.pop();
            } else {
                sizes.extend(std::iter::repeat_n(1, 17usize.saturating_sub(sizes.len()).max(1)));
            }
        }
        4 => {
            let order = t.dim_order.get_or_insert_with(Vec::new);
            let n = order.len();
            match order.get_mut(rng.below(n)) {
                Some(d) if rng.below(2) == 0 => *d = [0u8, 1, 15, 16, 255].get(rng.below(5)).copied()?,
                _ if rng.below(2) == 0 => order.reverse(),
                _ => {
                    order.pop();
                }
            }
        }
        5 => t.data_buffer_idx = u32::try_from(index(rng, n_values)).unwrap_or(u32::MAX),
        6 | 7 => {
            let a = t.allocation_info.get_or_insert(AllocationDetails { memory_id: 1, ..Default::default() });
            match rng.below(3) {
                0 => a.memory_id = [0u32, 1, 2, 7, u32::MAX].get(rng.below(5)).copied()?,
                1 => a.memory_offset_low = crate::bytes::WORDS.get(rng.below(crate::bytes::WORDS.len())).copied()?,
                _ => a.memory_offset_high = [0u32, 1, u32::MAX].get(rng.below(3)).copied()?,
            }
            if rng.below(5) == 0 {
                t.allocation_info = None;
            }
        }
        8 => t.shape_dynamism = TensorShapeDynamism([0i8, 1, 2, 3, -1].get(rng.below(5)).copied()?),
        9 => {
            let e = t.extra_tensor_info.get_or_insert_with(ExtraTensorInfo::default);
            match rng.below(3) {
                0 => {
                    e.location = if e.location == TensorDataLocation::SEGMENT {
                        TensorDataLocation::EXTERNAL
                    } else {
                        TensorDataLocation::SEGMENT
                    };
                    if e.fully_qualified_name.is_none() {
                        e.fully_qualified_name = Some("weight".into());
                    }
                }
                1 => e.mutable_data_segments_idx = u64_edge(rng),
                _ => {
                    e.fully_qualified_name =
                        [None, Some(String::new()), Some("missing.key".to_string())].get(rng.below(3))?.clone()
                }
            }
        }
        10 => t.storage_offset = i32_edge(rng),
        _ => t.extra_tensor_info = None,
    }
    Some(())
}

fn edit_value(v: &mut EValue, n_values: usize, rng: &mut Rng) {
    let new = match (rng.below(10), v.val.take()) {
        (0, _) => None,
        (1, Some(KernelTypes::IntList(Some(mut l)))) => {
            let at = rng.below(l.len());
            match l.get_mut(at) {
                Some(x) => *x = i64::from(index(rng, n_values)),
                None => l.push(i64::from(index(rng, n_values))),
            }
            Some(KernelTypes::IntList(Some(l)))
        }
        (1..=3, Some(KernelTypes::TensorList(Some(mut l)))) => {
            edit_index_list(&mut l, n_values, rng);
            Some(KernelTypes::TensorList(Some(l)))
        }
        (1..=3, Some(KernelTypes::OptionalTensorList(Some(mut l)))) => {
            edit_index_list(&mut l, n_values, rng);
            Some(KernelTypes::OptionalTensorList(Some(l)))
        }
        (1..=3, Some(KernelTypes::Int(i))) => {
            Some(KernelTypes::Int(if rng.below(2) == 0 { i64_edge(rng) } else { i.wrapping_add(1) }))
        }
        (4, _) => Some(KernelTypes::Null),
        (5, _) => Some(KernelTypes::Int(i64_edge(rng))),
        (6, _) => Some(KernelTypes::TensorList(Some((0..rng.below(4)).map(|_| index(rng, n_values)).collect()))),
        (7, _) => {
            Some(KernelTypes::IntList(Some((0..rng.below(4)).map(|_| i64::from(index(rng, n_values))).collect())))
        }
        (8, _) => Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType(6),
            sizes: Some(vec![i32_edge(rng)]),
            dim_order: Some(vec![0]),
            ..Default::default()
        })),
        (_, old) => Some(match old {
            Some(KernelTypes::Bool(b)) => KernelTypes::Bool(!b),
            Some(KernelTypes::String(_)) => KernelTypes::String(None),
            _ => KernelTypes::OptionalTensorList(Some(vec![-1, index(rng, n_values)])),
        }),
    };
    v.val = new;
}

fn edit_instruction(
    instr: &mut Instruction,
    n_values: usize,
    n_ops: usize,
    n_delegates: usize,
    n_instrs: usize,
    rng: &mut Rng,
) {
    use InstructionArguments as I;
    let Some(args) = instr.instr_args.as_mut() else {
        instr.instr_args = Some(I::MoveCall { move_from: index(rng, n_values), move_to: index(rng, n_values) });
        return;
    };
    let n = if matches!(args, I::KernelCall { .. }) { n_ops } else { n_delegates };
    match args {
        I::KernelCall { op_index, args } | I::DelegateCall { delegate_index: op_index, args } => {
            if rng.below(3) == 0 {
                *op_index = index(rng, n);
            } else {
                edit_index_list(args.get_or_insert_with(Vec::new), n_values, rng);
            }
        }
        I::MoveCall { move_from, move_to } => {
            if rng.below(2) == 0 {
                *move_from = index(rng, n_values);
            } else {
                *move_to = index(rng, n_values);
            }
        }
        I::JumpFalseCall { cond_value_index, destination_instruction } => {
            if rng.below(2) == 0 {
                *cond_value_index = index(rng, n_values);
            } else {
                *destination_instruction = index(rng, n_instrs);
            }
        }
        I::FreeCall { value_index } => *value_index = index(rng, n_values),
    }
    if rng.below(6) == 0 {
        // Another instruction kind over the same operands.
        instr.instr_args = Some(match rng.below(4) {
            0 => I::FreeCall { value_index: index(rng, n_values) },
            1 => I::JumpFalseCall {
                cond_value_index: index(rng, n_values),
                destination_instruction: index(rng, n_instrs),
            },
            2 => I::DelegateCall { delegate_index: index(rng, n_delegates), args: Some(vec![index(rng, n_values)]) },
            _ => I::KernelCall { op_index: index(rng, n_ops), args: Some(vec![index(rng, n_values)]) },
        });
    }
}

/// A segment changed: the table entry (offset, size), the bytes (cut,
/// grown, swapped with another), or an `eh00` header value.
pub(crate) fn segments(data: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    if rng.below(3) == 0 {
        return crate::flatbuf::header(data, rng);
    }
    let mut pte = PteFile::from_bytes(data).ok()?;
    let n = pte.segments.len();
    if n == 0 {
        return None;
    }
    let i = rng.below(n);
    match rng.below(5) {
        0 => {
            // Patched in place: the writer would honour a huge offset by
            // padding the file up to it.
            let at = crate::flatbuf::segment_entry(data, i)?.checked_add(if rng.below(2) == 0 { 0 } else { 8 })?;
            let mut b = data.to_vec();
            let old =
                b.get(at..at.checked_add(8)?).and_then(|w| <[u8; 8]>::try_from(w).ok()).map(u64::from_le_bytes)?;
            let new = match rng.below(3) {
                0 => u64_edge(rng),
                1 => old.wrapping_add(1),
                _ => old.wrapping_sub(16),
            };
            crate::bytes::put(&mut b, at, &new.to_le_bytes());
            return Some(b);
        }
        1 => {
            let s = pte.segments.get_mut(i)?;
            let keep = rng.below(s.len());
            s.to_mut().truncate(keep);
        }
        2 => {
            let s = pte.segments.get_mut(i)?;
            let grow = 1usize.saturating_add(rng.below(64));
            s.to_mut().extend(std::iter::repeat_n(0xA5, grow));
        }
        3 => {
            let j = rng.below(n);
            pte.segments.swap(i, j);
        }
        _ => {
            let s = pte.segments.get_mut(i)?;
            let m = s.to_mut();
            let at = rng.below(m.len());
            if let Some(x) = m.get_mut(at) {
                *x ^= 0xFF;
            }
        }
    }
    if let Some(table) = pte.program.segments.as_mut() {
        for (e, s) in table.iter_mut().zip(&pte.segments) {
            e.size = s.len() as u64;
        }
    }
    pte.to_bytes(&WriteOptions::default().with_layout(pte_file::SegmentLayout::Repack)).ok()
}

/// The program inside a bundled program mutated (any strategy), the bundle
/// written again around it.
pub(crate) fn bundled_program(data: &[u8], max_size: usize, rng: &mut Rng) -> Option<Vec<u8>> {
    let mut bundle = BundledFile::from_bytes(data).ok()?;
    let inner = crate::mutate(&bundle.program, max_size, rng.next_u64());
    bundle.program = Cow::Owned(inner);
    bundle.to_bytes().ok()
}
