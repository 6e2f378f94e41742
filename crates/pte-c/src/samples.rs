//! A package's recorded calls (or a bundle's test cases), held for C: every
//! name a C string, every tolerance resolved, and each tensor's bytes a span
//! of the file when they are stored there (the zero-copy case), else a copy
//! (a compressed member's, inflated once).

use std::ffi::CString;

use pte_core::FileKind;
use pte_samples::{Call, Level, Sample, SampleSet, Tensor, Tolerance, Value};

use crate::error::{c_string, Fail};
use crate::tables::{span_in, Span};

/// Which level a call's resolved tolerance comes from.
///
/// ```
/// assert_eq!(pte_c::PteToleranceLevel::Default as i32, 0);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PteToleranceLevel {
    /// No level gives one: ExecuTorch's defaults (atol 1e-8, rtol 1e-5).
    Default = 0,
    /// The set's.
    Set = 1,
    /// The sample's.
    Sample = 2,
    /// The call's own.
    Call = 3,
}

/// A tensor's bytes: in the file, or copied.
#[derive(Debug)]
pub(crate) enum Data {
    InFile(Span),
    Copied(Box<[u8]>),
}

#[derive(Debug)]
pub(crate) struct CTensor {
    pub(crate) dtype: CString,
    pub(crate) shape: Vec<u64>,
    pub(crate) data: Data,
}

#[derive(Debug)]
pub(crate) enum CValue {
    Tensor(CTensor),
    Int(i64),
    Float(f64),
    Bool(bool),
    String(CString),
    None,
    TensorList(Vec<CTensor>),
}

#[derive(Debug)]
pub(crate) struct CCall {
    pub(crate) inputs: Vec<CValue>,
    pub(crate) outputs: Vec<CValue>,
    pub(crate) tolerance: Tolerance,
    pub(crate) level: PteToleranceLevel,
}

#[derive(Debug)]
pub(crate) struct CSample {
    pub(crate) name: Option<CString>,
    pub(crate) tolerance: Option<Tolerance>,
    pub(crate) calls: Vec<CCall>,
}

#[derive(Debug)]
pub(crate) struct CSet {
    pub(crate) method: CString,
    pub(crate) name: CString,
    pub(crate) tolerance: Option<Tolerance>,
    pub(crate) samples: Vec<CSample>,
}

/// Every set of a file.
#[derive(Debug)]
pub(crate) struct SampleModel {
    pub(crate) sets: Vec<CSet>,
}

impl SampleModel {
    pub(crate) fn read(kind: FileKind, bytes: &[u8]) -> Result<SampleModel, Fail> {
        let sets = if kind.is_ptn() {
            let ptn = pte_ptn::PtnFile::from_bytes(bytes)?;
            let sets = pte_samples::read_samples(&ptn)?;
            sets.iter().map(|s| set(bytes, s)).collect()
        } else if kind.is_bpte() {
            let bundle = pte_file::bpte::BundledFile::from_bytes(bytes)?;
            let sets = pte_samples::bundled_sets(&bundle, None)?;
            sets.iter().map(|s| set(bytes, s)).collect()
        } else {
            return Err(Fail::kind("samples", kind));
        };
        Ok(SampleModel { sets })
    }
}

fn set(file: &[u8], s: &SampleSet<'_>) -> CSet {
    CSet {
        method: c_string(&s.method),
        name: c_string(&s.name),
        tolerance: s.tolerance,
        samples: s.samples.iter().map(|sample| self::sample(file, s, sample)).collect(),
    }
}

fn sample(file: &[u8], set: &SampleSet<'_>, s: &Sample<'_>) -> CSample {
    CSample {
        name: s.name.as_deref().map(c_string),
        tolerance: s.tolerance,
        calls: s.calls.iter().map(|c| call(file, set, s, c)).collect(),
    }
}

fn call(file: &[u8], set: &SampleSet<'_>, s: &Sample<'_>, c: &Call<'_>) -> CCall {
    let (tolerance, level) = pte_samples::resolve(set, s, c);
    let level = match level {
        Level::Default => PteToleranceLevel::Default,
        Level::Set => PteToleranceLevel::Set,
        Level::Sample(_) => PteToleranceLevel::Sample,
        Level::Call { .. } => PteToleranceLevel::Call,
    };
    CCall {
        inputs: c.inputs.iter().map(|v| value(file, v)).collect(),
        outputs: c.outputs.iter().map(|v| value(file, v)).collect(),
        tolerance,
        level,
    }
}

fn value(file: &[u8], v: &Value<'_>) -> CValue {
    match v {
        Value::Tensor(t) => CValue::Tensor(tensor(file, t)),
        Value::Int(i) => CValue::Int(*i),
        Value::Float(f) => CValue::Float(*f),
        Value::Bool(b) => CValue::Bool(*b),
        Value::String(s) => CValue::String(c_string(s)),
        Value::None => CValue::None,
        Value::TensorList(l) => CValue::TensorList(l.iter().map(|t| tensor(file, t)).collect()),
    }
}

fn tensor(file: &[u8], t: &Tensor<'_>) -> CTensor {
    let data = match span_in(file, &t.data) {
        Some(span) if !t.data.is_empty() => Data::InFile(span),
        _ => Data::Copied(t.data.as_ref().into()),
    };
    CTensor { dtype: c_string(&pte_ptn::dtype_code(t.dtype)), shape: t.shape.clone(), data }
}
