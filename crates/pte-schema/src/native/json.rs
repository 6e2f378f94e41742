//! The JSON form flatc prints for a native program (`flatc --json
//! --strict-json --defaults-json`): absent tables, vectors and strings are
//! omitted, scalars are written even at their default, enums are their
//! schema names (integers when undeclared), unions are a `<field>_type` name
//! beside `<field>`. Non-finite doubles become the strings `"inf"`, `"-inf"`
//! and `"nan"`, which strict JSON cannot express. flatc reads this form back.

use serde_json::{json, Map, Value};

use crate::program::json::write::double;

use super::model::*;

/// Renders `program` as flatc's JSON.
///
/// ```
/// use pte_schema::native::*;
/// let p = NativeProgram { version: Some("1".into()), methods: vec![NativeMethod::named("forward")] };
/// let v = native_program_to_json(&p);
/// assert_eq!(v["methods"][0]["name"], "forward");
/// assert!(v["methods"][0].get("constants").is_none());
/// ```
pub fn native_program_to_json(program: &NativeProgram) -> Value {
    let mut o = Obj::default();
    o.opt("version", program.version.as_ref().map(|v| json!(v)));
    o.put("methods", Value::Array(program.methods.iter().map(method).collect()));
    o.done()
}

/// An object builder that leaves absent fields out, as flatc does.
#[derive(Default)]
struct Obj(Map<String, Value>);

impl Obj {
    fn put(&mut self, k: &str, v: Value) {
        self.0.insert(k.to_string(), v);
    }
    fn opt(&mut self, k: &str, v: Option<Value>) {
        if let Some(v) = v {
            self.put(k, v);
        }
    }
    fn list<T>(&mut self, k: &str, v: &Option<Vec<T>>, f: impl Fn(&T) -> Value) {
        self.opt(k, v.as_ref().map(|v| Value::Array(v.iter().map(f).collect())));
    }
    fn string(&mut self, k: &str, v: &Option<String>) {
        self.opt(k, v.as_ref().map(|s| json!(s)));
    }
    fn strings(&mut self, k: &str, v: &Option<Vec<String>>) {
        self.opt(k, v.as_ref().map(|s| json!(s)));
    }
    fn union(&mut self, field: &str, type_name: &str, value: Option<Value>) {
        self.put(&format!("{field}_type"), json!(type_name));
        self.opt(field, value);
    }
    fn done(self) -> Value {
        Value::Object(self.0)
    }
}

fn name_or_int(name: Option<&str>, value: i8) -> Value {
    name.map_or_else(|| json!(value), |n| json!(n))
}

macro_rules! enum_json {
    ($v:expr) => {
        name_or_int($v.name(), $v.0)
    };
}

fn method(m: &NativeMethod) -> Value {
    let mut o = Obj::default();
    o.put("name", json!(m.name));
    o.put("graph", graph(&m.graph));
    o.list("constants", &m.constants, |c| {
        let mut r = Obj::default();
        r.put("name", json!(c.name));
        r.put("data_key", json!(c.data_key));
        r.put("meta", meta(&c.meta));
        r.put("kind", enum_json!(c.kind));
        r.put("mutated", json!(c.mutated));
        r.done()
    });
    o.list("output_specs", &m.output_specs, |s| {
        let mut r = Obj::default();
        r.put("name", json!(s.name));
        r.put("kind", enum_json!(s.kind));
        r.string("target", &s.target);
        r.done()
    });
    o.list("mutable_buffers", &m.mutable_buffers, |b| json!({ "name": b.name, "fqn": b.fqn }));
    o.done()
}

fn graph(g: &Graph) -> Value {
    let mut o = Obj::default();
    o.put("nodes", Value::Array(g.nodes.iter().map(node).collect()));
    o.strings("inputs", &g.inputs);
    o.strings("outputs", &g.outputs);
    o.list("tensor_values", &g.tensor_values, |v| json!({ "name": v.name, "meta": meta(&v.meta) }));
    o.done()
}

fn node(n: &Node) -> Value {
    let mut o = Obj::default();
    o.put("name", json!(n.name));
    o.put("op_kind", enum_json!(n.op_kind));
    o.string("target", &n.target);
    o.list("inputs", &n.inputs, |a| {
        let mut r = Obj::default();
        r.string("name", &a.name);
        r.put("arg", argument(&a.arg));
        r.put("mutated", json!(a.mutated));
        r.done()
    });
    o.list("outputs", &n.outputs, |out| {
        let mut r = Obj::default();
        r.put("name", json!(out.name));
        r.string("alias_of", &out.alias_of);
        r.put("kind", enum_json!(out.kind));
        r.strings("names", &out.names);
        r.done()
    });
    o.list("metadata", &n.metadata, |kv| json!({ "key": kv.key, "value": kv.value }));
    o.done()
}

fn scalar_with_ref(value: Value, r: &Option<String>) -> Value {
    let mut o = Obj::default();
    o.put("value", value);
    o.string("ref", r);
    o.done()
}

fn argument(a: &Argument) -> Value {
    let mut o = Obj::default();
    let Some(v) = &a.value else {
        o.union("value", "NONE", None);
        return o.done();
    };
    let body = match v {
        ArgumentValue::Tensor { name } => json!({ "name": name }),
        ArgumentValue::None => json!({}),
        ArgumentValue::Int { value, r#ref } => scalar_with_ref(json!(value), r#ref),
        ArgumentValue::Float { value, r#ref } => scalar_with_ref(double(*value), r#ref),
        ArgumentValue::Bool { value, r#ref } => scalar_with_ref(json!(value), r#ref),
        ArgumentValue::String(s) => json!({ "value": s }),
        ArgumentValue::ScalarType(t) => json!({ "value": enum_json!(t) }),
        ArgumentValue::IntList { values, refs } => {
            let mut l = Obj::default();
            l.put("values", json!(values));
            l.strings("refs", refs);
            l.done()
        }
        ArgumentValue::FloatList(v) => json!({ "values": v.iter().map(|x| double(*x)).collect::<Vec<_>>() }),
        ArgumentValue::BoolList(v) => json!({ "values": v }),
        ArgumentValue::TensorList(v) => json!({ "names": v }),
        ArgumentValue::OptionalTensorList { names, has_value } => json!({ "names": names, "has_value": has_value }),
        ArgumentValue::Graph { name, graph: g } => json!({ "name": name, "graph": graph(g) }),
    };
    o.union("value", v.type_name(), Some(body));
    o.done()
}

fn meta(m: &TensorMeta) -> Value {
    let mut o = Obj::default();
    o.put("dtype", enum_json!(m.dtype));
    o.list("sizes", &m.sizes, |d| json!({ "min": d.min, "max": d.max }));
    o.opt("dim_order", m.dim_order.as_ref().map(|d| json!(d)));
    o.opt(
        "quant",
        m.quant.as_ref().map(|q| {
            let mut s = Obj::default();
            match &q.scheme {
                None => s.union("scheme", "NONE", None),
                Some(QuantScheme::AffineGroup(a)) => {
                    let mut g = Obj::default();
                    g.put("scale_data_key", json!(a.scale_data_key));
                    g.put("scale_dtype", enum_json!(a.scale_dtype));
                    g.put("quant_min", json!(a.quant_min));
                    g.put("quant_max", json!(a.quant_max));
                    g.put("group_size", json!(a.group_size));
                    g.string("zero_point_data_key", &a.zero_point_data_key);
                    g.put("zero_point_dtype", enum_json!(a.zero_point_dtype));
                    s.union("scheme", "AffineGroup", Some(g.done()));
                }
                Some(QuantScheme::PackedQuant { codec }) => {
                    s.union("scheme", "PackedQuant", Some(json!({ "codec": codec })))
                }
            }
            s.done()
        }),
    );
    o.done()
}
