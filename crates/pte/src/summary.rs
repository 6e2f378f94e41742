//! The summary of a `.pte`: what `pte info --json` prints and Python's
//! `Program.summary()` returns, one type for both.
//!
//! A [`Summary`] is built over a [`PteView`], the verified program read in
//! place: no model is decoded. What it aggregates (methods, delegates,
//! header) is held; every list that grows with the file (segments,
//! constants, mutable buffers, named data, the tensor table) is read from
//! the view as it is serialized, one entry at a time, so serializing a
//! program of a million values to a writer takes no more memory than the
//! few tables [`PteView`] documents.

use std::collections::BTreeMap;
use std::path::Path;

use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;

use pte_core::FileKind;
use pte_file::ptd::PtdFile;
use pte_file::view::{EntryKind, KnownValues, PteView, SegmentTable, SubBuffers, TensorUse};
use pte_file::{tensor_label, Unnamed};
use pte_schema::DeviceType;

use crate::Result;

mod bpte;
mod program;
mod ptd;
mod ptn;
mod tensor_row;

pub use bpte::{BpteSummary, CaseValue};
pub use program::{
    type_name, ConstantRow, DelegateRow, DeviceRow, ExternalGroup, HeaderRow, IoRow, MethodRow, MutableRow, NamedRow,
    PayloadRow, ProgramHead, SegmentRow, TensorHead,
};
pub use ptd::{PtdHeader, PtdKey, PtdLayout, PtdSegment, PtdSummary, PtdTensor};
pub use ptn::{PtnConstant, PtnDim, PtnMember, PtnMethod, PtnSignature, PtnSummary, PtnTensorRow, PtnValue};
pub use tensor_row::{TensorFacts, TensorRow};

/// The summary of any ExecuTorch file: what `pte info --json` prints for
/// it, one variant per kind. Serialized, each variant is its kind's object
/// (`format` tells them apart).
///
/// ```
/// let file = pte::open(pte_testkit::corpus("native_ptn/model.ptn"))?;
/// let summary = file.summary(&Default::default())?;
/// assert!(matches!(summary, pte::FileSummary::Ptn(_)));
/// assert_eq!(serde_json::to_value(&summary)?["format"], "ptn");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum FileSummary<'a> {
    /// A `.pte` program.
    Pte(Summary<'a>),
    /// A `.ptd` tensor-data file.
    Ptd(PtdSummary),
    /// A `.ptn` package.
    Ptn(PtnSummary),
    /// A `.bpte` bundled program.
    Bpte(BpteSummary<'a>),
}

impl<'a> FileSummary<'a> {
    /// Summarises `bytes` read as `kind`: a `.pte` with `options`, a
    /// `.ptd` or `.ptn` with its tensor table when `options.tensors`, a
    /// `.bpte` with its embedded program following its whole segment table
    /// and `options.path` searched for `.ptd` files. Fails where the kind's
    /// reader fails, and for a kind that is no ExecuTorch file.
    ///
    /// ```
    /// use pte_core::FileKind;
    /// let bytes = std::fs::read(pte_testkit::corpus("bundled/model.bpte"))?;
    /// let s = pte::FileSummary::read(FileKind::Bpte, &bytes, &Default::default())?;
    /// assert_eq!(serde_json::to_value(&s)?["format"], "bpte");
    /// assert!(pte::FileSummary::read(FileKind::Unknown, &bytes, &Default::default()).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(kind: FileKind, bytes: &'a [u8], options: &SummaryOptions<'_>) -> Result<Self> {
        Ok(match kind {
            FileKind::Pte => FileSummary::Pte(Summary::read(bytes, options)?),
            FileKind::Ptd => FileSummary::Ptd(PtdSummary::read(bytes, options.tensors)?),
            FileKind::Ptn => FileSummary::Ptn(PtnSummary::read(bytes, options.tensors)?),
            FileKind::Bpte => FileSummary::Bpte(BpteSummary::read(bytes, options.path)?),
            // Unknown's phrase is "not an ExecuTorch file"
            other => return Err(pte_core::Error::new(pte_core::ErrorKind::Unsupported, other.to_string())),
        })
    }
}

impl Serialize for FileSummary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            FileSummary::Pte(x) => x.serialize(s),
            FileSummary::Ptd(x) => x.serialize(s),
            FileSummary::Ptn(x) => x.serialize(s),
            FileSummary::Bpte(x) => x.serialize(s),
        }
    }
}

/// How a [`Summary`] is read.
///
/// ```
/// let o = pte::SummaryOptions::default();
/// assert_eq!(o.table, pte_file::view::SegmentTable::Referenced);
/// assert!(!o.tensors && o.path.is_none());
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SummaryOptions<'p> {
    /// Which segment list it follows (`pte info FILE` follows the
    /// referenced segments, a batch the whole table; they differ only on a
    /// program whose table lists segments none of its parts uses).
    pub table: SegmentTable,
    /// Whether to list the tensor table (`tensors`, as `pte info --tensors`).
    pub tensors: bool,
    /// Where the program was read from: the `.ptd` files beside it are
    /// searched for its EXTERNAL tensors (`external_data`). Without a path
    /// no file is searched.
    pub path: Option<&'p Path>,
}

/// The summary of one `.pte`, serialized as `pte info --json` prints it.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let summary = pte::Summary::read(&bytes, &Default::default())?;
/// let v = summary.to_value();
/// assert_eq!(v["format"], "pte");
/// assert_eq!(v["methods"][0]["name"], "forward");
/// assert_eq!(v["constants"].as_array().map(Vec::len), Some(3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Summary<'a> {
    view: PteView<'a>,
    /// What is aggregated; the lists that grow with the file are read from
    /// `view` row by row.
    head: ProgramHead,
    constants: Option<SubBuffers<'a>>,
    mutable: Option<Vec<SubBuffers<'a>>>,
    users: BTreeMap<u32, Vec<String>>,
    /// The tensor table's entries (when asked for).
    uses: Option<Vec<TensorUse>>,
    methods: Vec<String>,
}

impl std::fmt::Debug for Summary<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Summary").field("view", &self.view).field("tensors", &self.uses.is_some()).finish()
    }
}

impl<'a> Summary<'a> {
    /// Verifies `bytes` as a program and summarises it; fails where
    /// `pte_file::PteFile::from_bytes` fails.
    ///
    /// ```
    /// assert!(pte::Summary::read(b"nonsense", &Default::default()).is_err());
    /// ```
    pub fn read(bytes: &'a [u8], options: &SummaryOptions<'_>) -> Result<Self> {
        Ok(Summary::new(PteView::read(bytes, options.table)?, options))
    }

    /// The summary of a program already read (`options.table` is the view's).
    ///
    /// ```
    /// use pte_file::view::{PteView, SegmentTable};
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let options = pte::SummaryOptions { tensors: true, ..Default::default() };
    /// let summary = pte::Summary::new(PteView::read(&bytes, SegmentTable::Referenced)?, &options);
    /// assert_eq!(summary.tensors(true).count(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(view: PteView<'a>, options: &SummaryOptions<'_>) -> Self {
        Summary::with_known(view, options, None)
    }

    /// [`Summary::new`] given what a walk over the program's values already
    /// read (`pte_verify::Verified::known_values`, which
    /// [`verify_as_viewed`](crate::verify_as_viewed) returns): the values
    /// are then passed over only for what it leaves open. The summary is
    /// the same.
    ///
    /// ```
    /// use pte_file::view::{PteView, SegmentTable};
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let (_, verified) = pte::verify_as_viewed(pte_core::FileKind::Pte, &bytes, &[])?;
    /// let verified = verified.unwrap();
    /// let view = || PteView::read_verified(&bytes, *verified.view(), SegmentTable::Referenced);
    /// let options = Default::default();
    /// let known = pte::Summary::with_known(view()?, &options, verified.known_values());
    /// assert_eq!(known.to_value(), pte::Summary::new(view()?, &options).to_value());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_known(view: PteView<'a>, options: &SummaryOptions<'_>, known: Option<KnownValues>) -> Self {
        // one pass over the values at most, for both
        let (constants, names) = view.constants_and_external_names_known(known);
        let mutable = view.mutable_segments();
        let table_ok = constants.is_some() && mutable.is_some();
        let mut head = program::head(&view);
        let names = if table_ok { names } else { vec![] };
        head.external_data = external_groups(names, options.path);
        let uses = options.tensors.then(|| if table_ok { view.tensor_uses() } else { vec![] });
        let methods =
            (0..view.program().plan_count()).map(|i| view.method_name(u32::try_from(i).unwrap_or(u32::MAX))).collect();
        let users = view.segment_users();
        Summary { view, head, constants, mutable, users, uses, methods }
    }

    /// The program it summarises.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.view().bytes().len(), bytes.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn view(&self) -> &PteView<'a> {
        &self.view
    }

    /// What the summary aggregates (header, methods, delegates, EXTERNAL
    /// groups), for a caller that writes the lists that grow with the file
    /// itself from the row accessors.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.head().file_size, bytes.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn head(&self) -> &ProgramHead {
        &self.head
    }

    /// The constants (`None` when they cannot be read: the list is then empty).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.constants().map(|c| c.len()), Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constants(&self) -> Option<&SubBuffers<'a>> {
        self.constants.as_ref()
    }

    /// The mutable segments (none when they cannot be read).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("mutable_buffer/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.mutable_segments().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mutable_segments(&self) -> &[SubBuffers<'a>] {
        self.mutable.as_deref().unwrap_or_default()
    }

    /// The `segments` entries, one per segment-table entry.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// let rows: Vec<_> = summary.segment_rows().collect();
    /// assert_eq!(rows[0].used_by, ["constant"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn segment_rows(&self) -> impl Iterator<Item = SegmentRow> + '_ {
        self.view.segments().enumerate().map(|(i, s)| {
            let used_by = u32::try_from(i).ok().and_then(|i| self.users.get(&i)).cloned().unwrap_or_default();
            SegmentRow { index: i, offset: s.offset, size: s.size, used_by }
        })
    }

    /// The `constants` entries, offsets in the segment.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.constant_rows().count(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn constant_rows(&self) -> impl Iterator<Item = ConstantRow> + '_ {
        self.constants.iter().flat_map(SubBuffers::iter).map(|c| ConstantRow {
            index: c.index,
            offset: c.offset,
            size: c.len,
            span: c.span,
        })
    }

    /// The `mutable_segments` entries: one list per mutable segment.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("mutable_buffer/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.mutable_rows().count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn mutable_rows(&self) -> impl Iterator<Item = impl Iterator<Item = MutableRow> + '_> + '_ {
        self.mutable_segments()
            .iter()
            .map(|m| m.iter().map(|c| MutableRow { index: c.index, offset: c.offset, size: c.len }))
    }

    /// The `named_data` entries.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.named_rows().count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn named_rows(&self) -> impl Iterator<Item = NamedRow<'a>> + '_ {
        let rows = self.view.named_data().into_iter().flatten();
        rows.map(|(key, segment_index, b)| NamedRow { key, segment_index, size: b.len() })
    }

    /// Whether the tensor table was asked for ([`SummaryOptions::tensors`]).
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// assert!(!pte::Summary::read(&bytes, &Default::default())?.has_tensors());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_tensors(&self) -> bool {
        self.uses.is_some()
    }

    /// The tensor table's entries, typed (none unless asked for): the
    /// program's tensors in table order, then the named-data keys; `users`
    /// left empty unless `users`.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let options = pte::SummaryOptions { tensors: true, ..Default::default() };
    /// let summary = pte::Summary::read(&bytes, &options)?;
    /// let rows: Vec<pte::TensorRow> = summary.tensors(true).collect();
    /// assert_eq!(rows.len(), 2);
    /// assert_eq!(rows[0].users, [("forward".to_string(), 0)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tensors(&self, users: bool) -> impl Iterator<Item = TensorRow> + '_ {
        let uses = self.uses.as_deref().unwrap_or(&[]);
        let named = if self.uses.is_some() { self.named_tensor_rows() } else { vec![] };
        uses.chunk_by(|a, b| (a.kind, a.id) == (b.kind, b.id))
            .filter_map(move |g| self.tensor_row(g, users))
            .chain(named)
    }

    /// One row per named-data key, in table order, with the dtype and shape
    /// the delegate payloads that read the key give it: weights an XNNPACK
    /// delegate keeps as named data are listed beside the program's tensors.
    /// None when the named table does not resolve.
    fn named_tensor_rows(&self) -> Vec<TensorRow> {
        use pte_analysis::delegate_payload::{builtin_registry, named_tensors_of};
        let Some(named) = self.view.named_data() else { return vec![] };
        let delegates = self.view.delegates().unwrap_or_default();
        let described =
            named_tensors_of(delegates.iter().map(|d| (d.id, d.bytes)), builtin_registry(), &Default::default());
        let base = self.view.segment_base();
        let program = self.view.program();
        named
            .map(|(key, segment, bytes)| {
                let t = described.get(key);
                let size = bytes.len() as u64;
                let start = usize::try_from(segment).ok().and_then(|i| program.segment(i)).map(|s| s.offset);
                let file_range = start.and_then(|s| base.checked_add(s)).and_then(|s| Some([s, s.checked_add(size)?]));
                TensorRow {
                    name: key.to_string(),
                    named: true,
                    storage: "named",
                    dtype: t.map(|t| t.dtype.clone()),
                    // a payload's dimension past i64 cannot be a real one
                    sizes: t.map(|t| t.shape.iter().map(|&d| i64::try_from(d).unwrap_or(i64::MAX)).collect()),
                    segment: Some(segment),
                    file_range,
                    stored: Some(size),
                    users: vec![],
                    facts: None,
                }
            })
            .collect()
    }

    /// The whole summary as a JSON value.
    ///
    /// ```
    /// # let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let summary = pte::Summary::read(&bytes, &Default::default())?;
    /// assert_eq!(summary.to_value(), serde_json::to_value(&summary)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_value(&self) -> Value {
        // only maps with string keys and plain values: serializing cannot fail
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn method(&self, plan: u32) -> String {
        let name = usize::try_from(plan).ok().and_then(|p| self.methods.get(p));
        name.cloned().unwrap_or_else(|| format!("plan{plan}"))
    }

    /// One entry of the tensor table, as `PteFile::tensors` gives it.
    fn tensor_row(&self, uses: &[TensorUse], users: bool) -> Option<TensorRow> {
        let first = uses.first()?;
        let t = self.view.tensor(first.plan, first.value)?;
        let method = self.method(first.plan);
        let unnamed = match first.kind {
            EntryKind::Constant => Unnamed::Constant(first.id),
            EntryKind::Mutable => Unnamed::Mutable(first.id),
            EntryKind::External | EntryKind::Planned => {
                Unnamed::Value { method: &method, value: usize::try_from(first.value).unwrap_or(usize::MAX) }
            }
        };
        let name = tensor_label(t.fqn(), unnamed);
        let sizes: Vec<i32> = t.sizes().map(|l| l.iter().collect()).unwrap_or_default();
        let dtype = t.scalar_type();
        let numel = sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(u64::try_from(s).ok()?));
        let nbytes = numel.and_then(|n| n.checked_mul(dtype.element_size()?));
        let at = usize::try_from(first.id).unwrap_or(usize::MAX);
        let data = match first.kind {
            EntryKind::Constant => self.constants.as_ref().and_then(|c| Some((c.get(at)?, c.segment()))),
            EntryKind::Mutable => {
                self.mutable.as_ref().and_then(|m| m.first()).and_then(|m| Some((m.get(at)?, m.segment())))
            }
            EntryKind::External | EntryKind::Planned => None,
        };
        let segment = data.and_then(|(_, seg)| seg);
        let range = data.and_then(|(c, seg)| {
            let start = self.view.program().segment(usize::try_from(seg?).ok()?)?.offset.checked_add(c.offset)?;
            Some((start, start.checked_add(c.len)?))
        });
        let base = self.view.segment_base();
        let file_range = range.and_then(|(s, e)| Some([base.checked_add(s)?, base.checked_add(e)?]));
        let storage = match first.kind {
            EntryKind::Constant => "constant",
            EntryKind::External => "external",
            EntryKind::Mutable | EntryKind::Planned => "mutable",
        };
        Some(TensorRow {
            name,
            named: t.fqn().is_some(),
            storage,
            dtype: Some(dtype.to_string()),
            sizes: Some(sizes.iter().map(|&s| i64::from(s)).collect()),
            segment,
            file_range,
            stored: data.map(|(c, _)| c.len),
            users: uses.iter().filter(|_| users).map(|u| (self.method(u.plan), u.value)).collect(),
            facts: Some(TensorFacts {
                data_buffer_idx: t.data_buffer_idx(),
                device: t.device_type().unwrap_or(DeviceType::CPU).to_string(),
                dim_order: t.dim_order().unwrap_or(&[]).to_vec(),
                dynamism: t.shape_dynamism().to_string(),
                nbytes,
            }),
        })
    }
}

/// A list written from a fresh iterator each time it is serialized.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        for x in (self.0)() {
            seq.serialize_element(&x)?;
        }
        seq.end()
    }
}

impl Serialize for Summary<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        // Keys in alphabetical order, the order `pte info --json` has always had.
        let h = &self.head;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("constants", &Seq(|| self.constant_rows()))?;
        map.serialize_entry("delegates", &h.delegates)?;
        map.serialize_entry("extended_header", &h.extended_header)?;
        map.serialize_entry("external_data", &h.external_data)?;
        map.serialize_entry("file_size", &h.file_size)?;
        map.serialize_entry("format", &h.format)?;
        map.serialize_entry("inline_delegate_data", &h.inline_delegate_data)?;
        map.serialize_entry("legacy_constant_buffer", &h.legacy_constant_buffer)?;
        map.serialize_entry("methods", &h.methods)?;
        let mutable = || self.mutable_segments().iter().map(|m| Seq(move || m.iter().map(mutable_row)));
        map.serialize_entry("mutable_segments", &Seq(mutable))?;
        map.serialize_entry("named_data", &Seq(|| self.named_rows()))?;
        map.serialize_entry("segments", &Seq(|| self.segment_rows()))?;
        if self.has_tensors() {
            map.serialize_entry("tensors", &Seq(|| self.tensors(true)))?;
        }
        map.serialize_entry("version", &h.version)?;
        map.end()
    }
}

fn mutable_row(c: pte_file::view::SubBuffer) -> MutableRow {
    MutableRow { index: c.index, offset: c.offset, size: c.len }
}

/// The program's EXTERNAL keys grouped by the data file that holds them.
///
/// The program records only each tensor's key, not which `.ptd` (the
/// exporter's "tag", also the file's stem) holds it; the `.ptd` files next
/// to the program are searched, and keys none of them holds are grouped
/// under a null tag.
fn external_groups(keys: Vec<String>, path: Option<&Path>) -> Vec<ExternalGroup> {
    if keys.is_empty() {
        return vec![];
    }
    let mut groups: BTreeMap<String, (String, Vec<String>)> = BTreeMap::new();
    let mut missing = vec![];
    let beside = path.map(sibling_ptds).unwrap_or_default();
    for k in keys {
        let holder = beside.iter().find(|(_, _, held)| held.contains(&k));
        match holder {
            Some((tag, file, _)) => groups.entry(tag.clone()).or_insert_with(|| (file.clone(), vec![])).1.push(k),
            None => missing.push(k),
        }
    }
    let mut out: Vec<ExternalGroup> = groups
        .into_iter()
        .map(|(tag, (file, keys))| ExternalGroup { file: Some(file), keys, tag: Some(tag) })
        .collect();
    if !missing.is_empty() {
        out.push(ExternalGroup { file: None, keys: missing, tag: None });
    }
    out
}

/// (tag, file name, keys) of each `.ptd` in the program's directory, by content.
fn sibling_ptds(path: &Path) -> Vec<(String, String, Vec<String>)> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let Ok(entries) = std::fs::read_dir(dir) else { return vec![] };
    let mut files: Vec<_> = entries.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    files
        .iter()
        .filter_map(|p| {
            let map = pte_core::MappedFile::open(p).ok()?;
            if crate::kind_of(map.bytes()) != FileKind::Ptd {
                return None;
            }
            let ptd = PtdFile::from_bytes(map.bytes()).ok()?;
            let keys = ptd.keys().into_iter().map(str::to_string).collect();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            Some((stem, p.file_name()?.to_string_lossy().into_owned(), keys))
        })
        .collect()
}
