//! Moving weights between a program and `.ptd` files.
//!
//! [`externalize`] moves named constant tensors (turning them into EXTERNAL
//! tensors keyed by their fully qualified name) and named-data blobs into a
//! new `.ptd`; [`internalize`] moves them back. A constant keeps its
//! `data_buffer_idx` while external (the runtime ignores it there), so the
//! round trip restores the original constant table.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use pte_schema::ptd::TensorLayout;
use pte_schema::{
    DataSegment, Error, ErrorKind, KernelTypes, NamedData, Result, SubsegmentOffsets, TensorDataLocation,
};
use pte_segments::align::padding;
use pte_segments::layout::{pack_subsegments, plan_segments};
use pte_segments::SegmentSpec;

pub use crate::naming::name_unnamed_constants;
use crate::ptd::{PtdEntry, PtdFile, PtdParts, PtdWriteOptions};
use crate::{Bytes, PteFile, WriteOptions};

/// What [`externalize`] produced.
#[derive(Clone, Debug, PartialEq)]
pub struct Externalized<'a> {
    /// The program, with the moved tensors EXTERNAL and the moved blobs gone.
    pub program: PteFile<'a>,
    /// The new tensor data.
    pub data: PtdFile<'a>,
    /// Keys of the constant tensors moved.
    pub moved_tensors: Vec<String>,
    /// Keys of the named-data blobs moved.
    pub moved_named: Vec<String>,
    /// Field paths of matching constants left in place because they have no name.
    pub unnamed: Vec<String>,
}

impl Externalized<'_> {
    /// Refuses an externalization that moved nothing (`InvalidUse`), saying
    /// why and what would move something, so no writer saves a program
    /// unchanged beside an empty data file. `selection` is how the caller's
    /// key selection is spelled to its user (`--keys "a.*"`, `keys=[...]`),
    /// `None` when everything was asked for; `naming` is how its option to
    /// name unnamed constants is spelled (`--name-constants PREFIX`).
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// let pte = pte_file::PteFile::from_bytes(&bytes)?;
    /// let ex = pte_file::external::externalize(&pte, |_| true, &Default::default(), &Default::default())?;
    /// let e = ex.require_moved(None, "--name-constants PREFIX").unwrap_err();
    /// assert!(e.to_string().contains("no fully qualified name (--name-constants PREFIX names them)"), "{e}");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn require_moved(&self, selection: Option<&str>, naming: &str) -> Result<()> {
        if !self.moved_tensors.is_empty() || !self.moved_named.is_empty() {
            return Ok(());
        }
        let mut why = vec![];
        if !self.unnamed.is_empty() {
            let have = match self.unnamed.len() {
                1 => "1 constant has".to_string(),
                n => format!("{n} constants have"),
            };
            why.push(format!("{have} no fully qualified name ({naming} names them)"));
        }
        if let Some(k) = selection {
            why.push(format!("no named constant or named-data key matches {k}"));
        } else if self.unnamed.is_empty() {
            why.push("the program has no named constant and no named data".to_string());
        }
        Err(invalid(format!("nothing to externalize: {}; nothing was written", why.join("; "))))
    }
}

fn invalid(m: String) -> Error {
    Error::new(ErrorKind::InvalidUse, m)
}

/// Locations of constant tensors in the program: (plan, value) per data index.
fn constant_users(pte: &PteFile<'_>) -> BTreeMap<u32, Vec<(usize, usize)>> {
    let mut m: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    for (p, plan) in pte.program.plans().iter().enumerate() {
        for (j, v) in plan.value_list().iter().enumerate() {
            if let Some(KernelTypes::Tensor(t)) = &v.val
                && t.data_buffer_idx > 0
                && t.allocation_info.is_none()
                && !t.is_external()
            {
                m.entry(t.data_buffer_idx).or_default().push((p, j));
            }
        }
    }
    m
}

fn tensor_mut<'p>(pte: &'p mut PteFile<'_>, p: usize, j: usize) -> Option<&'p mut pte_schema::Tensor> {
    let v = pte.program.execution_plan.as_mut()?.get_mut(p)?.values.as_mut()?.get_mut(j)?;
    match v.val.as_mut()? {
        KernelTypes::Tensor(t) => Some(t),
        _ => None,
    }
}

/// The constant-segment entries by data index, borrowing from the file's
/// input where the segment does (no copy of constant bytes on the way).
fn constant_entries<'a>(pte: &PteFile<'a>) -> Vec<Bytes<'a>> {
    let Some(cs) = &pte.program.constant_segment else { return vec![] };
    let Ok(refs) = pte.constants() else { return vec![] };
    let seg: Option<&'a [u8]> =
        usize::try_from(cs.segment_index).ok().and_then(|i| pte.segments.get(i)).and_then(|s| match s {
            Cow::Borrowed(b) => Some(*b),
            Cow::Owned(_) => None,
        });
    refs.iter()
        .map(|c| {
            let borrowed = seg.and_then(|b| {
                let off = (c.bytes.as_ptr() as usize).checked_sub(b.as_ptr() as usize)?;
                b.get(off..off.checked_add(c.bytes.len())?)
            });
            borrowed.map_or_else(|| Cow::Owned(c.bytes.to_vec()), Cow::Borrowed)
        })
        .collect()
}

/// Rebuilds the constant segment from `entries` (by data index) at `alignment`.
fn set_constants<'a>(pte: &mut PteFile<'a>, entries: Vec<Bytes<'a>>, alignment: u64) -> Result<()> {
    let Some(cs) = &pte.program.constant_segment else { return Ok(()) };
    let idx = usize::try_from(cs.segment_index).map_err(|_| invalid("constant segment index".into()))?;
    let lens: Vec<u64> = entries.iter().map(|e| e.len() as u64).collect();
    let (offsets, total) = pack_subsegments(&lens, alignment)?;
    let mut seg = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
    let last = entries.len().saturating_sub(1);
    for (i, e) in entries.iter().enumerate() {
        seg.extend_from_slice(e);
        if i != last {
            let pad = usize::try_from(padding(e.len() as u64, alignment)).unwrap_or(0);
            seg.resize(seg.len().saturating_add(pad), 0);
        }
    }
    let slot = pte.segments.get_mut(idx).ok_or_else(|| invalid(format!("constant segment {idx} does not exist")))?;
    *slot = Cow::Owned(seg);
    pte.program.constant_segment = Some(SubsegmentOffsets { segment_index: cs.segment_index, offsets: Some(offsets) });
    Ok(())
}

/// Places every segment anew (exir's order-preserving rule) and updates sizes.
fn relayout(pte: &mut PteFile<'_>, segment_alignment: u64) -> Result<()> {
    let specs: Vec<SegmentSpec> = pte.segments.iter().map(|s| SegmentSpec::new(s.len() as u64, 1)).collect();
    let plan = plan_segments(&specs, segment_alignment)?;
    pte.program.segments =
        Some(specs.iter().zip(&plan.offsets).map(|(s, &offset)| DataSegment { offset, size: s.size }).collect());
    Ok(())
}

/// Removes the segments in `drop` and renumbers every reference to the rest.
fn drop_segments(pte: &mut PteFile<'_>, drop: &BTreeSet<u32>) {
    let map = |i: u32| i.saturating_sub(u32::try_from(drop.range(..i).count()).unwrap_or(u32::MAX));
    for &d in drop.iter().rev() {
        let i = usize::try_from(d).unwrap_or(usize::MAX);
        if i < pte.segments.len() {
            pte.segments.remove(i);
            if let Some(t) = &mut pte.program.segments
                && i < t.len()
            {
                t.remove(i);
            }
        }
    }
    crate::transform::remap_segment_refs(&mut pte.program, map);
}

/// Moves constants and named blobs whose key satisfies `matches` into a new `.ptd`.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte"))?;
/// let pte = pte_file::PteFile::from_bytes(&bytes)?;
/// let ex = pte_file::external::externalize(&pte, |_| true, &Default::default(), &Default::default())?;
/// assert_eq!(ex.moved_named.len(), 4);
/// assert!(ex.program.program.named_data.as_ref().unwrap().is_empty());
/// let back = pte_file::external::internalize(&ex.program, &[&ex.data], &Default::default())?;
/// assert_eq!(back, pte);
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn externalize<'a>(
    pte: &PteFile<'a>,
    matches: impl Fn(&str) -> bool,
    options: &WriteOptions,
    ptd_options: &PtdWriteOptions,
) -> Result<Externalized<'a>> {
    let mut out = pte.clone();
    let constants = constant_entries(pte);
    let mut entries = vec![];
    let mut blobs: Vec<Bytes<'a>> = vec![];
    let mut blob_of_key: HashMap<String, usize> = HashMap::new();
    let mut moved_tensors = vec![];
    let mut unnamed = vec![];
    let mut emptied: Vec<u32> = vec![];
    for (idx, users) in constant_users(pte) {
        let names: Vec<Option<String>> = users
            .iter()
            .map(|&(p, j)| {
                match pte.program.plans().get(p).and_then(|pl| pl.value_list().get(j)).and_then(|v| v.val.as_ref()) {
                    Some(KernelTypes::Tensor(t)) => t.fqn().map(str::to_owned),
                    _ => None,
                }
            })
            .collect();
        let wanted: Vec<bool> = names.iter().map(|n| n.as_deref().is_some_and(&matches)).collect();
        for (k, &(p, j)) in users.iter().enumerate() {
            if names.get(k).is_some_and(Option::is_none) {
                unnamed.push(format!("execution_plan[{p}].values[{j}]"));
            }
        }
        if !wanted.iter().any(|&w| w) {
            continue;
        }
        let Some(data) = usize::try_from(idx).ok().and_then(|i| constants.get(i)) else { continue };
        for (k, &(p, j)) in users.iter().enumerate() {
            if !wanted.get(k).copied().unwrap_or(false) {
                continue;
            }
            let Some(key) = names.get(k).cloned().flatten() else { continue };
            let t = tensor_mut(&mut out, p, j).ok_or_else(|| invalid("tensor vanished".into()))?;
            let layout =
                TensorLayout { scalar_type: t.scalar_type, sizes: t.sizes.clone(), dim_order: t.dim_order.clone() };
            if let Some(e) = &mut t.extra_tensor_info {
                e.location = TensorDataLocation::EXTERNAL;
            }
            if blob_of_key.contains_key(&key) {
                continue; // another tensor with this name already carried the bytes
            }
            blobs.push(data.clone());
            blob_of_key.insert(key.clone(), blobs.len().saturating_sub(1));
            entries.push(PtdEntry {
                key: key.clone(),
                blob: blobs.len().saturating_sub(1),
                layout: Some(layout),
                alignment: 1,
            });
            moved_tensors.push(key);
        }
        if wanted.iter().all(|&w| w) {
            emptied.push(idx);
        }
    }
    if !emptied.is_empty() {
        let mut c = constants.clone();
        for i in &emptied {
            if let Some(slot) = usize::try_from(*i).ok().and_then(|i| c.get_mut(i)) {
                *slot = Cow::Borrowed(&[][..]);
            }
        }
        set_constants(&mut out, c, u64::from(options.tensor_alignment()))?;
    }
    let mut moved_named = vec![];
    let mut drop = BTreeSet::new();
    if let Some(named) = out.program.named_data.take() {
        let mut keep = vec![];
        for n in named {
            let key = n.key.clone().unwrap_or_default();
            if n.key.is_some() && matches(&key) {
                let bytes: Bytes<'a> = usize::try_from(n.segment_index)
                    .ok()
                    .and_then(|i| pte.segments.get(i))
                    .cloned()
                    .ok_or_else(|| invalid(format!("named data {key:?} names a missing segment")))?;
                let b = match blob_of_key.get(&format!("\0seg{}", n.segment_index)) {
                    Some(&b) => b,
                    None => {
                        blobs.push(bytes);
                        let b = blobs.len().saturating_sub(1);
                        blob_of_key.insert(format!("\0seg{}", n.segment_index), b);
                        b
                    }
                };
                entries.push(PtdEntry { key: key.clone(), blob: b, layout: None, alignment: 1 });
                drop.insert(n.segment_index);
                moved_named.push(key);
            } else {
                keep.push(n);
            }
        }
        for n in &keep {
            drop.remove(&n.segment_index);
        }
        out.program.named_data = Some(keep);
    }
    let still_used =
        |s: u32| {
            out.program.constant_segment.as_ref().is_some_and(|c| c.segment_index == s)
                || out.program.mutable_data_segments.iter().flatten().any(|m| m.segment_index == s)
                || out.program.plans().iter().flat_map(|p| p.delegates.iter().flatten()).any(|d| {
                    d.processed.is_some_and(|r| r.location == pte_schema::DataLocation::SEGMENT && r.index == s)
                })
        };
    let drop: BTreeSet<u32> = drop.into_iter().filter(|&s| !still_used(s)).collect();
    drop_segments(&mut out, &drop);
    relayout(&mut out, options.segment_alignment())?;
    let data = PtdParts { entries, blobs }.build(ptd_options)?;
    Ok(Externalized { program: out, data, moved_tensors, moved_named, unnamed })
}

/// Moves every EXTERNAL constant found in `ptds` back into the program's
/// constant segment, and every other `.ptd` key into the program's named data.
///
/// A tensor whose `data_buffer_idx` names an empty constant entry gets its
/// bytes back at that index; otherwise its bytes are appended as a new entry.
///
/// ```
/// let dir = pte_testkit::corpus("external");
/// let pte_bytes = std::fs::read(dir.join("model.pte"))?;
/// let ptd_bytes = std::fs::read(dir.join("_default_external_constant.ptd"))?;
/// let pte = pte_file::PteFile::from_bytes(&pte_bytes)?;
/// let ptd = pte_file::ptd::PtdFile::from_bytes(&ptd_bytes)?;
/// let inside = pte_file::external::internalize(&pte, &[&ptd], &Default::default())?;
/// assert!(inside.program.plans()[0].value_list().iter().all(|v| match &v.val {
///     Some(pte_schema::KernelTypes::Tensor(t)) => !t.is_external(),
///     _ => true,
/// }));
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn internalize<'a>(pte: &PteFile<'a>, ptds: &[&PtdFile<'a>], options: &WriteOptions) -> Result<PteFile<'a>> {
    let mut out = pte.clone();
    let mut constants = constant_entries(pte);
    if constants.is_empty() {
        constants.push(Cow::Borrowed(&[][..]));
    }
    let lookup = |key: &str| -> Option<Bytes<'a>> {
        ptds.iter().find_map(|p| {
            let n = p.flat_tensor.named_data.iter().flatten().find(|n| n.key.as_deref() == Some(key))?;
            usize::try_from(n.segment_index).ok().and_then(|i| p.segments.get(i)).cloned()
        })
    };
    let mut used_keys = BTreeSet::new();
    let mut index_of_key: HashMap<String, u32> = HashMap::new();
    let positions: Vec<(usize, usize)> = out
        .program
        .plans()
        .iter()
        .enumerate()
        .flat_map(|(p, plan)| (0..plan.value_list().len()).map(move |j| (p, j)))
        .collect();
    for (p, j) in positions {
        let Some(t) = tensor_mut(&mut out, p, j) else { continue };
        if !t.is_external() || t.allocation_info.is_some() {
            continue;
        }
        let Some(key) = t.fqn().map(str::to_owned) else { continue };
        let Some(bytes) = lookup(&key) else {
            return Err(Error::new(
                ErrorKind::InvalidUse,
                format!("external key {key:?} is in none of the .ptd files"),
            )
            .at_path(format!("execution_plan[{p}].values[{j}]")));
        };
        let idx = match index_of_key.get(&key) {
            Some(&i) => i,
            None => {
                let cur = usize::try_from(t.data_buffer_idx).ok();
                let i = match cur.and_then(|c| constants.get(c).map(|e| (c, e.is_empty()))) {
                    Some((c, true)) if c > 0 => {
                        if let Some(slot) = constants.get_mut(c) {
                            *slot = bytes;
                        }
                        t.data_buffer_idx
                    }
                    _ => {
                        constants.push(bytes);
                        u32::try_from(constants.len().saturating_sub(1))
                            .map_err(|_| invalid("too many constants".into()))?
                    }
                };
                index_of_key.insert(key.clone(), i);
                i
            }
        };
        t.data_buffer_idx = idx;
        if let Some(e) = &mut t.extra_tensor_info {
            e.location = TensorDataLocation::SEGMENT;
        }
        used_keys.insert(key);
    }
    if out.program.constant_segment.is_none() {
        out.program.constant_segment = Some(SubsegmentOffsets { segment_index: 0, offsets: Some(vec![0]) });
        out.segments.insert(0, Cow::Borrowed(&[][..]));
        let mut t = out.program.segments.take().unwrap_or_default();
        t.insert(0, DataSegment::default());
        out.program.segments = Some(t);
    }
    set_constants(&mut out, constants, u64::from(options.tensor_alignment()))?;
    for ptd in ptds {
        for (n, seg) in ptd.flat_tensor.named_data.iter().flatten().filter_map(|n| {
            let s = usize::try_from(n.segment_index).ok().and_then(|i| ptd.segments.get(i))?;
            Some((n, s))
        }) {
            let Some(key) = &n.key else { continue };
            if used_keys.contains(key) {
                continue;
            }
            let idx = u32::try_from(out.segments.len()).map_err(|_| invalid("too many segments".into()))?;
            out.segments.push(seg.clone());
            out.program.segments.get_or_insert_with(Vec::new).push(DataSegment { offset: 0, size: seg.len() as u64 });
            out.program
                .named_data
                .get_or_insert_with(Vec::new)
                .push(NamedData { key: Some(key.clone()), segment_index: idx });
        }
    }
    relayout(&mut out, options.segment_alignment())?;
    Ok(out)
}
