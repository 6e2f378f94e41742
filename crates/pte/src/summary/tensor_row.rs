//! One entry of a program's tensor table, typed: `pte info --tensors`
//! prints hundreds of thousands of them, so each is built once as plain
//! fields and written straight to text or JSON, never through a
//! `serde_json::Value` map.

use serde::ser::{Serialize, SerializeMap, Serializer};

/// One entry of [`crate::Summary::tensors`]: a constant, mutable buffer,
/// EXTERNAL or planned tensor of the program, or a named-data key.
///
/// Serialized, it is the object `pte info --json` lists under `tensors`,
/// keys in alphabetical order; a named-data row has no `data_buffer_idx`,
/// `device`, `dim_order`, `dynamism` or `nbytes`.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let options = pte::SummaryOptions { tensors: true, ..Default::default() };
/// let summary = pte::Summary::read(&bytes, &options)?;
/// let row = summary.tensors(false).next().unwrap();
/// assert_eq!((row.storage, row.dtype.as_deref()), ("constant", Some("FLOAT")));
/// assert!(row.file_range.is_some() && row.facts.is_some());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TensorRow {
    /// Its fully qualified name, key, or a name made from where it is.
    pub name: String,
    /// Whether the program (or the named-data table) names it.
    pub named: bool,
    /// `constant`, `mutable`, `external` or `named`.
    pub storage: &'static str,
    /// Element type as the schema names it; none for a named blob no
    /// payload describes.
    pub dtype: Option<String>,
    /// Dimension sizes (for a named blob, as a delegate payload gives
    /// them); none where unknown.
    pub sizes: Option<Vec<i64>>,
    /// The segment its bytes are in.
    pub segment: Option<u32>,
    /// Its bytes in the file, `[start, end)`.
    pub file_range: Option<[u64; 2]>,
    /// How many bytes are stored for it (none for planned and EXTERNAL
    /// tensors).
    pub stored: Option<u64>,
    /// The values that name it: (method, value index).
    pub users: Vec<(String, u32)>,
    /// What the program's tensor says beyond the above; none for a
    /// named-data row.
    pub facts: Option<TensorFacts>,
}

/// The fields of a [`TensorRow`] that only a program tensor has.
///
/// ```
/// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// # let options = pte::SummaryOptions { tensors: true, ..Default::default() };
/// # let summary = pte::Summary::read(&bytes, &options)?;
/// let facts = summary.tensors(false).next().unwrap().facts.unwrap();
/// assert_eq!((facts.dynamism.as_str(), facts.device.as_str()), ("STATIC", "CPU"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TensorFacts {
    /// `data_buffer_idx` as stored.
    pub data_buffer_idx: u32,
    /// The device it is placed on (`CPU` unless stated).
    pub device: String,
    /// Dimension order.
    pub dim_order: Vec<u8>,
    /// `STATIC`, `DYNAMIC_BOUND` or `DYNAMIC_UNBOUND`.
    pub dynamism: String,
    /// Bytes its dtype and sizes make; none when they do not give a size.
    pub nbytes: Option<u64>,
}

/// `{"method", "value"}` of one user.
struct User<'r>(&'r (String, u32));

impl Serialize for User<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("method", &self.0 .0)?;
        map.serialize_entry("value", &self.0 .1)?;
        map.end()
    }
}

struct Users<'r>(&'r [(String, u32)]);

impl Serialize for Users<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(User))
    }
}

impl Serialize for TensorRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // alphabetical, as a `serde_json::Value` object orders its keys
        let f = self.facts.as_ref();
        let mut map = s.serialize_map(None)?;
        if let Some(f) = f {
            map.serialize_entry("data_buffer_idx", &f.data_buffer_idx)?;
            map.serialize_entry("device", &f.device)?;
            map.serialize_entry("dim_order", &f.dim_order)?;
        }
        map.serialize_entry("dtype", &self.dtype)?;
        if let Some(f) = f {
            map.serialize_entry("dynamism", &f.dynamism)?;
        }
        map.serialize_entry("file_range", &self.file_range)?;
        map.serialize_entry("name", &self.name)?;
        map.serialize_entry("named", &self.named)?;
        if let Some(f) = f {
            map.serialize_entry("nbytes", &f.nbytes)?;
        }
        map.serialize_entry("segment", &self.segment)?;
        map.serialize_entry("sizes", &self.sizes)?;
        map.serialize_entry("storage", self.storage)?;
        map.serialize_entry("stored", &self.stored)?;
        map.serialize_entry("users", &Users(&self.users))?;
        map.end()
    }
}
