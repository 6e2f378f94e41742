//! Structure-aware generation of valid programs that reach the corners of
//! the format: every value and instruction kind, every dtype with a byte
//! size, zero-size and shared constants, empty and maximal vectors, several
//! methods, planned buffers with mutable initial data and extra mutable
//! segments, named data shared by keys at odd alignments, an XNNPACK method
//! whose payload sits inline or in a segment, and odd segment alignments.
//!
//! The choices come from an [`Entropy`] source: a seeded [`Rng`] for
//! `pte gen --seed N`, or a fuzzer's bytes (`arbitrary::Unstructured`) for the
//! structured fuzz target, so one generator serves both.
//!
//! Everything generated passes `pte verify` under default limits, and is
//! meant to load in the stock runtime: kernel calls use operators its
//! portable kernel library registers, and delegate calls only the XNNPACK
//! payload of the corpus file `xnnpack_mlp`.

use std::borrow::Cow;

use pte_file::{NamedEntry, PteFile, PteParts, SegmentLayout, WriteOptions};
use pte_schema::{
    AllocationDetails, BackendDelegateInlineData, Chain, ContainerMetadata, DataLocation, DataSegment, EValue,
    ExecutionPlan, ExtraTensorInfo, Frame, FrameList, Instruction, InstructionArguments, KernelTypes, Operator,
    ScalarType, Tensor, TensorDataLocation, TensorShapeDynamism,
};

use crate::Rng;

/// A source of choices for the generator.
///
/// ```
/// use pte_gen::Entropy;
/// let mut r = pte_gen::Rng::new(3);
/// assert!(r.below(10) < 10);
/// assert_eq!(r.below(0), 0);
/// ```
pub trait Entropy {
    /// A value in `0..n` (0 when `n` is 0).
    fn below(&mut self, n: usize) -> usize;

    /// True with probability about `1 / n`.
    ///
    /// ```
    /// use pte_gen::Entropy;
    /// assert!(pte_gen::Rng::new(1).one_in(1));
    /// ```
    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

impl Entropy for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
}

/// Fuzzer bytes as choices; once they run out every choice is 0, which the
/// generator maps to its smallest program, so any input is usable.
impl Entropy for arbitrary::Unstructured<'_> {
    fn below(&mut self, n: usize) -> usize {
        match n {
            0 | 1 => 0,
            _ => self.int_in_range(0..=n.saturating_sub(1)).unwrap_or(0),
        }
    }
}

/// A generated program and the options to write it with.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The program with its segments laid out.
    pub file: PteFile<'static>,
    /// Segment alignment and delegate placement drawn for this program.
    pub options: WriteOptions,
}

impl Generated {
    /// The file's bytes.
    ///
    /// ```
    /// let bytes = pte_gen::generate(1)?.to_bytes()?;
    /// assert_eq!(&bytes[4..8], b"ET12");
    /// # Ok::<(), pte_file::Error>(())
    /// ```
    pub fn to_bytes(&self) -> pte_file::Result<Vec<u8>> {
        self.file.to_bytes(&self.options)
    }
}

/// The program for `seed` (the same seed always gives the same bytes).
///
/// ```
/// let a = pte_gen::generate(42)?.to_bytes()?;
/// assert_eq!(a, pte_gen::generate(42)?.to_bytes()?);
/// let report = pte_verify::verify_bytes(&a, &Default::default());
/// assert!(report.is_ok() && report.warnings.is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn generate(seed: u64) -> pte_file::Result<Generated> {
    generate_from(&mut Rng::new(seed.wrapping_add(0x5EED)))
}

/// A program drawn from `e`.
///
/// ```
/// let mut u = arbitrary::Unstructured::new(&[7, 1, 200, 3, 9, 4]);
/// let g = pte_gen::generate_from(&mut u)?;
/// assert!(!g.file.program.plans().is_empty());
/// # Ok::<(), pte_file::Error>(())
/// ```
pub fn generate_from(e: &mut impl Entropy) -> pte_file::Result<Generated> {
    let mut g = Gen { parts: PteParts::default(), inline: vec![] };
    g.parts.constants.push(Cow::Borrowed(&[]));
    let methods = 1usize.saturating_add(e.below(4));
    let mut plans = Vec::with_capacity(methods.saturating_add(1));
    let mut mutable0: Vec<Cow<'static, [u8]>> = vec![Cow::Borrowed(&[])];
    for m in 0..methods {
        plans.push(g.plan(e, m, &mut mutable0));
    }
    if e.one_in(3) {
        plans.push(g.xnnpack(e)?);
    }
    g.named(e);
    if mutable0.len() > 1 {
        g.parts.mutable.push(mutable0);
    }
    // Mutable segments past the first are legal and unused by the runtime.
    for _ in 0..e.below(3) {
        if g.parts.mutable.is_empty() {
            g.parts.mutable.push(vec![Cow::Borrowed(&[])]);
        }
        g.parts.mutable.push(vec![Cow::Borrowed(&[]), Cow::Owned(bytes(e, 8))]);
    }
    g.parts.program.execution_plan = Some(plans);
    g.parts.program.backend_delegate_data = Some(g.inline);
    let alignment = one_of(e, &[16u64, 32, 64, 128, 4096, 65536, 48, 3, 1]);
    let options = WriteOptions::default()
        .with_segment_alignment(alignment)?
        .with_tensor_alignment(one_of(e, &[16u64, 32, 64, 1, 8]))?
        // The built offsets honour each named blob's alignment, which a
        // repack (knowing only the segment alignment) would not.
        .with_layout(SegmentLayout::Keep);
    let mut file = g.parts.build(&options)?;
    if e.one_in(2) {
        delegates_to_segments(&mut file, alignment)?;
    }
    Ok(Generated { file, options })
}

/// Moves every inline delegate payload into a segment of its own after the
/// last one, at a multiple of the segment alignment and of 16 (the backend
/// reads its payload in place).
fn delegates_to_segments(file: &mut PteFile<'static>, alignment: u64) -> pte_file::Result<()> {
    let inline = file.program.backend_delegate_data.take().unwrap_or_default();
    let align = pte_segments::align::lcm(alignment, 16).unwrap_or(16);
    for plan in file.program.execution_plan.iter_mut().flatten() {
        for d in plan.delegates.iter_mut().flatten() {
            let Some(r) = d.processed.as_mut().filter(|r| r.location == DataLocation::INLINE) else { continue };
            let payload = usize::try_from(r.index).ok().and_then(|i| inline.get(i)).and_then(|b| b.data.clone());
            let Some(payload) = payload else { continue };
            let table = file.program.segments.get_or_insert_with(Vec::new);
            let end = table.iter().map(|s| s.offset.saturating_add(s.size)).max().unwrap_or(0);
            let offset = pte_segments::align::aligned(end, align).unwrap_or(end);
            table.push(DataSegment { offset, size: payload.len() as u64 });
            r.location = DataLocation::SEGMENT;
            r.index = u32::try_from(table.len().saturating_sub(1)).unwrap_or(u32::MAX);
            file.segments.push(payload);
        }
    }
    file.program.backend_delegate_data = Some(vec![]);
    Ok(())
}

/// Elements in one generated tensor at most: enough for every corner
/// (rank 16, zero-size and shared buffers) at a few hundred KiB per tensor.
const MAX_ELEMENTS: i64 = 1 << 14;

/// Operators the stock runtime's portable kernel library registers for any
/// argument types. (`dim_order_ops::_to_dim_order_copy.out` is left out: its
/// kernels are registered per dtype, so a call without tensor arguments finds
/// none and the method fails to load with `NotFound`.)
const OPERATORS: [(&str, &str); 7] = [
    ("aten::add", "out"),
    ("aten::mul", "out"),
    ("aten::copy_", ""),
    ("aten::sum", "IntList_out"),
    ("aten::addmm", "out"),
    ("aten::permute_copy", "out"),
    ("aten::relu", "out"),
];

/// Every scalar type with a byte size, the runtime's 0 through 29.
fn dtype(e: &mut impl Entropy) -> ScalarType {
    ScalarType(i8::try_from(e.below(30)).unwrap_or(6))
}

fn one_of<T: Copy + Default>(e: &mut impl Entropy, items: &[T]) -> T {
    items.get(e.below(items.len())).copied().unwrap_or_default()
}

fn bytes(e: &mut impl Entropy, max: usize) -> Vec<u8> {
    let n = e.below(max.saturating_add(1));
    (0..n).map(|_| u8::try_from(e.below(256)).unwrap_or(0)).collect()
}

fn name(e: &mut impl Entropy, what: &str, i: usize) -> String {
    match e.below(4) {
        0 => format!("{what}{i}"),
        1 => format!("{what}_{i}_{}", "x".repeat(e.below(200))),
        2 => format!("{what}_é_{i}"),
        _ => format!("{what}.{i}"),
    }
}

struct Gen {
    parts: PteParts<'static>,
    inline: Vec<BackendDelegateInlineData<'static>>,
}

/// A method under construction: its values and planned buffers.
struct Plan {
    values: Vec<EValue>,
    tensors: Vec<i32>,
    ints: Vec<i32>,
    bools: Vec<i32>,
    buffers: Vec<i64>,
}

impl Plan {
    fn push(&mut self, v: KernelTypes) -> i32 {
        let i = i32::try_from(self.values.len()).unwrap_or(i32::MAX);
        match &v {
            KernelTypes::Tensor(_) => self.tensors.push(i),
            KernelTypes::Int(_) => self.ints.push(i),
            KernelTypes::Bool(_) => self.bools.push(i),
            _ => {}
        }
        self.values.push(EValue { val: Some(v) });
        i
    }

    fn any(&self, e: &mut impl Entropy) -> i32 {
        i32::try_from(e.below(self.values.len())).unwrap_or(0)
    }

    fn pick(list: &[i32], e: &mut impl Entropy) -> Option<i32> {
        list.get(e.below(list.len())).copied()
    }
}

impl Gen {
    fn plan(&mut self, e: &mut impl Entropy, m: usize, mutable0: &mut Vec<Cow<'static, [u8]>>) -> ExecutionPlan {
        let mut p = Plan { values: vec![], tensors: vec![], ints: vec![], bools: vec![], buffers: vec![0] };
        for _ in 0..e.below(3) {
            p.buffers.push(0);
        }
        let n = e.below(24);
        for _ in 0..n {
            self.value(e, &mut p, mutable0);
        }
        if p.values.is_empty() {
            p.push(KernelTypes::Null);
        }
        let operators: Vec<Operator> = (0..e.below(OPERATORS.len().saturating_add(1)))
            .filter_map(|_| OPERATORS.get(e.below(OPERATORS.len())))
            .map(|(n, o)| Operator { name: Some((*n).into()), overload: Some((*o).into()) })
            .collect();
        let chains = (0..1usize.saturating_add(e.below(2))).map(|_| chain(e, &p, operators.len())).collect();
        let inputs = (0..e.below(4)).map(|_| p.any(e)).collect();
        let outputs = (0..e.below(4)).map(|_| p.any(e)).collect();
        ExecutionPlan {
            name: Some(if m == 0 { "forward".into() } else { name(e, "method", m) }),
            container_meta_type: (!e.one_in(4)).then(|| ContainerMetadata {
                encoded_inp_str: Some(format!("[1, {}]", "{}".repeat(e.below(3)))),
                encoded_out_str: Some(String::new()),
            }),
            values: Some(p.values),
            inputs: Some(inputs),
            outputs: Some(outputs),
            chains: Some(chains),
            operators: Some(operators),
            delegates: Some(vec![]),
            non_const_buffer_sizes: Some(p.buffers),
            non_const_buffer_device: None,
        }
    }

    fn value(&mut self, e: &mut impl Entropy, p: &mut Plan, mutable0: &mut Vec<Cow<'static, [u8]>>) {
        let v = match e.below(12) {
            0 => KernelTypes::Null,
            1 => KernelTypes::Int(one_of(e, &[0, -1, 1, i64::MIN, i64::MAX, 4096])),
            2 => KernelTypes::Bool(e.one_in(2)),
            3 => KernelTypes::Double(one_of(
                e,
                &[0.0, -0.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MIN_POSITIVE, 1.5e300],
            )),
            4 => KernelTypes::String(Some(match e.below(3) {
                0 => String::new(),
                1 => "ü".repeat(e.below(64)),
                _ => "s".repeat(e.below(300)),
            })),
            5 => {
                if p.ints.is_empty() {
                    p.push(KernelTypes::Int(e.below(8) as i64));
                }
                let items = (0..e.below(6)).filter_map(|_| Plan::pick(&p.ints, e)).map(i64::from).collect();
                KernelTypes::IntList(Some(items))
            }
            6 => KernelTypes::DoubleList(Some((0..e.below(5)).map(|i| i as f64 * 0.5).collect())),
            7 => KernelTypes::BoolList(Some((0..e.below(5)).map(|_| e.one_in(2)).collect())),
            8 => KernelTypes::TensorList(Some((0..e.below(4)).filter_map(|_| Plan::pick(&p.tensors, e)).collect())),
            9 => KernelTypes::OptionalTensorList(Some(
                (0..e.below(4))
                    .map(|_| if e.one_in(3) { -1 } else { Plan::pick(&p.tensors, e).unwrap_or(-1) })
                    .collect(),
            )),
            _ => KernelTypes::Tensor(self.tensor(e, p, mutable0)),
        };
        p.push(v);
    }

    fn tensor(&mut self, e: &mut impl Entropy, p: &mut Plan, mutable0: &mut Vec<Cow<'static, [u8]>>) -> Tensor {
        let scalar_type = dtype(e);
        let rank = match e.below(8) {
            0 => 0,
            1 => 16,
            r => r.saturating_sub(1),
        };
        // Rank 16 with every dimension drawn large would be 5^16 elements;
        // a dimension that would take the tensor past MAX_ELEMENTS is 1.
        let mut numel = 1i64;
        let sizes: Vec<i32> = (0..rank)
            .map(|_| {
                let d = match e.below(10) {
                    0 => 0,
                    1..=5 => 1,
                    _ => i32::try_from(e.below(5)).unwrap_or(1).saturating_add(1),
                };
                let grown = numel.saturating_mul(i64::from(d));
                if grown > MAX_ELEMENTS {
                    return 1;
                }
                numel = grown;
                d
            })
            .collect();
        let mut dim_order: Vec<u8> = (0..u8::try_from(rank).unwrap_or(0)).collect();
        if e.one_in(3) {
            for i in (1..dim_order.len()).rev() {
                dim_order.swap(i, e.below(i.saturating_add(1)));
            }
        }
        let mut t = Tensor {
            scalar_type,
            sizes: Some(sizes),
            dim_order: Some(dim_order),
            requires_grad: e.one_in(4),
            shape_dynamism: if e.one_in(4) { TensorShapeDynamism::DYNAMIC_BOUND } else { TensorShapeDynamism::STATIC },
            ..Default::default()
        };
        let nbytes = usize::try_from(t.nbytes().unwrap_or(0)).unwrap_or(0);
        match e.below(4) {
            // A constant: a fresh buffer, or one another tensor of the same
            // size already uses.
            0 => {
                let shared = (1..self.parts.constants.len())
                    .find(|&i| self.parts.constants.get(i).map(|c| c.len()) == Some(nbytes));
                let idx = match shared {
                    Some(i) if e.one_in(2) => i,
                    _ => {
                        let data: Vec<u8> = (0..nbytes).map(|_| u8::try_from(e.below(256)).unwrap_or(0)).collect();
                        self.parts.constants.push(Cow::Owned(data));
                        self.parts.constants.len().saturating_sub(1)
                    }
                };
                t.data_buffer_idx = u32::try_from(idx).unwrap_or(0);
            }
            // Planned, sometimes with initial data from mutable segment 0.
            1 | 2 if p.buffers.len() > 1 => {
                let b = 1usize.saturating_add(e.below(p.buffers.len().saturating_sub(1)));
                let used = p.buffers.get(b).copied().unwrap_or(0);
                let pad = one_of(e, &[0i64, 16, 3, 1024]);
                let offset = used.saturating_add(pad);
                if let Some(size) = p.buffers.get_mut(b) {
                    *size =
                        offset.saturating_add(i64::try_from(nbytes).unwrap_or(0)).saturating_add(one_of(e, &[0, 64]));
                }
                let offset = u64::try_from(offset).unwrap_or(0);
                t.allocation_info = Some(AllocationDetails {
                    memory_id: u32::try_from(b).unwrap_or(1),
                    memory_offset_low: (offset & 0xFFFF_FFFF) as u32,
                    memory_offset_high: (offset >> 32) as u32,
                });
                // Zero bytes of initial data load only in files that have a
                // segment base and into a buffer with an address, which the
                // verifier demands (mutable.bounds), so only non-empty tensors
                // get initial data.
                if nbytes > 0 && e.one_in(2) {
                    let data: Vec<u8> = (0..nbytes).map(|_| u8::try_from(e.below(256)).unwrap_or(0)).collect();
                    mutable0.push(Cow::Owned(data));
                    t.data_buffer_idx = u32::try_from(mutable0.len().saturating_sub(1)).unwrap_or(0);
                    t.extra_tensor_info = Some(ExtraTensorInfo {
                        mutable_data_segments_idx: 0,
                        fully_qualified_name: Some(format!("state_{}", p.values.len())),
                        location: TensorDataLocation::SEGMENT,
                        ..Default::default()
                    });
                }
            }
            // Neither: memory the caller provides (an input).
            _ => {}
        }
        t
    }

    fn named(&mut self, e: &mut impl Entropy) {
        for _ in 0..e.below(4) {
            self.parts.named_blobs.push(Cow::Owned(bytes(e, 40)));
            let blob = self.parts.named_blobs.len().saturating_sub(1);
            for _ in 0..1usize.saturating_add(e.below(3)) {
                let key = format!("named/{}/{}", self.parts.named.len(), "k".repeat(e.below(80)));
                let alignment = one_of(e, &[1u64, 3, 16, 48, 64, 100, 4096]);
                self.parts.named.push(NamedEntry { key, blob, alignment });
            }
        }
    }

    /// The corpus XNNPACK method, renamed, its payload inline (moved to a
    /// segment when the options say so) and its weights under their keys.
    fn xnnpack(&mut self, e: &mut impl Entropy) -> pte_file::Result<ExecutionPlan> {
        let source = PteFile::from_bytes(XNNPACK_MLP)?;
        let mut plan = source.program.plans().first().cloned().unwrap_or_default();
        plan.name = Some(format!("xnnpack_{}", e.below(1000)));
        for d in plan.delegates.iter_mut().flatten() {
            let Some(r) = d.processed.as_mut() else { continue };
            let payload = match r.location {
                DataLocation::SEGMENT => source.segment(r.index)?.to_vec(),
                _ => source
                    .program
                    .backend_delegate_data
                    .as_ref()
                    .and_then(|v| v.get(usize::try_from(r.index).ok()?))
                    .and_then(|b| b.data.as_ref())
                    .map(|b| b.to_vec())
                    .unwrap_or_default(),
            };
            self.inline.push(BackendDelegateInlineData { data: Some(Cow::Owned(payload)) });
            r.location = DataLocation::INLINE;
            r.index = u32::try_from(self.inline.len().saturating_sub(1)).unwrap_or(0);
        }
        for blob in source.named_data()? {
            self.parts.named_blobs.push(Cow::Owned(blob.bytes.to_vec()));
            let blob_index = self.parts.named_blobs.len().saturating_sub(1);
            self.parts.named.push(NamedEntry { key: blob.key.to_string(), blob: blob_index, alignment: 16 });
        }
        Ok(plan)
    }
}

static XNNPACK_MLP: &[u8] = include_bytes!("../corpus/xnnpack_mlp/model.pte");

fn chain(e: &mut impl Entropy, p: &Plan, operators: usize) -> Chain {
    let n = e.below(8);
    let mut instructions = Vec::with_capacity(n);
    for _ in 0..n {
        let args = match e.below(5) {
            0 if operators > 0 => InstructionArguments::KernelCall {
                op_index: i32::try_from(e.below(operators)).unwrap_or(0),
                args: Some((0..e.below(6)).map(|_| p.any(e)).collect()),
            },
            1 => InstructionArguments::MoveCall { move_from: p.any(e), move_to: p.any(e) },
            2 if !p.bools.is_empty() => InstructionArguments::JumpFalseCall {
                cond_value_index: Plan::pick(&p.bools, e).unwrap_or(0),
                destination_instruction: i32::try_from(e.below(n)).unwrap_or(0),
            },
            3 if !p.tensors.is_empty() => {
                InstructionArguments::FreeCall { value_index: Plan::pick(&p.tensors, e).unwrap_or(0) }
            }
            _ => InstructionArguments::MoveCall { move_from: p.any(e), move_to: p.any(e) },
        };
        instructions.push(Instruction { instr_args: Some(args) });
    }
    let stacktrace = e.one_in(3).then(|| {
        (0..instructions.len())
            .map(|i| FrameList {
                items: Some(vec![Frame {
                    filename: Some("model.py".into()),
                    lineno: i32::try_from(i).unwrap_or(0),
                    name: Some("forward".into()),
                    context: Some(String::new()),
                }]),
            })
            .collect()
    });
    Chain {
        inputs: Some((0..e.below(3)).map(|_| p.any(e)).collect()),
        outputs: Some((0..e.below(3)).map(|_| p.any(e)).collect()),
        instructions: Some(instructions),
        stacktrace,
    }
}
