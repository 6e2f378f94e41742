//! The NPTG schema: the corpus program and a fixture using every table, union
//! member and enum decode to exactly what flatc prints, re-encode losslessly,
//! agree with planus, and hostile inputs give typed errors.

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use pte_schema::native::*;
use pte_schema::{ErrorKind, Limits};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// `program.ptg` of the corpus package: the first, stored, zip member.
fn corpus_ptg() -> Vec<u8> {
    let zip = std::fs::read(pte_testkit::corpus("native_ptn/model.ptn")).unwrap();
    assert_eq!(&zip[..4], b"PK\x03\x04");
    let u16_at = |o: usize| u16::from_le_bytes([zip[o], zip[o + 1]]) as usize;
    let size = u32::from_le_bytes(zip[18..22].try_into().unwrap()) as usize;
    let (name_len, extra_len) = (u16_at(26), u16_at(28));
    assert_eq!(&zip[30..30 + name_len], b"program.ptg");
    let start = 30 + name_len + extra_len;
    zip[start..start + size].to_vec()
}

fn meta(dtype: NativeScalarType, dims: &[i64]) -> TensorMeta {
    TensorMeta {
        dtype,
        sizes: Some(dims.iter().map(|&d| Dim::fixed(d)).collect()),
        dim_order: Some((0..dims.len() as i32).collect()),
        quant: None,
    }
}

fn arg(name: &str, value: Option<ArgumentValue>) -> NamedArgument {
    NamedArgument { name: Some(name.into()), arg: Argument { value }, mutated: false }
}

/// A program touching every table, every union member (and NONE), every
/// declared enum value of the small enums, an undeclared dtype and a subgraph.
pub(crate) fn fixture() -> NativeProgram {
    let body = Graph {
        nodes: vec![Node {
            name: "inner".into(),
            op_kind: OpKind::CALL_FUNCTION,
            target: Some("torch.ops.aten.neg.default".into()),
            inputs: Some(vec![arg("self", Some(ArgumentValue::Tensor { name: "a".into() }))]),
            outputs: Some(vec![Output { name: "inner".into(), ..Default::default() }]),
            metadata: None,
        }],
        inputs: Some(vec!["a".into()]),
        outputs: Some(vec!["inner".into()]),
        tensor_values: Some(vec![TensorValue { name: "inner".into(), meta: meta(NativeScalarType::FLOAT, &[4]) }]),
    };
    let all_args = vec![
        arg("t", Some(ArgumentValue::Tensor { name: "x".into() })),
        arg("n", Some(ArgumentValue::None)),
        arg("i", Some(ArgumentValue::Int { value: -3, r#ref: None })),
        arg("iref", Some(ArgumentValue::Int { value: 0, r#ref: Some("sym".into()) })),
        arg("f", Some(ArgumentValue::Float { value: 0.25, r#ref: None })),
        arg("b", Some(ArgumentValue::Bool { value: true, r#ref: Some("".into()) })),
        arg("s", Some(ArgumentValue::String("mean".into()))),
        arg("dt", Some(ArgumentValue::ScalarType(NativeScalarType::UINT64))),
        arg("il", Some(ArgumentValue::IntList { values: vec![2, -1], refs: Some(vec!["sym".into(), "".into()]) })),
        arg("fl", Some(ArgumentValue::FloatList(vec![1.5, -2.0]))),
        arg("bl", Some(ArgumentValue::BoolList(vec![true, false]))),
        arg("tl", Some(ArgumentValue::TensorList(vec!["x".into(), "w".into()]))),
        arg(
            "otl",
            Some(ArgumentValue::OptionalTensorList {
                names: vec!["x".into(), "".into()],
                has_value: vec![true, false],
            }),
        ),
        arg("g", Some(ArgumentValue::Graph { name: "true_graph_0".into(), graph: Box::new(body) })),
        NamedArgument { name: None, arg: Argument { value: None }, mutated: true },
    ];
    let quantized = TensorMeta {
        dtype: NativeScalarType::BYTE,
        sizes: Some(vec![Dim::fixed(4), Dim::fixed(8)]),
        dim_order: Some(vec![]),
        quant: Some(QuantSpec {
            scheme: Some(QuantScheme::AffineGroup(AffineGroup {
                scale_data_key: "w.scale".into(),
                scale_dtype: NativeScalarType::HALF,
                quant_min: -8,
                quant_max: 7,
                group_size: 32,
                zero_point_data_key: Some("w.zp".into()),
                zero_point_dtype: NativeScalarType::CHAR,
            })),
        }),
    };
    let forward = NativeMethod {
        name: "forward".into(),
        graph: Graph {
            nodes: vec![
                Node {
                    name: "x".into(),
                    op_kind: OpKind::PLACEHOLDER,
                    outputs: Some(vec![Output { name: "x".into(), ..Default::default() }]),
                    ..Default::default()
                },
                Node {
                    name: "everything".into(),
                    op_kind: OpKind::CALL_FUNCTION,
                    target: Some("my.op".into()),
                    inputs: Some(all_args),
                    outputs: Some(vec![
                        Output {
                            name: "".into(),
                            kind: OutputValueKind::TENSOR_LIST,
                            names: Some(vec!["e0".into(), "e1".into()]),
                            alias_of: None,
                        },
                        Output { name: "n".into(), kind: OutputValueKind::INT, ..Default::default() },
                        Output {
                            name: "v".into(),
                            alias_of: Some("x".into()),
                            kind: OutputValueKind::TENSOR,
                            names: None,
                        },
                        Output { name: "fl".into(), kind: OutputValueKind::FLOAT, ..Default::default() },
                        Output { name: "bo".into(), kind: OutputValueKind::BOOL, ..Default::default() },
                    ]),
                    metadata: Some(vec![KeyValue { key: "stack_trace".into(), value: "line 1".into() }]),
                },
                Node { name: "output".into(), op_kind: OpKind::OUTPUT, inputs: Some(vec![]), ..Default::default() },
            ],
            inputs: Some(vec!["x".into()]),
            outputs: Some(vec!["e0".into(), "cache_out".into(), "x_out".into()]),
            tensor_values: Some(vec![
                TensorValue {
                    name: "x".into(),
                    meta: TensorMeta {
                        sizes: Some(vec![Dim { min: 1, max: 16 }, Dim::default()]),
                        ..meta(NativeScalarType::FLOAT, &[])
                    },
                },
                TensorValue { name: "odd".into(), meta: meta(NativeScalarType(9), &[2]) },
                TensorValue {
                    name: "packed".into(),
                    meta: TensorMeta {
                        quant: Some(QuantSpec { scheme: Some(QuantScheme::PackedQuant { codec: "gguf:q4k".into() }) }),
                        ..meta(NativeScalarType::BYTE, &[16])
                    },
                },
                TensorValue {
                    name: "unscheduled".into(),
                    meta: TensorMeta { quant: Some(QuantSpec { scheme: None }), ..Default::default() },
                },
            ]),
        },
        constants: Some(vec![
            NamedTensorRef {
                name: "p_w".into(),
                data_key: "w".into(),
                meta: quantized,
                kind: InputKind::PARAMETER,
                mutated: false,
            },
            NamedTensorRef {
                name: "b_state".into(),
                data_key: "state".into(),
                meta: meta(NativeScalarType::BFLOAT16, &[3]),
                kind: InputKind::BUFFER,
                mutated: true,
            },
            NamedTensorRef {
                name: "c_k".into(),
                data_key: "k".into(),
                meta: meta(NativeScalarType::UINT16, &[]),
                kind: InputKind::CONSTANT_TENSOR,
                mutated: false,
            },
        ]),
        output_specs: Some(vec![
            OutputSpec { name: "e0".into(), kind: OutputKind::USER_OUTPUT, target: None },
            OutputSpec { name: "cache_out".into(), kind: OutputKind::BUFFER_MUTATION, target: Some("state".into()) },
            OutputSpec { name: "x_out".into(), kind: OutputKind::USER_INPUT_MUTATION, target: Some("x".into()) },
        ]),
        mutable_buffers: Some(vec![MutableBufferSpec { name: "b_cache".into(), fqn: "cache".into() }]),
    };
    NativeProgram { version: Some("1".into()), methods: vec![forward, NativeMethod::named("empty")] }
}

fn assert_same_json(path: &str, ours: &Value, flatc: &Value) {
    match (ours, flatc) {
        (Value::Object(a), Value::Object(b)) => {
            let keys: std::collections::BTreeSet<_> = a.keys().chain(b.keys()).collect();
            for k in keys {
                match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => assert_same_json(&format!("{path}.{k}"), x, y),
                    (x, y) => panic!("{path}.{k}: ours {x:?}, flatc {y:?}"),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            assert_eq!(a.len(), b.len(), "{path}: lengths");
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                assert_same_json(&format!("{path}[{i}]"), x, y);
            }
        }
        (Value::Number(a), Value::Number(b)) => assert_eq!(a.as_f64(), b.as_f64(), "{path}"),
        _ => assert_eq!(ours, flatc, "{path}"),
    }
}

/// The checked-in fixture bytes; `PTE_BLESS=1` rewrites them (then rerun
/// `flatc --json --strict-json --defaults-json schema/native_graph.fbs -- F`
/// to refresh the expected JSON beside it).
#[test]
fn fixture_bytes_are_stable() {
    let bytes = encode_native_program(&fixture()).unwrap();
    if std::env::var_os("PTE_BLESS").is_some() {
        std::fs::write(data("native_all.ptg"), &bytes).unwrap();
    }
    assert_eq!(bytes, std::fs::read(data("native_all.ptg")).unwrap(), "encoder output changed");
}

#[test]
fn decodes_to_exactly_what_flatc_prints() {
    for (ptg, json) in [
        (corpus_ptg(), "native_ptn.flatc.json"),
        (std::fs::read(data("native_all.ptg")).unwrap(), "native_all.flatc.json"),
    ] {
        let program = decode_native_program(&ptg, &Limits::default()).unwrap();
        let flatc: Value = serde_json::from_slice(&std::fs::read(data(json)).unwrap()).unwrap();
        assert_same_json(json, &native_program_to_json(&program), &flatc);
    }
}

#[test]
fn the_fixture_and_the_corpus_round_trip() {
    let decoded = decode_native_program(&std::fs::read(data("native_all.ptg")).unwrap(), &Limits::default()).unwrap();
    assert_eq!(decoded, fixture());
    let corpus = decode_native_program(&corpus_ptg(), &Limits::default()).unwrap();
    assert_eq!(corpus.methods[0].name, "forward");
    assert_eq!(corpus.methods[0].constants.as_ref().unwrap().len(), 4);
    let again = encode_native_program(&corpus).unwrap();
    assert_eq!(decode_native_program(&again, &Limits::default()).unwrap(), corpus);
}

#[test]
fn data_keys_cover_bindings_and_quantization() {
    let p = fixture();
    let keys: Vec<_> = p.data_keys().into_iter().map(|r| (r.key, r.path, r.dtype, r.shape)).collect();
    assert_eq!(keys[0], ("w", "methods[0].constants[0].data_key".into(), Some(NativeScalarType::BYTE), None));
    assert_eq!(keys[1].0, "w.scale");
    assert_eq!(keys[1].2, Some(NativeScalarType::HALF));
    assert_eq!(keys[2].0, "w.zp");
    assert_eq!(
        keys[3],
        ("state", "methods[0].constants[1].data_key".into(), Some(NativeScalarType::BFLOAT16), Some(vec![3]))
    );
    assert_eq!(keys[4].3, Some(vec![]));
    assert_eq!(keys.len(), 5);
    assert_eq!(p.mutable_keys().into_iter().collect::<Vec<_>>(), ["state"]);
}

#[test]
fn the_view_agrees_with_the_model() {
    let bytes = std::fs::read(data("native_all.ptg")).unwrap();
    let v = NativeProgramView::new(&bytes, &Limits::default()).unwrap();
    let m = v.method(0).unwrap();
    assert_eq!((m.name(), m.node_count(), m.constant_count()), ("forward", 3, 3));
    assert_eq!(m.data_keys().map(|(_, k)| k).collect::<Vec<_>>(), ["w", "state", "k"]);
    assert_eq!(m.outputs().count(), 3);
    assert!(v.method(2).is_none());
}

#[test]
fn planus_reads_what_we_write_and_we_read_what_planus_writes() {
    // planus rejects undeclared enum values, so the fixture's one is swapped out.
    let mut known = fixture();
    known.methods[0].graph.tensor_values.as_mut().unwrap()[1].meta.dtype = NativeScalarType::DOUBLE;
    let bytes = encode_native_program(&known).unwrap();
    let theirs = pte_oracle::native::decode(&bytes).unwrap();
    assert_eq!(theirs.methods.len(), 2);
    let back = pte_oracle::native::encode(&theirs);
    assert_eq!(decode_native_program(&back, &Limits::default()).unwrap(), known);
    assert!(pte_oracle::native::decode(&std::fs::read(data("native_all.ptg")).unwrap()).is_err());
    let corpus = corpus_ptg();
    let theirs = pte_oracle::native::decode(&corpus).unwrap();
    let back = pte_oracle::native::encode(&theirs);
    assert_eq!(
        decode_native_program(&back, &Limits::default()).unwrap(),
        decode_native_program(&corpus, &Limits::default()).unwrap()
    );
}

#[test]
fn wrong_identifier_unknown_tags_and_truncations_are_typed_errors() {
    let mut bytes = std::fs::read(data("native_all.ptg")).unwrap();
    // Truncation may only cut string padding and still decode; otherwise a typed error.
    let full = decode_native_program(&bytes, &Limits::default()).unwrap();
    for len in 0..bytes.len() {
        match decode_native_program(&bytes[..len], &Limits::default()) {
            Ok(p) => assert_eq!(p, full, "truncation to {len} decoded to something else"),
            Err(e) => assert!(!e.message().is_empty()),
        }
    }
    assert_eq!(decode_native_program(&bytes[..7], &Limits::default()).unwrap_err().kind(), ErrorKind::Malformed);
    // every single-bit flip: a value or a typed error
    for i in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[i / 8] ^= 1 << (i % 8);
        if let Err(e) = decode_native_program(&b, &Limits::default()) {
            assert!(!e.message().is_empty());
        }
    }
    bytes[4..8].copy_from_slice(b"ET12");
    let e = decode_native_program(&bytes, &Limits::default()).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (ErrorKind::Malformed, Some(4)));
}

#[test]
fn an_unknown_union_tag_is_unsupported_with_its_path() {
    let p = NativeProgram {
        version: None,
        methods: vec![NativeMethod {
            graph: Graph {
                nodes: vec![Node {
                    name: "n".into(),
                    inputs: Some(vec![arg("a", Some(ArgumentValue::None))]),
                    ..Default::default()
                }],
                ..Default::default()
            },
            ..NativeMethod::named("m")
        }],
    };
    let mut bytes = encode_native_program(&p).unwrap();
    // The only byte equal to NoneArg's tag (2) inside the Argument table is its type field; find it by trying.
    let mut found = false;
    for i in 8..bytes.len() {
        if bytes[i] != 2 {
            continue;
        }
        bytes[i] = 99;
        if let Err(e) = decode_native_program(&bytes, &Limits::default())
            && e.kind() == ErrorKind::Unsupported
        {
            assert_eq!(e.path(), "methods[0].graph.nodes[0].inputs[0].arg.value_type");
            found = true;
            break;
        }
        bytes[i] = 2;
    }
    assert!(found);
}

fn nested(depth: usize) -> NativeProgram {
    let mut g = Graph::default();
    for _ in 0..depth {
        g = Graph {
            nodes: vec![Node {
                name: "cond".into(),
                inputs: Some(vec![arg("body", Some(ArgumentValue::Graph { name: "b".into(), graph: Box::new(g) }))]),
                ..Default::default()
            }],
            ..Default::default()
        };
    }
    NativeProgram { version: None, methods: vec![NativeMethod { graph: g, ..NativeMethod::named("m") }] }
}

#[test]
fn deep_subgraphs_are_bounded_in_both_directions() {
    let ok = nested(8);
    assert_eq!(decode_native_program(&encode_native_program(&ok).unwrap(), &Limits::default()).unwrap(), ok);
    // the default verifier depth stops a deep file before decoding recurses
    let deep = encode_native_program(&nested(MAX_GRAPH_NESTING)).unwrap();
    assert_eq!(decode_native_program(&deep, &Limits::default()).unwrap_err().kind(), ErrorKind::LimitExceeded);
    // and the decoder's own bound holds even without verifier limits
    let e = encode_native_program(&nested(MAX_GRAPH_NESTING + 2)).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidUse);
    let e = decode_native_program(&deep, &Limits::unlimited()).unwrap();
    assert_eq!(e, nested(MAX_GRAPH_NESTING));
}

fn name() -> impl Strategy<Value = String> {
    "[a-z_.]{0,6}"
}

fn scalar_type() -> impl Strategy<Value = NativeScalarType> {
    prop_oneof![9 => proptest::sample::select(NativeScalarType::KNOWN), 1 => any::<i8>().prop_map(NativeScalarType)]
}

/// Mostly declared values (so planus can take part), sometimes any byte.
fn small_enum(n: i8) -> impl Strategy<Value = i8> {
    prop_oneof![19 => 0..n, 1 => any::<i8>()]
}

fn tensor_meta() -> impl Strategy<Value = TensorMeta> {
    (
        scalar_type(),
        proptest::option::of(proptest::collection::vec(
            (any::<i64>(), any::<i64>()).prop_map(|(min, max)| Dim { min, max }),
            0..3,
        )),
        proptest::option::of(proptest::collection::vec(any::<i32>(), 0..3)),
        proptest::option::of(proptest::option::of(prop_oneof![
            (name(), scalar_type(), any::<i32>(), proptest::option::of(name())).prop_map(|(k, t, q, z)| {
                QuantScheme::AffineGroup(AffineGroup {
                    scale_data_key: k,
                    scale_dtype: t,
                    quant_min: q,
                    quant_max: q.wrapping_add(1),
                    group_size: 0,
                    zero_point_data_key: z,
                    zero_point_dtype: t,
                })
            }),
            name().prop_map(|codec| QuantScheme::PackedQuant { codec }),
        ])),
    )
        .prop_map(|(dtype, sizes, dim_order, quant)| TensorMeta {
            dtype,
            sizes,
            dim_order,
            quant: quant.map(|scheme| QuantSpec { scheme }),
        })
}

fn leaf_value() -> impl Strategy<Value = Option<ArgumentValue>> {
    proptest::option::of(prop_oneof![
        name().prop_map(|name| ArgumentValue::Tensor { name }),
        Just(ArgumentValue::None),
        (any::<i64>(), proptest::option::of(name())).prop_map(|(value, r#ref)| ArgumentValue::Int { value, r#ref }),
        (-1e300f64..1e300, proptest::option::of(name()))
            .prop_map(|(value, r#ref)| ArgumentValue::Float { value, r#ref }),
        (any::<bool>(), proptest::option::of(name())).prop_map(|(value, r#ref)| ArgumentValue::Bool { value, r#ref }),
        name().prop_map(ArgumentValue::String),
        scalar_type().prop_map(ArgumentValue::ScalarType),
        (proptest::collection::vec(any::<i64>(), 0..4), proptest::option::of(proptest::collection::vec(name(), 0..3)))
            .prop_map(|(values, refs)| ArgumentValue::IntList { values, refs }),
        proptest::collection::vec(-1e9f64..1e9, 0..4).prop_map(ArgumentValue::FloatList),
        proptest::collection::vec(any::<bool>(), 0..4).prop_map(ArgumentValue::BoolList),
        proptest::collection::vec(name(), 0..3).prop_map(ArgumentValue::TensorList),
        (proptest::collection::vec(name(), 0..3), proptest::collection::vec(any::<bool>(), 0..3))
            .prop_map(|(names, has_value)| ArgumentValue::OptionalTensorList { names, has_value }),
    ])
}

fn graph() -> impl Strategy<Value = Graph> {
    let leaf = graph_with(Just(None).boxed());
    leaf.prop_recursive(3, 12, 3, |inner| {
        graph_with(
            prop_oneof![
                leaf_value(),
                (name(), inner).prop_map(|(name, g)| Some(ArgumentValue::Graph { name, graph: Box::new(g) }))
            ]
            .boxed(),
        )
    })
}

fn graph_with(values: BoxedStrategy<Option<ArgumentValue>>) -> impl Strategy<Value = Graph> {
    let node =
        (
            name(),
            small_enum(3),
            proptest::option::of(name()),
            proptest::option::of(proptest::collection::vec(
                (proptest::option::of(name()), values, any::<bool>())
                    .prop_map(|(name, value, mutated)| NamedArgument { name, arg: Argument { value }, mutated }),
                0..3,
            )),
            proptest::option::of(proptest::collection::vec(
                (
                    name(),
                    proptest::option::of(name()),
                    small_enum(5),
                    proptest::option::of(proptest::collection::vec(name(), 0..2)),
                )
                    .prop_map(|(name, alias_of, k, names)| Output {
                        name,
                        alias_of,
                        kind: OutputValueKind(k),
                        names,
                    }),
                0..2,
            )),
            proptest::option::of(proptest::collection::vec(
                (name(), name()).prop_map(|(key, value)| KeyValue { key, value }),
                0..2,
            )),
        )
            .prop_map(|(name, k, target, inputs, outputs, metadata)| Node {
                name,
                op_kind: OpKind(k),
                target,
                inputs,
                outputs,
                metadata,
            });
    (
        proptest::collection::vec(node, 0..3),
        proptest::option::of(proptest::collection::vec(name(), 0..3)),
        proptest::option::of(proptest::collection::vec(name(), 0..3)),
        proptest::option::of(proptest::collection::vec(
            (name(), tensor_meta()).prop_map(|(name, meta)| TensorValue { name, meta }),
            0..2,
        )),
    )
        .prop_map(|(nodes, inputs, outputs, tensor_values)| Graph { nodes, inputs, outputs, tensor_values })
}

fn program() -> impl Strategy<Value = NativeProgram> {
    let method = (
        name(),
        graph(),
        proptest::option::of(proptest::collection::vec(
            (name(), name(), tensor_meta(), small_enum(4), any::<bool>()).prop_map(
                |(name, data_key, meta, k, mutated)| NamedTensorRef {
                    name,
                    data_key,
                    meta,
                    kind: InputKind(k),
                    mutated,
                },
            ),
            0..3,
        )),
        proptest::option::of(proptest::collection::vec(
            (name(), small_enum(3), proptest::option::of(name())).prop_map(|(name, k, target)| OutputSpec {
                name,
                kind: OutputKind(k),
                target,
            }),
            0..2,
        )),
        proptest::option::of(proptest::collection::vec(
            (name(), name()).prop_map(|(name, fqn)| MutableBufferSpec { name, fqn }),
            0..2,
        )),
    )
        .prop_map(|(name, graph, constants, output_specs, mutable_buffers)| NativeMethod {
            name,
            graph,
            constants,
            output_specs,
            mutable_buffers,
        });
    (proptest::option::of(name()), proptest::collection::vec(method, 0..3))
        .prop_map(|(version, methods)| NativeProgram { version, methods })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn encode_then_decode_is_identity_and_deterministic(p in program()) {
        let bytes = encode_native_program(&p).unwrap();
        let back = decode_native_program(&bytes, &Limits::unlimited()).unwrap();
        prop_assert_eq!(&back, &p);
        prop_assert_eq!(encode_native_program(&back).unwrap(), bytes.clone());
        // planus (which rejects undeclared enum values) agrees whenever it accepts
        if let Ok(theirs) = pte_oracle::native::decode(&bytes) {
            let again = pte_oracle::native::encode(&theirs);
            prop_assert_eq!(decode_native_program(&again, &Limits::unlimited()).unwrap(), p);
        }
    }
}
