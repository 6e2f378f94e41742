//! Structural moves on a program: lists shortened (methods, chains,
//! instructions, values, operators, delegates, segments, named data,
//! constants and every smaller list), strings shortened, blobs (segments,
//! inline delegate data, constants, compile specs) cut, XNNPACK payloads cut
//! inside. Every candidate is the edited model written by our writer.

use std::borrow::Cow;
use std::ops::Range;

use pte_file::{PteFile, SegmentLayout, WriteOptions};
use pte_schema::xnnpack::XnnHeader;
use pte_schema::{InstructionArguments, KernelTypes};

use super::search::{without, Search};
use super::Lens;

/// Something a move can shorten.
trait Cut {
    /// Items (list elements, characters, bytes).
    fn count(&self) -> usize;
    /// Removes the items of `r`.
    fn cut(&mut self, r: Range<usize>) -> Option<()>;
    /// Drops an optional field altogether; false when it cannot.
    fn unset(&mut self) -> bool {
        false
    }
}

impl<T: Clone> Cut for Option<Vec<T>> {
    fn count(&self) -> usize {
        self.as_ref().map_or(0, Vec::len)
    }
    fn cut(&mut self, r: Range<usize>) -> Option<()> {
        let v = self.as_mut()?;
        *v = without(v, r)?;
        Some(())
    }
    fn unset(&mut self) -> bool {
        self.take().is_some()
    }
}

impl Cut for Option<String> {
    fn count(&self) -> usize {
        self.as_ref().map_or(0, |s| s.chars().count())
    }
    fn cut(&mut self, r: Range<usize>) -> Option<()> {
        let s = self.as_mut()?;
        let chars: Vec<char> = s.chars().collect();
        *s = without(&chars, r)?.into_iter().collect();
        Some(())
    }
    fn unset(&mut self) -> bool {
        self.take().is_some()
    }
}

impl Cut for Cow<'_, [u8]> {
    fn count(&self) -> usize {
        self.len()
    }
    fn cut(&mut self, r: Range<usize>) -> Option<()> {
        *self = Cow::Owned(without(self, r)?);
        Some(())
    }
}

impl Cut for Option<Cow<'_, [u8]>> {
    fn count(&self) -> usize {
        self.as_ref().map_or(0, |b| b.len())
    }
    fn cut(&mut self, r: Range<usize>) -> Option<()> {
        self.as_mut()?.cut(r)
    }
    fn unset(&mut self) -> bool {
        self.take().is_some()
    }
}

/// The segment table and the segments' bytes, cut together.
struct Segments<'m, 'a>(&'m mut Option<Vec<pte_schema::DataSegment>>, &'m mut Vec<Cow<'a, [u8]>>);

impl Cut for Segments<'_, '_> {
    fn count(&self) -> usize {
        self.1.len()
    }
    fn cut(&mut self, r: Range<usize>) -> Option<()> {
        self.0.cut(r.clone())?;
        *self.1 = without(self.1, r)?;
        Some(())
    }
}

/// One place in a program a move can shorten.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Site {
    Plans,
    Segments,
    NamedData,
    ConstantBuffer,
    InlineData,
    ConstantOffsets,
    Mutable,
    MutableOffsets(usize),
    Chains(usize),
    Delegates(usize),
    Operators(usize),
    Values(usize),
    Inputs(usize),
    Outputs(usize),
    BufferSizes(usize),
    BufferDevices(usize),
    Instructions(usize, usize),
    ChainInputs(usize, usize),
    ChainOutputs(usize, usize),
    Stacktrace(usize, usize),
    Args(usize, usize, usize),
    Specs(usize, usize),
    Sizes(usize, usize),
    DimOrder(usize, usize),
    List(usize, usize),
    PlanName(usize),
    MetaIn(usize),
    MetaOut(usize),
    OpName(usize, usize),
    Overload(usize, usize),
    DelegateId(usize, usize),
    SpecKey(usize, usize, usize),
    NamedKey(usize),
    Fqn(usize, usize),
    Str(usize, usize),
    SegmentBytes(usize),
    Inline(usize),
    Storage(usize),
    SpecValue(usize, usize, usize),
}

impl Site {
    /// A blob of bytes (cut in coarser chunks when large).
    fn is_blob(self) -> bool {
        matches!(self, Site::SegmentBytes(_) | Site::Inline(_) | Site::Storage(_) | Site::SpecValue(..))
    }
}

fn n<T>(v: &Option<Vec<T>>) -> usize {
    v.as_ref().map_or(0, Vec::len)
}

/// Every site of `pte`, coarse ones first.
fn sites(pte: &PteFile<'_>) -> Vec<Site> {
    use Site::*;
    let p = &pte.program;
    let mut out = vec![Plans, Segments, NamedData, ConstantBuffer, InlineData, ConstantOffsets, Mutable];
    out.extend((0..n(&p.mutable_data_segments)).map(MutableOffsets));
    let plans = p.execution_plan.as_deref().unwrap_or(&[]);
    for (i, plan) in plans.iter().enumerate() {
        out.extend([Chains(i), Delegates(i), Operators(i), Values(i), Inputs(i), Outputs(i)]);
        out.extend([BufferSizes(i), BufferDevices(i)]);
        for (c, chain) in plan.chains.iter().flatten().enumerate() {
            out.extend([Instructions(i, c), ChainInputs(i, c), ChainOutputs(i, c), Stacktrace(i, c)]);
            out.extend((0..n(&chain.instructions)).map(|k| Args(i, c, k)));
        }
        for (d, delegate) in plan.delegates.iter().flatten().enumerate() {
            out.push(Specs(i, d));
            out.push(DelegateId(i, d));
            for k in 0..n(&delegate.compile_specs) {
                out.extend([SpecKey(i, d, k), SpecValue(i, d, k)]);
            }
        }
        for (v, value) in plan.values.iter().flatten().enumerate() {
            match &value.val {
                Some(KernelTypes::Tensor(_)) => out.extend([Sizes(i, v), DimOrder(i, v), Fqn(i, v)]),
                Some(KernelTypes::String(_)) => out.push(Str(i, v)),
                Some(
                    KernelTypes::IntList(_)
                    | KernelTypes::DoubleList(_)
                    | KernelTypes::BoolList(_)
                    | KernelTypes::TensorList(_)
                    | KernelTypes::OptionalTensorList(_),
                ) => out.push(List(i, v)),
                _ => {}
            }
        }
        out.extend([PlanName(i), MetaIn(i), MetaOut(i)]);
        out.extend((0..n(&plan.operators)).flat_map(|o| [OpName(i, o), Overload(i, o)]));
    }
    out.extend((0..n(&p.named_data)).map(NamedKey));
    out.extend((0..pte.segments.len()).map(SegmentBytes));
    out.extend((0..n(&p.backend_delegate_data)).map(Inline));
    out.extend((0..n(&p.constant_buffer)).map(Storage));
    out
}

fn plan<'p>(p: &'p mut pte_schema::Program<'_>, i: usize) -> Option<&'p mut pte_schema::ExecutionPlan> {
    p.execution_plan.as_mut().and_then(|v| v.get_mut(i))
}

/// Lets `f` edit the part of `pte` that `site` names.
fn with<R>(pte: &mut PteFile<'_>, site: Site, f: impl FnOnce(&mut dyn Cut) -> R) -> Option<R> {
    use Site::*;
    let p = &mut pte.program;
    macro_rules! at {
        ($list:expr, $i:expr) => {
            $list.as_mut().and_then(|v| v.get_mut($i))
        };
    }
    Some(match site {
        Plans => f(&mut p.execution_plan),
        Segments => f(&mut self::Segments(&mut p.segments, &mut pte.segments)),
        NamedData => f(&mut p.named_data),
        ConstantBuffer => f(&mut p.constant_buffer),
        InlineData => f(&mut p.backend_delegate_data),
        ConstantOffsets => f(&mut p.constant_segment.as_mut()?.offsets),
        Mutable => f(&mut p.mutable_data_segments),
        MutableOffsets(m) => f(&mut at!(p.mutable_data_segments, m)?.offsets),
        Chains(i) => f(&mut plan(p, i)?.chains),
        Delegates(i) => f(&mut plan(p, i)?.delegates),
        Operators(i) => f(&mut plan(p, i)?.operators),
        Values(i) => f(&mut plan(p, i)?.values),
        Inputs(i) => f(&mut plan(p, i)?.inputs),
        Outputs(i) => f(&mut plan(p, i)?.outputs),
        BufferSizes(i) => f(&mut plan(p, i)?.non_const_buffer_sizes),
        BufferDevices(i) => f(&mut plan(p, i)?.non_const_buffer_device),
        Instructions(i, c) => f(&mut at!(plan(p, i)?.chains, c)?.instructions),
        ChainInputs(i, c) => f(&mut at!(plan(p, i)?.chains, c)?.inputs),
        ChainOutputs(i, c) => f(&mut at!(plan(p, i)?.chains, c)?.outputs),
        Stacktrace(i, c) => f(&mut at!(plan(p, i)?.chains, c)?.stacktrace),
        Args(i, c, k) => {
            let chain = at!(plan(p, i)?.chains, c)?;
            match at!(chain.instructions, k)?.instr_args.as_mut()? {
                InstructionArguments::KernelCall { args, .. } | InstructionArguments::DelegateCall { args, .. } => {
                    f(args)
                }
                _ => return None,
            }
        }
        Specs(i, d) => f(&mut at!(plan(p, i)?.delegates, d)?.compile_specs),
        DelegateId(i, d) => f(&mut at!(plan(p, i)?.delegates, d)?.id),
        SpecKey(i, d, k) => f(&mut at!(at!(plan(p, i)?.delegates, d)?.compile_specs, k)?.key),
        SpecValue(i, d, k) => f(&mut at!(at!(plan(p, i)?.delegates, d)?.compile_specs, k)?.value),
        Sizes(i, v) | DimOrder(i, v) | Fqn(i, v) | Str(i, v) | List(i, v) => {
            let val = at!(plan(p, i)?.values, v)?.val.as_mut()?;
            match (site, val) {
                (Sizes(..), KernelTypes::Tensor(t)) => f(&mut t.sizes),
                (DimOrder(..), KernelTypes::Tensor(t)) => f(&mut t.dim_order),
                (Fqn(..), KernelTypes::Tensor(t)) => f(&mut t.extra_tensor_info.as_mut()?.fully_qualified_name),
                (Str(..), KernelTypes::String(s)) => f(s),
                (List(..), KernelTypes::IntList(l)) => f(l),
                (List(..), KernelTypes::DoubleList(l)) => f(l),
                (List(..), KernelTypes::BoolList(l)) => f(l),
                (List(..), KernelTypes::TensorList(l) | KernelTypes::OptionalTensorList(l)) => f(l),
                _ => return None,
            }
        }
        PlanName(i) => f(&mut plan(p, i)?.name),
        MetaIn(i) => f(&mut plan(p, i)?.container_meta_type.as_mut()?.encoded_inp_str),
        MetaOut(i) => f(&mut plan(p, i)?.container_meta_type.as_mut()?.encoded_out_str),
        OpName(i, o) => f(&mut at!(plan(p, i)?.operators, o)?.name),
        Overload(i, o) => f(&mut at!(plan(p, i)?.operators, o)?.overload),
        NamedKey(n) => f(&mut at!(p.named_data, n)?.key),
        SegmentBytes(s) => f(pte.segments.get_mut(s)?),
        Inline(d) => f(&mut at!(p.backend_delegate_data, d)?.data),
        Storage(b) => f(&mut at!(p.constant_buffer, b)?.storage),
    })
}

/// A candidate: the program `lens` selects in `best`, edited by `change`,
/// written with `options`.
fn edit(
    best: &[u8],
    lens: &dyn Lens,
    options: &WriteOptions,
    change: impl FnOnce(&mut PteFile<'_>) -> Option<()>,
) -> Option<Vec<u8>> {
    let inner = lens.get(best)?;
    let mut pte = PteFile::from_bytes(&inner).ok()?;
    change(&mut pte)?;
    lens.put(best, &pte.to_bytes(options).ok()?)
}

/// The tightest layout the writer allows: segments packed, no padding
/// beyond what the format needs.
fn tight() -> Option<WriteOptions> {
    let o = WriteOptions::default().with_layout(SegmentLayout::Repack).with_segment_alignment(1).ok()?;
    o.with_tensor_alignment(1).ok()?.with_delegate_alignment(1).ok()
}

/// The structural pass over the program `lens` selects; true on progress.
pub(crate) fn pass(s: &mut Search<'_>, lens: &dyn Lens) -> bool {
    let Some(inner) = lens.get(&s.best) else { return false };
    let Ok(pte) = PteFile::from_bytes(&inner) else { return false };
    let mut options = WriteOptions::matching(&pte, &inner);
    drop(pte);
    let mut any = false;
    // the same program written again, first packed tight, then as it was laid out
    for o in tight().into_iter().chain([options]) {
        if let Some(c) = edit(&s.best, lens, &o, |_| Some(()))
            && s.offer(c)
        {
            options = o;
            any = true;
            break;
        }
    }
    loop {
        let mut progress = false;
        let mut i = 0usize;
        loop {
            let current = lens.get(&s.best).and_then(|b| PteFile::from_bytes(&b).ok().map(|p| sites(&p)));
            let Some(&site) = current.as_ref().and_then(|all| all.get(i)) else { break };
            i = i.saturating_add(1);
            if s.stop.is_some() {
                return any | progress;
            }
            if let Some(c) = edit(&s.best, lens, &options, |p| with(p, site, |c| c.unset())?.then_some(())) {
                progress |= s.offer(c);
            }
            let count = lens
                .get(&s.best)
                .and_then(|b| PteFile::from_bytes(&b).ok().and_then(|mut p| with(&mut p, site, |c| c.count())));
            let Some(count) = count else { continue };
            let min_chunk = if site.is_blob() && count > 4096 { count / 64 } else { 1 };
            progress |=
                s.reduce(count, min_chunk, |best, r| edit(best, lens, &options, |p| with(p, site, |c| c.cut(r))?));
            if site.is_blob() {
                progress |= xnnpack(s, lens, &options, site);
            }
        }
        any |= progress;
        if !progress || s.stop.is_some() {
            return any;
        }
    }
}

/// The bytes of blob `site` of the program `lens` selects in `best`.
fn blob(best: &[u8], lens: &dyn Lens, site: Site) -> Option<Vec<u8>> {
    let inner = lens.get(best)?;
    let pte = PteFile::from_bytes(&inner).ok()?;
    let p = &pte.program;
    let b: &[u8] = match site {
        Site::SegmentBytes(i) => pte.segments.get(i)?,
        Site::Inline(i) => p.backend_delegate_data.as_ref()?.get(i)?.data.as_deref()?,
        _ => return None,
    };
    Some(b.to_vec())
}

/// An XNNPACK payload in blob `site`, as a lens: its flatbuffer.
struct Xnn<'l> {
    outer: &'l dyn Lens,
    options: WriteOptions,
    site: Site,
}

impl Lens for Xnn<'_> {
    fn get(&self, best: &[u8]) -> Option<Vec<u8>> {
        let payload = blob(best, self.outer, self.site)?;
        let h = XnnHeader::parse(&payload).ok()??;
        let start = usize::try_from(h.flatbuffer_offset).ok()?;
        let end = start.checked_add(usize::try_from(h.flatbuffer_size).ok()?)?;
        payload.get(start..end).map(<[u8]>::to_vec)
    }

    fn put(&self, best: &[u8], flatbuffer: &[u8]) -> Option<Vec<u8>> {
        let payload = blob(best, self.outer, self.site)?;
        let mut h = XnnHeader::parse(&payload).ok()??;
        let start = usize::try_from(h.flatbuffer_offset).ok()?;
        let constants = usize::try_from(h.constant_data_offset).ok()?;
        let data = payload.get(constants..constants.checked_add(usize::try_from(h.constant_data_size).ok()?)?)?;
        let mut out = payload.get(..start)?.to_vec();
        out.extend_from_slice(flatbuffer);
        // constants stay 16-byte aligned, as the backend writes them
        while !out.len().is_multiple_of(16) {
            out.push(0);
        }
        h.flatbuffer_size = u32::try_from(flatbuffer.len()).ok()?;
        h.constant_data_offset = u32::try_from(out.len()).ok()?;
        out.extend_from_slice(data);
        out.get_mut(..pte_schema::xnnpack::XNN_HEADER_SIZE)?.copy_from_slice(&h.to_bytes());
        replace_blob(best, self.outer, &self.options, self.site, out)
    }
}

/// Moves inside an XNNPACK payload: its constant data cut from the end,
/// then its flatbuffer shrunk by the flatbuffer moves.
fn xnnpack(s: &mut Search<'_>, lens: &dyn Lens, options: &WriteOptions, site: Site) -> bool {
    let Some(payload) = blob(&s.best, lens, site) else { return false };
    let Ok(Some(h)) = XnnHeader::parse(&payload) else { return false };
    let Ok(size) = usize::try_from(h.constant_data_size) else { return false };
    let mut progress = s.reduce(size, (size / 64).max(1), |best, r| {
        // constants are found by offset: only the tail can go
        let payload = blob(best, lens, site)?;
        let mut h = XnnHeader::parse(&payload).ok()??;
        let n = usize::try_from(h.constant_data_size).ok()?;
        if r.end != n {
            return None;
        }
        let keep = usize::try_from(h.constant_data_offset).ok()?.checked_add(r.start)?;
        let mut out = payload.get(..keep)?.to_vec();
        h.constant_data_size = r.start as u64;
        out.get_mut(..pte_schema::xnnpack::XNN_HEADER_SIZE)?.copy_from_slice(&h.to_bytes());
        replace_blob(best, lens, options, site, out)
    });
    progress |= super::flatbuf::pass(s, &Xnn { outer: lens, options: *options, site });
    progress
}

/// A candidate with blob `site` replaced by `bytes`.
fn replace_blob(best: &[u8], lens: &dyn Lens, options: &WriteOptions, site: Site, bytes: Vec<u8>) -> Option<Vec<u8>> {
    edit(best, lens, options, |p| {
        match site {
            Site::SegmentBytes(i) => *p.segments.get_mut(i)? = Cow::Owned(bytes),
            Site::Inline(i) => p.program.backend_delegate_data.as_mut()?.get_mut(i)?.data = Some(Cow::Owned(bytes)),
            _ => return None,
        }
        Some(())
    })
}
