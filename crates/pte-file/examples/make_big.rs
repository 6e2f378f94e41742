//! Writes a loadable program with one large float constant (for the
//! performance comparison in docs/performance.md):
//! `cargo run --release -p pte-file --example make_big -- OUT.pte MIB`

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, missing_docs)]

use std::borrow::Cow;

use pte_file::{PteParts, WriteOptions};
use pte_schema::*;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let out = args.get(1).expect("usage: make_big OUT.pte MIB");
    let mib: usize = args.get(2).map_or(256, |s| s.parse().unwrap());
    let n = (mib << 20) / 4;
    let t = |idx, alloc: Option<AllocationDetails>| EValue {
        val: Some(KernelTypes::Tensor(Tensor {
            scalar_type: ScalarType::FLOAT,
            sizes: Some(vec![n as i32]),
            dim_order: Some(vec![0]),
            data_buffer_idx: idx,
            allocation_info: alloc,
            ..Default::default()
        })),
    };
    let plan = ExecutionPlan {
        name: Some("forward".into()),
        values: Some(vec![t(1, None)]),
        inputs: Some(vec![]),
        outputs: Some(vec![0]),
        chains: Some(vec![Chain {
            instructions: Some(vec![]),
            inputs: Some(vec![]),
            outputs: Some(vec![]),
            stacktrace: None,
        }]),
        operators: Some(vec![]),
        delegates: Some(vec![]),
        non_const_buffer_sizes: Some(vec![0]),
        ..Default::default()
    };
    let parts = PteParts {
        program: Program { execution_plan: Some(vec![plan]), ..Default::default() },
        constants: vec![Cow::Owned(vec![]), Cow::Owned((0..mib << 20).map(|i| (i % 251) as u8).collect())],
        ..Default::default()
    };
    let opts = WriteOptions::default();
    let n = parts.build(&opts).unwrap().save(out, &opts).unwrap();
    println!("wrote {out}: {n} bytes");
}
