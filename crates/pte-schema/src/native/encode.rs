//! Encoding the owned model as an `NPTG` flatbuffer.

use flatbuffers::{FlatBufferBuilder, ForwardsUOffset, Vector, WIPOffset};

use crate::fenced::nb;
use pte_core::{Error, ErrorKind, Result};

use super::decode::MAX_GRAPH_NESTING;
use super::model::*;

type B<'a> = FlatBufferBuilder<'a>;
type Strs<'a> = WIPOffset<Vector<'a, ForwardsUOffset<&'a str>>>;

/// Encodes `program` as a finished `NPTG` flatbuffer.
///
/// Refuses, before building anything, a model whose flatbuffer would pass
/// 2 GiB or whose subgraphs nest deeper than the decoder accepts.
///
/// ```
/// let bytes = pte_schema::native::encode_native_program(&Default::default())?;
/// assert_eq!(&bytes[4..8], b"NPTG");
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn encode_native_program(program: &NativeProgram) -> Result<Vec<u8>> {
    let mut size = 64u64;
    for (i, m) in program.methods.iter().enumerate() {
        size = size.saturating_add(method_size(m, &format!("methods[{i}]"))?);
    }
    size = size.saturating_add(program.version.as_ref().map_or(0, |v| str_size(v)));
    if size > crate::MAX_FLATBUFFER_SIZE {
        return Err(Error::new(ErrorKind::LimitExceeded, "native program flatbuffer would exceed 2 GiB"));
    }
    let mut b = FlatBufferBuilder::new();
    let version = program.version.as_deref().map(|v| b.create_string(v));
    let methods: Vec<_> = program.methods.iter().map(|m| method(&mut b, m)).collect();
    let methods = Some(b.create_vector(&methods));
    let root = nb::Program::create(&mut b, &nb::ProgramArgs { version, methods });
    b.finish(root, Some("NPTG"));
    Ok(b.finished_data().to_vec())
}

fn str_size(s: &str) -> u64 {
    (s.len() as u64).saturating_add(12)
}

fn strs_size(v: Option<&Vec<String>>) -> u64 {
    v.into_iter().flatten().map(|s| str_size(s).saturating_add(4)).fold(8, u64::saturating_add)
}

fn meta_size(m: &TensorMeta) -> u64 {
    let quant = match &m.quant {
        Some(QuantSpec { scheme: Some(QuantScheme::AffineGroup(a)) }) => str_size(&a.scale_data_key)
            .saturating_add(a.zero_point_data_key.as_deref().map_or(0, str_size))
            .saturating_add(96),
        Some(QuantSpec { scheme: Some(QuantScheme::PackedQuant { codec }) }) => str_size(codec).saturating_add(48),
        Some(QuantSpec { scheme: None }) => 24,
        None => 0,
    };
    let sizes = (m.sizes.as_ref().map_or(0, Vec::len) as u64).saturating_mul(36);
    let order = (m.dim_order.as_ref().map_or(0, Vec::len) as u64).saturating_mul(4);
    quant.saturating_add(sizes).saturating_add(order).saturating_add(48)
}

fn method_size(m: &NativeMethod, path: &str) -> Result<u64> {
    let mut size =
        str_size(&m.name).saturating_add(graph_size(&m.graph, &format!("{path}.graph"), 0)?).saturating_add(64);
    for c in m.constants.iter().flatten() {
        size = size
            .saturating_add(str_size(&c.name))
            .saturating_add(str_size(&c.data_key))
            .saturating_add(meta_size(&c.meta))
            .saturating_add(40);
    }
    for s in m.output_specs.iter().flatten() {
        size = size
            .saturating_add(str_size(&s.name))
            .saturating_add(s.target.as_deref().map_or(0, str_size))
            .saturating_add(32);
    }
    for s in m.mutable_buffers.iter().flatten() {
        size = size.saturating_add(str_size(&s.name)).saturating_add(str_size(&s.fqn)).saturating_add(24);
    }
    Ok(size)
}

fn graph_size(g: &Graph, path: &str, depth: usize) -> Result<u64> {
    if depth > MAX_GRAPH_NESTING {
        return Err(Error::new(
            ErrorKind::InvalidUse,
            format!("subgraphs nest deeper than {MAX_GRAPH_NESTING} levels; the reader would refuse the file"),
        )
        .at_path(path));
    }
    let mut size = strs_size(g.inputs.as_ref()).saturating_add(strs_size(g.outputs.as_ref())).saturating_add(48);
    for v in g.tensor_values.iter().flatten() {
        size = size.saturating_add(str_size(&v.name)).saturating_add(meta_size(&v.meta)).saturating_add(16);
    }
    for (n, node) in g.nodes.iter().enumerate() {
        size = size
            .saturating_add(str_size(&node.name))
            .saturating_add(node.target.as_deref().map_or(0, str_size))
            .saturating_add(48);
        for o in node.outputs.iter().flatten() {
            size = size
                .saturating_add(str_size(&o.name))
                .saturating_add(o.alias_of.as_deref().map_or(0, str_size))
                .saturating_add(strs_size(o.names.as_ref()))
                .saturating_add(32);
        }
        for kv in node.metadata.iter().flatten() {
            size = size.saturating_add(str_size(&kv.key)).saturating_add(str_size(&kv.value)).saturating_add(16);
        }
        for (a, arg) in node.inputs.iter().flatten().enumerate() {
            size = size.saturating_add(arg.name.as_deref().map_or(0, str_size)).saturating_add(64);
            let len = |n: usize, each: u64| (n as u64).saturating_mul(each).saturating_add(8);
            size = size.saturating_add(match &arg.arg.value {
                None | Some(ArgumentValue::None) | Some(ArgumentValue::ScalarType(_)) => 16,
                Some(ArgumentValue::Tensor { name }) | Some(ArgumentValue::String(name)) => str_size(name),
                Some(ArgumentValue::Int { r#ref, .. })
                | Some(ArgumentValue::Float { r#ref, .. })
                | Some(ArgumentValue::Bool { r#ref, .. }) => r#ref.as_deref().map_or(0, str_size).saturating_add(24),
                Some(ArgumentValue::IntList { values, refs }) => {
                    len(values.len(), 8).saturating_add(strs_size(refs.as_ref()))
                }
                Some(ArgumentValue::FloatList(v)) => len(v.len(), 8),
                Some(ArgumentValue::BoolList(v)) => len(v.len(), 1),
                Some(ArgumentValue::TensorList(v)) => strs_size(Some(v)),
                Some(ArgumentValue::OptionalTensorList { names, has_value }) => {
                    strs_size(Some(names)).saturating_add(len(has_value.len(), 1))
                }
                Some(ArgumentValue::Graph { name, graph }) => str_size(name).saturating_add(graph_size(
                    graph,
                    &format!("{path}.nodes[{n}].inputs[{a}].arg.value.graph"),
                    depth.saturating_add(1),
                )?),
            });
        }
    }
    Ok(size)
}

fn strings<'a>(b: &mut B<'a>, v: &[String]) -> Strs<'a> {
    let offs: Vec<_> = v.iter().map(|s| b.create_string(s)).collect();
    b.create_vector(&offs)
}

fn opt_strings<'a>(b: &mut B<'a>, v: Option<&Vec<String>>) -> Option<Strs<'a>> {
    v.map(|v| strings(b, v))
}

fn opt_str<'a>(b: &mut B<'a>, s: Option<&str>) -> Option<WIPOffset<&'a str>> {
    s.map(|s| b.create_string(s))
}

fn st(t: super::NativeScalarType) -> nb::ScalarType {
    nb::ScalarType(t.0)
}

fn method<'a>(b: &mut B<'a>, m: &NativeMethod) -> WIPOffset<nb::Method<'a>> {
    let name = Some(b.create_string(&m.name));
    let graph = Some(graph(b, &m.graph));
    let constants = m.constants.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|c| {
                let name = Some(b.create_string(&c.name));
                let data_key = Some(b.create_string(&c.data_key));
                let meta = Some(meta(b, &c.meta));
                nb::NamedTensorRef::create(
                    b,
                    &nb::NamedTensorRefArgs { name, data_key, meta, kind: nb::InputKind(c.kind.0), mutated: c.mutated },
                )
            })
            .collect();
        b.create_vector(&offs)
    });
    let output_specs = m.output_specs.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|s| {
                let name = Some(b.create_string(&s.name));
                let target = opt_str(b, s.target.as_deref());
                nb::OutputSpec::create(b, &nb::OutputSpecArgs { name, kind: nb::OutputKind(s.kind.0), target })
            })
            .collect();
        b.create_vector(&offs)
    });
    let mutable_buffers = m.mutable_buffers.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|s| {
                let name = Some(b.create_string(&s.name));
                let fqn = Some(b.create_string(&s.fqn));
                nb::MutableBufferSpec::create(b, &nb::MutableBufferSpecArgs { name, fqn })
            })
            .collect();
        b.create_vector(&offs)
    });
    nb::Method::create(b, &nb::MethodArgs { name, graph, constants, output_specs, mutable_buffers })
}

fn graph<'a>(b: &mut B<'a>, g: &Graph) -> WIPOffset<nb::Graph<'a>> {
    let nodes: Vec<_> = g.nodes.iter().map(|n| node(b, n)).collect();
    let nodes = Some(b.create_vector(&nodes));
    let inputs = opt_strings(b, g.inputs.as_ref());
    let outputs = opt_strings(b, g.outputs.as_ref());
    let tensor_values = g.tensor_values.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|t| {
                let name = Some(b.create_string(&t.name));
                let meta = Some(meta(b, &t.meta));
                nb::TensorValue::create(b, &nb::TensorValueArgs { name, meta })
            })
            .collect();
        b.create_vector(&offs)
    });
    nb::Graph::create(b, &nb::GraphArgs { nodes, inputs, outputs, tensor_values })
}

fn node<'a>(b: &mut B<'a>, n: &Node) -> WIPOffset<nb::Node<'a>> {
    let name = Some(b.create_string(&n.name));
    let target = opt_str(b, n.target.as_deref());
    let inputs = n.inputs.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|a| {
                let name = opt_str(b, a.name.as_deref());
                let arg = Some(argument(b, &a.arg));
                nb::NamedArgument::create(b, &nb::NamedArgumentArgs { name, arg, mutated: a.mutated })
            })
            .collect();
        b.create_vector(&offs)
    });
    let outputs = n.outputs.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|o| {
                let name = Some(b.create_string(&o.name));
                let alias_of = opt_str(b, o.alias_of.as_deref());
                let names = opt_strings(b, o.names.as_ref());
                nb::Output::create(b, &nb::OutputArgs { name, alias_of, kind: nb::OutputValueKind(o.kind.0), names })
            })
            .collect();
        b.create_vector(&offs)
    });
    let metadata = n.metadata.as_ref().map(|v| {
        let offs: Vec<_> = v
            .iter()
            .map(|kv| {
                let key = Some(b.create_string(&kv.key));
                let value = Some(b.create_string(&kv.value));
                nb::KeyValue::create(b, &nb::KeyValueArgs { key, value })
            })
            .collect();
        b.create_vector(&offs)
    });
    nb::Node::create(b, &nb::NodeArgs { name, op_kind: nb::OpKind(n.op_kind.0), target, inputs, outputs, metadata })
}

fn argument<'a>(b: &mut B<'a>, a: &Argument) -> WIPOffset<nb::Argument<'a>> {
    use nb::ArgumentValue as T;
    let (value_type, value) = match &a.value {
        None => (T::NONE, None),
        Some(v) => {
            let off = match v {
                ArgumentValue::Tensor { name } => {
                    let name = Some(b.create_string(name));
                    nb::TensorArg::create(b, &nb::TensorArgArgs { name }).as_union_value()
                }
                ArgumentValue::None => nb::NoneArg::create(b, &nb::NoneArgArgs {}).as_union_value(),
                ArgumentValue::Int { value, r#ref } => {
                    let ref_ = opt_str(b, r#ref.as_deref());
                    nb::IntArg::create(b, &nb::IntArgArgs { value: *value, ref_ }).as_union_value()
                }
                ArgumentValue::Float { value, r#ref } => {
                    let ref_ = opt_str(b, r#ref.as_deref());
                    nb::FloatArg::create(b, &nb::FloatArgArgs { value: *value, ref_ }).as_union_value()
                }
                ArgumentValue::Bool { value, r#ref } => {
                    let ref_ = opt_str(b, r#ref.as_deref());
                    nb::BoolArg::create(b, &nb::BoolArgArgs { value: *value, ref_ }).as_union_value()
                }
                ArgumentValue::String(s) => {
                    let value = Some(b.create_string(s));
                    nb::StringArg::create(b, &nb::StringArgArgs { value }).as_union_value()
                }
                ArgumentValue::ScalarType(t) => {
                    nb::ScalarTypeArg::create(b, &nb::ScalarTypeArgArgs { value: st(*t) }).as_union_value()
                }
                ArgumentValue::IntList { values, refs } => {
                    let values = Some(b.create_vector(values));
                    let refs = opt_strings(b, refs.as_ref());
                    nb::IntListArg::create(b, &nb::IntListArgArgs { values, refs }).as_union_value()
                }
                ArgumentValue::FloatList(v) => {
                    let values = Some(b.create_vector(v));
                    nb::FloatListArg::create(b, &nb::FloatListArgArgs { values }).as_union_value()
                }
                ArgumentValue::BoolList(v) => {
                    let values = Some(b.create_vector(v));
                    nb::BoolListArg::create(b, &nb::BoolListArgArgs { values }).as_union_value()
                }
                ArgumentValue::TensorList(v) => {
                    let names = Some(strings(b, v));
                    nb::TensorListArg::create(b, &nb::TensorListArgArgs { names }).as_union_value()
                }
                ArgumentValue::OptionalTensorList { names, has_value } => {
                    let names = Some(strings(b, names));
                    let has_value = Some(b.create_vector(has_value));
                    nb::OptionalTensorListArg::create(b, &nb::OptionalTensorListArgArgs { names, has_value })
                        .as_union_value()
                }
                ArgumentValue::Graph { name, graph: g } => {
                    let name = Some(b.create_string(name));
                    let graph = Some(graph(b, g));
                    nb::GraphArg::create(b, &nb::GraphArgArgs { name, graph }).as_union_value()
                }
            };
            (T(v.tag()), Some(off))
        }
    };
    nb::Argument::create(b, &nb::ArgumentArgs { value_type, value })
}

fn meta<'a>(b: &mut B<'a>, m: &TensorMeta) -> WIPOffset<nb::TensorMeta<'a>> {
    let sizes = m.sizes.as_ref().map(|v| {
        let offs: Vec<_> = v.iter().map(|d| nb::Dim::create(b, &nb::DimArgs { min: d.min, max: d.max })).collect();
        b.create_vector(&offs)
    });
    let dim_order = m.dim_order.as_deref().map(|d| b.create_vector(d));
    let quant = m.quant.as_ref().map(|q| {
        let (scheme_type, scheme) = match &q.scheme {
            None => (nb::QuantScheme::NONE, None),
            Some(QuantScheme::AffineGroup(a)) => {
                let scale_data_key = Some(b.create_string(&a.scale_data_key));
                let zero_point_data_key = opt_str(b, a.zero_point_data_key.as_deref());
                let off = nb::AffineGroup::create(
                    b,
                    &nb::AffineGroupArgs {
                        scale_data_key,
                        scale_dtype: st(a.scale_dtype),
                        quant_min: a.quant_min,
                        quant_max: a.quant_max,
                        group_size: a.group_size,
                        zero_point_data_key,
                        zero_point_dtype: st(a.zero_point_dtype),
                    },
                );
                (nb::QuantScheme::AffineGroup, Some(off.as_union_value()))
            }
            Some(QuantScheme::PackedQuant { codec }) => {
                let codec = Some(b.create_string(codec));
                let off = nb::PackedQuant::create(b, &nb::PackedQuantArgs { codec });
                (nb::QuantScheme::PackedQuant, Some(off.as_union_value()))
            }
        };
        nb::QuantSpec::create(b, &nb::QuantSpecArgs { scheme_type, scheme })
    });
    nb::TensorMeta::create(b, &nb::TensorMetaArgs { dtype: st(m.dtype), sizes, dim_order, quant })
}
