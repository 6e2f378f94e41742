//! Cross-over: a method, constant or segment of one program moved into the
//! other (indices into the wrong tables are the point), else a splice of the
//! two byte strings.

use pte_file::{PteFile, SegmentLayout, WriteOptions};
use pte_gen::Rng;

/// A method or the segments of `b` in `a`.
pub(crate) fn programs(a: &[u8], b: &[u8], rng: &mut Rng) -> Option<Vec<u8>> {
    let mut pa = PteFile::from_bytes(a).ok()?;
    let pb = PteFile::from_bytes(b).ok()?;
    match rng.below(3) {
        0 | 1 => {
            let plans_b = pb.program.execution_plan.as_ref()?;
            let plan = plans_b.get(rng.below(plans_b.len()))?.clone();
            let plans = pa.program.execution_plan.get_or_insert_with(Vec::new);
            let n = plans.len();
            match plans.get_mut(rng.below(n)) {
                Some(p) if rng.below(2) == 0 => *p = plan,
                _ => plans.push(plan),
            }
            pa.to_bytes(&WriteOptions::default()).ok()
        }
        _ => {
            // b's segment bytes under a's segment table, as far as they go.
            for (i, s) in pb.segments.into_iter().enumerate() {
                if let Some(slot) = pa.segments.get_mut(i) {
                    *slot = s;
                }
            }
            if let Some(table) = pa.program.segments.as_mut() {
                for (e, s) in table.iter_mut().zip(&pa.segments) {
                    e.size = s.len() as u64;
                }
            }
            pa.to_bytes(&WriteOptions::default().with_layout(SegmentLayout::Repack)).ok()
        }
    }
}

/// A prefix of one and a suffix of the other, or a chunk of `b` written
/// over or into `a`, cut to `max_size`.
pub(crate) fn splice(a: &[u8], b: &[u8], max_size: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = match rng.below(3) {
        0 => {
            let i = rng.below(a.len().saturating_add(1)).min(a.len());
            let j = rng.below(b.len().saturating_add(1)).min(b.len());
            let mut out = a.get(..i).unwrap_or_default().to_vec();
            out.extend_from_slice(b.get(j..).unwrap_or_default());
            out
        }
        1 => {
            let mut out = a.to_vec();
            let j = rng.below(b.len());
            let n = 1usize.saturating_add(rng.below(256)).min(b.len().saturating_sub(j));
            let chunk = b.get(j..j.saturating_add(n)).unwrap_or_default();
            crate::bytes::put(&mut out, rng.below(a.len()), chunk);
            out
        }
        _ => {
            let mut out = a.to_vec();
            let j = rng.below(b.len());
            let n = 1usize.saturating_add(rng.below(256)).min(b.len().saturating_sub(j));
            let chunk = b.get(j..j.saturating_add(n)).unwrap_or_default();
            let at = rng.below(a.len().saturating_add(1)).min(a.len());
            out.splice(at..at, chunk.iter().copied());
            out
        }
    };
    out.truncate(max_size);
    out
}
