//! What `Method::load` takes from the method allocator, replayed: the stock
//! runtime (ExecuTorch 1.5, portable build, 64-bit) allocates its records
//! there one after the other, each at its type's natural alignment, in the
//! order below. The record sizes are those of that build (`sizeof` printed
//! by `scripts/conformance/et_memory_probe.cpp --sizes`).

use serde::Serialize;

/// `sizeof(EValue)`: a tag and an 8-byte payload.
const EVALUE: u64 = 16;
/// `sizeof(TensorImpl)` in the portable build.
const TENSOR_IMPL: u64 = 64;
/// `sizeof(executorch::aten::Tensor)`: one pointer.
const TENSOR: u64 = 8;
/// `sizeof(std::optional<Tensor>)`.
const OPTIONAL_TENSOR: u64 = 16;
/// `sizeof(BoxedEvalueList<T>)`: two pointers and a length.
const BOXED_LIST: u64 = 24;
/// `sizeof(ArrayRef<T>)`: a pointer and a length.
const ARRAY_REF: u64 = 16;
/// `sizeof(NamedData)`: a key pointer and a 40-byte `FreeableBuffer`.
const NAMED_DATA: u64 = 48;
/// `sizeof(BackendDelegate)`: a `FreeableBuffer` and two pointers.
const BACKEND_DELEGATE: u64 = 56;
/// `sizeof(CompileSpec)`: a key pointer and a sized buffer.
const COMPILE_SPEC: u64 = 24;
/// `sizeof(Chain)`: the chain pointer, a span of argument lists, the kernels.
const CHAIN: u64 = 32;
/// `sizeof(OpFunction)` plus `sizeof(InstructionArgs)`, per instruction.
const OP_FUNCTION: u64 = 8;
const INSTRUCTION_ARGS: u64 = 16;
/// `sizeof(EValue*)`, per argument of a kernel or delegate call.
const POINTER: u64 = 8;
/// `sizeof(TensorMeta)`, per argument of a kernel call (operator lookup).
const TENSOR_META: u64 = 24;
/// `sizeof(PlatformMemoryAllocator)`, made when no temp allocator is given.
const PLATFORM_ALLOCATOR: u64 = 48;

/// The estimate's formula, as documented in docs/cli.md.
pub(crate) const FORMULA: &str = "48 (the fallback temp allocator the runtime makes when given none) \
+ 16 × values + 1 × inputs + 48 × EXTERNAL constants \
+ per tensor 64 + 4 × rank (+ 5 × rank when its shape is dynamic) \
+ per IntList or TensorList 16 × items + 24, per OptionalTensorList 24 × items + 24, per DoubleList, BoolList or String 16 \
+ 56 × delegates + 24 × compile specs + 32 × chains + 24 × instructions \
+ per kernel or delegate call 8 × arguments, per kernel call 24 × arguments + the rank of each tensor argument \
+ alignment padding (each record at its natural alignment, from a 16-aligned base); \
a 64-bit portable runtime given no temp allocator; what delegates' backends allocate in init is not included";

/// The bytes of each kind of record the method allocator holds.
///
/// ```
/// let bytes = std::fs::read(pte_testkit::corpus("add/model.pte"))?;
/// let plan = pte_analysis::memory::MemoryPlan::from_bytes(&bytes, &Default::default())?;
/// let e = &plan.methods[0].method_allocator;
/// assert_eq!(e.parts.total(), e.bytes);
/// # Ok::<(), pte_file::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AllocatorParts {
    /// The fallback temp allocator the runtime makes when given none.
    pub temp_fallback: u64,
    /// The `EValue` array (16 bytes a value) and the inputs' set flags.
    pub values: u64,
    /// One `NamedData` record per EXTERNAL constant tensor.
    pub external_constants: u64,
    /// `TensorImpl`s, strides, and the sizes and dim order of dynamic tensors.
    pub tensors: u64,
    /// The boxed and unboxed arrays of lists and strings.
    pub lists: u64,
    /// `BackendDelegate` records and their compile specs.
    pub delegates: u64,
    /// `Chain` records, and a kernel pointer and an argument span per instruction.
    pub chains: u64,
    /// The argument pointer arrays of kernel and delegate calls.
    pub arguments: u64,
    /// Operator lookup: a `TensorMeta` per kernel argument and each tensor
    /// argument's dim order (on the method allocator when the temp allocator
    /// has no fixed size).
    pub kernel_lookup: u64,
    /// Bytes skipped to align records.
    pub padding: u64,
}

impl AllocatorParts {
    /// The sum of the parts.
    ///
    /// ```
    /// let p = pte_analysis::memory::AllocatorParts { values: 16, padding: 4, ..Default::default() };
    /// assert_eq!(p.total(), 20);
    /// ```
    pub fn total(&self) -> u64 {
        [
            self.temp_fallback,
            self.values,
            self.external_constants,
            self.tensors,
            self.lists,
            self.delegates,
            self.chains,
            self.arguments,
            self.kernel_lookup,
            self.padding,
        ]
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
    }
}

/// A bump allocator's cursor, counting what each kind of record takes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Bump {
    used: u64,
    pub(crate) parts: AllocatorParts,
}

/// `n × size`, saturating: counts come from vectors the file holds.
fn times(n: usize, size: u64) -> u64 {
    (n as u64).saturating_mul(size)
}

impl Bump {
    /// Takes `size` bytes at a multiple of `align` (a power of two), and
    /// returns them so the caller can add them to its part.
    fn take(&mut self, size: u64, align: u64) -> u64 {
        let mask = align.saturating_sub(1);
        let start = self.used.saturating_add(mask) & !mask;
        self.parts.padding = self.parts.padding.saturating_add(start.saturating_sub(self.used));
        self.used = start.saturating_add(size);
        size
    }

    pub(crate) fn used(&self) -> u64 {
        self.used
    }

    /// The fallback temp allocator, the value array and the input flags.
    pub(crate) fn prelude(&mut self, values: usize, inputs: usize) {
        self.parts.temp_fallback = self.take(PLATFORM_ALLOCATOR, 8);
        let mut v = self.take(times(values, EVALUE), 8);
        if inputs > 0 {
            v = v.saturating_add(self.take(inputs as u64, 1));
        }
        self.parts.values = v;
    }

    pub(crate) fn external_constants(&mut self, n: usize) {
        if n > 0 {
            self.parts.external_constants = self.take(times(n, NAMED_DATA), 8);
        }
    }

    /// One tensor value of rank `rank`.
    pub(crate) fn tensor(&mut self, rank: u8, dynamic: bool) {
        let rank = u64::from(rank);
        let mut n = 0u64;
        if dynamic {
            n = n.saturating_add(self.take(rank.saturating_mul(4), 4));
            n = n.saturating_add(self.take(rank, 1));
        }
        n = n.saturating_add(self.take(rank.saturating_mul(4), 4));
        n = n.saturating_add(self.take(TENSOR_IMPL, 8));
        self.parts.tensors = self.parts.tensors.saturating_add(n);
    }

    fn list(&mut self, sizes: &[u64]) {
        let n = sizes.iter().fold(0u64, |n, &s| n.saturating_add(self.take(s, 8)));
        self.parts.lists = self.parts.lists.saturating_add(n);
    }

    pub(crate) fn int_list(&mut self, items: usize) {
        self.list(&[times(items, POINTER), times(items, 8), BOXED_LIST]);
    }

    pub(crate) fn tensor_list(&mut self, items: usize, optional: bool) {
        let each = if optional { OPTIONAL_TENSOR } else { TENSOR };
        self.list(&[times(items, each), times(items, POINTER), BOXED_LIST]);
    }

    pub(crate) fn array_ref(&mut self) {
        self.list(&[ARRAY_REF]);
    }

    pub(crate) fn delegates(&mut self, n: usize) {
        let b = self.take(times(n, BACKEND_DELEGATE), 8);
        self.parts.delegates = self.parts.delegates.saturating_add(b);
    }

    pub(crate) fn compile_specs(&mut self, n: usize) {
        let b = self.take(times(n, COMPILE_SPEC), 8);
        self.parts.delegates = self.parts.delegates.saturating_add(b);
    }

    pub(crate) fn chains(&mut self, n: usize) {
        let b = self.take(times(n, CHAIN), 8);
        self.parts.chains = self.parts.chains.saturating_add(b);
    }

    pub(crate) fn chain(&mut self, instructions: usize) {
        let a = self.take(times(instructions, OP_FUNCTION), 8);
        let b = self.take(times(instructions, INSTRUCTION_ARGS), 8);
        self.parts.chains = self.parts.chains.saturating_add(a).saturating_add(b);
    }

    pub(crate) fn arguments(&mut self, n: usize) {
        let b = self.take(times(n, POINTER), 8);
        self.parts.arguments = self.parts.arguments.saturating_add(b);
    }

    pub(crate) fn kernel_lookup(&mut self, n: usize) {
        let b = self.take(times(n, TENSOR_META), 8);
        self.parts.kernel_lookup = self.parts.kernel_lookup.saturating_add(b);
    }

    pub(crate) fn dim_order(&mut self, rank: u8) {
        let b = self.take(u64::from(rank), 1);
        self.parts.kernel_lookup = self.parts.kernel_lookup.saturating_add(b);
    }
}
