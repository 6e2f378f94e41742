//! Comparing an actual value with a recorded one: floating elements by
//! tolerance, everything else (dtype, shape, integers, bools) exactly.

use std::fmt;

use pte_core::style::{dtype, shape};
use pte_ptn::{dtype_code, Dtype, PtnTensor};

use crate::model::{Tolerance, Value};

/// Why an actual value does not match the expected one.
///
/// ```
/// use pte_samples::*;
/// let m = compare(&Value::Int(1), &Value::Bool(true), DEFAULT_TOLERANCE).unwrap_err();
/// assert!(matches!(m, Mismatch::Kind { .. }));
/// assert!(m.to_string().contains("int"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Mismatch {
    /// Different kinds of value (a tensor where an int was recorded).
    Kind {
        /// Recorded kind.
        expected: &'static str,
        /// Actual kind.
        actual: &'static str,
    },
    /// Tensor lists of different lengths.
    ListLength {
        /// Recorded length.
        expected: usize,
        /// Actual length.
        actual: usize,
    },
    /// Different tensor dtypes.
    Dtype {
        /// Position in a tensor list, if the value is one.
        item: Option<usize>,
        /// Recorded dtype.
        expected: Dtype,
        /// Actual dtype.
        actual: Dtype,
    },
    /// Different tensor shapes.
    Shape {
        /// Position in a tensor list, if the value is one.
        item: Option<usize>,
        /// Recorded shape.
        expected: Vec<u64>,
        /// Actual shape.
        actual: Vec<u64>,
    },
    /// Floating elements outside tolerance; `index` is the worst one
    /// (largest excess over what was allowed; NaN or infinity mismatches
    /// count as infinitely bad).
    Float {
        /// Position in a tensor list, if the value is one.
        item: Option<usize>,
        /// Flat (row-major) index of the worst element; for complex tensors
        /// the index of the real or imaginary part in the interleaved pairs.
        index: u64,
        /// Recorded value there.
        expected: f64,
        /// Actual value there.
        actual: f64,
        /// `|actual - expected|`.
        error: f64,
        /// `atol + rtol * |expected|`.
        allowed: f64,
        /// How many elements are outside tolerance.
        count: u64,
    },
    /// Integer, bool or string contents differ; `index` is the first differing element.
    Exact {
        /// Position in a tensor list, if the value is one.
        item: Option<usize>,
        /// Flat index of the first differing element (0 for scalars).
        index: u64,
        /// Recorded value, as text.
        expected: String,
        /// Actual value, as text.
        actual: String,
        /// How many elements differ.
        count: u64,
    },
}

impl Mismatch {
    /// Whether the values differ in form (kind, list length, dtype, shape)
    /// rather than in their numbers.
    ///
    /// ```
    /// use pte_samples::Mismatch;
    /// assert!(Mismatch::Kind { expected: "tensor", actual: "int" }.is_structural());
    /// ```
    pub fn is_structural(&self) -> bool {
        matches!(
            self,
            Mismatch::Kind { .. } | Mismatch::ListLength { .. } | Mismatch::Dtype { .. } | Mismatch::Shape { .. }
        )
    }
}

/// The largest absolute and relative errors between two values of one form:
/// `|a - e|` over every floating element, and `|a - e| / |e|` over those
/// with `e != 0`. A NaN or an infinity that meets anything but itself counts
/// as an infinite error. Values of different forms, and non-floating ones,
/// give `(0, 0)`: their difference is not a magnitude.
///
/// ```
/// use pte_samples::{error_stats, Value};
/// assert_eq!(error_stats(&Value::Float(2.0), &Value::Float(2.5)), (0.5, 0.25));
/// assert_eq!(error_stats(&Value::Float(1.0), &Value::Float(f64::NAN)).0, f64::INFINITY);
/// ```
pub fn error_stats(expected: &Value<'_>, actual: &Value<'_>) -> (f64, f64) {
    let mut worst = (0.0f64, 0.0f64);
    let mut add = |e: f64, a: f64| {
        let (abs, rel) = element_error(e, a);
        worst = (worst.0.max(abs), worst.1.max(rel));
    };
    match (expected, actual) {
        (Value::Float(e), Value::Float(a)) => add(*e, *a),
        (Value::Tensor(e), Value::Tensor(a)) => tensor_errors(e, a, &mut add),
        (Value::TensorList(e), Value::TensorList(a)) => {
            for (e, a) in e.iter().zip(a) {
                tensor_errors(e, a, &mut add);
            }
        }
        _ => {}
    }
    worst
}

fn element_error(e: f64, a: f64) -> (f64, f64) {
    let same_special = (e.is_nan() && a.is_nan()) || (e.is_infinite() && e == a);
    if same_special {
        return (0.0, 0.0);
    }
    if !e.is_finite() || !a.is_finite() {
        return (f64::INFINITY, f64::INFINITY);
    }
    let abs = (a - e).abs();
    let rel = if e == 0.0 { 0.0 } else { abs / e.abs() };
    (abs, rel)
}

fn tensor_errors(e: &PtnTensor<'_>, a: &PtnTensor<'_>, add: &mut impl FnMut(f64, f64)) {
    if e.dtype != a.dtype || e.shape != a.shape {
        return;
    }
    let Some((width, read)) = float_reader(e.dtype) else { return };
    for (eb, ab) in e.data.chunks_exact(width).zip(a.data.chunks_exact(width)) {
        add(read(eb), read(ab));
    }
}

fn item_prefix(item: Option<usize>) -> String {
    item.map_or_else(String::new, |i| format!("list item {i}: "))
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Kind { expected, actual } => write!(f, "expected a {expected}, got a {actual}"),
            Mismatch::ListLength { expected, actual } => write!(f, "expected {expected} tensors in the list, got {actual}"),
            Mismatch::Dtype { item, expected, actual } => {
                write!(f, "{}dtype {} expected, got {}", item_prefix(*item), dtype(&dtype_code(*expected)), dtype(&dtype_code(*actual)))
            }
            Mismatch::Shape { item, expected, actual } => {
                write!(f, "{}shape {} expected, got {}", item_prefix(*item), shape(expected), shape(actual))
            }
            Mismatch::Float { item, index, expected, actual, error, allowed, count } => write!(
                f,
                "{}{} outside tolerance; worst at index {index}: expected {expected}, got {actual}, error {error} > allowed {allowed}",
                item_prefix(*item),
                pte_core::style::count(*count, "element")
            ),
            Mismatch::Exact { item, index, expected, actual, count } => write!(
                f,
                "{}{} differ; first at index {index}: expected {expected}, got {actual}",
                item_prefix(*item),
                pte_core::style::count(*count, "element")
            ),
        }
    }
}

/// Compares an actual value with the recorded one.
///
/// Floating elements (tensors of F16, BF16, F32, F64, C64, and float
/// scalars) match when `|a - e| <= atol + rtol * |e|`; NaN matches NaN and
/// an infinity only the same infinity. Integers, bools and strings must be
/// equal; dtype, shape and list length always must be.
///
/// ```
/// use pte_samples::*;
/// use pte_ptn::{Dtype, PtnTensor};
/// let f32s = |v: &[f32]| Value::Tensor(PtnTensor::new(Dtype::F32, vec![v.len() as u64], v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()).unwrap());
/// let tol = Tolerance { atol: 1e-3, rtol: 0.0 };
/// assert!(compare(&f32s(&[1.0, f32::NAN]), &f32s(&[1.0005, f32::NAN]), tol).is_ok());
/// let Err(Mismatch::Float { index, .. }) = compare(&f32s(&[1.0, 2.0]), &f32s(&[1.0, 2.5]), tol) else { panic!() };
/// assert_eq!(index, 1);
/// ```
pub fn compare(expected: &Value<'_>, actual: &Value<'_>, tolerance: Tolerance) -> Result<(), Mismatch> {
    match (expected, actual) {
        (Value::Tensor(e), Value::Tensor(a)) => compare_tensors(e, a, tolerance, None),
        (Value::TensorList(e), Value::TensorList(a)) => {
            if e.len() != a.len() {
                return Err(Mismatch::ListLength { expected: e.len(), actual: a.len() });
            }
            e.iter().zip(a).enumerate().try_for_each(|(i, (e, a))| compare_tensors(e, a, tolerance, Some(i)))
        }
        (Value::Float(e), Value::Float(a)) => {
            if tolerance.admits(*e, *a) {
                Ok(())
            } else {
                Err(float_mismatch(None, 0, *e, *a, tolerance, 1))
            }
        }
        (Value::Int(e), Value::Int(a)) => exact(e == a, e, a),
        (Value::Bool(e), Value::Bool(a)) => exact(e == a, e, a),
        (Value::String(e), Value::String(a)) => exact(e == a, &format!("{e:?}"), &format!("{a:?}")),
        (Value::None, Value::None) => Ok(()),
        _ => Err(Mismatch::Kind { expected: expected.kind(), actual: actual.kind() }),
    }
}

fn exact(same: bool, e: &dyn fmt::Display, a: &dyn fmt::Display) -> Result<(), Mismatch> {
    if same {
        return Ok(());
    }
    Err(Mismatch::Exact { item: None, index: 0, expected: e.to_string(), actual: a.to_string(), count: 1 })
}

fn float_mismatch(item: Option<usize>, index: u64, e: f64, a: f64, t: Tolerance, count: u64) -> Mismatch {
    Mismatch::Float { item, index, expected: e, actual: a, error: (a - e).abs(), allowed: t.allowed(e), count }
}

/// Decodes element `i` of a floating dtype's little-endian bytes.
/// Reads one little-endian element.
type ElementReader = fn(&[u8]) -> f64;

fn float_reader(dtype: Dtype) -> Option<(usize, ElementReader)> {
    fn arr<const N: usize>(b: &[u8]) -> [u8; N] {
        let mut out = [0u8; N];
        for (o, x) in out.iter_mut().zip(b) {
            *o = *x;
        }
        out
    }
    Some(match dtype {
        Dtype::F64 => (8, |b| f64::from_le_bytes(arr(b))),
        Dtype::F32 | Dtype::C64 => (4, |b| f64::from(f32::from_le_bytes(arr(b)))),
        Dtype::F16 => (2, |b| half::f16::from_le_bytes(arr(b)).to_f64()),
        Dtype::BF16 => (2, |b| half::bf16::from_le_bytes(arr(b)).to_f64()),
        _ => return None,
    })
}

fn compare_tensors(e: &PtnTensor<'_>, a: &PtnTensor<'_>, t: Tolerance, item: Option<usize>) -> Result<(), Mismatch> {
    if e.dtype != a.dtype {
        return Err(Mismatch::Dtype { item, expected: e.dtype, actual: a.dtype });
    }
    if e.shape != a.shape {
        return Err(Mismatch::Shape { item, expected: e.shape.clone(), actual: a.shape.clone() });
    }
    if let Some((width, read)) = float_reader(e.dtype) {
        let mut worst: Option<(f64, u64, f64, f64)> = None;
        let mut count = 0u64;
        for (i, (eb, ab)) in (0u64..).zip(e.data.chunks_exact(width).zip(a.data.chunks_exact(width))) {
            let (ev, av) = (read(eb), read(ab));
            if t.admits(ev, av) {
                continue;
            }
            count = count.saturating_add(1);
            let excess = if ev.is_finite() && av.is_finite() { (av - ev).abs() - t.allowed(ev) } else { f64::INFINITY };
            if worst.is_none_or(|(w, ..)| excess > w) {
                worst = Some((excess, i, ev, av));
            }
        }
        return match worst {
            None => Ok(()),
            Some((_, index, ev, av)) => Err(float_mismatch(item, index, ev, av, t, count)),
        };
    }
    let width = e.dtype.bitsize().div_ceil(8).max(1);
    let mut first = None;
    let mut count = 0u64;
    for (i, (eb, ab)) in (0u64..).zip(e.data.chunks_exact(width).zip(a.data.chunks_exact(width))) {
        if eb != ab {
            count = count.saturating_add(1);
            first.get_or_insert((i, eb, ab));
        }
    }
    match first {
        None => Ok(()),
        Some((index, eb, ab)) => {
            Err(Mismatch::Exact { item, index, expected: int_text(e.dtype, eb), actual: int_text(e.dtype, ab), count })
        }
    }
}

/// An integer or bool element as text.
fn int_text(dtype: Dtype, b: &[u8]) -> String {
    let mut wide = [0u8; 8];
    for (w, x) in wide.iter_mut().zip(b) {
        *w = *x;
    }
    let u = u64::from_le_bytes(wide);
    let bits = u32::try_from(b.len().saturating_mul(8)).unwrap_or(64);
    let signed = matches!(dtype, Dtype::I8 | Dtype::I16 | Dtype::I32 | Dtype::I64);
    match dtype {
        Dtype::BOOL => (u != 0).to_string(),
        _ if signed && bits < 64 => {
            let shift = 64u32.saturating_sub(bits);
            (i64::from_le_bytes(u.wrapping_shl(shift).to_le_bytes()).wrapping_shr(shift)).to_string()
        }
        _ if signed => i64::from_le_bytes(wide).to_string(),
        _ => u.to_string(),
    }
}

/// The first `max` elements of a tensor as text (`[1, 2.5, -3]`, with `…`
/// when there are more), for listings.
///
/// ```
/// let t = pte_ptn::PtnTensor::new(pte_ptn::Dtype::I16, vec![3], vec![1, 0, 255, 255, 7, 0])?;
/// assert_eq!(pte_samples::tensor_preview(&t, 2), "[1, -1, …]");
/// # Ok::<(), pte_ptn::Error>(())
/// ```
pub fn tensor_preview(t: &PtnTensor<'_>, max: usize) -> String {
    use fmt::Write;
    let width = t.dtype.bitsize().div_ceil(8).max(1);
    let reader = float_reader(t.dtype);
    // one buffer for the whole line: previews are printed per value of
    // bundles with hundreds of thousands of them
    let mut out = String::with_capacity(max.saturating_mul(6).saturating_add(8));
    out.push('[');
    for (i, b) in t.data.chunks_exact(width).take(max).enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        // writing into a String cannot fail
        let _ = match reader {
            Some((_, read)) => write!(out, "{}", read(b)),
            None => write!(out, "{}", int_text(t.dtype, b)),
        };
    }
    if t.data.len().checked_div(width).unwrap_or(0) > max {
        if max > 0 {
            out.push_str(", ");
        }
        out.push('…');
    }
    out.push(']');
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    fn t(dtype: Dtype, shape: Vec<u64>, bytes: Vec<u8>) -> Value<'static> {
        Value::Tensor(PtnTensor::new(dtype, shape, bytes).unwrap())
    }

    #[test]
    fn rule_is_atol_plus_rtol_times_expected() {
        let tol = Tolerance { atol: 0.5, rtol: 0.1 };
        let e = t(Dtype::F64, vec![2], [10.0f64, -10.0].iter().flat_map(|v| v.to_le_bytes()).collect());
        let ok = t(Dtype::F64, vec![2], [11.5f64, -8.5].iter().flat_map(|v| v.to_le_bytes()).collect());
        let bad = t(Dtype::F64, vec![2], [11.6f64, -10.0].iter().flat_map(|v| v.to_le_bytes()).collect());
        assert!(compare(&e, &ok, tol).is_ok());
        let Err(Mismatch::Float { index: 0, count: 1, allowed, .. }) = compare(&e, &bad, tol) else { panic!() };
        assert!((allowed - 1.5).abs() < 1e-12);
    }

    #[test]
    fn infinities_must_match_exactly_and_nan_matches_nan() {
        let loose = Tolerance { atol: 1e300, rtol: 1.0 };
        let f = |v: f32| t(Dtype::F32, vec![], v.to_le_bytes().to_vec());
        assert!(compare(&f(f32::INFINITY), &f(f32::INFINITY), loose).is_ok());
        assert!(compare(&f(f32::INFINITY), &f(f32::MAX), loose).is_err());
        assert!(compare(&f(f32::NEG_INFINITY), &f(f32::INFINITY), loose).is_err());
        assert!(compare(&f(f32::NAN), &f(f32::NAN), DEFAULT).is_ok());
        assert!(compare(&f(f32::NAN), &f(0.0), loose).is_err());
        assert!(compare(&f(0.0), &f(f32::NAN), loose).is_err());
    }
    const DEFAULT: Tolerance = crate::DEFAULT_TOLERANCE;

    #[test]
    fn half_precision_kinds_are_floats() {
        let h = |v: f32| t(Dtype::F16, vec![1], half::f16::from_f32(v).to_le_bytes().to_vec());
        let b = |v: f32| t(Dtype::BF16, vec![1], half::bf16::from_f32(v).to_le_bytes().to_vec());
        let tol = Tolerance { atol: 0.01, rtol: 0.0 };
        assert!(compare(&h(1.0), &h(1.000_976_6), tol).is_ok());
        assert!(compare(&b(1.0), &b(1.0078125), tol).is_ok());
        assert!(compare(&b(1.0), &b(1.5), tol).is_err());
    }

    #[test]
    fn integers_bools_dtype_and_shape_are_exact() {
        let i = |v: &[i32]| t(Dtype::I32, vec![v.len() as u64], v.iter().flat_map(|x| x.to_le_bytes()).collect());
        let loose = Tolerance { atol: 100.0, rtol: 1.0 };
        let Err(Mismatch::Exact { index: 1, expected, actual, count: 1, .. }) =
            compare(&i(&[1, -2, 3]), &i(&[1, -3, 3]), loose)
        else {
            panic!()
        };
        assert_eq!((expected.as_str(), actual.as_str()), ("-2", "-3"));
        assert!(matches!(compare(&i(&[1]), &i(&[1, 2]), loose), Err(Mismatch::Shape { .. })));
        let u = t(Dtype::U32, vec![1], 1u32.to_le_bytes().to_vec());
        assert!(matches!(compare(&i(&[1]), &u, loose), Err(Mismatch::Dtype { .. })));
        let bools = |v: &[u8]| t(Dtype::BOOL, vec![v.len() as u64], v.to_vec());
        assert!(compare(&bools(&[1, 0]), &bools(&[1, 1]), loose).is_err());
        assert!(compare(&Value::Int(5), &Value::Int(6), loose).is_err());
        assert!(compare(&Value::Float(1.0), &Value::Float(50.0), loose).is_ok());
    }

    #[test]
    fn lists_report_the_item() {
        let f = |v: f32| PtnTensor::new(Dtype::F32, vec![], v.to_le_bytes().to_vec()).unwrap();
        let e = Value::TensorList(vec![f(1.0), f(2.0)]);
        let a = Value::TensorList(vec![f(1.0), f(3.0)]);
        assert!(matches!(compare(&e, &a, DEFAULT), Err(Mismatch::Float { item: Some(1), .. })));
        assert!(matches!(compare(&e, &Value::TensorList(vec![f(1.0)]), DEFAULT), Err(Mismatch::ListLength { .. })));
    }

    #[test]
    fn int_text_sign_extends() {
        assert_eq!(int_text(Dtype::I8, &[0xff]), "-1");
        assert_eq!(int_text(Dtype::U8, &[0xff]), "255");
        assert_eq!(int_text(Dtype::I64, &(-5i64).to_le_bytes()), "-5");
    }
}
