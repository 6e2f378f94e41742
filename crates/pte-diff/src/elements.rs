//! Element-wise comparison of two tensors' bytes by element type.

use pte_schema::ScalarType;

use crate::{ElementDiff, Options, TensorStats};

/// How elements of a type are read as numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    U8,
    I8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    BF16,
    F32,
    F64,
    Bool,
    /// No numeric reading: bytes are compared one by one.
    Bytes,
}

impl Elem {
    pub(crate) fn of(t: ScalarType) -> Elem {
        match t {
            ScalarType::BYTE | ScalarType::QUINT8 => Elem::U8,
            ScalarType::CHAR | ScalarType::QINT8 => Elem::I8,
            ScalarType::SHORT => Elem::I16,
            ScalarType::INT | ScalarType::QINT32 => Elem::I32,
            ScalarType::LONG => Elem::I64,
            ScalarType::HALF => Elem::F16,
            ScalarType::FLOAT => Elem::F32,
            ScalarType::DOUBLE => Elem::F64,
            ScalarType::BOOL => Elem::Bool,
            ScalarType::BFLOAT16 => Elem::BF16,
            ScalarType::UINT16 => Elem::U16,
            ScalarType::UINT32 => Elem::U32,
            ScalarType::UINT64 => Elem::U64,
            _ => Elem::Bytes,
        }
    }
}

fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    if let Some(src) = b.get(..N) {
        a.copy_from_slice(src);
    }
    a
}

/// Multi-dimensional index of flat element `flat` in a tensor of `sizes`.
fn unravel(mut flat: u64, sizes: &[u64]) -> Vec<u64> {
    let mut idx = vec![0u64; sizes.len()];
    for (slot, &d) in idx.iter_mut().zip(sizes).rev() {
        if d > 0 {
            *slot = flat.checked_rem(d).unwrap_or(0);
            flat = flat.checked_div(d).unwrap_or(0);
        }
    }
    idx
}

/// Compares `a` and `b` element by element; `sizes` bounds the element count
/// (`None` when unknown: the shorter buffer decides).
pub(crate) fn compare(a: &[u8], b: &[u8], elem: Elem, sizes: &[u64], numel: Option<u64>, o: &Options) -> TensorStats {
    match elem {
        Elem::U8 => run(a, b, 1, |x| f64::from(x.first().copied().unwrap_or(0)), sizes, numel, o),
        Elem::I8 => run(a, b, 1, |x| f64::from(i8::from_le_bytes(arr(x))), sizes, numel, o),
        Elem::Bool | Elem::Bytes => run(a, b, 1, |x| f64::from(x.first().copied().unwrap_or(0)), sizes, numel, o),
        Elem::I16 => run(a, b, 2, |x| f64::from(i16::from_le_bytes(arr(x))), sizes, numel, o),
        Elem::U16 => run(a, b, 2, |x| f64::from(u16::from_le_bytes(arr(x))), sizes, numel, o),
        Elem::F16 => run(a, b, 2, |x| half::f16::from_le_bytes(arr(x)).to_f64(), sizes, numel, o),
        Elem::BF16 => run(a, b, 2, |x| half::bf16::from_le_bytes(arr(x)).to_f64(), sizes, numel, o),
        Elem::I32 => run(a, b, 4, |x| f64::from(i32::from_le_bytes(arr(x))), sizes, numel, o),
        Elem::U32 => run(a, b, 4, |x| f64::from(u32::from_le_bytes(arr(x))), sizes, numel, o),
        Elem::F32 => run(a, b, 4, |x| f64::from(f32::from_le_bytes(arr(x))), sizes, numel, o),
        // 64-bit integers beyond 2^53 lose precision as f64; differences are still found by bits
        #[allow(clippy::cast_precision_loss)]
        Elem::I64 => run(a, b, 8, |x| i64::from_le_bytes(arr(x)) as f64, sizes, numel, o),
        #[allow(clippy::cast_precision_loss)]
        Elem::U64 => run(a, b, 8, |x| u64::from_le_bytes(arr(x)) as f64, sizes, numel, o),
        Elem::F64 => run(a, b, 8, |x| f64::from_le_bytes(arr(x)), sizes, numel, o),
    }
}

fn run(
    a: &[u8],
    b: &[u8],
    size: usize,
    read: impl Fn(&[u8]) -> f64,
    sizes: &[u64],
    numel: Option<u64>,
    o: &Options,
) -> TensorStats {
    let avail = (a.len().min(b.len()).checked_div(size).unwrap_or(0)) as u64;
    let count = numel.map_or(avail, |n| n.min(avail));
    let mut s = TensorStats { num_elements: count, ..TensorStats::default() };
    let mut total = 0f64;
    let n = usize::try_from(count).unwrap_or(usize::MAX);
    // equal stretches are skipped with one memcmp each, so unchanged regions cost a
    // plain comparison and only changed blocks are decoded
    const BLOCK: usize = 4096;
    let ea = a.chunks_exact(size).take(n);
    let eb = b.chunks_exact(size).take(n);
    let block_bytes = BLOCK.saturating_mul(size);
    for (k, (ba, bb)) in a.chunks(block_bytes).zip(b.chunks(block_bytes)).enumerate() {
        if ba == bb {
            continue;
        }
        let first = k.saturating_mul(BLOCK);
        if first >= n {
            break;
        }
        let take = BLOCK.min(n.saturating_sub(first));
        for (j, (xa, xb)) in ea.clone().skip(first).take(take).zip(eb.clone().skip(first).take(take)).enumerate() {
            if xa == xb {
                continue;
            }
            let (va, vb) = (read(xa), read(xb));
            let d = (va - vb).abs();
            let within = d <= o.atol + o.rtol * vb.abs();
            if within {
                continue;
            }
            s.num_differing = s.num_differing.saturating_add(1);
            if d > s.max_abs_diff || d.is_nan() {
                s.max_abs_diff = d;
            }
            total += d;
            if s.first.len() < o.max_samples {
                let flat = first.saturating_add(j) as u64;
                s.first.push(ElementDiff { flat_index: flat, index: unravel(flat, sizes), a: va, b: vb });
            }
        }
    }
    if s.num_differing > 0 {
        #[allow(clippy::cast_precision_loss)]
        let n = s.num_differing as f64;
        s.mean_abs_diff = total / n;
    }
    s
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn f32s(v: &[f32]) -> Vec<u8> {
        v.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    #[test]
    fn counts_max_and_mean_of_differing_floats() {
        let a = f32s(&[1.0, 2.0, 3.0, 4.0]);
        let b = f32s(&[1.0, 2.5, 3.0, 3.0]);
        let s = compare(&a, &b, Elem::F32, &[2, 2], Some(4), &Options::default());
        assert_eq!((s.num_elements, s.num_differing), (4, 2));
        assert_eq!(s.max_abs_diff, 1.0);
        assert_eq!(s.mean_abs_diff, 0.75);
        assert_eq!(s.first[0].index, vec![0, 1]);
        assert_eq!(s.first[1].index, vec![1, 1]);
    }

    #[test]
    fn tolerances_hide_small_differences() {
        let a = f32s(&[1.0, 100.0]);
        let b = f32s(&[1.001, 101.0]);
        let o = Options { atol: 0.01, rtol: 0.0, ..Options::default() };
        assert_eq!(compare(&a, &b, Elem::F32, &[2], Some(2), &o).num_differing, 1);
        let o = Options { atol: 0.01, rtol: 0.02, ..Options::default() };
        assert_eq!(compare(&a, &b, Elem::F32, &[2], Some(2), &o).num_differing, 0);
    }

    #[test]
    fn differences_past_the_first_block_are_found() {
        let a = vec![0u8; 10_000];
        let mut b = a.clone();
        b[9_999] = 7;
        let s = compare(&a, &b, Elem::U8, &[10_000], Some(10_000), &Options::default());
        assert_eq!(s.num_differing, 1);
        assert_eq!(s.first[0].flat_index, 9_999);
        assert_eq!(s.max_abs_diff, 7.0);
    }
}
