//! Property tests: any aggregate survives write then read unchanged, the
//! writer is deterministic and a fixed point, and no segment byte is lost,
//! across every EValue and instruction kind, every segment kind, empty and
//! zero-size segments, shared named blobs, several mutable segments and odd
//! alignments.

use std::borrow::Cow;

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use pte_file::{DelegatePlacement, NamedEntry, PteFile, PteParts, SegmentLayout, WriteOptions};
use pte_schema::*;

fn opt_str() -> impl Strategy<Value = Option<String>> {
    option::of("[a-z:._ ]{0,12}|\\PC{0,6}")
}

fn tensor() -> impl Strategy<Value = Tensor> {
    (
        (any::<i8>(), any::<i32>(), option::of(vec(any::<i32>(), 0..5)), option::of(vec(any::<u8>(), 0..5))),
        (any::<bool>(), any::<u32>(), option::of((any::<u32>(), any::<u32>(), any::<u32>())), any::<i8>(), any::<i8>()),
        option::of((any::<u64>(), opt_str(), any::<i8>(), any::<i8>(), any::<i8>())),
    )
        .prop_map(|((st, so, sizes, dim_order), (rg, idx, alloc, layout, dynm), extra)| Tensor {
            scalar_type: ScalarType(st),
            storage_offset: so,
            sizes,
            dim_order,
            requires_grad: rg,
            data_buffer_idx: idx,
            allocation_info: alloc.map(|(a, b, c)| AllocationDetails {
                memory_id: a,
                memory_offset_low: b,
                memory_offset_high: c,
            }),
            layout,
            shape_dynamism: TensorShapeDynamism(dynm),
            extra_tensor_info: extra.map(|(m, fqn, loc, dt, di)| ExtraTensorInfo {
                mutable_data_segments_idx: m,
                fully_qualified_name: fqn,
                location: TensorDataLocation(loc),
                device_type: DeviceType(dt),
                device_index: di,
            }),
        })
}

fn f64_any() -> impl Strategy<Value = f64> {
    prop_oneof![any::<f64>(), Just(f64::INFINITY), Just(f64::NEG_INFINITY), Just(f64::NAN), Just(-0.0)]
}

fn evalue() -> impl Strategy<Value = EValue> {
    let k = prop_oneof![
        Just(KernelTypes::Null),
        any::<i64>().prop_map(KernelTypes::Int),
        any::<bool>().prop_map(KernelTypes::Bool),
        f64_any().prop_map(KernelTypes::Double),
        tensor().prop_map(KernelTypes::Tensor),
        opt_str().prop_map(KernelTypes::String),
        option::of(vec(any::<i64>(), 0..6)).prop_map(KernelTypes::IntList),
        option::of(vec(f64_any(), 0..6)).prop_map(KernelTypes::DoubleList),
        option::of(vec(any::<bool>(), 0..6)).prop_map(KernelTypes::BoolList),
        option::of(vec(any::<i32>(), 0..6)).prop_map(KernelTypes::TensorList),
        option::of(vec(any::<i32>(), 0..6)).prop_map(KernelTypes::OptionalTensorList),
    ];
    option::weighted(0.95, k).prop_map(|val| EValue { val })
}

fn instruction() -> impl Strategy<Value = Instruction> {
    let a = prop_oneof![
        (any::<i32>(), option::of(vec(any::<i32>(), 0..6)))
            .prop_map(|(op_index, args)| InstructionArguments::KernelCall { op_index, args }),
        (any::<i32>(), option::of(vec(any::<i32>(), 0..6)))
            .prop_map(|(delegate_index, args)| InstructionArguments::DelegateCall { delegate_index, args }),
        (any::<i32>(), any::<i32>())
            .prop_map(|(move_from, move_to)| InstructionArguments::MoveCall { move_from, move_to }),
        (any::<i32>(), any::<i32>())
            .prop_map(|(c, d)| InstructionArguments::JumpFalseCall { cond_value_index: c, destination_instruction: d }),
        any::<i32>().prop_map(|value_index| InstructionArguments::FreeCall { value_index }),
    ];
    option::weighted(0.95, a).prop_map(|instr_args| Instruction { instr_args })
}

fn frame() -> impl Strategy<Value = Frame> {
    (opt_str(), any::<i32>(), opt_str(), opt_str()).prop_map(|(filename, lineno, name, context)| Frame {
        filename,
        lineno,
        name,
        context,
    })
}

fn chain() -> impl Strategy<Value = Chain> {
    (
        option::of(vec(any::<i32>(), 0..4)),
        option::of(vec(any::<i32>(), 0..4)),
        option::of(vec(instruction(), 0..6)),
        option::of(vec(option::of(vec(frame(), 0..3)).prop_map(|items| FrameList { items }), 0..3)),
    )
        .prop_map(|(inputs, outputs, instructions, stacktrace)| Chain {
            inputs,
            outputs,
            instructions,
            stacktrace,
        })
}

fn plan() -> impl Strategy<Value = ExecutionPlan> {
    (
        (opt_str(), option::of((opt_str(), opt_str())), option::of(vec(evalue(), 0..12))),
        (option::of(vec(any::<i32>(), 0..4)), option::of(vec(any::<i32>(), 0..4)), option::of(vec(chain(), 0..3))),
        (
            option::of(vec((opt_str(), opt_str()).prop_map(|(name, overload)| Operator { name, overload }), 0..4)),
            option::of(vec(any::<i64>(), 0..4)),
            option::of(vec(
                (any::<i32>(), any::<i8>(), any::<i8>()).prop_map(|(b, t, i)| NonConstBufferDevice {
                    buffer_idx: b,
                    device_type: DeviceType(t),
                    device_index: i,
                }),
                0..3,
            )),
        ),
    )
        .prop_map(|((name, cmt, values), (inputs, outputs, chains), (operators, sizes, devices))| ExecutionPlan {
            name,
            container_meta_type: cmt.map(|(i, o)| ContainerMetadata { encoded_inp_str: i, encoded_out_str: o }),
            values,
            inputs,
            outputs,
            chains,
            operators,
            delegates: Some(vec![]),
            non_const_buffer_sizes: sizes,
            non_const_buffer_device: devices,
        })
}

fn blob() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![Just(vec![]), vec(any::<u8>(), 0..64), vec(any::<u8>(), 100..400)]
}

/// Parts plus write options: program, constants, mutable segments, named data
/// with shared blobs, inline delegates (some of them empty), odd alignments.
fn parts() -> impl Strategy<Value = (PteParts<'static>, WriteOptions, DelegatePlacement)> {
    (
        (any::<u32>(), vec(plan(), 0..3)),
        (vec(blob(), 0..5), vec(vec(blob(), 0..4), 0..3)),
        (vec(blob(), 0..4), vec((0usize..4, 1u64..300), 0..6)),
        vec((blob(), "[A-Za-z]{1,8}", option::of(vec(("[a-z]{1,5}", option::of(vec(any::<u8>(), 0..4))), 0..3))), 0..3),
        (1u64..300, 0u32..8, 0u32..8),
        prop_oneof![Just(DelegatePlacement::Keep), Just(DelegatePlacement::Segment), Just(DelegatePlacement::Inline)],
    )
        .prop_map(
            |((version, mut plans), (constants, mutable), (named_blobs, named), delegates, (sa, ta, da), place)| {
                let mut inline = vec![];
                if !plans.is_empty() {
                    for (k, (data, id, specs)) in delegates.into_iter().enumerate() {
                        inline.push(BackendDelegateInlineData { data: Some(Cow::Owned(data)) });
                        let n = plans.len();
                        let dels = plans[k % n].delegates.get_or_insert_with(Vec::new);
                        dels.push(BackendDelegate {
                            id: Some(id),
                            processed: Some(BackendDelegateDataReference {
                                location: DataLocation::INLINE,
                                index: u32::try_from(k).unwrap(),
                            }),
                            compile_specs: specs.map(|s| {
                                s.into_iter().map(|(key, value)| CompileSpec { key: Some(key), value }).collect()
                            }),
                        });
                    }
                }
                let named: Vec<NamedEntry> = if named_blobs.is_empty() {
                    vec![]
                } else {
                    named
                        .into_iter()
                        .enumerate()
                        .map(|(i, (b, a))| NamedEntry {
                            key: format!("key{i}"),
                            blob: b % named_blobs.len(),
                            alignment: a,
                        })
                        .collect()
                };
                let mut constants: Vec<Cow<'static, [u8]>> = constants.into_iter().map(Cow::Owned).collect();
                if !constants.is_empty() {
                    constants[0] = Cow::Owned(vec![]);
                }
                let program = Program {
                    version,
                    execution_plan: Some(plans),
                    backend_delegate_data: Some(inline),
                    ..Default::default()
                };
                let parts = PteParts {
                    program,
                    constants,
                    mutable: mutable.into_iter().map(|m| m.into_iter().map(Cow::Owned).collect()).collect(),
                    named,
                    named_blobs: named_blobs.into_iter().map(Cow::Owned).collect(),
                };
                let opts = WriteOptions::default()
                    .with_segment_alignment(sa)
                    .unwrap()
                    .with_tensor_alignment(1 << ta)
                    .unwrap()
                    .with_delegate_alignment(1 << da)
                    .unwrap()
                    .with_layout(SegmentLayout::Keep);
                (parts, opts, place)
            },
        )
}

fn total_segment_bytes(p: &PteFile<'_>) -> Vec<u8> {
    p.segments.iter().flat_map(|s| s.iter().copied()).collect()
}

fn inline_offsets_aligned(bytes: &[u8], p: &PteFile<'_>, align: usize) {
    for b in p.program.backend_delegate_data.iter().flatten() {
        if let Some(Cow::Borrowed(d)) = &b.data
            && !d.is_empty()
        {
            let off = d.as_ptr() as usize - bytes.as_ptr() as usize;
            assert_eq!(off % align, 0, "inline delegate data at {off} not {align}-aligned");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn built_aggregate_round_trips((parts, opts, _) in parts()) {
        let x = parts.build(&opts).unwrap();
        let bytes = x.to_bytes(&opts).unwrap();
        let y = PteFile::from_bytes(&bytes).unwrap();
        prop_assert_eq!(&y, &x);
        // deterministic and a fixed point
        prop_assert_eq!(x.to_bytes(&opts).unwrap(), bytes.clone());
        prop_assert_eq!(y.to_bytes(&opts).unwrap(), bytes.clone());
        inline_offsets_aligned(&bytes, &y, opts.delegate_alignment() as usize);
        // segment offsets respect the segment alignment
        let base = pte_segments::ExtendedHeader::parse(&bytes).unwrap().map_or(0, |h| h.segment_base_offset);
        prop_assert_eq!(base % opts.segment_alignment(), 0);
        if let Some(h) = pte_segments::ExtendedHeader::parse(&bytes).unwrap() {
            prop_assert_eq!(h.segment_base_offset + h.segment_data_size, bytes.len() as u64);
        }
        for s in y.program.segment_table() {
            prop_assert_eq!(s.offset % opts.segment_alignment(), 0);
        }
    }

    #[test]
    fn transforms_lose_no_bytes((parts, opts, place) in parts()) {
        let x = parts.build(&opts).unwrap();
        let moved = x.to_bytes(&opts.with_delegates(place)).unwrap();
        let y = PteFile::from_bytes(&moved).unwrap();
        // every delegate blob, constant, mutable buffer and named blob is still there
        let blobs = |p: &PteFile<'_>| p.delegate_blobs().unwrap().iter().map(|d| (d.plan, d.delegate, d.bytes.to_vec())).collect::<Vec<_>>();
        prop_assert_eq!(blobs(&y), blobs(&x));
        let consts = |p: &PteFile<'_>| p.constants().unwrap().iter().map(|c| c.bytes.to_vec()).collect::<Vec<_>>();
        prop_assert_eq!(consts(&y), consts(&x));
        let named = |p: &PteFile<'_>| p.named_data().unwrap().iter().map(|n| (n.key.to_string(), n.bytes.to_vec())).collect::<Vec<_>>();
        prop_assert_eq!(named(&y), named(&x));
        let muts = |p: &PteFile<'_>| p.mutable_segments().unwrap().iter().map(|m| m.iter().map(|c| c.bytes.to_vec()).collect::<Vec<_>>()).collect::<Vec<_>>();
        prop_assert_eq!(muts(&y), muts(&x));
        if place == DelegatePlacement::Keep {
            prop_assert_eq!(total_segment_bytes(&y), total_segment_bytes(&x));
        }
        if place == DelegatePlacement::Segment {
            prop_assert!(y.delegate_blobs().unwrap().iter().all(|d| d.bytes.is_empty() || d.location == DataLocation::SEGMENT));
        }
        if place == DelegatePlacement::Inline {
            prop_assert!(y.delegate_blobs().unwrap().iter().all(|d| d.location == DataLocation::INLINE));
        }
        // the transformed file is itself a fixed point under Keep
        let again = y.to_bytes(&opts).unwrap();
        prop_assert_eq!(PteFile::from_bytes(&again).unwrap(), y);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The structural verifier the readers use and the reference path agree
    /// on every generated program (all value, instruction and delegate
    /// kinds), on corruptions of it and under tight limits; a refusal is the
    /// reference's error.
    #[test]
    fn structural_verifier_agrees_with_the_reference(
        (parts, _, _) in parts(),
        flips in vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        (tables, size, depth) in (0usize..200, 0usize..20_000, 0usize..7),
    ) {
        let mut bytes = encode_program(&parts.program, &EncodeOptions::default()).unwrap();
        prop_assert!(ProgramView::new(&bytes, &Limits::default()).is_ok());
        for (at, x) in flips {
            let i = at.index(bytes.len());
            bytes[i] ^= x;
        }
        let tight = Limits { max_tables: Some(tables), max_apparent_size: size, apparent_size_factor: usize::MAX, max_depth: depth, ..Limits::default() };
        for limits in [Limits::default(), tight] {
            let fast = ProgramView::new(&bytes, &limits).map(drop).map_err(|e| e.to_string());
            let reference = verify_program_reference(&bytes, &limits).map_err(|e| e.to_string());
            prop_assert_eq!(fast, reference);
        }
    }
}

#[test]
fn unknown_enum_values_survive_read_then_write() {
    let t = Tensor { scalar_type: ScalarType(30), shape_dynamism: TensorShapeDynamism(7), ..Default::default() };
    let plan = ExecutionPlan {
        values: Some(vec![EValue { val: Some(KernelTypes::Tensor(t.clone())) }]),
        delegates: Some(vec![BackendDelegate {
            processed: Some(BackendDelegateDataReference { location: DataLocation(9), index: 0 }),
            ..Default::default()
        }]),
        ..Default::default()
    };
    let x = PteFile::new(Program { execution_plan: Some(vec![plan]), ..Default::default() }, vec![]);
    let bytes = x.to_bytes(&WriteOptions::default()).unwrap();
    let y = PteFile::from_bytes(&bytes).unwrap();
    let KernelTypes::Tensor(t2) = y.program.plans()[0].value_list()[0].val.clone().unwrap() else { panic!() };
    assert_eq!(t2.scalar_type, ScalarType(30));
    assert_eq!(t2.shape_dynamism, TensorShapeDynamism(7));
    let d = y.program.plans()[0].delegates.as_ref().unwrap()[0].processed.unwrap();
    assert_eq!(d.location, DataLocation(9));
}

#[test]
fn force_align_honoured_at_every_power_of_two() {
    for p in 0..=16u32 {
        let a = 1u64 << p;
        let x = PteFile::new(
            Program {
                constant_buffer: Some(vec![]),
                backend_delegate_data: Some(vec![
                    BackendDelegateInlineData { data: Some(Cow::Owned(vec![1; 3])) },
                    BackendDelegateInlineData { data: Some(Cow::Owned(vec![2; 70])) },
                ]),
                constant_segment: Some(SubsegmentOffsets { segment_index: 0, offsets: Some(vec![0, 0]) }),
                segments: Some(vec![DataSegment { offset: 0, size: 5 }]),
                ..Default::default()
            },
            vec![Cow::Owned(vec![7; 5])],
        );
        let opts = WriteOptions::default().with_delegate_alignment(a).unwrap();
        let bytes = x.to_bytes(&opts).unwrap();
        let y = PteFile::from_bytes(&bytes).unwrap();
        assert_eq!(y, x);
        inline_offsets_aligned(&bytes, &y, a as usize);
        // the header padding keeps alignment relative to the file start
        let h = pte_segments::ExtendedHeader::parse(&bytes).unwrap().unwrap();
        assert_eq!(u32::from_le_bytes(bytes[0..4].try_into().unwrap()) as u64 % 4, 0);
        assert!(h.program_size >= 32 + a.min(32));
    }
}

#[test]
fn legacy_inline_constants_are_force_aligned_when_kept_inline() {
    // encode_program (not the file writer, which moves them to a segment) keeps them inline
    for a in [16u32, 64, 256] {
        let p = Program {
            constant_buffer: Some(vec![
                Buffer { storage: Some(Cow::Owned(vec![])) },
                Buffer { storage: Some(Cow::Owned(vec![1; 20])) },
                Buffer { storage: Some(Cow::Owned(vec![2; 12])) },
            ]),
            ..Default::default()
        };
        let bytes = encode_program(&p, &EncodeOptions { tensor_alignment: a, delegate_alignment: 16 }).unwrap();
        let back = decode_program(&bytes, &Limits::default()).unwrap();
        for b in back.constant_buffer.iter().flatten() {
            if let Some(Cow::Borrowed(d)) = &b.storage
                && !d.is_empty()
            {
                assert_eq!((d.as_ptr() as usize - bytes.as_ptr() as usize) % a as usize, 0);
            }
        }
    }
}

#[test]
fn trailing_empty_segment_is_covered_by_the_data_size() {
    // exir pads up to an empty segment's offset; the header must match the file length
    let parts = PteParts {
        constants: vec![Cow::Owned(vec![]), Cow::Owned(vec![1; 10])],
        named_blobs: vec![Cow::Owned(vec![])],
        named: vec![NamedEntry { key: "empty".into(), blob: 0, alignment: 1 }],
        ..Default::default()
    };
    let opts = WriteOptions::default();
    let x = parts.build(&opts).unwrap();
    assert_eq!(x.program.segment_table()[1].offset, 128);
    let bytes = x.to_bytes(&opts).unwrap();
    let h = pte_segments::ExtendedHeader::parse(&bytes).unwrap().unwrap();
    assert_eq!(h.segment_base_offset + h.segment_data_size, bytes.len() as u64);
}

#[test]
fn two_entries_sharing_one_range_are_kept() {
    let bytes = std::fs::read(pte_testkit::corpus("xnnpack_mlp/model.pte")).unwrap();
    let s2 = PteFile::from_bytes(&bytes).unwrap().program.segment_table()[2];
    // a new table entry naming exactly the range of segment 2, used by named_data[0]
    let mut y = PteFile::from_bytes(&bytes).unwrap().into_owned();
    y.program.segments.as_mut().unwrap().push(s2);
    y.segments.push(y.segments[2].clone());
    y.program.named_data.as_mut().unwrap()[0].segment_index = 6;
    let out = y.to_bytes(&WriteOptions::default()).unwrap();
    let back = PteFile::from_bytes(&out).unwrap();
    assert_eq!(back, y);
    // sharing adds no bytes: the segment region is the original one
    let region = |b: &[u8]| {
        let h = pte_segments::ExtendedHeader::parse(b).unwrap().unwrap();
        b[h.segment_base_offset as usize..].to_vec()
    };
    assert_eq!(region(&out), region(&bytes));
    // a partial overlap with different bytes cannot keep its offsets
    let mut z = y.clone();
    z.segments[6] = std::borrow::Cow::Owned(vec![0xAB; s2.size as usize]);
    let e = z.to_bytes(&WriteOptions::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUse);
}

#[test]
fn kernel_copy_save_equals_the_streamed_bytes() {
    let parts = PteParts {
        constants: vec![Cow::Owned(vec![]), Cow::Owned((0..3u32 << 20).map(|i| (i % 251) as u8).collect())],
        named_blobs: vec![Cow::Owned(vec![5; 70_000]), Cow::Owned(vec![6; 10])],
        named: vec![
            NamedEntry { key: "a".into(), blob: 0, alignment: 64 },
            NamedEntry { key: "b".into(), blob: 1, alignment: 1 },
        ],
        ..Default::default()
    };
    let opts = WriteOptions::default();
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src.pte");
    parts.build(&opts).unwrap().save(&src, &opts).unwrap();
    let map = pte_file::MappedFile::open(&src).unwrap();
    let pte = PteFile::from_map(&map).unwrap();
    for o in [opts, WriteOptions::default().with_segment_alignment(4096).unwrap()] {
        let out = dir.path().join("out.pte");
        let n = pte.save(&out, &o).unwrap();
        let written = std::fs::read(&out).unwrap();
        assert_eq!(n as usize, written.len());
        assert_eq!(written, pte.to_bytes(&o).unwrap());
    }
}
