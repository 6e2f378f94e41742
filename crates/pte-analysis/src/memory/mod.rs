//! The memory plan of a program, as the runtime will lay it out: per
//! method, each planned buffer (an arena of `non_const_buffer_sizes`; entry
//! 0 is reserved and never provided), every planned tensor with its buffer,
//! offset, size and lifetime, the most bytes live at once per buffer, the
//! pairs of tensors whose bytes and lifetimes both overlap (the plan would
//! corrupt data), and an estimate of what the method allocator needs beside
//! the buffers.
//!
//! Everything is read through the zero-copy views ([`ProgramView`]): a plan
//! costs one walk over the values and one over the instructions, and its
//! allocations are sized from what the file holds. What cannot be placed (a
//! tensor naming a missing buffer, of unknown size, an argument naming no
//! value) is listed in [`MethodMemory::unattributed`], never guessed.
//!
//! A lifetime is the first and last instruction (numbered across the
//! chains in order) during which a tensor holds data: from the first
//! instruction naming it to the last, directly or through a tensor list. A
//! method input holds data from the start, an output until the end, and a
//! mutable buffer (a planned tensor with initial data or a name) across the
//! whole method; a backward jump keeps what is live in the loop live for
//! all of it.
//!
//! ```
//! let bytes = std::fs::read(pte_testkit::corpus("mutable_plain/model.pte"))?;
//! let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
//! let forward = &plan.methods[0];
//! assert_eq!(forward.arenas[0].id, 1); // non_const_buffer_sizes[1], the runtime's buffer 0
//! assert_eq!(forward.arenas[0].size, 96);
//! assert!(forward.overlaps.is_empty() && forward.unattributed.is_empty());
//! let state = forward.tensors.iter().find(|t| t.name.as_deref() == Some("state")).unwrap();
//! assert_eq!((state.offset, state.size, state.lifetime), (64, 32, Some([0, 2])));
//! # Ok::<(), pte_file::Error>(())
//! ```

mod estimate;
mod instruction;
// Shared with the verifier (`pte-verify`), which gathers these facts on its
// own walk so that its memory checks need no second pass; not a stable API.
#[doc(hidden)]
pub mod gather;
mod sweep;
mod walk;

use serde::Serialize;

use pte_schema::{Limits, PlanView, ProgramView, Result, ValueRef};

pub use estimate::AllocatorParts;
pub use sweep::MAX_OVERLAPS;
pub use walk::VIEW_OPERATOR;

/// The memory plan of every method of a program.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("multi_method/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let names: Vec<_> = plan.methods.iter().map(|m| m.name.as_deref().unwrap()).collect();
/// assert_eq!(names, ["encode", "forward"]);
/// assert!(plan.is_attributed());
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MemoryPlan {
    /// One entry per execution plan, in file order.
    pub methods: Vec<MethodMemory>,
}

/// One method's memory plan.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let m = &plan.methods[0];
/// assert_eq!((m.name.as_deref(), m.plan, m.instructions), (Some("forward"), 0, 1));
/// assert_eq!(m.tensors.len(), 3); // two inputs and the output
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MethodMemory {
    /// The method name (`None` when the plan has none).
    pub name: Option<String>,
    /// Index of the plan in `execution_plan`.
    pub plan: usize,
    /// Instructions across all chains; lifetimes number them in this order.
    pub instructions: u64,
    /// Buffers 1.. of `non_const_buffer_sizes` (buffer 0 is reserved).
    pub arenas: Vec<Arena>,
    /// The planned tensors whose buffer and size are known, by value index.
    pub tensors: Vec<PlannedTensor>,
    /// Pairs of planned tensors of one buffer whose bytes and lifetimes
    /// overlap: the second overwrites the first while it still holds data.
    pub overlaps: Vec<Overlap>,
    /// Whether more overlapping pairs exist than the [`MAX_OVERLAPS`] listed.
    pub overlaps_truncated: bool,
    /// What could not be placed or followed, with why.
    pub unattributed: Vec<Unattributed>,
    /// What the method allocator needs beside the buffers (an estimate).
    pub method_allocator: AllocatorEstimate,
}

/// One planned buffer.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let a = &plan.methods[0].arenas[0];
/// assert_eq!((a.id, a.runtime_index, a.size), (1, 0, 192));
/// assert!(a.peak <= a.high_water && a.high_water <= a.size);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Arena {
    /// Index in `non_const_buffer_sizes`, the `memory_id` tensors name (1..).
    pub id: u32,
    /// The runtime's index of the buffer (`id - 1`), as
    /// `MethodMeta::memory_planned_buffer_size` takes it.
    pub runtime_index: u32,
    /// Bytes the runtime must provide.
    pub size: u64,
    /// Planned tensors placed in it.
    pub tensors: u64,
    /// The end of the furthest tensor (`offset + size`).
    pub high_water: u64,
    /// The most bytes of tensors live at one instruction.
    pub peak: u64,
    /// The first instruction where `peak` bytes are live.
    pub peak_at: Option<u64>,
}

/// What a planned tensor is to the method.
///
/// ```
/// assert_eq!(serde_json::to_string(&pte_analysis::memory::Role::InputOutput)?, "\"input_output\"");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A method input: holds data from the start.
    Input,
    /// A method output: holds data until the end.
    Output,
    /// Both an input and an output.
    InputOutput,
    /// A mutable buffer (initial data or a name): holds data across calls.
    State,
    /// Anything else: holds data between the instructions that name it.
    Intermediate,
}

/// One planned tensor.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let out = plan.methods[0].tensors.iter().find(|t| t.role == pte_analysis::memory::Role::Output).unwrap();
/// assert_eq!((out.arena, out.dtype.as_str(), out.lifetime), (1, "FLOAT", Some([0, 0])));
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlannedTensor {
    /// Index in the method's values.
    pub value: usize,
    /// The buffer's id (`memory_id`).
    pub arena: u32,
    /// Byte offset in the buffer (`memory_offset_high << 32 | memory_offset_low`).
    pub offset: u64,
    /// Bytes: element size × the product of the sizes as stored (the upper
    /// bound of a dynamic tensor).
    pub size: u64,
    /// The scalar type, spelled as the schema does.
    pub dtype: String,
    /// The sizes as stored.
    pub sizes: Vec<i32>,
    /// Whether the shape is dynamic (the sizes are bounds).
    pub dynamic: bool,
    /// The fully qualified name, when the tensor has one.
    pub name: Option<String>,
    /// What it is to the method.
    pub role: Role,
    /// First and last instruction during which it holds data; `None` when
    /// no instruction names it.
    pub lifetime: Option<[u64; 2]>,
}

/// Two tensors of one buffer that overlap in bytes and in lifetime.
///
/// ```
/// let o = pte_analysis::memory::Overlap { arena: 1, values: [3, 7], bytes: [0, 16], instructions: [2, 4] };
/// assert_eq!(serde_json::to_value(&o)?["bytes"], serde_json::json!([0, 16]));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Overlap {
    /// The buffer's id.
    pub arena: u32,
    /// The two value indices, the one live first first.
    pub values: [usize; 2],
    /// The shared bytes, `[start, end)`.
    pub bytes: [u64; 2],
    /// The instructions during which both hold data, inclusive.
    pub instructions: [u64; 2],
}

/// Something of the plan that could not be placed or followed.
///
/// ```
/// let u = pte_analysis::memory::Unattributed { path: "execution_plan[0].values[3]".into(), reason: "why".into() };
/// assert_eq!(serde_json::to_value(&u)?["path"], "execution_plan[0].values[3]");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Unattributed {
    /// The field path.
    pub path: String,
    /// What is wrong, and what it leaves out.
    pub reason: String,
}

/// An estimate of the bytes `Method::load` takes from the method allocator.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let e = &plan.methods[0].method_allocator;
/// assert_eq!(e.bytes, 560); // what the stock 1.5.1 runtime used loading it
/// assert!(e.formula.contains("16 × values"));
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AllocatorEstimate {
    /// The estimated bytes.
    pub bytes: u64,
    /// How they are counted.
    pub formula: &'static str,
    /// The bytes of each kind of record.
    pub parts: AllocatorParts,
    /// Delegates whose backends allocate more in init (not counted).
    pub delegates: u64,
    /// Whether the method has EXTERNAL tensors: loaded with a `.ptd` while
    /// the program also has named data, the runtime adds a merged data map.
    pub external_data: bool,
}

impl MemoryPlan {
    /// The plan of every method of a verified program.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
    /// let view = pte_schema::ProgramView::new(&bytes, &Default::default())?;
    /// assert_eq!(pte_analysis::memory::MemoryPlan::of(&view).methods.len(), 1);
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn of(view: &ProgramView<'_>) -> MemoryPlan {
        MemoryPlan { methods: (0..view.plan_count()).filter_map(|p| method_memory(view, p)).collect() }
    }

    /// The plan of a `.pte` file's program (its flatbuffer verified within
    /// `limits`; segments are not read).
    ///
    /// ```
    /// assert!(pte_analysis::memory::MemoryPlan::from_bytes(b"not a program", &Default::default()).is_err());
    /// ```
    pub fn from_bytes(bytes: &[u8], limits: &Limits) -> Result<MemoryPlan> {
        let (_, region) = pte_file::program_region(bytes)?;
        Ok(MemoryPlan::of(&ProgramView::new(region, limits)?))
    }

    /// Whether every planned tensor and every instruction could be followed.
    ///
    /// ```
    /// let bytes = std::fs::read(pte_testkit::corpus("linear/model.pte"))?;
    /// assert!(pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?.is_attributed());
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn is_attributed(&self) -> bool {
        self.methods.iter().all(|m| m.unattributed.is_empty())
    }
}

/// The plan of method `p` of a verified program, if it exists.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let view = pte_schema::ProgramView::new(&bytes, &Default::default())?;
/// assert!(pte_analysis::memory::method_memory(&view, 0).is_some());
/// assert!(pte_analysis::memory::method_memory(&view, 1).is_none());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn method_memory(view: &ProgramView<'_>, p: usize) -> Option<MethodMemory> {
    let plan = view.plan(p)?;
    let w = walk::walk(&plan, p, true);
    let order = sweep::in_sweep_order(&w.tensors);
    let peaks = sweep::peaks(&order);
    let (overlaps, overlaps_truncated) = sweep::overlaps(&order);
    let mut arenas: Vec<Arena> = vec![];
    for (id, size) in w.arenas.iter().enumerate().skip(1) {
        let (Ok(id), Some(size)) = (u32::try_from(id), size) else { continue };
        let placed = w.tensors.iter().filter(|t| t.arena == id);
        let (peak, peak_at) = peaks.get(&id).copied().unwrap_or((0, None));
        arenas.push(Arena {
            id,
            runtime_index: id.saturating_sub(1),
            size: *size,
            tensors: placed.clone().count() as u64,
            high_water: placed.map(|t| t.offset.saturating_add(t.nbytes)).max().unwrap_or(0),
            peak,
            peak_at,
        });
    }
    let tensors = w.tensors.iter().map(|t| described(&plan, t)).collect();
    let bump = w.estimate.unwrap_or_default();
    Some(MethodMemory {
        name: plan.name().map(str::to_string),
        plan: p,
        instructions: w.instructions,
        arenas,
        tensors,
        overlaps,
        overlaps_truncated,
        unattributed: w.unattributed,
        method_allocator: AllocatorEstimate {
            bytes: bump.used(),
            formula: estimate::FORMULA,
            parts: bump.parts,
            delegates: w.delegates,
            external_data: w.externals,
        },
    })
}

/// The pairs of live tensors sharing bytes in method `p`, without the rest
/// of its plan (what the verifier's `memory.overlap` warning needs).
/// With `facts`, what the verifier gathered of the method on its own walk,
/// the method is not walked again.
#[doc(hidden)]
pub fn overlaps_of(plan: &PlanView<'_>, p: usize, facts: Option<gather::PlanFacts>) -> (Vec<Overlap>, bool) {
    let w = match facts {
        Some(f) => walk::from_gathered(plan, p, f.read(plan)),
        None => walk::walk(plan, p, false),
    };
    sweep::overlaps(&sweep::in_sweep_order(&w.tensors))
}

fn described(plan: &PlanView<'_>, t: &walk::Planned) -> PlannedTensor {
    let view = match plan.value_ref(t.value()) {
        Some(ValueRef::Tensor(v)) => Some(v),
        _ => None,
    };
    PlannedTensor {
        value: t.value(),
        arena: t.arena,
        offset: t.offset,
        size: t.nbytes,
        dtype: view
            .map(|v| v.scalar_type())
            .map(|s| s.name().map_or_else(|| s.to_string(), str::to_string))
            .unwrap_or_default(),
        sizes: view.and_then(|v| v.sizes()).map(|s| s.iter().collect()).unwrap_or_default(),
        dynamic: view.is_some_and(|v| v.shape_dynamism() != pte_schema::TensorShapeDynamism::STATIC),
        name: view.and_then(|v| v.fqn()).map(str::to_string),
        role: t.role(),
        lifetime: t.lifetime().map(|(f, l)| [f, l]),
    }
}
