//! Bundled-program test cases seen through the samples API, and the way
//! back: a `.bpte` test case is a one-call sample; `.bpte` stores no
//! tolerance, so the view takes the runtime's defaults unless told otherwise.

use std::borrow::Cow;

use pte_file::bpte::BundledFile;
use pte_ptn::{Dtype, PtnTensor};
use pte_schema::bundled::{BundledTensor, BundledValue, TestCase, TestSuite};
use pte_schema::ScalarType;

use crate::read::short;
use crate::{Call, Error, Result, Sample, SampleRule, SampleSet, Tolerance, Value, DEFAULT_TOLERANCE};

/// The set name given to a method's bundled cases (`bundled`, then
/// `bundled-1`, ... when a bundle holds several suites for one method).
pub const BUNDLED_SET: &str = "bundled";

/// The safetensors dtype of an ExecuTorch scalar type, when one exists.
///
/// ```
/// use pte_schema::ScalarType;
/// assert_eq!(pte_samples::dtype_of(ScalarType::FLOAT), Some(pte_ptn::Dtype::F32));
/// assert_eq!(pte_samples::dtype_of(ScalarType::QINT8), None);
/// ```
pub fn dtype_of(t: ScalarType) -> Option<Dtype> {
    Some(match t {
        ScalarType::BYTE => Dtype::U8,
        ScalarType::CHAR => Dtype::I8,
        ScalarType::SHORT => Dtype::I16,
        ScalarType::INT => Dtype::I32,
        ScalarType::LONG => Dtype::I64,
        ScalarType::HALF => Dtype::F16,
        ScalarType::FLOAT => Dtype::F32,
        ScalarType::DOUBLE => Dtype::F64,
        ScalarType::BOOL => Dtype::BOOL,
        ScalarType::BFLOAT16 => Dtype::BF16,
        ScalarType::UINT16 => Dtype::U16,
        ScalarType::UINT32 => Dtype::U32,
        ScalarType::UINT64 => Dtype::U64,
        ScalarType(9) => Dtype::C64,
        _ => return None,
    })
}

/// The ExecuTorch scalar type of a safetensors dtype, when one exists.
///
/// ```
/// assert_eq!(pte_samples::scalar_type_of(pte_ptn::Dtype::I64), Some(pte_schema::ScalarType::LONG));
/// ```
pub fn scalar_type_of(d: Dtype) -> Option<ScalarType> {
    Some(match d {
        Dtype::U8 => ScalarType::BYTE,
        Dtype::I8 => ScalarType::CHAR,
        Dtype::I16 => ScalarType::SHORT,
        Dtype::I32 => ScalarType::INT,
        Dtype::I64 => ScalarType::LONG,
        Dtype::F16 => ScalarType::HALF,
        Dtype::F32 => ScalarType::FLOAT,
        Dtype::F64 => ScalarType::DOUBLE,
        Dtype::BOOL => ScalarType::BOOL,
        Dtype::BF16 => ScalarType::BFLOAT16,
        Dtype::U16 => ScalarType::UINT16,
        Dtype::U32 => ScalarType::UINT32,
        Dtype::U64 => ScalarType::UINT64,
        Dtype::C64 => ScalarType(9),
        _ => return None,
    })
}

/// Every suite of a bundle as a sample set, one one-call sample per case,
/// with `tolerance` (default: the runtime's `atol` 1e-8, `rtol` 1e-5) as
/// the set tolerance. Tensor bytes borrow from the bundle.
///
/// Only contiguous tensors (dim_order `0, 1, ...`) of a dtype safetensors
/// knows have a sample form; others are `Unsupported`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let bundle = pte_file::bpte::BundledFile::from_bytes(&bytes)?;
/// let sets = pte_samples::bundled_sets(&bundle, None)?;
/// assert_eq!((sets[0].method.as_str(), sets[0].name.as_str(), sets[0].samples.len()), ("forward", "bundled", 3));
/// assert_eq!(sets[0].tolerance, Some(pte_samples::DEFAULT_TOLERANCE));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bundled_sets<'a>(bundle: &'a BundledFile<'_>, tolerance: Option<Tolerance>) -> Result<Vec<SampleSet<'a>>> {
    let mut out: Vec<SampleSet<'a>> = Vec::new();
    for (i, suite) in bundle.suites().iter().enumerate() {
        let path = format!("method_test_suites[{i}]");
        let method = suite.method_name.clone().ok_or_else(|| {
            Error::new(SampleRule::Name, "the suite names no method").at_path(format!("{path}.method_name"))
        })?;
        let same = out.iter().filter(|s| s.method == method).count();
        let name = if same == 0 { BUNDLED_SET.to_string() } else { format!("{BUNDLED_SET}-{same}") };
        let mut samples = Vec::new();
        for (j, case) in suite.test_cases.iter().flatten().enumerate() {
            let path = format!("{path}.test_cases[{j}]");
            let side = |v: &'a Option<Vec<BundledValue<'_>>>, field: &str| -> Result<Vec<Value<'a>>> {
                v.iter().flatten().enumerate().map(|(k, v)| from_bundled(v, &format!("{path}.{field}[{k}]"))).collect()
            };
            let call = Call {
                inputs: side(&case.inputs, "inputs")?,
                outputs: side(&case.expected_outputs, "expected_outputs")?,
                tolerance: None,
            };
            samples.push(Sample { name: None, tolerance: None, calls: vec![call] });
        }
        out.push(SampleSet { method, name, tolerance: Some(tolerance.unwrap_or(DEFAULT_TOLERANCE)), samples });
    }
    Ok(out)
}

fn unsupported(path: &str, why: String) -> Error {
    Error::wrap(
        SampleRule::InvalidUse,
        pte_schema::Error::new(pte_schema::ErrorKind::Unsupported, why).at_path(path.to_string()),
    )
}

fn from_bundled<'a>(v: &'a BundledValue<'_>, path: &str) -> Result<Value<'a>> {
    Ok(match v {
        BundledValue::None => Value::None,
        BundledValue::Int(i) => Value::Int(*i),
        BundledValue::Bool(b) => Value::Bool(*b),
        BundledValue::Double(d) => Value::Float(*d),
        BundledValue::Tensor(t) => {
            let dtype = dtype_of(t.scalar_type)
                .ok_or_else(|| unsupported(path, format!("dtype {:?} has no safetensors form", t.scalar_type)))?;
            let sizes = t.sizes.as_deref().unwrap_or(&[]);
            let shape = sizes
                .iter()
                .map(|&s| {
                    u64::try_from(s).map_err(|_| {
                        Error::new(SampleRule::ShapeMismatch, format!("negative size {s}")).at_path(path.to_string())
                    })
                })
                .collect::<Result<Vec<u64>>>()?;
            let contiguous = t
                .dim_order
                .as_deref()
                .is_none_or(|d| d.iter().copied().eq(0..u8::try_from(d.len()).unwrap_or(u8::MAX)));
            if !contiguous {
                return Err(unsupported(
                    path,
                    format!("dim_order {:?} is not contiguous; samples hold row-major tensors", t.dim_order),
                ));
            }
            let data: &'a [u8] = t.data.as_deref().unwrap_or(&[]);
            let t = PtnTensor::new(dtype, shape, Cow::Borrowed(data))
                .map_err(|e| Error::wrap(SampleRule::ShapeMismatch, e).at_path(path.to_string()))?;
            Value::Tensor(t)
        }
    })
}

/// Builds a bundle of `program` (a serialized `.pte`) from sets whose
/// samples are single calls: one suite per method (sets of one method are
/// merged, in order, since the runtime uses a method's first suite only).
/// Multi-call samples, strings and tensor lists have no `.bpte` form and
/// are refused; tolerances are not stored (`.bpte` has no field for them).
///
/// ```
/// use pte_samples::*;
/// let pte = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let mut set = SampleSet::new("forward", "s");
/// set.samples.push(Sample { calls: vec![Call::default(), Call::default()], ..Default::default() });
/// let e = bundle_from_sets(pte, &[set]).unwrap_err();
/// assert_eq!(e.rule(), SampleRule::InvalidUse);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bundle_from_sets<'a>(
    program: impl Into<pte_schema::Bytes<'a>>,
    sets: &[SampleSet<'a>],
) -> Result<BundledFile<'a>> {
    let mut suites: Vec<TestSuite<'a>> = Vec::new();
    for set in sets {
        let mut cases = Vec::with_capacity(set.samples.len());
        for (si, sample) in set.samples.iter().enumerate() {
            let path = format!("{}/{}: samples[{si}]", short(&set.method), short(&set.name));
            let [call] = sample.calls.as_slice() else {
                return Err(Error::new(
                    SampleRule::InvalidUse,
                    format!(
                        "a sample of {} calls cannot be expressed in .bpte, which holds single calls",
                        sample.calls.len()
                    ),
                )
                .at_path(path));
            };
            let side = |vs: &[Value<'a>], field: &str| -> Result<Vec<BundledValue<'a>>> {
                vs.iter().enumerate().map(|(k, v)| to_bundled(v, &format!("{path}.calls[0].{field}[{k}]"))).collect()
            };
            cases.push(TestCase {
                inputs: Some(side(&call.inputs, "inputs")?),
                expected_outputs: Some(side(&call.outputs, "outputs")?),
            });
        }
        match suites.iter_mut().find(|s| s.method_name.as_deref() == Some(set.method.as_str())) {
            Some(suite) => suite.test_cases.get_or_insert_with(Vec::new).extend(cases),
            None => suites.push(TestSuite { method_name: Some(set.method.clone()), test_cases: Some(cases) }),
        }
    }
    Ok(BundledFile::new(program, suites))
}

fn to_bundled<'a>(v: &Value<'a>, path: &str) -> Result<BundledValue<'a>> {
    let refuse = |what: &str| {
        Error::new(SampleRule::InvalidUse, format!("a {what} value has no .bpte form")).at_path(path.to_string())
    };
    Ok(match v {
        Value::None => BundledValue::None,
        Value::Int(i) => BundledValue::Int(*i),
        Value::Bool(b) => BundledValue::Bool(*b),
        Value::Float(f) => BundledValue::Double(*f),
        Value::String(_) => return Err(refuse("string")),
        Value::TensorList(_) => return Err(refuse("tensor list")),
        Value::Tensor(t) => {
            let scalar_type = scalar_type_of(t.dtype).ok_or_else(|| refuse(&pte_ptn::dtype_code(t.dtype)))?;
            let sizes = t
                .shape
                .iter()
                .map(|&d| {
                    i32::try_from(d).map_err(|_| {
                        Error::new(SampleRule::Limit, format!("size {d} does not fit .bpte's int32 sizes"))
                            .at_path(path.to_string())
                    })
                })
                .collect::<Result<Vec<i32>>>()?;
            let rank = u8::try_from(sizes.len())
                .map_err(|_| Error::new(SampleRule::Limit, "more than 255 dimensions").at_path(path.to_string()))?;
            BundledValue::Tensor(BundledTensor {
                scalar_type,
                sizes: Some(sizes),
                data: Some(t.data.clone()),
                dim_order: Some((0..rank).collect()),
            })
        }
    })
}
