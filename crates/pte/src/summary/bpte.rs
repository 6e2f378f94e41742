//! The summary of a `.bpte` bundled program: the embedded program's
//! [`Summary`] and every test case, what `pte info --json` prints.
//!
//! A bundle may hold hundreds of thousands of cases: they are read from the
//! bundle in place and serialized one at a time, never held.

use serde::ser::{Serialize, SerializeMap, Serializer};

use pte_file::bpte::BundledFile;
use pte_file::view::SegmentTable;
use pte_schema::bundled::{BundledValue, BundledView, CaseView, Side, SuiteView};

use crate::summary::{Seq, Summary, SummaryOptions};
use crate::Result;

/// The summary of a `.bpte`; serialized, the object `pte info --json`
/// prints (the cases written as they are read).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// let s = pte::BpteSummary::read(&bytes, None)?;
/// assert_eq!(s.program_size(), s.program().view().bytes().len());
/// let v = serde_json::to_value(&s)?;
/// assert_eq!(v["format"], "bpte");
/// assert_eq!(v["program"]["format"], "pte");
/// assert!(v["test_suites"][0]["cases"][0]["inputs"].is_array());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct BpteSummary<'a> {
    bytes: &'a [u8],
    view: BundledView<'a>,
    program: Summary<'a>,
}

impl std::fmt::Debug for BpteSummary<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BpteSummary").field("file_size", &self.bytes.len()).finish_non_exhaustive()
    }
}

impl<'a> BpteSummary<'a> {
    /// Checks `bytes` as a bundled program (as `BundledFile::from_bytes`
    /// does, without decoding it) and summarises it; the embedded program
    /// follows its whole segment table, and `path`, where the bundle was
    /// read from, is searched for `.ptd` files as a program's is.
    ///
    /// ```
    /// assert!(pte::BpteSummary::read(b"nonsense", None).is_err());
    /// ```
    pub fn read(bytes: &'a [u8], path: Option<&std::path::Path>) -> Result<Self> {
        BundledFile::check(bytes)?;
        let view = BundledView::new(bytes, &pte_file::ReadOptions::default().limits)?;
        let options = SummaryOptions { table: SegmentTable::Whole, tensors: false, path };
        let program = Summary::read(view.program().unwrap_or_default(), &options).map_err(|e| e.within("program"))?;
        Ok(BpteSummary { bytes, view, program })
    }

    /// The embedded program's summary.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let s = pte::BpteSummary::read(&bytes, None)?;
    /// assert!(s.program().view().program().plan_count() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn program(&self) -> &Summary<'a> {
        &self.program
    }

    /// The bundle read in place, to walk its suites.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let s = pte::BpteSummary::read(&bytes, None)?;
    /// assert!(s.view().suite_count() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view(&self) -> &BundledView<'a> {
        &self.view
    }

    /// The bundle's size in bytes.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// assert_eq!(pte::BpteSummary::read(&bytes, None)?.file_size(), bytes.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn file_size(&self) -> usize {
        self.bytes.len()
    }

    /// The schema version the bundle states.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let _version: u32 = pte::BpteSummary::read(&bytes, None)?.version();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn version(&self) -> u32 {
        self.view.version()
    }

    /// Where the embedded program starts in the bundle.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let s = pte::BpteSummary::read(&bytes, None)?;
    /// let at = s.program_offset().unwrap();
    /// assert_eq!(&bytes[at + 4..at + 8], b"ET12");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn program_offset(&self) -> Option<usize> {
        let embedded = self.program.view().bytes();
        (embedded.as_ptr() as usize).checked_sub(self.bytes.as_ptr() as usize)
    }

    /// The embedded program's size.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// assert!(pte::BpteSummary::read(&bytes, None)?.program_size() > 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn program_size(&self) -> usize {
        self.program.view().bytes().len()
    }
}

impl Serialize for BpteSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        // keys in the order a JSON tree sorts them
        let mut m = s.serialize_map(Some(7))?;
        m.serialize_entry("file_size", &self.file_size())?;
        m.serialize_entry("format", "bpte")?;
        m.serialize_entry("program", &self.program)?;
        m.serialize_entry("program_offset", &self.program_offset())?;
        m.serialize_entry("program_size", &self.program_size())?;
        m.serialize_entry("test_suites", &Suites(self.view))?;
        m.serialize_entry("version", &self.version())?;
        m.end()
    }
}

/// One input or expected output of a case, as `pte info` shows it.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
/// use pte_schema::bundled::Side;
/// let s = pte::BpteSummary::read(&bytes, None)?;
/// let case = s.view().suites().next().unwrap().cases().next().unwrap();
/// let first = case.values(Side::Inputs).unwrap().next().unwrap()?;
/// assert!(matches!(pte::CaseValue::of(&first), pte::CaseValue::Tensor { .. }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum CaseValue<'v> {
    /// A tensor.
    Tensor {
        /// Element type as the schema names it (`ScalarType(N)` for an unknown one).
        dtype: String,
        /// Dimension sizes.
        sizes: Option<&'v [i32]>,
        /// Dimension order.
        dim_order: Option<&'v [u8]>,
        /// Bytes stored.
        nbytes: Option<usize>,
        /// Its first elements, as the samples show them (none when its
        /// bytes do not match its dtype and sizes).
        preview: Option<String>,
    },
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A double, as text: JSON has no NaN or infinity.
    Double(String),
    /// No value.
    None,
}

impl<'v> CaseValue<'v> {
    /// The row of one value read from the bundle.
    ///
    /// ```
    /// use pte_schema::bundled::BundledValue;
    /// assert_eq!(pte::CaseValue::of(&BundledValue::Int(3)), pte::CaseValue::Int(3));
    /// ```
    pub fn of(v: &'v BundledValue<'_>) -> CaseValue<'v> {
        match v {
            BundledValue::Tensor(t) => {
                let preview = pte_samples::dtype_of(t.scalar_type).and_then(|d| {
                    let shape = t.sizes.as_ref()?.iter().map(|&s| u64::try_from(s).ok()).collect::<Option<Vec<_>>>()?;
                    let pt = pte_ptn::PtnTensor::new(d, shape, t.data.as_deref().unwrap_or(&[])).ok()?;
                    Some(pte_samples::tensor_preview(&pt, 8))
                });
                CaseValue::Tensor {
                    dtype: t
                        .scalar_type
                        .name()
                        .map_or_else(|| format!("ScalarType({})", t.scalar_type.0), str::to_string),
                    sizes: t.sizes.as_deref(),
                    dim_order: t.dim_order.as_deref(),
                    nbytes: t.data.as_ref().map(|d| d.len()),
                    preview,
                }
            }
            BundledValue::Int(i) => CaseValue::Int(*i),
            BundledValue::Bool(b) => CaseValue::Bool(*b),
            BundledValue::Double(d) => CaseValue::Double(d.to_string()),
            BundledValue::None => CaseValue::None,
        }
    }
}

impl Serialize for CaseValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        // keys in the order a JSON tree sorts them
        let mut m = s.serialize_map(None)?;
        match self {
            CaseValue::Tensor { dtype, sizes, dim_order, nbytes, preview } => {
                m.serialize_entry("dim_order", dim_order)?;
                m.serialize_entry("dtype", dtype)?;
                m.serialize_entry("kind", "tensor")?;
                m.serialize_entry("nbytes", nbytes)?;
                m.serialize_entry("preview", preview)?;
                m.serialize_entry("sizes", sizes)?;
            }
            CaseValue::Int(i) => {
                m.serialize_entry("kind", "int")?;
                m.serialize_entry("value", i)?;
            }
            CaseValue::Bool(b) => {
                m.serialize_entry("kind", "bool")?;
                m.serialize_entry("value", b)?;
            }
            CaseValue::Double(d) => {
                m.serialize_entry("kind", "double")?;
                m.serialize_entry("value", d)?;
            }
            CaseValue::None => m.serialize_entry("kind", "none")?,
        }
        m.end()
    }
}

/// One value read from the view; a read error ends the serialization.
struct ValueJson<'a>(pte_schema::Result<BundledValue<'a>>);

impl Serialize for ValueJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match &self.0 {
            Ok(v) => CaseValue::of(v).serialize(s),
            Err(e) => Err(serde::ser::Error::custom(e)),
        }
    }
}

/// One case.
struct CaseJson<'a>(CaseView<'a>);

impl Serialize for CaseJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let side = |side| move || self.0.values(side).into_iter().flatten().map(ValueJson);
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("expected_outputs", &Seq(side(Side::ExpectedOutputs)))?;
        m.serialize_entry("inputs", &Seq(side(Side::Inputs)))?;
        m.end()
    }
}

/// Every suite, written a case at a time.
#[derive(Clone, Copy)]
struct Suites<'a>(BundledView<'a>);

impl Serialize for Suites<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.suites().map(SuiteJson))
    }
}

/// One suite.
struct SuiteJson<'a>(SuiteView<'a>);

impl Serialize for SuiteJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("cases", &Seq(|| self.0.cases().map(CaseJson)))?;
        m.serialize_entry("method", &self.0.method_name())?;
        m.end()
    }
}
