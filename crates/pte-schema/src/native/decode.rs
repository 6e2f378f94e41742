//! Verified decoding of `program.ptg`.

use crate::decode_common::{check_identifier, from_verifier, infallible, scalars, string, tables};
use crate::fenced::nb;
use crate::limits::Limits;
use pte_core::{Error, ErrorKind, Result};

use super::enums::*;
use super::model::*;
use super::NATIVE_PROGRAM_IDENTIFIER;

/// Subgraph nesting accepted whatever the limits say: decoding recurses once
/// per level, so this bounds the stack even under `Limits::unlimited()`.
pub const MAX_GRAPH_NESTING: usize = 64;

/// Verifies `buf` (an `NPTG` flatbuffer) and decodes it.
///
/// An unknown union tag is an [`ErrorKind::Unsupported`] error naming the
/// field; subgraphs nested deeper than [`MAX_GRAPH_NESTING`] are
/// [`ErrorKind::LimitExceeded`].
///
/// ```
/// use pte_schema::native::*;
/// let p = NativeProgram { version: Some("1".into()), methods: vec![NativeMethod::named("forward")] };
/// let bytes = encode_native_program(&p)?;
/// assert_eq!(decode_native_program(&bytes, &Default::default())?, p);
/// assert!(decode_native_program(b"\x08\0\0\0ET12", &Default::default()).is_err());
/// # Ok::<(), pte_schema::Error>(())
/// ```
pub fn decode_native_program(buf: &[u8], limits: &Limits) -> Result<NativeProgram> {
    let root = verify_native_root(buf, limits)?;
    Ok(NativeProgram {
        version: string(root.version()),
        methods: tables(Some(root.methods()), |i, m| method(i, m))?.unwrap_or_default(),
    })
}

pub(crate) fn verify_native_root<'a>(buf: &'a [u8], limits: &Limits) -> Result<nb::Program<'a>> {
    check_identifier(buf, NATIVE_PROGRAM_IDENTIFIER)?;
    let opts = limits.verifier_options(buf.len());
    nb::root_as_program_with_opts(&opts, buf).map_err(from_verifier)
}

fn method(i: usize, m: nb::Method<'_>) -> Result<NativeMethod> {
    let path = format!("methods[{i}]");
    Ok(NativeMethod {
        name: m.name().to_owned(),
        graph: graph(m.graph(), &format!("{path}.graph"), 0)?,
        constants: tables(m.constants(), |j, c| {
            Ok(NamedTensorRef {
                name: c.name().to_owned(),
                data_key: c.data_key().to_owned(),
                meta: meta(c.meta(), &format!("{path}.constants[{j}].meta"))?,
                kind: InputKind(c.kind().0),
                mutated: c.mutated(),
            })
        })?,
        output_specs: infallible(m.output_specs(), |s| OutputSpec {
            name: s.name().to_owned(),
            kind: OutputKind(s.kind().0),
            target: string(s.target()),
        }),
        mutable_buffers: infallible(m.mutable_buffers(), |b| MutableBufferSpec {
            name: b.name().to_owned(),
            fqn: b.fqn().to_owned(),
        }),
    })
}

fn strings<'a>(v: Option<flatbuffers::Vector<'a, flatbuffers::ForwardsUOffset<&'a str>>>) -> Option<Vec<String>> {
    v.map(|v| v.iter().map(str::to_owned).collect())
}

fn graph(g: nb::Graph<'_>, path: &str, depth: usize) -> Result<Graph> {
    if depth > MAX_GRAPH_NESTING {
        return Err(Error::new(
            ErrorKind::LimitExceeded,
            format!("subgraphs nest deeper than {MAX_GRAPH_NESTING} levels"),
        )
        .at_path(path)
        .at_offset(g._tab.loc() as u64));
    }
    Ok(Graph {
        nodes: tables(Some(g.nodes()), |n, node| {
            let npath = format!("{path}.nodes[{n}]");
            Ok(Node {
                name: node.name().to_owned(),
                op_kind: OpKind(node.op_kind().0),
                target: string(node.target()),
                inputs: tables(node.inputs(), |a, arg| {
                    Ok(NamedArgument {
                        name: string(arg.name()),
                        arg: argument(arg.arg(), &format!("{npath}.inputs[{a}].arg"), depth)?,
                        mutated: arg.mutated(),
                    })
                })?,
                outputs: infallible(node.outputs(), |o| Output {
                    name: o.name().to_owned(),
                    alias_of: string(o.alias_of()),
                    kind: OutputValueKind(o.kind().0),
                    names: strings(o.names()),
                }),
                metadata: infallible(node.metadata(), |kv| KeyValue {
                    key: kv.key().to_owned(),
                    value: kv.value().to_owned(),
                }),
            })
        })?
        .unwrap_or_default(),
        inputs: strings(g.inputs()),
        outputs: strings(g.outputs()),
        tensor_values: tables(g.tensor_values(), |k, v| {
            Ok(TensorValue {
                name: v.name().to_owned(),
                meta: meta(v.meta(), &format!("{path}.tensor_values[{k}].meta"))?,
            })
        })?,
    })
}

fn missing_member(path: &str, loc: usize) -> Error {
    Error::new(ErrorKind::Malformed, "union tag is set but its table is absent").at_path(path).at_offset(loc as u64)
}

fn argument(a: nb::Argument<'_>, path: &str, depth: usize) -> Result<Argument> {
    use nb::ArgumentValue as T;
    let loc = a._tab.loc();
    let vpath = format!("{path}.value");
    let tag = a.value_type();
    let missing = || missing_member(&vpath, loc);
    let value = match tag {
        T::NONE => None,
        T::TensorArg => {
            let t = a.value_as_tensor_arg().ok_or_else(missing)?;
            Some(ArgumentValue::Tensor { name: t.name().to_owned() })
        }
        T::NoneArg => {
            a.value_as_none_arg().ok_or_else(missing)?;
            Some(ArgumentValue::None)
        }
        T::IntArg => {
            let t = a.value_as_int_arg().ok_or_else(missing)?;
            Some(ArgumentValue::Int { value: t.value(), r#ref: string(t.ref_()) })
        }
        T::FloatArg => {
            let t = a.value_as_float_arg().ok_or_else(missing)?;
            Some(ArgumentValue::Float { value: t.value(), r#ref: string(t.ref_()) })
        }
        T::BoolArg => {
            let t = a.value_as_bool_arg().ok_or_else(missing)?;
            Some(ArgumentValue::Bool { value: t.value(), r#ref: string(t.ref_()) })
        }
        T::StringArg => Some(ArgumentValue::String(a.value_as_string_arg().ok_or_else(missing)?.value().to_owned())),
        T::ScalarTypeArg => Some(ArgumentValue::ScalarType(NativeScalarType(
            a.value_as_scalar_type_arg().ok_or_else(missing)?.value().0,
        ))),
        T::IntListArg => {
            let t = a.value_as_int_list_arg().ok_or_else(missing)?;
            Some(ArgumentValue::IntList { values: t.values().iter().collect(), refs: strings(t.refs()) })
        }
        T::FloatListArg => {
            Some(ArgumentValue::FloatList(a.value_as_float_list_arg().ok_or_else(missing)?.values().iter().collect()))
        }
        T::BoolListArg => {
            Some(ArgumentValue::BoolList(a.value_as_bool_list_arg().ok_or_else(missing)?.values().iter().collect()))
        }
        T::TensorListArg => Some(ArgumentValue::TensorList(
            a.value_as_tensor_list_arg().ok_or_else(missing)?.names().iter().map(str::to_owned).collect(),
        )),
        T::OptionalTensorListArg => {
            let t = a.value_as_optional_tensor_list_arg().ok_or_else(missing)?;
            Some(ArgumentValue::OptionalTensorList {
                names: t.names().iter().map(str::to_owned).collect(),
                has_value: t.has_value().iter().collect(),
            })
        }
        T::GraphArg => {
            let t = a.value_as_graph_arg().ok_or_else(missing)?;
            let sub = graph(t.graph(), &format!("{vpath}.graph"), depth.saturating_add(1))?;
            Some(ArgumentValue::Graph { name: t.name().to_owned(), graph: Box::new(sub) })
        }
        other => {
            return Err(Error::new(ErrorKind::Unsupported, format!("unknown ArgumentValue union tag {}", other.0))
                .at_path(format!("{path}.value_type"))
                .at_offset(loc as u64))
        }
    };
    Ok(Argument { value })
}

fn meta(m: nb::TensorMeta<'_>, path: &str) -> Result<TensorMeta> {
    let quant = match m.quant() {
        None => None,
        Some(q) => {
            use nb::QuantScheme as Q;
            let loc = q._tab.loc();
            let spath = format!("{path}.quant.scheme");
            let scheme = match q.scheme_type() {
                Q::NONE => None,
                Q::AffineGroup => {
                    let a = q.scheme_as_affine_group().ok_or_else(|| missing_member(&spath, loc))?;
                    Some(QuantScheme::AffineGroup(AffineGroup {
                        scale_data_key: a.scale_data_key().to_owned(),
                        scale_dtype: NativeScalarType(a.scale_dtype().0),
                        quant_min: a.quant_min(),
                        quant_max: a.quant_max(),
                        group_size: a.group_size(),
                        zero_point_data_key: string(a.zero_point_data_key()),
                        zero_point_dtype: NativeScalarType(a.zero_point_dtype().0),
                    }))
                }
                Q::PackedQuant => {
                    let p = q.scheme_as_packed_quant().ok_or_else(|| missing_member(&spath, loc))?;
                    Some(QuantScheme::PackedQuant { codec: p.codec().to_owned() })
                }
                other => {
                    return Err(Error::new(
                        ErrorKind::Unsupported,
                        format!("unknown QuantScheme union tag {}", other.0),
                    )
                    .at_path(format!("{path}.quant.scheme_type"))
                    .at_offset(loc as u64))
                }
            };
            Some(QuantSpec { scheme })
        }
    };
    Ok(TensorMeta {
        dtype: NativeScalarType(m.dtype().0),
        sizes: infallible(m.sizes(), |d| Dim { min: d.min(), max: d.max() }),
        dim_order: scalars(m.dim_order()),
        quant,
    })
}
