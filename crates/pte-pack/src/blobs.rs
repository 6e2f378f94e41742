//! The walk `pte extract` makes over a file's stored blobs: which entries a
//! manifest gets, in which order, under which file names, with the name,
//! dtype and shape of the tensor each blob holds where the file says.

use std::collections::BTreeMap;

use pte_schema::{Error, ErrorKind, Limits, Result, ValueRef};

use super::{file_safe, Entry, EntryKind, Layout, Manifest, ManifestFormat};
use pte_analysis::delegate_payload::{builtin_registry, named_tensors_of, NamedTensor};
use pte_file::ptd::PtdFile;
use pte_file::view::{PteView, SegmentTable};
use pte_file::{tensor_label, Unnamed};

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
/// blob and each delegate blob, in that order. The program is read in
/// place, never decoded: a table of a million entries costs no heap, the
/// tensors a few bytes per constant, and [`PteBlobs::entries`] builds each
/// entry only when it is reached.
///
/// Constants and mutable buffers carry the name, dtype (the `ScalarType`
/// name) and shape of the tensor-table entry that points at them (the label
/// of [`tensor_label`](pte_file::tensor_label), as `pte info --tensors` shows
/// it); a named blob carries its key as name, and the dtype and shape a
/// delegate payload gives it ([`named_tensors_of`]).
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
/// let blobs = pte_pack::PteBlobs::new(&bytes)?;
/// let entries: Vec<_> = blobs.entries()?.collect();
/// let (w, data) = entries.iter().find(|(e, _)| e.file == "constant-1.bin").unwrap();
/// assert_eq!((w.name.as_deref(), w.dtype.as_deref()), (Some("constant[1]"), Some("FLOAT")));
/// assert_eq!((w.shape.as_deref(), data.len()), (Some(&[3, 4][..]), 48));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub struct PteBlobs<'a> {
    view: PteView<'a>,
    layout: Layout,
    /// The first tensor value `(plan, value)` naming each constant, by
    /// `data_buffer_idx` (as long as the constant table).
    constant_users: Vec<Option<(u32, u32)>>,
    /// The same for the buffers of mutable segment 0.
    mutable_users: Vec<Option<(u32, u32)>>,
    named: BTreeMap<String, NamedTensor>,
}

impl<'a> PteBlobs<'a> {
    /// Reads `bytes` (fails where [`PteFile::from_bytes`](pte_file::PteFile::from_bytes) fails).
    ///
    /// ```
    /// assert!(pte_pack::PteBlobs::new(b"short").is_err());
    /// ```
    pub fn new(bytes: &'a [u8]) -> Result<Self> {
        let view = PteView::read(bytes, SegmentTable::Referenced)?;
        let layout = Layout::of_view(&view);
        let constants = view.constants().map_or(0, |c| c.len());
        let mutable = view.mutable_segments().and_then(|m| m.first().map(|m| m.len())).unwrap_or(0);
        let mut constant_users = vec![None; constants];
        let mut mutable_users = vec![None; mutable];
        for (p, plan) in view.plans().enumerate() {
            for (j, v) in plan.value_refs().enumerate() {
                let ValueRef::Tensor(t) = v else { continue };
                let idx = t.data_buffer_idx();
                if idx == 0 || t.is_external() {
                    continue;
                }
                let users = if t.allocation_info().is_some() { &mut mutable_users } else { &mut constant_users };
                if let Some(slot @ None) = usize::try_from(idx).ok().and_then(|i| users.get_mut(i)) {
                    *slot = Some((index_u32(p), index_u32(j)));
                }
            }
        }
        let delegates = view.delegates().unwrap_or_default();
        let named = named_tensors_of(delegates.iter().map(|d| (d.id, d.bytes)), builtin_registry(), &Limits::default());
        Ok(PteBlobs { view, layout, constant_users, mutable_users, named })
    }

    /// The manifest's head: version, format, the program file and the layout
    /// (`source` is the caller's to fill in).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let head = pte_pack::PteBlobs::new(&bytes)?.head();
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

    /// What the tensor `(plan, value)` says of the blob it points at.
    fn described(&self, user: Option<(u32, u32)>, unnamed: Unnamed<'_>) -> Option<Described> {
        let (plan, value) = user?;
        let t = self.view.tensor(plan, value)?;
        let shape = t.sizes().map(|s| s.iter().map(i64::from).collect()).unwrap_or_default();
        Some(Described { name: tensor_label(t.fqn(), unnamed), dtype: t.scalar_type().to_string(), shape })
    }

    /// Every blob with its entry (file name as `pte extract` names it, size,
    /// no digest), in manifest order. Fails where the program's constant,
    /// mutable, named or delegate tables do not resolve.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
    /// let blobs = pte_pack::PteBlobs::new(&bytes)?;
    /// let named: Vec<_> = blobs.entries()?.filter(|(e, _)| e.kind.name() == "named").map(|(e, _)| e).collect();
    /// assert_eq!(named[0].dtype.as_deref(), Some("fp32"));
    /// assert_eq!(named[0].shape.as_deref(), Some(&[32, 16][..]));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn entries(&self) -> Result<impl Iterator<Item = (Entry, &'a [u8])> + '_> {
        let view = &self.view;
        let (Some(constants), Some(mutable), Some(named), Some(delegates)) =
            (view.constants(), view.mutable_segments(), view.named_data(), view.delegates())
        else {
            return Err(self.unresolved());
        };
        let segments = view.segments().enumerate().map(move |(i, t)| {
            let seg = u32::try_from(i).ok().and_then(|i| view.segment(i)).unwrap_or(&[]);
            let kind = EntryKind::Segment { index: i as u64, offset: Some(t.offset) };
            (Entry::new(format!("segment-{i}.bin"), seg.len() as u64, kind), seg)
        });
        let constants = (0..constants.len()).filter_map(move |i| {
            let c = constants.get(i)?;
            let bytes = view.sub_buffer_bytes(&constants, i).unwrap_or(&[]);
            let kind = EntryKind::Constant { index: c.index as u64, offset: c.offset };
            let e = Entry::new(format!("constant-{}.bin", c.index), bytes.len() as u64, kind);
            let user = self.constant_users.get(c.index).copied().flatten();
            let d = u32::try_from(c.index).ok().and_then(|k| self.described(user, Unnamed::Constant(k)));
            Some((e.describe(d.as_ref()), bytes))
        });
        let mutable = mutable.into_iter().enumerate().flat_map(move |(k, bufs)| {
            (0..bufs.len()).filter_map(move |i| {
                let c = bufs.get(i)?;
                let bytes = view.sub_buffer_bytes(&bufs, i).unwrap_or(&[]);
                let kind = EntryKind::Mutable { segment: k as u64, index: c.index as u64, offset: c.offset };
                let e = Entry::new(format!("mutable-{k}-{}.bin", c.index), bytes.len() as u64, kind);
                // the tensor table reads initial state from mutable segment 0 only
                let user = self.mutable_users.get(c.index).copied().flatten().filter(|_| k == 0);
                let d = u32::try_from(c.index).ok().and_then(|i| self.described(user, Unnamed::Mutable(i)));
                Some((e.describe(d.as_ref()), bytes))
            })
        });
        let named = named.enumerate().map(move |(i, (key, segment_index, bytes))| {
            let kind = EntryKind::Named { key: key.to_string(), segment_index: u64::from(segment_index) };
            let e = Entry::new(format!("named-{i}-{}.bin", file_safe(key)), bytes.len() as u64, kind);
            (e.named_tensor(key, self.named.get(key)), bytes)
        });
        let delegates = delegates.into_iter().map(move |d| {
            let kind = EntryKind::Delegate {
                method: d.plan as u64,
                delegate: d.delegate as u64,
                id: Some(d.id.to_string()),
                location: d.location.name().map(str::to_owned),
                index: u64::from(d.index),
            };
            (Entry::new(format!("delegate-{}-{}.bin", d.plan, d.delegate), d.bytes.len() as u64, kind), d.bytes)
        });
        Ok(segments.chain(constants).chain(mutable).chain(named).chain(delegates))
    }

    /// Why a table does not resolve, in the words of the decoding reader
    /// (read only then, on a file already found broken).
    fn unresolved(&self) -> Error {
        self.view.blob_error().unwrap_or_else(|| {
            Error::new(ErrorKind::Malformed, "a constant, mutable, named or delegate blob lies outside its segment")
        })
    }
}

fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Every stored blob of a `.ptd`, as `pte extract` writes them: each
/// segment, then one entry per key naming its segment's bytes, with the
/// key as name and the dtype and shape of its tensor layout.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("external/_default_external_constant.ptd"))?;
/// let ptd = pte_file::ptd::PtdFile::from_bytes(&bytes)?;
/// let blobs = pte_pack::PtdBlobs::new(&ptd, &bytes);
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
    /// assert_eq!(pte_pack::PtdBlobs::new(&ptd, &[]).entries().count(), 0);
    /// ```
    pub fn new(ptd: &'p PtdFile<'a>, bytes: &[u8]) -> Self {
        PtdBlobs { ptd, layout: Layout::of_ptd(bytes) }
    }

    /// The manifest's head (`source` is the caller's to fill in).
    ///
    /// ```
    /// let ptd = pte_file::ptd::PtdFile::default();
    /// let head = pte_pack::PtdBlobs::new(&ptd, &[]).head();
    /// assert_eq!(head.format(), pte_pack::ManifestFormat::Ptd);
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
    /// assert!(pte_pack::PtdBlobs::new(&ptd, &[]).entries().next().is_none());
    /// ```
    pub fn entries(&self) -> impl Iterator<Item = (Entry, &'p [u8])> + 'p + use<'p> {
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
