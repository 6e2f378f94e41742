//! The bundled-program schema (`BP08`, `.bpte`): owned model borrowing the
//! embedded program and tensor bytes, verified decoding, encoding with the
//! schema's alignments, and a JSON form.

use std::borrow::Cow;

use flatbuffers::{FlatBufferBuilder, WIPOffset};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{json, Value as Json};

use crate::decode_common::{scalars, string, tables};
use crate::fenced::{bp, create_aligned_bytes, BpScalarType};
use crate::limits::Limits;
use crate::{Bytes, ScalarType};
use pte_core::{Error, ErrorKind, Result};

mod view;
pub use view::{BundledView, CaseView, Side, SuiteView};

/// The four identifier bytes of a bundled program.
pub const BUNDLED_PROGRAM_IDENTIFIER: &[u8; 4] = b"BP08";
/// The schema version current exporters write.
pub const BUNDLED_PROGRAM_VERSION: u32 = 2;
/// Alignment of the embedded program's first byte (the schema's `force_align`).
pub const PROGRAM_ALIGNMENT: u32 = 32;
/// Alignment of every tensor's data (the schema's `force_align`).
pub const TENSOR_DATA_ALIGNMENT: u32 = 16;

/// Root table of a `.bpte`.
///
/// ```
/// use pte_schema::bundled::*;
/// let b = BundledProgram { version: 2, method_test_suites: Some(vec![]), program: Some(b"program bytes"[..].into()) };
/// let bytes = encode_bundled_program(&b)?;
/// assert_eq!(decode_bundled_program(&bytes, &Default::default())?, b);
/// # Ok::<(), pte_schema::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct BundledProgram<'a> {
    /// Schema version ([`BUNDLED_PROGRAM_VERSION`]; the runtime ignores it).
    pub version: u32,
    /// One suite per tested method.
    pub method_test_suites: Option<Vec<TestSuite<'a>>>,
    /// The complete embedded `.pte` file.
    pub program: Option<Bytes<'a>>,
}

/// The test cases of one method.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TestSuite<'a> {
    /// The method tested.
    pub method_name: Option<String>,
    /// Its cases.
    pub test_cases: Option<Vec<TestCase<'a>>>,
}

/// One call: inputs and the outputs they must produce.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct TestCase<'a> {
    /// Inputs, in the method's input order.
    pub inputs: Option<Vec<BundledValue<'a>>>,
    /// Expected outputs, in the method's output order.
    pub expected_outputs: Option<Vec<BundledValue<'a>>>,
}

/// A test-case value (`Value.val`).
///
/// ```
/// use pte_schema::bundled::BundledValue;
/// assert_eq!(BundledValue::Double(f64::NAN), BundledValue::Double(f64::NAN));
/// assert_eq!(BundledValue::None.kind(), "none");
/// ```
#[derive(Clone, Debug)]
pub enum BundledValue<'a> {
    /// The union is empty (the runtime refuses it as an input).
    None,
    /// A tensor.
    Tensor(BundledTensor<'a>),
    /// `Int.int_val`.
    Int(i64),
    /// `Bool.bool_val`.
    Bool(bool),
    /// `Double.double_val`; compared by bit pattern so NaN payloads round-trip.
    Double(f64),
}

impl PartialEq for BundledValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::None, Self::None) => true,
            (Self::Tensor(a), Self::Tensor(b)) => a == b,
            (Self::Int(a), Self::Int(b)) => a == b,
            (Self::Bool(a), Self::Bool(b)) => a == b,
            (Self::Double(a), Self::Double(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}

impl BundledValue<'_> {
    /// The union member's name in lower case (`tensor`, `int`, `bool`, `double`, `none`).
    ///
    /// ```
    /// assert_eq!(pte_schema::bundled::BundledValue::Int(1).kind(), "int");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Tensor(_) => "tensor",
            Self::Int(_) => "int",
            Self::Bool(_) => "bool",
            Self::Double(_) => "double",
        }
    }
}

/// A tensor value: the runtime points a tensor straight at these fields.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct BundledTensor<'a> {
    /// Element type (unknown values kept).
    pub scalar_type: ScalarType,
    /// Sizes.
    pub sizes: Option<Vec<i32>>,
    /// Contents (written 16-byte aligned).
    pub data: Option<Bytes<'a>>,
    /// Dimension order.
    pub dim_order: Option<Vec<u8>>,
}

impl BundledTensor<'_> {
    /// `numel × element size`, `None` when sizes are absent, negative,
    /// overflowing or the dtype unknown.
    ///
    /// ```
    /// let t = pte_schema::bundled::BundledTensor { scalar_type: pte_schema::ScalarType::FLOAT, sizes: Some(vec![2, 3]), ..Default::default() };
    /// assert_eq!(t.nbytes(), Some(24));
    /// ```
    pub fn nbytes(&self) -> Option<u64> {
        let numel = self.sizes.as_ref()?.iter().try_fold(1u64, |a, &s| a.checked_mul(u64::try_from(s).ok()?))?;
        numel.checked_mul(self.scalar_type.element_size()?)
    }
}

impl BundledProgram<'_> {
    /// Copies every borrowed byte.
    ///
    /// ```
    /// let b: pte_schema::bundled::BundledProgram<'static> = Default::default();
    /// assert_eq!(b.into_owned().version, 0);
    /// ```
    pub fn into_owned(self) -> BundledProgram<'static> {
        let owned = |b: Bytes<'_>| -> Bytes<'static> { Cow::Owned(b.into_owned()) };
        let value = |v: BundledValue<'_>| -> BundledValue<'static> {
            match v {
                BundledValue::None => BundledValue::None,
                BundledValue::Tensor(t) => BundledValue::Tensor(BundledTensor {
                    scalar_type: t.scalar_type,
                    sizes: t.sizes,
                    data: t.data.map(owned),
                    dim_order: t.dim_order,
                }),
                BundledValue::Int(i) => BundledValue::Int(i),
                BundledValue::Bool(b) => BundledValue::Bool(b),
                BundledValue::Double(d) => BundledValue::Double(d),
            }
        };
        let values = |v: Option<Vec<BundledValue<'_>>>| v.map(|v| v.into_iter().map(value).collect());
        BundledProgram {
            version: self.version,
            method_test_suites: self.method_test_suites.map(|s| {
                s.into_iter()
                    .map(|s| TestSuite {
                        method_name: s.method_name,
                        test_cases: s.test_cases.map(|c| {
                            c.into_iter()
                                .map(|c| TestCase {
                                    inputs: values(c.inputs),
                                    expected_outputs: values(c.expected_outputs),
                                })
                                .collect()
                        }),
                    })
                    .collect()
            }),
            program: self.program.map(owned),
        }
    }
}

/// Verifies and decodes a bundled program; the embedded program and tensor
/// data borrow from `buf`. The identifier must be `BP08`; an unknown union
/// tag is [`ErrorKind::Unsupported`] (its table cannot be kept).
///
/// ```
/// let e = pte_schema::bundled::decode_bundled_program(b"\x08\0\0\0ET12\0\0\0\0", &Default::default()).unwrap_err();
/// assert_eq!(e.offset(), Some(4));
/// ```
pub fn decode_bundled_program<'a>(buf: &'a [u8], limits: &Limits) -> Result<BundledProgram<'a>> {
    let root = BundledView::new(buf, limits)?.root;
    Ok(BundledProgram {
        version: root.version(),
        method_test_suites: tables(root.method_test_suites(), |i, s| {
            Ok(TestSuite {
                method_name: string(s.method_name()),
                test_cases: tables(s.test_cases(), |j, c| {
                    let path = |side, k| view::value_path(i, j, side, k);
                    Ok(TestCase {
                        inputs: tables(c.inputs(), |k, v| value(v, || path(Side::Inputs, k)))?,
                        expected_outputs: tables(c.expected_outputs(), |k, v| {
                            value(v, || path(Side::ExpectedOutputs, k))
                        })?,
                    })
                })?,
            })
        })?,
        program: root.program().map(|p| Cow::Borrowed(p.bytes())),
    })
}

fn value<'a>(v: bp::Value<'a>, path: impl Fn() -> String) -> Result<BundledValue<'a>> {
    Ok(match v.val_type() {
        bp::ValueUnion::NONE => BundledValue::None,
        bp::ValueUnion::Tensor => match v.val_as_tensor() {
            Some(t) => BundledValue::Tensor(BundledTensor {
                scalar_type: ScalarType(t.scalar_type().0),
                sizes: scalars(t.sizes()),
                data: t.data().map(|d| Cow::Borrowed(d.bytes())),
                dim_order: t.dim_order().map(|d| d.bytes().to_vec()),
            }),
            None => return Err(missing(path())),
        },
        bp::ValueUnion::Int => BundledValue::Int(v.val_as_int().ok_or_else(|| missing(path()))?.int_val()),
        bp::ValueUnion::Bool => BundledValue::Bool(v.val_as_bool().ok_or_else(|| missing(path()))?.bool_val()),
        bp::ValueUnion::Double => BundledValue::Double(v.val_as_double().ok_or_else(|| missing(path()))?.double_val()),
        other => {
            return Err(Error::new(ErrorKind::Unsupported, format!("unknown union tag {}", other.0))
                .at_path(format!("{}.val_type", path()))
                .at_offset(v._tab.loc() as u64))
        }
    })
}

fn missing(path: String) -> Error {
    Error::new(ErrorKind::Malformed, "union tag set but its table is absent").at_path(format!("{path}.val"))
}

/// Bytes the encoded flatbuffer needs, an upper estimate.
fn estimate(b: &BundledProgram<'_>) -> u64 {
    let value = |v: &BundledValue<'_>| -> u64 {
        match v {
            BundledValue::Tensor(t) => (t.sizes.as_ref().map_or(0, |s| s.len() as u64).saturating_mul(4))
                .saturating_add(t.data.as_ref().map_or(0, |d| d.len() as u64))
                .saturating_add(t.dim_order.as_ref().map_or(0, |d| d.len() as u64))
                .saturating_add(96),
            _ => 48,
        }
    };
    let suites = b.method_test_suites.iter().flatten().map(|s| {
        let cases = s.test_cases.iter().flatten().map(|c| {
            c.inputs.iter().chain(c.expected_outputs.iter()).flatten().map(value).fold(32u64, u64::saturating_add)
        });
        cases.fold(s.method_name.as_ref().map_or(0, |n| n.len() as u64).saturating_add(32), u64::saturating_add)
    });
    suites.fold(b.program.as_ref().map_or(0, |p| p.len() as u64).saturating_add(128), u64::saturating_add)
}

/// Encodes a finished `BP08` flatbuffer: the program's data 32-byte aligned
/// and every tensor's data 16-byte aligned from the buffer start.
///
/// ```
/// use pte_schema::bundled::*;
/// let b = BundledProgram { program: Some(vec![1u8; 40].into()), ..Default::default() };
/// let bytes = encode_bundled_program(&b)?;
/// assert_eq!(&bytes[4..8], b"BP08");
/// let again = decode_bundled_program(&bytes, &Default::default())?;
/// let start = again.program.unwrap().as_ptr() as usize - bytes.as_ptr() as usize;
/// assert_eq!(start % 32, 0);
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn encode_bundled_program(b: &BundledProgram<'_>) -> Result<Vec<u8>> {
    if estimate(b) > crate::MAX_FLATBUFFER_SIZE {
        return Err(Error::new(ErrorKind::LimitExceeded, "bundled program flatbuffer would exceed 2 GiB"));
    }
    let mut fbb = FlatBufferBuilder::new();
    // The program goes in first so it sits at the end of the buffer, after
    // the small tables, as exir's writer places it.
    let program = b.program.as_deref().map(|p| create_aligned_bytes(&mut fbb, p, PROGRAM_ALIGNMENT));
    let suites = b.method_test_suites.as_ref().map(|suites| {
        let offs: Vec<_> = suites
            .iter()
            .map(|s| {
                let cases = s.test_cases.as_ref().map(|cases| {
                    let offs: Vec<_> = cases
                        .iter()
                        .map(|c| {
                            let inputs = c.inputs.as_ref().map(|v| values(&mut fbb, v));
                            let expected_outputs = c.expected_outputs.as_ref().map(|v| values(&mut fbb, v));
                            bp::BundledMethodTestCase::create(
                                &mut fbb,
                                &bp::BundledMethodTestCaseArgs { inputs, expected_outputs },
                            )
                        })
                        .collect();
                    fbb.create_vector(&offs)
                });
                let method_name = s.method_name.as_deref().map(|n| fbb.create_string(n));
                bp::BundledMethodTestSuite::create(
                    &mut fbb,
                    &bp::BundledMethodTestSuiteArgs { method_name, test_cases: cases },
                )
            })
            .collect();
        fbb.create_vector(&offs)
    });
    let root = bp::BundledProgram::create(
        &mut fbb,
        &bp::BundledProgramArgs { version: b.version, method_test_suites: suites, program },
    );
    fbb.finish(root, Some("BP08"));
    Ok(fbb.finished_data().to_vec())
}

type ValueVector<'fbb> = WIPOffset<flatbuffers::Vector<'fbb, flatbuffers::ForwardsUOffset<bp::Value<'fbb>>>>;

fn values<'fbb>(fbb: &mut FlatBufferBuilder<'fbb>, vs: &[BundledValue<'_>]) -> ValueVector<'fbb> {
    let offs: Vec<_> = vs
        .iter()
        .map(|v| {
            let (val_type, val) = match v {
                BundledValue::None => (bp::ValueUnion::NONE, None),
                BundledValue::Tensor(t) => {
                    let data = t.data.as_deref().map(|d| create_aligned_bytes(fbb, d, TENSOR_DATA_ALIGNMENT));
                    let sizes = t.sizes.as_deref().map(|s| fbb.create_vector(s));
                    let dim_order = t.dim_order.as_deref().map(|d| fbb.create_vector(d));
                    let off = bp::Tensor::create(
                        fbb,
                        &bp::TensorArgs { scalar_type: BpScalarType(t.scalar_type.0), sizes, data, dim_order },
                    );
                    (bp::ValueUnion::Tensor, Some(off.as_union_value()))
                }
                BundledValue::Int(i) => {
                    (bp::ValueUnion::Int, Some(bp::Int::create(fbb, &bp::IntArgs { int_val: *i }).as_union_value()))
                }
                BundledValue::Bool(x) => {
                    (bp::ValueUnion::Bool, Some(bp::Bool::create(fbb, &bp::BoolArgs { bool_val: *x }).as_union_value()))
                }
                BundledValue::Double(d) => (
                    bp::ValueUnion::Double,
                    Some(bp::Double::create(fbb, &bp::DoubleArgs { double_val: *d }).as_union_value()),
                ),
            };
            bp::Value::create(fbb, &bp::ValueArgs { val_type, val })
        })
        .collect();
    fbb.create_vector(&offs)
}

/// A JSON form of a bundled program in flatc's shape (union tags by name,
/// byte vectors as integer arrays), except that the embedded program is
/// summarised as `{"size": N}`: `pte dump` of the program itself shows it.
///
/// ```
/// let v = pte_schema::bundled::bundled_program_to_json(&Default::default());
/// assert_eq!(v["version"], 0);
/// ```
pub fn bundled_program_to_json(b: &BundledProgram<'_>) -> Json {
    serde_json::to_value(BundledJson(b)).unwrap_or(Json::Null)
}

/// Writes [`bundled_program_to_json`]'s document to `w`, pretty-printed and
/// without building it: a bundle of many cases and large tensors costs no
/// more memory than its decoded model.
///
/// ```
/// let mut out = Vec::new();
/// pte_schema::bundled::write_bundled_program_json(&Default::default(), &mut out)?;
/// let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
/// assert_eq!(v, pte_schema::bundled::bundled_program_to_json(&Default::default()));
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn write_bundled_program_json(b: &BundledProgram<'_>, w: impl std::io::Write) -> Result<()> {
    serde_json::to_writer_pretty(w, &BundledJson(b))
        .map_err(|e| Error::new(ErrorKind::Io, format!("writing the bundle's JSON: {e}")))
}

/// The JSON document of a bundle, serialized as it is walked. Keys are in
/// sorted order, as a `serde_json::Value` object writes them.
struct BundledJson<'b, 'a>(&'b BundledProgram<'a>);

impl Serialize for BundledJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let b = self.0;
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("method_test_suites", &b.method_test_suites.as_deref().map(|v| Each(v, SuiteJson)))?;
        m.serialize_entry("program", &b.program.as_ref().map(|p| json!({"size": p.len()})))?;
        m.serialize_entry("version", &b.version)?;
        m.end()
    }
}

/// A slice serialized element by element, each through `wrap`.
struct Each<'s, T, W>(&'s [T], fn(&'s T) -> W);

impl<'s, T, W: Serialize> Serialize for Each<'s, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

struct SuiteJson<'s, 'a>(&'s TestSuite<'a>);

impl Serialize for SuiteJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("method_name", &self.0.method_name)?;
        m.serialize_entry("test_cases", &self.0.test_cases.as_deref().map(|v| Each(v, CaseJson)))?;
        m.end()
    }
}

struct CaseJson<'s, 'a>(&'s TestCase<'a>);

impl Serialize for CaseJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("expected_outputs", &self.0.expected_outputs.as_deref().map(|v| Each(v, ValueJson)))?;
        m.serialize_entry("inputs", &self.0.inputs.as_deref().map(|v| Each(v, ValueJson)))?;
        m.end()
    }
}

struct ValueJson<'s, 'a>(&'s BundledValue<'a>);

impl Serialize for ValueJson<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let (val, kind) = match self.0 {
            BundledValue::None => {
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("val_type", "NONE")?;
                return m.end();
            }
            BundledValue::Tensor(t) => (Scalar::Tensor(t), "Tensor"),
            BundledValue::Int(i) => (Scalar::Json(json!({"int_val": i})), "Int"),
            BundledValue::Bool(x) => (Scalar::Json(json!({"bool_val": x})), "Bool"),
            BundledValue::Double(d) => {
                let d = if d.is_finite() { json!(d) } else { json!(d.to_string()) };
                (Scalar::Json(json!({ "double_val": d })), "Double")
            }
        };
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("val", &val)?;
        m.serialize_entry("val_type", kind)?;
        m.end()
    }
}

/// A value's `val`: a tensor's bytes are written straight from the file.
enum Scalar<'s, 'a> {
    Tensor(&'s BundledTensor<'a>),
    Json(Json),
}

impl Serialize for Scalar<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let t = match self {
            Scalar::Json(v) => return v.serialize(s),
            Scalar::Tensor(t) => t,
        };
        let mut m = s.serialize_map(Some(4))?;
        m.serialize_entry("data", &t.data.as_deref())?;
        m.serialize_entry("dim_order", &t.dim_order)?;
        match t.scalar_type.name() {
            Some(n) => m.serialize_entry("scalar_type", n)?,
            None => m.serialize_entry("scalar_type", &t.scalar_type.0)?,
        }
        m.serialize_entry("sizes", &t.sizes)?;
        m.end()
    }
}
