//! The walk `pte extract` makes over a file's stored blobs: which entries a
//! manifest gets, in which order, under which file names, with the name,
//! dtype and shape of the tensor each blob holds where the file says.

use std::collections::BTreeMap;

use pte_schema::{Limits, Result};

use super::{file_safe, Entry, EntryKind, Layout, Manifest, ManifestFormat};
use crate::delegate_payload::{builtin_registry, named_tensors_of, NamedTensor};
use crate::ptd::PtdFile;
use crate::{SparsePte, TensorStorage};

/// What a blob holds, from the tensor table or a delegate payload.
struct Described {
    name: String,
    dtype: String,
    shape: Vec<i64>,
}

impl Entry {
    fn describe(mut self, d: Option<&Described>) -> Self {
        if let Some(d) = d {
            self.name = Some(d.name.clone());
            self.dtype = Some(d.dtype.clone());
            self.shape = Some(d.shape.clone());
        }
        self
    }

    fn named_tensor(mut self, key: &str, t: Option<&NamedTensor>) -> Self {
        if !key.is_empty() {
            self.name = Some(key.to_string());
        }
        if let Some(t) = t {
            self.dtype = Some(t.dtype.clone());
            self.shape = Some(t.shape.iter().map(|&d| i64::try_from(d).unwrap_or(i64::MAX)).collect());
        }
        self
    }
}

/// Every stored blob of a `.pte`, as `pte extract` writes them: each entry
/// of the segment table, each constant, each mutable buffer, each named
/// blob and each delegate blob, in that order. The segment table is read in
/// place: a table of a million entries costs no heap, and
/// [`PteBlobs::entries`] builds each entry only when it is reached.
///
/// Constants and mutable buffers carry the name, dtype (the `ScalarType`
/// name) and shape of the tensor-table entry that points at them (the label
/// of [`tensor_label`](crate::tensor_label), as `pte info --tensors` shows
/// it); a named blob carries its key as name, and the dtype and shape a
/// delegate payload gives it ([`named_tensors_of`]).
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/linear/model.pte"))?;
/// let blobs = pte_file::pack::PteBlobs::new(&bytes)?;
/// let entries: Vec<_> = blobs.entries()?.collect();
/// let (w, data) = entries.iter().find(|(e, _)| e.file == "constant-1.bin").unwrap();
/// assert_eq!((w.name.as_deref(), w.dtype.as_deref()), (Some("constant[1]"), Some("FLOAT")));
/// assert_eq!((w.shape.as_deref(), data.len()), (Some(&[3, 4][..]), 48));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub struct PteBlobs<'a> {
    sparse: SparsePte<'a>,
    layout: Layout,
    /// By (mutable, data_buffer_idx).
    tensors: BTreeMap<(bool, u32), Described>,
    named: BTreeMap<String, NamedTensor>,
}

impl<'a> PteBlobs<'a> {
    /// Reads `bytes` (fails where [`PteFile::from_bytes`](crate::PteFile::from_bytes) fails).
    ///
    /// ```
    /// assert!(pte_file::pack::PteBlobs::new(b"short").is_err());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        let sparse = SparsePte::from_bytes(bytes)?;
        let layout = Layout::of_pte(&sparse.file, bytes);
        let mut tensors = BTreeMap::new();
        // a table the accessors refuse is refused by `entries` itself
        for t in sparse.file.tensors().unwrap_or_default() {
            let mutable = match t.storage {
                TensorStorage::Constant => false,
                TensorStorage::Mutable if t.data_buffer_idx > 0 => true,
                _ => continue,
            };
            let shape = t.sizes.iter().map(|&s| i64::from(s)).collect();
            let d = Described { name: t.name, dtype: t.dtype.to_string(), shape };
            tensors.entry((mutable, t.data_buffer_idx)).or_insert(d);
        }
        let delegates = sparse.file.delegate_blobs().unwrap_or_default();
        let named = named_tensors_of(delegates.iter().map(|d| (d.id, d.bytes)), builtin_registry(), &Limits::default());
        Ok(PteBlobs { sparse, layout, tensors, named })
    }

    /// The manifest's head: version, format, the program file and the layout
    /// (`source` is the caller's to fill in).
    ///
    /// ```
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/add/model.pte"))?;
    /// let head = pte_file::pack::PteBlobs::new(&bytes)?.head();
    /// assert_eq!(head.program_file(), "program.json");
    /// assert!(head.entries.is_empty());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn head(&self) -> Manifest {
        Manifest {
            program: Some("program.json".into()),
            layout: Some(self.layout),
            ..Manifest::new(ManifestFormat::Pte)
        }
    }

    /// Every blob with its entry (file name as `pte extract` names it, size,
    /// no digest), in manifest order. Fails where the program's constant,
    /// mutable, named or delegate tables do not resolve.
    ///
    /// ```
    /// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/xnnpack_mlp/model.pte"))?;
    /// let blobs = pte_file::pack::PteBlobs::new(&bytes)?;
    /// let named: Vec<_> = blobs.entries()?.filter(|(e, _)| e.kind.name() == "named").map(|(e, _)| e).collect();
    /// assert_eq!(named[0].dtype.as_deref(), Some("fp32"));
    /// assert_eq!(named[0].shape.as_deref(), Some(&[32, 16][..]));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn entries(&self) -> Result<impl Iterator<Item = (Entry, &[u8])> + '_> {
        let pte = &self.sparse.file;
        let constants = pte.constants()?;
        let mutable = pte.mutable_segments()?;
        let named = pte.named_data()?;
        let delegates = pte.delegate_blobs()?;
        let segments = self.sparse.segments().enumerate().map(|(i, (t, seg))| {
            let kind = EntryKind::Segment { index: i as u64, offset: Some(t.offset) };
            (Entry::new(format!("segment-{i}.bin"), seg.len() as u64, kind), seg)
        });
        let constants = constants.into_iter().map(move |c| {
            let kind = EntryKind::Constant { index: c.index as u64, offset: c.offset };
            let e = Entry::new(format!("constant-{}.bin", c.index), c.bytes.len() as u64, kind);
            let d = u32::try_from(c.index).ok().and_then(|i| self.tensors.get(&(false, i)));
            (e.describe(d), c.bytes)
        });
        let mutable = mutable.into_iter().enumerate().flat_map(move |(k, bufs)| {
            bufs.into_iter().map(move |c| {
                let kind = EntryKind::Mutable { segment: k as u64, index: c.index as u64, offset: c.offset };
                let e = Entry::new(format!("mutable-{k}-{}.bin", c.index), c.bytes.len() as u64, kind);
                // the tensor table reads initial state from mutable segment 0 only
                let d = u32::try_from(c.index).ok().filter(|_| k == 0).and_then(|i| self.tensors.get(&(true, i)));
                (e.describe(d), c.bytes)
            })
        });
        let named = named.into_iter().enumerate().map(move |(i, n)| {
            let kind = EntryKind::Named {
                key: n.key.to_string(),
                segment_index: u64::from(self.sparse.original(n.segment_index)),
            };
            let e = Entry::new(format!("named-{i}-{}.bin", file_safe(n.key)), n.bytes.len() as u64, kind);
            (e.named_tensor(n.key, self.named.get(n.key)), n.bytes)
        });
        let delegates = delegates.into_iter().map(move |d| {
            let index =
                if d.location == pte_schema::DataLocation::SEGMENT { self.sparse.original(d.index) } else { d.index };
            let kind = EntryKind::Delegate {
                method: d.plan as u64,
                delegate: d.delegate as u64,
                id: Some(d.id.to_string()),
                location: d.location.name().map(str::to_owned),
                index: u64::from(index),
            };
            (Entry::new(format!("delegate-{}-{}.bin", d.plan, d.delegate), d.bytes.len() as u64, kind), d.bytes)
        });
        Ok(segments.chain(constants).chain(mutable).chain(named).chain(delegates))
    }
}

/// Every stored blob of a `.ptd`, as `pte extract` writes them: each
/// segment, then one entry per key naming its segment's bytes, with the
/// key as name and the dtype and shape of its tensor layout.
///
/// ```
/// let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/external/_default_external_constant.ptd"))?;
/// let ptd = pte_file::ptd::PtdFile::from_bytes(&bytes)?;
/// let blobs = pte_file::pack::PtdBlobs::new(&ptd, &bytes);
/// let (e, data) = blobs.entries().find(|(e, _)| e.name.as_deref() == Some("seq.0.weight")).unwrap();
/// assert_eq!((e.dtype.as_deref(), e.shape.as_deref(), data.len()), (Some("FLOAT"), Some(&[32, 16][..]), 2048));
/// assert_eq!(blobs.head().layout.unwrap().segment_alignment, Some(128));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub struct PtdBlobs<'p, 'a> {
    ptd: &'p PtdFile<'a>,
    layout: Layout,
}

impl<'p, 'a> PtdBlobs<'p, 'a> {
    /// The blobs of `ptd`, read from `bytes`.
    ///
    /// ```
    /// let ptd = pte_file::ptd::PtdFile::default();
    /// assert_eq!(pte_file::pack::PtdBlobs::new(&ptd, &[]).entries().count(), 0);
    /// ```
    pub fn new(ptd: &'p PtdFile<'a>, bytes: &[u8]) -> Self {
        PtdBlobs { ptd, layout: Layout::of_ptd(bytes) }
    }

    /// The manifest's head (`source` is the caller's to fill in).
    ///
    /// ```
    /// let ptd = pte_file::ptd::PtdFile::default();
    /// let head = pte_file::pack::PtdBlobs::new(&ptd, &[]).head();
    /// assert_eq!(head.format(), pte_file::pack::ManifestFormat::Ptd);
    /// ```
    pub fn head(&self) -> Manifest {
        Manifest {
            program: Some("program.json".into()),
            layout: Some(self.layout),
            ..Manifest::new(ManifestFormat::Ptd)
        }
    }

    /// Every blob with its entry, in manifest order (a key whose segment is
    /// missing is left out).
    ///
    /// ```
    /// let ptd = pte_file::ptd::PtdFile::default();
    /// assert!(pte_file::pack::PtdBlobs::new(&ptd, &[]).entries().next().is_none());
    /// ```
    pub fn entries(&self) -> impl Iterator<Item = (Entry, &'p [u8])> + 'p {
        let ptd = self.ptd;
        let table = ptd.flat_tensor.segments.as_deref().unwrap_or_default();
        let segments = ptd.segments.iter().enumerate().map(move |(i, s)| {
            let kind = EntryKind::Segment { index: i as u64, offset: table.get(i).map(|t| t.offset) };
            (Entry::new(format!("segment-{i}.bin"), s.len() as u64, kind), s.as_ref())
        });
        let named = ptd.flat_tensor.named_data.iter().flatten().enumerate().filter_map(move |(i, n)| {
            let blob = usize::try_from(n.segment_index).ok().and_then(|k| ptd.segments.get(k))?;
            let key = n.key.as_deref().unwrap_or_default();
            let kind = EntryKind::Named { key: key.to_string(), segment_index: u64::from(n.segment_index) };
            let mut e = Entry::new(format!("named-{i}-{}.bin", file_safe(key)), blob.len() as u64, kind);
            if !key.is_empty() {
                e.name = Some(key.to_string());
            }
            if let Some(l) = &n.tensor_layout {
                e.dtype = Some(l.scalar_type.to_string());
                e.shape = Some(l.sizes.iter().flatten().map(|&s| i64::from(s)).collect());
            }
            Some((e, blob.as_ref()))
        });
        segments.chain(named)
    }
}
