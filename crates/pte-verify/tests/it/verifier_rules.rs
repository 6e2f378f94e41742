//! Every verifier rule fires on a file that breaks exactly that rule, built
//! from a real corpus program.

use std::collections::BTreeSet;

use pte_file::{PteFile, WriteOptions};
use pte_schema::*;
use pte_verify::{verify_bytes, CATALOGUES};

fn corpus(case: &str) -> Vec<u8> {
    pte_testkit::model_bytes(case)
}

fn edit(case: &str, f: impl FnOnce(&mut PteFile<'static>)) -> Vec<u8> {
    let bytes = corpus(case);
    let mut p = PteFile::from_bytes(&bytes).unwrap().into_owned();
    f(&mut p);
    p.to_bytes(&WriteOptions::default()).unwrap()
}

fn plan0<'p>(p: &'p mut PteFile<'static>) -> &'p mut ExecutionPlan {
    &mut p.program.execution_plan.as_mut().unwrap()[0]
}

fn tensor_at<'p>(p: &'p mut PteFile<'static>, i: usize) -> &'p mut Tensor {
    match plan0(p).values.as_mut().unwrap()[i].val.as_mut().unwrap() {
        KernelTypes::Tensor(t) => t,
        _ => panic!("value {i} is not a tensor"),
    }
}

fn patch(mut b: Vec<u8>, at: usize, v: &[u8]) -> Vec<u8> {
    b[at..at + v.len()].copy_from_slice(v);
    b
}

fn first_kernel<'p>(p: &'p mut PteFile<'static>) -> &'p mut InstructionArguments {
    plan0(p).chains.as_mut().unwrap()[0].instructions.as_mut().unwrap()[0].instr_args.as_mut().unwrap()
}

fn cases() -> Vec<(&'static str, Vec<u8>)> {
    let linear = corpus("linear");
    let len = linear.len();
    vec![
        ("file.min_size", linear[..60].to_vec()),
        ("header.length", patch(linear.clone(), 12, &16u32.to_le_bytes())),
        ("header.program_size", patch(linear.clone(), 16, &(len as u64 + 1).to_le_bytes())),
        ("header.file_size", patch(linear.clone(), 32, &(len as u64).to_le_bytes())),
        ("header.segment_base", patch(linear.clone(), 24, &64u64.to_le_bytes())),
        ("header.required", {
            // a file whose segment holds data, with the header magic broken
            patch(linear.clone(), 8, b"xx00")
        }),
        ("flatbuffer.identifier", patch(linear.clone(), 4, b"ET13")),
        ("flatbuffer.root_offset", patch(linear.clone(), 0, &4u32.to_le_bytes())),
        ("flatbuffer.structure", {
            // a vector length far past the end of the buffer: the operators vector's count
            let mut b = linear.clone();
            let at = (8..len - 4).step_by(4).find(|&i| {
                let mut t = b.clone();
                t[i..i + 4].copy_from_slice(&0x0fff_ffffu32.to_le_bytes());
                verify_bytes(&t, &Default::default()).breaks("flatbuffer.structure")
            });
            let at = at.expect("no structural corruption found");
            b[at..at + 4].copy_from_slice(&0x0fff_ffffu32.to_le_bytes());
            b
        }),
        ("flatbuffer.union_tag", {
            // an EValue tag the schema does not declare: find the first Int value's tag byte
            let p = PteFile::from_bytes(&linear).unwrap();
            let fixed = p.to_bytes(&WriteOptions::default()).unwrap();
            let needle = 2u8; // KernelTypes::Int
            let mut out = None;
            for i in 40..fixed.len() {
                if fixed[i] == needle {
                    let mut b = fixed.clone();
                    b[i] = 200;
                    let r = verify_bytes(&b, &Default::default());
                    if r.breaks("flatbuffer.union_tag") {
                        out = Some(b);
                        break;
                    }
                }
            }
            out.expect("no union tag byte found")
        }),
        ("program.version", edit("linear", |p| p.program.version = 1)),
        ("program.execution_plan", edit("linear", |p| p.program.execution_plan = None)),
        // the writer always emits the segment form, so take the real legacy file
        ("program.constant_segment", corpus("legacy_inline_constants")),
        ("program.constant_buffer", edit("linear", |p| p.program.constant_buffer = Some(vec![Buffer::default()]))),
        (
            "program.named_data_segments",
            edit("add", |p| {
                p.program.segments = None;
                p.segments.clear();
                p.program.named_data = Some(vec![]);
            }),
        ),
        ("segment.index", edit("linear", |p| p.program.constant_segment.as_mut().unwrap().segment_index = 5)),
        ("segment.bounds", {
            let mut b = edit("linear", |p| {
                p.program.segments.as_mut().unwrap()[0].size += 1;
                p.segments[0].to_mut().push(0);
            });
            b.truncate(b.len() - 1);
            let h = pte_segments::ExtendedHeader::parse(&b).unwrap().unwrap();
            patch(b, 32, &(h.segment_data_size - 1).to_le_bytes())
        }),
        ("segment.overlap", {
            let b = edit("xnnpack_mlp", |_| {});
            let p = PteFile::from_bytes(&b).unwrap();
            // point segment 3 into segment 2 by editing the table only
            let mut prog = p.program.clone();
            let s2 = prog.segments.as_ref().unwrap()[2];
            prog.segments.as_mut().unwrap()[3].offset = s2.offset;
            let fb = encode_program(&prog, &EncodeOptions::default()).unwrap();
            rebuild_with(&b, &fb)
        }),
        (
            "subsegment.offsets",
            edit("linear", |p| p.program.constant_segment.as_mut().unwrap().offsets = Some(vec![0, 48, 0])),
        ),
        ("constant.bounds", edit("linear", |p| tensor_at(p, 0).sizes = Some(vec![30, 4]))),
        (
            "mutable.bounds",
            edit("mutable_buffer", |p| {
                let idx = plan0(p).value_list().iter().position(|v| matches!(&v.val, Some(KernelTypes::Tensor(t)) if t.allocation_info.is_some() && t.data_buffer_idx > 0)).unwrap();
                tensor_at(p, idx).data_buffer_idx = 99;
            }),
        ),
        ("delegate.fields", edit("xnnpack_mlp", |p| plan0(p).delegates.as_mut().unwrap()[0].id = None)),
        (
            "delegate.data",
            edit("inline_delegate", |p| p.program.backend_delegate_data.as_mut().unwrap()[0].data = None),
        ),
        ("plan.name", edit("linear", |p| plan0(p).name = None)),
        ("plan.fields", edit("linear", |p| plan0(p).non_const_buffer_sizes = None)),
        ("plan.io_index", edit("linear", |p| plan0(p).inputs = Some(vec![999]))),
        ("plan.chains", edit("linear", |p| plan0(p).chains = Some(vec![]))),
        ("plan.buffer_sizes", edit("linear", |p| plan0(p).non_const_buffer_sizes = Some(vec![0, -1]))),
        ("value.null", edit("linear", |p| plan0(p).values.as_mut().unwrap()[4].val = None)),
        (
            "value.list",
            edit("linear", |p| plan0(p).values.as_mut().unwrap()[6].val = Some(KernelTypes::IntList(Some(vec![77])))),
        ),
        (
            "value.tensor_list",
            edit("linear", |p| plan0(p).values.as_mut().unwrap()[4].val = Some(KernelTypes::TensorList(Some(vec![5])))),
        ),
        (
            "instruction.args",
            edit("linear", |p| {
                if let InstructionArguments::KernelCall { args, .. } = first_kernel(p) {
                    *args = Some(vec![-1]);
                }
            }),
        ),
        (
            "instruction.operator",
            edit("linear", |p| {
                if let InstructionArguments::KernelCall { op_index, .. } = first_kernel(p) {
                    *op_index = 9;
                }
            }),
        ),
        (
            "instruction.delegate",
            edit("xnnpack_mlp", |p| {
                if let InstructionArguments::DelegateCall { delegate_index, .. } = first_kernel(p) {
                    *delegate_index = 3;
                }
            }),
        ),
        ("tensor.storage_offset", edit("linear", |p| tensor_at(p, 2).storage_offset = 4)),
        ("tensor.scalar_type", edit("linear", |p| tensor_at(p, 2).scalar_type = ScalarType(31))),
        ("tensor.dynamism", edit("linear", |p| tensor_at(p, 2).shape_dynamism = TensorShapeDynamism::DYNAMIC_UNBOUND)),
        ("tensor.sizes", edit("linear", |p| tensor_at(p, 2).sizes = Some(vec![-2, 4]))),
        ("tensor.dim_order", edit("linear", |p| tensor_at(p, 2).dim_order = Some(vec![1, 1]))),
        ("tensor.memory_plan", edit("linear", |p| tensor_at(p, 2).allocation_info.as_mut().unwrap().memory_id = 0)),
        (
            "tensor.external",
            edit("linear", |p| {
                tensor_at(p, 2).extra_tensor_info =
                    Some(ExtraTensorInfo { location: TensorDataLocation::EXTERNAL, ..Default::default() })
            }),
        ),
        // values[7] (48..72, written by instruction 1) moved onto values[3] (0..48, read by instruction 1)
        ("memory.overlap", edit("linear", |p| tensor_at(p, 7).allocation_info.as_mut().unwrap().memory_offset_low = 0)),
    ]
}

/// Replaces the flatbuffer of `file` keeping its segments.
fn rebuild_with(file: &[u8], fb: &[u8]) -> Vec<u8> {
    let mut out = vec![];
    pte_file::splice_flatbuffer(&mut out, file, fb, &Default::default()).unwrap();
    out
}

#[test]
fn each_rule_fires_on_its_own_breakage() {
    let mut covered = BTreeSet::new();
    for (rule, bytes) in cases() {
        let r = verify_bytes(&bytes, &Default::default());
        assert!(r.breaks(rule), "{rule} did not fire; got {:#?}", r.violations);
        for v in &r.violations {
            assert!(CATALOGUES.iter().any(|c| c.find(v.rule.name()) == Some(v.rule)), "uncatalogued rule {}", v.rule);
        }
        // every violation names where it is: a field path, and a byte offset
        // whenever the flatbuffer could be read
        let target = r.violations.iter().chain(&r.warnings).find(|v| v.rule == rule).unwrap();
        let structural =
            rule.starts_with("file.") || rule == "flatbuffer.structure" || rule == "program.execution_plan";
        if !structural {
            assert!(target.offset.is_some(), "{rule}: no byte offset in {target:?}");
        }
        covered.insert(rule);
    }
    // the .ptd and link rules have their cases in tests/ptd.rs, the .bpte ones in tests/bpte.rs,
    // the delegate payload ones in tests/delegate_payload.rs
    // the needs.* warnings are checked by their doc examples and the CLI tests
    let all: BTreeSet<&str> = CATALOGUES
        .iter()
        .flat_map(|c| c.rules.iter().map(|r| r.name()))
        .filter(|n| !n.starts_with("ptd.") && !n.starts_with("link.") && !n.starts_with("bpte."))
        .filter(|n| !n.starts_with("payload.") && !n.starts_with("needs."))
        .collect();
    let missing: Vec<_> = all.difference(&covered).collect();
    assert!(missing.is_empty(), "rules without a test case: {missing:?}");
}

/// Zero bytes of initial mutable data: exir writes no extended header when
/// every segment is empty, and a zero-size planned buffer has no address; the
/// runtime refuses both (NotFound, InvalidArgument), so the verifier does.
#[test]
fn empty_initial_data_needs_a_segment_base_and_an_addressed_buffer() {
    let tensor = |buffer_sizes: Vec<i64>| ExecutionPlan {
        name: Some("forward".into()),
        values: Some(vec![EValue {
            val: Some(KernelTypes::Tensor(Tensor {
                scalar_type: ScalarType(6),
                sizes: Some(vec![0]),
                dim_order: Some(vec![0]),
                data_buffer_idx: 1,
                allocation_info: Some(AllocationDetails { memory_id: 1, ..Default::default() }),
                ..Default::default()
            })),
        }]),
        inputs: Some(vec![]),
        outputs: Some(vec![]),
        chains: Some(vec![Chain { instructions: Some(vec![]), ..Default::default() }]),
        non_const_buffer_sizes: Some(buffer_sizes),
        operators: Some(vec![]),
        delegates: Some(vec![]),
        ..Default::default()
    };
    let build = |plan: ExecutionPlan, extra: Vec<u8>| {
        let parts = pte_file::PteParts {
            program: Program { execution_plan: Some(vec![plan]), ..Default::default() },
            mutable: vec![vec![vec![].into(), vec![].into(), extra.into()]],
            ..Default::default()
        };
        parts.build(&WriteOptions::default()).unwrap().to_bytes(&WriteOptions::default()).unwrap()
    };
    let at = |r: &pte_verify::Report, suffix: &str| {
        r.violations.iter().any(|v| v.rule == "mutable.bounds" && v.path.ends_with(suffix))
    };
    let no_header = verify_bytes(&build(tensor(vec![0, 0]), vec![]), &Default::default());
    assert!(at(&no_header, "data_buffer_idx"), "{:?}", no_header.violations);
    assert!(at(&no_header, "allocation_info.memory_id"), "{:?}", no_header.violations);
    // with other initial data present the file has its header; a 16-byte
    // buffer gives the tensor an address: then the file is valid
    let fine = verify_bytes(&build(tensor(vec![0, 16]), vec![1; 8]), &Default::default());
    assert!(fine.is_ok(), "{:?}", fine.violations);
}
