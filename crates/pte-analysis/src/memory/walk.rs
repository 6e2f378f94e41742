//! One pass over a method's values and one over its instructions, through
//! the zero-copy views: which planned tensor sits where, and between which
//! instructions it holds data. Everything allocated here is sized from
//! vectors the flatbuffer verifier has seen (one slot per stored value, one
//! record per stored planned tensor or tensor list), never from a count the
//! file merely claims.

use pte_schema::{InstructionRef, List, PlanView, TensorShapeDynamism, TensorView, ValueRef};

use super::estimate::Bump;
use super::gather::{Fact, Gathered};
use super::instruction::{back_jump, named_values};
use super::{Role, Unattributed};

const NOT_PLANNED: u32 = u32::MAX;

/// The operator whose output the exporter places on its input's bytes: a
/// view shares its base's storage, so the two are one allocation whose
/// lifetime covers both, not two tensors overlapping.
pub const VIEW_OPERATOR: &str = "executorch_prim::et_view";

/// An instruction number as the records keep it (a flatbuffer holds fewer
/// than 2^31 instructions, so nothing saturates in practice).
fn at32(at: u64) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// What one stored value is, as far as the plan is concerned.
#[derive(Clone, Copy)]
enum Slot {
    Other,
    /// A tensor of this rank; `planned` indexes [`Walked::tensors`] when
    /// the tensor is planned and attributed, else is [`NOT_PLANNED`].
    Tensor {
        rank: u8,
        planned: u32,
    },
    /// A tensor list (optional or not), indexing [`Walked::lists`].
    List(u32),
}

/// A planned tensor whose buffer and size are known. Kept small (a
/// program of many thousands of tensors is checked on every verify): value
/// indices and instruction numbers fit 32 bits in any flatbuffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Planned {
    value: u32,
    pub(crate) arena: u32,
    pub(crate) offset: u64,
    pub(crate) nbytes: u64,
    uses: Uses,
    state: bool,
    /// The planned tensor (index in [`Walked::tensors`]) whose bytes this
    /// one views, or [`NOT_PLANNED`]: a view is not counted on its own.
    view_of: u32,
    /// Set by [`Walked::finish`]: the first and last instruction during
    /// which it holds data.
    life: Option<(u32, u32)>,
}

impl Planned {
    pub(crate) fn value(&self) -> usize {
        self.value as usize
    }

    /// A planned tensor with a given lifetime, for the sweeps' tests.
    #[cfg(test)]
    pub(crate) fn for_test(value: u32, arena: u32, offset: u64, nbytes: u64, life: Option<(u32, u32)>) -> Planned {
        Planned { value, arena, offset, nbytes, uses: Uses::NONE, state: false, view_of: NOT_PLANNED, life }
    }

    /// Whether its bytes are another planned tensor's, which the sweeps
    /// count instead.
    pub(crate) fn is_view(&self) -> bool {
        self.view_of != NOT_PLANNED
    }

    pub(crate) fn lifetime(&self) -> Option<(u64, u64)> {
        self.life.map(|(f, l)| (u64::from(f), u64::from(l)))
    }

    pub(crate) fn role(&self) -> Role {
        match (self.state, self.uses.input, self.uses.output) {
            (true, _, _) => Role::State,
            (false, true, true) => Role::InputOutput,
            (false, true, false) => Role::Input,
            (false, false, true) => Role::Output,
            (false, false, false) => Role::Intermediate,
        }
    }
}

/// The instructions that name a value (directly or through a list), and
/// whether it is a method input or output.
#[derive(Clone, Copy, Debug)]
struct Uses {
    first: u32,
    last: u32,
    input: bool,
    output: bool,
}

impl Uses {
    const NONE: Uses = Uses { first: u32::MAX, last: 0, input: false, output: false };

    fn touch(&mut self, at: u32) {
        self.first = self.first.min(at);
        self.last = self.last.max(at);
    }

    fn absorb(&mut self, other: Uses) {
        self.first = self.first.min(other.first);
        self.last = self.last.max(other.last);
        self.input |= other.input;
        self.output |= other.output;
    }

    fn used(&self) -> bool {
        self.first <= self.last
    }
}

struct ListUse {
    value: usize,
    uses: Uses,
}

/// The result of walking one method.
pub(crate) struct Walked {
    /// `non_const_buffer_sizes` by id; `None` for a negative size. Entry 0
    /// is the reserved buffer.
    pub(crate) arenas: Vec<Option<u64>>,
    pub(crate) tensors: Vec<Planned>,
    pub(crate) instructions: u64,
    pub(crate) unattributed: Vec<Unattributed>,
    /// Backward jumps as `(destination, jump)` instruction numbers.
    loops: Vec<(u32, u32)>,
    pub(crate) estimate: Option<Bump>,
    pub(crate) delegates: u64,
    pub(crate) externals: bool,
}

/// Whether `v` is a tensor the runtime resolves as an EXTERNAL constant
/// (which costs the method allocator a `NamedData` record).
fn external_constant(t: &TensorView<'_>) -> bool {
    t.is_external() && t.allocation_info().is_none()
}

fn rank_of(t: &TensorView<'_>) -> u8 {
    t.sizes().map_or(0, |s| u8::try_from(s.len()).unwrap_or(u8::MAX))
}

/// Walks method `p`; the allocator estimate is simulated only when `estimate`.
pub(crate) fn walk(plan: &PlanView<'_>, p: usize, estimate: bool) -> Walked {
    let path = |what: &dyn std::fmt::Display| format!("execution_plan[{p}].{what}");
    let mut w = Walked {
        arenas: vec![],
        tensors: vec![],
        instructions: 0,
        unattributed: vec![],
        loops: vec![],
        estimate: estimate.then(Bump::default),
        delegates: 0,
        externals: false,
    };
    match plan.buffer_sizes() {
        None => w.unattributed.push(Unattributed {
            path: path(&"non_const_buffer_sizes"),
            reason: "absent: the method declares no planned buffers".into(),
        }),
        Some(sizes) => {
            w.arenas.reserve(sizes.len());
            for (k, s) in sizes.iter().enumerate() {
                let size = u64::try_from(s).ok();
                if size.is_none() && k > 0 {
                    w.unattributed.push(Unattributed {
                        path: path(&format_args!("non_const_buffer_sizes[{k}]")),
                        reason: format!("buffer {k} has the negative size {s}; its tensors are not placed"),
                    });
                }
                w.arenas.push(size);
            }
        }
    }
    let n_values = plan.value_count();
    if !plan.present()[0] {
        w.unattributed.push(Unattributed { path: path(&"values"), reason: "absent: no tensor can be placed".into() });
    }
    let inputs = plan.input_list();
    if let Some(b) = w.estimate.as_mut() {
        b.prelude(n_values, inputs.map_or(0, |l| l.len()));
        let externals = plan.value_refs().filter(|v| matches!(v, ValueRef::Tensor(t) if external_constant(t))).count();
        b.external_constants(externals);
    }
    let mut slots: Vec<Slot> = Vec::with_capacity(n_values);
    let mut lists: Vec<ListUse> = vec![];
    for (j, v) in plan.value_refs().enumerate() {
        let slot = match v {
            ValueRef::Tensor(t) => {
                // ranks and EXTERNAL data matter to the estimate only
                let mut rank = 0;
                if let Some(b) = w.estimate.as_mut() {
                    rank = rank_of(&t);
                    b.tensor(rank, t.shape_dynamism() != TensorShapeDynamism::STATIC);
                    w.externals |= t.is_external();
                }
                let planned = t.allocation_info().and_then(|a| w.attribute(p, j, &t, a.memory_id, a.offset()));
                Slot::Tensor { rank, planned: planned.unwrap_or(NOT_PLANNED) }
            }
            ValueRef::TensorList(items) | ValueRef::OptionalTensorList(items) => {
                let optional = matches!(v, ValueRef::OptionalTensorList(_));
                let n = items.map_or(0, |l| l.len());
                if let Some(b) = w.estimate.as_mut() {
                    b.tensor_list(n, optional);
                }
                let k = u32::try_from(lists.len()).unwrap_or(u32::MAX);
                lists.push(ListUse { value: j, uses: Uses::NONE });
                Slot::List(k)
            }
            ValueRef::IntList(items) => {
                if let Some(b) = w.estimate.as_mut() {
                    b.int_list(items.map_or(0, |l| l.len()));
                }
                Slot::Other
            }
            ValueRef::BoolList(Some(_)) | ValueRef::DoubleList(Some(_)) | ValueRef::String(Some(_)) => {
                if let Some(b) = w.estimate.as_mut() {
                    b.array_ref();
                }
                Slot::Other
            }
            _ => Slot::Other,
        };
        slots.push(slot);
    }
    if let Some(delegates) = plan.delegates() {
        w.delegates = delegates.len() as u64;
        if let Some(b) = w.estimate.as_mut() {
            b.delegates(delegates.len());
            for d in delegates {
                b.compile_specs(d.compile_specs().map_or(0, |s| s.len()));
            }
        }
    }
    let view_ops: Vec<i32> = (0..plan.operator_count())
        .filter(|&i| plan.operator(i).is_some_and(|(name, _)| name == Some(VIEW_OPERATOR)))
        .filter_map(|i| i32::try_from(i).ok())
        .collect();
    let mut walker = Walker {
        slots: &slots,
        tensors: &mut w.tensors,
        lists: &mut lists,
        bad: &mut w.unattributed,
        view_ops: &view_ops,
        p,
    };
    let mut at: u64 = 0;
    match plan.chains() {
        None => walker.bad.push(Unattributed { path: path(&"chains"), reason: "absent: no lifetime is known".into() }),
        Some(chains) => {
            if let Some(b) = w.estimate.as_mut() {
                b.chains(chains.len());
            }
            for (c, chain) in chains.enumerate() {
                let base = at;
                let Some(instructions) = chain.instructions() else {
                    walker.bad.push(Unattributed {
                        path: path(&format_args!("chains[{c}].instructions")),
                        reason: "absent: the lifetimes leave this chain out".into(),
                    });
                    continue;
                };
                if let Some(b) = w.estimate.as_mut() {
                    b.chain(instructions.len());
                }
                for (i, instruction) in instructions.enumerate() {
                    walker.instruction(instruction, at, (c, i), w.estimate.as_mut());
                    if let Some(d) = back_jump(instruction, i) {
                        w.loops.push((at32(base.saturating_add(d)), at32(at)));
                    }
                    at = at.saturating_add(1);
                }
            }
        }
    }
    w.instructions = at;
    conclude(w, plan, p, &slots, lists)
}

/// The walk of method `p` (without the allocator estimate) from what the
/// verifier gathered of it on its own walk: the same tensors, uses, views
/// and loops, read from the facts instead of from the program again.
pub(crate) fn from_gathered(plan: &PlanView<'_>, p: usize, g: Gathered) -> Walked {
    let mut w = Walked {
        arenas: vec![],
        tensors: vec![],
        instructions: g.instructions,
        unattributed: vec![],
        loops: g.loops.iter().map(|&(d, at)| (at32(d), at32(at))).collect(),
        estimate: None,
        delegates: 0,
        externals: false,
    };
    let mut slots: Vec<Slot> = Vec::with_capacity(g.len());
    let mut lists: Vec<ListUse> = vec![];
    w.tensors.reserve_exact(g.planned());
    for j in 0..g.len() {
        let fact = g.fact(j);
        if matches!(fact, Fact::Other) {
            // neither placed nor a list: its uses matter to nothing
            slots.push(Slot::Other);
            continue;
        }
        let mut uses = Uses::NONE;
        if let Some((f, l)) = g.uses(j) {
            uses.touch(at32(f));
            uses.touch(at32(l));
        }
        let slot = match fact {
            Fact::Other => Slot::Other,
            Fact::List => {
                let k = u32::try_from(lists.len()).unwrap_or(u32::MAX);
                lists.push(ListUse { value: j, uses });
                Slot::List(k)
            }
            Fact::Planned(t) => {
                let planned = u32::try_from(w.tensors.len()).ok().filter(|&k| k != NOT_PLANNED);
                let value = u32::try_from(j).ok();
                match planned.zip(value) {
                    Some((k, value)) => {
                        w.tensors.push(Planned {
                            value,
                            arena: t.memory_id,
                            offset: t.offset,
                            nbytes: t.nbytes,
                            uses,
                            state: t.state,
                            view_of: NOT_PLANNED,
                            life: None,
                        });
                        Slot::Tensor { rank: 0, planned: k }
                    }
                    None => Slot::Other,
                }
            }
        };
        slots.push(slot);
    }
    let mut walker = Walker {
        slots: &slots,
        tensors: &mut w.tensors,
        lists: &mut lists,
        bad: &mut w.unattributed,
        view_ops: &[],
        p,
    };
    for (first, last) in g.views {
        walker.view(first, last);
    }
    conclude(w, plan, p, &slots, lists)
}

/// What both walks end with: the inputs and outputs marked, each used
/// tensor list's uses passed to its tensors, and the lifetimes read.
fn conclude(mut w: Walked, plan: &PlanView<'_>, p: usize, slots: &[Slot], mut lists: Vec<ListUse>) -> Walked {
    let mut walker =
        Walker { slots, tensors: &mut w.tensors, lists: &mut lists, bad: &mut w.unattributed, view_ops: &[], p };
    walker.io(plan.input_list(), "inputs", |u| u.input = true);
    walker.io(plan.output_list(), "outputs", |u| u.output = true);
    // a use of a list is a use of each of its tensors
    for l in lists.iter().filter(|l| l.uses.used() || l.uses.input || l.uses.output) {
        let items = match plan.value_ref(l.value) {
            Some(ValueRef::TensorList(Some(items)) | ValueRef::OptionalTensorList(Some(items))) => items,
            _ => continue,
        };
        for item in items.iter() {
            let planned = usize::try_from(item).ok().and_then(|i| slots.get(i)).and_then(|s| match s {
                Slot::Tensor { planned, .. } => Some(*planned),
                _ => None,
            });
            if let Some(t) = planned.and_then(|k| w.tensors.get_mut(k as usize)) {
                t.uses.absorb(l.uses);
            }
        }
    }
    w.finish();
    w
}

/// What the instruction walk needs and writes.
struct Walker<'w> {
    slots: &'w [Slot],
    tensors: &'w mut Vec<Planned>,
    lists: &'w mut Vec<ListUse>,
    bad: &'w mut Vec<Unattributed>,
    /// The operator indices of [`VIEW_OPERATOR`].
    view_ops: &'w [i32],
    p: usize,
}

impl Walker<'_> {
    /// Records that instruction `at` names value `v`.
    fn touch(&mut self, v: i32, at: u64, (c, i): (usize, usize)) {
        let slot = usize::try_from(v).ok().and_then(|j| self.slots.get(j));
        match slot {
            None => self.bad.push(Unattributed {
                path: format!("execution_plan[{}].chains[{c}].instructions[{i}]", self.p),
                reason: format!("names value {v}, which does not exist; lifetimes may be short"),
            }),
            Some(Slot::Tensor { planned: k, .. }) => {
                if let Some(t) = self.tensors.get_mut(*k as usize) {
                    t.uses.touch(at32(at));
                }
            }
            Some(Slot::List(k)) => {
                if let Some(l) = self.lists.get_mut(*k as usize) {
                    l.uses.touch(at32(at));
                }
            }
            Some(_) => {}
        }
    }

    fn instruction(&mut self, instruction: InstructionRef<'_>, at: u64, ci: (usize, usize), bump: Option<&mut Bump>) {
        match instruction {
            InstructionRef::KernelCall { op_index, args } => {
                if self.view_ops.contains(&op_index)
                    && let Some(args) = args
                {
                    self.view(args.iter().next(), args.iter().last());
                }
                if let (Some(b), Some(args)) = (bump, args) {
                    b.arguments(args.len());
                    b.kernel_lookup(args.len());
                    for rank in
                        args.iter().filter_map(|a| match usize::try_from(a).ok().and_then(|j| self.slots.get(j)) {
                            Some(Slot::Tensor { rank, .. }) => Some(*rank),
                            _ => None,
                        })
                    {
                        b.dim_order(rank);
                    }
                }
            }
            InstructionRef::DelegateCall { args, .. } => {
                if let (Some(b), Some(args)) = (bump, args) {
                    b.arguments(args.len());
                }
            }
            InstructionRef::None | InstructionRef::Unknown(_) => self.bad.push(Unattributed {
                path: format!("execution_plan[{}].chains[{}].instructions[{}]", self.p, ci.0, ci.1),
                reason: "has no arguments of a kind the schema declares; lifetimes may be short".into(),
            }),
            _ => {}
        }
        named_values(instruction, |v| self.touch(v, at, ci));
    }

    /// Records that a view call's output (its last argument) lies on its
    /// input's bytes (its first), when the plan places both at one buffer
    /// and offset; a view of a view is folded into the first base.
    fn view(&mut self, first: Option<i32>, last: Option<i32>) {
        let planned = |v: Option<i32>| match usize::try_from(v?).ok().and_then(|j| self.slots.get(j)) {
            Some(Slot::Tensor { planned, .. }) if *planned != NOT_PLANNED => Some(*planned),
            _ => None,
        };
        let (Some(base), Some(out)) = (planned(first), planned(last)) else { return };
        let (Some(b), Some(o)) = (self.tensors.get(base as usize), self.tensors.get(out as usize)) else { return };
        if base == out || b.arena != o.arena || b.offset != o.offset || o.nbytes > b.nbytes || o.is_view() {
            return;
        }
        let root = if b.is_view() { b.view_of } else { base };
        if let Some(o) = self.tensors.get_mut(out as usize) {
            o.view_of = root;
        }
    }

    /// Marks the method's inputs or outputs.
    fn io(&mut self, list: Option<List<'_, i32>>, field: &str, mark: fn(&mut Uses)) {
        for (k, v) in list.iter().flat_map(|l| l.iter()).enumerate() {
            match usize::try_from(v).ok().and_then(|j| self.slots.get(j)) {
                None => self.bad.push(Unattributed {
                    path: format!("execution_plan[{}].{field}[{k}]", self.p),
                    reason: format!("names value {v}, which does not exist"),
                }),
                Some(Slot::Tensor { planned: t, .. }) => {
                    if let Some(t) = self.tensors.get_mut(*t as usize) {
                        mark(&mut t.uses);
                    }
                }
                Some(Slot::List(l)) => {
                    if let Some(l) = self.lists.get_mut(*l as usize) {
                        mark(&mut l.uses);
                    }
                }
                Some(_) => {}
            }
        }
    }
}

impl Walked {
    /// Places planned tensor `j` in its buffer, or says why it cannot.
    fn attribute(&mut self, p: usize, j: usize, t: &TensorView<'_>, memory_id: u32, offset: u64) -> Option<u32> {
        let path = || format!("execution_plan[{p}].values[{j}]");
        let arena = match usize::try_from(memory_id).ok().filter(|&m| m > 0).map(|m| self.arenas.get(m)) {
            _ if memory_id == 0 => {
                Err("memory_id 0 names the reserved buffer 0, which the runtime never provides".into())
            }
            Some(Some(Some(size))) => Ok(*size),
            Some(Some(None)) => Err(format!("buffer {memory_id} has a negative size")),
            _ => Err(format!(
                "memory_id {memory_id} names none of the method's {} planned buffers",
                self.arenas.len().saturating_sub(1)
            )),
        };
        let arena = match arena {
            Ok(size) => size,
            Err(reason) => {
                self.unattributed.push(Unattributed { path: path(), reason });
                return None;
            }
        };
        let Some(nbytes) = t.nbytes() else {
            self.unattributed.push(Unattributed {
                path: path(),
                reason: format!(
                    "its size is unknown ({} of shape {}); its bytes in buffer {memory_id} are not counted",
                    t.scalar_type(),
                    t.sizes().map_or_else(|| "absent".into(), |s| format!("{:?}", s.iter().collect::<Vec<_>>()))
                ),
            });
            return None;
        };
        match offset.checked_add(nbytes) {
            Some(end) if end <= arena => {}
            end => self.unattributed.push(Unattributed {
                path: format!("{}.allocation_info", path()),
                reason: format!(
                    "{nbytes} bytes at offset {offset} end at {} past the end of the {arena}-byte buffer {memory_id}",
                    end.map_or_else(|| "more than 2^64".into(), |e| e.to_string())
                ),
            }),
        }
        let k = u32::try_from(self.tensors.len()).ok().filter(|&k| k != NOT_PLANNED)?;
        self.tensors.push(Planned {
            value: u32::try_from(j).ok()?,
            arena: memory_id,
            offset,
            nbytes,
            uses: Uses::NONE,
            state: t.data_buffer_idx() > 0 || t.fqn().is_some(),
            view_of: NOT_PLANNED,
            life: None,
        });
        Some(k)
    }

    /// Turns uses into lifetimes: an input holds data from the start until
    /// its last use, an output from the instruction that first names it
    /// until the end (the caller reads it after), a mutable buffer (a
    /// planned tensor with initial data or a name) across the whole method
    /// since it keeps its value between calls; a loop keeps whatever is
    /// live in it live for all of it.
    fn finish(&mut self) {
        let end = at32(self.instructions.saturating_sub(1));
        for t in &mut self.tensors {
            let u = t.uses;
            t.life = match (t.state, u.input, u.output) {
                (true, _, _) | (false, true, true) => Some((0, end)),
                (false, true, false) => Some((0, if u.used() { u.last } else { 0 })),
                (false, false, true) => Some((if u.used() { u.first } else { end }, end)),
                (false, false, false) => u.used().then_some((u.first, u.last)),
            };
        }
        // a base holds its bytes for as long as any view of it is used
        for k in 0..self.tensors.len() {
            let Some(&Planned { view_of, life: Some((f, l)), .. }) = self.tensors.get(k) else { continue };
            if let Some(base) = self.tensors.get_mut(view_of as usize) {
                base.life = Some(base.life.map_or((f, l), |(bf, bl)| (bf.min(f), bl.max(l))));
            }
        }
        if self.loops.is_empty() {
            return;
        }
        // merge the loops into disjoint regions; a lifetime touching a
        // region spans it, and since merged regions are disjoint only the
        // first and last regions it touches can widen it
        self.loops.sort_unstable();
        let mut regions: Vec<(u32, u32)> = Vec::with_capacity(self.loops.len());
        for &(s, e) in &self.loops {
            match regions.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => regions.push((s, e)),
            }
        }
        for t in &mut self.tensors {
            let Some((mut f, mut l)) = t.life else { continue };
            let from = regions.partition_point(|r| r.1 < f);
            if let Some(r) = regions.get(from).filter(|r| r.0 <= l) {
                f = f.min(r.0);
                l = l.max(r.1);
            }
            let to = regions.partition_point(|r| r.0 <= l);
            if let Some(r) = to.checked_sub(1).and_then(|k| regions.get(k)).filter(|r| r.1 >= f) {
                l = l.max(r.1);
            }
            t.life = Some((f, l));
        }
    }
}
