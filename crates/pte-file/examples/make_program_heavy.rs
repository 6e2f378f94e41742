//! Writes a program-heavy file shaped like the `program-heavy` benchmark case:
//! N values (tensors with a 16-byte constant each, alternating with ints) and
//! N kernel-call instructions, for the dump, info and rewrite measurements in
//! docs/performance.md:
//! `cargo run --release -p pte-file --example make_program_heavy -- OUT.pte N`

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use std::borrow::Cow;

use pte_file::{PteParts, WriteOptions};
use pte_schema::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).expect("usage: make_program_heavy OUT.pte N");
    let n: usize = args.get(2).map_or(100_000, |s| s.parse().unwrap());
    let tensor = |idx: usize| EValue {
        val: Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(vec![4]),
            dim_order: Some(vec![0]),
            data_buffer_idx: idx as u32,
            ..Default::default()
        })),
    };
    let values: Vec<EValue> = (0..n)
        .map(|i| if i % 2 == 0 { tensor(i / 2 + 1) } else { EValue { val: Some(KernelTypes::Int(i as i64)) } })
        .collect();
    let nv = values.len().max(1) as i32;
    let plan = ExecutionPlan {
        name: Some("forward".into()),
        values: Some(values),
        inputs: Some(vec![]),
        outputs: Some(vec![0]),
        chains: Some(vec![Chain {
            inputs: Some(vec![]),
            outputs: Some(vec![]),
            instructions: Some(
                (0..n)
                    .map(|i| Instruction {
                        instr_args: Some(InstructionArguments::KernelCall {
                            op_index: 0,
                            args: Some(vec![(i as i32) % nv, 0]),
                        }),
                    })
                    .collect(),
            ),
            stacktrace: None,
        }]),
        operators: Some(vec![Operator { name: Some("aten::add".into()), overload: Some("out".into()) }]),
        delegates: Some(vec![]),
        non_const_buffer_sizes: Some(vec![0]),
        non_const_buffer_device: None,
        container_meta_type: None,
    };
    let mut constants = vec![Cow::Owned(vec![])];
    constants.extend((0..n.div_ceil(2)).map(|i| Cow::Owned(vec![(i % 251) as u8; 16])));
    let parts = PteParts {
        program: Program { execution_plan: Some(vec![plan]), ..Default::default() },
        constants,
        ..Default::default()
    };
    let opts = WriteOptions::default();
    let n = parts.build(&opts).unwrap().save(out, &opts).unwrap();
    println!("wrote {out}: {n} bytes");
}
