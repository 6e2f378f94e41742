//! A `pte-runner` header parsed straight into typed fields, every count and
//! length bounded while it is parsed: a header that lists millions of
//! values, dimensions or method names stops at the bound instead of being
//! built first and counted afterwards.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::index::{parse_special, FloatDoc, TensorDoc, ValueDoc};
use crate::SampleLimits;

/// Longest `op`, `protocol`, `method`, method name or tensor key, in bytes.
const NAME_MAX: usize = 4096;
/// Most method names a `hello` reply may list.
pub const MAX_METHODS: usize = 4096;
/// Most bytes the values of one header may take once parsed (their
/// tensors, keys, dimensions and strings together).
pub const MAX_PARSED_VALUES: usize = 8 << 20;
/// How much of a runner's free text (`error`, `runner`) is shown; the rest
/// is counted, not stored.
pub const MAX_TEXT_SHOWN: usize = 1000;

/// Text a runner supplied, as one line: control characters escaped by the
/// one rule for text from outside ([`pte_core::style::text`], as `pte info`
/// shows names), at most `cap` bytes of it kept and the length of the rest
/// said.
pub(crate) fn escaped(text: &str, cap: usize) -> String {
    let cut = (0..=cap.min(text.len())).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    let head = pte_core::style::text(text.get(..cut).unwrap_or(""));
    if cut < text.len() {
        format!("{head}... ({} bytes in all)", text.len())
    } else {
        head.into_owned()
    }
}

/// A header as either side reads it. Fields a message does not use are
/// absent; unknown fields are skipped without being stored.
#[derive(Deserialize, Default)]
pub(crate) struct Frame {
    #[serde(default, deserialize_with = "name")]
    pub op: Option<String>,
    #[serde(default, deserialize_with = "name")]
    pub protocol: Option<String>,
    #[serde(default)]
    pub version: Option<u64>,
    #[serde(default, deserialize_with = "name")]
    pub method: Option<String>,
    #[serde(default, deserialize_with = "values")]
    pub inputs: Option<Vec<ValueDoc>>,
    #[serde(default)]
    pub ok: Option<bool>,
    #[serde(default, deserialize_with = "text")]
    pub error: Option<String>,
    #[serde(default, deserialize_with = "text")]
    pub runner: Option<String>,
    #[serde(default, deserialize_with = "methods")]
    pub methods: Option<Vec<String>>,
    #[serde(default, deserialize_with = "values")]
    pub outputs: Option<Vec<ValueDoc>>,
    #[serde(default)]
    pub data: Option<u64>,
}

/// What parsing may still allocate, in bytes.
struct Budget(Cell<usize>);

impl Budget {
    fn new() -> Self {
        Budget(Cell::new(MAX_PARSED_VALUES))
    }

    fn take<E: de::Error>(&self, n: usize) -> Result<(), E> {
        match self.0.get().checked_sub(n) {
            Some(left) => {
                self.0.set(left);
                Ok(())
            }
            None => Err(E::custom(format!("the values take more than {MAX_PARSED_VALUES} bytes"))),
        }
    }
}

/// A string of at most `max` bytes, refused before it is copied; `budget`
/// pays for it when given.
struct Str<'b> {
    max: usize,
    what: &'static str,
    budget: Option<&'b Budget>,
}

impl<'de> DeserializeSeed<'de> for Str<'_> {
    type Value = String;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<String, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for Str<'_> {
    type Value = String;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a string ({}) of at most {} bytes", self.what, self.max)
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        if v.len() > self.max {
            return Err(E::custom(format!("a {} of {} bytes, over the limit of {}", self.what, v.len(), self.max)));
        }
        if let Some(b) = self.budget {
            b.take(v.len())?;
        }
        Ok(v.to_string())
    }
}

fn name<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Str { max: NAME_MAX, what: "name", budget: None }.deserialize(d).map(Some)
}

/// Free text, kept as one escaped line of at most [`MAX_TEXT_SHOWN`] bytes
/// of the original (the length of the rest said), never stored whole.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(escaped(v, MAX_TEXT_SHOWN))
        }
    }
    d.deserialize_str(V).map(Some)
}

fn methods<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Vec<String>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "null or a list of at most {MAX_METHODS} method names")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(m) = seq.next_element_seed(Str { max: NAME_MAX, what: "method name", budget: None })? {
                if out.len() == MAX_METHODS {
                    return Err(de::Error::custom(format!("more than {MAX_METHODS} method names")));
                }
                out.push(m);
            }
            Ok(Some(out))
        }
    }
    d.deserialize_any(V)
}

fn values<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<ValueDoc>>, D::Error> {
    let budget = Budget::new();
    d.deserialize_seq(Values { budget: &budget, max: SampleLimits::default().max_values }).map(Some)
}

/// A list of at most `max` values.
struct Values<'b> {
    budget: &'b Budget,
    max: usize,
}

impl<'de> Visitor<'de> for Values<'_> {
    type Value = Vec<ValueDoc>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a list of at most {} values", self.max)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Value { budget: self.budget, item: false })? {
            if out.len() == self.max {
                return Err(de::Error::custom(format!("more than {} values", self.max)));
            }
            self.budget.take(std::mem::size_of::<ValueDoc>())?;
            out.push(v);
        }
        Ok(out)
    }
}

/// The fields a value may have.
#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "snake_case")]
enum Field {
    Type,
    Key,
    Dtype,
    Shape,
    Value,
    Items,
}

/// A scalar `value`: a number, a bool, a string or null, never a container.
enum Scalar {
    Int(i64),
    Big(u64),
    Float(f64),
    Bool(bool),
    Str(String),
}

struct ScalarSeed<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for ScalarSeed<'_> {
    type Value = Scalar;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
}

impl Visitor<'_> for ScalarSeed<'_> {
    type Value = Scalar;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number, a bool or a string")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Scalar, E> {
        Ok(Scalar::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Scalar, E> {
        Ok(i64::try_from(v).map_or(Scalar::Big(v), Scalar::Int))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Scalar, E> {
        Ok(Scalar::Float(v))
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Scalar, E> {
        Ok(Scalar::Bool(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Scalar, E> {
        let max = SampleLimits::default().max_string_len;
        Str { max, what: "string value", budget: Some(self.0) }.visit_str(v).map(Scalar::Str)
    }
}

/// A shape of dimensions paid for from the budget as they come.
struct Shape<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Shape<'_> {
    type Value = Vec<u64>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<u64>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Shape<'_> {
    type Value = Vec<u64>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of dimensions")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u64>, A::Error> {
        let mut out = Vec::new();
        while let Some(d) = seq.next_element::<u64>()? {
            self.0.take(std::mem::size_of::<u64>())?;
            out.push(d);
        }
        Ok(out)
    }
}

/// The items of a tensor list: at most the sidecar's list length.
struct Items<'b>(&'b Budget);

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = Vec<TensorDoc>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Vec<TensorDoc>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Vec<TensorDoc>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of tensors")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<TensorDoc>, A::Error> {
        let max = SampleLimits::default().max_list_len;
        let mut out = Vec::new();
        while let Some(v) = seq.next_element_seed(Value { budget: self.0, item: true })? {
            if out.len() == max {
                return Err(de::Error::custom(format!("more than {max} tensors in a list")));
            }
            let ValueDoc::Tensor { key, dtype, shape } = v else {
                return Err(de::Error::custom("a list item that is not a tensor"));
            };
            self.0.take(std::mem::size_of::<TensorDoc>())?;
            out.push(TensorDoc { key, dtype, shape });
        }
        Ok(out)
    }
}

/// One value, or (`item`) a list item: a tensor without a `type`.
struct Value<'b> {
    budget: &'b Budget,
    item: bool,
}

impl<'de> DeserializeSeed<'de> for Value<'_> {
    type Value = ValueDoc;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ValueDoc, D::Error> {
        d.deserialize_map(self)
    }
}

fn once<T, E: de::Error>(slot: &mut Option<T>, v: T, field: &'static str) -> Result<(), E> {
    if slot.replace(v).is_some() {
        return Err(E::duplicate_field(field));
    }
    Ok(())
}

impl<'de> Visitor<'de> for Value<'_> {
    type Value = ValueDoc;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a value object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ValueDoc, A::Error> {
        let b = self.budget;
        let (mut ty, mut key, mut dtype, mut shape, mut value, mut items) = (None, None, None, None, None, None);
        while let Some(k) = map.next_key::<Field>()? {
            match k {
                Field::Type => {
                    once(&mut ty, map.next_value_seed(Str { max: 64, what: "type", budget: None })?, "type")?
                }
                Field::Key => {
                    let s = map.next_value_seed(Str { max: NAME_MAX, what: "tensor key", budget: Some(b) })?;
                    once(&mut key, s, "key")?;
                }
                Field::Dtype => {
                    let s = map.next_value_seed(Str { max: 64, what: "dtype", budget: Some(b) })?;
                    once(&mut dtype, s, "dtype")?;
                }
                Field::Shape => once(&mut shape, map.next_value_seed(Shape(b))?, "shape")?,
                Field::Value => once(&mut value, map.next_value_seed(ScalarSeed(b))?, "value")?,
                Field::Items => once(&mut items, map.next_value_seed(Items(b))?, "items")?,
            }
        }
        let ty = match (ty, self.item) {
            (None, true) => "tensor".to_string(),
            (Some(_), true) => return Err(de::Error::custom("a list item has no field `type`")),
            (Some(t), false) => t,
            (None, false) => return Err(de::Error::missing_field("type")),
        };
        let extra = |present: bool, field: &str| -> Result<(), A::Error> {
            if present {
                return Err(de::Error::custom(format!("a {ty} value has no field `{field}`")));
            }
            Ok(())
        };
        let missing = |field: &'static str| -> A::Error { de::Error::missing_field(field) };
        let tensor_fields = key.is_some() || dtype.is_some() || shape.is_some();
        let doc = match ty.as_str() {
            "tensor" => {
                extra(value.is_some(), "value")?;
                extra(items.is_some(), "items")?;
                ValueDoc::Tensor {
                    key: key.ok_or_else(|| missing("key"))?,
                    dtype: dtype.ok_or_else(|| missing("dtype"))?,
                    shape: shape.ok_or_else(|| missing("shape"))?,
                }
            }
            "tensor_list" => {
                extra(value.is_some() || tensor_fields, "value, key, dtype or shape")?;
                ValueDoc::TensorList { items: items.ok_or_else(|| missing("items"))? }
            }
            "none" => {
                extra(value.is_some() || items.is_some() || tensor_fields, "but `type`")?;
                ValueDoc::None {}
            }
            scalar => {
                extra(items.is_some() || tensor_fields, "items, key, dtype or shape")?;
                let v = value.ok_or_else(|| missing("value"))?;
                let wrong = || de::Error::custom(format!("a {scalar} value that is not one"));
                match (scalar, v) {
                    ("int", Scalar::Int(i)) => ValueDoc::Int { value: i },
                    ("float", Scalar::Float(f)) => ValueDoc::Float { value: FloatDoc(f) },
                    #[allow(clippy::cast_precision_loss)] // an integer literal in a float slot means its nearest float
                    ("float", Scalar::Int(i)) => ValueDoc::Float { value: FloatDoc(i as f64) },
                    #[allow(clippy::cast_precision_loss)]
                    ("float", Scalar::Big(u)) => ValueDoc::Float { value: FloatDoc(u as f64) },
                    ("float", Scalar::Str(s)) => {
                        ValueDoc::Float { value: FloatDoc(parse_special(&s).ok_or_else(wrong)?) }
                    }
                    ("bool", Scalar::Bool(v)) => ValueDoc::Bool { value: v },
                    ("string", Scalar::Str(s)) => ValueDoc::String { value: s },
                    ("int" | "float" | "bool" | "string", _) => return Err(wrong()),
                    (other, _) => {
                        return Err(de::Error::unknown_variant(
                            other,
                            &["tensor", "tensor_list", "int", "float", "bool", "string", "none"],
                        ))
                    }
                }
            }
        };
        Ok(doc)
    }
}
