//! A tensor-level view of a program, in the manner of safetensors'
//! `tensors()`: every stored constant, every mutable buffer and every
//! EXTERNAL tensor, with the metadata a user would otherwise join by hand
//! (`data_buffer_idx` against the constant offsets, the fqn against a `.ptd`).

use std::collections::BTreeMap;
use std::ops::Range;

use pte_schema::{DeviceType, KernelTypes, Result, ScalarType, Tensor, TensorShapeDynamism};

use crate::PteFile;

/// Where a listed tensor's data lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TensorStorage {
    /// In the constant segment (or the legacy inline `constant_buffer`).
    Constant,
    /// A mutable buffer: its initial state in mutable segment 0, or none
    /// when the buffer is only memory-planned.
    Mutable,
    /// In external tensor data (a `.ptd`), looked up by the tensor's name.
    External,
}

impl TensorStorage {
    /// A lower-case word for tables and JSON.
    ///
    /// ```
    /// assert_eq!(pte_file::TensorStorage::External.as_str(), "external");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            TensorStorage::Constant => "constant",
            TensorStorage::Mutable => "mutable",
            TensorStorage::External => "external",
        }
    }
}

/// What a tensor-table entry without a fully qualified name is called after.
///
/// ```
/// use pte_file::{tensor_label, Unnamed};
/// assert_eq!(tensor_label(None, Unnamed::Constant(3)), "constant[3]");
/// assert_eq!(tensor_label(Some("w"), Unnamed::Constant(3)), "w");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unnamed<'m> {
    /// A constant: its `data_buffer_idx`.
    Constant(u32),
    /// A mutable buffer with initial data: its `data_buffer_idx`.
    Mutable(u32),
    /// Any other tensor: its method and value index.
    Value {
        /// The method's name.
        method: &'m str,
        /// The value's index in the method.
        value: usize,
    },
}

/// The name a tensor-table entry goes by: its fully qualified name, else a
/// label stable for the file (`constant[3]`, `mutable[1]`,
/// `forward.values[7]`). `pte info --tensors` and `pte size` both name
/// tensors with it.
///
/// ```
/// use pte_file::{tensor_label, Unnamed};
/// assert_eq!(tensor_label(None, Unnamed::Mutable(1)), "mutable[1]");
/// assert_eq!(tensor_label(None, Unnamed::Value { method: "forward", value: 7 }), "forward.values[7]");
/// ```
pub fn tensor_label(fqn: Option<&str>, unnamed: Unnamed<'_>) -> String {
    match (fqn, unnamed) {
        (Some(n), _) => n.to_string(),
        (None, Unnamed::Constant(i)) => format!("constant[{i}]"),
        (None, Unnamed::Mutable(i)) => format!("mutable[{i}]"),
        (None, Unnamed::Value { method, value }) => format!("{method}.values[{value}]"),
    }
}

/// One tensor of [`PteFile::tensors`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TensorEntry<'s> {
    /// The fully qualified name, or a label that is stable for a given file
    /// (`constant[3]`, `mutable[1]`, `forward.values[7]`) when it has none.
    pub name: String,
    /// Whether [`TensorEntry::name`] is the tensor's own fqn.
    pub named: bool,
    /// Where the data lives.
    pub storage: TensorStorage,
    /// Element type.
    pub dtype: ScalarType,
    /// Dimension sizes (the upper bounds for a dynamic shape).
    pub sizes: Vec<i32>,
    /// Dimension order, outermost first.
    pub dim_order: Vec<u8>,
    /// Whether the shape may change at run time.
    pub dynamism: TensorShapeDynamism,
    /// Device the tensor belongs to.
    pub device: DeviceType,
    /// `data_buffer_idx` (ignored by the runtime for EXTERNAL tensors).
    pub data_buffer_idx: u32,
    /// `(method, value index)` of every value that refers to this data.
    pub users: Vec<(String, usize)>,
    /// The segment holding the data, when it is in a segment.
    pub segment: Option<u32>,
    /// Byte range relative to the segment base offset (add the extended
    /// header's `segment_base_offset` for a file offset; see
    /// [`TensorEntry::file_range`]); `None` for inline, external and
    /// memory-planned data.
    pub range: Option<Range<u64>>,
    /// The data, when this file holds it.
    pub bytes: Option<&'s [u8]>,
}

impl TensorEntry<'_> {
    /// Bytes the dtype and sizes call for (`None` when unknown or overflowing).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// assert_eq!(pte.tensors()?[0].nbytes(), Some(48));
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn nbytes(&self) -> Option<u64> {
        let numel = self.sizes.iter().try_fold(1u64, |acc, &s| acc.checked_mul(u64::try_from(s).ok()?))?;
        numel.checked_mul(self.dtype.element_size()?)
    }

    /// The byte range in the file, given the extended header's segment base.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let base = pte_segments::ExtendedHeader::parse(&bytes)?.map_or(0, |h| h.segment_base_offset);
    /// let w = &pte.tensors()?[0];
    /// let r = w.file_range(base).unwrap();
    /// assert_eq!(&bytes[r.start as usize..r.end as usize], w.bytes.unwrap());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn file_range(&self, segment_base_offset: u64) -> Option<Range<u64>> {
        let r = self.range.as_ref()?;
        Some(segment_base_offset.checked_add(r.start)?..segment_base_offset.checked_add(r.end)?)
    }
}

/// What identifies one stored datum, so values sharing it are listed once.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Constant(u32),
    Mutable(u32),
    External(String),
    Planned(usize, usize),
}

impl PteFile<'_> {
    /// Every constant, mutable buffer and EXTERNAL tensor, once per stored
    /// datum (values of several methods sharing one constant are one entry
    /// with several users): constants in `data_buffer_idx` order, then
    /// mutable buffers, then EXTERNAL tensors in order of first use.
    ///
    /// A mutable buffer is a value with both a memory plan and either
    /// initial data (`data_buffer_idx > 0`) or a name; unnamed planned
    /// activations are not listed.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("external/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let t = pte.tensors()?;
    /// assert_eq!(t.len(), 4);
    /// assert_eq!(t[0].name, "seq.0.weight");
    /// assert_eq!(t[0].storage, pte_file::TensorStorage::External);
    /// assert_eq!(t[0].sizes, [32, 16]);
    /// assert!(t[0].bytes.is_none());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn tensors(&self) -> Result<Vec<TensorEntry<'_>>> {
        let mut found: BTreeMap<Key, (usize, TensorEntry<'_>)> = BTreeMap::new();
        let mut order = 0usize;
        for (p, plan) in self.program.plans().iter().enumerate() {
            let method = plan.name.clone().unwrap_or_else(|| format!("plan{p}"));
            for (j, v) in plan.value_list().iter().enumerate() {
                let Some(KernelTypes::Tensor(t)) = &v.val else { continue };
                let Some((key, storage)) = classify(t, p, j) else { continue };
                let user = (method.clone(), j);
                if let Some((_, e)) = found.get_mut(&key) {
                    e.users.push(user);
                    continue;
                }
                let unnamed = match &key {
                    Key::Constant(i) => Unnamed::Constant(*i),
                    Key::Mutable(i) => Unnamed::Mutable(*i),
                    _ => Unnamed::Value { method: &method, value: j },
                };
                let name = tensor_label(t.fqn(), unnamed);
                let entry = TensorEntry {
                    name,
                    named: t.fqn().is_some(),
                    storage,
                    dtype: t.scalar_type,
                    sizes: t.sizes.clone().unwrap_or_default(),
                    dim_order: t.dim_order.clone().unwrap_or_default(),
                    dynamism: t.shape_dynamism,
                    device: t.extra_tensor_info.as_ref().map_or(DeviceType::CPU, |e| e.device_type),
                    data_buffer_idx: t.data_buffer_idx,
                    users: vec![user],
                    segment: None,
                    range: None,
                    bytes: None,
                };
                found.insert(key, (order, entry));
                order = order.saturating_add(1);
            }
        }
        self.attach_data(&mut found)?;
        let mut out: Vec<(Key, usize, TensorEntry<'_>)> = found.into_iter().map(|(k, (o, e))| (k, o, e)).collect();
        // Constants and mutable buffers sort by index; the others by first use.
        out.sort_by(|a, b| match (&a.0, &b.0) {
            (Key::External(_), Key::External(_)) | (Key::Planned(..), Key::Planned(..)) => a.1.cmp(&b.1),
            _ => a.0.cmp(&b.0),
        });
        Ok(out.into_iter().map(|(_, _, e)| e).collect())
    }

    /// Fills in bytes, segment and range from the constant and mutable tables.
    fn attach_data<'s>(&'s self, found: &mut BTreeMap<Key, (usize, TensorEntry<'s>)>) -> Result<()> {
        let table = self.program.segment_table();
        let seg_start = |i: u32| usize::try_from(i).ok().and_then(|i| table.get(i)).map(|s| s.offset);
        let in_segment =
            self.program.constant_segment.as_ref().is_some_and(|c| c.offsets.as_ref().is_some_and(|o| !o.is_empty()));
        let constants = self.constants()?;
        let const_seg = self.program.constant_segment.as_ref().map(|c| c.segment_index);
        let mutable = self.mutable_segments()?;
        let mut_seg = self.program.mutable_data_segments.as_ref().and_then(|m| m.first()).map(|m| m.segment_index);
        for (key, (_, e)) in found.iter_mut() {
            let (refs, seg) = match key {
                Key::Constant(i) => (
                    constants.get(usize::try_from(*i).unwrap_or(usize::MAX)),
                    if in_segment { const_seg } else { None },
                ),
                Key::Mutable(i) => {
                    (mutable.first().and_then(|m| m.get(usize::try_from(*i).unwrap_or(usize::MAX))), mut_seg)
                }
                _ => continue,
            };
            let Some(c) = refs else { continue };
            e.bytes = Some(c.bytes);
            e.segment = seg;
            e.range = seg.and_then(seg_start).and_then(|base| {
                let start = base.checked_add(c.offset)?;
                Some(start..start.checked_add(c.bytes.len() as u64)?)
            });
        }
        Ok(())
    }
}

fn classify(t: &Tensor, p: usize, j: usize) -> Option<(Key, TensorStorage)> {
    if t.is_external() {
        return Some((Key::External(t.fqn().unwrap_or_default().to_string()), TensorStorage::External));
    }
    match (t.allocation_info.is_some(), t.data_buffer_idx) {
        (false, 0) => None,
        (false, i) => Some((Key::Constant(i), TensorStorage::Constant)),
        (true, 0) if t.fqn().is_some() => Some((Key::Planned(p, j), TensorStorage::Mutable)),
        (true, 0) => None,
        (true, i) => Some((Key::Mutable(i), TensorStorage::Mutable)),
    }
}
