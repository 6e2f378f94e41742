//! The extract manifest (`manifest.json`) as a type: what `pte extract`
//! writes and [`read_dir`](super::read_dir) reads, side by side.
//!
//! Reading is as lenient as the reader always was: fields this version does
//! not know are ignored, and every field added after version 2 (`name`,
//! `dtype`, `shape`) is optional, so a folder extracted by an older `pte`
//! packs exactly as before. Writing streams ([`ManifestWriter`]): one entry
//! per line, nothing kept per entry, so a table of a million segments costs
//! no heap.

use std::collections::BTreeMap;
use std::io::Write;

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use pte_schema::{Error, ErrorKind, Result};

use super::Stored;

/// Name of the manifest in an extract folder.
///
/// ```
/// assert_eq!(pte_pack::MANIFEST, "manifest.json");
/// ```
pub const MANIFEST: &str = "manifest.json";

/// The manifest version `pte extract` writes and [`read_dir`](super::read_dir)
/// reads: 2. A folder without `manifest_version` is version 1, which reads
/// the same way; a later version is refused ([`ErrorKind::Unsupported`])
/// rather than packed by rules it was not written for. Fields that only
/// describe (`name`, `dtype`, `shape`) are added without a new version: a
/// reader ignores fields it does not know.
///
/// ```
/// assert_eq!(pte_pack::MANIFEST_VERSION, 2);
/// ```
pub const MANIFEST_VERSION: u64 = 2;

/// What kind of file a folder was extracted from.
///
/// ```
/// let f: pte_pack::ManifestFormat = serde_json::from_str("\"ptd\"")?;
/// assert_eq!(f, pte_pack::ManifestFormat::Ptd);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ManifestFormat {
    /// A `.pte` program (also what a manifest without `format` is).
    Pte,
    /// A `.ptd` tensor-data file.
    Ptd,
    /// A `.ptn` package.
    Ptn,
}

/// The layout facts a folder records so that packing it gives the source's
/// bytes back; an absent field takes exir's default.
///
/// ```
/// let l: pte_pack::Layout = serde_json::from_str(r#"{"segment_alignment": 4096}"#)?;
/// assert_eq!((l.segment_alignment, l.extended_header), (Some(4096), None));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Whether the program has an extended header (`.pte` only; `false`:
    /// the legacy bare flatbuffer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extended_header: Option<bool>,
    /// Alignment of the segment base.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub segment_alignment: Option<u64>,
    /// Alignment of each constant in the constant segment (`.pte` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant_alignment: Option<u64>,
    /// Alignment of inline delegate data (`.pte` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delegate_alignment: Option<u64>,
}

/// The extract manifest.
///
/// ```
/// use pte_pack::{Manifest, ManifestFormat};
/// let m = Manifest::from_slice(br#"{"format": "ptd", "entries": []}"#)?;
/// assert_eq!(m.format(), ManifestFormat::Ptd);
/// assert_eq!(m.version(), 1);
/// assert_eq!(Manifest::from_slice(&m.to_vec()?)?, m);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The version ([`MANIFEST_VERSION`] when written; absent: 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest_version: Option<u64>,
    /// What was extracted (absent: a `.pte`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<ManifestFormat>,
    /// The path extracted, as given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The file holding the program (or `.ptd` tables) as JSON (absent:
    /// `program.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
    /// How the source was laid out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// A package's alias map (duplicate key → owner key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aliases: Option<BTreeMap<String, String>>,
    /// A package's safetensors `__metadata__` map, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<BTreeMap<String, String>>,
    /// One entry per stored blob.
    #[serde(default)]
    pub entries: Vec<Entry>,
    /// How the source's bytes are laid out, so that an unedited folder packs
    /// back into exactly those bytes (written after the entries; absent in
    /// folders extracted before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stored: Option<Stored>,
}

/// The manifest without its entries, as the writer puts it first.
#[derive(Serialize)]
struct Head<'m> {
    #[serde(skip_serializing_if = "Option::is_none")]
    manifest_version: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    format: Option<ManifestFormat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'m str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    program: Option<&'m str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    layout: Option<&'m Layout>,
    #[serde(skip_serializing_if = "Option::is_none")]
    aliases: Option<&'m BTreeMap<String, String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    metadata: Option<&'m BTreeMap<String, String>>,
}

fn malformed(e: impl std::fmt::Display) -> Error {
    Error::new(ErrorKind::Malformed, format!("{MANIFEST}: {e}"))
}

impl Manifest {
    /// An empty manifest of the current version for `format`.
    ///
    /// ```
    /// let m = pte_pack::Manifest::new(pte_pack::ManifestFormat::Pte);
    /// assert_eq!(m.manifest_version, Some(pte_pack::MANIFEST_VERSION));
    /// ```
    pub fn new(format: ManifestFormat) -> Self {
        Manifest { manifest_version: Some(MANIFEST_VERSION), format: Some(format), ..Default::default() }
    }

    /// Reads a manifest; fields it does not know are ignored.
    ///
    /// ```
    /// let m = pte_pack::Manifest::from_slice(br#"{"entries": [{"file": "segment-0.bin", "size": 4, "kind": "segment", "index": 0}], "extra": 1}"#)?;
    /// assert_eq!(m.entries[0].file, "segment-0.bin");
    /// assert!(pte_pack::Manifest::from_slice(b"7").is_err());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn from_slice(bytes: &[u8]) -> Result<Self> {
        serde_json::from_slice(bytes).map_err(malformed)
    }

    /// The version, 1 when the field is absent.
    ///
    /// ```
    /// assert_eq!(pte_pack::Manifest::default().version(), 1);
    /// ```
    pub fn version(&self) -> u64 {
        self.manifest_version.unwrap_or(1)
    }

    /// What was extracted ([`ManifestFormat::Pte`] when the field is absent).
    ///
    /// ```
    /// assert_eq!(pte_pack::Manifest::default().format(), pte_pack::ManifestFormat::Pte);
    /// ```
    pub fn format(&self) -> ManifestFormat {
        self.format.unwrap_or(ManifestFormat::Pte)
    }

    /// The program JSON's file name (`program.json` when the field is absent).
    ///
    /// ```
    /// assert_eq!(pte_pack::Manifest::default().program_file(), "program.json");
    /// ```
    pub fn program_file(&self) -> &str {
        self.program.as_deref().unwrap_or("program.json")
    }

    /// Refuses a version this reader does not know ([`ErrorKind::Unsupported`]).
    ///
    /// ```
    /// let mut m = pte_pack::Manifest::default();
    /// assert!(m.check_version().is_ok());
    /// m.manifest_version = Some(3);
    /// assert_eq!(m.check_version().unwrap_err().kind(), pte_file::ErrorKind::Unsupported);
    /// ```
    pub fn check_version(&self) -> Result<()> {
        match self.manifest_version {
            None => Ok(()),
            Some(n) if (1..=MANIFEST_VERSION).contains(&n) => Ok(()),
            Some(n) => Err(Error::new(
                ErrorKind::Unsupported,
                format!("{MANIFEST}: manifest_version {n} is newer than this reader's {MANIFEST_VERSION}"),
            )),
        }
    }

    /// Writes the manifest as `pte extract` does (the head on one line, then
    /// one entry per line).
    ///
    /// ```
    /// let m = pte_pack::Manifest::new(pte_pack::ManifestFormat::Ptd);
    /// let mut out = vec![];
    /// m.write_to(&mut out)?;
    /// assert_eq!(out, b"{\"manifest_version\":2,\"format\":\"ptd\",\"entries\":[\n]}\n");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn write_to(&self, w: impl Write) -> Result<()> {
        let mut out = ManifestWriter::begin(w, self)?;
        for e in &self.entries {
            out.entry(e)?;
        }
        match &self.stored {
            Some(s) => out.finish_stored(s).map(|_| ()),
            None => out.finish().map(|_| ()),
        }
    }

    /// [`Manifest::write_to`] into a new vector.
    ///
    /// ```
    /// let v = pte_pack::Manifest::default().to_vec()?;
    /// assert_eq!(v, b"{\"entries\":[\n]}\n");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_vec(&self) -> Result<Vec<u8>> {
        let mut out = vec![];
        self.write_to(&mut out)?;
        Ok(out)
    }
}

/// Writes a manifest entry by entry: the head (every field of the given
/// manifest but its entries) first, then each [`Entry`] as it comes, so
/// nothing is held per entry.
///
/// ```
/// use pte_pack::{Entry, EntryKind, Manifest, ManifestFormat, ManifestWriter};
/// let mut w = ManifestWriter::begin(Vec::new(), &Manifest::new(ManifestFormat::Pte))?;
/// w.entry(&Entry::new("segment-0.bin", 4, EntryKind::Segment { index: 0, offset: Some(0) }))?;
/// let text = w.finish()?;
/// let back = Manifest::from_slice(&text)?;
/// assert_eq!(back.entries[0].kind, EntryKind::Segment { index: 0, offset: Some(0) });
/// # Ok::<(), pte_file::Error>(())
/// ```
pub struct ManifestWriter<W: Write> {
    w: W,
    entries: usize,
}

impl<W: Write> ManifestWriter<W> {
    /// Writes the head of `head` (its entries are not written: pass them
    /// to [`ManifestWriter::entry`]).
    ///
    /// ```
    /// let w = pte_pack::ManifestWriter::begin(Vec::new(), &Default::default())?;
    /// assert_eq!(w.finish()?, b"{\"entries\":[\n]}\n");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn begin(mut w: W, head: &Manifest) -> Result<Self> {
        let h = Head {
            manifest_version: head.manifest_version,
            format: head.format,
            source: head.source.as_deref(),
            program: head.program.as_deref(),
            layout: head.layout.as_ref(),
            aliases: head.aliases.as_ref(),
            metadata: head.metadata.as_ref(),
        };
        let text = serde_json::to_string(&h).map_err(malformed)?;
        // the head object without its closing brace, then the entries array
        let open = text.strip_suffix('}').unwrap_or("{");
        let sep = if open.len() > 1 { "," } else { "" };
        write!(w, "{open}{sep}\"entries\":[")?;
        Ok(ManifestWriter { w, entries: 0 })
    }

    /// Writes one entry on its own line.
    ///
    /// ```
    /// use pte_pack::{Entry, EntryKind, ManifestWriter};
    /// let mut w = ManifestWriter::begin(Vec::new(), &Default::default())?;
    /// w.entry(&Entry::new("program.ptg", 3, EntryKind::Program))?;
    /// assert_eq!(w.count(), 1);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn entry(&mut self, e: &Entry) -> Result<()> {
        self.w.write_all(if self.entries == 0 { b"\n" } else { b",\n" })?;
        serde_json::to_writer(&mut self.w, e).map_err(malformed)?;
        self.entries = self.entries.saturating_add(1);
        Ok(())
    }

    /// Entries written so far.
    ///
    /// ```
    /// let w = pte_pack::ManifestWriter::begin(Vec::new(), &Default::default())?;
    /// assert_eq!(w.count(), 0);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn count(&self) -> usize {
        self.entries
    }

    /// Closes the manifest; returns the writer (not flushed).
    ///
    /// ```
    /// let w = pte_pack::ManifestWriter::begin(Vec::new(), &Default::default())?;
    /// assert!(w.finish()?.ends_with(b"]}\n"));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn finish(mut self) -> Result<W> {
        self.w.write_all(b"\n]}\n")?;
        Ok(self.w)
    }

    /// Closes the manifest with its `stored` layout after the entries (it
    /// is known only once every blob was written); returns the writer.
    ///
    /// ```
    /// let w = pte_pack::ManifestWriter::begin(Vec::new(), &Default::default())?;
    /// let text = w.finish_stored(&Default::default())?;
    /// let m = pte_pack::Manifest::from_slice(&text)?;
    /// assert_eq!(m.stored, Some(Default::default()));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn finish_stored(mut self, stored: &Stored) -> Result<W> {
        self.w.write_all(b"\n],\"stored\":")?;
        serde_json::to_writer(&mut self.w, stored).map_err(malformed)?;
        self.w.write_all(b"}\n")?;
        Ok(self.w)
    }
}

/// One blob of an extract folder: the file holding its bytes, and where it
/// came from.
///
/// Several entries may name the same `file` (a byte range several entries
/// share is written once). `name`, `dtype` and `shape` describe the tensor
/// the blob holds, where the source says: `name` is the label
/// [`tensor_label`](pte_file::tensor_label) gives (the one `pte info --tensors`
/// prints) or the named-data key; `dtype` is spelled as the source's schema
/// spells it (`FLOAT` for a program tensor, `F32` in a package, `fp32` for
/// an XNNPACK weight).
///
/// ```
/// use pte_pack::{Entry, EntryKind};
/// let e: Entry = serde_json::from_str(r#"{"file": "constant-1.bin", "size": 48, "sha256": "ab", "kind": "constant", "index": 1, "offset": 0}"#)?;
/// assert_eq!(e.kind, EntryKind::Constant { index: 1, offset: 0 });
/// assert_eq!(e.name, None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file in the folder holding the bytes.
    pub file: String,
    /// Byte count.
    pub size: u64,
    /// Lower-case hex SHA-256 of the bytes as extracted: a file whose digest
    /// differs was edited.
    pub sha256: Option<String>,
    /// What the blob is.
    pub kind: EntryKind,
    /// The tensor's name, when the source names it.
    pub name: Option<String>,
    /// The tensor's element type, when the source says.
    pub dtype: Option<String>,
    /// The tensor's shape, when the source says.
    pub shape: Option<Vec<i64>>,
    /// Where the bytes sat in the source file (an edited blob of the same
    /// size goes back there).
    pub at: Option<u64>,
}

impl Entry {
    /// An entry without digest or tensor facts.
    ///
    /// ```
    /// let e = pte_pack::Entry::new("x.bin", 1, pte_pack::EntryKind::Program);
    /// assert!(e.sha256.is_none() && e.name.is_none());
    /// ```
    pub fn new(file: impl Into<String>, size: u64, kind: EntryKind) -> Self {
        Entry { file: file.into(), size, sha256: None, kind, name: None, dtype: None, shape: None, at: None }
    }
}

/// What a manifest entry's blob is, with the fields that locate it.
///
/// ```
/// use pte_pack::EntryKind;
/// assert_eq!(EntryKind::Segment { index: 0, offset: None }.name(), "segment");
/// assert_eq!(EntryKind::Other("future".into()).name(), "future");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// Segment `index` of the segment table (`offset` as the table gives it).
    Segment {
        /// Table index.
        index: u64,
        /// Offset relative to the segment base.
        offset: Option<u64>,
    },
    /// Constant `index` of the program's constant table.
    Constant {
        /// `data_buffer_idx`.
        index: u64,
        /// Offset in the constant segment.
        offset: u64,
    },
    /// Buffer `index` of mutable data segment `segment`.
    Mutable {
        /// Index in `mutable_data_segments`.
        segment: u64,
        /// Buffer index.
        index: u64,
        /// Offset in its segment.
        offset: u64,
    },
    /// A named-data key and the segment holding its blob.
    Named {
        /// The key.
        key: String,
        /// Segment-table index.
        segment_index: u64,
    },
    /// A delegate's processed blob.
    Delegate {
        /// Execution plan index.
        method: u64,
        /// Delegate index within the plan.
        delegate: u64,
        /// Delegate id.
        id: Option<String>,
        /// `INLINE` or `SEGMENT`.
        location: Option<String>,
        /// Index into the inline data or the segment table, per `location`.
        index: u64,
    },
    /// A package's program member.
    Program,
    /// A package's constant tensor (kind `constant` with a `key`).
    PackageConstant {
        /// The key.
        key: String,
        /// The key whose data this alias shares.
        alias_of: Option<String>,
    },
    /// Any other package member.
    Member {
        /// Its name in the package.
        member: String,
    },
    /// The source's flatbuffer region as stored (`program.fb`): the program
    /// while the program JSON is unedited.
    Flatbuffer,
    /// The source's bytes no blob holds (headers, zip records, non-zero
    /// padding), which [`Stored`]'s filler pieces read.
    Filler,
    /// A kind this version does not know (kept, and packed only unedited).
    Other(String),
}

impl EntryKind {
    /// The `kind` field's value.
    ///
    /// ```
    /// let k = pte_pack::EntryKind::PackageConstant { key: "w".into(), alias_of: None };
    /// assert_eq!(k.name(), "constant");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            EntryKind::Segment { .. } => "segment",
            EntryKind::Constant { .. } | EntryKind::PackageConstant { .. } => "constant",
            EntryKind::Mutable { .. } => "mutable",
            EntryKind::Named { .. } => "named",
            EntryKind::Delegate { .. } => "delegate",
            EntryKind::Program => "program",
            EntryKind::Member { .. } => "member",
            EntryKind::Flatbuffer => "flatbuffer",
            EntryKind::Filler => "filler",
            EntryKind::Other(k) => k,
        }
    }
}

impl Serialize for Entry {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("file", &self.file)?;
        m.serialize_entry("size", &self.size)?;
        if let Some(d) = &self.sha256 {
            m.serialize_entry("sha256", d)?;
        }
        m.serialize_entry("kind", self.kind.name())?;
        match &self.kind {
            EntryKind::Segment { index, offset } => {
                m.serialize_entry("index", index)?;
                if let Some(o) = offset {
                    m.serialize_entry("offset", o)?;
                }
            }
            EntryKind::Constant { index, offset } => {
                m.serialize_entry("index", index)?;
                m.serialize_entry("offset", offset)?;
            }
            EntryKind::Mutable { segment, index, offset } => {
                m.serialize_entry("segment", segment)?;
                m.serialize_entry("index", index)?;
                m.serialize_entry("offset", offset)?;
            }
            EntryKind::Named { key, segment_index } => {
                m.serialize_entry("key", key)?;
                m.serialize_entry("segment_index", segment_index)?;
            }
            EntryKind::Delegate { method, delegate, id, location, index } => {
                m.serialize_entry("method", method)?;
                m.serialize_entry("delegate", delegate)?;
                m.serialize_entry("id", id)?;
                m.serialize_entry("location", location)?;
                m.serialize_entry("index", index)?;
            }
            EntryKind::PackageConstant { key, alias_of } => {
                m.serialize_entry("key", key)?;
                m.serialize_entry("alias_of", alias_of)?;
            }
            EntryKind::Member { member } => m.serialize_entry("member", member)?,
            EntryKind::Program | EntryKind::Flatbuffer | EntryKind::Filler | EntryKind::Other(_) => {}
        }
        if let Some(n) = &self.name {
            m.serialize_entry("name", n)?;
        }
        if let Some(d) = &self.dtype {
            m.serialize_entry("dtype", d)?;
        }
        if let Some(s) = &self.shape {
            m.serialize_entry("shape", s)?;
        }
        if let Some(a) = &self.at {
            m.serialize_entry("at", a)?;
        }
        m.end()
    }
}

/// An entry as stored, every field optional; [`Entry`] is made from it.
#[derive(Deserialize)]
struct RawEntry {
    #[serde(default)]
    file: String,
    #[serde(default)]
    size: u64,
    sha256: Option<String>,
    kind: Option<String>,
    index: Option<u64>,
    offset: Option<u64>,
    segment: Option<u64>,
    segment_index: Option<u64>,
    key: Option<String>,
    method: Option<u64>,
    delegate: Option<u64>,
    id: Option<String>,
    location: Option<String>,
    alias_of: Option<String>,
    member: Option<String>,
    name: Option<String>,
    dtype: Option<String>,
    shape: Option<Vec<i64>>,
    at: Option<u64>,
}

impl TryFrom<RawEntry> for Entry {
    type Error = String;

    fn try_from(r: RawEntry) -> std::result::Result<Self, String> {
        let need = |v: Option<u64>, field: &str| {
            v.ok_or_else(|| format!("manifest entry {:?} lacks a numeric `{field}`", r.file))
        };
        let kind = match r.kind.as_deref().unwrap_or_default() {
            "segment" => EntryKind::Segment { index: need(r.index, "index")?, offset: r.offset },
            "constant" if r.key.is_some() && r.index.is_none() => {
                EntryKind::PackageConstant { key: r.key.clone().unwrap_or_default(), alias_of: r.alias_of.clone() }
            }
            "constant" => EntryKind::Constant { index: need(r.index, "index")?, offset: need(r.offset, "offset")? },
            "mutable" => EntryKind::Mutable {
                segment: need(r.segment, "segment")?,
                index: need(r.index, "index")?,
                offset: need(r.offset, "offset")?,
            },
            "named" => EntryKind::Named {
                key: r.key.clone().unwrap_or_default(),
                segment_index: need(r.segment_index, "segment_index")?,
            },
            "delegate" => EntryKind::Delegate {
                method: r.method.unwrap_or_default(),
                delegate: r.delegate.unwrap_or_default(),
                id: r.id.clone(),
                location: r.location.clone(),
                index: need(r.index, "index")?,
            },
            "program" => EntryKind::Program,
            "flatbuffer" => EntryKind::Flatbuffer,
            "filler" => EntryKind::Filler,
            "member" => EntryKind::Member { member: r.member.clone().unwrap_or_default() },
            other => EntryKind::Other(other.to_string()),
        };
        Ok(Entry {
            file: r.file,
            size: r.size,
            sha256: r.sha256,
            kind,
            name: r.name,
            dtype: r.dtype,
            shape: r.shape,
            at: r.at,
        })
    }
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Entry::try_from(RawEntry::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

/// A key made safe as part of a file name: characters other than ASCII
/// letters, digits, `-`, `_` and `.` become `_`, at most 80 are kept, and
/// no leading dot remains.
///
/// ```
/// assert_eq!(pte_pack::file_safe("seq.0/weight"), "seq.0_weight");
/// assert_eq!(pte_pack::file_safe("..x"), "x");
/// ```
pub fn file_safe(key: &str) -> String {
    let s: String =
        key.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect();
    s.trim_start_matches('.').to_string()
}
