//! One tensor: its type, shape and layout, where it is planned, and where
//! its constant or initial data lies.

use std::fmt;

use pte_schema::{Tensor, TensorDataLocation, TensorShapeDynamism};

use super::checker::Checker;
use super::rules;

/// Where a tensor's data may live: the constant and mutable regions of the
/// program, for the bounds rules.
pub(super) struct DataContext<'p> {
    pub(super) constant_offsets: &'p [u64],
    pub(super) constant_segment_size: Option<u64>,
    pub(super) constant_buffer: Option<Vec<u64>>,
    pub(super) mutable0: Option<(&'p [u64], Option<u64>)>,
    /// Whether the file has a segment base (an eh00 header with a non-zero
    /// segment_base_offset): the runtime loads no segment without one.
    pub(super) segment_base: bool,
}

pub(super) fn check_tensor(
    c: &mut Checker<'_>,
    t: &Tensor,
    buffer_sizes: &[i64],
    path: &dyn fmt::Display,
    ctx: &DataContext<'_>,
) {
    if t.storage_offset != 0 {
        c.add(
            rules::TENSOR_STORAGE_OFFSET,
            format!("{path}.storage_offset"),
            None,
            format!("storage_offset {} is not 0", t.storage_offset),
        );
    }
    if !t.scalar_type.is_runtime_valid() {
        c.add(
            rules::TENSOR_SCALAR_TYPE,
            format!("{path}.scalar_type"),
            None,
            format!("scalar type {} is not one the runtime accepts", t.scalar_type.0),
        );
    }
    if t.shape_dynamism == TensorShapeDynamism::DYNAMIC_UNBOUND {
        c.add(
            rules::TENSOR_DYNAMISM,
            format!("{path}.shape_dynamism"),
            None,
            "DYNAMIC_UNBOUND tensors are not supported",
        );
    }
    let rank = match &t.sizes {
        None => {
            c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, "sizes are absent");
            None
        }
        Some(s) => {
            if s.len() > 16 {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, format!("rank {} exceeds 16", s.len()));
            }
            if let Some(k) = s.iter().position(|&x| x < 0) {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes[{k}]"), None, "size is negative");
            } else if t.nbytes().is_none() && t.scalar_type.is_runtime_valid() {
                c.add(rules::TENSOR_SIZES, format!("{path}.sizes"), None, "numel × element size overflows");
            }
            Some(s.len())
        }
    };
    match (&t.dim_order, rank) {
        (None, _) => c.add(rules::TENSOR_DIM_ORDER, format!("{path}.dim_order"), None, "dim_order is absent"),
        (Some(d), Some(r)) => {
            let mut seen = vec![false; d.len()];
            let perm = d.len() == r
                && d.iter().all(|&x| seen.get_mut(usize::from(x)).is_some_and(|s| !std::mem::replace(s, true)));
            if !perm {
                c.add(
                    rules::TENSOR_DIM_ORDER,
                    format!("{path}.dim_order"),
                    None,
                    format!("{d:?} is not a permutation of 0..{r}"),
                );
            }
        }
        _ => {}
    }
    let external = t.is_external();
    if let Some(e) = &t.extra_tensor_info
        && e.location == TensorDataLocation::EXTERNAL
        && e.fully_qualified_name.is_none()
    {
        c.add(
            rules::TENSOR_EXTERNAL,
            format!("{path}.extra_tensor_info.fully_qualified_name"),
            None,
            "EXTERNAL tensor has no name",
        );
    }
    let nbytes = t.nbytes().unwrap_or(0);
    if let Some(a) = &t.allocation_info {
        let nbuf = buffer_sizes.len().saturating_sub(1);
        let id = usize::try_from(a.memory_id).unwrap_or(usize::MAX);
        match id.checked_sub(1).filter(|&b| b < nbuf).and_then(|b| buffer_sizes.get(b.saturating_add(1))) {
            None => c.add(
                rules::TENSOR_MEMORY_PLAN,
                format!("{path}.allocation_info.memory_id"),
                None,
                format!("memory_id {} names none of the {nbuf} planned buffers", a.memory_id),
            ),
            Some(&size) => {
                let fits =
                    a.offset().checked_add(nbytes).is_some_and(|end| u64::try_from(size).is_ok_and(|s| end <= s));
                if !fits {
                    c.add(
                        rules::TENSOR_MEMORY_PLAN,
                        format!("{path}.allocation_info"),
                        None,
                        format!("{nbytes} bytes at offset {} do not fit the {size}-byte buffer", a.offset()),
                    );
                }
            }
        }
        if t.data_buffer_idx > 0 && !external {
            let ok = ctx.mutable0.is_some_and(|(offs, seg)| {
                usize::try_from(t.data_buffer_idx)
                    .ok()
                    .and_then(|i| offs.get(i))
                    .is_some_and(|&o| seg.is_some_and(|s| o.checked_add(nbytes).is_some_and(|e| e <= s)))
            });
            if !ok {
                c.add(
                    rules::MUTABLE_BOUNDS,
                    format!("{path}.data_buffer_idx"),
                    None,
                    format!("initial data {} does not resolve inside mutable segment 0", t.data_buffer_idx),
                );
            } else if !ctx.segment_base {
                // exir omits the header when every segment is empty, which
                // happens when all initial data is zero bytes long
                c.add(
                    rules::MUTABLE_BOUNDS,
                    format!("{path}.data_buffer_idx"),
                    None,
                    "initial data needs a segment base, but the file has no extended header (the runtime: NotFound)",
                );
            }
            let buffer = usize::try_from(a.memory_id).ok().and_then(|id| buffer_sizes.get(id));
            if buffer == Some(&0) {
                c.add(
                    rules::MUTABLE_BOUNDS,
                    format!("{path}.allocation_info.memory_id"),
                    None,
                    format!(
                        "initial data is copied into planned buffer {}, of size 0, which has no address \
                         (the runtime: InvalidArgument)",
                        a.memory_id
                    ),
                );
            }
        }
    } else if t.data_buffer_idx > 0 && !external {
        let idx = usize::try_from(t.data_buffer_idx).unwrap_or(usize::MAX);
        let ok = if ctx.constant_offsets.len() > 1 {
            ctx.constant_offsets
                .get(idx)
                .is_some_and(|&o| ctx.constant_segment_size.is_some_and(|s| o <= s && nbytes <= s.saturating_sub(o)))
        } else if ctx.constant_offsets.is_empty() {
            ctx.constant_buffer.as_ref().and_then(|b| b.get(idx)).is_some_and(|&len| nbytes <= len)
        } else {
            false
        };
        if !ok {
            c.add(
                rules::CONSTANT_BOUNDS,
                format!("{path}.data_buffer_idx"),
                None,
                format!("constant {} ({nbytes} bytes) does not resolve inside the constant data", t.data_buffer_idx),
            );
        }
    }
}
