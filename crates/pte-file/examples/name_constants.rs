//! Gives every unnamed constant tensor a fully qualified name (`constant.N`),
//! so `pte externalize` can key it (exporters only name tensors they tag):
//! `cargo run -p pte-file --example name_constants -- IN.pte OUT.pte`

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, missing_docs)]

use pte_file::{MappedFile, PteFile, WriteOptions};
use pte_schema::{ExtraTensorInfo, KernelTypes};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (input, output) = (args.get(1).expect("IN.pte"), args.get(2).expect("OUT.pte"));
    let map = MappedFile::open(input).unwrap();
    let mut pte = PteFile::from_bytes(map.bytes()).unwrap();
    name_all(&mut pte);
    pte.save(output, &WriteOptions::default()).unwrap();
}

fn name_all(pte: &mut PteFile<'_>) {
    for plan in pte.program.execution_plan.iter_mut().flatten() {
        for v in plan.values.iter_mut().flatten() {
            if let Some(KernelTypes::Tensor(t)) = &mut v.val
                && t.data_buffer_idx > 0
                && t.allocation_info.is_none()
                && t.extra_tensor_info.is_none()
            {
                t.extra_tensor_info = Some(ExtraTensorInfo {
                    fully_qualified_name: Some(format!("constant.{}", t.data_buffer_idx)),
                    ..Default::default()
                });
            }
        }
    }
}
