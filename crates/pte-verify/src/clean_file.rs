//! The clean-file pass: every rule of the verifier, asked only "does this
//! program pass?", over the zero-copy views. It builds no model, formats no
//! path and locates no offset. Each value and instruction is checked during
//! the structural verification, as the walk proves it well formed
//! ([`Prechecks`]); the program's other tables are read once after it. The
//! heap holds a small context per plan and, for a segment table out of
//! order, the table. Any finding (violation or warning) but one answers
//! [`Verdict::Findings`], and the caller runs the full pass, which names every finding with its
//! path and offset; the two passes must agree on which files are clean
//! (tests/it/clean_file_pass.rs). The one warning it states itself is the
//! deprecated inline constants' ([`Verdict::InlineConstants`]): a program
//! in that legacy form is otherwise as clean as any, and may be as large.

use pte_schema::{
    DataLocation, DeviceType, ElementChecks, InstructionRef, Limits, List, PlanPreview, PlanView, ProgramPreview,
    ProgramView, TensorDataLocation, TensorShapeDynamism, TensorView, ValueRef,
};
use pte_segments::ExtendedHeader;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use pte_analysis::memory::gather::{packed, unpacked, PlacedTensor, PlanFacts};

/// What the tensor rules need from the program as a whole.
struct Context<'a> {
    constant_offsets: Option<List<'a, u64>>,
    constant_segment_size: Option<u64>,
    /// The program, for the lengths of its deprecated inline constants,
    /// read in place for each tensor that names one.
    inline: ProgramPreview<'a>,
    mutable0: Option<(Option<List<'a, u64>>, Option<u64>)>,
    segment_base: bool,
    max_key_len: usize,
}

/// The most values whose memory-plan facts the verifier's walk gathers
/// (40 bytes each, about 10 MiB): larger plans are walked again instead.
const MAX_GATHERED_VALUES: usize = 1 << 18;

/// Operators whose verdict is kept in a bit set while checking kernel calls.
const KNOWN_OPERATORS: usize = 4096;

fn in_range(i: i64, n: usize) -> bool {
    usize::try_from(i).is_ok_and(|i| i < n)
}

fn len_of(l: Option<List<'_, u64>>) -> usize {
    l.map_or(0, |l| l.len())
}

/// What the clean-file pass found of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Some finding: the full pass names it.
    Findings,
    /// No violation and no warning.
    Clean,
    /// No violation; the one warning is that the constants take the
    /// deprecated inline path (no constant segment offsets), which the
    /// caller states as the full pass does.
    InlineConstants,
}

/// What the verified program `p` breaks, apart from its values and
/// instructions, which [`Prechecks`] checked during its verification.
pub(super) fn clean(p: &ProgramView<'_>, header: Option<&ExtendedHeader>, file_len: u64, limits: &Limits) -> Verdict {
    if clean_with_inline(p, header, file_len, limits) {
        match p.constant_offsets() {
            Some((_, Some(o))) if !o.is_empty() => Verdict::Clean,
            _ => Verdict::InlineConstants,
        }
    } else {
        Verdict::Findings
    }
}

/// Whether `p` passes every program rule, the deprecated inline
/// constants (a warning) allowed.
fn clean_with_inline(p: &ProgramView<'_>, header: Option<&ExtendedHeader>, file_len: u64, limits: &Limits) -> bool {
    // the limits decode_program applies after verification
    if p.segment_count() > limits.max_segments || p.named_data_count() > limits.max_named_data {
        return false;
    }
    if p.version() != 0 || !p.has_execution_plan() || (p.has_named_data() && !p.has_segments()) {
        return false;
    }
    if !segments_clean(p, header, file_len) {
        return false;
    }
    let seg_size = |i: u32| usize::try_from(i).ok().and_then(|i| p.segment(i)).map(|s| s.size);
    // no constant segment, or one without offsets: the deprecated
    // constant_buffer path, a warning; its tensors are checked against the
    // inline constants by Prechecks
    let (cs_index, cs_offsets) = p.constant_offsets().unwrap_or((0, None));
    let ncs = len_of(cs_offsets);
    if ncs > 1 && (p.constant_buffer().is_some_and(|b| b.len() > 0) || seg_size(cs_index).is_none()) {
        return false;
    }
    if !offsets_clean(cs_offsets, seg_size(cs_index)) {
        return false;
    }
    if let Some(m) = p.mutable_offsets() {
        for (index, offsets) in m {
            let size = seg_size(index);
            if size.is_none() || !offsets_clean(offsets, size) {
                return false;
            }
        }
    }
    for (key, index) in p.named_data() {
        if key.is_none_or(|k| k.len() > limits.max_key_len) || seg_size(index).is_none() {
            return false;
        }
    }
    (0..p.plan_count()).all(|i| p.plan(i).is_some_and(|plan| plan_clean(p, &plan)))
}

fn offsets_clean(offsets: Option<List<'_, u64>>, seg: Option<u64>) -> bool {
    let mut prev = 0u64;
    offsets.is_none_or(|l| {
        l.iter().all(|o| {
            let ok = o >= prev && seg.is_none_or(|s| o <= s);
            prev = o;
            ok
        })
    })
}

fn segments_clean(p: &ProgramView<'_>, header: Option<&ExtendedHeader>, len: u64) -> bool {
    let base = header.map_or(0, |h| h.segment_base_offset);
    let sds = header.map_or(0, |h| h.segment_data_size);
    // (start, end) of each non-empty segment, relative to the base
    let span = |s: pte_schema::DataSegment| -> Option<(u64, u64)> {
        if base == 0 {
            return None;
        }
        let end = base.checked_add(s.offset)?.checked_add(s.size)?;
        let rel_end = s.offset.saturating_add(s.size);
        (end <= len && !(sds > 0 && rel_end > sds)).then_some((s.offset, rel_end))
    };
    // the same range named twice is sharing, not overlap
    let overlap = |(s0, e0): (u64, u64), (s1, e1): (u64, u64)| s1 < e0 && !(s0 == s1 && e0 == e1);
    // A table in order (as writers lay it out) is checked as it is read,
    // with no heap: neighbours in the table are neighbours in sorted order.
    // Two neighbours that overlap overlap in any order, so finding one ends
    // the check either way.
    let mut sorted = true;
    let mut last: Option<(u64, u64)> = None;
    for s in p.segments().filter(|s| s.size != 0) {
        let Some(next) = span(s) else { return false };
        if let Some(prev) = last {
            if overlap(prev, next) {
                return false;
            }
            sorted &= prev <= next;
        }
        last = Some(next);
    }
    if sorted {
        return true;
    }
    let mut spans: Vec<(u64, u64)> = p.segments().filter(|s| s.size != 0).filter_map(span).collect();
    spans.sort_unstable();
    spans.windows(2).all(|w| !matches!(w, [a, b] if overlap(*a, *b)))
}

fn plan_clean(p: &ProgramView<'_>, plan: &PlanView<'_>) -> bool {
    let [values, inputs, outputs, sizes, _, _, delegates] = plan.present();
    if plan.name().is_none() || !(values && inputs && outputs && sizes && delegates) {
        return false;
    }
    let n = plan.value_count();
    let io_ok = |l: Option<List<'_, i32>>| l.is_none_or(|l| l.iter().all(|v| in_range(i64::from(v), n)));
    if !io_ok(plan.input_list()) || !io_ok(plan.output_list()) {
        return false;
    }
    if plan.buffer_sizes().is_some_and(|s| s.iter().skip(1).any(|s| s < 0)) {
        return false;
    }
    let Some(mut chains) = plan.chains() else { return false };
    if chains.len() == 0 || chains.any(|c| c.instructions().is_none()) {
        return false;
    }
    delegates_clean(p, plan)
}

/// Most plans whose values and instructions [`Prechecks`] checks: a
/// program with more (a method per plan; real ones have a few) is left to
/// the full pass rather than hold a context per plan.
const MAX_PLANS: usize = 64;

/// The checks of each value and instruction, run while the program is
/// verified ([`ElementChecks`]), with what they need of the program read
/// beforehand through a [`ProgramPreview`]: once the program verifies,
/// that is what the views read.
pub(super) struct Prechecks<'a> {
    program: Context<'a>,
    plans: Vec<PlanContext<'a>>,
    /// Whether some tensor checked so far needs external data.
    external: AtomicBool,
    /// Whether some named tensor checked so far has bytes but no storage.
    unstored: AtomicBool,
    /// Whether some tensor checked so far is placed off the CPU.
    off_cpu: AtomicBool,
    /// For each constant (by `data_buffer_idx`), the complement of the
    /// earliest position ([`packed`]) of a tensor that reads it;
    /// 0 while none has. Empty past [`Prechecks::new`]'s budget.
    constant_users: Vec<AtomicU64>,
}

/// The `[plan, value]` an entry of [`Prechecks::take_constant_users`]
/// names, if any: the complement of their [`packed`] position, so that the
/// earliest reader is the greatest and 0 is none.
pub(super) fn first_reader(mark: u64) -> Option<[usize; 2]> {
    (mark != 0).then(|| unpacked(!mark))
}

/// The most constants whose first readers the walk notes (8 bytes each).
const MAX_NOTED_CONSTANTS: usize = 1 << 17;

/// What the tensors [`Prechecks`] checked need from outside the program,
/// read while they were checked: when every value passed, the warnings
/// about these needs ([`super::needs`]) have nothing to look for unless a
/// flag is set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TensorNeeds {
    pub(crate) external: bool,
    pub(crate) off_cpu: bool,
    /// Some named tensor of bytes has no storage in the program (inputs,
    /// outputs and tensors no instruction reads included: the needs tell
    /// them apart).
    pub(crate) unstored: bool,
}

/// What checking one plan's values and instructions needs.
struct PlanContext<'a> {
    plan: PlanPreview<'a>,
    /// Values in the plan: every value index must be below it.
    values: usize,
    buffer_sizes: Option<List<'a, i64>>,
    delegates: usize,
    /// The verdict on each of the first operators (kernel calls far
    /// outnumber operators), a bit set.
    known: [u64; KNOWN_OPERATORS / 64],
    /// What the memory plan needs of the plan, gathered as it is checked
    /// (absent past the budget of [`Prechecks::new`]).
    facts: Option<PlanFacts>,
    /// The operators (of the first [`KNOWN_OPERATORS`]) its kernel calls
    /// name, a bit set gathered as they are checked, for the operator needs.
    called: [AtomicU64; KNOWN_OPERATORS / 64],
    /// Whether some kernel call names an operator past the bit set.
    called_beyond: AtomicBool,
}

impl<'a> Prechecks<'a> {
    /// What the program in `region` (not verified yet) needs checked.
    pub(super) fn new(region: &'a [u8], header: Option<&ExtendedHeader>, limits: &Limits) -> Self {
        let pre = ProgramPreview::new(region);
        let seg_size = |i: u32| usize::try_from(i).ok().and_then(|i| pre.segment_size(i));
        let constant = pre.constant_offsets();
        let program = Context {
            constant_offsets: constant.and_then(|(_, o)| o),
            constant_segment_size: constant.and_then(|(i, _)| seg_size(i)),
            inline: pre,
            mutable0: pre.mutable_offsets(0).map(|(i, offsets)| (offsets, seg_size(i))),
            segment_base: header.is_some_and(|h| h.segment_base_offset != 0),
            max_key_len: limits.max_key_len,
        };
        // Judging operators costs a read per operator, up to KNOWN_OPERATORS
        // per plan, before the buffer is verified; the budget keeps a small
        // hostile buffer whose plans share one long operator list from
        // paying that per plan (its later plans are left to the full pass).
        let mut budget = region.len().saturating_div(4).saturating_add(KNOWN_OPERATORS);
        // The memory plan's facts take 40 bytes per value, allocated before
        // the buffer is verified: their budget is a value per 32 bytes of
        // the buffer (a real value takes more: its offset, an EValue table
        // and what it holds), shared by all plans, so a hostile buffer whose
        // plans claim one long vector of offsets to one table costs at most
        // about its own size, and never more than MAX_GATHERED_VALUES in
        // all, so that verifying a huge program (a million constant values)
        // holds no table per value: such plans are walked again after, as
        // plans past the budget are.
        let mut values = region.len().saturating_div(32).min(MAX_GATHERED_VALUES);
        let plans = (0..pre.plan_count().min(MAX_PLANS))
            .map_while(|i| {
                let plan = pre.plan(i)?;
                budget = budget.checked_sub(plan.operator_count().min(KNOWN_OPERATORS))?;
                let mut context = PlanContext::new(plan);
                if plan.operator_count() <= KNOWN_OPERATORS
                    && let Some(left) = values.checked_sub(context.values)
                {
                    values = left;
                    let view_ops = (0..plan.operator_count())
                        .filter(|&op| {
                            plan.operator(op).is_some_and(|(name, _)| name == Some(pte_analysis::memory::VIEW_OPERATOR))
                        })
                        .filter_map(|op| i32::try_from(op).ok())
                        .collect();
                    context.facts = Some(PlanFacts::new(context.values, view_ops));
                }
                Some(context)
            })
            .collect();
        // 8 bytes per constant, as many as the buffer holds offsets for and
        // at most MAX_NOTED_CONSTANTS: past that the summary passes over the
        // values itself, as it did before, rather than verify hold a table
        // that grows with the program
        let constants = len_of(program.constant_offsets);
        let constants = if constants <= (region.len() / 8).min(MAX_NOTED_CONSTANTS) { constants } else { 0 };
        Prechecks {
            program,
            plans,
            external: AtomicBool::new(false),
            off_cpu: AtomicBool::new(false),
            unstored: AtomicBool::new(false),
            constant_users: (0..constants).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// For each constant of the segment's offsets, where the first tensor
    /// (in plan, then value order) that reads it is ([`first_reader`]):
    /// complete only once every value has passed, and empty when the
    /// offsets were past the budget. Taken once; the walk is over.
    pub(super) fn take_constant_users(&mut self) -> Vec<u64> {
        // in place: an atomic and its value have one size and alignment
        std::mem::take(&mut self.constant_users).into_iter().map(AtomicU64::into_inner).collect()
    }

    /// What the memory plan needs of each plan (by index), gathered while
    /// the plans were checked: complete only once every value and
    /// instruction has passed.
    pub(super) fn into_facts(self) -> Vec<Option<PlanFacts>> {
        self.plans.into_iter().map(|c| c.facts).collect()
    }

    /// Which operators each plan's kernel calls name, by operator index
    /// (`None` for a plan that calls one past the bit set): complete only
    /// once every instruction has passed.
    pub(super) fn called(&self) -> Vec<Option<Vec<bool>>> {
        self.plans.iter().map(PlanContext::called).collect()
    }

    /// What the tensors checked so far need; complete only once every
    /// value has passed.
    pub(super) fn tensor_needs(&self) -> TensorNeeds {
        TensorNeeds {
            external: self.external.load(Ordering::Relaxed),
            off_cpu: self.off_cpu.load(Ordering::Relaxed),
            unstored: self.unstored.load(Ordering::Relaxed),
        }
    }

    fn tensor_ok(&self, plan: usize, j: usize, t: &TensorView<'_>, c: &PlanContext<'_>) -> bool {
        let Some(Clean { external, placed, unstored, constant }) = tensor_clean(t, c.buffer_sizes, &self.program)
        else {
            return false;
        };
        if let Some(first) = constant.and_then(|i| self.constant_users.get(i)) {
            // the highest complement is the earliest position: plans in
            // order, then values, as a pass over them meets them
            let mark = !packed([plan, j]);
            if first.load(Ordering::Relaxed) < mark {
                first.fetch_max(mark, Ordering::Relaxed);
            }
        }
        if let (Some(facts), Some(placed)) = (&c.facts, placed) {
            facts.tensor(j, placed);
        }
        // flags only ever set, by whichever thread sees such a tensor first
        if external && !self.external.load(Ordering::Relaxed) {
            self.external.store(true, Ordering::Relaxed);
        }
        if unstored && !self.unstored.load(Ordering::Relaxed) {
            self.unstored.store(true, Ordering::Relaxed);
        }
        if t.device_type().is_some_and(|d| d != DeviceType::CPU) && !self.off_cpu.load(Ordering::Relaxed) {
            self.off_cpu.store(true, Ordering::Relaxed);
        }
        true
    }
}

impl ElementChecks for Prechecks<'_> {
    fn value(&self, plan: usize, j: usize, v: ValueRef<'_>) -> bool {
        let Some(c) = self.plans.get(plan) else { return false };
        match v {
            ValueRef::None | ValueRef::Unknown(_) => false,
            ValueRef::Tensor(t) => self.tensor_ok(plan, j, &t, c),
            ValueRef::String(s) => s.is_some(),
            ValueRef::IntList(items) => items.is_some_and(|l| l.iter().all(|x| in_range(x, c.values))),
            ValueRef::DoubleList(items) => items.is_some(),
            ValueRef::BoolList(items) => items.is_some(),
            ValueRef::TensorList(items) | ValueRef::OptionalTensorList(items) => {
                if let Some(facts) = &c.facts {
                    facts.list(j);
                }
                tensor_list_clean(&c.plan, items, j, matches!(v, ValueRef::OptionalTensorList(_)))
            }
            ValueRef::Null | ValueRef::Int(_) | ValueRef::Bool(_) | ValueRef::Double(_) => true,
        }
    }

    fn instruction(&self, plan: usize, i: InstructionRef<'_>) -> bool {
        self.plans.get(plan).is_some_and(|c| c.instruction_ok(i))
    }

    fn instruction_at(&self, plan: usize, at: [usize; 2], i: InstructionRef<'_>) -> bool {
        let Some(c) = self.plans.get(plan) else { return false };
        let ok = c.instruction_ok(i);
        if ok {
            if let InstructionRef::KernelCall { op_index, .. } = i {
                c.note_call(op_index);
            }
            if let Some(facts) = &c.facts {
                facts.instruction(at, i);
            }
        }
        ok
    }
}

fn tensor_list_clean(plan: &PlanPreview<'_>, items: Option<List<'_, i32>>, j: usize, optional: bool) -> bool {
    let Some(items) = items else { return false };
    items.iter().all(|x| {
        (optional && x == -1)
            || usize::try_from(x)
                .ok()
                .filter(|&i| i < j)
                .and_then(|i| plan.value_ref(i))
                .is_some_and(|t| matches!(t, ValueRef::Tensor(_)) || (optional && matches!(t, ValueRef::Null)))
    })
}

/// Whether operator `i` exists with a name the runtime can look up (name
/// and overload under 100 bytes).
fn operator_ok(plan: &PlanPreview<'_>, i: usize) -> bool {
    plan.operator(i).is_some_and(|(name, ov)| {
        name.is_some_and(|name| {
            let ov = ov.unwrap_or("");
            let full = if ov.is_empty() { name.len() } else { name.len().saturating_add(1).saturating_add(ov.len()) };
            full < 100
        })
    })
}

impl<'a> PlanContext<'a> {
    fn new(plan: PlanPreview<'a>) -> Self {
        let mut known = [0u64; KNOWN_OPERATORS / 64];
        let operators = plan.operator_count();
        for (i, word) in known.iter_mut().enumerate() {
            for bit in 0..64 {
                if operator_ok(&plan, i.saturating_mul(64).saturating_add(bit)) {
                    *word |= 1 << bit;
                }
            }
            if i.saturating_add(1).saturating_mul(64) >= operators {
                break;
            }
        }
        PlanContext {
            plan,
            values: plan.value_count(),
            buffer_sizes: plan.buffer_sizes(),
            delegates: plan.delegate_count(),
            known,
            facts: None,
            called: [const { AtomicU64::new(0) }; KNOWN_OPERATORS / 64],
            called_beyond: AtomicBool::new(false),
        }
    }

    /// Notes that a kernel call (which passed) names operator `op`.
    fn note_call(&self, op: i32) {
        let op = usize::try_from(op).unwrap_or(usize::MAX);
        match self.called.get(op / 64) {
            Some(word) => {
                let bit = 1u64 << (op % 64);
                // most calls name an operator already noted: read before writing
                if word.load(Ordering::Relaxed) & bit == 0 {
                    word.fetch_or(bit, Ordering::Relaxed);
                }
            }
            None => self.called_beyond.store(true, Ordering::Relaxed),
        }
    }

    /// The operators noted by [`PlanContext::note_call`], by index.
    fn called(&self) -> Option<Vec<bool>> {
        if self.called_beyond.load(Ordering::Relaxed) {
            return None;
        }
        let n = self.plan.operator_count().min(KNOWN_OPERATORS);
        let bit = |i: usize| self.called.get(i / 64).is_some_and(|w| w.load(Ordering::Relaxed) & (1 << (i % 64)) != 0);
        Some((0..n).map(bit).collect())
    }

    fn kernel_ok(&self, op: usize) -> bool {
        match self.known.get(op / 64) {
            Some(word) => word & (1 << (op % 64)) != 0,
            None => operator_ok(&self.plan, op),
        }
    }

    fn index_ok(&self, v: i32) -> bool {
        in_range(i64::from(v), self.values)
    }

    fn args_ok(&self, a: Option<List<'_, i32>>) -> bool {
        a.is_some_and(|a| a.iter().all(|v| self.index_ok(v)))
    }

    fn instruction_ok(&self, ins: InstructionRef<'_>) -> bool {
        match ins {
            InstructionRef::None | InstructionRef::Unknown(_) => false,
            InstructionRef::KernelCall { op_index, args } => {
                self.args_ok(args) && usize::try_from(op_index).is_ok_and(|op| self.kernel_ok(op))
            }
            InstructionRef::DelegateCall { delegate_index, args } => {
                self.args_ok(args) && in_range(i64::from(delegate_index), self.delegates)
            }
            InstructionRef::MoveCall { move_from, move_to } => self.index_ok(move_from) && self.index_ok(move_to),
            InstructionRef::JumpFalseCall { cond_value_index, .. } => self.index_ok(cond_value_index),
            InstructionRef::FreeCall { value_index } => self.index_ok(value_index),
        }
    }
}

fn delegates_clean(p: &ProgramView<'_>, plan: &PlanView<'_>) -> bool {
    let Some(delegates) = plan.delegates() else { return false };
    let nseg = p.segment_count();
    for d in delegates {
        if d.id().is_none() || d.compile_specs().is_some_and(|mut c| c.any(|(k, v)| k.is_none() || v.is_none())) {
            return false;
        }
        let Some(r) = d.processed() else { return false };
        let ok = match r.location {
            DataLocation::INLINE => {
                usize::try_from(r.index).ok().and_then(|i| p.inline_delegate_data(i)).is_some_and(|d| d.is_some())
            }
            DataLocation::SEGMENT => in_range(i64::from(r.index), nseg),
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// What [`tensor_clean`] read of a tensor that passes.
struct Clean {
    /// Whether its data is external.
    external: bool,
    /// Where the memory plan places it, when it is planned.
    placed: Option<PlacedTensor>,
    /// A named tensor of bytes that is neither planned, constant nor
    /// external.
    unstored: bool,
    /// The constant it reads (`data_buffer_idx`), when it reads one.
    constant: Option<usize>,
}

/// Whether a tensor passes every tensor rule: `Some` when it does, with
/// what the needs and the memory plan take from it.
fn tensor_clean(t: &TensorView<'_>, buffer_sizes: Option<List<'_, i64>>, ctx: &Context<'_>) -> Option<Clean> {
    // each field is read once: this runs for every tensor of the program
    let scalar_type = t.scalar_type();
    let fqn = t.fqn();
    if t.storage_offset() != 0
        || !scalar_type.is_runtime_valid()
        || t.shape_dynamism() == TensorShapeDynamism::DYNAMIC_UNBOUND
        || fqn.is_some_and(|k| k.len() > ctx.max_key_len)
    {
        return None;
    }
    let sizes = t.sizes()?;
    if sizes.len() > 16 {
        return None;
    }
    let numel = sizes.iter().try_fold(1u64, |acc, s| acc.checked_mul(u64::try_from(s).ok()?));
    let Some(nbytes) = numel.and_then(|n| n.checked_mul(scalar_type.element_size()?)) else {
        // a negative size, or (the scalar type being valid) an overflow
        return None;
    };
    let dim_order = t.dim_order()?;
    // rank <= 16 here, so a 32-bit mask records the dimensions seen
    let mut seen = 0u32;
    let perm = dim_order.len() == sizes.len()
        && dim_order.iter().all(|&x| {
            let bit = 1u32.checked_shl(u32::from(x)).filter(|_| usize::from(x) < dim_order.len()).unwrap_or(0);
            let fresh = bit != 0 && seen & bit == 0;
            seen |= bit;
            fresh
        });
    if !perm {
        return None;
    }
    let external = t.location() == Some(TensorDataLocation::EXTERNAL);
    if external && fqn.is_none() {
        return None;
    }
    let size_of = |i: usize| buffer_sizes.and_then(|s| s.get(i));
    let idx = t.data_buffer_idx();
    let mut placed = None;
    let mut constant = None;
    if let Some(a) = t.allocation_info() {
        let nbuf = buffer_sizes.map_or(0, |s| s.len()).saturating_sub(1);
        let id = usize::try_from(a.memory_id).unwrap_or(usize::MAX);
        let size = id.checked_sub(1).filter(|&b| b < nbuf).and_then(|_| size_of(id))?;
        let fits = a.offset().checked_add(nbytes).is_some_and(|end| u64::try_from(size).is_ok_and(|s| end <= s));
        if !fits {
            return None;
        }
        if idx > 0 && !external {
            let resolves = ctx.mutable0.is_some_and(|(offs, seg)| {
                usize::try_from(idx)
                    .ok()
                    .and_then(|i| offs.and_then(|o| o.get(i)))
                    .is_some_and(|o| seg.is_some_and(|s| o.checked_add(nbytes).is_some_and(|e| e <= s)))
            });
            if !resolves || !ctx.segment_base || size_of(id) == Some(0) {
                return None;
            }
        }
        placed =
            Some(PlacedTensor { memory_id: a.memory_id, offset: a.offset(), nbytes, state: idx > 0 || fqn.is_some() });
    } else if idx > 0 && !external {
        let i = usize::try_from(idx).unwrap_or(usize::MAX);
        let resolves = match len_of(ctx.constant_offsets) {
            0 => ctx.inline.constant_buffer_len(i).is_some_and(|len| nbytes <= len),
            1 => false,
            _ => ctx
                .constant_offsets
                .and_then(|o| o.get(i))
                .is_some_and(|o| ctx.constant_segment_size.is_some_and(|s| o <= s && nbytes <= s.saturating_sub(o))),
        };
        if !resolves {
            return None;
        }
        constant = Some(i);
    }
    let unstored = placed.is_none() && idx == 0 && !external && nbytes > 0 && fqn.is_some();
    Some(Clean { external, placed, unstored, constant })
}
