//! Programs built in code, the same bytes every time, for the tests, the
//! benches and the example writers that measure or limit by shape: one large
//! constant (segment-heavy) or very many values and instructions
//! (program-heavy). The numbers in docs/performance.md come from these.
//!
//! Unstable and test-only, never for users: built with the `test-programs`
//! feature (and in this crate's own unit tests), hidden from the docs. Here
//! rather than in `pte-testkit`, so the kit stays below every format crate.

// Test support: the shapes are small fixed numbers a caller picks, and a
// program that cannot be written is a broken test, best answered by a panic.
#![allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]

use std::borrow::Cow;

use crate::{ConstantPlacement, PteFile, PteParts, WriteOptions};
use pte_schema::{
    Buffer, Chain, EValue, ExecutionPlan, Instruction, InstructionArguments, KernelTypes, Operator, Program,
    ScalarType, Tensor,
};

/// A float tensor value with constant `idx` (0 for none) and contiguous
/// `sizes`.
///
/// ```
/// let v = pte_file::test_programs::float_tensor(1, vec![2, 3]);
/// assert!(matches!(v.val, Some(pte_schema::KernelTypes::Tensor(_))));
/// ```
pub fn float_tensor(idx: u32, sizes: Vec<i32>) -> EValue {
    let rank = u8::try_from(sizes.len()).unwrap();
    EValue {
        val: Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(sizes),
            dim_order: Some((0..rank).collect()),
            data_buffer_idx: idx,
            ..Default::default()
        })),
    }
}

/// Method `forward` over `values` with one operator (`aten::add.out`) and
/// `instructions` calls of it, call `i` reading value `i % values.len()`;
/// output value 0.
///
/// ```
/// use pte_file::test_programs::{float_tensor, one_operator_plan};
/// let plan = one_operator_plan(vec![float_tensor(0, vec![1])], 3);
/// assert_eq!(plan.chains.unwrap()[0].instructions.as_ref().unwrap().len(), 3);
/// ```
pub fn one_operator_plan(values: Vec<EValue>, instructions: usize) -> ExecutionPlan {
    let n = i32::try_from(values.len()).unwrap().max(1);
    let call = |i: usize| Instruction {
        instr_args: Some(InstructionArguments::KernelCall {
            op_index: 0,
            args: Some(vec![i32::try_from(i).unwrap() % n, 0]),
        }),
    };
    ExecutionPlan {
        name: Some("forward".into()),
        values: Some(values),
        inputs: Some(vec![]),
        outputs: Some(vec![0]),
        chains: Some(vec![Chain {
            inputs: Some(vec![]),
            outputs: Some(vec![]),
            instructions: Some((0..instructions).map(call).collect()),
            stacktrace: None,
        }]),
        operators: Some(vec![Operator { name: Some("aten::add".into()), overload: Some("out".into()) }]),
        delegates: Some(vec![]),
        non_const_buffer_sizes: Some(vec![0]),
        ..Default::default()
    }
}

/// The program-heavy shape: `n` values (a float tensor with a 16-byte
/// constant, then an int, in turn) and `n` kernel calls. 100,000 values give
/// an 8 MB program in an 8.8 MB file, the benchmark case of
/// docs/performance.md.
///
/// ```
/// let parts = pte_file::test_programs::program_heavy(10);
/// assert_eq!(parts.constants.len(), 6);
/// ```
pub fn program_heavy(n: usize) -> PteParts<'static> {
    let value = |i: usize| {
        if i.is_multiple_of(2) {
            float_tensor(u32::try_from(i / 2 + 1).unwrap(), vec![4])
        } else {
            EValue { val: Some(KernelTypes::Int(i64::try_from(i).unwrap())) }
        }
    };
    let mut constants = vec![Cow::Owned(vec![])];
    constants.extend((0..n.div_ceil(2)).map(|i| Cow::Owned(vec![u8::try_from(i % 251).unwrap(); 16])));
    PteParts {
        program: Program {
            execution_plan: Some(vec![one_operator_plan((0..n).map(value).collect(), n)]),
            ..Default::default()
        },
        constants,
        ..Default::default()
    }
}

/// [`program_heavy`] with its constants in the legacy inline form: each
/// in the flatbuffer's deprecated `constant_buffer`, no constant segment
/// and no segment at all. 1,000,000 values give a 94 MB file whose
/// program is all of it.
///
/// ```
/// let bytes = pte_file::test_programs::program_heavy_legacy_bytes(10);
/// let pte = pte_file::PteFile::from_bytes(&bytes).unwrap();
/// assert_eq!(pte.program.constant_buffer.as_ref().map(Vec::len), Some(6));
/// assert!(pte.segments.is_empty());
/// ```
pub fn program_heavy_legacy_bytes(n: usize) -> Vec<u8> {
    let parts = program_heavy(n);
    let mut program = parts.program;
    program.constant_buffer = Some(parts.constants.into_iter().map(|c| Buffer { storage: Some(c) }).collect());
    program.constant_segment = None;
    program.segments = Some(vec![]);
    PteFile::new(program, vec![]).to_bytes(&WriteOptions::default().with_constants(ConstantPlacement::Keep)).unwrap()
}

/// The segment-heavy shape: a program with no instructions whose one float
/// constant is `bytes` long (a multiple of 4), filled with `i % 251`.
///
/// ```
/// let parts = pte_file::test_programs::one_big_constant(1024);
/// assert_eq!(parts.constants[1].len(), 1024);
/// ```
pub fn one_big_constant(bytes: usize) -> PteParts<'static> {
    let elements = i32::try_from(bytes / 4).unwrap();
    let mut plan = one_operator_plan(vec![float_tensor(1, vec![elements])], 0);
    plan.operators = Some(vec![]);
    let data: Vec<u8> = (0..bytes).map(|i| u8::try_from(i % 251).unwrap()).collect();
    PteParts {
        program: Program { execution_plan: Some(vec![plan]), ..Default::default() },
        constants: vec![Cow::Owned(vec![]), Cow::Owned(data)],
        ..Default::default()
    }
}

/// `parts` as the bytes of a `.pte` file with the default layout.
///
/// ```
/// let bytes = pte_file::test_programs::to_bytes(&pte_file::test_programs::program_heavy(4));
/// assert_eq!(&bytes[4..8], b"ET12");
/// ```
pub fn to_bytes(parts: &PteParts<'_>) -> Vec<u8> {
    let opts = WriteOptions::default();
    parts.build(&opts).unwrap().to_bytes(&opts).unwrap()
}
