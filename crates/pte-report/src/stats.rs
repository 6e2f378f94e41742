//! Statistics of a stored tensor computed from its bytes: minimum, maximum,
//! mean, and how many elements are NaN or infinite. Every float dtype
//! (float16, bfloat16, float32, float64), every integer dtype and bool are
//! read, little-endian as the formats store them; quantized, sub-byte,
//! float8 and complex dtypes are not.
//!
//! The work is bounded: at most [`MAX_ELEMENTS`] elements of one tensor are
//! read (the first ones; [`Stats::read`] says how many), and a page reads at
//! most [`Budget::PAGE`] elements in all, so a report of a model with
//! gigabytes of weights costs a bounded time.

/// At most this many elements of one tensor are read.
///
/// ```
/// assert_eq!(pte_report::stats::MAX_ELEMENTS, 1_048_576);
/// ```
pub const MAX_ELEMENTS: u64 = 1 << 20;

/// An element type the statistics can read.
///
/// ```
/// use pte_report::stats::Elem;
/// assert_eq!(Elem::from_name("FLOAT"), Some(Elem::F32));
/// assert_eq!(Elem::from_name("BF16"), Some(Elem::Bf16));
/// assert_eq!(Elem::from_name("QINT8"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// IEEE half.
    F16,
    /// bfloat16.
    Bf16,
    /// IEEE single.
    F32,
    /// IEEE double.
    F64,
    /// Signed integer of this many bytes (1, 2, 4, 8).
    Int(u8),
    /// Unsigned integer of this many bytes (1, 2, 4, 8).
    Uint(u8),
    /// One byte, zero false.
    Bool,
}

impl Elem {
    /// The element type a dtype name (ExecuTorch's `FLOAT`, safetensors'
    /// `F32`, PyTorch's `float32`) stands for, when it can be read.
    ///
    /// ```
    /// assert_eq!(pte_report::stats::Elem::from_name("int16"), Some(pte_report::stats::Elem::Int(2)));
    /// ```
    pub fn from_name(name: &str) -> Option<Elem> {
        Some(match pte_core::style::dtype(name).as_str() {
            "float16" => Elem::F16,
            "bfloat16" => Elem::Bf16,
            "float32" => Elem::F32,
            "float64" => Elem::F64,
            "int8" => Elem::Int(1),
            "int16" => Elem::Int(2),
            "int32" => Elem::Int(4),
            "int64" => Elem::Int(8),
            "uint8" => Elem::Uint(1),
            "uint16" => Elem::Uint(2),
            "uint32" => Elem::Uint(4),
            "uint64" => Elem::Uint(8),
            "bool" => Elem::Bool,
            _ => return None,
        })
    }

    /// Bytes per element.
    ///
    /// ```
    /// assert_eq!(pte_report::stats::Elem::Bf16.size(), 2);
    /// ```
    pub fn size(self) -> usize {
        match self {
            Elem::F16 | Elem::Bf16 => 2,
            Elem::F32 => 4,
            Elem::F64 => 8,
            Elem::Int(n) | Elem::Uint(n) => usize::from(n),
            Elem::Bool => 1,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Elem::F16 | Elem::Bf16 | Elem::F32 | Elem::F64)
    }
}

/// What one tensor's elements hold.
///
/// ```
/// use pte_report::stats::{Elem, Stats};
/// let bytes: Vec<u8> = [1.0f32, -2.0, f32::NAN, 4.0].iter().flat_map(|x| x.to_le_bytes()).collect();
/// let s = Stats::of(Elem::F32, &bytes, u64::MAX);
/// assert_eq!((s.min, s.max, s.nan, s.inf, s.read, s.total), (-2.0, 4.0, 1, 0, 4, 4));
/// assert_eq!(s.mean, 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Elements in the bytes given.
    pub total: u64,
    /// Elements read (fewer than `total` when the bound was reached).
    pub read: u64,
    /// Smallest finite value read (NaN when there is none).
    pub min: f64,
    /// Largest finite value read (NaN when there is none).
    pub max: f64,
    /// Mean of the finite values read (NaN when there is none).
    pub mean: f64,
    /// NaN elements read.
    pub nan: u64,
    /// Infinite elements read.
    pub inf: u64,
    /// Whether the values are floats (integers and bools show as integers).
    pub float: bool,
}

/// f16 bits to f32, exactly.
fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1f);
    let frac = u32::from(h & 0x3ff);
    let bits = match (exp, frac) {
        (0, 0) => sign,
        (0, f) => {
            // subnormal: value f * 2^-24
            let v = f as f32 * f32::from_bits(0x3380_0000);
            return if sign == 0 { v } else { -v };
        }
        (0x1f, 0) => sign | 0x7f80_0000,
        (0x1f, f) => sign | 0x7fc0_0000 | (f << 13),
        (e, f) => sign | ((e.saturating_add(112)) << 23) | (f << 13),
    };
    f32::from_bits(bits)
}

fn value(elem: Elem, b: &[u8]) -> f64 {
    let mut w = [0u8; 8];
    for (d, s) in w.iter_mut().zip(b) {
        *d = *s;
    }
    let u = u64::from_le_bytes(w);
    let [b0, b1, b2, b3, ..] = w;
    match elem {
        Elem::F16 => f64::from(f16_to_f32(u16::from_le_bytes([b0, b1]))),
        Elem::Bf16 => f64::from(f32::from_bits(u32::from(u16::from_le_bytes([b0, b1])) << 16)),
        Elem::F32 => f64::from(f32::from_le_bytes([b0, b1, b2, b3])),
        Elem::F64 => f64::from_le_bytes(w),
        Elem::Bool => {
            if u == 0 {
                0.0
            } else {
                1.0
            }
        }
        Elem::Uint(_) => u as f64,
        Elem::Int(n) => {
            let shift = 64u32.saturating_sub(u32::from(n).saturating_mul(8));
            (i64::from_le_bytes(w).wrapping_shl(shift).wrapping_shr(shift)) as f64
        }
    }
}

/// Running totals over the elements read.
struct Fold {
    min: f64,
    max: f64,
    sum: f64,
    finite: u64,
    nan: u64,
    inf: u64,
}

/// Folds the first `n` elements of `size` bytes each (`get` is handed whole
/// elements, so its conversions from a slice never fail).
#[inline(always)]
fn fold(bytes: &[u8], size: usize, n: usize, get: impl Fn(&[u8]) -> f64) -> Fold {
    let mut f = Fold { min: f64::INFINITY, max: f64::NEG_INFINITY, sum: 0.0, finite: 0, nan: 0, inf: 0 };
    for chunk in bytes.chunks_exact(size.max(1)).take(n) {
        let v = get(chunk);
        if v.is_nan() {
            f.nan = f.nan.saturating_add(1);
        } else if v.is_infinite() {
            f.inf = f.inf.saturating_add(1);
        } else {
            f.min = f.min.min(v);
            f.max = f.max.max(v);
            f.sum += v;
            f.finite = f.finite.saturating_add(1);
        }
    }
    f
}

impl Stats {
    /// The statistics of the first `limit` elements (at most
    /// [`MAX_ELEMENTS`]) of `bytes` read as `elem`; trailing bytes short of
    /// an element are ignored.
    ///
    /// ```
    /// use pte_report::stats::{Elem, Stats};
    /// let s = Stats::of(Elem::Int(2), &[0xff, 0xff, 7, 0, 2, 0], 2);
    /// assert_eq!((s.min, s.max, s.read, s.total), (-1.0, 7.0, 2, 3));
    /// let h = Stats::of(Elem::F16, &[0x00, 0x3c, 0x00, 0x7c], u64::MAX); // 1.0, +inf
    /// assert_eq!((h.max, h.inf), (1.0, 1));
    /// ```
    pub fn of(elem: Elem, bytes: &[u8], limit: u64) -> Stats {
        let size = elem.size().max(1);
        let total = bytes.len().checked_div(size).unwrap_or(0) as u64;
        let read = total.min(limit).min(MAX_ELEMENTS);
        let n = usize::try_from(read).unwrap_or(usize::MAX);
        // one loop per element type, so the conversion is inlined and the
        // dtype not matched per element (statistics are most of a page's cost)
        let f = match elem {
            Elem::F32 => fold(bytes, 4, n, |c| c.try_into().map_or(f64::NAN, |w| f64::from(f32::from_le_bytes(w)))),
            Elem::F64 => fold(bytes, 8, n, |c| c.try_into().map_or(f64::NAN, f64::from_le_bytes)),
            Elem::F16 => {
                fold(bytes, 2, n, |c| c.try_into().map_or(f64::NAN, |w| f64::from(f16_to_f32(u16::from_le_bytes(w)))))
            }
            Elem::Bf16 => fold(bytes, 2, n, |c| {
                c.try_into().map_or(f64::NAN, |w| f64::from(f32::from_bits(u32::from(u16::from_le_bytes(w)) << 16)))
            }),
            _ => fold(bytes, size, n, |c| value(elem, c)),
        };
        let Fold { min, max, sum, finite, nan, inf } = f;
        let none = finite == 0;
        Stats {
            total,
            read,
            min: if none { f64::NAN } else { min },
            max: if none { f64::NAN } else { max },
            mean: if none { f64::NAN } else { sum / finite as f64 },
            nan,
            inf,
            float: elem.is_float(),
        }
    }
}

/// The elements a page may still read; each tensor's statistics take from it.
///
/// ```
/// let mut b = pte_report::stats::Budget::new(10);
/// assert_eq!(b.take(4), 4);
/// assert_eq!(b.take(20), 6);
/// assert_eq!(b.take(1), 0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Budget(u64);

impl Budget {
    /// What one page reads at most: 64 Mi elements.
    ///
    /// ```
    /// assert_eq!(pte_report::stats::Budget::PAGE, 64 << 20);
    /// ```
    pub const PAGE: u64 = 1 << 26;

    /// A budget of `elements`.
    ///
    /// ```
    /// assert_eq!(pte_report::stats::Budget::new(3).take(5), 3);
    /// ```
    pub fn new(elements: u64) -> Budget {
        Budget(elements)
    }

    /// Takes up to `want` elements (capped at [`MAX_ELEMENTS`]) and says how many.
    ///
    /// ```
    /// assert_eq!(pte_report::stats::Budget::new(u64::MAX).take(u64::MAX), pte_report::stats::MAX_ELEMENTS);
    /// ```
    pub fn take(&mut self, want: u64) -> u64 {
        let n = want.min(self.0).min(MAX_ELEMENTS);
        self.0 = self.0.saturating_sub(n);
        n
    }
}
